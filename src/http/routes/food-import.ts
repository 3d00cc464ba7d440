/**
 * The dishes workbook on the Food page, shown before it is written, as background jobs
 * (src/domain/jobs/dishes-import.ts):
 *
 * 1. `food.dishes.import.preview` takes the file (.xlsx, .xls, .ods or .csv) and keeps it under STORAGE_PATH/jobs; a
 *    job reads it and checks every row, writing nothing. One import at a time per person (another is refused on the
 *    `file` field). The answer goes back to the page with the job in the flash (`dishesImport`).
 * 2. `food.dishes.import.show` answers the person's latest dishes import as JSON (`DishImportJobView`): its progress,
 *    then what the file would create, change or leave alone, or every row to fix, worded in their language. The
 *    dialog asks it when it opens and when the job ends, and hears the progress on the person's private channel
 *    (`JobUpdated`) in between.
 * 3. `food.dishes.import.store` confirms the person's own preview (`job`; anything else, like an expired preview,
 *    is refused on the `confirm` field): a job writes exactly the plan recorded with the preview, never one the
 *    browser sends; when the catalogue changed meanwhile it writes nothing and the new preview is shown instead.
 *    Closing or discarding the result is dismissing the job (`jobs.dismiss`), which deletes a kept upload.
 *
 * Dishes and recipes are company-wide data: `food.manage` imports, `food.view` downloads the template. The dishes
 * export (`food.dishes.export`, src/http/routes/food.ts) writes the same columns through `dishesWorkbook`.
 */
import { dishesTemplate } from "../../domain/food/dish-export";
import { changesOf, describeDishProblem, type DishImportPlan } from "../../domain/food/dish-import";
import { ValidationFailed } from "../../domain/errors";
import {
  DISHES_IMPORT,
  IMPORT_FAILED,
  PLAN_CHANGED,
  planConfirmable,
  type DishesImportInput,
  type DishesImportResult,
} from "../../domain/jobs/dishes-import";
import {
  holdsUpload,
  isFinished,
  latestJob,
  takeKeptUpload,
  uploadExpiresAt,
  type Job,
  type JobState,
} from "../../domain/jobs/jobs";
import { MAX_WORKBOOK_BYTES } from "../../domain/spreadsheets/read";
import type { TranslationKey } from "../../shared/i18n";
import { message } from "../../shared/message";
import type { RequestContext } from "../context";
import { keepUpload, ownJob, requireNoJobRunning, startJobOn } from "../workbook-jobs";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

/** Where the import's answer goes back to when the request names no page: the Food page. */
const FOOD_PAGE = "/food";

/** The flash key the started job travels under, back to the page. */
export const DISH_IMPORT_FLASH = "dishesImport";

/** A dishes import as the dialog shows it, worded in the viewer's language. */
export interface DishImportJobView {
  id: number;
  state: JobState;
  /** The file being checked, a preview to confirm, the rows to fix, the import being written, its end, a failure. */
  step: "checking" | "preview" | "problems" | "saving" | "done" | "failed";
  fileName: string;
  /** `label` is a translation key; the dialog words it. */
  progress: { done: number; total: number; label: TranslationKey | "" };
  rows: number;
  counts: DishImportPlan["counts"] | null;
  problems: string[];
  moreProblems: number;
  /** The catalogue changed since the confirmed preview: this is the new one. */
  changed: boolean;
  /** What to say besides the counts: what was written, nothing to import, the preview expired, why it failed. */
  notice: string | null;
  /** Whether the preview may be confirmed now (it writes something, has no problem, and its upload is kept). */
  canConfirm: boolean;
  /** Until when it may be confirmed (ISO 8601). */
  expiresAt: string | null;
}

const errorKeyOf = (job: Job) =>
  job.error === null ? null : typeof job.error === "string" ? job.error : job.error.key;

/** The job as the dialog shows it. */
export function dishImportJobView(ctx: RequestContext, job: Job): DishImportJobView {
  const input = job.input as DishesImportInput;
  const result = (job.result ?? null) as DishesImportResult | null;
  const view: DishImportJobView = {
    id: job.id,
    state: job.state,
    step: input.step === "apply" ? "saving" : "checking",
    fileName: input.fileName,
    progress: job.progress,
    rows: 0,
    counts: null,
    problems: [],
    moreProblems: 0,
    changed: false,
    notice: null,
    canConfirm: false,
    expiresAt: null,
  };
  if (!isFinished(job.state)) return view;
  const plan = result?.plan;
  const errorKey = errorKeyOf(job);
  if (!plan || !(job.state === "succeeded" || errorKey === IMPORT_FAILED || errorKey === PLAN_CHANGED))
    return { ...view, step: "failed", notice: job.error ? ctx.say(job.error) : null };
  const shown = {
    ...view,
    rows: plan.rows,
    counts: plan.counts,
    problems: plan.problems.map((p) => describeDishProblem(p, ctx.locale)),
    moreProblems: plan.moreProblems,
    changed: errorKey === PLAN_CHANGED,
  };
  if (job.state === "succeeded" && result?.written)
    return { ...shown, step: "done", notice: ctx.t("foodImportDishes.done", { count: changesOf(plan.counts) }) };
  if (plan.problems.length) return { ...shown, step: "problems" };
  const confirmable = planConfirmable(plan) && holdsUpload(job);
  return {
    ...shown,
    step: "preview",
    notice: !planConfirmable(plan)
      ? ctx.t("foodImportDishes.nothing_to_import")
      : !confirmable
        ? ctx.t("foodImportDishes.expired")
        : null,
    canConfirm: confirmable,
    expiresAt: confirmable ? (uploadExpiresAt(job)?.toISOString() ?? null) : null,
  };
}

