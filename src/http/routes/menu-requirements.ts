/**
 * The Compras page of menu planning (`resources/js/pages/menu/requirements.tsx`): what to buy for a cafe's published
 * menu over a date range, and the servings it is worked out from. Every route checks the cafe against the person's
 * scope (a cafe outside it, like a missing one, is 404).
 *
 * - `menu.requirements` (GET /menu/requirements?cafe=&from=&to=, `menu.view`): the page: the cafes of the person's
 *   scope, the expected servings per day and service, the requirements by provider, the ingredients without an
 *   offer, and the person's latest export;
 * - `menu.servings.update` (PUT, `menu.manage`): one day's servings per service (blank: back to the average);
 * - `menu.servings.import` (POST multipart, `menu.manage`): the client's forecast workbook, all or nothing, its
 *   problems by row flashed back to the page;
 * - `menu.requirements.export` (POST, `menu.view`): starts the `menu.requirements` job
 *   (src/domain/jobs/menu-requirements.ts) writing the workbook into a file reserved for it under STORAGE_PATH/jobs,
 *   one at a time per person; answers 202 with the job as JSON, or goes back to the page;
 * - `menu.requirements.download` (GET, `menu.view`): the finished workbook, only for the person who made it, while
 *   the job keeps it (until they dismiss it, export again, or UPLOAD_KEPT_MS is up).
 */
import { can } from "../../domain/access/authorization";
import { ValidationFailed } from "../../domain/errors";
import { message, type Message } from "../../shared/message";
import { holdsUpload, latestJob, uploadExpiresAt, type Job } from "../../domain/jobs/jobs";
import {
  MENU_REQUIREMENTS,
  type MenuRequirementsInput,
  type MenuRequirementsResult,
} from "../../domain/jobs/menu-requirements";
import {
  cafeInScope,
  checkRange,
  describeForecastProblem,
  expectedServings,
  FORECAST_INTAKE,
  ForecastRefused,
  importForecast,
  readForecastSheet,
  saveDayServings,
} from "../../domain/menu/expected-servings";
import { menuRequirements } from "../../domain/menu/requirements";
import { addDays, dateIn } from "../../shared/calendar";
import type { RequestContext } from "../context";
import { menuCafeChoice, menuTabs } from "../menu-pages";
import { access, defineRoutes } from "../routing";
import { JOB_ID, startWorkbookJob, workbookDownload } from "../workbook-jobs";
import type { RequirementsJobView } from "../../shared/menu/types";
export type { RequirementsJobView } from "../../shared/menu/types";

const noStore = { "cache-control": "no-store" };
/** The flash key of a refused forecast's problems, worded. */
const FORECAST_FLASH = "menuForecast";

export function requirementsJobView(ctx: RequestContext, job: Job): RequirementsJobView {
  const input = job.input as MenuRequirementsInput;
  const result = job.state === "succeeded" ? (job.result as MenuRequirementsResult) : null;
  const available = result !== null && holdsUpload(job);
  const { done, total, label } = job.progress;
  return {
    id: job.id,
    state: job.state,
    progress: { done, total, label, text: job.state === "queued" || !label ? ctx.t("jobs.queued") : ctx.t(label) },
    cafeId: input.cafeId,
    from: input.from,
    to: input.to,
    result: result && {
      providers: result.providers,
      lines: result.lines,
      missing: result.missing,
      totalCents: result.totalCents,
      sheets: result.sheets,
      fileName: result.fileName,
    },
    downloadUrl: available ? ctx.urlFor("menu.requirements.download", { job: job.id }) : null,
    expiresAt: available ? (uploadExpiresAt(job)?.toISOString() ?? null) : null,
    error: job.error
      ? ctx.say(job.error)
      : result !== null && !available
        ? ctx.t("menuRequirements.export.expired")
        : null,
  };
}

