/**
 * Dish categories (entrada, sopa, segundo, refresco…), the "menu table": company-wide data the nutritionist keeps
 * (`food.manage`). A category has a name (unique whatever its case, accents and spacing), a description, the unit a
 * serving of it is measured in (grams or millilitres) and its place in the table's order, which is the order the
 * menu pickers list them in. A category that dishes or menus use cannot be deleted.
 */
import { asc, eq, sql } from "drizzle-orm";
import { dishCategories, dishCategoryLinks, DISH_UNITS, menuStructureItems, type DishUnit } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { FOLD_FUNCTION, foldText } from "../search";
import { parseInput, t } from "../validation";
import { tidy } from "./cities";
import type { DishCategoryRow } from "../../shared/food/types";
export type { DishCategoryRow } from "../../shared/food/types";

export type DishCategory = typeof dishCategories.$inferSelect;

export const DishCategoryInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 80 }),
  description: t.Optional(t.String({ maxLength: 255 })),
  unit: t.Union(
    DISH_UNITS.map((unit) => t.Literal(unit)),
    { messageKey: "foodCatalogue.dish_categories.unit_required" },
  ),
});

export const ReorderInput = t.Object({
  ids: t.Array(t.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
});

const allDishCategories = preparedQuery((db) =>
  db
    .select({
      id: dishCategories.id,
      name: dishCategories.name,
      description: dishCategories.description,
      unit: dishCategories.unit,
      sortOrder: dishCategories.sortOrder,
      dishCount: sql<number>`(SELECT COUNT(*) FROM dish_category_links l WHERE l.category_id = "dish_categories"."id")`,
    })
    .from(dishCategories)
    .orderBy(asc(dishCategories.sortOrder), asc(dishCategories.name))
    .prepare(),
);

/** Every dish category in the menu table's order, with how many dishes it holds. */
export function listDishCategories(db: Db): DishCategoryRow[] {
  return allDishCategories(db).all();
}

export function requireDishCategory(db: Db | Tx, id: number): DishCategory {
  const category =
    Number.isInteger(id) && id > 0
      ? db.select().from(dishCategories).where(eq(dishCategories.id, id)).get()
      : undefined;
  if (!category) throw new NotFound();
  return category;
}

/** The name as a uniqueness check compares it: folded, spacing ignored ("Guarnición" = "guarnicion"). */
export const dishCategoryKey = (name: string) => foldText(tidy(name));

/** The dish category named `name` (case, accents and spacing ignored), or undefined. */
export function findDishCategoryByName(db: Db | Tx, name: string): DishCategory | undefined {
  return db
    .select()
    .from(dishCategories)
    .where(sql`${sql.raw(FOLD_FUNCTION)}(${dishCategories.name}) = ${dishCategoryKey(name)}`)
    .get();
}

/** What the audit keeps of a category. */
const snapshot = (c: Pick<DishCategory, "name" | "description" | "unit">) => ({
  name: c.name,
  description: c.description,
  unit: c.unit,
});

function parseDishCategory(db: Db, input: unknown, exceptId?: number) {
  const data = parseInput(DishCategoryInput, input);
  const name = tidy(data.name);
  const existing = findDishCategoryByName(db, name);
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ name: message("foodCatalogue.dish_categories.taken", { name }) });
  return { name, description: tidy(data.description ?? ""), unit: data.unit };
}

/** Writes a new category, last in the order, inside the caller's transaction (the dialog and the demo seed). */
export function insertDishCategory(
  tx: Tx,
  actor: Actor,
  values: { name: string; description: string; unit: DishUnit },
  now: Date,
): DishCategory {
  const last = tx
    .select({ max: sql<number | null>`max(${dishCategories.sortOrder})` })
    .from(dishCategories)
    .get();
  const category = tx
    .insert(dishCategories)
    .values({ ...values, sortOrder: (last?.max ?? 0) + 1 })
    .returning()
    .get();
  recordAudit(
    tx,
    actor,
    {
      action: "dish_category.created",
      subjectType: "dish_category",
      subjectId: category.id,
      places: COMPANY_WIDE,
      after: snapshot(category),
    },
    now,
  );
  return category;
}

export function createDishCategory(db: Db, actor: Actor, input: unknown, now = new Date()): DishCategory {
  const values = parseDishCategory(db, input);
  return db.transaction((tx) => insertDishCategory(tx, actor, values, now), { behavior: "immediate" });
}

