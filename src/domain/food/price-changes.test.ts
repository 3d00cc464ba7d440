/**
 * The price-changes view against hand-worked figures: an offer's price change inside the period moves every dish
 * that uses the ingredient (through a sub-recipe too), by the costing engine's cents; a change outside the period
 * moves nothing; the period's days are read in the settings' time zone; and a dish's cost over time has a point at
 * the start and one per change.
 *
 * Lima, one provider. Rice: a 50 kg sack at S/ 150.00 without IGV (0.3 cents a gram); chicken: 1 kg at S/ 10.00
 * without IGV (1 cent a gram), both since 2026-10-01. "Arroz blanco" (Laborer) is 100 g of rice: 30 cents. "Arroz con
 * pollo" (Laborer) is 200 g of chicken and 100 g of arroz blanco as a sub-recipe: 230 cents. "Pollo al horno"
 * (Staff) is 150 g of chicken: 150 cents. On 2026-11-10 the sack goes up to S/ 200.00 (0.4 cents a gram).
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { dishes, levels, recipeLines, recipes } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { createCategory } from "./categories";
import { createCity } from "./cities";
import { createIngredient } from "./ingredients";
import { createOffer, updateOffer } from "./offers";
import { createProvider } from "./providers";
import { dayStart, dishCostHistory, periodBounds, priceChangeFilters, priceChanges } from "./price-changes";

const AUTHOR = { userId: null, name: "Línea de comandos" };
const at = (iso: string) => new Date(iso);

function world() {
  const db = migratedDatabase();
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const arequipa = createCity(db, CLI_ACTOR, { name: "Arequipa", region: "Arequipa" });
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const meat = createCategory(db, CLI_ACTOR, { name: "Carnes" });
  const rice = createIngredient(db, CLI_ACTOR, { name: "Arroz", category_id: cereals.id, base_unit: "g", kcal: 358 });
  const chicken = createIngredient(db, CLI_ACTOR, { name: "Pollo", category_id: meat.id, base_unit: "g", kcal: 215 });
  const provider = createProvider(
    db,
    CLI_ACTOR,
    { name: "Distribuidora Andina", ruc: "20501234568" },
    { rucLength: 11 },
  );
  const offer = (values: Record<string, unknown>) =>
    createOffer(
      db,
      CLI_ACTOR,
      AUTHOR,
      { provider_id: provider.id, city_id: lima.id, price_includes_igv: false, ...values },
      at("2026-10-01T15:00:00Z"),
    );
  const sack = offer({ ingredient_id: rice.id, presentation: "Saco 50 kg", quantity: 50000, price: "150" });
  offer({ ingredient_id: chicken.id, presentation: "Bolsa 1 kg", quantity: 1000, price: "10" });
  const level = (name: string) => db.select().from(levels).where(eq(levels.name, name)).get()!.id;
  const laborer = level("Laborer");
  const staff = level("Staff");
  const dish = (
    name: string,
    levelId: number,
    lines: { ingredientId?: number; subDishId?: number; quantity: number }[],
  ) => {
    const now = at("2026-09-01T12:00:00Z");
    const d = db.insert(dishes).values({ name, createdAt: now, updatedAt: now }).returning().get();
    const r = db.insert(recipes).values({ dishId: d.id, levelId, updatedAt: now }).returning().get();
    lines.forEach((l, position) =>
      db
        .insert(recipeLines)
        .values({
          recipeId: r.id,
          position,
          ingredientId: l.ingredientId ?? null,
          subDishId: l.subDishId ?? null,
          quantity: l.quantity,
        })
        .run(),
    );
    return { dishId: d.id, recipeId: r.id };
  };
  const white = dish("Arroz blanco", laborer, [{ ingredientId: rice.id, quantity: 100 }]);
  const arrozConPollo = dish("Arroz con pollo", laborer, [
    { ingredientId: chicken.id, quantity: 200 },
    { subDishId: white.dishId, quantity: 100 },
  ]);
  const baked = dish("Pollo al horno", staff, [{ ingredientId: chicken.id, quantity: 150 }]);
  const raise = (when: string, price = "200") =>
    updateOffer(
      db,
      CLI_ACTOR,
      AUTHOR,
      sack.id,
      { presentation: "Saco 50 kg", price, quantity: 50000, price_includes_igv: false },
      at(when),
    );
  return { db, lima, arequipa, sack, laborer, staff, white, arrozConPollo, baked, raise };
}

const LIMA_TZ = "America/Lima";

describe("priceChanges", () => {
  test("a price change inside the period moves the dishes that use it, through a sub-recipe too", () => {
    const w = world();
    w.raise("2026-11-10T15:00:00Z");
    const found = priceChanges(w.db, { from: "2026-11-01", to: "2026-11-15", cityId: w.lima.id, timeZone: LIMA_TZ });
    expect(found.changedOffers).toBe(1);
    expect(
      found.rows.map((r) => [r.dishName, r.levelName, r.beforeCents, r.afterCents, r.differenceCents, r.percent]),
    ).toEqual([
      // Equal moves: by name.
      ["Arroz blanco", "Laborer", 30, 40, 10, (10 / 30) * 100],
      ["Arroz con pollo", "Laborer", 230, 240, 10, (10 / 230) * 100],
    ]);
    const rice = {
      ingredientName: "Arroz",
      unit: "g",
      before: { offerId: w.sack.id, presentation: "Saco 50 kg", costPerReferenceCents: 300, pinned: false },
      after: { offerId: w.sack.id, presentation: "Saco 50 kg", costPerReferenceCents: 400, pinned: false },
    };
    expect(found.rows[1].offers).toMatchObject([rice]);
    expect(found.rows[1]).toMatchObject({ completeBefore: true, completeAfter: true });
    // "Pollo al horno" uses no rice: not even costed.
    expect(found.recipesChecked).toBe(2);
  });

  test("a change outside the period moves nothing, and the level filter keeps to one level", () => {
    const w = world();
    w.raise("2026-11-10T15:00:00Z");
    for (const [from, to] of [
      ["2026-11-11", "2026-11-30"],
      ["2026-10-15", "2026-11-09"],
    ])
      expect(priceChanges(w.db, { from, to, cityId: w.lima.id, timeZone: LIMA_TZ }).rows).toEqual([]);
    expect(
      priceChanges(w.db, {
        from: "2026-11-01",
        to: "2026-11-30",
        cityId: w.lima.id,
        levelId: w.staff,
        timeZone: LIMA_TZ,
      }).rows,
    ).toEqual([]);
    // Another city's prices did not change.
    expect(priceChanges(w.db, { from: "2026-11-01", to: "2026-11-30", cityId: w.arequipa.id }).rows).toEqual([]);
  });

  test("the period's days are the settings' time zone's: 22:00 in Lima is still that day", () => {
    const w = world();
    // 2026-11-16 03:00 UTC is 2026-11-15 22:00 in Lima.
    w.raise("2026-11-16T03:00:00Z");
    const query = { from: "2026-11-01", to: "2026-11-15", cityId: w.lima.id };
    expect(priceChanges(w.db, { ...query, timeZone: LIMA_TZ }).rows).toHaveLength(2);
    expect(priceChanges(w.db, query).rows).toHaveLength(0);
    expect(dayStart("2026-11-15", LIMA_TZ).toISOString()).toBe("2026-11-15T05:00:00.000Z");
    expect(periodBounds({ from: "2026-11-01", to: "2026-11-15", timeZone: LIMA_TZ }).end.toISOString()).toBe(
      "2026-11-16T04:59:59.999Z",
    );
  });

  test("a price that goes up and back within the period moves nothing", () => {
    const w = world();
    w.raise("2026-11-10T15:00:00Z");
    w.raise("2026-11-12T15:00:00Z", "150");
    const found = priceChanges(w.db, { from: "2026-11-01", to: "2026-11-15", cityId: w.lima.id, timeZone: LIMA_TZ });
    expect([found.changedOffers, found.recipesChecked, found.rows]).toEqual([1, 2, []]);
  });
});

describe("dishCostHistory", () => {
  test("a point at the start and one at each change of a price the dish depends on", () => {
    const w = world();
    w.raise("2026-11-10T15:00:00Z");
    w.raise("2026-11-20T15:00:00Z", "175");
    const points = dishCostHistory(w.db, w.arrozConPollo.dishId, {
      cityId: w.lima.id,
      levelId: w.laborer,
      from: "2026-10-15",
      to: "2026-11-30",
      timeZone: LIMA_TZ,
    });
    expect(points).toEqual([
      { at: "2026-10-15T05:00:00.000Z", costCents: 230, complete: true },
      { at: "2026-11-10T15:00:00.000Z", costCents: 240, complete: true },
      { at: "2026-11-20T15:00:00.000Z", costCents: 235, complete: true },
    ]);
    // Before the offers existed the dish could not be priced.
    const early = dishCostHistory(w.db, w.arrozConPollo.dishId, {
      cityId: w.lima.id,
      levelId: w.laborer,
      from: "2026-09-20",
      to: "2026-10-05",
      timeZone: LIMA_TZ,
    });
    expect(early.map((p) => [p.costCents, p.complete])).toEqual([
      [0, false],
      [230, true],
    ]);
    expect(
      dishCostHistory(w.db, w.baked.dishId, {
        cityId: w.lima.id,
        levelId: w.laborer,
        from: "2026-10-01",
        to: "2026-11-30",
      }),
    ).toEqual([]);
  });
});

describe("priceChangeFilters", () => {
  test("the last 30 days in the city with offers by default; bad values fall back", () => {
    const w = world();
    const now = at("2026-11-24T03:00:00Z"); // 2026-11-23 in Lima
    expect(priceChangeFilters(w.db, {}, { timeZone: LIMA_TZ, now })).toEqual({
      from: "2026-10-24",
      to: "2026-11-23",
      cityId: w.lima.id,
      levelId: null,
    });
    expect(
      priceChangeFilters(
        w.db,
        { from: "2026-11-20", to: "2026-11-01", city: String(w.arequipa.id), level: String(w.staff) },
        { timeZone: LIMA_TZ, now },
      ),
    ).toEqual({ from: "2026-11-01", to: "2026-11-20", cityId: w.arequipa.id, levelId: w.staff });
    expect(
      priceChangeFilters(w.db, { from: "2026-02-30", city: "999", level: "x" }, { timeZone: LIMA_TZ, now }),
    ).toMatchObject({ from: "2026-10-24", cityId: w.lima.id, levelId: null });
    // The page's city when the query names none (or one that is not).
    expect(
      priceChangeFilters(w.db, { city: "999" }, { timeZone: LIMA_TZ, now, defaultCityId: w.arequipa.id }).cityId,
    ).toBe(w.arequipa.id);
    expect(priceChangeFilters(w.db, { from: "2020-01-01", to: "2026-11-23" }, { timeZone: LIMA_TZ, now }).from).toBe(
      "2025-11-22",
    );
  });
});
