/**
 * What a recipe weighs, feeds and costs in a city: the one calculation behind the Food page, the New-dish modal's
 * live totals, the calculation popover, `./mesa dish:cost`, the menu schedule, the price changes and what to buy.
 *
 * For each line of an ingredient (PRODUCT.md, "Food, ingredients, providers and logistics"):
 *
 * - gross weight in grams: the quantity in the ingredient's base unit, millilitres through the density and units
 *   through the unit weight (`gramsOf`, cost.ts);
 * - solid waste = gross × solid %, liquid waste = gross × liquid %, final product = gross − both wastes;
 * - kcal = final × kcal per 100 g ÷ 100, and each nutrient = final × its amount per 100 g ÷ 100 (composition tables
 *   describe the edible part); a nutrient the ingredient lacks is null;
 * - cost = quantity (base unit) × the offer's cost per base unit net of IGV (`costPerBaseUnit`), an unrounded
 *   fraction of a cent. The offer is the line's pinned one when it is current and in the city asked for; otherwise
 *   the cheapest current offer of the ingredient there (the Logistics page's rule: lowest cost per base unit, then
 *   the most recent price, then the oldest offer), the line flagged `pinned_offer_unavailable` when it had a pin.
 *   No offer at all: `no_offer`, cost null (never zero), and the recipe's total is incomplete.
 *
 * A line of a sub-recipe (another dish, its quantity in grams of that dish) takes that dish's recipe of the same
 * level, else of the dish's first level by sort order (`no_sub_recipe` when it has none). With factor = quantity ÷
 * the sub-recipe's yield (its `yield_grams`, else its final product), the line's gross = final = quantity (the
 * sub-recipe's wastes are inside it), and its kcal, nutrients and cost are the sub-recipe's × factor, the cost from
 * the sub-recipe's unrounded sum. A sub-recipe whose cost is incomplete leaves the line's cost null (`no_offer`); a
 * dish reached again through its own sub-recipes is a `cycle` (saving a recipe refuses that; old data may hold it).
 *
 * The recipe's totals add its lines; the cost adds the priced lines' unrounded costs and is rounded to whole cents
 * once, there. A nutrient's total adds the lines that have it (null when none does). Each line carries its share
 * (0..1) of the gross, final, kcal and cost totals.
 *
 * `asOf` costs with the prices in effect at that moment: each offer's newest `offer_price_history` row on or before
 * it. An offer counts as current then when it had a price by then and is current now or was changed after then
 * (withdrawing an offer changes it, so one withdrawn later was current at that moment).
 *
 * Batched: `costRecipes` reads the recipes and their lines (two queries), then the recipes and lines of the dishes
 * those lines use as sub-recipes (two more per level of nesting), the sub-dishes' names, the ingredients and the
 * candidate offers, whatever the number of recipes, then computes in memory. 2,000 recipes of 15 lines cost about as
 * much as a bare SQL aggregate of their cost totals (bench/food.ts).
 */
import type { Db, DbTransaction } from "../../db";
import { preparedQuery } from "../../db";
import { loadConfig } from "../../config";
import { NotFound } from "../errors";
import { NUTRIENTS, type NutrientProperty } from "../../shared/food/composition";
import { costPerBaseUnit, costPerReferenceCents, gramsOf, type BasisPoints } from "../../shared/food/cost";
import type { CostedLine, CostedOffer, CostedRecipe, LineProblem, NutrientKey } from "../../shared/food/types";
import { NUTRIENT_KEYS } from "../../shared/food/types";
export { NUTRIENT_KEYS };
export type { CostedLine, CostedOffer, CostedRecipe, Figures, LineProblem, NutrientKey } from "../../shared/food/types";

const NUTRIENT_PROPERTIES: readonly [NutrientKey, NutrientProperty][] = NUTRIENT_KEYS.map((key) => {
  const spec = NUTRIENTS.find((n) => n.key === key);
  if (!spec) throw new Error(`recipe-cost: the nutrient ${key} is not in composition.ts`);
  return [key, spec.property];
});

export interface CostOptions {
  cityId: number;
  /** Prices in effect at that moment (offer_price_history); now when absent. */
  asOf?: Date;
  /** The IGV rate prices are netted with (basis points); the IGV_RATE setting when absent. */
  igvRate?: BasisPoints;
}

