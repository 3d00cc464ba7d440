/**
 * The Food page's catalogue tabs: the menu table (dish categories) and the levels, each created, edited, reordered,
 * deleted (food.manage) and exported (food.view), and the export of the price-changes view. The tabs themselves are
 * rendered by the Food page (food.index), which reads its rows from src/domain/food/{dish-categories,levels,
 * price-changes}.ts; every write here goes back to the page it came from.
 */
import {
  createDishCategory,
  deleteDishCategory,
  listDishCategories,
  reorderDishCategories,
  updateDishCategory,
  type DishCategoryRow,
} from "../../domain/food/dish-categories";
import {
  createLevel,
  deleteLevel,
  listLevels,
  reorderLevels,
  updateLevel,
  type LevelRow,
} from "../../domain/food/levels";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const ID = "\\d+";

/** Where a write goes back to when the request names no page: the Food page's tab. */
const FALLBACK = { categories: "/food?tab=menu", levels: "/food?tab=levels" } as const;

function dishCategoryColumns(ctx: RequestContext): ExportColumn<DishCategoryRow>[] {
  return [
    { header: ctx.t("foodCatalogue.order"), value: (r) => r.sortOrder, width: 8 },
    { header: ctx.t("foodCatalogue.dish_categories.name"), value: (r) => r.name, width: 24 },
    { header: ctx.t("foodCatalogue.dish_categories.description"), value: (r) => r.description, width: 40 },
    {
      header: ctx.t("foodCatalogue.dish_categories.unit"),
      value: (r) => ctx.t(`foodCatalogue.units.${r.unit}`),
      width: 14,
    },
    { header: ctx.t("foodCatalogue.dish_categories.dishes"), value: (r) => r.dishCount, width: 10 },
  ];
}

function levelColumns(ctx: RequestContext): ExportColumn<LevelRow>[] {
  return [
    { header: ctx.t("foodCatalogue.order"), value: (r) => r.sortOrder, width: 8 },
    { header: ctx.t("foodCatalogue.levels.name"), value: (r) => r.name, width: 24 },
    { header: ctx.t("foodCatalogue.levels.diners"), value: (r) => r.dinerCount, width: 12 },
    { header: ctx.t("foodCatalogue.levels.recipes"), value: (r) => r.recipeCount, width: 12 },
    { header: ctx.t("foodCatalogue.levels.cafes"), value: (r) => r.cafeCount, width: 12 },
  ];
}

export const foodCatalogueRoutes = defineRoutes([
  {
    name: "food.dish_categories.export",
    methods: ["GET"],
    uri: "/food/dish-categories/export",
    access: access.can("food.view"),
    handle: (ctx) =>
      xlsxResponse(exportFileName(ctx.locale === "es" ? "tabla-de-menu" : "menu-table", ctx.config.timezone), [
        {
          name: ctx.t("foodCatalogue.dish_categories.title"),
          columns: dishCategoryColumns(ctx),
          rows: listDishCategories(ctx.db),
        },
      ]),
  },
  {
    name: "food.dish_categories.store",
    methods: ["POST"],
    uri: "/food/dish-categories",
    access: access.can("food.manage"),
    handle: (ctx) => {
      const category = createDishCategory(ctx.db, ctx.actor, ctx.body);
      ctx.flash("success", ctx.t("foodCatalogue.dish_categories.saved", { name: category.name }));
      return ctx.back(FALLBACK.categories);
    },
  },
  {
    name: "food.dish_categories.reorder",
    methods: ["PUT"],
    uri: "/food/dish-categories/order",
    access: access.can("food.manage"),
    handle: (ctx) => {
      reorderDishCategories(ctx.db, ctx.actor, ctx.body);
      return ctx.back(FALLBACK.categories);
    },
  },
  {
    name: "food.dish_categories.update",
    methods: ["PATCH"],
    uri: "/food/dish-categories/{category}",
    wheres: { category: ID },
    bindings: { category: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const category = updateDishCategory(ctx.db, ctx.actor, Number(ctx.params.category), ctx.body);
      ctx.flash("success", ctx.t("foodCatalogue.dish_categories.saved", { name: category.name }));
      return ctx.back(FALLBACK.categories);
    },
  },
  {
    name: "food.dish_categories.destroy",
    methods: ["DELETE"],
    uri: "/food/dish-categories/{category}",
    wheres: { category: ID },
    bindings: { category: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const category = deleteDishCategory(ctx.db, ctx.actor, Number(ctx.params.category));
      ctx.flash("success", ctx.t("foodCatalogue.dish_categories.deleted", { name: category.name }));
      return ctx.back(FALLBACK.categories);
    },
  },
  {
    name: "food.levels.export",
    methods: ["GET"],
    uri: "/food/levels/export",
    access: access.can("food.view"),
    handle: (ctx) =>
      xlsxResponse(exportFileName(ctx.locale === "es" ? "niveles" : "levels", ctx.config.timezone), [
        { name: ctx.t("foodCatalogue.levels.title"), columns: levelColumns(ctx), rows: listLevels(ctx.db) },
      ]),
  },
  {
    name: "food.levels.store",
    methods: ["POST"],
    uri: "/food/levels",
    access: access.can("food.manage"),
    handle: (ctx) => {
      const level = createLevel(ctx.db, ctx.actor, ctx.body);
      ctx.flash("success", ctx.t("foodCatalogue.levels.saved", { name: level.name }));
      return ctx.back(FALLBACK.levels);
    },
  },
  {
    name: "food.levels.reorder",
    methods: ["PUT"],
    uri: "/food/levels/order",
    access: access.can("food.manage"),
    handle: (ctx) => {
      reorderLevels(ctx.db, ctx.actor, ctx.body);
      return ctx.back(FALLBACK.levels);
    },
  },
  {
    name: "food.levels.update",
    methods: ["PATCH"],
    uri: "/food/levels/{level}",
    wheres: { level: ID },
    bindings: { level: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const level = updateLevel(ctx.db, ctx.actor, Number(ctx.params.level), ctx.body);
      ctx.flash("success", ctx.t("foodCatalogue.levels.saved", { name: level.name }));
      return ctx.back(FALLBACK.levels);
    },
  },
  {
    name: "food.levels.destroy",
    methods: ["DELETE"],
    uri: "/food/levels/{level}",
    wheres: { level: ID },
    bindings: { level: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const level = deleteLevel(ctx.db, ctx.actor, Number(ctx.params.level));
      ctx.flash("success", ctx.t("foodCatalogue.levels.deleted", { name: level.name }));
      return ctx.back(FALLBACK.levels);
    },
  },
]);
