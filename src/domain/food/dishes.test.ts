/**
 * Dishes and recipes in the domain: a dish's name unique whatever its case, accents and spacing, at least one known
 * category; the one list searched (accents ignored), filtered by category, sorted and paged; a recipe per level whose
 * lines are checked (things exist, a pinned offer is its ingredient's, quantities positive, no dish inside itself);
 * the draft the New-dish modal costs, bounded; deletes refused while a recipe or a menu uses the dish; every write
 * audited as company-wide.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  auditLog,
  dishCategories,
  levels,
  menuDays,
  menuSlots,
  recipeLines,
  recipes,
  services,
} from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe, ensureHeadquarters } from "../access/places";
import { CLI_ACTOR } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { createCategory } from "./categories";
import { createCity } from "./cities";
import { createDish, deleteDish, dishRow, listDishes, updateDish } from "./dishes";
import { createIngredient } from "./ingredients";
import { createOffer } from "./offers";
import { createProvider } from "./providers";
import { deleteRecipe, MAX_RECIPE_LINES, parseDraft, saveRecipe } from "./recipes";

function problems(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationFailed)
      return Object.fromEntries(Object.entries(error.errors).map(([k, m]) => [k, typeof m === "string" ? m : m.key]));
    throw error;
  }
  throw new Error("expected a validation failure");
}

function world() {
  const db = migratedDatabase();
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: cereals.id,
    base_unit: "g",
    kcal: 358,
  });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite vegetal",
    category_id: cereals.id,
    base_unit: "ml",
    density: 0.92,
    kcal: 884,
  });
  const provider = createProvider(
    db,
    CLI_ACTOR,
    { name: "Distribuidora Andina", ruc: "20100934729" },
    { rucLength: 11 },
  );
  const sack = createOffer(
    db,
    CLI_ACTOR,
    { userId: null, name: "" },
    {
      provider_id: provider.id,
      ingredient_id: rice.id,
      city_id: lima.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price: "177",
      price_includes_igv: true,
    },
  );
  // The migrations seed the four levels.
  const byName = new Map(
    db
      .select()
      .from(levels)
      .all()
      .map((l) => [l.name, l]),
  );
  const master = byName.get("Master")!;
  const laborer = byName.get("Laborer")!;
  const [entrada, segundo] = db
    .insert(dishCategories)
    .values([
      { name: "Entrada", sortOrder: 1 },
      { name: "Segundo", sortOrder: 2 },
    ])
    .returning()
    .all();
  return { db, lima, rice, oil, sack, master, laborer, entrada, segundo };
}

describe("dishes", () => {
  test("a dish needs a free name and at least one known category; every write is audited as company-wide", () => {
    const w = world();
    const dish = createDish(w.db, CLI_ACTOR, {
      name: "  Ají de   gallina ",
      description: "Con papa amarilla",
      category_ids: [w.segundo.id, w.entrada.id, w.segundo.id],
    });
    expect([dish.name, dish.active]).toEqual(["Ají de gallina", true]);
    expect(dishRow(w.db, dish.id).categories.map((c) => c.name)).toEqual(["Entrada", "Segundo"]);
    expect(
      problems(() => createDish(w.db, CLI_ACTOR, { name: "AJI DE GALLINA", category_ids: [w.entrada.id] })),
    ).toEqual({
      name: "food.dishes.name_taken",
    });
    expect(problems(() => createDish(w.db, CLI_ACTOR, { name: "Arroz chaufa", category_ids: [] }))).toEqual({
      category_ids: "food.dishes.category_required",
    });
    expect(problems(() => createDish(w.db, CLI_ACTOR, { name: "Arroz chaufa", category_ids: [9999] }))).toEqual({
      category_ids: "food.dishes.category_unknown",
    });
    // Its own name, in another spelling, is not taken by itself.
    const renamed = updateDish(w.db, CLI_ACTOR, dish.id, {
      name: "Ají de Gallina",
      category_ids: [w.segundo.id],
      active: false,
    });
    expect([renamed.name, renamed.active]).toEqual(["Ají de Gallina", false]);
    expect(dishRow(w.db, dish.id).categories.map((c) => c.name)).toEqual(["Segundo"]);
    const entries = w.db.select().from(auditLog).all();
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(["dish.created", "dish.updated"]));
    const updated = entries.find((e) => e.action === "dish.updated")!;
    expect(JSON.parse(String(updated.before)).dishCategoryIds).toEqual([w.entrada.id, w.segundo.id]);
    expect(JSON.parse(String(updated.after))).toMatchObject({ dishCategoryIds: [w.segundo.id], active: false });
  });

  test("the list searches names without accents, filters by category, sorts and pages", () => {
    const w = world();
    for (const [name, category] of [
      ["Ají de gallina", w.segundo.id],
      ["Causa limeña", w.entrada.id],
      ["Arroz con pollo", w.segundo.id],
      ["Papa a la huancaína", w.entrada.id],
    ] as const)
      createDish(w.db, CLI_ACTOR, { name, category_ids: [category] });
    const names = (r: { rows: { name: string }[] }) => r.rows.map((d) => d.name);
    expect(names(listDishes(w.db, { search: "AJI" }, null))).toEqual(["Ají de gallina"]);
    expect(names(listDishes(w.db, { search: "limena" }, null))).toEqual(["Causa limeña"]);
    expect(names(listDishes(w.db, { categoryId: w.entrada.id }, null))).toEqual([
      "Causa limeña",
      "Papa a la huancaína",
    ]);
    expect(names(listDishes(w.db, { search: "%" }, null))).toEqual([]);
    const page = listDishes(w.db, {}, { page: 9, perPage: 3 }, { sort: "name", direction: "desc" });
    expect([page.total, page.page, names(page)]).toEqual([4, 2, ["Ají de gallina"]]);
    expect(names(listDishes(w.db, {}, null, { sort: "categories" }))).toEqual([
      "Causa limeña",
      "Papa a la huancaína",
      "Ají de gallina",
      "Arroz con pollo",
    ]);
  });
});

describe("recipes", () => {
  test("a recipe per level replaces its lines, checked, and is audited", () => {
    const w = world();
    const rice = createDish(w.db, CLI_ACTOR, { name: "Arroz blanco", category_ids: [w.entrada.id] });
    const recipe = saveRecipe(w.db, CLI_ACTOR, rice.id, w.master.id, {
      yield_grams: "450",
      lines: [
        { ingredient_id: w.rice.id, quantity: "150", offer_id: w.sack.id },
        { ingredient_id: w.oil.id, quantity: "10,5" },
      ],
    });
    expect(recipe.yieldGrams).toBe(450);
    const lines = () =>
      w.db
        .select()
        .from(recipeLines)
        .where(eq(recipeLines.recipeId, recipe.id))
        .orderBy(recipeLines.position)
        .all()
        .map((l) => [l.ingredientId, l.quantity, l.offerId]);
    expect(lines()).toEqual([
      [w.rice.id, 150, w.sack.id],
      [w.oil.id, 10.5, null],
    ]);
    const again = saveRecipe(w.db, CLI_ACTOR, rice.id, w.master.id, {
      lines: [{ ingredient_id: w.rice.id, quantity: 120 }],
    });
    expect(again.id).toBe(recipe.id);
    expect(again.yieldGrams).toBeNull();
    expect(lines()).toEqual([[w.rice.id, 120, null]]);
    expect(dishRow(w.db, rice.id).levelIds).toEqual([w.master.id]);

    expect(
      problems(() =>
        saveRecipe(w.db, CLI_ACTOR, rice.id, w.laborer.id, {
          yield_grams: -1,
          lines: [
            { ingredient_id: w.rice.id, sub_dish_id: rice.id, quantity: 1 },
            { ingredient_id: w.rice.id, quantity: 0 },
            { ingredient_id: w.rice.id, quantity: "NaN" },
            { ingredient_id: w.rice.id, quantity: 1e9 },
          ],
        }),
      ),
    ).toEqual({
      yield_grams: "food.recipes.quantity_positive",
      "lines.0.item": "food.recipes.line_item",
      "lines.1.quantity": "food.recipes.quantity_positive",
      "lines.2.quantity": "validation.number",
      "lines.3.quantity": "food.figures.at_most",
    });
    expect(
      problems(() =>
        saveRecipe(w.db, CLI_ACTOR, rice.id, w.laborer.id, {
          lines: [
            { ingredient_id: 9999, quantity: 1 },
            { ingredient_id: w.oil.id, quantity: 1, offer_id: w.sack.id },
            { sub_dish_id: 9999, quantity: 1 },
          ],
        }),
      ),
    ).toEqual({
      "lines.0.item": "food.recipes.ingredient_unknown",
      "lines.1.offer_id": "food.recipes.offer_other_ingredient",
      "lines.2.item": "food.recipes.dish_unknown",
    });
    expect(problems(() => saveRecipe(w.db, CLI_ACTOR, rice.id, w.laborer.id, { lines: [] }))).toEqual({
      lines: "food.recipes.lines_required",
    });
    const tooMany = Array.from({ length: MAX_RECIPE_LINES + 1 }, () => ({ ingredient_id: w.rice.id, quantity: 1 }));
    expect(Object.keys(problems(() => saveRecipe(w.db, CLI_ACTOR, rice.id, w.laborer.id, { lines: tooMany })))).toEqual(
      ["lines"],
    );
    expect(() =>
      saveRecipe(w.db, CLI_ACTOR, rice.id, 9999, { lines: [{ ingredient_id: w.rice.id, quantity: 1 }] }),
    ).toThrow(NotFound);
    expect(w.db.select().from(recipes).all()).toHaveLength(1);
    const audited = w.db.select().from(auditLog).where(eq(auditLog.action, "recipe.saved")).all();
    expect(audited).toHaveLength(2);
    expect(JSON.parse(String(audited[1].before)).lines).toHaveLength(2);

    deleteRecipe(w.db, CLI_ACTOR, rice.id, w.master.id);
    expect(w.db.select().from(recipes).all()).toHaveLength(0);
    expect(() => deleteRecipe(w.db, CLI_ACTOR, rice.id, w.master.id)).toThrow(NotFound);
  });

  test("no dish ends up inside itself through its sub-recipes", () => {
    const w = world();
    const dish = (name: string) => createDish(w.db, CLI_ACTOR, { name, category_ids: [w.segundo.id] });
    const sauce = dish("Salsa huancaína");
    const papa = dish("Papa a la huancaína");
    const plate = dish("Plato combinado");
    saveRecipe(w.db, CLI_ACTOR, papa.id, w.master.id, { lines: [{ sub_dish_id: sauce.id, quantity: 60 }] });
    saveRecipe(w.db, CLI_ACTOR, plate.id, w.master.id, { lines: [{ sub_dish_id: papa.id, quantity: 200 }] });
    const cycle = (from: number, to: number, level = w.laborer.id) =>
      problems(() => saveRecipe(w.db, CLI_ACTOR, from, level, { lines: [{ sub_dish_id: to, quantity: 10 }] }));
    expect(cycle(sauce.id, plate.id)).toEqual({ "lines.0.item": "food.recipes.cycle_error" });
    expect(cycle(sauce.id, sauce.id)).toEqual({ "lines.0.item": "food.recipes.cycle_error" });
    expect(
      problems(() =>
        saveRecipe(w.db, CLI_ACTOR, sauce.id, w.master.id, {
          lines: [{ sub_dish_id: papa.id, quantity: 1, offer_id: w.sack.id }],
        }),
      ),
    ).toEqual({
      "lines.0.offer_id": "food.recipes.offer_for_dish",
    });
    // Another branch is fine.
    saveRecipe(w.db, CLI_ACTOR, plate.id, w.laborer.id, { lines: [{ sub_dish_id: sauce.id, quantity: 30 }] });
  });

  test("a draft is bounded before it is costed; lines still being typed are left out", () => {
    const w = world();
    const { draft, cityId } = parseDraft(w.db, {
      level_id: w.master.id,
      city_id: w.lima.id,
      lines: [
        { ingredient_id: w.rice.id, quantity: "150" },
        { ingredient_id: null, quantity: "" },
        { ingredient_id: w.oil.id, quantity: "" },
      ],
    });
    expect(cityId).toBe(w.lima.id);
    expect(draft).toEqual({
      levelId: w.master.id,
      yieldGrams: null,
      lines: [{ ingredientId: w.rice.id, subDishId: null, quantity: 150, offerId: null }],
    });
    expect(
      problems(() =>
        parseDraft(w.db, {
          level_id: w.master.id,
          city_id: w.lima.id,
          lines: [{ ingredient_id: w.rice.id, quantity: "-3" }],
        }),
      ),
    ).toEqual({ "lines.0.quantity": "food.recipes.quantity_positive" });
    expect(
      problems(() =>
        parseDraft(w.db, {
          level_id: w.master.id,
          city_id: w.lima.id,
          lines: [{ ingredient_id: w.rice.id, quantity: "1e309" }],
        }),
      ),
    ).toEqual({ "lines.0.quantity": "validation.number" });
    const tooMany = Array.from({ length: MAX_RECIPE_LINES + 1 }, () => ({ ingredient_id: w.rice.id, quantity: 1 }));
    expect(
      Object.keys(problems(() => parseDraft(w.db, { level_id: w.master.id, city_id: w.lima.id, lines: tooMany }))),
    ).toEqual(["lines"]);
    expect(() => parseDraft(w.db, { level_id: 9999, city_id: w.lima.id, lines: [] })).toThrow(NotFound);
  });
});

describe("deleting a dish", () => {
  test("is refused while a recipe uses it as a sub-recipe or a menu holds it, saying where", () => {
    const w = world();
    const sauce = createDish(w.db, CLI_ACTOR, { name: "Salsa criolla", category_ids: [w.entrada.id] });
    const plate = createDish(w.db, CLI_ACTOR, { name: "Pan con chicharrón", category_ids: [w.segundo.id] });
    saveRecipe(w.db, CLI_ACTOR, sauce.id, w.master.id, { lines: [{ ingredient_id: w.oil.id, quantity: 5 }] });
    saveRecipe(w.db, CLI_ACTOR, plate.id, w.master.id, { lines: [{ sub_dish_id: sauce.id, quantity: 30 }] });
    const refusal = (() => {
      try {
        deleteDish(w.db, CLI_ACTOR, sauce.id);
      } catch (error) {
        return error;
      }
    })() as Conflict;
    expect(refusal).toBeInstanceOf(Conflict);
    expect(refusal.detail).toMatchObject({
      key: "food.dishes.used_in_recipes",
      params: { dishes: "Pan con chicharrón" },
    });

    const x = ensureHeadquarters(w.db, "Catering X S.A.C.", "Sede Lima");
    const cafe = ensureCafe(w.db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
    const now = new Date();
    const service = w.db
      .insert(services)
      .values({ code: "ALM", name: "Almuerzo", type: "lunch", createdAt: now, updatedAt: now })
      .returning()
      .get();
    const day = w.db.insert(menuDays).values({ cafeId: cafe, date: "2026-11-30", updatedAt: now }).returning().get();
    w.db
      .insert(menuSlots)
      .values({ dayId: day.id, serviceId: service.id, dishCategoryId: w.segundo.id, dishId: plate.id })
      .run();
    expect(() => deleteDish(w.db, CLI_ACTOR, plate.id)).toThrow(
      expect.objectContaining({ detail: expect.objectContaining({ key: "food.dishes.used_in_menus" }) }),
    );
    deleteRecipe(w.db, CLI_ACTOR, plate.id, w.master.id);
    deleteDish(w.db, CLI_ACTOR, sauce.id);
    expect(w.db.select().from(recipes).all()).toHaveLength(0);
    expect(w.db.select().from(auditLog).where(eq(auditLog.action, "dish.deleted")).all()).toHaveLength(1);
  });
});