export interface DraftRecipe {
  levelId: number;
  yieldGrams?: number | null;
  lines: { ingredientId?: number | null; subDishId?: number | null; quantity: number; offerId?: number | null }[];
}

export interface IngredientNeed {
  ingredientId: number;
  /** In the ingredient's base unit. */
  grossQuantity: number;
  offerId: number | null;
}

// ——— Reading ———

type Conn = Db | DbTransaction;
type Bindings = Record<string, string | number | boolean | null>;

interface RecipeRow {
  id: number;
  dishId: number;
  levelId: number;
  yieldGrams: number | null;
  levelOrder: number;
}

interface LineRow {
  id: number | null;
  recipeId: number | null;
  position: number;
  ingredientId: number | null;
  subDishId: number | null;
  quantity: number;
  offerId: number | null;
}

type IngredientRow = {
  id: number;
  name: string;
  baseUnit: "g" | "ml" | "unit";
  unitWeightGrams: number | null;
  densityGramsPerMl: number | null;
  kcalPer100g: number;
  solidWastePercent: number;
  liquidWastePercent: number;
} & Record<NutrientProperty, number | null>;

interface OfferRow {
  id: number;
  ingredientId: number;
  providerName: string;
  presentation: string;
  quantity: number;
  priceCents: number;
  priceIncludesIgv: number;
  priceChangedAt: number;
}

const ids = (values: Iterable<number>) => JSON.stringify([...new Set(values)]);

/** The recipes asked for by id, and every recipe of the dishes asked for (each level: a sub-recipe may fall back). */
const recipesOf = preparedQuery((db) =>
  db.$client.prepare<RecipeRow, Bindings>(
    `SELECT r.id, r.dish_id AS dishId, r.level_id AS levelId, r.yield_grams AS yieldGrams, v.sort_order AS levelOrder
     FROM recipes r JOIN levels v ON v.id = r.level_id WHERE r.id IN (SELECT value FROM json_each($recipes))
     UNION ALL
     SELECT r.id, r.dish_id AS dishId, r.level_id AS levelId, r.yield_grams AS yieldGrams, v.sort_order AS levelOrder
     FROM recipes r JOIN levels v ON v.id = r.level_id WHERE r.dish_id IN (SELECT value FROM json_each($dishes))`,
  ),
);

const linesOf = preparedQuery((db) =>
  db.$client.prepare<LineRow, Bindings>(
    `SELECT l.id, l.recipe_id AS recipeId, l.position, l.ingredient_id AS ingredientId, l.sub_dish_id AS subDishId,
       l.quantity, l.offer_id AS offerId
     FROM recipe_lines l
     WHERE l.recipe_id IN (SELECT value FROM json_each($recipes))
     ORDER BY l.recipe_id, l.position, l.id`,
  ),
);

const dishNames = preparedQuery((db) =>
  db.$client.prepare<{ id: number; name: string }, Bindings>(
    `SELECT id, name FROM dishes WHERE id IN (SELECT value FROM json_each($dishes))`,
  ),
);

const ingredientsOf = preparedQuery((db) =>
  db.$client.prepare<IngredientRow, Bindings>(
    `SELECT id, name, base_unit AS baseUnit, unit_weight_grams AS unitWeightGrams,
       density_g_per_ml AS densityGramsPerMl, kcal_per_100g AS kcalPer100g,
       solid_waste_percent AS solidWastePercent, liquid_waste_percent AS liquidWastePercent,
       water_g AS waterG, protein_g AS proteinG, fat_g AS fatG, carbohydrate_g AS carbohydrateG, fibre_g AS fibreG,
       ash_g AS ashG, calcium_mg AS calciumMg, phosphorus_mg AS phosphorusMg, iron_mg AS ironMg,
       retinol_ug AS retinolUg, thiamine_mg AS thiamineMg, riboflavin_mg AS riboflavinMg, niacin_mg AS niacinMg,
       vitamin_c_mg AS vitaminCMg, sodium_mg AS sodiumMg, potassium_mg AS potassiumMg
     FROM ingredients WHERE id IN (SELECT value FROM json_each($ingredients))`,
  ),
);

