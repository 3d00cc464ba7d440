/**
 * The dishes workbook on the Food page: the preview (what the file would create, change or leave alone, or every row
 * to fix; nothing written), the import of exactly that preview (the same file sent again with the preview's
 * fingerprint; the new preview when the catalogue changed meanwhile), and the template. Dishes and recipes are
 * company-wide data: `food.manage` imports, `food.view` downloads the template. The dishes export
 * (`food.dishes.export`, src/http/routes/food.ts) writes the same columns through `dishesWorkbook`.
 */
import {
  describeDishProblem,
  DishImportRefused,
  DishPlanChanged,
  importDishes,
  previewDishImport,
  readDishSheet,
  type DishImportPlan,
} from "../../domain/food/dish-import";
import { dishesTemplate } from "../../domain/food/dish-export";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import { MAX_WORKBOOK_BYTES } from "../../domain/spreadsheets/read";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

/** Where the import's answer goes back to when the request names no page: the Food page. */
const FOOD_PAGE = "/food";

/** The flash key the import's result travels under, back to the page. */
export const DISH_IMPORT_FLASH = "dishesImport";

/** A dishes import as the dialog shows it: counts and problems in the viewer's words. */
export interface DishImportView {
  step: "preview" | "problems" | "done";
  fileName: string;
  rows: number;
  counts: DishImportPlan["counts"];
  problems: string[];
  moreProblems: number;
  /** What the person confirms: the plan's fingerprint (sent back with the same file). */
  fingerprint: string | null;
  /** The catalogue changed since the preview: this is the new one. */
  changed: boolean;
}

function importView(
  ctx: RequestContext,
  plan: DishImportPlan,
  fileName: string,
  step: DishImportView["step"],
  changed = false,
): DishImportView {
  return {
    step: plan.problems.length ? "problems" : step,
    fileName,
    rows: plan.rows,
    counts: plan.counts,
    problems: plan.problems.map((p) => describeDishProblem(p, ctx.locale)),
    moreProblems: plan.moreProblems,
    fingerprint: plan.problems.length ? null : plan.fingerprint,
    changed,
  };
}

/** The uploaded workbook's first sheet and its name; ValidationFailed keyed `file` when there is none or it is refused. */
async function uploadedSheet(ctx: RequestContext) {
  const file = ctx.body.file;
  if (!(file instanceof Blob) || file.size === 0)
    throw new ValidationFailed({ file: message("foodImportDishes.file_required") });
  const fileName = (file instanceof File && file.name ? file.name : "workbook.xlsx").slice(0, 200);
  return { fileName, sheet: await readDishSheet(new Uint8Array(await file.arrayBuffer()), fileName) };
}

/** How many dishes and recipes a plan writes. */
export const changesOf = (counts: DishImportPlan["counts"]) =>
  counts.dishesCreated + counts.dishesUpdated + counts.recipesCreated + counts.recipesReplaced;

export const foodImportRoutes = defineRoutes([
  {
    name: "food.dishes.import.preview",
    methods: ["POST"],
    uri: "/food/dishes/import/preview",
    access: access.can("food.manage"),
    multipart: true,
    maxBodyBytes: MAX_WORKBOOK_BYTES + 1024 * 1024,
    // Reads and checks the workbook; writes nothing.
    handle: async (ctx) => {
      const { fileName, sheet } = await uploadedSheet(ctx);
      ctx.flash(DISH_IMPORT_FLASH, importView(ctx, previewDishImport(ctx.db, sheet), fileName, "preview"));
      return ctx.back(FOOD_PAGE);
    },
  },
  {
    name: "food.dishes.import.store",
    methods: ["POST"],
    uri: "/food/dishes/import",
    access: access.can("food.manage"),
    multipart: true,
    maxBodyBytes: MAX_WORKBOOK_BYTES + 1024 * 1024,
    // The same file with the fingerprint of its preview: the import, all or nothing, or the new preview when the
    // catalogue changed meanwhile.
    handle: async (ctx) => {
      const fingerprint = typeof ctx.body.fingerprint === "string" ? ctx.body.fingerprint.slice(0, 128) : "";
      if (!fingerprint) throw new ValidationFailed({ fingerprint: message("validation.required") });
      const { fileName, sheet } = await uploadedSheet(ctx);
      try {
        const plan = importDishes(ctx.db, ctx.actor, sheet, { fingerprint });
        ctx.flash(DISH_IMPORT_FLASH, importView(ctx, plan, fileName, "done"));
        ctx.flash("success", ctx.t("foodImportDishes.done", { count: changesOf(plan.counts) }));
      } catch (error) {
        if (error instanceof DishPlanChanged)
          ctx.flash(DISH_IMPORT_FLASH, importView(ctx, error.plan, fileName, "preview", true));
        else if (error instanceof DishImportRefused)
          ctx.flash(DISH_IMPORT_FLASH, importView(ctx, error.plan, fileName, "preview"));
        else throw error;
      }
      return ctx.back(FOOD_PAGE);
    },
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
