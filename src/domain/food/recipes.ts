/**
 * Recipes: what one serving of a dish is made of for one level, company-wide data the nutritionist keeps
 * (`food.manage`). A recipe's lines are an ingredient (its quantity in the ingredient's base unit, optionally pinned
 * to one of its offers) or another dish used as a sub-recipe (its quantity in grams of that dish); `yieldGrams`,
 * when set, is what the recipe makes. `saveRecipe` replaces a recipe's lines whole, after checking that every
 * ingredient, dish and offer exists, that each pinned offer is one of its ingredient's, that every quantity is a
 * positive number, and that no dish ends up inside itself through its sub-recipes.
 *
 * `parseDraft` bounds what the New-dish modal sends to be costed as the chef types (recipe-cost.ts, costDraft):
 * at most MAX_RECIPE_LINES lines, every number finite and positive.
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { dishes, ingredients, levels, offers, recipeLines, recipes } from "../../../db/schema";
import type { Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { parseInput, t } from "../validation";
import { insertDish, parseDish, requireDish, writeDishUpdate, type Dish, type DishValues } from "./dishes";

export type Recipe = typeof recipes.$inferSelect;
export type RecipeLine = typeof recipeLines.$inferSelect;

/** The most lines one recipe may have. */
export const MAX_RECIPE_LINES = 60;
/** The largest quantity of a line: 1 t in grams (or a thousand litres, or a million units). */
export const MAX_LINE_QUANTITY = 1_000_000;

const id = () => t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()]));
const amount = () => t.Union([t.Number(), t.String({ maxLength: 20 })]);

const LineInput = t.Object({
  ingredient_id: id(),
  sub_dish_id: id(),
  quantity: amount(),
  offer_id: id(),
});

export const RecipeInput = t.Object({
  yield_grams: t.Optional(t.Union([amount(), t.Null()])),
  lines: t.Array(LineInput, { maxItems: MAX_RECIPE_LINES }),
});

export const DraftInput = t.Object({
  level_id: t.Integer({ minimum: 1 }),
  city_id: t.Integer({ minimum: 1 }),
  ...RecipeInput.properties,
});

/** A draft as recipe-cost.ts's costDraft takes it (its DraftRecipe). */
export interface DraftRecipe {
  levelId: number;
  yieldGrams: number | null;
  lines: { ingredientId: number | null; subDishId: number | null; quantity: number; offerId: number | null }[];
}

/** A line as checked: one of an ingredient or a sub-recipe dish, a quantity, and an offer only for an ingredient. */
export interface LineValues {
  ingredientId: number | null;
  subDishId: number | null;
  quantity: number;
  offerId: number | null;
}

/** A positive, finite number (typed with a comma or a point, or sent as a number) up to `max`, or null with a message. */
function positiveNumber(value: unknown, field: string, errors: Record<string, Message>, max: number): number | null {
  const text =
    typeof value === "number"
      ? String(value)
      : String(value ?? "")
          .trim()
          .replace(",", ".");
  if (text === "") {
    errors[field] = message("validation.required");
    return null;
  }
  const number = Number(text);
  if (!Number.isFinite(number) || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) {
    errors[field] = message("validation.number");
    return null;
  }
  if (number <= 0) {
    errors[field] = message("food.recipes.quantity_positive");
    return null;
  }
  if (number > max) {
    errors[field] = message("food.figures.at_most", { max });
    return null;
  }
  return number;
}