/** The current offers of the ingredients in the city, with their current prices. */
const currentOffers = preparedQuery((db) =>
  db.$client.prepare<OfferRow, Bindings>(
    `SELECT o.id, o.ingredient_id AS ingredientId, p.name AS providerName, o.presentation, o.quantity,
       o.price_cents AS priceCents, o.price_includes_igv AS priceIncludesIgv, o.price_changed_at AS priceChangedAt
     FROM offers o JOIN providers p ON p.id = o.provider_id
     WHERE o.city_id = ($city + 0) AND o.active AND o.ingredient_id IN (SELECT value FROM json_each($ingredients))`,
  ),
);

/** The offers of the ingredients in the city that were current at $asOf, with the price each had then. */
const offersAsOf = preparedQuery((db) =>
  db.$client.prepare<OfferRow, Bindings>(
    `SELECT o.id, o.ingredient_id AS ingredientId, p.name AS providerName, o.presentation, h.quantity,
       h.price_cents AS priceCents, h.price_includes_igv AS priceIncludesIgv, h.changed_at AS priceChangedAt
     FROM offers o JOIN providers p ON p.id = o.provider_id
     JOIN offer_price_history h ON h.id = (
       SELECT h2.id FROM offer_price_history h2 WHERE h2.offer_id = o.id AND h2.changed_at <= ($asOf + 0)
       ORDER BY h2.changed_at DESC, h2.id DESC LIMIT 1)
     WHERE o.city_id = ($city + 0) AND (o.active OR o.updated_at > ($asOf + 0))
       AND o.ingredient_id IN (SELECT value FROM json_each($ingredients))`,
  ),
);

/** Everything a set of recipes needs to be costed, read in a handful of queries. */
interface Book {
  recipes: Map<number, RecipeRow>;
  /** A dish's recipes, its first level (by sort order) first. */
  byDish: Map<number, RecipeRow[]>;
  lines: Map<number, LineRow[]>;
  dishNames: Map<number, string>;
  ingredients: Map<number, IngredientRow>;
  /** Offers current in the city, by id. */
  offers: Map<number, OfferRow>;
  /** The cheapest current offer of each ingredient in the city. */
  cheapest: Map<number, OfferRow>;
  igvRate: BasisPoints;
}

let configuredRate: BasisPoints | null = null;
/** The IGV_RATE setting, read once, for callers that do not pass the rate. */
function defaultIgvRate(): BasisPoints {
  configuredRate ??= loadConfig().igvRateBasisPoints;
  return configuredRate;
}

function readBook(
  db: Conn,
  start: { recipeIds: readonly number[]; dishIds: readonly number[]; ingredientIds: readonly number[] },
  opts: CostOptions,
): Book {
  const igvRate = opts.igvRate ?? defaultIgvRate();
  const recipes = new Map<number, RecipeRow>();
  const byDish = new Map<number, RecipeRow[]>();
  const lines = new Map<number, LineRow[]>();
  const ingredientIds = new Set(start.ingredientIds);
  const subDishIds = new Set<number>(start.dishIds);
  // The recipes asked for and their lines, then the recipes of the dishes those lines use as sub-recipes and their
  // lines, and so on: one round per level of nesting (a dish's recipes are read once, with all their levels).
  let wantedRecipes: readonly number[] = start.recipeIds;
  let wantedDishes: readonly number[] = start.dishIds;
  const dishesRead = new Set<number>(start.dishIds);
  while (wantedRecipes.length || wantedDishes.length) {
    const found: number[] = [];
    for (const r of recipesOf(db).all({ recipes: ids(wantedRecipes), dishes: ids(wantedDishes) })) {
      if (recipes.has(r.id)) continue;
      recipes.set(r.id, r);
      found.push(r.id);
      const list = byDish.get(r.dishId);
      if (list) list.push(r);
      else byDish.set(r.dishId, [r]);
    }
    const nextDishes: number[] = [];
    if (found.length)
      for (const line of linesOf(db).all({ recipes: ids(found) })) {
        const list = lines.get(line.recipeId!);
        if (list) list.push(line);
        else lines.set(line.recipeId!, [line]);
        if (line.ingredientId !== null) ingredientIds.add(line.ingredientId);
        if (line.subDishId !== null) {
          subDishIds.add(line.subDishId);
          if (!dishesRead.has(line.subDishId)) {
            dishesRead.add(line.subDishId);
            nextDishes.push(line.subDishId);
          }
        }
      }
    wantedRecipes = [];
    wantedDishes = nextDishes;
  }
  for (const list of byDish.values()) list.sort((a, b) => a.levelOrder - b.levelOrder || a.levelId - b.levelId);

  const names = new Map(
    dishNames(db)
      .all({ dishes: ids(subDishIds) })
      .map((d) => [d.id, d.name]),
  );
  const ingredients = new Map(
    ingredientsOf(db)
      .all({ ingredients: ids(ingredientIds) })
      .map((i) => [i.id, i]),
  );
  const offerRows = opts.asOf
    ? offersAsOf(db).all({ city: opts.cityId, asOf: opts.asOf.getTime(), ingredients: ids(ingredientIds) })
    : currentOffers(db).all({ city: opts.cityId, ingredients: ids(ingredientIds) });

  const offers = new Map<number, OfferRow>();
  const cheapest = new Map<number, OfferRow>();
  const unitCost = new Map<number, number>();
  for (const offer of offerRows) {
    offers.set(offer.id, offer);
    const cost = costPerBaseUnit(
      { priceCents: offer.priceCents, priceIncludesIgv: offer.priceIncludesIgv === 1, quantity: offer.quantity },
      igvRate,
    );
    unitCost.set(offer.id, cost);
    const best = cheapest.get(offer.ingredientId);
    if (!best || isCheaper(offer, cost, best, unitCost.get(best.id)!)) cheapest.set(offer.ingredientId, offer);
  }
  return { recipes, byDish, lines, dishNames: names, ingredients, offers, cheapest, igvRate };
}

