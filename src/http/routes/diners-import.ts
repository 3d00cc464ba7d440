/**
 * Importing diners from a spreadsheet on the Dinners page (the Excel dialog), shown before it is written:
 *
 * 1. `diners.import.store` takes the file (.xlsx, .xls, .ods or .csv; DINER_INTAKE bounds the body), the cafe of
 *    rows whose cafe cell is blank (`cafe_id`: one of the person's cafes, else 404) and whether to deactivate the
 *    leavers. The file is kept under STORAGE_PATH/jobs and a background job (src/domain/jobs/diners-import.ts)
 *    reads and checks it with the person's scope, writing nothing. A file refused as a whole comes back as the job's
 *    message, which the dialog shows on its file field.
 * 2. The page's `dinerImport` prop shows the job: its progress, then the preview (what would be created, updated
 *    or left unchanged, the rows with problems, unknown columns, blacklisted documents, leavers, the first changes),
 *    then what was written.
 * 3. `diners.import.confirm` (only the person's own preview, while its upload is kept; anything else is refused on
 *    the `confirm` field, the same for someone else's job as for a missing one) starts the job that writes exactly
 *    the previewed plan of the person's choice about the leavers. `diners.import.dismiss` closes the result (and
 *    deletes a kept upload); someone else's import, like a missing one, is left as it is.
 */