/** The signed-in person's latest export they have not dismissed, or null. */
function latestExportView(ctx: RequestContext): RequirementsJobView | null {
  const job = latestJob(ctx.db, ctx.user!.id, MENU_REQUIREMENTS);
  return job ? requirementsJobView(ctx, job) : null;
}

/** A cafe id from a form: required (ValidationFailed on `cafe`), and NotFound unless it is within the person's scope. */
function askedCafe(ctx: RequestContext, value: unknown) {
  const id =
    typeof value === "string" && /^\d{1,12}$/.test(value)
      ? Number(value)
      : typeof value === "number" && Number.isInteger(value)
        ? value
        : null;
  if (id === null) throw new ValidationFailed({ cafe: message("menuRequirements.errors.cafe") });
  return cafeInScope(ctx.db, ctx.scope, id);
}

/** The page's range: the one asked for when it is valid (else its problems, and the default), by default the next seven days. */
function askedRange(ctx: RequestContext, timeZone: string) {
  const today = dateIn(timeZone);
  const fallback = { from: today, to: addDays(today, 6) };
  if (ctx.query.from === undefined && ctx.query.to === undefined) return { range: fallback, errors: {} };
  try {
    return { range: checkRange(ctx.query.from, ctx.query.to), errors: {} };
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const errors = Object.fromEntries(Object.entries(error.errors).map(([k, m]) => [k, ctx.say(m)]));
    return { range: fallback, errors };
  }
}

/** Back to the page of the cafe and range a form came from. */
function backToPage(ctx: RequestContext, cafeId: number) {
  const params: Record<string, string | number> = { cafe: cafeId };
  for (const key of ["from", "to"] as const) {
    const value = ctx.body[key] ?? ctx.query[key];
    if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) params[key] = value;
  }
  return ctx.redirect(ctx.urlFor("menu.requirements", params), 303);
}

