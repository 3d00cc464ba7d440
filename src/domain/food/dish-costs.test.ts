/**
 * Dishes with their costs as the Food page reads them: the list costed for one city and level (a dish without a
 * recipe of that level, or in a city without offers, is not costed; the levels a dish lacks are flagged), a dish with
 * every recipe costed, what the dish modal chooses from, and the city prices are read in by default.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { dishCategories, headquarters, levels } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureHeadquarters } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { createCategory } from "./categories";
import { createCity } from "./cities";
import { costedDishes, dishDetail, pricingCityId, recipeChoices } from "./dish-costs";
import { createDish } from "./dishes";
import { createIngredient } from "./ingredients";
import { createOffer } from "./offers";
import { createProvider } from "./providers";
import { saveRecipe } from "./recipes";

const IGV = 1800;

function world() {
  const db = migratedDatabase();
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const cusco = createCity(db, CLI_ACTOR, { name: "Cusco", region: "Cusco" });
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const rice = createIngredient(db, CLI_ACTOR, { name: "Arroz", category_id: cereals.id, base_unit: "g", kcal: 358 });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite",
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
  // S/ 177.00 with IGV for 50 kg: S/ 150.00 net, 0.3 cents a gram.
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
  const allLevels = db.select().from(levels).orderBy(levels.sortOrder).all();
  const master = allLevels.find((l) => l.name === "Master")!;
  const laborer = allLevels.find((l) => l.name === "Laborer")!;
  const [segundo] = db
    .insert(dishCategories)
    .values([{ name: "Segundo", sortOrder: 1 }])
    .returning()
    .all();
  const plain = createDish(db, CLI_ACTOR, { name: "Arroz blanco", category_ids: [segundo.id] });
  const fried = createDish(db, CLI_ACTOR, { name: "Arroz frito", category_ids: [segundo.id] });
  const bare = createDish(db, CLI_ACTOR, { name: "Sin receta", category_ids: [segundo.id] });
  saveRecipe(db, CLI_ACTOR, plain.id, master.id, { lines: [{ ingredient_id: rice.id, quantity: 150 }] });
  saveRecipe(db, CLI_ACTOR, plain.id, laborer.id, { lines: [{ ingredient_id: rice.id, quantity: 200 }] });
  // The oil has no offer anywhere: the recipe is costed without it.
  saveRecipe(db, CLI_ACTOR, fried.id, master.id, {
    lines: [
      { ingredient_id: rice.id, quantity: 100 },
      { ingredient_id: oil.id, quantity: 10 },
    ],
  });
  const levelIds = allLevels.map((l) => l.id);
  return { db, lima, cusco, rice, sack, master, laborer, levelIds, plain, fried, bare };
}

describe("costedDishes", () => {
  test("costs each dish's recipe of the level in the city, and flags the levels it has no recipe for", () => {
    const w = world();
    const costing = { cityId: w.lima.id, levelId: w.master.id, levelIds: w.levelIds, igvRate: IGV };
    const found = costedDishes(w.db, {}, { page: 1, perPage: 10 }, undefined, costing);
    expect(found.total).toBe(3);
    expect(found.page).toBe(1);
    const byName = new Map(found.rows.map((r) => [r.name, r]));
    expect(byName.get("Arroz blanco")!.cost).toMatchObject({ costCents: 45, complete: true, unpriced: 0 });
    expect(byName.get("Arroz frito")!.cost).toMatchObject({ costCents: 30, complete: false, unpriced: 1 });
    expect(byName.get("Arroz blanco")!.cost!.kcal).toBeCloseTo(537, 5);
    expect(byName.get("Sin receta")!.cost).toBeNull();
    expect(byName.get("Arroz blanco")!.levelsWithoutRecipe).toEqual(
      w.levelIds.filter((id) => id !== w.master.id && id !== w.laborer.id),
    );
    expect(byName.get("Sin receta")!.levelsWithoutRecipe).toEqual(w.levelIds);
  });

  test("keeps the list's search, order and page", () => {
    const w = world();
    const costing = { cityId: w.lima.id, levelId: w.laborer.id, levelIds: w.levelIds, igvRate: IGV };
    const page = costedDishes(w.db, { search: "arroz" }, { page: 2, perPage: 1 }, { sort: "name" }, costing);
    expect(page.total).toBe(2);
    expect(page.page).toBe(2);
    expect(page.rows.map((r) => [r.name, r.cost?.costCents ?? null])).toEqual([["Arroz frito", null]]);
    const all = costedDishes(w.db, { search: "blanco" }, null, undefined, costing);
    expect(all.rows.map((r) => [r.name, r.cost?.costCents ?? null])).toEqual([["Arroz blanco", 60]]);
  });

  test("a city without offers leaves lines unpriced, and no city or level costs nothing", () => {
    const w = world();
    const inCusco = costedDishes(w.db, { search: "blanco" }, null, undefined, {
      cityId: w.cusco.id,
      levelId: w.master.id,
      levelIds: w.levelIds,
      igvRate: IGV,
    });
    expect(inCusco.rows[0].cost).toMatchObject({ costCents: 0, complete: false, unpriced: 1 });
    const uncosted = costedDishes(w.db, {}, null, undefined, {
      cityId: null,
      levelId: w.master.id,
      levelIds: w.levelIds,
      igvRate: IGV,
    });
    expect(uncosted.rows.map((r) => r.cost)).toEqual([null, null, null]);
  });
});

describe("dishDetail", () => {
  test("gives the dish with each of its recipes costed for the city", () => {
    const w = world();
    const detail = dishDetail(w.db, w.plain.id, { cityId: w.lima.id, igvRate: IGV });
    expect(detail.dish.name).toBe("Arroz blanco");
    expect(detail.cityId).toBe(w.lima.id);
    expect(detail.recipes.map((r) => [r.levelId, r.totals.costCents]).sort((a, b) => a[1] - b[1])).toEqual([
      [w.master.id, 45],
      [w.laborer.id, 60],
    ]);
    expect(dishDetail(w.db, w.bare.id, { cityId: w.lima.id, igvRate: IGV }).recipes).toEqual([]);
  });
});

describe("recipeChoices", () => {
  test("lists the ingredients, the dishes and every offer with its net cost per reference unit", () => {
    const w = world();
    const choices = recipeChoices(w.db, { igvRate: IGV });
    expect(choices.ingredients.map((i) => i.name)).toEqual(["Aceite", "Arroz"]);
    expect(choices.dishes.map((d) => d.name)).toEqual(["Arroz blanco", "Arroz frito", "Sin receta"]);
    expect(choices.offers).toEqual([
      {
        id: w.sack.id,
        ingredientId: w.rice.id,
        cityId: w.lima.id,
        providerName: "Distribuidora Andina",
        presentation: "Saco 50 kg",
        active: true,
        // S/ 3.00 a kilogram, net of IGV.
        costPerReferenceCents: 300,
      },
    ]);
  });
});

describe("pricingCityId", () => {
  test("takes the city asked for, else the first headquarters' city within the scope, else the first city", () => {
    const w = world();
    expect(pricingCityId(w.db, EVERYTHING, w.cusco.id)).toBe(w.cusco.id);
    // No headquarters has a city yet: the first city.
    const first = pricingCityId(w.db, EVERYTHING);
    expect([w.lima.id, w.cusco.id]).toContain(first!);
    expect(pricingCityId(w.db, EVERYTHING, 9999)).toBe(first);

    const north = ensureHeadquarters(w.db, "Mesa S.A.C.", "Sede Norte");
    const south = ensureHeadquarters(w.db, "Mesa S.A.C.", "Sede Sur");
    w.db.update(headquarters).set({ cityId: w.cusco.id }).where(eq(headquarters.id, south.headquartersId)).run();
    expect(pricingCityId(w.db, EVERYTHING)).toBe(w.cusco.id);
    w.db.update(headquarters).set({ cityId: w.lima.id }).where(eq(headquarters.id, north.headquartersId)).run();
    expect(pricingCityId(w.db, EVERYTHING)).toBe(w.lima.id);
    const southOnly: Scope = { ...EVERYTHING, all: false, headquartersIds: new Set([south.headquartersId]) };
    expect(pricingCityId(w.db, southOnly)).toBe(w.cusco.id);
    const none: Scope = { ...EVERYTHING, all: false };
    expect(pricingCityId(w.db, none)).toBe(first);
  });
});
