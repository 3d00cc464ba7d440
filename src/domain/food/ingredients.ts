/**
 * Ingredients: company-wide data the nutritionist keeps (`food.manage`): a name (unique, whatever its case and
 * accents), a category, a base unit (grams, millilitres or units, with the weight of a unit or the density of a
 * millilitre), kcal and nutrients per 100 g of the edible part, solid and liquid waste, and allergens. The
 * New-ingredient dialog may also create the ingredient's first offer (offers.ts), in the same transaction.
 * An ingredient with offers cannot be deleted.
 */
import { and, asc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ingredientCategories, ingredients, offers } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import {
  boundNumber,
  FOLD_FUNCTION,
  foldText,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  sortOrder,
  type ListResult,
  type PageRequest,
  type SortRequest,
} from "../search";
import { parseInput, t } from "../validation";
import { tidy } from "./cities";
import { NUTRIENTS, type NutrientProperty } from "../../shared/food/composition";
import { checkIngredientFigures, FIGURE_FIELDS, type FigureInput, type IngredientFigures } from "./figures";
import { sortShape } from "./providers";
import type { IngredientFields, IngredientOption, IngredientRow } from "../../shared/food/types";
export type { IngredientOption, IngredientRow } from "../../shared/food/types";

export type Ingredient = typeof ingredients.$inferSelect;
/** The table's record and the pages' shape of an ingredient stay the same (a compile-time check). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const ingredientFieldsMatchTheTable: Same<Omit<Ingredient, "createdAt" | "updatedAt">, IngredientFields> = true;
void ingredientFieldsMatchTheTable;

/** The fields besides the figures; the figures are read by checkIngredientFigures. */
export const IngredientNameInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 120 }),
  category_id: t.Integer({ minimum: 1 }),
});

const figureSchema = Object.fromEntries(
  FIGURE_FIELDS.map((field) => [
    field,
    field === "allergens"
      ? t.Optional(t.Union([t.Array(t.String({ maxLength: 40 }), { maxItems: 20 }), t.String({ maxLength: 500 })]))
      : t.Optional(t.Union([t.Number(), t.String({ maxLength: 40 }), t.Null()])),
  ]),
);

const FiguresSchema = t.Object(figureSchema);

/** Name, category and figures: what the ingredient dialog sends. */
export const IngredientInput = t.Object({ ...IngredientNameInput.properties, ...figureSchema });

/** The name as a uniqueness check compares it: folded, spacing ignored ("Ají  Amarillo" = "aji amarillo"). */
export const ingredientKey = (name: string) => foldText(tidy(name));

/** The ingredient named `name` (case, accents and spacing ignored), or undefined. */
export function findIngredientByName(db: Db | Tx, name: string): Ingredient | undefined {
  return db
    .select()
    .from(ingredients)
    .where(sql`${sql.raw(FOLD_FUNCTION)}(${ingredients.name}) = ${ingredientKey(name)}`)
    .get();
}

export function requireIngredient(db: Db | Tx, id: number): Ingredient {
  const ingredient =
    Number.isInteger(id) && id > 0 ? db.select().from(ingredients).where(eq(ingredients.id, id)).get() : undefined;
  if (!ingredient) throw new NotFound();
  return ingredient;
}

/** What the audit keeps of an ingredient: its name, category and every figure. */
export function ingredientSnapshot(i: Pick<Ingredient, "name" | "categoryId"> & IngredientFigures) {
  const nutrients = Object.fromEntries(NUTRIENTS.map((n) => [n.property, i[n.property]]));
  return {
    name: i.name,
    categoryId: i.categoryId,
    baseUnit: i.baseUnit,
    unitWeightGrams: i.unitWeightGrams,
    densityGramsPerMl: i.densityGramsPerMl,
    kcalPer100g: i.kcalPer100g,
    solidWastePercent: i.solidWastePercent,
    liquidWastePercent: i.liquidWastePercent,
    ...nutrients,
    allergens: i.allergens,
  };
}