/** The Logistics page's order (logistics.ts): lowest cost per base unit, then the most recent price, then the oldest offer. */
function isCheaper(a: OfferRow, aCost: number, b: OfferRow, bCost: number): boolean {
  // Equal costs reached through different prices and quantities (S/ 10 a kilo, S/ 5 for 500 g) may differ in the last
  // bit of a float: they are equal here, so the tie rule decides.
  if (Math.abs(aCost - bCost) > 1e-12 * Math.max(aCost, bCost)) return aCost < bCost;
  if (a.priceChangedAt !== b.priceChangedAt) return a.priceChangedAt > b.priceChangedAt;
  return a.id < b.id;
}

// ——— Computing ———

/** Nutrient amounts in the order of NUTRIENT_KEYS (null: unknown), as the calculation carries them. */
type NutrientValues = readonly (number | null)[];

const unknownNutrients = (): (number | null)[] => NUTRIENT_KEYS.map(() => null);
const NO_NUTRIENTS: NutrientValues = unknownNutrients();

/** The amounts × f as the public record (a literal, so every record has the same shape; unknown stays unknown). */
function nutrientRecord(v: NutrientValues, f = 1): Record<NutrientKey, number | null> {
  return {
    water: v[0] === null ? null : v[0] * f,
    protein: v[1] === null ? null : v[1] * f,
    fat: v[2] === null ? null : v[2] * f,
    carbohydrate: v[3] === null ? null : v[3] * f,
    fibre: v[4] === null ? null : v[4] * f,
    ash: v[5] === null ? null : v[5] * f,
    calcium: v[6] === null ? null : v[6] * f,
    phosphorus: v[7] === null ? null : v[7] * f,
    iron: v[8] === null ? null : v[8] * f,
    retinol: v[9] === null ? null : v[9] * f,
    thiamine: v[10] === null ? null : v[10] * f,
    riboflavin: v[11] === null ? null : v[11] * f,
    niacin: v[12] === null ? null : v[12] * f,
    vitamin_c: v[13] === null ? null : v[13] * f,
    sodium: v[14] === null ? null : v[14] * f,
    potassium: v[15] === null ? null : v[15] * f,
  };
}
if (Object.keys(nutrientRecord(unknownNutrients())).join() !== NUTRIENT_KEYS.join())
  throw new Error("recipe-cost: nutrientRecord does not follow NUTRIENT_KEYS");

/** A line's quantities to buy: an ingredient's, or a sub-recipe's scaled by factor. */
type Need = { ingredientId: number; quantity: number; offerId: number | null } | { sub: Costing; factor: number };

/** A recipe costed, with what the public shape rounds away or does not show. */
interface Costing {
  recipe: CostedRecipe;
  /** The priced lines' costs added, unrounded. */
  exactCostCents: number;
  /** The totals' nutrients, in NUTRIENT_KEYS order. */
  nutrients: NutrientValues;
  /** Some line, here or in a sub-recipe, is a cycle: the figures depend on where the costing started. */
  cyclic: boolean;
  needs: Need[];
}

