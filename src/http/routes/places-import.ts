/**
 * Importing mines, units, cafes, services and prices from a workbook uploaded on the Management page, and the
 * template to fill in. An import is shown before it is written:
 *
 * 1. The upload's bounds (size, zip structure) are checked at once, and a refused file is said on the form's file
 *    field. Otherwise the file is kept under STORAGE_PATH/jobs and a background job (src/domain/jobs/places-import.ts)
 *    reads it and checks every row, with the scope and permissions the person has, writing nothing.
 * 2. The Management page shows the result (`importJobView`): what would be created, changed or left alone, the
 *    example rows skipped, or the rows to fix worded with where they are ("Comedores, fila 7 (Empresa): …").
 * 3. Confirming (`management.import_confirm`, only the person's own preview, while its upload is kept; anything else
 *    is refused on the `confirm` field, the same for someone else's job as for a missing one) starts the
 *    job that writes exactly that preview's plan; when the places changed meanwhile it writes nothing and the page
 *    shows the new preview. Discarding is dismissing the job (src/http/routes/jobs.ts), which deletes the upload.
 */
import { can } from "../../domain/access/authorization";
import { businessOptions } from "../../domain/organisation/businesses";
import { firstActiveService } from "../../domain/places/services";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import {
  holdsUpload,
  isFinished,
  latestJob,
  takeKeptUpload,
  uploadExpiresAt,
  UPLOAD_KEPT_MS,
  type Job,
  type JobState,
} from "../../domain/jobs/jobs";
import {
  IMPORT_FAILED,
  PLACES_IMPORT,
  PLAN_CHANGED,
  type PlacesImportInput,
  type PlacesImportResult,
} from "../../domain/jobs/places-import";
import {
  canConfirm,
  describeChange,
  describeCounts,
  describeExamples,
  describeProblems,
  placesTemplate,
  previewWrites,
  type ImportAbilities,
  type ImportPreview,
} from "../../domain/places/import";
import { checkZip, MAX_WORKBOOK_BYTES } from "../../domain/spreadsheets/read";
import type { RequestContext } from "../context";
import { keepUpload, ownJob, requireNoJobRunning, startJobOn } from "../workbook-jobs";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";
import type { Translate, TranslationKey } from "../../shared/i18n";

const JOB_ID = "[1-9]\\d{0,15}";

function abilities(ctx: RequestContext): ImportAbilities {
  return {
    places: can(ctx.access, "places.manage"),
    services: can(ctx.access, "services.manage"),
    prices: can(ctx.access, "prices.manage"),
  };
}

/** A business the actor may give a new cafe (the first of their scope by name), for the template's example row. */
function exampleBusiness(ctx: RequestContext): string {
  return businessOptions(ctx.db, ctx.scope)[0]?.name ?? (ctx.locale === "es" ? "Empresa S.A.C." : "Business S.A.C.");
}

/** A places import as the Management page shows it, worded in the viewer's language. */
export interface ImportJobView {
  id: number;
  state: JobState;
  /**
   * What the person sees: the workbook being checked, a preview to confirm (or one with nothing to import), the rows
   * to fix, the import being written, its end, or why it could not run.
   */
  step: "checking" | "preview" | "problems" | "saving" | "done" | "failed";
  fileName: string;
  /** `label` is a translation key; the page words it. */
  progress: { done: number; total: number; label: TranslationKey | "" };
  /** What to say first: nothing to import, the preview expired, the places changed, the rows to fix, done, a failure. */
  notice: string | null;
  /** One line per kind: "2 comedores nuevos, 1 comedor con cambios, 5 comedores sin cambios". */
  counts: string[];
  /** Each record the import would create or update, worded; a last line says how many more there are. */
  changes: string[];
  /** How many records the import would create or update. */
  changeCount: number;
  /** The rows skipped as examples, as one sentence. */
  examples: string | null;
  /** The rows to fix, keyed `rows.<sheet>.<row>[.<column>]`, each worded with its sheet, row and column. */
  problems: Record<string, string>;
  /** Whether the preview may be confirmed now (it writes something, has no problem, and its upload is kept). */
  canConfirm: boolean;
  /** Until when it may be confirmed (ISO 8601). */
  expiresAt: string | null;
}

function previewLines(ctx: RequestContext, preview: ImportPreview) {
  const t: Translate = (key, params) => ctx.t(key, params);
  const changes = preview.changes.map((c) => describeChange(c, t));
  if (preview.moreChanges) changes.push(t("import.more_changes", { count: preview.moreChanges }));
  return {
    counts: describeCounts(preview.counts, t),
    changes,
    changeCount: preview.changes.length + preview.moreChanges,
    examples: describeExamples(preview, t),
  };
}

/** The signed-in person's latest places import that they have not dismissed, or null. */
export function importJobView(ctx: RequestContext): ImportJobView | null {
  const job = latestJob(ctx.db, ctx.user!.id, PLACES_IMPORT);
  return job ? describeJob(ctx, job) : null;
}