export function updateDishCategory(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): DishCategory {
  const category = requireDishCategory(db, id);
  const values = parseDishCategory(db, input, id);
  return db.transaction(
    (tx) => {
      const updated = tx.update(dishCategories).set(values).where(eq(dishCategories.id, id)).returning().get();
      recordAudit(
        tx,
        actor,
        {
          action: "dish_category.updated",
          subjectType: "dish_category",
          subjectId: id,
          places: COMPANY_WIDE,
          before: snapshot(category),
          after: snapshot(updated),
        },
        now,
      );
      return updated;
    },
    { behavior: "immediate" },
  );
}

/** What keeps a category from being deleted: its dishes, the menu structures and the menu days that use it. */
export function dishCategoryUses(db: Db | Tx, id: number): { dishes: number; structures: number; days: number } {
  const count = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0;
  return {
    dishes: count(
      db
        .select({ n: sql<number>`count(*)` })
        .from(dishCategoryLinks)
        .where(eq(dishCategoryLinks.categoryId, id)),
    ),
    structures: count(
      db
        .select({ n: sql<number>`count(DISTINCT ${menuStructureItems.structureId})` })
        .from(menuStructureItems)
        .where(eq(menuStructureItems.dishCategoryId, id)),
    ),
    days:
      // Days with the category in their draft or their published menu, each once (`all`: drizzle's `get` on raw SQL
      // answers the row's values, not its columns by name).
      db.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM (SELECT day_id FROM menu_slots WHERE dish_category_id = ${id}
            UNION SELECT day_id FROM published_menu_slots WHERE dish_category_id = ${id})`,
      )[0]?.n ?? 0,
  };
}

/**
 * Deletes a category nothing uses; refused (Conflict) while dishes, menu structures or menu days use it, saying how
 * many of each.
 */
export function deleteDishCategory(db: Db, actor: Actor, id: number, now = new Date()): DishCategory {
  const category = requireDishCategory(db, id);
  return db.transaction(
    (tx) => {
      const uses = dishCategoryUses(tx, id);
      if (uses.dishes + uses.structures + uses.days > 0)
        throw new Conflict(
          message("foodCatalogue.dish_categories.in_use", {
            name: category.name,
            dishes: uses.dishes,
            structures: uses.structures,
            days: uses.days,
          }),
        );
      tx.delete(dishCategories).where(eq(dishCategories.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "dish_category.deleted",
          subjectType: "dish_category",
          subjectId: id,
          places: COMPANY_WIDE,
          before: snapshot(category),
        },
        now,
      );
      return category;
    },
    { behavior: "immediate" },
  );
}

/**
 * Puts the categories in the order of `ids`, which must name every category once (a list that changed since the
 * page was read is refused, so a move never drops or duplicates a row). Audited once, with the old and new order.
 */
export function reorderDishCategories(db: Db, actor: Actor, input: unknown, now = new Date()): void {
  const { ids } = parseInput(ReorderInput, input);
  db.transaction(
    (tx) => {
      const rows = tx
        .select({ id: dishCategories.id, name: dishCategories.name })
        .from(dishCategories)
        .orderBy(asc(dishCategories.sortOrder), asc(dishCategories.name))
        .all();
      const current = rows.map((r) => r.id);
      const nameOf = new Map(rows.map((r) => [r.id, r.name]));
      if (!sameMembers(current, ids)) throw new Conflict(message("foodCatalogue.list_changed"));
      if (current.every((id, i) => id === ids[i])) return;
      ids.forEach((id, i) =>
        tx
          .update(dishCategories)
          .set({ sortOrder: i + 1 })
          .where(eq(dishCategories.id, id))
          .run(),
      );
      recordAudit(
        tx,
        actor,
        {
          action: "dish_category.reordered",
          subjectType: "dish_category",
          subjectId: null,
          places: COMPANY_WIDE,
          // The order by name, as the audit shows it.
          before: { order: current.map((id) => nameOf.get(id)) },
          after: { order: ids.map((id) => nameOf.get(id)) },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
}

/** Whether `given` holds exactly the ids of `current`, each once. */
export function sameMembers(current: readonly number[], given: readonly number[]): boolean {
  if (current.length !== given.length) return false;
  const wanted = new Set(current);
  const seen = new Set<number>();
  for (const id of given) {
    if (!wanted.has(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}
