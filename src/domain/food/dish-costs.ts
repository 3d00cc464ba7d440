/**
 * Dishes with their costs, as the Food page reads them: the dishes list with each dish costed per serving for one
 * city and one level (and the levels it has no recipe for), a dish with every recipe it has costed for a city (the
 * dish modal and the calculation popover), what the dish modal chooses from, and the city prices are read in when the
 * page names none. Every cost comes from `costRecipes`.
 */
import { and, eq, inArray } from "drizzle-orm";
import { headquarters, recipes } from "../../../db/schema";
import type { Db } from "../../db";
import type { CostedDishRow, DishDetail, RecipeChoices } from "../../shared/food/types";
import type { Scope } from "../access/scope";
import type { BasisPoints } from "../../shared/food/cost";
import type { ListResult, PageRequest, SortRequest } from "../search";
import { cityOptions } from "./cities";
import { dishOptions, dishRow, listDishes, type DishFilter, type DishRow } from "./dishes";
import { ingredientOptions } from "./ingredients";
import { offerRowOf, type RawOffer } from "./offer-lists";
import type { OfferSettings } from "./offers";
import { costDish, costRecipes, type CostedRecipe } from "./recipe-cost";

/** Where and how a list of dishes is costed: a city and a level (none: not costed), and the levels there are. */
export interface DishCosting {
  cityId: number | null;
  levelId: number | null;
  /** Every level, in order: a dish's levels without a recipe are flagged from them. */
  levelIds: readonly number[];
  igvRate: BasisPoints;
}

/**
 * The city prices are read in: `asked` when it is a city, else the city of the first headquarters of the scope
 * that has one, else the first city (null when there is none).
 */
export function pricingCityId(db: Db, scope: Scope, asked?: number): number | null {
  const cities = cityOptions(db);
  if (asked && cities.some((c) => c.id === asked)) return asked;
  const ids = scope.all ? null : [...scope.headquartersIds];
  const first = db
    .select({ cityId: headquarters.cityId })
    .from(headquarters)
    .where(ids ? inArray(headquarters.id, ids.length ? ids : [0]) : undefined)
    .orderBy(headquarters.id)
    .all()
    .find((h) => h.cityId !== null);
  return first?.cityId ?? cities[0]?.id ?? null;
}

/** `rows` costed for a city and level (their recipes of that level, costed in one batch), with the levels they lack. */
export function costDishRows(db: Db, dishRows: DishRow[], costing: DishCosting): CostedDishRow[] {
  const { cityId, levelId } = costing;
  const rows = dishRows.map((r) => ({
    ...r,
    levelsWithoutRecipe: costing.levelIds.filter((id) => !r.levelIds.includes(id)),
  }));
  if (cityId === null || levelId === null || rows.length === 0) return rows.map((r) => ({ ...r, cost: null }));
  const found = db
    .select({ id: recipes.id, dishId: recipes.dishId })
    .from(recipes)
    .where(
      and(
        eq(recipes.levelId, levelId),
        inArray(
          recipes.dishId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .all();
  const costed = found.length
    ? costRecipes(
        db,
        found.map((r) => r.id),
        { cityId, igvRate: costing.igvRate },
      )
    : new Map<number, CostedRecipe>();
  const byDish = new Map(found.map((r) => [r.dishId, r.id]));
  return rows.map((row) => {
    const recipeId = byDish.get(row.id);
    const recipe = recipeId === undefined ? undefined : costed.get(recipeId);
    if (recipeId === undefined || !recipe) return { ...row, cost: null };
    return {
      ...row,
      cost: {
        recipeId,
        costCents: recipe.totals.costCents,
        complete: recipe.totals.complete,
        kcal: recipe.totals.kcal,
        finalG: recipe.totals.finalG,
        unpriced: recipe.lines.filter((l) => l.costCents === null).length,
      },
    };
  });
}

/** The dishes list (`listDishes`: searched, filtered, sorted, a page or every row), each dish costed. */
export function costedDishes(
  db: Db,
  filter: DishFilter,
  page: PageRequest | null,
  sort: SortRequest | undefined,
  costing: DishCosting,
): ListResult<CostedDishRow> {
  const found = listDishes(db, filter, page, sort);
  return { ...found, rows: costDishRows(db, found.rows, costing) };
}

/** A dish with every recipe it has, each costed for the city. */
export function dishDetail(db: Db, dishId: number, costing: { cityId: number; igvRate: BasisPoints }): DishDetail {
  const dish = dishRow(db, dishId);
  const costed = dish.levelIds
    .map((levelId) => costDish(db, dishId, { cityId: costing.cityId, levelId, igvRate: costing.igvRate }))
    .filter((r): r is CostedRecipe => r !== null);
  return { dish, cityId: costing.cityId, recipes: costed };
}

/** What the dish modal chooses from: ingredients with their unit, dishes, and every offer (to pin one). */
export function recipeChoices(db: Db, settings: OfferSettings): RecipeChoices {
  const offers = db.$client
    .query<RawOffer, []>(
      `SELECT o.id, o.provider_id AS providerId, p.name AS providerName, o.ingredient_id AS ingredientId,
         i.name AS ingredientName, i.base_unit AS baseUnit, o.city_id AS cityId, c.name AS cityName, o.presentation,
         o.quantity, o.price_cents AS priceCents, o.price_includes_igv AS priceIncludesIgv, o.active,
         o.price_changed_at AS priceChangedAt
       FROM offers o JOIN providers p ON p.id = o.provider_id JOIN ingredients i ON i.id = o.ingredient_id
       JOIN cities c ON c.id = o.city_id ORDER BY i.name, c.name, p.name, o.presentation, o.id`,
    )
    .all()
    .map((raw) => {
      const row = offerRowOf(raw, settings);
      return {
        id: row.id,
        ingredientId: row.ingredientId,
        cityId: row.cityId,
        providerName: row.providerName,
        presentation: row.presentation,
        active: row.active,
        costPerReferenceCents: row.costPerReferenceCents,
      };
    });
  return { ingredients: ingredientOptions(db), dishes: dishOptions(db), offers };
}