/** The shape of a recipe's input (lines, quantities, yield), before anything is looked up. */
function parseShape(
  input: unknown,
  errors: Record<string, Message>,
): { yieldGrams: number | null; lines: LineValues[] } {
  let data: ReturnType<typeof parseInput<typeof RecipeInput>> | null = null;
  try {
    data = parseInput(RecipeInput, input);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
    return { yieldGrams: null, lines: [] };
  }
  const raw = data.yield_grams;
  const yieldGrams =
    raw === null || raw === undefined || raw === ""
      ? null
      : positiveNumber(raw, "yield_grams", errors, MAX_LINE_QUANTITY);
  if (data.lines.length === 0) errors.lines = message("food.recipes.lines_required");
  const lines = data.lines.map((line, index): LineValues => {
    const field = `lines.${index}`;
    const ingredientId = line.ingredient_id ?? null;
    const subDishId = line.sub_dish_id ?? null;
    if ((ingredientId === null) === (subDishId === null)) errors[`${field}.item`] = message("food.recipes.line_item");
    if (subDishId !== null && (line.offer_id ?? null) !== null)
      errors[`${field}.offer_id`] = message("food.recipes.offer_for_dish");
    const quantity = positiveNumber(line.quantity, `${field}.quantity`, errors, MAX_LINE_QUANTITY) ?? 0;
    return { ingredientId, subDishId, quantity, offerId: subDishId === null ? (line.offer_id ?? null) : null };
  });
  return { yieldGrams, lines };
}

/**
 * The sub-recipe links of every dish (dish → the dishes its recipes use), for the cycle check: one query, whatever
 * the catalogue's size.
 */
function subRecipeLinks(db: Db | Tx): Map<number, number[]> {
  const links = new Map<number, number[]>();
  const rows = db
    .selectDistinct({ dish: recipes.dishId, sub: recipeLines.subDishId })
    .from(recipeLines)
    .innerJoin(recipes, eq(recipes.id, recipeLines.recipeId))
    .where(isNotNull(recipeLines.subDishId))
    .all() as { dish: number; sub: number }[];
  for (const { dish, sub } of rows) {
    const list = links.get(dish);
    if (list) list.push(sub);
    else links.set(dish, [sub]);
  }
  return links;
}

/** Whether `from` reaches `target` through sub-recipes (itself included). */
function reaches(links: Map<number, number[]>, from: number, target: number): boolean {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length) {
    const dish = stack.pop()!;
    if (dish === target) return true;
    if (seen.has(dish)) continue;
    seen.add(dish);
    stack.push(...(links.get(dish) ?? []));
  }
  return false;
}

/** Checks the lines against the catalogue: things exist, a pinned offer is its ingredient's, no sub-recipe cycle. */
function checkLines(db: Db | Tx, dishId: number | null, lines: LineValues[], errors: Record<string, Message>): void {
  const ingredientIds = [...new Set(lines.flatMap((l) => (l.ingredientId === null ? [] : [l.ingredientId])))];
  const dishIds = [...new Set(lines.flatMap((l) => (l.subDishId === null ? [] : [l.subDishId])))];
  const offerIds = [...new Set(lines.flatMap((l) => (l.offerId === null ? [] : [l.offerId])))];
  const knownIngredients = new Set(
    ingredientIds.length
      ? db
          .select({ id: ingredients.id })
          .from(ingredients)
          .where(inArray(ingredients.id, ingredientIds))
          .all()
          .map((r) => r.id)
      : [],
  );
  const knownDishes = new Set(
    dishIds.length
      ? db
          .select({ id: dishes.id })
          .from(dishes)
          .where(inArray(dishes.id, dishIds))
          .all()
          .map((r) => r.id)
      : [],
  );
  const offerIngredient = new Map(
    offerIds.length
      ? db
          .select({ id: offers.id, ingredientId: offers.ingredientId })
          .from(offers)
          .where(inArray(offers.id, offerIds))
          .all()
          .map((r) => [r.id, r.ingredientId])
      : [],
  );
  const links = dishId !== null && dishIds.length ? subRecipeLinks(db) : new Map<number, number[]>();
  lines.forEach((line, index) => {
    const field = `lines.${index}`;
    if (line.ingredientId !== null && !knownIngredients.has(line.ingredientId))
      errors[`${field}.item`] = message("food.recipes.ingredient_unknown");
    if (line.subDishId !== null) {
      if (!knownDishes.has(line.subDishId)) errors[`${field}.item`] = message("food.recipes.dish_unknown");
      else if (dishId !== null && reaches(links, line.subDishId, dishId))
        errors[`${field}.item`] = message("food.recipes.cycle_error");
    }
    if (line.offerId !== null) {
      const of = offerIngredient.get(line.offerId);
      if (of === undefined) errors[`${field}.offer_id`] = message("food.recipes.offer_unknown");
      else if (of !== line.ingredientId) errors[`${field}.offer_id`] = message("food.recipes.offer_other_ingredient");
    }
  });
}