/** Checked values of an ingredient: name, category, figures. */
export type IngredientValues = { name: string; categoryId: number } & IngredientFigures;

/**
 * Checks an ingredient's input, every field at once (`errors` may already hold the problems of fields a caller
 * checks alongside, such as a first offer; they are thrown together).
 */
export function parseIngredient(
  db: Db | Tx,
  input: unknown,
  exceptId?: number,
  errors: Record<string, Message> = {},
): IngredientValues {
  let base: { name: string; category_id: number } | null = null;
  try {
    base = parseInput(IngredientNameInput, input);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
  }
  let raw: FigureInput = {};
  try {
    raw = parseInput(FiguresSchema, input) as FigureInput;
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
  }
  const figures = checkIngredientFigures(raw, errors);
  if (base) {
    const name = tidy(base.name);
    const same = db
      .select({ id: ingredients.id })
      .from(ingredients)
      .where(
        and(
          sql`${sql.raw(FOLD_FUNCTION)}(${ingredients.name}) = ${ingredientKey(name)}`,
          exceptId ? ne(ingredients.id, exceptId) : undefined,
        ),
      )
      .get();
    if (same) errors.name = message("food.ingredients.name_taken", { name });
    const category = db
      .select({ id: ingredientCategories.id })
      .from(ingredientCategories)
      .where(eq(ingredientCategories.id, base.category_id))
      .get();
    if (!category) errors.category_id = message("food.categories.unknown");
    base = { ...base, name };
  }
  if (Object.keys(errors).length || !base || !figures) throw new ValidationFailed(errors);
  return { name: base.name, categoryId: base.category_id, ...figures };
}

/** Writes a checked ingredient inside the caller's transaction, audited. */
export function insertIngredient(
  tx: Tx,
  actor: Actor,
  values: IngredientValues,
  now: Date,
  options: { demoValues?: boolean } = {},
): Ingredient {
  const ingredient = tx
    .insert(ingredients)
    .values({ ...values, demoValues: options.demoValues ?? false, createdAt: now, updatedAt: now })
    .returning()
    .get();
  recordAudit(
    tx,
    actor,
    {
      action: "ingredient.created",
      subjectType: "ingredient",
      subjectId: ingredient.id,
      places: COMPANY_WIDE,
      after: ingredientSnapshot(ingredient),
    },
    now,
  );
  return ingredient;
}

/** Changes an ingredient inside the caller's transaction, audited; the demo mark goes once a person sets the figures. */
export function writeIngredientUpdate(
  tx: Tx,
  actor: Actor,
  before: Ingredient,
  values: IngredientValues,
  now: Date,
): Ingredient {
  const updated = tx
    .update(ingredients)
    .set({ ...values, demoValues: false, updatedAt: now })
    .where(eq(ingredients.id, before.id))
    .returning()
    .get();
  recordAudit(
    tx,
    actor,
    {
      action: "ingredient.updated",
      subjectType: "ingredient",
      subjectId: before.id,
      places: COMPANY_WIDE,
      before: ingredientSnapshot(before),
      after: ingredientSnapshot(updated),
    },
    now,
  );
  return updated;
}

export function createIngredient(db: Db, actor: Actor, input: unknown, now = new Date()): Ingredient {
  const values = parseIngredient(db, input);
  return db.transaction((tx) => insertIngredient(tx, actor, values, now), { behavior: "immediate" });
}

export function updateIngredient(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): Ingredient {
  const ingredient = requireIngredient(db, id);
  const values = parseIngredient(db, input, id);
  return db.transaction((tx) => writeIngredientUpdate(tx, actor, ingredient, values, now), { behavior: "immediate" });
}

