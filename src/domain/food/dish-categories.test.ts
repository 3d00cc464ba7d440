/**
 * The menu table and the levels in the domain: names unique whatever their case and accents, the order kept and
 * changed as a whole, every change audited as company-wide data, and a delete refused while anything uses the row,
 * saying how many of each.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  auditLog,
  cafes,
  diners,
  dishCategoryLinks,
  dishes,
  levels,
  menuDays,
  menuSlots,
  menuStructureItems,
  menuStructures,
  publishedMenuSlots,
  recipes,
} from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { Conflict, ValidationFailed } from "../errors";
import { type Message } from "../../shared/message";
import { translate } from "../../shared/i18n";
import {
  createDishCategory,
  deleteDishCategory,
  listDishCategories,
  reorderDishCategories,
  updateDishCategory,
} from "./dish-categories";
import { createLevel, deleteLevel, listLevels, reorderLevels, updateLevel } from "./levels";

function fresh() {
  const db = migratedDatabase();
  return db;
}

function refusal(fn: () => unknown): Conflict {
  try {
    fn();
  } catch (error) {
    if (error instanceof Conflict) return error;
    throw error;
  }
  throw new Error("expected a conflict");
}

function problems(fn: () => unknown): Record<string, Message> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error("expected a validation failure");
}

const say = (m: Message, locale: "es" | "en" = "es") =>
  typeof m === "string" ? m : translate(locale, m.key, m.params);

function addDish(db: ReturnType<typeof fresh>, name: string, categoryIds: number[]) {
  const now = new Date();
  const dish = db.insert(dishes).values({ name, createdAt: now, updatedAt: now }).returning().get();
  for (const categoryId of categoryIds) db.insert(dishCategoryLinks).values({ dishId: dish.id, categoryId }).run();
  return dish;
}

describe("dish categories", () => {
  test("are listed in their order with their unit and how many dishes each holds", () => {
    const db = fresh();
    const soup = createDishCategory(db, CLI_ACTOR, { name: "  Sopa ", description: "Caldos y cremas", unit: "ml" });
    const main = createDishCategory(db, CLI_ACTOR, { name: "Segundo", unit: "g" });
    addDish(db, "Sopa de quinua", [soup.id]);
    addDish(db, "Lomo saltado", [main.id]);
    addDish(db, "Chupe de camarones", [soup.id, main.id]);
    expect(listDishCategories(db)).toEqual([
      { id: soup.id, name: "Sopa", description: "Caldos y cremas", unit: "ml", sortOrder: 1, dishCount: 2 },
      { id: main.id, name: "Segundo", description: "", unit: "g", sortOrder: 2, dishCount: 2 },
    ]);
  });

  test("a name is unique whatever its case, accents and spacing, and the unit is g or ml", () => {
    const db = fresh();
    const side = createDishCategory(db, CLI_ACTOR, { name: "Guarnición", unit: "g" });
    expect(say(problems(() => createDishCategory(db, CLI_ACTOR, { name: "guarnicion ", unit: "g" })).name)).toBe(
      "Ya existe la categoría de plato guarnicion.",
    );
    expect(Object.keys(problems(() => createDishCategory(db, CLI_ACTOR, { name: "Postre", unit: "kg" })))).toEqual([
      "unit",
    ]);
    // Its own name, respelled, is not a clash.
    const renamed = updateDishCategory(db, CLI_ACTOR, side.id, { name: "GUARNICIÓN", unit: "g", description: "Arroz" });
    expect(renamed).toMatchObject({ name: "GUARNICIÓN", description: "Arroz" });
  });

  test("every change is audited as company-wide data", () => {
    const db = fresh();
    const drink = createDishCategory(db, CLI_ACTOR, { name: "Refresco", unit: "ml" });
    updateDishCategory(db, CLI_ACTOR, drink.id, { name: "Bebida", unit: "ml" });
    deleteDishCategory(db, CLI_ACTOR, drink.id);
    const entries = db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectType, "dish_category"))
      .orderBy(auditLog.id)
      .all();
    expect(entries.map((e) => e.action)).toEqual([
      "dish_category.created",
      "dish_category.updated",
      "dish_category.deleted",
    ]);
    expect(JSON.parse(entries[1].after as string)).toEqual({ name: "Bebida", description: "", unit: "ml" });
  });

  test("a category that dishes use is not deleted, and the refusal says how many", () => {
    const db = fresh();
    const starter = createDishCategory(db, CLI_ACTOR, { name: "Entrada", unit: "g" });
    addDish(db, "Causa limeña", [starter.id]);
    addDish(db, "Papa a la huancaína", [starter.id]);
    const conflict = refusal(() => deleteDishCategory(db, CLI_ACTOR, starter.id));
    expect(say(conflict.detail)).toBe(
      "No se puede eliminar Entrada: la usan 2 platos, 0 estructuras de menú y 0 días del menú.",
    );
    expect(say(conflict.detail, "en")).toBe(
      "Entrada cannot be deleted: 2 dishes, 0 menu structures and 0 menu days use it.",
    );
    expect(listDishCategories(db)).toHaveLength(1);
  });

  test("menu structures and menu days (draft or published) that use a category keep it, each day counted once", () => {
    const db = fresh();
    const world = posWorld(db);
    const soup = createDishCategory(db, CLI_ACTOR, { name: "Sopa", unit: "ml" });
    const now = new Date();
    const structure = db
      .insert(menuStructures)
      .values({ cafeId: world.norte, serviceId: world.alm, updatedAt: now })
      .returning()
      .get();
    db.insert(menuStructureItems)
      .values({
        structureId: structure.id,
        position: 0,
        dishCategoryId: soup.id,
        servingAmount: 300,
        maxCostCents: 250,
      })
      .run();
    const dish = addDish(db, "Sopa de quinua", []);
    const day = (date: string) =>
      db.insert(menuDays).values({ cafeId: world.norte, date, updatedAt: now }).returning().get().id;
    const monday = day("2026-11-23");
    const tuesday = day("2026-11-24");
    const slot = { serviceId: world.alm, dishCategoryId: soup.id, dishId: dish.id };
    // Monday draft and published: one day; Tuesday published only.
    db.insert(menuSlots)
      .values({ ...slot, dayId: monday })
      .run();
    db.insert(publishedMenuSlots)
      .values({ ...slot, dayId: monday })
      .run();
    db.insert(publishedMenuSlots)
      .values({ ...slot, dayId: tuesday })
      .run();
    expect(say(refusal(() => deleteDishCategory(db, CLI_ACTOR, soup.id)).detail)).toBe(
      "No se puede eliminar Sopa: la usan 0 platos, 1 estructura de menú y 2 días del menú.",
    );
  });

  test("the order changes as a whole; a list that changed meanwhile is refused", () => {
    const db = fresh();
    const [a, b, c] = ["Entrada", "Sopa", "Segundo"].map((name) =>
      createDishCategory(db, CLI_ACTOR, { name, unit: "g" }),
    );
    reorderDishCategories(db, CLI_ACTOR, { ids: [b.id, a.id, c.id] });
    expect(listDishCategories(db).map((r) => r.name)).toEqual(["Sopa", "Entrada", "Segundo"]);
    expect(() => reorderDishCategories(db, CLI_ACTOR, { ids: [a.id, b.id] })).toThrow(Conflict);
    expect(() => reorderDishCategories(db, CLI_ACTOR, { ids: [a.id, a.id, c.id] })).toThrow(Conflict);
    // A new category goes last.
    createDishCategory(db, CLI_ACTOR, { name: "Postre", unit: "g" });
    expect(listDishCategories(db).map((r) => r.name)).toEqual(["Sopa", "Entrada", "Segundo", "Postre"]);
    const reorders = db.select().from(auditLog).where(eq(auditLog.action, "dish_category.reordered")).all();
    expect(reorders).toHaveLength(1);
  });
});

describe("levels", () => {
  test("the four default levels are listed in their order with what uses them", () => {
    const db = fresh();
    const world = posWorld(db);
    const laborer = db.select().from(levels).where(eq(levels.name, "Laborer")).get()!;
    db.update(diners).set({ levelId: laborer.id }).where(eq(diners.id, world.ana)).run();
    db.update(cafes).set({ defaultLevelId: laborer.id }).where(eq(cafes.id, world.norte)).run();
    const rows = listLevels(db);
    expect(rows.map((r) => r.name)).toEqual(["Master", "Staff", "Employee", "Laborer"]);
    expect(rows[3]).toMatchObject({ dinerCount: 1, recipeCount: 0, cafeCount: 1 });
  });

  test("a level that diners, recipes or cafes use is not deleted, saying by how many", () => {
    const db = fresh();
    const world = posWorld(db);
    const staff = db.select().from(levels).where(eq(levels.name, "Staff")).get()!;
    db.update(diners).set({ levelId: staff.id }).run();
    const dish = addDish(db, "Ají de gallina", []);
    db.insert(recipes).values({ dishId: dish.id, levelId: staff.id, updatedAt: new Date() }).run();
    db.update(cafes).set({ defaultLevelId: staff.id }).where(eq(cafes.id, world.sur)).run();
    const conflict = refusal(() => deleteLevel(db, CLI_ACTOR, staff.id));
    expect(say(conflict.detail)).toBe("No se puede eliminar Staff: lo usan 4 comensales, 1 receta y 1 comedor.");
    expect(say(conflict.detail, "en")).toBe("Staff cannot be deleted: 4 diners, 1 recipe and 1 cafe use it.");
  });

  test("are created last, renamed, reordered and deleted, each audited", () => {
    const db = fresh();
    const chef = createLevel(db, CLI_ACTOR, { name: "Supervisor" });
    expect(chef.sortOrder).toBe(5);
    expect(say(problems(() => createLevel(db, CLI_ACTOR, { name: "master" })).name)).toBe("Ya existe el nivel master.");
    updateLevel(db, CLI_ACTOR, chef.id, { name: "Supervisión" });
    const ids = listLevels(db).map((r) => r.id);
    reorderLevels(db, CLI_ACTOR, { ids: [chef.id, ...ids.filter((id) => id !== chef.id)] });
    expect(listLevels(db)[0].name).toBe("Supervisión");
    deleteLevel(db, CLI_ACTOR, chef.id);
    expect(listLevels(db).map((r) => r.name)).toEqual(["Master", "Staff", "Employee", "Laborer"]);
    const actions = db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectType, "level"))
      .orderBy(auditLog.id)
      .all()
      .map((e) => e.action);
    expect(actions).toEqual(["level.created", "level.updated", "level.reordered", "level.deleted"]);
  });
});