function requireLevelId(db: Db | Tx, levelId: number): number {
  const level =
    Number.isInteger(levelId) && levelId > 0
      ? db.select({ id: levels.id }).from(levels).where(eq(levels.id, levelId)).get()
      : undefined;
  if (!level) throw new NotFound();
  return level.id;
}

/** Checks a recipe's input for a dish (or, for a draft, no dish yet): every problem at once. */
export function parseRecipe(
  db: Db | Tx,
  dishId: number | null,
  input: unknown,
): { yieldGrams: number | null; lines: LineValues[] } {
  const errors: Record<string, Message> = {};
  const shape = parseShape(input, errors);
  if (Object.keys(errors).length === 0) checkLines(db, dishId, shape.lines, errors);
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return shape;
}

/** What the audit keeps of a recipe: its yield and lines. */
const recipeSnapshot = (levelId: number, yieldGrams: number | null, lines: LineValues[]) => ({
  levelId,
  yieldGrams,
  lines: lines.map((l) =>
    l.subDishId !== null
      ? { subDishId: l.subDishId, quantity: l.quantity }
      : { ingredientId: l.ingredientId, quantity: l.quantity, offerId: l.offerId },
  ),
});

function linesOf(db: Db | Tx, recipeId: number): LineValues[] {
  return db
    .select()
    .from(recipeLines)
    .where(eq(recipeLines.recipeId, recipeId))
    .orderBy(recipeLines.position)
    .all()
    .map((l) => ({ ingredientId: l.ingredientId, subDishId: l.subDishId, quantity: l.quantity, offerId: l.offerId }));
}

/** The recipe of a dish for a level, or undefined. */
export function findRecipe(db: Db | Tx, dishId: number, levelId: number): Recipe | undefined {
  return db
    .select()
    .from(recipes)
    .where(and(eq(recipes.dishId, dishId), eq(recipes.levelId, levelId)))
    .get();
}

/** Writes a checked recipe inside the caller's transaction, replacing the lines it had; audited. */
export function writeRecipe(
  tx: Tx,
  actor: Actor,
  dishId: number,
  levelId: number,
  values: { yieldGrams: number | null; lines: LineValues[] },
  now: Date,
  /** What the audit says besides the recipe (a copy says where it came from and at what factor). */
  note?: Record<string, unknown>,
): Recipe {
  const existing = findRecipe(tx, dishId, levelId);
  const before = existing ? recipeSnapshot(levelId, existing.yieldGrams, linesOf(tx, existing.id)) : undefined;
  const recipe = existing
    ? tx
        .update(recipes)
        .set({ yieldGrams: values.yieldGrams, updatedAt: now })
        .where(eq(recipes.id, existing.id))
        .returning()
        .get()
    : tx.insert(recipes).values({ dishId, levelId, yieldGrams: values.yieldGrams, updatedAt: now }).returning().get();
  tx.delete(recipeLines).where(eq(recipeLines.recipeId, recipe.id)).run();
  tx.insert(recipeLines)
    .values(values.lines.map((line, position) => ({ recipeId: recipe.id, position, ...line })))
    .run();
  tx.update(dishes).set({ updatedAt: now }).where(eq(dishes.id, dishId)).run();
  recordAudit(
    tx,
    actor,
    {
      action: "recipe.saved",
      subjectType: "dish",
      subjectId: dishId,
      places: COMPANY_WIDE,
      before,
      after: { ...recipeSnapshot(levelId, values.yieldGrams, values.lines), ...note },
    },
    now,
  );
  return recipe;
}