import { eq } from "drizzle-orm";
import { cafes } from "../../../db/schema";
import { can } from "../../domain/access/authorization";
import { reachesCafe } from "../../domain/access/scope";
import { NotFound, ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import {
  DINERS_IMPORT,
  IMPORT_FAILED,
  planFor,
  previewConfirmable,
  type DinersImportInput,
  type DinersImportResult,
} from "../../domain/jobs/diners-import";
import {
  dismissJob,
  holdsUpload,
  isFinished,
  latestJob,
  takeKeptUpload,
  uploadExpiresAt,
  type Job,
} from "../../domain/jobs/jobs";
import type { DinerImportPreview } from "../../domain/sales/diner-import";
import { DINER_INTAKE } from "../../domain/spreadsheets/read";
import type { RequestContext } from "../context";
import { keepUpload, ownJob, requireNoJobRunning, startJobOn } from "../workbook-jobs";
import { access, defineRoutes } from "../routing";
import type { DinerImportProp, DinerImportView } from "../../shared/sales/types";
export type { DinerImportProp, DinerImportView } from "../../shared/sales/types";

const JOB_ID = "[1-9]\\d{0,15}";
/** Changes listed on the page (the counts cover them all). */
const CHANGES_SHOWN = 50;

/** The Dinners page's `dinerImport` prop for the signed-in person. */
export function dinerImportProp(ctx: RequestContext): DinerImportProp | null {
  if (!can(ctx.access, "diners.import")) return null;
  const job = latestJob(ctx.db, ctx.user!.id, DINERS_IMPORT);
  return { job: job ? describeJob(ctx, job) : null, maxBytes: DINER_INTAKE.maxBytes };
}

const errorKeyOf = (job: Job) =>
  job.error === null ? null : typeof job.error === "string" ? job.error : job.error.key;

function describePreview(ctx: RequestContext, preview: DinerImportPreview) {
  return {
    sheet: preview.sheet,
    headerRow: preview.headerRow,
    rows: preview.rows,
    problems: preview.problems.map((p) => ({ row: p.row, column: p.column, message: ctx.say(p.message) })),
    problemCount: preview.problemCount,
    unknownColumns: preview.unknownColumns,
    blacklisted: preview.blacklisted,
    leavers: preview.leavers,
    leaverCount: preview.leaverCount,
    changes: preview.changes.slice(0, CHANGES_SHOWN),
    changeCount: preview.created + preview.updated,
  };
}

function describeJob(ctx: RequestContext, job: Job): DinerImportView {
  const input = job.input as DinersImportInput;
  const result = (job.result ?? null) as DinersImportResult | null;
  const view: DinerImportView = {
    id: job.id,
    state: job.state,
    step: input.step === "apply" ? "saving" : "checking",
    fileName: input.fileName,
    defaultCafeId: input.defaultCafeId,
    deactivateLeavers: input.deactivateLeavers,
    progress: job.progress,
    notice: null,
    sheet: null,
    headerRow: null,
    rows: 0,
    counts: null,
    problems: [],
    problemCount: 0,
    unknownColumns: [],
    blacklisted: [],
    leavers: [],
    leaverCount: 0,
    changes: [],
    changeCount: 0,
    canConfirm: false,
    canDeactivate: false,
    expiresAt: null,
  };
  if (!isFinished(job.state)) return view;
  const said = job.error ? ctx.say(job.error) : null;
  if (job.state === "succeeded" && result?.counts)
    return { ...view, step: "done", notice: ctx.t("dinners.import.done"), counts: result.counts };
  if (result?.refused) return { ...view, step: "refused", notice: said };
  const preview = result?.preview;
  const errorKey = errorKeyOf(job);
  // A preview: the job's own, or the new one a confirmation found instead (the diners changed, another import wrote).
  if (preview && (job.state === "succeeded" || errorKey === IMPORT_FAILED || result?.plans)) {
    const shown = { ...view, ...describePreview(ctx, preview) };
    // The rows to fix say it all; a notice only says why there is a new preview.
    if (preview.problemCount > 0)
      return { ...shown, step: "problems", notice: errorKey === IMPORT_FAILED ? null : said };
    const confirmable = previewConfirmable(preview) && holdsUpload(job);
    const notice = !previewConfirmable(preview)
      ? ctx.t("dinners.import.nothing_to_import")
      : !confirmable
        ? ctx.t("dinners.import.expired")
        : said;
    return {
      ...shown,
      step: "preview",
      notice,
      counts: {
        created: preview.created,
        updated: preview.updated,
        unchanged: preview.unchanged,
        deactivated: input.deactivateLeavers ? preview.leaverCount : 0,
      },
      canConfirm: confirmable,
      canDeactivate: preview.leaverCount > 0 && result?.plans?.deactivate != null,
      expiresAt: confirmable ? (uploadExpiresAt(job)?.toISOString() ?? null) : null,
    };
  }
  return { ...view, step: "failed", notice: said };
}

/** The person's own diner import with this id, or null. */
const ownImport = (ctx: RequestContext, id: number) => ownJob(ctx, DINERS_IMPORT, id);

/** A checkbox of a form: "1", "true" or "on" (a multipart or urlencoded field), or a JSON boolean. */
function checked(value: unknown): boolean {
  return value === true || value === "1" || value === "true" || value === "on";
}

/** The cafe for blank cafe cells: none, or one of the person's cafes (anything else reads as not found). */
function defaultCafe(ctx: RequestContext, value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const id =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) throw new ValidationFailed({ cafe_id: message("dinners.import.cafe_invalid") });
  const cafe = ctx.db.select({ id: cafes.id }).from(cafes).where(eq(cafes.id, id)).get();
  if (!cafe || !reachesCafe(ctx.scope, cafe.id)) throw new NotFound();
  return cafe.id;
}

/** The stored upload's extension: the spreadsheet kind its name says, else none (the intake goes by the bytes). */
function extensionOf(fileName: string): string {
  return /\.(xlsx|xls|ods|csv)$/i.exec(fileName)?.[1].toLowerCase() ?? "upload";
}

function startJob(ctx: RequestContext, input: DinersImportInput, upload: string) {
  return startJobOn(ctx, DINERS_IMPORT, input, upload);
}

/** Started: an API client gets the job to follow (jobs.show); the page goes back to where it was. */
function started(ctx: RequestContext, job: Job): Response {
  if (ctx.wantsJson) return Response.json({ job: job.id }, { status: 202 });
  return ctx.back(ctx.urlFor("dinners.index"));
}

