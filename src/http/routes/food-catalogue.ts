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
import {
  dishCostHistory,
  periodBounds,
  priceChangeFilters,
  priceChanges,
  type OfferChange,
  type PriceChangeFilters,
  type PriceChangeRow,
  type PriceChanges,
} from "../../domain/food/price-changes";
import { NotFound } from "../../domain/errors";
import { levelLabel } from "../../shared/food/built-in-levels";
import { formatMoney, SOLES_FORMAT, solesAmount } from "../../shared/money";
import type { Limit } from "../../domain/rate-limit";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { defer } from "../page-protocol/props";
import { idParam } from "../pagination";
import { recordWrites } from "../record-routes";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";
import type { DishHistoryAnswer } from "../../shared/food/types";
export type { DishHistoryAnswer } from "../../shared/food/types";

/** Where a write goes back to when the request names no page: the Food page's tab. */
const FALLBACK = { categories: "/food?tab=menu_table", levels: "/food?tab=levels" } as const;

/**
 * `dish-history:<user id>`: a dish's cost over time, read when a person opens it from the price-changes view. Each
 * read costs the dish once per price change in the period, so a script is held to two a second.
 */
export const DISH_HISTORY_LIMIT: Limit = { max: 120, decaySeconds: 60 };

/** The price-changes view's filters and its figures for a query string, in the settings' time zone and IGV rate. */
function readPriceChanges(
  ctx: RequestContext,
  defaultCityId: number | null = null,
): { filters: PriceChangeFilters; data: PriceChanges | null } {
  const filters = priceChangeFilters(ctx.db, ctx.query, { timeZone: ctx.config.timezone, defaultCityId });
  const data =
    filters.cityId === null
      ? null
      : priceChanges(ctx.db, {
          ...filters,
          cityId: filters.cityId,
          timeZone: ctx.config.timezone,
          igvRate: ctx.config.igvRateBasisPoints,
        });
  return { filters, data };
}

/**
 * The Food page's props for the price-changes tab: `priceChangeFilters` (always) and `priceChanges`, computed after
 * the page has painted (a deferred prop, in its own group) when the tab is open, else null. Without a `city` in the
 * query the view opens in `defaultCityId` (the city the page costs dishes in), else the first city with offers. The
 * page passes them to `<PriceChanges data={priceChanges} filters={priceChangeFilters} cities={…} levels={…} />`.
 */
export function priceChangesProps(ctx: RequestContext, open: boolean, defaultCityId: number | null = null) {
  const filters = priceChangeFilters(ctx.db, ctx.query, { timeZone: ctx.config.timezone, defaultCityId });
  return {
    priceChangeFilters: filters,
    priceChanges: open ? defer(() => readPriceChanges(ctx, defaultCityId).data, "priceChanges") : null,
  };
}

/** The offers that changed under a dish, in one line of words: "Arroz (Distribuidora Andina, Saco 50 kg): S/ 3.00 → S/ 4.00 por kg". */
function offerSummary(ctx: RequestContext, changes: OfferChange[]): string {
  const side = (offer: OfferChange["before"]) =>
    offer
      ? formatMoney(offer.costPerReferenceCents, ctx.locale, ctx.config.currency)
      : ctx.t("foodCatalogue.price_changes.no_offer");
  return changes
    .map((c) => {
      const offer = c.after ?? c.before!;
      return `${c.ingredientName} (${offer.providerName}, ${offer.presentation}): ${side(c.before)} → ${side(c.after)} ${ctx.t(`food.per_reference.${c.unit}`)}`;
    })
    .join("; ");
}