/** Saves a dish's recipe for a level: its yield and lines, replacing those it had (NotFound for a dish or level that is not). */
export function saveRecipe(
  db: Db,
  actor: Actor,
  dishId: number,
  levelId: number,
  input: unknown,
  now = new Date(),
): Recipe {
  requireDish(db, dishId);
  requireLevelId(db, levelId);
  return db.transaction(
    (tx) => {
      // Checked inside the write transaction, so no other save can close a sub-recipe cycle in between.
      const values = parseRecipe(tx, dishId, input);
      return writeRecipe(tx, actor, dishId, levelId, values, now);
    },
    { behavior: "immediate" },
  );
}

/** Deletes a dish's recipe for a level; NotFound when it has none. */
export function deleteRecipe(db: Db, actor: Actor, dishId: number, levelId: number, now = new Date()): Recipe {
  requireDish(db, dishId);
  const recipe = findRecipe(db, dishId, levelId);
  if (!recipe) throw new NotFound();
  const before = recipeSnapshot(levelId, recipe.yieldGrams, linesOf(db, recipe.id));
  db.transaction(
    (tx) => {
      tx.delete(recipes).where(eq(recipes.id, recipe.id)).run();
      tx.update(dishes).set({ updatedAt: now }).where(eq(dishes.id, dishId)).run();
      recordAudit(
        tx,
        actor,
        { action: "recipe.deleted", subjectType: "dish", subjectId: dishId, places: COMPANY_WIDE, before },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return recipe;
}

/** The smallest and largest factor a recipe may be copied at: a tenth of it up to ten times it. */
export const MIN_COPY_FACTOR = 0.1;
export const MAX_COPY_FACTOR = 10;

export const CopyRecipeInput = t.Object({
  to_level_id: t.Integer({ minimum: 1 }),
  factor: t.Optional(amount()),
  replace: t.Optional(t.Boolean()),
});

/**
 * A copied quantity as a kitchen weighs it: grams and millilitres (and a sub-recipe's grams) to the tenth, units
 * (eggs, loaves) to the hundredth; never rounded down to nothing (the smallest step instead).
 */
export function scaledQuantity(quantity: number, factor: number, unit: "g" | "ml" | "unit"): number {
  const step = unit === "unit" ? 100 : 10;
  const scaled = Math.round(quantity * factor * step) / step;
  return scaled > 0 ? scaled : 1 / step;
}

/** The factor asked for ("1,25" too); 1 when none; a clear message when it is not a number between the bounds. */
function copyFactor(value: unknown): number {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return 1;
  const text = typeof value === "number" ? String(value) : value.toString().trim().replace(",", ".");
  const factor = Number(text);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text) || !Number.isFinite(factor))
    throw new ValidationFailed({ factor: message("food.recipes.copy_factor_number") });
  if (factor < MIN_COPY_FACTOR || factor > MAX_COPY_FACTOR)
    throw new ValidationFailed({
      factor: message("food.recipes.copy_factor_range", { min: MIN_COPY_FACTOR, max: MAX_COPY_FACTOR }),
    });
  return factor;
}

/**
 * Copies a dish's recipe of one level onto another, every quantity and the yield multiplied by `factor` (1 by
 * default, MIN_COPY_FACTOR to MAX_COPY_FACTOR) and rounded as `scaledQuantity` says; pinned offers and sub-recipes
 * are kept. A level that already has a recipe is replaced only when `replace` is true (Conflict otherwise, so the
 * page asks first). One transaction; audited as the target's recipe saved, with where it was copied from.
 */
export function copyRecipe(
  db: Db,
  actor: Actor,
  dishId: number,
  fromLevelId: number,
  input: unknown,
  now = new Date(),
): { recipe: Recipe; replaced: boolean; factor: number } {
  requireDish(db, dishId);
  requireLevelId(db, fromLevelId);
  const data = parseInput(CopyRecipeInput, input);
  const factor = copyFactor(data.factor);
  const toLevelId = data.to_level_id;
  if (toLevelId === fromLevelId) throw new ValidationFailed({ to_level_id: message("food.recipes.copy_same_level") });
  if (!db.select({ id: levels.id }).from(levels).where(eq(levels.id, toLevelId)).get())
    throw new ValidationFailed({ to_level_id: message("validation.invalid_choice") });
  return db.transaction(
    (tx) => {
      const source = findRecipe(tx, dishId, fromLevelId);
      if (!source) throw new NotFound();
      const target = findRecipe(tx, dishId, toLevelId);
      if (target && data.replace !== true) throw new Conflict(message("food.recipes.copy_would_replace"));
      const lines = linesOf(tx, source.id);
      const ingredientIds = [...new Set(lines.flatMap((l) => (l.ingredientId === null ? [] : [l.ingredientId])))];
      const unitOf = new Map(
        ingredientIds.length
          ? tx
              .select({ id: ingredients.id, baseUnit: ingredients.baseUnit })
              .from(ingredients)
              .where(inArray(ingredients.id, ingredientIds))
              .all()
              .map((i) => [i.id, i.baseUnit as "g" | "ml" | "unit"])
          : [],
      );
      const scaled = lines.map((line) => ({
        ...line,
        quantity: scaledQuantity(
          line.quantity,
          factor,
          line.ingredientId === null ? "g" : (unitOf.get(line.ingredientId) ?? "g"),
        ),
      }));
      const errors: Record<string, Message> = {};
      if (scaled.some((l) => l.quantity > MAX_LINE_QUANTITY))
        errors.factor = message("food.recipes.copy_too_large", { max: MAX_LINE_QUANTITY });
      const yieldGrams = source.yieldGrams === null ? null : scaledQuantity(source.yieldGrams, factor, "g");
      if (yieldGrams !== null && yieldGrams > MAX_LINE_QUANTITY)
        errors.factor = message("food.recipes.copy_too_large", { max: MAX_LINE_QUANTITY });
      if (Object.keys(errors).length) throw new ValidationFailed(errors);
      const recipe = writeRecipe(tx, actor, dishId, toLevelId, { yieldGrams, lines: scaled }, now, {
        copiedFrom: { levelId: fromLevelId, factor },
      });
      return { recipe, replaced: target !== undefined, factor };
    },
    { behavior: "immediate" },
  );
}

/**
 * A draft the New-dish modal sends to be costed (level, city, yield, lines), bounded before any work: at most
 * MAX_RECIPE_LINES lines, numbers finite and positive, ids that exist. A line still being typed (no ingredient or
 * dish chosen, no quantity yet) is left out rather than refused, so the totals follow what is complete.
 */
export function parseDraft(db: Db | Tx, input: unknown): { draft: DraftRecipe; cityId: number } {
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const head = parseInput(
    t.Object({ level_id: DraftInput.properties.level_id, city_id: DraftInput.properties.city_id }),
    source,
  );
  requireLevelId(db, head.level_id);
  const rawLines = Array.isArray(source.lines) ? source.lines : [];
  if (rawLines.length > MAX_RECIPE_LINES)
    throw new ValidationFailed({ lines: message("validation.too_many_items", { max: MAX_RECIPE_LINES }) });
  const complete = rawLines.filter((line) => {
    if (!line || typeof line !== "object") return false;
    const l = line as Record<string, unknown>;
    const chosen = (l.ingredient_id ?? null) !== null || (l.sub_dish_id ?? null) !== null;
    return chosen && l.quantity !== undefined && l.quantity !== null && String(l.quantity).trim() !== "";
  });
  const errors: Record<string, Message> = {};
  const shape = parseShape({ yield_grams: source.yield_grams ?? null, lines: complete }, errors);
  // An empty draft costs nothing: no lines is not a problem here.
  delete errors.lines;
  if (Object.keys(errors).length === 0) checkLines(db, null, shape.lines, errors);
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return {
    cityId: head.city_id,
    draft: {
      levelId: head.level_id,
      yieldGrams: shape.yieldGrams,
      lines: shape.lines.map((l) => ({
        ingredientId: l.ingredientId,
        subDishId: l.subDishId,
        quantity: l.quantity,
        offerId: l.offerId,
      })),
    },
  };
}

/** The most recipes one save may carry (one per level). */
const MAX_LEVELS = 20;

export const DishRecipesInput = t.Object({
  recipes: t.Optional(
    t.Array(t.Object({ level_id: t.Integer({ minimum: 1 }), ...RecipeInput.properties }), { maxItems: MAX_LEVELS }),
  ),
  removed_levels: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: MAX_LEVELS })),
});