/** Deletes an ingredient without offers; refused (Conflict, with the count) while it has any. */
export function deleteIngredient(db: Db, actor: Actor, id: number, now = new Date()): Ingredient {
  const ingredient = requireIngredient(db, id);
  const count =
    db
      .select({ n: sql<number>`count(*)` })
      .from(offers)
      .where(eq(offers.ingredientId, id))
      .get()?.n ?? 0;
  if (count > 0) throw new Conflict(message("food.ingredients.has_offers", { name: ingredient.name, count }));
  db.transaction(
    (tx) => {
      tx.delete(ingredients).where(eq(ingredients.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "ingredient.deleted",
          subjectType: "ingredient",
          subjectId: id,
          places: COMPANY_WIDE,
          before: ingredientSnapshot(ingredient),
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return ingredient;
}

// ——— The ingredients table ———

const offersOfIngredient = sql<number>`(SELECT COUNT(*) FROM offers o WHERE o.ingredient_id = "ingredients"."id")`;

/** The columns the ingredients table sorts by. */
const INGREDIENT_SORTS: Record<string, SQL | SQLiteColumn> = {
  name: ingredients.name,
  category: ingredientCategories.name,
  base_unit: ingredients.baseUnit,
  kcal: ingredients.kcalPer100g,
  protein: ingredients.proteinG,
  waste: sql`${ingredients.solidWastePercent} + ${ingredients.liquidWastePercent}`,
  offers: offersOfIngredient,
};

const ingredientCondition = (searched: boolean, byCategory: boolean) =>
  and(
    searched ? searchMatch([ingredients.name, ingredientCategories.name]) : undefined,
    byCategory ? eq(ingredients.categoryId, boundNumber("category")) : undefined,
  );

const countIngredients = preparedQuery((db, searched: boolean, byCategory: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(ingredients)
    .innerJoin(ingredientCategories, eq(ingredientCategories.id, ingredients.categoryId))
    .where(ingredientCondition(searched, byCategory))
    .prepare(),
);

const ingredientsPage = preparedQuery((db, searched: boolean, byCategory: boolean, sort: string, direction: string) =>
  db
    .select({ ingredient: ingredients, categoryName: ingredientCategories.name, offers: offersOfIngredient })
    .from(ingredients)
    .innerJoin(ingredientCategories, eq(ingredientCategories.id, ingredients.categoryId))
    .where(ingredientCondition(searched, byCategory))
    .orderBy(
      ...sortOrder(INGREDIENT_SORTS, { sort, direction: direction === "desc" ? "desc" : "asc" }, [
        asc(ingredients.name),
        asc(ingredients.id),
      ]),
    )
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

export function ingredientRowOf(i: Ingredient, categoryName: string, offerCount: number): IngredientRow {
  const { createdAt: _created, updatedAt, ...rest } = i;
  return { ...rest, categoryName, offers: offerCount, updatedAt: updatedAt.toISOString() };
}

/** Ingredients whose name or category contains the search, of one category if asked, by name or the column asked for. */
export function listIngredients(
  db: Db,
  filter: { search?: string; categoryId?: number },
  page: PageRequest | null,
  sort?: SortRequest,
): ListResult<IngredientRow> {
  const search = searchPattern(filter.search);
  const shape = [search !== null, filter.categoryId !== undefined] as const;
  const values = { search, category: filter.categoryId ?? null };
  return readList(
    page,
    () => countIngredients(db, ...shape).get(values)?.n ?? 0,
    (window) =>
      ingredientsPage(db, ...shape, ...sortShape(INGREDIENT_SORTS, sort))
        .all({ ...values, ...window })
        .map((r) => ingredientRowOf(r.ingredient, r.categoryName, r.offers)),
  );
}

const ingredientChoices = preparedQuery((db) =>
  db
    .select({ id: ingredients.id, name: ingredients.name, baseUnit: ingredients.baseUnit })
    .from(ingredients)
    .orderBy(asc(ingredients.name))
    .prepare(),
);

/** Every ingredient by name with its base unit (the offer dialog's choice). */
export function ingredientOptions(db: Db): IngredientOption[] {
  return ingredientChoices(db).all();
}

/** The nutrients of an ingredient by key, for people: only those known. */
export function knownNutrients(i: Record<NutrientProperty, number | null>): { key: string; value: number }[] {
  return NUTRIENTS.filter((n) => i[n.property] !== null).map((n) => ({ key: n.key, value: i[n.property]! }));
}