export const dinersImportRoutes = defineRoutes([
  {
    name: "diners.import.store",
    methods: ["POST"],
    uri: "/diners/import",
    access: access.can("diners.import"),
    multipart: true,
    // The file's own limit is DINER_INTAKE's (said with a clear message); this leaves room for the form around it.
    maxBodyBytes: DINER_INTAKE.maxBytes + 1024 * 1024,
    handle: async (ctx) => {
      const file = ctx.body.file;
      // A form sent without a file (a browser sends an empty part without a name) is a missing file; an empty
      // file with a name is the intake's to refuse, and is recorded as refused.
      if (!(file instanceof Blob) || (file.size === 0 && !(file instanceof File && file.name)))
        throw new ValidationFailed({ file: message("dinners.import.file_required") });
      const defaultCafeId = defaultCafe(ctx, ctx.body.cafe_id);
      // One import at a time per person, so uploads waiting for their turn stay few.
      requireNoJobRunning(ctx, DINERS_IMPORT, "file", message("dinners.import.busy"));
      const bytes = new Uint8Array(await file.arrayBuffer());
      const fileName = (file instanceof File && file.name ? file.name : "diners").slice(0, 200);
      const upload = keepUpload(ctx, DINERS_IMPORT, bytes, extensionOf(fileName));
      const job = startJob(
        ctx,
        {
          step: "preview",
          path: upload,
          fileName,
          defaultCafeId,
          deactivateLeavers: checked(ctx.body.deactivate_leavers),
          dniLength: ctx.config.dniLength,
        },
        upload,
      );
      return started(ctx, job);
    },
  },
  {
    name: "diners.import.confirm",
    methods: ["POST"],
    uri: "/diners/import/{job}/confirm",
    wheres: { job: JOB_ID },
    access: access.can("diners.import"),
    handle: (ctx) => {
      requireNoJobRunning(ctx, DINERS_IMPORT, "confirm", message("dinners.import.busy"));
      // Only the person's own preview: anyone else's job, like a missing one, is one they cannot import.
      const job = ownImport(ctx, Number(ctx.params.job));
      const result = (job?.result ?? null) as DinersImportResult | null;
      const preview = result?.preview;
      const plans = result?.plans;
      // The plan confirmed is one recorded with the preview on the server, never one the browser sends: the
      // person's choice about the leavers picks which (with no leavers, both choices write the same).
      let deactivateLeavers = checked(ctx.body.deactivate_leavers);
      if (plans && planFor(plans, deactivateLeavers) === null) deactivateLeavers = !deactivateLeavers;
      const plan = plans ? planFor(plans, deactivateLeavers) : null;
      const upload =
        job && preview && plan !== null && previewConfirmable(preview) ? takeKeptUpload(ctx.db, job) : null;
      if (!job || upload === null || plan === null)
        throw new ValidationFailed({ confirm: message("dinners.import.confirm_unavailable") });
      const input = job.input as DinersImportInput;
      const next = startJob(
        ctx,
        {
          step: "apply",
          path: upload,
          fileName: input.fileName,
          defaultCafeId: input.defaultCafeId,
          deactivateLeavers,
          dniLength: ctx.config.dniLength,
          plan,
        },
        upload,
      );
      return started(ctx, next);
    },
  },
  {
    name: "diners.import.dismiss",
    methods: ["POST"],
    uri: "/diners/import/{job}/dismiss",
    wheres: { job: JOB_ID },
    access: access.can("diners.import"),
    handle: (ctx) => {
      // Only the person's own import is closed: anyone else's, like a missing one, is left as it is.
      const job = ownImport(ctx, Number(ctx.params.job));
      if (job) dismissJob(ctx.db, ctx.user!.id, job.id);
      if (ctx.wantsJson) return new Response(null, { status: 204 });
      return ctx.back(ctx.urlFor("dinners.index"));
    },
  },
]);