/**
 * The dish modal's save: a dish (new when `dishId` is null) with the recipes it sends, one per level, and the
 * levels whose recipe it removes, in one transaction. Every problem is reported at once: the dish's under its
 * fields, a recipe's under `recipes.<level id>.` (`recipes.3.lines.0.quantity`).
 */
export function saveDish(
  db: Db,
  actor: Actor,
  dishId: number | null,
  input: unknown,
  now = new Date(),
): { dish: Dish; recipes: number } {
  const before = dishId === null ? undefined : requireDish(db, dishId);
  const { recipes: sent = [], removed_levels: removed = [] } = parseInput(DishRecipesInput, input);
  const knownLevels = new Set(
    db
      .select({ id: levels.id })
      .from(levels)
      .all()
      .map((l) => l.id),
  );
  return db.transaction(
    (tx) => {
      const errors: Record<string, Message> = {};
      let values: DishValues | null = null;
      try {
        values = parseDish(tx, input, before);
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        Object.assign(errors, error.errors);
      }
      const checked: { levelId: number; values: { yieldGrams: number | null; lines: LineValues[] } }[] = [];
      const seen = new Set<number>();
      for (const recipe of sent) {
        const prefix = `recipes.${recipe.level_id}.`;
        if (!knownLevels.has(recipe.level_id) || seen.has(recipe.level_id)) {
          errors[`${prefix}level_id`] = message("validation.invalid_choice");
          continue;
        }
        seen.add(recipe.level_id);
        try {
          checked.push({ levelId: recipe.level_id, values: parseRecipe(tx, dishId, recipe) });
        } catch (error) {
          if (!(error instanceof ValidationFailed)) throw error;
          for (const [field, problem] of Object.entries(error.errors)) errors[prefix + field] = problem;
        }
      }
      if (Object.keys(errors).length || !values) throw new ValidationFailed(errors);
      const dish = before ? writeDishUpdate(tx, actor, before, values, now) : insertDish(tx, actor, values, now);
      for (const recipe of checked) writeRecipe(tx, actor, dish.id, recipe.levelId, recipe.values, now);
      for (const levelId of removed) {
        if (seen.has(levelId)) continue;
        const existing = findRecipe(tx, dish.id, levelId);
        if (!existing) continue;
        const snapshot = recipeSnapshot(levelId, existing.yieldGrams, linesOf(tx, existing.id));
        tx.delete(recipes).where(eq(recipes.id, existing.id)).run();
        recordAudit(
          tx,
          actor,
          { action: "recipe.deleted", subjectType: "dish", subjectId: dish.id, places: COMPANY_WIDE, before: snapshot },
          now,
        );
      }
      return { dish, recipes: checked.length };
    },
    { behavior: "immediate" },
  );
}
