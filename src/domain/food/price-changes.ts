/**
 * What-if over time: which dishes' cost per serving moved in a period because offers changed (a price, a quantity,
 * the IGV flag, an offer added or withdrawn), for one city and one level or all of them, and a dish's cost at each
 * moment a price it depends on changed. Costs are never stored: both are the costing engine's figures
 * (`costRecipes` with `asOf`, src/domain/food/recipe-cost.ts) at the period's start and end, so they agree with the
 * calculation popover, the dish table and the command line to the cent.
 *
 * Only recipes that can have moved are costed: those with a line on an ingredient one of whose offers in the city
 * changed in the period, directly or through a sub-recipe (at any depth).
 */
import { and, asc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import { cities, dishes, levels, offerPriceHistory, offers, recipes } from "../../../db/schema";
import type { Db } from "../../db";
import type { BasisPoints } from "../../shared/food/cost";
import { costRecipes, type CostedLine, type CostedRecipe } from "./recipe-cost";
import type {
  CostPoint,
  OfferChange,
  PriceChangeFilters,
  PriceChangeRow,
  PriceChanges,
  UsedOffer,
} from "../../shared/food/types";
import { addDays, dateIn, isCalendarDate } from "../../shared/calendar";
export type {
  CostPoint,
  OfferChange,
  PriceChangeFilters,
  PriceChangeRow,
  PriceChanges,
  UsedOffer,
} from "../../shared/food/types";

/** A period of whole days (YYYY-MM-DD, both included) in a time zone, for a city and optionally one level. */
export interface PriceChangeQuery {
  from: string;
  to: string;
  cityId: number;
  levelId?: number | null;
  /** The days' time zone (the TIMEZONE setting); UTC when left out. */
  timeZone?: string;
  /** The IGV rate prices are netted with (basis points); the IGV_RATE setting when left out. */
  igvRate?: BasisPoints;
}

const DAY_MS = 86_400_000;

/** The offset of `timeZone` from UTC at `instant`, in milliseconds (Lima: −5 h). */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return local - Math.floor(instant / 1000) * 1000;
}

/** The first instant of the day `date` (YYYY-MM-DD) in `timeZone`. */
export function dayStart(date: string, timeZone = "UTC"): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(midnightUtc)) throw new RangeError(`not a date: ${date}`);
  let instant = midnightUtc - zoneOffset(midnightUtc, timeZone);
  // Once more at the found instant, for a day on which the offset changes.
  instant = midnightUtc - zoneOffset(instant, timeZone);
  return new Date(instant);
}

/** The period's bounds: the start of `from` and the last millisecond of `to`, in the query's time zone. */
export function periodBounds(query: Pick<PriceChangeQuery, "from" | "to" | "timeZone">): { start: Date; end: Date } {
  const start = dayStart(query.from, query.timeZone);
  const next = addDays(query.to, 1);
  return { start, end: new Date(dayStart(next, query.timeZone).getTime() - 1) };
}

/**
 * The offers of a city whose price changed in (start, end] (a history row then: a new price, or the offer's first),
 * or that were withdrawn or changed otherwise then, with their ingredient.
 */
function changedOffers(db: Db, cityId: number, start: Date, end: Date): { id: number; ingredientId: number }[] {
  const repriced = db
    .selectDistinct({ id: offerPriceHistory.offerId })
    .from(offerPriceHistory)
    .where(and(gt(offerPriceHistory.changedAt, start), lte(offerPriceHistory.changedAt, end)));
  return db
    .select({ id: offers.id, ingredientId: offers.ingredientId })
    .from(offers)
    .where(
      and(
        eq(offers.cityId, cityId),
        or(inArray(offers.id, repriced), and(gt(offers.updatedAt, start), lte(offers.updatedAt, end))),
      ),
    )
    .all();
}

