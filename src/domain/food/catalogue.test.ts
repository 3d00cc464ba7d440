/**
 * The food catalogue in the domain: cities, categories and ingredients with their figures checked (every field at
 * once), providers with their RUC, offers with every price kept and dated, the lists grouped by provider and by city
 * (search, filters, sort), and the cheapest current offer of each ingredient in a logistics centre's city.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, headquarters, offerPriceHistory } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureHeadquarters } from "../access/places";
import { EVERYTHING } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { Conflict, ValidationFailed } from "../errors";
import { createCategory, deleteCategory } from "./categories";
import { createCity, deleteCity, updateCity } from "./cities";
import { createIngredient, deleteIngredient, listIngredients, updateIngredient } from "./ingredients";
import { cheapestOffers, logisticsCentres } from "./logistics";
import { allOffers, offersByCity, offersByProvider } from "./offer-lists";
import { createOffer, deleteOffer, offerHistory, updateOffer } from "./offers";
import { createProvider, deleteProvider } from "./providers";

const SETTINGS = { rucLength: 11 };
const COSTS = { igvRate: 1800 };
const AUTHOR = { userId: null, name: "Línea de comandos" };
const RUC = { a: "20100934729", b: "20551673911", c: "20604382158" };

function problems(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error("expected a validation failure");
}

function world() {
  const db = migratedDatabase();
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const arequipa = createCity(db, CLI_ACTOR, { name: "Arequipa", region: "Arequipa" });
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const oils = createCategory(db, CLI_ACTOR, { name: "Aceites y grasas" });
  const eggs = createCategory(db, CLI_ACTOR, { name: "Huevos" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: cereals.id,
    base_unit: "g",
    kcal: "358",
    protein: "7,8",
    water: 13.4,
  });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite vegetal",
    category_id: oils.id,
    base_unit: "ml",
    density: "0.92",
    kcal: 884,
    fat: 100,
  });
  const egg = createIngredient(db, CLI_ACTOR, {
    name: "Huevo de gallina",
    category_id: eggs.id,
    base_unit: "unit",
    unit_weight_g: 50,
    kcal: 143,
    solid_waste: 12,
    allergens: ["eggs"],
  });
  const andina = createProvider(
    db,
    CLI_ACTOR,
    { name: "Distribuidora Andina", ruc: RUC.a, contact: "Rosa Quispe" },
    SETTINGS,
  );
  const mercado = createProvider(db, CLI_ACTOR, { name: "Mercado Mayorista Sur", ruc: RUC.b }, SETTINGS);
  return { db, lima, arequipa, cereals, oils, eggs, rice, oil, egg, andina, mercado };
}

type World = ReturnType<typeof world>;

function offer(w: World, values: Record<string, unknown>, now?: Date) {
  return createOffer(w.db, CLI_ACTOR, AUTHOR, { price_includes_igv: true, ...values }, now);
}

describe("ingredients", () => {
  test("figures are checked every field at once: the weight of a unit, a density for ml, kcal, wastes, nutrients, allergens", () => {
    const w = world();
    expect(
      problems(() =>
        createIngredient(w.db, CLI_ACTOR, {
          name: "X",
          category_id: 999,
          base_unit: "unit",
          kcal: "mucho",
          solid_waste: 60,
          liquid_waste: 45,
          iron: -1,
          allergens: ["eggs", "pollen"],
        }),
      ),
    ).toEqual({
      name: { key: "validation.min_length", params: { min: 2 } },
      unit_weight_g: { key: "validation.required", params: undefined },
      kcal: { key: "validation.number", params: undefined },
      liquid_waste: { key: "food.figures.waste_total", params: undefined },
      iron: { key: "food.figures.at_least", params: { min: 0 } },
      allergens: { key: "food.figures.allergens_unknown", params: undefined },
    });
    expect(
      problems(() =>
        createIngredient(w.db, CLI_ACTOR, { name: "Leche fresca", category_id: w.eggs.id, base_unit: "ml", kcal: 61 }),
      ),
    ).toEqual({ density: { key: "validation.required", params: undefined } });
    // The same name, whatever its case, accents and spacing.
    expect(
      problems(() =>
        createIngredient(w.db, CLI_ACTOR, {
          name: "ARROZ  Piládo",
          category_id: w.cereals.id,
          base_unit: "g",
          kcal: 1,
        }),
      ),
    ).toEqual({ name: { key: "food.ingredients.name_taken", params: { name: "ARROZ Piládo" } } });
  });

  test("an ingredient keeps its figures: decimal commas read, the other unit's figure dropped, allergens sorted", () => {
    const w = world();
    expect(w.rice).toMatchObject({ baseUnit: "g", kcalPer100g: 358, proteinG: 7.8, waterG: 13.4, fatG: null });
    expect(w.oil).toMatchObject({ baseUnit: "ml", densityGramsPerMl: 0.92, unitWeightGrams: null });
    const changed = updateIngredient(w.db, CLI_ACTOR, w.egg.id, {
      name: "Huevo de gallina",
      category_id: w.eggs.id,
      base_unit: "g",
      unit_weight_g: 50,
      kcal: 143,
      allergens: ["milk", "eggs", "eggs"],
    });
    expect(changed).toMatchObject({ baseUnit: "g", unitWeightGrams: null, allergens: ["eggs", "milk"] });
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "ingredient.updated")).get()!;
    expect(audit.subjectType).toBe("ingredient");
  });

  test("the list is searched without accents, filtered by category, sorted; an ingredient or category in use stays", () => {
    const w = world();
    const all = listIngredients(w.db, {}, { page: 1, perPage: 10 });
    expect(all.rows.map((r) => r.name)).toEqual(["Aceite vegetal", "Arroz pilado", "Huevo de gallina"]);
    expect(listIngredients(w.db, { search: "CEREÁL" }, null).rows.map((r) => r.name)).toEqual(["Arroz pilado"]);
    expect(listIngredients(w.db, { categoryId: w.eggs.id }, null).rows.map((r) => r.name)).toEqual([
      "Huevo de gallina",
    ]);
    expect(listIngredients(w.db, {}, null, { sort: "kcal", direction: "desc" }).rows.map((r) => r.kcalPer100g)).toEqual(
      [884, 358, 143],
    );
    expect(() => deleteCategory(w.db, CLI_ACTOR, w.eggs.id)).toThrow(Conflict);
    offer(w, {
      provider_id: w.andina.id,
      ingredient_id: w.egg.id,
      city_id: w.lima.id,
      presentation: "Jaba",
      quantity: 30,
      price: "14.16",
    });
    expect(() => deleteIngredient(w.db, CLI_ACTOR, w.egg.id)).toThrow(Conflict);
    expect(deleteIngredient(w.db, CLI_ACTOR, w.rice.id).name).toBe("Arroz pilado");
  });
});

describe("providers and cities", () => {
  test("a provider's RUC is checked and unique; its name too; one with offers is not deleted", () => {
    const w = world();
    expect(problems(() => createProvider(w.db, CLI_ACTOR, { name: "Otro", ruc: "20100934728" }, SETTINGS))).toEqual({
      ruc: { key: "validation.ruc_check_digit", params: undefined },
    });
    expect(
      problems(() =>
        createProvider(w.db, CLI_ACTOR, { name: "distribuidora andina", ruc: RUC.a, email: "x" }, SETTINGS),
      ),
    ).toEqual({
      name: { key: "food.providers.name_taken", params: { name: "distribuidora andina" } },
      ruc: { key: "food.providers.ruc_taken", params: { ruc: RUC.a, name: "Distribuidora Andina" } },
      email: { key: "validation.email", params: undefined },
    });
    offer(w, {
      provider_id: w.mercado.id,
      ingredient_id: w.rice.id,
      city_id: w.lima.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price: 177,
    });
    expect(() => deleteProvider(w.db, CLI_ACTOR, w.mercado.id)).toThrow(Conflict);
    expect(deleteProvider(w.db, CLI_ACTOR, w.andina.id).name).toBe("Distribuidora Andina");
  });

  test("a city name is unique whatever its case; a city with a headquarters or offers stays", () => {
    const w = world();
    expect(problems(() => createCity(w.db, CLI_ACTOR, { name: " LIMA " }))).toEqual({
      name: { key: "food.cities.taken", params: { name: "LIMA" } },
    });
    expect(updateCity(w.db, CLI_ACTOR, w.arequipa.id, { name: "Arequipa", region: "Arequipa (sur)" }).region).toBe(
      "Arequipa (sur)",
    );
    const hq = ensureHeadquarters(w.db, "Mesa Catering S.A.C.", "Sede Lima");
    w.db.update(headquarters).set({ cityId: w.lima.id }).where(eq(headquarters.id, hq.headquartersId)).run();
    expect(() => deleteCity(w.db, CLI_ACTOR, w.lima.id)).toThrow(Conflict);
    expect(deleteCity(w.db, CLI_ACTOR, w.arequipa.id).name).toBe("Arequipa");
  });
});

describe("offers", () => {
  test("an offer's fields are checked at once; one provider offers one presentation of an ingredient per city", () => {
    const w = world();
    expect(
      problems(() =>
        offer(w, {
          provider_id: 999,
          ingredient_id: w.rice.id,
          city_id: 999,
          presentation: "",
          quantity: 0,
          price: "12.345",
        }),
      ),
    ).toEqual({
      presentation: { key: "validation.required", params: undefined },
      quantity: { key: "food.figures.above", params: { min: 0 } },
      price: { key: "food.offers.price_invalid", params: undefined },
    });
    expect(
      problems(() =>
        offer(w, { provider_id: 999, ingredient_id: 999, city_id: 999, presentation: "Saco", quantity: 1, price: "1" }),
      ),
    ).toEqual({
      provider_id: { key: "food.providers.unknown", params: undefined },
      city_id: { key: "food.cities.unknown", params: undefined },
      ingredient_id: { key: "food.ingredients.unknown", params: undefined },
    });
    const values = {
      provider_id: w.andina.id,
      ingredient_id: w.rice.id,
      city_id: w.lima.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price: "177",
    };
    offer(w, values);
    expect(problems(() => offer(w, values))).toEqual({
      presentation: { key: "food.offers.taken", params: { presentation: "Saco 50 kg" } },
    });
    // The same presentation elsewhere is another offer.
    expect(offer(w, { ...values, city_id: w.arequipa.id }).cityId).toBe(w.arequipa.id);
  });

  test("every price is kept with its date; a change that leaves the price alone adds none", () => {
    const w = world();
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 15));
    const sack = offer(
      w,
      {
        provider_id: w.andina.id,
        ingredient_id: w.rice.id,
        city_id: w.lima.id,
        presentation: "Saco 50 kg",
        quantity: 50000,
        price: "177.00",
      },
      day(1),
    );
    const change = (price: string, extra: Record<string, unknown>, d: number) =>
      updateOffer(
        w.db,
        CLI_ACTOR,
        { userId: null, name: "Miguel Torres" },
        sack.id,
        { presentation: "Saco 50 kg", quantity: 50000, price, price_includes_igv: true, ...extra },
        day(d),
      );
    change("188.80", {}, 5);
    change("188.80", { presentation: "Saco de 50 kg" }, 6);
    change("160", { price_includes_igv: false }, 9);
    const history = offerHistory(w.db, sack.id, COSTS);
    expect(
      history.map((h) => [h.changedAt.slice(0, 10), h.priceCents, h.priceIncludesIgv, h.costPerReferenceCents]),
    ).toEqual([
      ["2026-11-09", 16_000, false, 320],
      ["2026-11-05", 18_880, true, 320],
      ["2026-11-01", 17_700, true, 300],
    ]);
    expect(history[0].changedByName).toBe("Miguel Torres");
    // Deleting the offer takes its history with it.
    deleteOffer(w.db, CLI_ACTOR, sack.id);
    expect(w.db.select().from(offerPriceHistory).all()).toEqual([]);
  });

  test("offers by provider and by city: groups by name, search, filters, the sort within each group, the export", () => {
    const w = world();
    const cusco = createCity(w.db, CLI_ACTOR, { name: "Cusco" });
    offer(w, {
      provider_id: w.andina.id,
      ingredient_id: w.rice.id,
      city_id: w.lima.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price: "177",
    });
    offer(w, {
      provider_id: w.andina.id,
      ingredient_id: w.oil.id,
      city_id: w.arequipa.id,
      presentation: "Caja 12 × 1 l",
      quantity: 12000,
      price: "118",
      price_includes_igv: false,
    });
    offer(w, {
      provider_id: w.mercado.id,
      ingredient_id: w.rice.id,
      city_id: w.arequipa.id,
      presentation: "Saco 49 kg",
      quantity: 49000,
      price: "150",
    });
    offer(w, {
      provider_id: w.mercado.id,
      ingredient_id: w.egg.id,
      city_id: cusco.id,
      presentation: "Jaba 30",
      quantity: 30,
      price: "14.16",
    });
    const byProvider = offersByProvider(w.db, {}, { page: 1, perPage: 10 }, undefined, COSTS);
    expect(byProvider.groupCount).toBe(2);
    expect(byProvider.total).toBe(4);
    expect(byProvider.groups.map((g) => [g.name, g.offers.map((o) => o.ingredientName)])).toEqual([
      ["Distribuidora Andina", ["Aceite vegetal", "Arroz pilado"]],
      ["Mercado Mayorista Sur", ["Arroz pilado", "Huevo de gallina"]],
    ]);
    const oil = byProvider.groups[0].offers[0];
    expect([oil.netPriceCents, oil.costPerReferenceCents]).toEqual([11_800, 983]);
    // Sorted within each group by the cost of a kilogram, litre or unit, dearest first.
    const byCost = offersByProvider(w.db, {}, { page: 1, perPage: 10 }, { sort: "cost", direction: "desc" }, COSTS);
    expect(byCost.groups[1].offers.map((o) => o.costPerReferenceCents)).toEqual([259, 40]);
    // A page of offers at a time, in the order of their providers: a provider runs over to the next page.
    const second = offersByProvider(w.db, {}, { page: 2, perPage: 3 }, undefined, COSTS);
    expect([second.page, second.groups.map((g) => [g.name, g.count, g.offers.length])]).toEqual([
      2,
      [["Mercado Mayorista Sur", 2, 1]],
    ]);
    // Search without accents or case, in ingredients, providers, presentations and cities; filters by id.
    const searched = offersByProvider(w.db, { search: "ACEITÉ" }, { page: 1, perPage: 10 }, undefined, COSTS);
    expect(searched.groups.map((g) => [g.name, g.offers.length])).toEqual([["Distribuidora Andina", 1]]);
    expect(offersByProvider(w.db, { search: "cusco" }, { page: 1, perPage: 10 }, undefined, COSTS).total).toBe(1);
    expect(offersByProvider(w.db, { search: "100%_" }, { page: 1, perPage: 10 }, undefined, COSTS).total).toBe(0);
    expect(offersByProvider(w.db, { providerId: w.mercado.id }, { page: 1, perPage: 10 }, undefined, COSTS).total).toBe(
      2,
    );
    const byCity = offersByCity(w.db, { cityId: w.arequipa.id }, { page: 1, perPage: 10 }, undefined, COSTS);
    expect(byCity.groups.map((g) => [g.name, g.offers.map((o) => o.providerName)])).toEqual([
      ["Arequipa", ["Distribuidora Andina", "Mercado Mayorista Sur"]],
    ]);
    expect(allOffers(w.db, "city", {}, { sort: "price" }, COSTS).map((o) => [o.cityName, o.priceCents])).toEqual([
      ["Arequipa", 11_800],
      ["Arequipa", 15_000],
      ["Cusco", 1416],
      ["Lima", 17_700],
    ]);
  });

  test("a logistics centre stocks the cheapest current offer of each ingredient in its city", () => {
    const w = world();
    const { headquartersId } = ensureHeadquarters(w.db, "Mesa Catering S.A.C.", "Sede Lima");
    ensureHeadquarters(w.db, "Mesa Catering S.A.C.", "Sede Sin Ciudad");
    w.db.update(headquarters).set({ cityId: w.lima.id }).where(eq(headquarters.id, headquartersId)).run();
    const lima = (values: Record<string, unknown>) =>
      offer(w, { city_id: w.lima.id, ingredient_id: w.rice.id, ...values });
    // 177.00 with IGV for 50 kg: S/ 3.00 a kg; 160.00 without IGV for 50 kg: S/ 3.20; 145.00 with IGV for 49 kg: S/ 2.51.
    lima({ provider_id: w.andina.id, presentation: "Saco 50 kg", quantity: 50000, price: "177" });
    lima({
      provider_id: w.mercado.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price: "160",
      price_includes_igv: false,
    });
    const cheapest = lima({ provider_id: w.mercado.id, presentation: "Saco 49 kg", quantity: 49000, price: "145" });
    lima({ provider_id: w.andina.id, ingredient_id: w.egg.id, presentation: "Jaba 30", quantity: 30, price: "14.16" });
    // Elsewhere, however cheap, it does not count.
    offer(w, {
      provider_id: w.andina.id,
      ingredient_id: w.rice.id,
      city_id: w.arequipa.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price: "1",
    });
    const centres = logisticsCentres(w.db, EVERYTHING);
    expect(centres.map((c) => [c.name, c.cityName, c.stocked])).toEqual([
      ["Sede Lima", "Lima", 2],
      ["Sede Sin Ciudad", null, 0],
    ]);
    const stock = cheapestOffers(w.db, w.lima.id, {}, { page: 1, perPage: 10 }, COSTS);
    expect(
      stock.rows.map((r) => [r.ingredientName, r.offer.presentation, r.offer.costPerReferenceCents, r.offersInCity]),
    ).toEqual([
      ["Arroz pilado", "Saco 49 kg", 251, 3],
      ["Huevo de gallina", "Jaba 30", 40, 1],
    ]);
    // Withdrawn, the cheapest is no longer current: the next one takes its place.
    updateOffer(w.db, CLI_ACTOR, AUTHOR, cheapest.id, {
      presentation: "Saco 49 kg",
      quantity: 49000,
      price: "145",
      price_includes_igv: true,
      active: false,
    });
    const after = cheapestOffers(w.db, w.lima.id, { search: "arroz" }, null, COSTS);
    expect(after.rows.map((r) => [r.offer.presentation, r.offer.providerName, r.offersInCity])).toEqual([
      ["Saco 50 kg", "Distribuidora Andina", 2],
    ]);
    expect(
      logisticsCentres(w.db, { ...EVERYTHING, all: false, headquartersIds: new Set([headquartersId]) }).length,
    ).toBe(1);
  });
});

describe("the cheapest offer", () => {
  test("the same cost reached through another price and quantity ties, and the most recent price wins", () => {
    // S/ 10.01 a kilo and S/ 30.03 for 3 kg, both with IGV: the same cost, though a float may differ in its last bit.
    for (const newest of ["Kilo", "Bolsa 3 kg"]) {
      const w = world();
      const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12));
      const kilo = { provider_id: w.mercado.id, presentation: "Kilo", quantity: 1000, price: "10.01" };
      const bag = { provider_id: w.andina.id, presentation: "Bolsa 3 kg", quantity: 3000, price: "30.03" };
      const [first, second] = newest === "Kilo" ? [bag, kilo] : [kilo, bag];
      offer(w, { ...first, ingredient_id: w.rice.id, city_id: w.lima.id }, at(1));
      offer(w, { ...second, ingredient_id: w.rice.id, city_id: w.lima.id }, at(2));
      const stock = cheapestOffers(w.db, w.lima.id, { search: "arroz" }, null, COSTS);
      expect(stock.rows.map((r) => r.offer.presentation)).toEqual([newest]);
    }
  });
});
