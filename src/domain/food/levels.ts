/**
 * Levels (Master, Staff, Employee, Laborer by default): the diner tier a recipe is made for, company-wide data the
 * nutritionist keeps (`food.manage`). The same levels are the diners' (the point of sale and the diner register use
 * them) and a cafe's default level for its menu, so a level that any diner, recipe or cafe uses cannot be deleted.
 * A name is unique whatever its case, accents and spacing; the order is the one recipes and pickers list them in.
 */
import { asc, eq, sql } from "drizzle-orm";
import { cafes, diners, levels, recipes } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { FOLD_FUNCTION, foldText } from "../search";
import { parseInput, t } from "../validation";
import { builtInLevelNamed } from "../../shared/food/built-in-levels";
import { tidy } from "./cities";
import { ReorderInput, sameMembers } from "./dish-categories";
import type { LevelRow } from "../../shared/food/types";
export type { LevelRow } from "../../shared/food/types";

export type Level = typeof levels.$inferSelect;

export const LevelInput = t.Object({ name: t.String({ minLength: 2, maxLength: 60 }) });

const allLevels = preparedQuery((db) =>
  db
    .select({
      id: levels.id,
      name: levels.name,
      sortOrder: levels.sortOrder,
      dinerCount: sql<number>`(SELECT COUNT(*) FROM diners d WHERE d.level_id = "levels"."id")`,
      recipeCount: sql<number>`(SELECT COUNT(*) FROM recipes r WHERE r.level_id = "levels"."id")`,
      cafeCount: sql<number>`(SELECT COUNT(*) FROM cafes c WHERE c.default_level_id = "levels"."id")`,
    })
    .from(levels)
    .orderBy(asc(levels.sortOrder), asc(levels.name))
    .prepare(),
);

/** Every level in its order, with how many diners, recipes and cafes use it. */
export function listLevels(db: Db): LevelRow[] {
  return allLevels(db).all();
}

export function requireLevel(db: Db | Tx, id: number): Level {
  const level = Number.isInteger(id) && id > 0 ? db.select().from(levels).where(eq(levels.id, id)).get() : undefined;
  if (!level) throw new NotFound();
  return level;
}

/**
 * The level named `name` (case, accents and spacing ignored), or undefined. A built-in level is found by its label in
 * either language too ("Obrero" is Laborer), so a Spanish file or command names it as a Spanish page shows it.
 */
export function findLevelByName(db: Db | Tx, name: string): Level | undefined {
  const named = (text: string) =>
    db
      .select()
      .from(levels)
      .where(sql`${sql.raw(FOLD_FUNCTION)}(${levels.name}) = ${foldText(tidy(text))}`)
      .get();
  const builtIn = builtInLevelNamed(tidy(name), foldText);
  return named(name) ?? (builtIn ? named(builtIn) : undefined);
}

function parseLevel(db: Db, input: unknown, exceptId?: number): { name: string } {
  const name = tidy(parseInput(LevelInput, input).name);
  const existing = findLevelByName(db, name);
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ name: message("foodCatalogue.levels.taken", { name }) });
  return { name };
}

/** Adds a level, last in the order. */
export function createLevel(db: Db, actor: Actor, input: unknown, now = new Date()): Level {
  const values = parseLevel(db, input);
  return db.transaction(
    (tx) => {
      const last = tx
        .select({ max: sql<number | null>`max(${levels.sortOrder})` })
        .from(levels)
        .get();
      const level = tx
        .insert(levels)
        .values({ ...values, sortOrder: (last?.max ?? 0) + 1 })
        .returning()
        .get();
      recordAudit(
        tx,
        actor,
        { action: "level.created", subjectType: "level", subjectId: level.id, places: COMPANY_WIDE, after: values },
        now,
      );
      return level;
    },
    { behavior: "immediate" },
  );
}

/** Renames a level (its diners, recipes and cafes keep it). */
export function updateLevel(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): Level {
  const level = requireLevel(db, id);
  const values = parseLevel(db, input, id);
  return db.transaction(
    (tx) => {
      const updated = tx.update(levels).set(values).where(eq(levels.id, id)).returning().get();
      recordAudit(
        tx,
        actor,
        {
          action: "level.updated",
          subjectType: "level",
          subjectId: id,
          places: COMPANY_WIDE,
          before: { name: level.name },
          after: values,
        },
        now,
      );
      return updated;
    },
    { behavior: "immediate" },
  );
}

/** How many diners, recipes and cafes use a level. */
export function levelUses(db: Db | Tx, id: number): { diners: number; recipes: number; cafes: number } {
  const count = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0;
  return {
    diners: count(
      db
        .select({ n: sql<number>`count(*)` })
        .from(diners)
        .where(eq(diners.levelId, id)),
    ),
    recipes: count(
      db
        .select({ n: sql<number>`count(*)` })
        .from(recipes)
        .where(eq(recipes.levelId, id)),
    ),
    cafes: count(
      db
        .select({ n: sql<number>`count(*)` })
        .from(cafes)
        .where(eq(cafes.defaultLevelId, id)),
    ),
  };
}

/** Deletes a level nothing uses; refused (Conflict) while diners, recipes or cafes use it, saying how many of each. */
export function deleteLevel(db: Db, actor: Actor, id: number, now = new Date()): Level {
  const level = requireLevel(db, id);
  return db.transaction(
    (tx) => {
      const uses = levelUses(tx, id);
      if (uses.diners + uses.recipes + uses.cafes > 0)
        throw new Conflict(message("foodCatalogue.levels.in_use", { name: level.name, ...uses }));
      tx.delete(levels).where(eq(levels.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "level.deleted",
          subjectType: "level",
          subjectId: id,
          places: COMPANY_WIDE,
          before: { name: level.name },
        },
        now,
      );
      return level;
    },
    { behavior: "immediate" },
  );
}

/** Puts the levels in the order of `ids`, which must name every level once. Audited once. */
export function reorderLevels(db: Db, actor: Actor, input: unknown, now = new Date()): void {
  const { ids } = parseInput(ReorderInput, input);
  db.transaction(
    (tx) => {
      const rows = tx
        .select({ id: levels.id, name: levels.name })
        .from(levels)
        .orderBy(asc(levels.sortOrder), asc(levels.name))
        .all();
      const current = rows.map((r) => r.id);
      const nameOf = new Map(rows.map((r) => [r.id, r.name]));
      if (!sameMembers(current, ids)) throw new Conflict(message("foodCatalogue.list_changed"));
      if (current.every((id, i) => id === ids[i])) return;
      ids.forEach((id, i) =>
        tx
          .update(levels)
          .set({ sortOrder: i + 1 })
          .where(eq(levels.id, id))
          .run(),
      );
      recordAudit(
        tx,
        actor,
        {
          action: "level.reordered",
          subjectType: "level",
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