/** The recipes (of `levelId`, or of every level) whose dish uses one of `ingredientIds`, directly or as a sub-recipe. */
function recipesUsing(db: Db, ingredientIds: readonly number[], levelId: number | null): number[] {
  if (ingredientIds.length === 0) return [];
  const list = sql.join(
    ingredientIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = db.all<{ id: number }>(sql`
    WITH RECURSIVE hit(dish_id) AS (
      SELECT r.dish_id FROM recipe_lines l JOIN recipes r ON r.id = l.recipe_id WHERE l.ingredient_id IN (${list})
      UNION
      SELECT r.dish_id FROM recipe_lines l JOIN recipes r ON r.id = l.recipe_id JOIN hit h ON l.sub_dish_id = h.dish_id
    )
    SELECT r.id AS id FROM recipes r
    WHERE r.dish_id IN (SELECT dish_id FROM hit) ${levelId === null ? sql`` : sql`AND r.level_id = ${levelId}`}
    ORDER BY r.id`);
  return rows.map((r) => r.id);
}

/** Every recipe of the dishes used as sub-recipes by `recipeIds`, at any depth (to read which offers they used). */
function subRecipesOf(db: Db, recipeIds: readonly number[]): number[] {
  if (recipeIds.length === 0) return [];
  const list = sql.join(
    recipeIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = db.all<{ id: number }>(sql`
    WITH RECURSIVE used(dish_id) AS (
      SELECT l.sub_dish_id FROM recipe_lines l WHERE l.recipe_id IN (${list}) AND l.sub_dish_id IS NOT NULL
      UNION
      SELECT l.sub_dish_id FROM recipe_lines l JOIN recipes r ON r.id = l.recipe_id JOIN used u ON r.dish_id = u.dish_id
      WHERE l.sub_dish_id IS NOT NULL
    )
    SELECT r.id AS id FROM recipes r WHERE r.dish_id IN (SELECT dish_id FROM used)`);
  return rows.map((r) => r.id);
}

/** The recipes of each dish by level, and the levels' order: enough to pick the sub-recipe a line used. */
function recipeIndex(db: Db, recipeIds: readonly number[]) {
  const byId = new Map<number, { dishId: number; levelId: number }>();
  const byDish = new Map<number, Map<number, number>>();
  if (recipeIds.length)
    for (const r of db
      .select({ id: recipes.id, dishId: recipes.dishId, levelId: recipes.levelId })
      .from(recipes)
      .where(inArray(recipes.id, [...recipeIds]))
      .all()) {
      byId.set(r.id, r);
      let levelsOfDish = byDish.get(r.dishId);
      if (!levelsOfDish) byDish.set(r.dishId, (levelsOfDish = new Map()));
      levelsOfDish.set(r.levelId, r.id);
    }
  const levelOrder = db
    .select({ id: levels.id })
    .from(levels)
    .orderBy(asc(levels.sortOrder), asc(levels.name))
    .all()
    .map((l) => l.id);
  /** The sub-recipe a line of a `levelId` recipe uses: the sub-dish's recipe of that level, else its first level's. */
  const subRecipe = (subDishId: number, levelId: number): number | null => {
    const levelsOfDish = byDish.get(subDishId);
    if (!levelsOfDish) return null;
    const same = levelsOfDish.get(levelId);
    if (same !== undefined) return same;
    for (const id of levelOrder) {
      const found = levelsOfDish.get(id);
      if (found !== undefined) return found;
    }
    return null;
  };
  return { byId, subRecipe };
}

/** The offer each ingredient of a costed recipe was costed at, sub-recipes included (a sub-recipe's own wins last). */
function offersUsed(
  recipeId: number,
  costed: Map<number, CostedRecipe>,
  subRecipe: (subDishId: number, levelId: number) => number | null,
  found = new Map<number, { line: CostedLine }>(),
  seen = new Set<number>(),
): Map<number, { line: CostedLine }> {
  const recipe = costed.get(recipeId);
  if (!recipe || seen.has(recipeId)) return found;
  seen.add(recipeId);
  for (const line of recipe.lines) {
    if (line.kind === "ingredient" && line.ingredientId !== null) {
      if (!found.has(line.ingredientId)) found.set(line.ingredientId, { line });
    } else if (line.subDishId !== null) {
      const sub = subRecipe(line.subDishId, recipe.levelId);
      if (sub !== null) offersUsed(sub, costed, subRecipe, found, seen);
    }
  }
  return found;
}

const usedOffer = (line: CostedLine): UsedOffer | null =>
  line.offer
    ? {
        offerId: line.offer.id,
        providerName: line.offer.providerName,
        presentation: line.offer.presentation,
        pinned: line.offer.pinned,
        costPerReferenceCents: line.offer.costPerReferenceCents,
      }
    : null;

/** Where the offer of each ingredient differs between two costings of a recipe (another offer, or another price). */
function offerChanges(
  before: Map<number, { line: CostedLine }>,
  after: Map<number, { line: CostedLine }>,
): OfferChange[] {
  const changes: OfferChange[] = [];
  for (const ingredientId of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(ingredientId)?.line;
    const now = after.get(ingredientId)?.line;
    const line = (now ?? old)!;
    const a = old ? usedOffer(old) : null;
    const b = now ? usedOffer(now) : null;
    if (
      a?.offerId === b?.offerId &&
      old?.offer?.costPerBaseUnitCents === now?.offer?.costPerBaseUnitCents &&
      (a === null) === (b === null)
    )
      continue;
    changes.push({ ingredientId, ingredientName: line.name, unit: line.unit, before: a, after: b });
  }
  return changes.sort((x, y) => x.ingredientName.localeCompare(y.ingredientName, "es"));
}

/**
 * The dishes whose cost per serving moved in the period, per level: the cost at the start of `from` and at the end
 * of `to` in `cityId`, the difference in cents and percent, and the offers that changed under it. Largest moves
 * first.
 */
export function priceChanges(db: Db, query: PriceChangeQuery): PriceChanges {
  const { start, end } = periodBounds(query);
  const levelId = query.levelId ?? null;
  const changed = changedOffers(db, query.cityId, start, end);
  const candidates = recipesUsing(db, [...new Set(changed.map((o) => o.ingredientId))], levelId);
  const base = { from: query.from, to: query.to, cityId: query.cityId, levelId, changedOffers: changed.length };
  if (candidates.length === 0) return { ...base, recipesChecked: 0, rows: [] };
  const all = [...new Set([...candidates, ...subRecipesOf(db, candidates)])];
  const options = { cityId: query.cityId, igvRate: query.igvRate };
  const before = costRecipes(db, all, { ...options, asOf: start });
  const after = costRecipes(db, all, { ...options, asOf: end });
  const { subRecipe } = recipeIndex(db, all);
  const names = new Map(
    db
      .select({ id: recipes.id, dishName: dishes.name, levelName: levels.name })
      .from(recipes)
      .innerJoin(dishes, eq(dishes.id, recipes.dishId))
      .innerJoin(levels, eq(levels.id, recipes.levelId))
      .where(inArray(recipes.id, candidates))
      .all()
      .map((r) => [r.id, r]),
  );
  const rows: PriceChangeRow[] = [];
  for (const recipeId of candidates) {
    const old = before.get(recipeId);
    const now = after.get(recipeId);
    if (!old || !now) continue;
    const beforeCents = old.totals.costCents;
    const afterCents = now.totals.costCents;
    if (beforeCents === afterCents && old.totals.complete === now.totals.complete) continue;
    const named = names.get(recipeId)!;
    rows.push({
      dishId: now.dishId ?? old.dishId ?? 0,
      dishName: named.dishName,
      recipeId,
      levelId: now.levelId,
      levelName: named.levelName,
      beforeCents,
      afterCents,
      differenceCents: afterCents - beforeCents,
      percent: beforeCents === 0 ? null : ((afterCents - beforeCents) / beforeCents) * 100,
      completeBefore: old.totals.complete,
      completeAfter: now.totals.complete,
      offers: offerChanges(offersUsed(recipeId, before, subRecipe), offersUsed(recipeId, after, subRecipe)),
    });
  }
  rows.sort(
    (a, b) =>
      Math.abs(b.differenceCents) - Math.abs(a.differenceCents) ||
      a.dishName.localeCompare(b.dishName, "es") ||
      a.levelId - b.levelId,
  );
  return { ...base, recipesChecked: candidates.length, rows };
}

/** The most points a dish's history shows: past that, the latest changes are kept. */
export const MAX_HISTORY_POINTS = 120;

/**
 * A dish's cost per serving for one level and city over a period: at the start of `from`, then at each moment a
 * price of an offer (in the city) of an ingredient it uses, directly or through sub-recipes, changed, up to the end
 * of `to`. Consecutive equal costs are kept once. Empty when the dish has no recipe for the level.
 */
export function dishCostHistory(
  db: Db,
  dishId: number,
  query: { cityId: number; levelId: number; from: string; to: string; timeZone?: string; igvRate?: BasisPoints },
): CostPoint[] {
  const recipe = db
    .select({ id: recipes.id })
    .from(recipes)
    .where(and(eq(recipes.dishId, dishId), eq(recipes.levelId, query.levelId)))
    .get();
  if (!recipe) return [];
  const { start, end } = periodBounds(query);
  const ingredientIds = ingredientsOf(db, recipe.id);
  const moments =
    ingredientIds.length === 0
      ? []
      : db
          .selectDistinct({ at: offerPriceHistory.changedAt })
          .from(offerPriceHistory)
          .innerJoin(offers, eq(offers.id, offerPriceHistory.offerId))
          .where(
            and(
              eq(offers.cityId, query.cityId),
              inArray(offers.ingredientId, ingredientIds),
              gt(offerPriceHistory.changedAt, start),
              lte(offerPriceHistory.changedAt, end),
            ),
          )
          .orderBy(asc(offerPriceHistory.changedAt))
          .all()
          .map((r) => r.at);
  const points: CostPoint[] = [];
  for (const at of [start, ...moments.slice(-(MAX_HISTORY_POINTS - 1))]) {
    const costed = costRecipes(db, [recipe.id], { cityId: query.cityId, igvRate: query.igvRate, asOf: at }).get(
      recipe.id,
    );
    if (!costed) continue;
    const last = points.at(-1);
    if (last && last.costCents === costed.totals.costCents && last.complete === costed.totals.complete) continue;
    points.push({ at: at.toISOString(), costCents: costed.totals.costCents, complete: costed.totals.complete });
  }
  return points;
}

/** The ingredients a recipe uses, directly or through the recipes of its sub-dishes (any level, any depth). */
function ingredientsOf(db: Db, recipeId: number): number[] {
  const rows = db.all<{ id: number }>(sql`
    WITH RECURSIVE used(recipe_id) AS (
      SELECT ${recipeId}
      UNION
      SELECT r.id FROM recipe_lines l JOIN used u ON l.recipe_id = u.recipe_id JOIN recipes r ON r.dish_id = l.sub_dish_id
    )
    SELECT DISTINCT l.ingredient_id AS id FROM recipe_lines l
    WHERE l.recipe_id IN (SELECT recipe_id FROM used) AND l.ingredient_id IS NOT NULL`);
  return rows.map((r) => r.id);
}

const isDay = (value: unknown): value is string => typeof value === "string" && isCalendarDate(value);

/** The longest period the view compares, in days. */
export const MAX_PERIOD_DAYS = 366;

/**
 * The filters from a query string (`from`, `to`, `city`, `level`), checked: the last 30 days by default, a period
 * of at most MAX_PERIOD_DAYS with `from` ≤ `to`, a city that exists (else `defaultCityId` when it exists, else the
 * first city with offers, by name), a level that exists (else every level).
 */
export function priceChangeFilters(
  db: Db,
  query: Record<string, unknown>,
  { timeZone, now = new Date(), defaultCityId = null }: { timeZone: string; now?: Date; defaultCityId?: number | null },
): PriceChangeFilters {
  const today = dateIn(timeZone, now);
  let to = isDay(query.to) ? query.to : today;
  let from = isDay(query.from) ? query.from : addDays(to, -30);
  if (from > to) [from, to] = [to, from];
  if (Date.parse(to) - Date.parse(from) > MAX_PERIOD_DAYS * DAY_MS) from = addDays(to, -MAX_PERIOD_DAYS);
  const asId = (value: unknown) => {
    const n = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : value;
    return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;
  };
  const cityNamed = (id: number | null) =>
    id === null ? undefined : db.select({ id: cities.id }).from(cities).where(eq(cities.id, id)).get();
  const city =
    cityNamed(asId(query.city)) ||
    cityNamed(defaultCityId) ||
    db
      .select({ id: cities.id })
      .from(cities)
      .where(sql`EXISTS (SELECT 1 FROM offers o WHERE o.city_id = ${cities.id})`)
      .orderBy(asc(cities.name))
      .get() ||
    db.select({ id: cities.id }).from(cities).orderBy(asc(cities.name)).get();
  const wantedLevel = asId(query.level);
  const level =
    wantedLevel !== null
      ? db.select({ id: levels.id }).from(levels).where(eq(levels.id, wantedLevel)).get()
      : undefined;
  return { from, to, cityId: city?.id ?? null, levelId: level?.id ?? null };
}
