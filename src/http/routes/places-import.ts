/**
 * Importing mines, units, cafes, services and prices from a workbook uploaded on the Management page, and the
 * template to fill in. The upload's bounds (size, zip structure) are checked at once, and a refused file is said
 * on the form's file field; otherwise the file is kept under STORAGE_PATH/jobs and a background job
 * (src/domain/jobs/places-import.ts) reads it, checks every row and applies all or nothing, with the scope and
 * permissions the person had when they uploaded it. The Management page shows their latest import
 * (`importJobView`): its progress, then the counts, or the rows to fix worded with where they are:
 * "Comedores, fila 7 (Empresa): …".
 */
import { asc, eq } from "drizzle-orm";
import { businesses, services } from "../../../db/schema";
import { can } from "../../domain/access/authorization";
import { message, ValidationFailed } from "../../domain/errors";
import { isFinished, latestJob, removeUpload, storeUpload, type JobState } from "../../domain/jobs/jobs";
import {
  PLACES_IMPORT,
  type PlacesImportInput,
  type PlacesImportProblems,
  type PlacesImportResult,
} from "../../domain/jobs/places-import";
import { describeCounts, describeProblems, placesTemplate, type ImportAbilities } from "../../domain/places/import";
import { checkZip, MAX_WORKBOOK_BYTES } from "../../domain/spreadsheets/read";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

function abilities(ctx: RequestContext): ImportAbilities {
  return {
    places: can(ctx.access, "places.manage"),
    services: can(ctx.access, "services.manage"),
    prices: can(ctx.access, "prices.manage"),
  };
}

/** A business the actor may give a new cafe, for the template's example row. */
function exampleBusiness(ctx: RequestContext): string {
  const scope = ctx.scope;
  const all = ctx.db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .orderBy(asc(businesses.name))
    .all();
  const usable = scope.all ? all : all.filter((b) => scope.businessIds.has(b.id));
  return usable[0]?.name ?? (ctx.locale === "es" ? "Empresa S.A.C." : "Business S.A.C.");
}

/** A places import as the Management page shows it, worded in the viewer's language. */
export interface ImportJobView {
  id: number;
  state: JobState;
  fileName: string;
  /** `label` is a translation key; the page words it. */
  progress: { done: number; total: number; label: string };
  /** What a successful import did: "Libro importado. Minas: 1 nuevas, …". */
  summary: string | null;
  /** Why it failed: the rows to fix (then listed in `problems`), or what is wrong with the file. */
  error: string | null;
  /** The rows to fix, keyed `rows.<sheet>.<row>[.<column>]`, each worded with its sheet, row and column. */
  problems: Record<string, string>;
}

/** The signed-in person's latest places import that they have not dismissed, or null. */
export function importJobView(ctx: RequestContext): ImportJobView | null {
  const job = latestJob(ctx.db, ctx.user!.id, PLACES_IMPORT);
  if (!job) return null;
  const t = (key: string, params?: Record<string, string | number>) => ctx.t(key, params);
  const view: ImportJobView = {
    id: job.id,
    state: job.state,
    fileName: (job.input as PlacesImportInput).fileName,
    progress: job.progress,
    summary: null,
    error: null,
    problems: {},
  };
  if (job.state === "succeeded") view.summary = describeCounts((job.result as PlacesImportResult).counts, t);
  if (job.state === "failed") {
    view.error = job.error ? ctx.say(job.error) : null;
    const rows = job.result as PlacesImportProblems | null;
    if (rows) {
      view.problems = describeProblems(rows.problems, t);
      if (rows.more) view.problems["rows.more"] = t("import.more_problems", { count: rows.more });
    }
  }
  return view;
}

export const placesImportRoutes = defineRoutes([
  {
    name: "management.import",
    methods: ["POST"],
    uri: "/management/import",
    access: access.can("places.manage"),
    multipart: true,
    // The workbook's own limit (5 MiB) is checked with a clear message; this leaves room for the form around it.
    maxBodyBytes: MAX_WORKBOOK_BYTES + 1024 * 1024,
    handle: async (ctx) => {
      const file = ctx.body.file;
      if (!(file instanceof Blob) || file.size === 0)
        throw new ValidationFailed({ file: message("import.file_required") });
      // One import at a time per person, so uploads waiting for their turn stay few.
      const current = latestJob(ctx.db, ctx.user!.id, PLACES_IMPORT);
      if (current && !isFinished(current.state)) throw new ValidationFailed({ file: message("import.busy") });
      const bytes = new Uint8Array(await file.arrayBuffer());
      // Size and zip structure now, so a refused file is said on the form; reading the rows is the job's.
      checkZip(bytes);
      const upload = storeUpload(ctx.config.storagePath, bytes, "xlsx");
      const input: PlacesImportInput = {
        path: upload,
        fileName: (file instanceof File && file.name ? file.name : "workbook.xlsx").slice(0, 200),
        abilities: abilities(ctx),
        timeZone: ctx.config.timezone,
        dryRun: false,
      };
      try {
        ctx.services.jobs.start({
          kind: PLACES_IMPORT,
          actor: { userId: ctx.user!.id, label: ctx.actor.label },
          scope: ctx.scope,
          input,
          upload,
        });
      } catch (error) {
        removeUpload(upload);
        throw error;
      }
      return ctx.back(ctx.urlFor("management.index"));
    },
  },
  {
    name: "management.import_template",
    methods: ["GET"],
    uri: "/management/import/template",
    access: access.can("places.view"),
    handle: (ctx) => {
      // The example rows use an existing service as it is, so importing the template unchanged does not alter it.
      const service = ctx.db
        .select({ code: services.code, name: services.name, type: services.type, description: services.description })
        .from(services)
        .where(eq(services.active, true))
        .orderBy(asc(services.code))
        .get();
      const sheets = placesTemplate(ctx.locale, {
        business: exampleBusiness(ctx),
        timeZone: ctx.config.timezone,
        service,
      });
      return xlsxResponse(
        exportFileName(ctx.locale === "es" ? "plantilla-lugares" : "places-template", ctx.config.timezone),
        sheets,
      );
    },
  },
]);
