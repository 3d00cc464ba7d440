/**
 * The Ingredients page: the offers grouped by provider (searched, filtered by provider and city, sorted within each
 * provider, paged by provider) and the ingredients themselves (their figures, searched, filtered by category, sorted
 * and paged), each exported as it is shown; the New-ingredient dialog (an ingredient with its figures and, with
 * logistics.manage, its first offer), the ingredient and category dialogs, and the workbook import (preview, then
 * the confirmed plan, all or nothing). Ingredients are company-wide data (food.view, food.manage).
 */
import { can } from "../../domain/access/authorization";
import {
  createCategory,
  deleteCategory,
  listCategories,
  updateCategory,
  type CategoryRow,
} from "../../domain/food/categories";
import {
  describeProblem,
  importIngredients,
  ingredientsTemplate,
  ingredientsWorkbook,
  previewIngredientsImport,
  readIngredientSheet,
  type IngredientImportPlan,
} from "../../domain/food/import";
import { ImportRefused, PlanChanged } from "../../domain/imports/engine";
import { deleteIngredient, listIngredients, updateIngredient } from "../../domain/food/ingredients";
import { createIngredientWithOffer } from "../../domain/food/new-ingredient";
import { allOffers, offersByProvider } from "../../domain/food/offer-lists";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import { MAX_WORKBOOK_BYTES } from "../../domain/spreadsheets/read";
import type { RequestContext } from "../context";
import { recordWrites } from "../record-routes";
import { foodDialogProps, offerColumns, offerSettings, priceAuthor } from "../food-pages";
import { offerGroupsAtTheFold, offerPageQuery } from "../offer-pages";
import { idParam, listAtTheFold, pageHead, paginated } from "../pagination";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const ID = "\\d+";
/** The page's query (offerPageQuery) and the ingredients' category filter. */
function queryOf(ctx: RequestContext) {
  const query = offerPageQuery(ctx, "ingredients");
  return { ...query, filters: { ...query.filters, categoryId: idParam(ctx.query, "category") } };
}

/** A workbook import as the dialog shows it: counts, new categories and problems in the viewer's words. */
export interface ImportView {
  step: "preview" | "problems" | "done";
  fileName: string;
  rows: number;
  counts: { created: number; updated: number; unchanged: number };
  newCategories: string[];
  problems: string[];
  moreProblems: number;
  /** What the person confirms: the plan's fingerprint (sent back with the same file). */
  fingerprint: string | null;
  /** The catalogue changed since the preview: this is the new one. */
  changed: boolean;
}

function importView(
  ctx: RequestContext,
  plan: IngredientImportPlan,
  fileName: string,
  step: ImportView["step"],
  changed = false,
): ImportView {
  return {
    step: plan.problems.length ? "problems" : step,
    fileName,
    rows: plan.rows,
    counts: { created: plan.counts.created, updated: plan.counts.updated, unchanged: plan.counts.unchanged },
    newCategories: plan.counts.newCategories,
    problems: plan.problems.map((p) => describeProblem(p, ctx.locale)),
    moreProblems: plan.moreProblems,
    fingerprint: plan.problems.length ? null : plan.fingerprint,
    changed,
  };
}

/** The flash key the import's result travels under, back to the page. */
export const IMPORT_FLASH = "ingredientsImport";

