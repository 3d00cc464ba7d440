/**
 * The Food page: the dishes (searched, filtered by category, sorted, paged and exported as shown), each costed per
 * serving for a city and a level chosen on the page, with its kcal and a flag when a line has no offer there; the
 * dish modal (a dish, then its recipe per level, with live totals from `food.dishes.cost` as the chef types and a
 * line's calculation popover from `food.dishes.show`); and the catalogue's tabs (menu table, levels, price changes). Dishes and recipes are company-wide data (food.view to see, food.manage to change).
 */
import { listCategories } from "../../domain/food/categories";
import { cityOptions, requireCity } from "../../domain/food/cities";
import { listDishCategories } from "../../domain/food/dish-categories";
import { dishesWorkbook } from "../../domain/food/dish-export";
import { costedDishes, dishDetail, pricingCityId, recipeChoices } from "../../domain/food/dish-costs";
import { deleteDish, dishRow, requireDish, type DishFilter } from "../../domain/food/dishes";
import { levelLabel } from "../../shared/food/built-in-levels";
import { listLevels } from "../../domain/food/levels";
import { costDraft } from "../../domain/food/recipe-cost";
import { copyRecipe, deleteRecipe, parseDraft, saveDish, saveRecipe } from "../../domain/food/recipes";
import { NotFound, ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import type { Limit } from "../../domain/rate-limit";
import { can } from "../../domain/access/authorization";
import type { RequestContext } from "../context";
import { foodTabs, offerSettings } from "../food-pages";
import { priceChangesProps } from "./food-catalogue";
import { optional } from "../page-protocol/props";
import { idParam, listParams, paginated, sortParams } from "../pagination";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";
import type { CostedDishRow } from "../../shared/food/types";
import { SOLES_FORMAT, solesAmount } from "../../shared/money";
export type { CostedDishRow, DishCost, DishDetail, RecipeChoices } from "../../shared/food/types";

const ID = "\\d+";
const TABS = ["dishes", "menu_table", "levels", "price_changes"] as const;
type Tab = (typeof TABS)[number];
const tabOf = (value: unknown): Tab => (TABS.includes(value as Tab) ? (value as Tab) : "dishes");

/**
 * `dish-cost:<user id>`: drafts costed as a chef types (the modal waits 400 ms after the last key). A chef typing
 * without pause sends a couple a second; a script pricing recipes in a loop is held to four a second.
 */
export const DISH_COST_LIMIT: Limit = { max: 240, decaySeconds: 60 };

/** The city the prices are read in: the one asked for, else the city of the person's first headquarters, else the first city. */
const chosenCityId = (ctx: RequestContext) => pricingCityId(ctx.db, ctx.scope, idParam(ctx.query, "city"));

/** The level the table costs at: the one asked for, else the first by order. */
function chosenLevelId(ctx: RequestContext, levels: { id: number }[]): number | null {
  const asked = idParam(ctx.query, "level");
  if (asked && levels.some((l) => l.id === asked)) return asked;
  return levels[0]?.id ?? null;
}

function filtersOf(ctx: RequestContext): DishFilter {
  const { search } = listParams(ctx.query);
  return { search, categoryId: idParam(ctx.query, "category") };
}

/** How the table costs its dishes: in the chosen city, at the chosen level. */
function costingOf(ctx: RequestContext, cityId: number | null, levelId: number | null, levels: { id: number }[]) {
  return { cityId, levelId, levelIds: levels.map((l) => l.id), igvRate: ctx.config.igvRateBasisPoints };
}

const levelName = (ctx: RequestContext, levelId: number) =>
  levelLabel(listLevels(ctx.db).find((l) => l.id === levelId)?.name ?? String(levelId), ctx.locale);

export const foodRoutes = defineRoutes([
  {
    name: "food.index",
    methods: ["GET"],
    uri: "/food",
    access: access.can("food.view"),
    handle: (ctx) => {
      const tab = tabOf(ctx.query.tab);
      const params = listParams(ctx.query, "", 20);
      const sort = sortParams(ctx.query);
      const filters = filtersOf(ctx);
      const levels = listLevels(ctx.db);
      const cityId = chosenCityId(ctx);
      const levelId = chosenLevelId(ctx, levels);
      return ctx.render("food/index", {
        filters: {
          tab,
          search: filters.search ?? "",
          category: filters.categoryId ?? null,
          city: cityId,
          level: levelId,
          // A dish to open on arrival: the link of a dish's name (opened in a new tab, or the page reloaded).
          dish: idParam(ctx.query, "dish") ?? null,
          ...sort,
        },
        dishes: () =>
          tab === "dishes"
            ? paginated(costedDishes(ctx.db, filters, params, sort, costingOf(ctx, cityId, levelId, levels)), params)
            : null,
        levels,
        dishCategories: () => listDishCategories(ctx.db),
        // The ingredient category modal.
        categories: () => listCategories(ctx.db),
        cityOptions: () => cityOptions(ctx.db),
        // Loaded when the dish modal opens.
        recipeChoices: optional(() => recipeChoices(ctx.db, offerSettings(ctx))),
        can: { manage: can(ctx.access, "food.manage") },
        tabs: foodTabs(ctx),
        // The price-changes tab (the catalogue engineer's view): its filters, and its figures deferred when open.
        ...priceChangesProps(ctx, tab === "price_changes", cityId),
      });
    },
  },
  {
    name: "food.dishes.export",
    methods: ["GET"],
    uri: "/food/dishes/export",
    access: access.can("food.view"),
    // What the table shows, every page of it: their recipes in the import's columns, and the table costed for the
    // same city and level.
    handle: (ctx) => {
      const levels = listLevels(ctx.db);
      const cityId = chosenCityId(ctx);
      const levelId = chosenLevelId(ctx, levels);
      const levelNames = new Map(levels.map((l) => [l.id, levelLabel(l.name, ctx.locale)]));
      const costing = costingOf(ctx, cityId, levelId, levels);
      const { rows } = costedDishes(ctx.db, filtersOf(ctx), null, sortParams(ctx.query), costing);
      const city = cityOptions(ctx.db).find((c) => c.id === cityId)?.name ?? "";
      const level = levelId === null ? "" : (levelNames.get(levelId) ?? "");
      // First the dishes workbook (one recipe line per row: what the import reads back unchanged), then the table.
      return xlsxResponse(exportFileName(ctx.locale === "es" ? "platos" : "dishes", ctx.config.timezone), [
        ...dishesWorkbook(
          ctx.db,
          ctx.locale,
          rows.map((r) => r.id),
        ),
        {
          name: ctx.t("food.dishes.sheet"),
          columns: [
            { header: ctx.t("food.dishes.name"), value: (r: CostedDishRow) => r.name, width: 32 },
            {
              header: ctx.t("food.dishes.categories"),
              value: (r: CostedDishRow) => r.categories.map((c) => c.name).join(", "),
              width: 24,
            },
            {
              header: ctx.t("food.dishes.export_levels"),
              value: (r: CostedDishRow) => r.levelIds.map((id) => levelNames.get(id) ?? "").join(", "),
              width: 28,
            },
            {
              header: ctx.t("food.dishes.cost_header", { level, city }),
              value: (r: CostedDishRow) => (r.cost ? solesAmount(r.cost.costCents) : null),
              format: SOLES_FORMAT,
              width: 16,
            },
            {
              header: ctx.t("food.dishes.export_complete"),
              value: (r: CostedDishRow) => (r.cost ? ctx.t(r.cost.complete ? "food.yes" : "food.no") : null),
              width: 10,
            },
            {
              header: ctx.t("food.dishes.kcal"),
              value: (r: CostedDishRow) => (r.cost ? Math.round(r.cost.kcal) : null),
              format: "#,##0",
              width: 8,
            },
            {
              header: ctx.t("food.dishes.active"),
              value: (r: CostedDishRow) => ctx.t(r.active ? "food.yes" : "food.no"),
              width: 10,
            },
            { header: ctx.t("food.dishes.description_field"), value: (r: CostedDishRow) => r.description, width: 40 },
          ],
          rows,
        },
      ]);
    },
  },
  {
    name: "food.dishes.cost",
    methods: ["POST"],
    uri: "/food/dishes/cost",
    access: access.can("food.view"),
    maxBodyBytes: 64 * 1024,
    // The New-dish modal's live totals: a draft costed, nothing written.
    handle: (ctx) => {
      ctx.services.limiter.take([{ key: `dish-cost:${ctx.user!.id}`, limit: DISH_COST_LIMIT }]);
      const { draft, cityId } = parseDraft(ctx.db, ctx.body);
      try {
        requireCity(ctx.db, cityId);
      } catch (error) {
        if (error instanceof NotFound) throw new ValidationFailed({ city_id: message("food.cities.unknown") });
        throw error;
      }
      return Response.json(costDraft(ctx.db, draft, { cityId, igvRate: ctx.config.igvRateBasisPoints }), {
        headers: { "cache-control": "no-store" },
      });
    },
  },
  {
    name: "food.dishes.show",
    methods: ["GET"],
    uri: "/food/dishes/{dish}",
    wheres: { dish: ID },
    bindings: { dish: "id" },
    access: access.can("food.view"),
    handle: (ctx) => {
      const dish = requireDish(ctx.db, Number(ctx.params.dish));
      const cityId = chosenCityId(ctx);
      if (cityId === null) throw new NotFound();
      return Response.json(dishDetail(ctx.db, dish.id, { cityId, igvRate: ctx.config.igvRateBasisPoints }), {
        headers: { "cache-control": "no-store" },
      });
    },
  },
  {
    name: "food.dishes.store",
    methods: ["POST"],
    uri: "/food/dishes",
    access: access.can("food.manage"),
    handle: (ctx) => {
      const { dish } = saveDish(ctx.db, ctx.actor, null, ctx.body);
      if (ctx.wantsJson) return Response.json(dishRow(ctx.db, dish.id), { status: 201 });
      ctx.flash("success", ctx.t("food.dishes.saved", { name: dish.name }));
      return ctx.back(ctx.urlFor("food.index"));
    },
  },
  {
    name: "food.dishes.update",
    methods: ["PATCH"],
    uri: "/food/dishes/{dish}",
    wheres: { dish: ID },
    bindings: { dish: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const { dish } = saveDish(ctx.db, ctx.actor, Number(ctx.params.dish), ctx.body);
      if (ctx.wantsJson) return Response.json(dishRow(ctx.db, dish.id));
      ctx.flash("success", ctx.t("food.dishes.saved", { name: dish.name }));
      return ctx.back(ctx.urlFor("food.index"));
    },
  },
  {
    name: "food.dishes.destroy",
    methods: ["DELETE"],
    uri: "/food/dishes/{dish}",
    wheres: { dish: ID },
    bindings: { dish: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const dish = deleteDish(ctx.db, ctx.actor, Number(ctx.params.dish));
      if (ctx.wantsJson) return new Response(null, { status: 204 });
      ctx.flash("success", ctx.t("food.dishes.deleted", { name: dish.name }));
      return ctx.back(ctx.urlFor("food.index"));
    },
  },
  {
    name: "food.recipes.update",
    methods: ["PUT"],
    uri: "/food/dishes/{dish}/recipes/{level}",
    wheres: { dish: ID, level: ID },
    bindings: { dish: "id", level: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const levelId = Number(ctx.params.level);
      const recipe = saveRecipe(ctx.db, ctx.actor, Number(ctx.params.dish), levelId, ctx.body);
      if (ctx.wantsJson) return Response.json({ id: recipe.id, dishId: recipe.dishId, levelId: recipe.levelId });
      ctx.flash("success", ctx.t("food.dishes.saved_recipe", { level: levelName(ctx, levelId) }));
      return ctx.back(ctx.urlFor("food.index"));
    },
  },
  {
    name: "food.recipes.copy",
    methods: ["POST"],
    uri: "/food/dishes/{dish}/recipes/{level}/copy",
    wheres: { dish: ID, level: ID },
    bindings: { dish: "id", level: "id" },
    access: access.can("food.manage"),
    // The dish modal's "copy to another level": the recipe of {level} onto `to_level_id`, scaled by `factor`;
    // answered with the dish read again (costed for the page's city) so the modal shows the copy.
    handle: (ctx) => {
      const dishId = Number(ctx.params.dish);
      const fromLevelId = Number(ctx.params.level);
      const { recipe, replaced } = copyRecipe(ctx.db, ctx.actor, dishId, fromLevelId, ctx.body);
      const words = {
        from: levelName(ctx, fromLevelId),
        to: levelName(ctx, recipe.levelId),
      };
      const said = ctx.t(replaced ? "food.recipes.copy_replaced" : "food.recipes.copy_done", words);
      if (ctx.wantsJson) {
        const cityId = chosenCityId(ctx);
        return Response.json(
          {
            message: said,
            detail:
              cityId === null ? null : dishDetail(ctx.db, dishId, { cityId, igvRate: ctx.config.igvRateBasisPoints }),
          },
          { headers: { "cache-control": "no-store" } },
        );
      }
      ctx.flash("success", said);
      return ctx.back(ctx.urlFor("food.index"));
    },
  },
  {
    name: "food.recipes.destroy",
    methods: ["DELETE"],
    uri: "/food/dishes/{dish}/recipes/{level}",
    wheres: { dish: ID, level: ID },
    bindings: { dish: "id", level: "id" },
    access: access.can("food.manage"),
    handle: (ctx) => {
      const levelId = Number(ctx.params.level);
      deleteRecipe(ctx.db, ctx.actor, Number(ctx.params.dish), levelId);
      if (ctx.wantsJson) return new Response(null, { status: 204 });
      ctx.flash("success", ctx.t("food.dishes.recipe_deleted", { level: levelName(ctx, levelId) }));
      return ctx.back(ctx.urlFor("food.index"));
    },
  },
]);
