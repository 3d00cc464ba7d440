/**
 * Dishes: company-wide data the nutritionist keeps (`food.manage`): a name (unique whatever its case, accents and
 * spacing), a description, one or more dish categories, and whether it is still offered. What a dish is made of is
 * its recipes, one per level (recipes.ts); what it costs and what it gives is computed, never stored
 * (recipe-cost.ts). A dish another recipe uses as a sub-recipe, or a menu holds, cannot be deleted.
 *
 * `listDishes` is the one list of dishes (the Food page, its export): searched by name (accents ignored), filtered
 * by category, sorted and paged by the list helpers of search.ts, each shape prepared once.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { dishCategories, dishCategoryLinks, dishes } from "../../../db/schema";
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
import { sortShape } from "./providers";
import type { DishOption, DishRow } from "../../shared/food/types";
export type { DishOption, DishRow } from "../../shared/food/types";

export type Dish = typeof dishes.$inferSelect;

/** The most categories one dish may have. */
export const MAX_DISH_CATEGORIES = 20;

export const DishInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 120 }),
  description: t.Optional(t.String({ maxLength: 1000 })),
  category_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: MAX_DISH_CATEGORIES }),
  active: t.Optional(t.Boolean()),
});

/** The name as the uniqueness check compares it: folded, spacing ignored ("Ají de  Gallina" = "aji de gallina"). */
export const dishKey = (name: string) => foldText(tidy(name));

export function requireDish(db: Db | Tx, id: number): Dish {
  const dish = Number.isInteger(id) && id > 0 ? db.select().from(dishes).where(eq(dishes.id, id)).get() : undefined;
  if (!dish) throw new NotFound();
  return dish;
}

/** The dish named `name` (case, accents and spacing ignored), or undefined. */
export function findDishByName(db: Db | Tx, name: string): Dish | undefined {
  return db
    .select()
    .from(dishes)
    .where(sql`${sql.raw(FOLD_FUNCTION)}(${dishes.name}) = ${dishKey(name)}`)
    .get();
}

/** Checked values of a dish. */
export interface DishValues {
  name: string;
  description: string;
  categoryIds: number[];
  active: boolean;
}

/** Checks a dish's input, every field at once: the name free, at least one category, every category known. */
export function parseDish(db: Db | Tx, input: unknown, before?: Dish): DishValues {
  const errors: Record<string, Message> = {};
  let data: { name: string; description?: string; category_ids: number[]; active?: boolean } | null = null;
  try {
    data = parseInput(DishInput, input);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
  }
  if (data) {
    const name = tidy(data.name);
    const same = db
      .select({ id: dishes.id })
      .from(dishes)
      .where(
        and(
          sql`${sql.raw(FOLD_FUNCTION)}(${dishes.name}) = ${dishKey(name)}`,
          before ? ne(dishes.id, before.id) : undefined,
        ),
      )
      .get();
    if (same) errors.name = message("food.dishes.name_taken", { name });
    const categoryIds = [...new Set(data.category_ids)];
    if (categoryIds.length === 0) errors.category_ids = message("food.dishes.category_required");
    else {
      const known = db
        .select({ id: dishCategories.id })
        .from(dishCategories)
        .where(inArray(dishCategories.id, categoryIds))
        .all().length;
      if (known !== categoryIds.length) errors.category_ids = message("food.dishes.category_unknown");
    }
    data = { ...data, name, category_ids: categoryIds };
  }
  if (Object.keys(errors).length || !data) throw new ValidationFailed(errors);
  return {
    name: data.name,
    description: tidy(data.description ?? ""),
    categoryIds: data.category_ids,
    active: data.active ?? before?.active ?? true,
  };
}