export const ingredientsRoutes = defineRoutes([
  {
    name: "ingredients.index",
    methods: ["GET"],
    uri: "/ingredients",
    access: access.can("food.view"),
    handle: (ctx) => {
      const { tab, params, sort, filters } = queryOf(ctx);
      return ctx.render("ingredients/index", {
        filters: {
          tab,
          search: filters.search,
          provider: filters.providerId ?? null,
          city: filters.cityId ?? null,
          category: filters.categoryId ?? null,
          ...sort,
        },
        // The tab's list, a page at a time (25 offers, 15 ingredients), cut at the fold on a full load (listAtTheFold).
        ...offerGroupsAtTheFold(ctx, tab === "offers", params, () =>
          offersByProvider(ctx.db, filters, params, sort, offerSettings(ctx)),
        ),
        ...listAtTheFold(
          ctx,
          "ingredients",
          () =>
            tab === "ingredients"
              ? paginated(
                  listIngredients(ctx.db, { search: filters.search, categoryId: filters.categoryId }, params, sort),
                  params,
                )
              : null,
          pageHead,
        ),
        ...foodDialogProps(ctx),
      });
    },
  },
  {
    name: "ingredients.export",
    methods: ["GET"],
    uri: "/ingredients/export",
    access: access.can("food.view"),
    // What the tab shows, every page of it: the offers by provider, or the ingredients in the import's columns.
    handle: (ctx) => {
      const { tab, sort, filters } = queryOf(ctx);
      if (tab === "ingredients")
        return xlsxResponse(
          exportFileName(ctx.locale === "es" ? "insumos" : "ingredients", ctx.config.timezone),
          ingredientsWorkbook(ctx.db, ctx.locale, { search: filters.search, categoryId: filters.categoryId }),
        );
      const rows = allOffers(ctx.db, "provider", filters, sort, offerSettings(ctx));
      return xlsxResponse(exportFileName(ctx.locale === "es" ? "ofertas" : "offers", ctx.config.timezone), [
        { name: ctx.t("food.offers.by_provider"), columns: offerColumns(ctx), rows },
      ]);
    },
  },
  {
    name: "ingredients.store",
    methods: ["POST"],
    uri: "/ingredients",
    access: access.can("food.manage"),
    // Its first offer, when the dialog sends one, is the buyer's to set.
    checks: ["logistics.manage"],
    handle: (ctx) => {
      const { ingredient, offer } = createIngredientWithOffer(ctx.db, ctx.actor, priceAuthor(ctx), ctx.body, {
        canOffer: can(ctx.access, "logistics.manage"),
      });
      ctx.flash(
        "success",
        ctx.t(offer ? "food.ingredients.saved_with_offer" : "food.ingredients.saved", { name: ingredient.name }),
      );
      return ctx.back(ctx.urlFor("ingredients.index"));
    },
  },
  {
    name: "ingredients.update",
    methods: ["PUT"],
    uri: "/ingredients/{ingredient}",
    wheres: { ingredient: ID },
    bindings: { ingredient: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const ingredient = updateIngredient(ctx.db, ctx.actor, Number(ctx.params.ingredient), ctx.body);
      ctx.flash("success", ctx.t("food.ingredients.saved", { name: ingredient.name }));
      return ctx.back(ctx.urlFor("ingredients.index"));
    },
  },
  {
    name: "ingredients.destroy",
    methods: ["DELETE"],
    uri: "/ingredients/{ingredient}",
    wheres: { ingredient: ID },
    bindings: { ingredient: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const ingredient = deleteIngredient(ctx.db, ctx.actor, Number(ctx.params.ingredient));
      ctx.flash("success", ctx.t("food.ingredients.deleted", { name: ingredient.name }));
      return ctx.back(ctx.urlFor("ingredients.index"));
    },
  },
  {
    name: "ingredient_categories.export",
    methods: ["GET"],
    uri: "/ingredient-categories/export",
    access: access.can("food.view"),
    handle: (ctx) =>
      xlsxResponse(exportFileName(ctx.t("food.export_columns.categories_file"), ctx.config.timezone), [
        {
          name: ctx.t("food.categories.title"),
          columns: [
            { header: ctx.t("food.categories.name"), value: (r: CategoryRow) => r.name, width: 28 },
            { header: ctx.t("food.categories.description_field"), value: (r: CategoryRow) => r.description, width: 48 },
            { header: ctx.t("food.export_columns.ingredients"), value: (r: CategoryRow) => r.ingredients, width: 12 },
          ],
          rows: listCategories(ctx.db),
        },
      ]),
  },
  ...recordWrites("ingredient_categories", "/ingredient-categories/{category}", access.can("food.manage"), {
    create: (ctx) => createCategory(ctx.db, ctx.actor, ctx.body),
    update: (ctx, id) => updateCategory(ctx.db, ctx.actor, id, ctx.body),
    destroy: (ctx, id) => deleteCategory(ctx.db, ctx.actor, id),
    saved: (ctx, category) => ctx.t("food.categories.saved", { name: category.name }),
    deleted: (ctx, category) => ctx.t("food.categories.deleted", { name: category.name }),
    back: (ctx) => ctx.urlFor("ingredients.index"),
  }),
  {
    name: "ingredients.import",
    methods: ["POST"],
    uri: "/ingredients/import",
    access: access.can("food.manage"),
    multipart: true,
    maxBodyBytes: MAX_WORKBOOK_BYTES + 1024 * 1024,
    // Without `confirm`: the preview (nothing written). With the fingerprint of that preview and the same file: the
    // import, all or nothing, or the new preview when the ingredients changed meanwhile.
    handle: async (ctx) => {
      const file = ctx.body.file;
      if (!(file instanceof Blob) || file.size === 0)
        throw new ValidationFailed({ file: message("food.import.file_required") });
      const fileName = (file instanceof File && file.name ? file.name : "workbook.xlsx").slice(0, 200);
      const sheet = await readIngredientSheet(new Uint8Array(await file.arrayBuffer()), fileName);
      const confirm = typeof ctx.body.confirm === "string" && ctx.body.confirm ? ctx.body.confirm : null;
      const back = () => ctx.back(ctx.urlFor("ingredients.index", { tab: "ingredients" }));
      if (confirm === null) {
        ctx.flash(IMPORT_FLASH, importView(ctx, previewIngredientsImport(ctx.db, sheet), fileName, "preview"));
        return back();
      }
      try {
        const plan = importIngredients(ctx.db, ctx.actor, sheet, { fingerprint: confirm });
        ctx.flash(IMPORT_FLASH, importView(ctx, plan, fileName, "done"));
        ctx.flash("success", ctx.t("food.import.done", { count: plan.counts.created + plan.counts.updated }));
      } catch (error) {
        if (error instanceof PlanChanged)
          ctx.flash(
            IMPORT_FLASH,
            importView(ctx, (error as PlanChanged<IngredientImportPlan>).plan, fileName, "preview", true),
          );
        else if (error instanceof ImportRefused)
          ctx.flash(
            IMPORT_FLASH,
            importView(ctx, (error as ImportRefused<IngredientImportPlan>).plan, fileName, "preview"),
          );
        else throw error;
      }
      return back();
    },
  },
  {
    name: "ingredients.import_template",
    methods: ["GET"],
    uri: "/ingredients/import/template",
    access: access.can("food.view"),
    handle: (ctx) =>
      xlsxResponse(
        exportFileName(ctx.locale === "es" ? "plantilla-insumos" : "ingredients-template", ctx.config.timezone),
        ingredientsTemplate(ctx.locale),
      ),
  },
]);