interface RecipeShape {
  id: number | null;
  dishId: number | null;
  levelId: number;
  yieldGrams: number | null;
}

class Coster {
  private readonly done = new Map<number, Costing>();
  private readonly stack = new Set<number>();

  constructor(
    private readonly book: Book,
    private readonly cityId: number,
  ) {}

  recipe(id: number): Costing {
    const known = this.done.get(id);
    if (known) return known;
    const row = this.book.recipes.get(id)!;
    this.stack.add(id);
    const costing = this.cost(row, this.book.lines.get(id) ?? []);
    this.stack.delete(id);
    if (!costing.cyclic) this.done.set(id, costing);
    return costing;
  }

  cost(shape: RecipeShape, rows: readonly LineRow[]): Costing {
    const lines: CostedLine[] = [];
    const needs: Need[] = [];
    const sums = unknownNutrients();
    /** Adds values × factor to the sums. */
    const add = (values: NutrientValues, factor: number) => {
      for (let k = 0; k < values.length; k++) {
        const value = values[k];
        if (value !== null) sums[k] = (sums[k] ?? 0) + value * factor;
      }
    };
    let cyclic = false;
    for (const row of rows) {
      if (row.ingredientId !== null) {
        const [line, need, values, factor] = this.ingredientLine(row);
        lines.push(line);
        needs.push(need);
        add(values, factor);
      } else {
        const [line, sub, values, factor] = this.subRecipeLine(row, shape.levelId);
        lines.push(line);
        add(values, factor);
        if (line.problem === "cycle") cyclic = true;
        if (sub) {
          cyclic ||= sub.cyclic;
          needs.push({ sub, factor: row.quantity / sub.recipe.yieldG });
        }
      }
    }

    const totals = {
      grossG: 0,
      solidWasteG: 0,
      liquidWasteG: 0,
      finalG: 0,
      kcal: 0,
      nutrients: nutrientRecord(sums),
      costCents: 0,
      complete: true,
    };
    let exactCostCents = 0;
    for (const line of lines) {
      totals.grossG += line.grossG;
      totals.solidWasteG += line.solidWasteG;
      totals.liquidWasteG += line.liquidWasteG;
      totals.finalG += line.finalG;
      totals.kcal += line.kcal;
      if (line.costCents === null) totals.complete = false;
      else exactCostCents += line.costCents;
    }
    totals.costCents = Math.round(exactCostCents);
    const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
    for (const line of lines) {
      line.shares = {
        grossG: share(line.grossG, totals.grossG),
        finalG: share(line.finalG, totals.finalG),
        kcal: share(line.kcal, totals.kcal),
        costCents: line.costCents === null ? null : share(line.costCents, exactCostCents),
      };
    }
    const recipe: CostedRecipe = {
      recipeId: shape.id,
      dishId: shape.dishId,
      levelId: shape.levelId,
      cityId: this.cityId,
      lines,
      totals,
      yieldG: shape.yieldGrams ?? totals.finalG,
    };
    return { recipe, exactCostCents, nutrients: sums, cyclic, needs };
  }

  /** The line, what it needs bought, and its nutrients as amounts per 100 g × a factor. */
  private ingredientLine(row: LineRow): [CostedLine, Need, NutrientValues, number] {
    const ingredient = this.book.ingredients.get(row.ingredientId!);
    if (!ingredient) throw new NotFound(`ingredient ${row.ingredientId}`);
    const pinned = row.offerId === null ? undefined : this.book.offers.get(row.offerId);
    const usable = pinned && pinned.ingredientId === ingredient.id ? pinned : undefined;
    const offer = usable ?? this.book.cheapest.get(ingredient.id);
    const problem: LineProblem | null = !offer
      ? "no_offer"
      : row.offerId !== null && !usable
        ? "pinned_offer_unavailable"
        : null;

    const grossG = gramsOf(row.quantity, ingredient);
    const solidWasteG = (grossG * ingredient.solidWastePercent) / 100;
    const liquidWasteG = (grossG * ingredient.liquidWastePercent) / 100;
    const finalG = grossG - solidWasteG - liquidWasteG;
    const per100 = this.per100(ingredient);
    const costed = offer ? this.costedOffer(offer, ingredient.baseUnit, offer === usable) : null;
    const costCents = costed ? row.quantity * costed.costPerBaseUnitCents : null;
    const line: CostedLine = {
      lineId: row.id,
      position: row.position,
      kind: "ingredient",
      ingredientId: ingredient.id,
      subDishId: null,
      name: ingredient.name,
      quantity: row.quantity,
      unit: ingredient.baseUnit,
      grossG,
      solidWasteG,
      liquidWasteG,
      finalG,
      kcal: (finalG * ingredient.kcalPer100g) / 100,
      nutrients: nutrientRecord(per100, finalG / 100),
      costCents,
      offer: costed,
      problem,
      shares: { grossG: 0, finalG: 0, kcal: 0, costCents: null },
    };
    const need = { ingredientId: ingredient.id, quantity: row.quantity, offerId: offer?.id ?? null };
    return [line, need, per100, finalG / 100];
  }