function priceChangeColumns(ctx: RequestContext): ExportColumn<PriceChangeRow>[] {
  const incomplete = (complete: boolean) => (complete ? "" : ctx.t("foodCatalogue.price_changes.incomplete_short"));
  return [
    { header: ctx.t("foodCatalogue.price_changes.dish"), value: (r) => r.dishName, width: 28 },
    {
      header: ctx.t("foodCatalogue.price_changes.level_column"),
      value: (r) => levelLabel(r.levelName, ctx.locale),
      width: 12,
    },
    {
      header: ctx.t("foodCatalogue.price_changes.before"),
      value: (r) => solesAmount(r.beforeCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    {
      header: ctx.t("foodCatalogue.price_changes.after"),
      value: (r) => solesAmount(r.afterCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    {
      header: ctx.t("foodCatalogue.price_changes.difference"),
      value: (r) => solesAmount(r.differenceCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    {
      header: ctx.t("foodCatalogue.price_changes.percent"),
      value: (r) => (r.percent === null ? null : r.percent / 100),
      format: "0.0%",
      width: 10,
    },
    {
      header: ctx.t("foodCatalogue.price_changes.unpriced"),
      value: (r) => [incomplete(r.completeBefore), incomplete(r.completeAfter)].filter(Boolean).join(" / ") || null,
      width: 14,
    },
    { header: ctx.t("foodCatalogue.price_changes.offers"), value: (r) => offerSummary(ctx, r.offers), width: 80 },
  ];
}

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
    { header: ctx.t("foodCatalogue.levels.name"), value: (r) => levelLabel(r.name, ctx.locale), width: 24 },
    { header: ctx.t("foodCatalogue.levels.diners"), value: (r) => r.dinerCount, width: 12 },
    { header: ctx.t("foodCatalogue.levels.recipes"), value: (r) => r.recipeCount, width: 12 },
    { header: ctx.t("foodCatalogue.levels.cafes"), value: (r) => r.cafeCount, width: 12 },
  ];
}

export const foodCatalogueRoutes = defineRoutes([
  {
    name: "food.price_changes.export",
    methods: ["GET"],
    uri: "/food/price-changes/export",
    access: access.can("food.view"),
    // What the view shows for the same period, city and level.
    handle: (ctx) => {
      const { data } = readPriceChanges(ctx);
      return xlsxResponse(
        exportFileName(ctx.locale === "es" ? "cambios-de-precio" : "price-changes", ctx.config.timezone),
        [
          {
            name: ctx.t("foodCatalogue.price_changes.title"),
            columns: priceChangeColumns(ctx),
            rows: data?.rows ?? [],
          },
        ],
      );
    },
  },
  {
    name: "food.price_changes.history",
    methods: ["GET"],
    uri: "/food/price-changes/history",
    access: access.can("food.view"),
    // JSON: a dish's cost per serving at the start of the period and at each price change (`dish`, `level`, `city`,
    // `from`, `to`), for the view's chart.
    handle: (ctx) => {
      ctx.services.limiter.take([{ key: `dish-history:${ctx.user!.id}`, limit: DISH_HISTORY_LIMIT }]);
      const filters = priceChangeFilters(ctx.db, ctx.query, { timeZone: ctx.config.timezone });
      const dishId = idParam(ctx.query, "dish");
      const levelId = idParam(ctx.query, "level");
      if (dishId === undefined || levelId === undefined || filters.cityId === null || filters.levelId !== levelId)
        throw new NotFound();
      const points = dishCostHistory(ctx.db, dishId, {
        cityId: filters.cityId,
        levelId,
        from: filters.from,
        to: filters.to,
        timeZone: ctx.config.timezone,
        igvRate: ctx.config.igvRateBasisPoints,
      });
      const answer: DishHistoryAnswer = {
        end: periodBounds({ ...filters, timeZone: ctx.config.timezone }).end.toISOString(),
        dishId,
        levelId,
        cityId: filters.cityId,
        from: filters.from,
        to: filters.to,
        points,
      };
      return Response.json(answer, { headers: { "cache-control": "no-store" } });
    },
  },
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
  ...recordWrites("food.dish_categories", "/food/dish-categories/{category}", access.can("food.manage"), {
    updateMethod: "PATCH",
    create: (ctx) => createDishCategory(ctx.db, ctx.actor, ctx.body),
    update: (ctx, id) => updateDishCategory(ctx.db, ctx.actor, id, ctx.body),
    destroy: (ctx, id) => deleteDishCategory(ctx.db, ctx.actor, id),
    saved: (ctx, category) => ctx.t("foodCatalogue.dish_categories.saved", { name: category.name }),
    deleted: (ctx, category) => ctx.t("foodCatalogue.dish_categories.deleted", { name: category.name }),
    back: () => FALLBACK.categories,
  }),
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
    name: "food.levels.export",
    methods: ["GET"],
    uri: "/food/levels/export",
    access: access.can("food.view"),
    handle: (ctx) =>
      xlsxResponse(exportFileName(ctx.locale === "es" ? "niveles" : "levels", ctx.config.timezone), [
        { name: ctx.t("foodCatalogue.levels.title"), columns: levelColumns(ctx), rows: listLevels(ctx.db) },
      ]),
  },
  ...recordWrites("food.levels", "/food/levels/{level}", access.can("food.manage"), {
    updateMethod: "PATCH",
    create: (ctx) => createLevel(ctx.db, ctx.actor, ctx.body),
    update: (ctx, id) => updateLevel(ctx.db, ctx.actor, id, ctx.body),
    destroy: (ctx, id) => deleteLevel(ctx.db, ctx.actor, id),
    saved: (ctx, level) => ctx.t("foodCatalogue.levels.saved", { name: level.name }),
    deleted: (ctx, level) => ctx.t("foodCatalogue.levels.deleted", { name: level.name }),
    back: () => FALLBACK.levels,
  }),
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
]);