/** The signed-in person's latest dishes import they have not dismissed, or null. */
function latestView(ctx: RequestContext): DishImportJobView | null {
  const job = latestJob(ctx.db, ctx.user!.id, DISHES_IMPORT);
  return job ? dishImportJobView(ctx, job) : null;
}

/** The person's own dishes import with this id, or null. */
const ownImport = (ctx: RequestContext, id: number) => ownJob(ctx, DISHES_IMPORT, id);

/** Refuses a second import while the person's last one is still checked or written. */
const requireNoImportRunning = (ctx: RequestContext, field: "file" | "confirm") =>
  requireNoJobRunning(ctx, DISHES_IMPORT, field, message("foodImportDishes.import_busy"));

/** Starts the job on its upload (deleted if the job cannot be started) and answers with it. */
function startJob(ctx: RequestContext, input: DishesImportInput): Response {
  const job = startJobOn(ctx, DISHES_IMPORT, input, input.path);
  const view = dishImportJobView(ctx, job);
  if (ctx.wantsJson) return Response.json({ job: view }, { status: 202, headers: NO_STORE });
  ctx.flash(DISH_IMPORT_FLASH, view);
  return ctx.back(FOOD_PAGE);
}

const NO_STORE = { "cache-control": "no-store" };
const EXTENSIONS = new Set(["xlsx", "xls", "ods", "csv"]);
const JOB_ID = /^[1-9]\d{0,15}$/;

export const foodImportRoutes = defineRoutes([
  {
    name: "food.dishes.import.preview",
    methods: ["POST"],
    uri: "/food/dishes/import/preview",
    access: access.can("food.manage"),
    multipart: true,
    maxBodyBytes: MAX_WORKBOOK_BYTES + 1024 * 1024,
    // Keeps the file and starts the job that reads and checks it; writes nothing.
    handle: async (ctx) => {
      const file = ctx.body.file;
      if (!(file instanceof Blob) || file.size === 0)
        throw new ValidationFailed({ file: message("foodImportDishes.file_required") });
      requireNoImportRunning(ctx, "file");
      const fileName = (file instanceof File && file.name ? file.name : "workbook.xlsx").slice(0, 200);
      const extension = fileName.split(".").pop()?.toLowerCase() ?? "";
      const path = keepUpload(
        ctx,
        DISHES_IMPORT,
        new Uint8Array(await file.arrayBuffer()),
        EXTENSIONS.has(extension) ? extension : "xlsx",
      );
      return startJob(ctx, { step: "preview", path, fileName });
    },
  },
  {
    name: "food.dishes.import.store",
    methods: ["POST"],
    uri: "/food/dishes/import",
    access: access.can("food.manage"),
    // The person's own preview (`job`): the job that writes exactly its plan, all or nothing, or the new preview when
    // the catalogue changed meanwhile.
    handle: (ctx) => {
      requireNoImportRunning(ctx, "confirm");
      const id = String(ctx.body.job ?? "");
      const job = JOB_ID.test(id) ? ownImport(ctx, Number(id)) : null;
      const plan = (job?.result as DishesImportResult | null | undefined)?.plan;
      const confirmable = job !== null && plan !== undefined && planConfirmable(plan) && holdsUpload(job);
      const upload = confirmable ? takeKeptUpload(ctx.db, job) : null;
      if (!job || !plan || upload === null)
        throw new ValidationFailed({ confirm: message("foodImportDishes.confirm_unavailable") });
      const { fileName } = job.input as DishesImportInput;
      return startJob(ctx, { step: "apply", path: upload, fileName, plan: plan.fingerprint });
    },
  },
  {
    name: "food.dishes.import.show",
    methods: ["GET"],
    uri: "/food/dishes/import/latest",
    access: access.can("food.manage"),
    handle: (ctx) => Response.json({ job: latestView(ctx) }, { headers: NO_STORE }),
  },
  {
    name: "food.dishes.template",
    methods: ["GET"],
    uri: "/food/dishes/import/template",
    access: access.can("food.view"),
    handle: (ctx) =>
      xlsxResponse(
        exportFileName(ctx.locale === "es" ? "plantilla-platos" : "dishes-template", ctx.config.timezone),
        dishesTemplate(ctx.locale),
      ),
  },
]);
