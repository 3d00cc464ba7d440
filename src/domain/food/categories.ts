/**
 * Ingredient categories (vegetables, meat, cereals...): company-wide data the nutritionist keeps (`food.manage`).
 * A name is unique whatever its case; a category with ingredients cannot be deleted.
 */
import { asc, eq, sql } from "drizzle-orm";
import { ingredientCategories, ingredients } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { parseInput, t } from "../validation";
import { tidy } from "./cities";
import type { CategoryRow } from "../../shared/food/types";
export type { CategoryRow } from "../../shared/food/types";

export type IngredientCategory = typeof ingredientCategories.$inferSelect;

export const CategoryInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 80 }),
  description: t.Optional(t.String({ maxLength: 255 })),
});

const allCategories = preparedQuery((db) =>
  db
    .select({
      id: ingredientCategories.id,
      name: ingredientCategories.name,
      description: ingredientCategories.description,
      ingredients: sql<number>`(SELECT COUNT(*) FROM ingredients i WHERE i.category_id = "ingredient_categories"."id")`,
    })
    .from(ingredientCategories)
    .orderBy(asc(ingredientCategories.name))
    .prepare(),
);

/** Every category by name, with how many ingredients it holds (the category dialog, the category filter). */
export function listCategories(db: Db): CategoryRow[] {
  return allCategories(db).all();
}

export function requireCategory(db: Db | Tx, id: number): IngredientCategory {
  const category =
    Number.isInteger(id) && id > 0
      ? db.select().from(ingredientCategories).where(eq(ingredientCategories.id, id)).get()
      : undefined;
  if (!category) throw new NotFound();
  return category;
}

/** The category named `name`, case ignored, or undefined. */
export function findCategoryByName(db: Db | Tx, name: string): IngredientCategory | undefined {
  return db
    .select()
    .from(ingredientCategories)
    .where(sql`lower(${ingredientCategories.name}) = lower(${tidy(name)})`)
    .get();
}

function parseCategory(db: Db, input: unknown, exceptId?: number) {
  const data = parseInput(CategoryInput, input);
  const name = tidy(data.name);
  const existing = findCategoryByName(db, name);
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ name: message("food.categories.taken", { name }) });
  return { name, description: tidy(data.description ?? "") };
}

/** Writes a new category inside the caller's transaction (the dialog and the workbook import). */
export function insertCategory(
  tx: Tx,
  actor: Actor,
  values: { name: string; description: string },
  now: Date,
): IngredientCategory {
  const category = tx.insert(ingredientCategories).values(values).returning().get();
  recordAudit(
    tx,
    actor,
    {
      action: "ingredient_category.created",
      subjectType: "ingredient_category",
      subjectId: category.id,
      places: COMPANY_WIDE,
      after: values,
    },
    now,
  );
  return category;
}

export function createCategory(db: Db, actor: Actor, input: unknown, now = new Date()): IngredientCategory {
  const values = parseCategory(db, input);
  return db.transaction((tx) => insertCategory(tx, actor, values, now), { behavior: "immediate" });
}

export function updateCategory(db: Db, actor: Actor, id: number, input: unknown, now = new Date()) {
  const category = requireCategory(db, id);
  const values = parseCategory(db, input, id);
  return db.transaction(
    (tx) => {
      const updated = tx
        .update(ingredientCategories)
        .set(values)
        .where(eq(ingredientCategories.id, id))
        .returning()
        .get();
      recordAudit(
        tx,
        actor,
        {
          action: "ingredient_category.updated",
          subjectType: "ingredient_category",
          subjectId: id,
          places: COMPANY_WIDE,
          before: { name: category.name, description: category.description },
          after: values,
        },
        now,
      );
      return updated;
    },
    { behavior: "immediate" },
  );
}

/** Deletes an empty category; refused (Conflict, with the count) while it holds ingredients. */
export function deleteCategory(db: Db, actor: Actor, id: number, now = new Date()): IngredientCategory {
  const category = requireCategory(db, id);
  const count =
    db
      .select({ n: sql<number>`count(*)` })
      .from(ingredients)
      .where(eq(ingredients.categoryId, id))
      .get()?.n ?? 0;
  if (count > 0) throw new Conflict(message("food.categories.in_use", { name: category.name, count }));
  db.transaction(
    (tx) => {
      tx.delete(ingredientCategories).where(eq(ingredientCategories.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "ingredient_category.deleted",
          subjectType: "ingredient_category",
          subjectId: id,
          places: COMPANY_WIDE,
          before: { name: category.name, description: category.description },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return category;
}