function categoryIdsOf(db: Db | Tx, dishId: number): number[] {
  return db
    .select({ id: dishCategoryLinks.categoryId })
    .from(dishCategoryLinks)
    .where(eq(dishCategoryLinks.dishId, dishId))
    .all()
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

/** What the audit keeps of a dish. */
const dishSnapshot = (values: DishValues) => ({
  name: values.name,
  description: values.description,
  dishCategoryIds: [...values.categoryIds].sort((a, b) => a - b),
  active: values.active,
});

function linkCategories(tx: Tx, dishId: number, categoryIds: number[]): void {
  tx.delete(dishCategoryLinks).where(eq(dishCategoryLinks.dishId, dishId)).run();
  if (categoryIds.length)
    tx.insert(dishCategoryLinks)
      .values(categoryIds.map((categoryId) => ({ dishId, categoryId })))
      .run();
}

/** Writes a checked dish inside the caller's transaction, audited (the modal and the workbook import). */
export function insertDish(tx: Tx, actor: Actor, values: DishValues, now: Date): Dish {
  const dish = tx
    .insert(dishes)
    .values({
      name: values.name,
      description: values.description,
      active: values.active,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  linkCategories(tx, dish.id, values.categoryIds);
  recordAudit(
    tx,
    actor,
    {
      action: "dish.created",
      subjectType: "dish",
      subjectId: dish.id,
      places: COMPANY_WIDE,
      after: dishSnapshot(values),
    },
    now,
  );
  return dish;
}

/** Changes a dish inside the caller's transaction, audited. */
export function writeDishUpdate(tx: Tx, actor: Actor, before: Dish, values: DishValues, now: Date): Dish {
  const previous = { ...before, categoryIds: categoryIdsOf(tx, before.id) };
  const updated = tx
    .update(dishes)
    .set({ name: values.name, description: values.description, active: values.active, updatedAt: now })
    .where(eq(dishes.id, before.id))
    .returning()
    .get();
  linkCategories(tx, before.id, values.categoryIds);
  recordAudit(
    tx,
    actor,
    {
      action: "dish.updated",
      subjectType: "dish",
      subjectId: before.id,
      places: COMPANY_WIDE,
      before: dishSnapshot(previous),
      after: dishSnapshot(values),
    },
    now,
  );
  return updated;
}

export function createDish(db: Db, actor: Actor, input: unknown, now = new Date()): Dish {
  const values = parseDish(db, input);
  return db.transaction((tx) => insertDish(tx, actor, values, now), { behavior: "immediate" });
}

export function updateDish(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): Dish {
  const dish = requireDish(db, id);
  const values = parseDish(db, input, dish);
  return db.transaction((tx) => writeDishUpdate(tx, actor, dish, values, now), { behavior: "immediate" });
}

/** Where a dish is used: the dishes whose recipes use it as a sub-recipe, and the menu days that hold it. */
export function dishUses(db: Db | Tx, id: number): { dishes: string[]; menuDays: number } {
  const users = db
    .all<{ name: string }>(
      sql`SELECT DISTINCT d.name FROM recipe_lines l JOIN recipes r ON r.id = l.recipe_id JOIN dishes d ON d.id = r.dish_id
          WHERE l.sub_dish_id = ${id} ORDER BY d.name`,
    )
    .map((r) => r.name);
  const [counted] = db.all<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM (SELECT day_id FROM menu_slots WHERE dish_id = ${id}
          UNION SELECT day_id FROM published_menu_slots WHERE dish_id = ${id})`,
  );
  const menuDays = counted?.n ?? 0;
  return { dishes: users, menuDays };
}

/**
 * Deletes a dish with its recipes; refused (Conflict, saying where) while another dish's recipe uses it as a
 * sub-recipe or a menu holds it (withdraw it instead: it stays in those menus and leaves the dish search).
 */
export function deleteDish(db: Db, actor: Actor, id: number, now = new Date()): Dish {
  const dish = requireDish(db, id);
  const uses = dishUses(db, id);
  if (uses.dishes.length)
    throw new Conflict(
      message("food.dishes.used_in_recipes", {
        name: dish.name,
        count: uses.dishes.length,
        dishes: uses.dishes.slice(0, 5).join(", "),
      }),
    );
  if (uses.menuDays)
    throw new Conflict(message("food.dishes.used_in_menus", { name: dish.name, count: uses.menuDays }));
  const categoryIds = categoryIdsOf(db, id);
  db.transaction(
    (tx) => {
      tx.delete(dishes).where(eq(dishes.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "dish.deleted",
          subjectType: "dish",
          subjectId: id,
          places: COMPANY_WIDE,
          before: dishSnapshot({ ...dish, categoryIds }),
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return dish;
}

// ——— The dishes table ———

const recipesOfDish = sql<number>`(SELECT COUNT(*) FROM recipes r WHERE r.dish_id = "dishes"."id")`;

const categoriesOfDish = sql<string>`(SELECT json_group_array(json_object('id', id, 'name', name)) FROM
  (SELECT c.id, c.name FROM dish_category_links l JOIN dish_categories c ON c.id = l.category_id
   WHERE l.dish_id = "dishes"."id" ORDER BY c.sort_order, c.name))`;

const levelsOfDish = sql<string>`(SELECT json_group_array(level_id) FROM
  (SELECT r.level_id FROM recipes r JOIN levels v ON v.id = r.level_id
   WHERE r.dish_id = "dishes"."id" ORDER BY v.sort_order, v.name))`;

const firstCategory = sql`(SELECT MIN(c.sort_order * 100000 + c.id) FROM dish_category_links l
  JOIN dish_categories c ON c.id = l.category_id WHERE l.dish_id = "dishes"."id")`;

/** The columns the dishes table sorts by. */
const DISH_SORTS: Record<string, SQL | SQLiteColumn> = {
  name: dishes.name,
  categories: firstCategory,
  levels: recipesOfDish,
  updated: dishes.updatedAt,
};

export interface DishFilter {
  search?: string;
  categoryId?: number;
  /** Only the dishes still offered (true), only the withdrawn (false), or both. */
  active?: boolean;
}

const dishCondition = (searched: boolean, byCategory: boolean, byActive: boolean) =>
  and(
    searched ? searchMatch([dishes.name]) : undefined,
    byCategory
      ? sql`EXISTS (SELECT 1 FROM dish_category_links l WHERE l.dish_id = ${dishes.id} AND l.category_id = ${boundNumber("category")})`
      : undefined,
    byActive ? eq(dishes.active, sql`${boundNumber("active")}`) : undefined,
  );

const countDishes = preparedQuery((db, searched: boolean, byCategory: boolean, byActive: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(dishes)
    .where(dishCondition(searched, byCategory, byActive))
    .prepare(),
);

const dishesPage = preparedQuery(
  (db, searched: boolean, byCategory: boolean, byActive: boolean, sort: string, direction: string) =>
    db
      .select({
        id: dishes.id,
        name: dishes.name,
        description: dishes.description,
        active: dishes.active,
        updatedAt: dishes.updatedAt,
        categories: categoriesOfDish,
        levels: levelsOfDish,
      })
      .from(dishes)
      .where(dishCondition(searched, byCategory, byActive))
      .orderBy(
        ...sortOrder(DISH_SORTS, { sort, direction: direction === "desc" ? "desc" : "asc" }, [
          asc(dishes.name),
          asc(dishes.id),
        ]),
      )
      .limit(LIMIT)
      .offset(OFFSET)
      .prepare(),
);

/** Dishes whose name contains the search (case and accents ignored), of one category if asked, sorted and paged. */
export function listDishes(
  db: Db,
  filter: DishFilter,
  page: PageRequest | null,
  sort?: SortRequest,
): ListResult<DishRow> {
  const search = searchPattern(filter.search);
  const shape = [search !== null, filter.categoryId !== undefined, filter.active !== undefined] as const;
  const values = {
    search,
    category: filter.categoryId ?? null,
    active: filter.active === undefined ? null : filter.active ? 1 : 0,
  };
  return readList(
    page,
    () => countDishes(db, ...shape).get(values)?.n ?? 0,
    (window) =>
      dishesPage(db, ...shape, ...sortShape(DISH_SORTS, sort))
        .all({ ...values, ...window })
        .map((r) => ({
          id: r.id,
          name: r.name,
          description: r.description,
          active: r.active,
          categories: JSON.parse(r.categories) as { id: number; name: string }[],
          levelIds: JSON.parse(r.levels) as number[],
          updatedAt: r.updatedAt.toISOString(),
        })),
  );
}

/** One dish as the table shows it. */
export function dishRow(db: Db, id: number): DishRow {
  const dish = requireDish(db, id);
  const row = db.$client
    .query<{ categories: string; levels: string }, [number]>(
      `SELECT (SELECT json_group_array(json_object('id', id, 'name', name)) FROM
         (SELECT c.id, c.name FROM dish_category_links l JOIN dish_categories c ON c.id = l.category_id
          WHERE l.dish_id = ?1 ORDER BY c.sort_order, c.name)) AS categories,
       (SELECT json_group_array(level_id) FROM (SELECT r.level_id FROM recipes r JOIN levels v ON v.id = r.level_id
          WHERE r.dish_id = ?1 ORDER BY v.sort_order, v.name)) AS levels`,
    )
    .get(id)!;
  return {
    id: dish.id,
    name: dish.name,
    description: dish.description,
    active: dish.active,
    categories: JSON.parse(row.categories) as { id: number; name: string }[],
    levelIds: JSON.parse(row.levels) as number[],
    updatedAt: dish.updatedAt.toISOString(),
  };
}

const dishChoices = preparedQuery((db) =>
  db
    .select({ id: dishes.id, name: dishes.name, active: dishes.active })
    .from(dishes)
    .orderBy(asc(dishes.name))
    .prepare(),
);

/** Every dish by name (the recipe lines' sub-recipe choice). */
export function dishOptions(db: Db): DishOption[] {
  return dishChoices(db).all();
}