function describeJob(ctx: RequestContext, job: Job): ImportJobView {
  const t: Translate = (key, params) => ctx.t(key, params);
  const input = job.input as PlacesImportInput;
  const result = job.result as PlacesImportResult | null;
  const view: ImportJobView = {
    id: job.id,
    state: job.state,
    step: input.step === "apply" ? "saving" : "checking",
    fileName: input.fileName,
    progress: job.progress,
    notice: null,
    counts: [],
    changes: [],
    changeCount: 0,
    examples: null,
    problems: {},
    canConfirm: false,
    expiresAt: null,
  };
  if (!isFinished(job.state)) return view;
  const errorKey = job.error === null ? null : typeof job.error === "string" ? job.error : job.error.key;
  const preview = result?.preview;
  if (job.state === "succeeded" && result?.counts) {
    // Written: what it did.
    return {
      ...view,
      step: "done",
      notice: t("import.done"),
      counts: describeCounts(result.counts, t),
      examples: preview ? describeExamples(preview, t) : null,
    };
  }
  if (preview && (job.state === "succeeded" || errorKey === PLAN_CHANGED || errorKey === IMPORT_FAILED)) {
    const changed = errorKey === PLAN_CHANGED ? t("import.plan_changed") : null;
    if (preview.problems.length) {
      const problems = describeProblems(preview.problems, t);
      if (preview.moreProblems) problems["rows.more"] = t("import.more_problems", { count: preview.moreProblems });
      return {
        ...view,
        step: "problems",
        notice: [changed, t("import.errors_title")].filter(Boolean).join(" "),
        examples: describeExamples(preview, t),
        problems,
      };
    }
    const confirmable = canConfirm(preview) && holdsUpload(job);
    const notice = !previewWrites(preview)
      ? t("import.nothing_to_import")
      : !confirmable
        ? t("import.expired", { minutes: UPLOAD_KEPT_MS / 60_000 })
        : changed;
    return {
      ...view,
      step: "preview",
      notice,
      ...previewLines(ctx, preview),
      canConfirm: confirmable,
      expiresAt: confirmable ? (uploadExpiresAt(job)?.toISOString() ?? null) : null,
    };
  }
  return { ...view, step: "failed", notice: job.error ? ctx.say(job.error) : null };
}

/** The person's own places import with this id, or null. */
const ownImport = (ctx: RequestContext, id: number) => ownJob(ctx, PLACES_IMPORT, id);

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
      requireNoJobRunning(ctx, PLACES_IMPORT, "file", message("import.busy"));
      const bytes = new Uint8Array(await file.arrayBuffer());
      // Size and zip structure now, so a refused file is said on the form; reading the rows is the job's.
      checkZip(bytes);
      const upload = keepUpload(ctx, PLACES_IMPORT, bytes, "xlsx");
      const input: PlacesImportInput = {
        step: "preview",
        path: upload,
        fileName: (file instanceof File && file.name ? file.name : "workbook.xlsx").slice(0, 200),
        abilities: abilities(ctx),
        timeZone: ctx.config.timezone,
      };
      startJobOn(ctx, PLACES_IMPORT, input, upload);
      return ctx.back(ctx.urlFor("management.index"));
    },
  },
  {
    name: "management.import_confirm",
    methods: ["POST"],
    uri: "/management/import/{job}/confirm",
    wheres: { job: JOB_ID },
    access: access.can("places.manage"),
    handle: (ctx) => {
      requireNoJobRunning(ctx, PLACES_IMPORT, "confirm", message("import.busy"));
      // Only the person's own preview: anyone else's job, like a missing one, is one they cannot import.
      const job = ownImport(ctx, Number(ctx.params.job));
      const preview = (job?.result as PlacesImportResult | null | undefined)?.preview;
      // The plan confirmed is the one recorded with the preview on the server, never one the browser sends.
      const upload = job && preview && canConfirm(preview) ? takeKeptUpload(ctx.db, job) : null;
      if (!job || !preview || upload === null)
        throw new ValidationFailed({ confirm: message("import.confirm_unavailable") });
      const input: PlacesImportInput = {
        step: "apply",
        path: upload,
        fileName: (job.input as PlacesImportInput).fileName,
        // Written with the rights the person has now: if they changed, so does the plan, and nothing is written.
        abilities: abilities(ctx),
        timeZone: ctx.config.timezone,
        plan: preview.plan,
      };
      startJobOn(ctx, PLACES_IMPORT, input, upload);
      return ctx.back(ctx.urlFor("management.index"));
    },
  },
  {
    name: "management.import_template",
    methods: ["GET"],
    uri: "/management/import/template",
    access: access.can("places.view"),
    handle: (ctx) => {
      // The example rows show an existing service's code; they are marked as examples and never imported.
      const sheets = placesTemplate(ctx.locale, {
        business: exampleBusiness(ctx),
        timeZone: ctx.config.timezone,
        service: firstActiveService(ctx.db),
      });
      return xlsxResponse(
        exportFileName(ctx.locale === "es" ? "plantilla-lugares" : "places-template", ctx.config.timezone),
        sheets,
      );
    },
  },
]);