  private readonly per100s = new Map<number, NutrientValues>();
  /** The ingredient's nutrients per 100 g, in NUTRIENT_KEYS order. */
  private per100(ingredient: IngredientRow): NutrientValues {
    let values = this.per100s.get(ingredient.id);
    if (!values) {
      values = NUTRIENT_PROPERTIES.map(([, property]) => ingredient[property]);
      this.per100s.set(ingredient.id, values);
    }
    return values;
  }

  private readonly offerCosts = [new Map<number, CostedOffer>(), new Map<number, CostedOffer>()];
  /** The offer as a line shows it, its costs worked out once per costing (lines share it: do not change it). */
  private costedOffer(offer: OfferRow, baseUnit: IngredientRow["baseUnit"], pinned: boolean): CostedOffer {
    const kept = this.offerCosts[pinned ? 1 : 0];
    let costed = kept.get(offer.id);
    if (!costed) {
      const priced = {
        priceCents: offer.priceCents,
        priceIncludesIgv: offer.priceIncludesIgv === 1,
        quantity: offer.quantity,
      };
      costed = {
        id: offer.id,
        providerName: offer.providerName,
        presentation: offer.presentation,
        pinned,
        costPerBaseUnitCents: costPerBaseUnit(priced, this.book.igvRate),
        costPerReferenceCents: costPerReferenceCents(priced, baseUnit, this.book.igvRate),
      };
      kept.set(offer.id, costed);
    }
    return costed;
  }

  private subRecipeLine(row: LineRow, levelId: number): [CostedLine, Costing | null, NutrientValues, number] {
    const dishId = row.subDishId!;
    const candidates = this.book.byDish.get(dishId) ?? [];
    const chosen = candidates.find((r) => r.levelId === levelId) ?? candidates[0];
    const line: CostedLine = {
      lineId: row.id,
      position: row.position,
      kind: "dish",
      ingredientId: null,
      subDishId: dishId,
      name: this.book.dishNames.get(dishId) ?? "",
      quantity: row.quantity,
      unit: "g",
      grossG: row.quantity,
      solidWasteG: 0,
      liquidWasteG: 0,
      finalG: row.quantity,
      kcal: 0,
      nutrients: nutrientRecord(NO_NUTRIENTS),
      costCents: null,
      offer: null,
      problem: null,
      shares: { grossG: 0, finalG: 0, kcal: 0, costCents: null },
    };
    if (!chosen) return [{ ...line, problem: "no_sub_recipe" }, null, NO_NUTRIENTS, 0];
    if (this.stack.has(chosen.id)) return [{ ...line, problem: "cycle" }, null, NO_NUTRIENTS, 0];
    const sub = this.recipe(chosen.id);
    if (!(sub.recipe.yieldG > 0)) return [{ ...line, problem: "no_sub_recipe" }, null, NO_NUTRIENTS, 0];
    const factor = row.quantity / sub.recipe.yieldG;
    line.kcal = sub.recipe.totals.kcal * factor;
    line.nutrients = nutrientRecord(sub.nutrients, factor);
    if (sub.recipe.lines.some((l) => l.problem === "cycle")) line.problem = "cycle";
    else if (!sub.recipe.totals.complete) line.problem = "no_offer";
    else line.costCents = sub.exactCostCents * factor;
    return [line, sub, sub.nutrients, factor];
  }
}