export const menuRequirementsRoutes = defineRoutes([
  {
    name: "menu.requirements",
    methods: ["GET"],
    uri: "/menu/requirements",
    access: access.can("menu.view"),
    checks: ["menu.manage"],
    handle: (ctx) => {
      // The Excel button asks for the person's latest export in full once it has finished.
      if (ctx.wantsJson && ctx.query.job === "1")
        return Response.json({ job: latestExportView(ctx) }, { headers: noStore });
      const choice = menuCafeChoice(ctx);
      const cafe = choice.cafe && cafeInScope(ctx.db, ctx.scope, choice.cafe.id);
      const { range, errors } = askedRange(ctx, cafe?.timeZone ?? ctx.config.timezone);
      let requirements = null;
      let problem: string | null = null;
      if (cafe) {
        try {
          requirements = menuRequirements(ctx.db, ctx.scope, cafe.id, range.from, range.to, {
            igvRate: ctx.config.igvRateBasisPoints,
          });
        } catch (error) {
          if (!(error instanceof ValidationFailed)) throw error;
          problem = ctx.say(Object.values(error.errors)[0] as Message);
        }
      }
      return ctx.render("menu/requirements", {
        tabs: menuTabs(ctx),
        cafes: choice.cafes,
        cafe: cafe && { id: cafe.id, name: cafe.name, cityName: cafe.cityName },
        range,
        rangeErrors: errors,
        servings: cafe ? (requirements?.servings ?? expectedServings(ctx.db, cafe.id, range.from, range.to)) : null,
        requirements: requirements && {
          level: requirements.level,
          publishedDays: requirements.publishedDays,
          dishServings: requirements.dishServings,
          providers: requirements.providers,
          missing: requirements.missing,
          dishesWithoutRecipe: requirements.dishesWithoutRecipe,
          totalCents: requirements.totalCents,
        },
        problem,
        forecastMaxRows: FORECAST_INTAKE.maxRows,
        can: { manage: can(ctx.access, "menu.manage") },
        job: latestExportView(ctx),
      });
    },
  },
  {
    name: "menu.servings.update",
    methods: ["PUT"],
    uri: "/menu/requirements/servings",
    access: access.can("menu.manage"),
    handle: (ctx) => {
      const cafe = askedCafe(ctx, ctx.body.cafe);
      const servings = ctx.body.servings;
      saveDayServings(ctx.db, ctx.actor, ctx.scope, cafe.id, {
        date: ctx.body.date,
        servings:
          servings !== null && typeof servings === "object" && !Array.isArray(servings)
            ? (servings as Record<string, unknown>)
            : {},
      });
      if (ctx.wantsJson) return Response.json({ ok: true }, { headers: noStore });
      ctx.flash("success", ctx.t("menuRequirements.servings.saved", { date: String(ctx.body.date) }));
      return backToPage(ctx, cafe.id);
    },
  },
  {
    name: "menu.servings.import",
    methods: ["POST"],
    uri: "/menu/requirements/forecast",
    access: access.can("menu.manage"),
    multipart: true,
    maxBodyBytes: FORECAST_INTAKE.maxBytes + 1024 * 1024,
    handle: async (ctx) => {
      const cafe = askedCafe(ctx, ctx.body.cafe);
      const file = ctx.body.file;
      if (!(file instanceof Blob) || file.size === 0) throw new ValidationFailed({ file: message("import.empty") });
      const fileName = (file instanceof File && file.name ? file.name : "forecast.xlsx").slice(0, 200);
      const sheet = await readForecastSheet(new Uint8Array(await file.arrayBuffer()), fileName);
      try {
        const result = importForecast(ctx.db, ctx.actor, ctx.scope, cafe.id, sheet);
        ctx.flash(
          "success",
          ctx.t("menuRequirements.forecast.loaded", {
            count: result.rows,
            from: result.from ?? "",
            to: result.to ?? "",
          }),
        );
        if (ctx.wantsJson) return Response.json(result, { headers: noStore });
      } catch (error) {
        if (!(error instanceof ForecastRefused)) throw error;
        const problems = error.problems.map((p) => describeForecastProblem(p, ctx.locale));
        if (ctx.wantsJson)
          return Response.json(
            { message: ctx.say(error.errors.file), problems, moreProblems: error.moreProblems },
            { status: 422, headers: noStore },
          );
        ctx.flash(FORECAST_FLASH, { problems, moreProblems: error.moreProblems });
        ctx.flashErrors(error.errors);
      }
      return backToPage(ctx, cafe.id);
    },
  },
  {
    name: "menu.requirements.export",
    methods: ["POST"],
    uri: "/menu/requirements/export",
    access: access.can("menu.view"),
    handle: (ctx) => {
      const cafe = askedCafe(ctx, ctx.body.cafe);
      const { from, to } = checkRange(ctx.body.from, ctx.body.to);
      // Refused now rather than in the job: a cafe without a city has nothing to buy from.
      if (cafe.cityId === null) throw new ValidationFailed({ cafe: message("menuRequirements.errors.no_city") });
      const job = startWorkbookJob(
        ctx,
        MENU_REQUIREMENTS,
        message("menuRequirements.export.busy"),
        (path): MenuRequirementsInput => ({
          cafeId: cafe.id,
          from,
          to,
          path,
          locale: ctx.locale,
          generatedBy: ctx.user!.name,
          timeZone: ctx.config.timezone,
          igvRate: ctx.config.igvRateBasisPoints,
        }),
      );
      if (ctx.wantsJson)
        return Response.json({ job: requirementsJobView(ctx, job) }, { status: 202, headers: noStore });
      return backToPage(ctx, cafe.id);
    },
  },
  {
    name: "menu.requirements.download",
    methods: ["GET"],
    uri: "/menu/requirements/{job}/download",
    wheres: { job: JOB_ID },
    access: access.can("menu.view"),
    // Only the person's own finished workbook, while its file is kept; anything else reads as missing.
    handle: (ctx) => workbookDownload(ctx, MENU_REQUIREMENTS),
  },
]);