// ——— The interface ———

/** Each recipe asked for (that exists), costed for the city; a handful of queries whatever the count. */
export function costRecipes(db: Conn, recipeIds: readonly number[], opts: CostOptions): Map<number, CostedRecipe> {
  const result = new Map<number, CostedRecipe>();
  if (recipeIds.length === 0) return result;
  const book = readBook(db, { recipeIds, dishIds: [], ingredientIds: [] }, opts);
  const coster = new Coster(book, opts.cityId);
  for (const id of recipeIds) if (book.recipes.has(id)) result.set(id, coster.recipe(id).recipe);
  return result;
}

const recipesOfDish = preparedQuery((db) =>
  db.$client.prepare<{ id: number; levelId: number }, Bindings>(
    `SELECT r.id, r.level_id AS levelId FROM recipes r JOIN levels v ON v.id = r.level_id
     WHERE r.dish_id = ($dish + 0) ORDER BY v.sort_order, v.id`,
  ),
);

/** The dish's recipe for `levelId` (by default its first level by sort order), costed; null when it has none. */
export function costDish(db: Conn, dishId: number, opts: CostOptions & { levelId?: number }): CostedRecipe | null {
  const recipes = recipesOfDish(db).all({ dish: dishId });
  const recipe = opts.levelId === undefined ? recipes[0] : recipes.find((r) => r.levelId === opts.levelId);
  if (!recipe) return null;
  return costRecipes(db, [recipe.id], opts).get(recipe.id) ?? null;
}

/** A recipe not saved yet (the New-dish modal's), costed as a saved one would be. Unknown ingredients are NotFound. */
export function costDraft(db: Conn, draft: DraftRecipe, opts: CostOptions): CostedRecipe {
  const ingredientIds = draft.lines.flatMap((l) => (l.ingredientId ? [l.ingredientId] : []));
  const dishIds = draft.lines.flatMap((l) => (l.subDishId ? [l.subDishId] : []));
  const book = readBook(db, { recipeIds: [], dishIds, ingredientIds }, opts);
  const rows: LineRow[] = draft.lines.map((line, index) => {
    const ingredientId = line.ingredientId ?? null;
    const subDishId = ingredientId === null ? (line.subDishId ?? null) : null;
    if (ingredientId === null && subDishId === null) throw new NotFound("recipe line without ingredient or dish");
    if (subDishId !== null && !book.dishNames.has(subDishId)) throw new NotFound(`dish ${subDishId}`);
    return {
      id: null,
      recipeId: null,
      position: index + 1,
      ingredientId,
      subDishId,
      quantity: line.quantity,
      offerId: ingredientId === null ? null : (line.offerId ?? null),
    };
  });
  const shape = { id: null, dishId: null, levelId: draft.levelId, yieldGrams: draft.yieldGrams ?? null };
  return new Coster(book, opts.cityId).cost(shape, rows).recipe;
}

/**
 * What each recipe needs bought, per ingredient and offer chosen (null: none in the city), in the ingredient's base
 * unit: sub-recipes flattened, each scaled by its line's quantity ÷ the sub-recipe's yield.
 */
export function ingredientNeeds(
  db: Conn,
  recipeIds: readonly number[],
  opts: CostOptions,
): Map<number, IngredientNeed[]> {
  const result = new Map<number, IngredientNeed[]>();
  if (recipeIds.length === 0) return result;
  const book = readBook(db, { recipeIds, dishIds: [], ingredientIds: [] }, opts);
  const coster = new Coster(book, opts.cityId);
  for (const id of recipeIds) {
    if (!book.recipes.has(id)) continue;
    const totals = new Map<string, IngredientNeed>();
    const walk = (needs: readonly Need[], scale: number) => {
      for (const need of needs) {
        if ("sub" in need) {
          walk(need.sub.needs, scale * need.factor);
          continue;
        }
        const key = `${need.ingredientId}:${need.offerId ?? ""}`;
        const known = totals.get(key);
        if (known) known.grossQuantity += need.quantity * scale;
        else
          totals.set(key, {
            ingredientId: need.ingredientId,
            grossQuantity: need.quantity * scale,
            offerId: need.offerId,
          });
      }
    };
    walk(coster.recipe(id).needs, 1);
    result.set(id, [...totals.values()]);
  }
  return result;
}
