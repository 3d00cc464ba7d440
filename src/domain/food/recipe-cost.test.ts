/**
 * The costing and nutrition arithmetic of recipe-cost.ts against examples worked out by hand (each written out in a
 * comment before its expectations), and a property over random recipes: whatever the lines, the totals add the
 * lines, the cost is their unrounded sum rounded once, the shares add up to one, and a draft costs as a saved recipe.
 *
 * The IGV rate is 18 % (1800 basis points) throughout. Lima has the offers; Arequipa has one offer of culantro only.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { createCategory } from "./categories";
import { createCity } from "./cities";
import { createIngredient } from "./ingredients";
import { createOffer, updateOffer } from "./offers";
import { createProvider } from "./providers";
import { costDish, costDraft, costRecipes, ingredientNeeds, type CostedRecipe } from "./recipe-cost";

const IGV = 1800;
const AUTHOR = { userId: null, name: "Línea de comandos" };
const T0 = new Date("2026-09-01T12:00:00Z");
const T1 = new Date("2026-10-01T12:00:00Z");
const MASTER = 1;
const STAFF = 2;

function world() {
  const db = migratedDatabase();
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const arequipa = createCity(db, CLI_ACTOR, { name: "Arequipa", region: "Arequipa" });
  const category = createCategory(db, CLI_ACTOR, { name: "Varios" });
  const ingredient = (input: Record<string, unknown>) =>
    createIngredient(db, CLI_ACTOR, { category_id: category.id, ...input });
  // Chicken: 30 % solid waste (bones), 5 % liquid (thawing); per 100 g: 215 kcal, 18.2 g protein, 15 g fat.
  const chicken = ingredient({
    name: "Pollo entero",
    base_unit: "g",
    kcal: 215,
    solid_waste: 30,
    liquid_waste: 5,
    protein: "18.2",
    fat: 15,
  });
  // Oil, measured in millilitres, 0.92 g per ml; per 100 g: 884 kcal, 100 g fat.
  const oil = ingredient({ name: "Aceite vegetal", base_unit: "ml", density: "0.92", kcal: 884, fat: 100 });
  // Egg, counted in units of 50 g, 12 % shell; per 100 g: 143 kcal.
  const egg = ingredient({ name: "Huevo", base_unit: "unit", unit_weight_g: 50, kcal: 143, solid_waste: 12 });
  // Rice: 358 kcal per 100 g.
  const rice = ingredient({ name: "Arroz", base_unit: "g", kcal: 358 });
  // Culantro: sold in Arequipa only.
  const culantro = ingredient({ name: "Culantro", base_unit: "g", kcal: 23 });

  const andina = createProvider(db, CLI_ACTOR, { name: "Distribuidora Andina", ruc: "20100934729" }, { rucLength: 11 });
  const mercado = createProvider(db, CLI_ACTOR, { name: "Mercado Mayorista", ruc: "20551673911" }, { rucLength: 11 });
  const offer = (provider: number, ingredientId: number, city: number, fields: Record<string, unknown>) =>
    createOffer(
      db,
      CLI_ACTOR,
      AUTHOR,
      { provider_id: provider, ingredient_id: ingredientId, city_id: city, ...fields },
      T0,
    );
  // 118.00 with IGV for 10 kg: 100.00 net, 1 cent a gram.
  const chickenBox = offer(andina.id, chicken.id, lima.id, {
    presentation: "Caja 10 kg",
    quantity: 10000,
    price: "118.00",
    price_includes_igv: true,
  });
  // 12.00 without IGV for 1 kg: 1.2 cents a gram (dearer, so never chosen unless pinned).
  const chickenKilo = offer(mercado.id, chicken.id, lima.id, {
    presentation: "Kilo",
    quantity: 1000,
    price: "12.00",
    price_includes_igv: false,
  });
  // 9.00 without IGV for a litre: 0.9 cents a millilitre.
  const oilBottle = offer(andina.id, oil.id, lima.id, {
    presentation: "Botella 1 L",
    quantity: 1000,
    price: "9.00",
    price_includes_igv: false,
  });
  // 15.00 without IGV for 30 eggs: 50 cents an egg.
  const eggTray = offer(andina.id, egg.id, lima.id, {
    presentation: "Bandeja 30",
    quantity: 30,
    price: "15.00",
    price_includes_igv: false,
  });
  // 177.00 with IGV for 50 kg: 150.00 net, 0.3 cents a gram.
  const riceSack = offer(mercado.id, rice.id, lima.id, {
    presentation: "Saco 50 kg",
    quantity: 50000,
    price: "177.00",
    price_includes_igv: true,
  });
  const culantroBunch = offer(mercado.id, culantro.id, arequipa.id, {
    presentation: "Atado 100 g",
    quantity: 100,
    price: "1.00",
    price_includes_igv: false,
  });
  return {
    db,
    lima,
    arequipa,
    chicken,
    oil,
    egg,
    rice,
    culantro,
    chickenBox,
    chickenKilo,
    oilBottle,
    eggTray,
    riceSack,
    culantroBunch,
  };
}

type World = ReturnType<typeof world>;
type Line = { ingredientId?: number; subDishId?: number; quantity: number; offerId?: number };

/** A dish, named, and its recipes (the schema's tables written directly: the dishes module has its own tests). */
function dish(db: Db, name: string): number {
  const now = Date.now();
  const row = db.$client
    .query<{ id: number }, [string, number, number]>(
      "INSERT INTO dishes (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id",
    )
    .get(name, now, now);
  return row!.id;
}

function recipe(db: Db, dishId: number, levelId: number, lines: Line[], yieldGrams: number | null = null): number {
  const row = db.$client
    .query<{ id: number }, [number, number, number | null, number]>(
      "INSERT INTO recipes (dish_id, level_id, yield_grams, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
    )
    .get(dishId, levelId, yieldGrams, Date.now());
  lines.forEach((line, index) =>
    db.$client
      .query(
        "INSERT INTO recipe_lines (recipe_id, position, ingredient_id, sub_dish_id, quantity, offer_id) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(row!.id, index + 1, line.ingredientId ?? null, line.subDishId ?? null, line.quantity, line.offerId ?? null),
  );
  return row!.id;
}

function costed(w: World, recipeId: number, opts: { asOf?: Date; cityId?: number } = {}): CostedRecipe {
  const result = costRecipes(w.db, [recipeId], { cityId: opts.cityId ?? w.lima.id, igvRate: IGV, asOf: opts.asOf });
  const costedRecipe = result.get(recipeId);
  if (!costedRecipe) throw new Error(`recipe ${recipeId} not costed`);
  return costedRecipe;
}

describe("a line of an ingredient", () => {
  test("waste: 200 g of chicken", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Pollo al horno"), MASTER, [{ ingredientId: w.chicken.id, quantity: 200 }]);
    // gross 200 g; solid 200 × 30 % = 60 g; liquid 200 × 5 % = 10 g; final 200 − 60 − 10 = 130 g;
    // kcal 130 × 215 ÷ 100 = 279.5; protein 130 × 18.2 ÷ 100 = 23.66 g; fat 130 × 15 ÷ 100 = 19.5 g; water unknown;
    // cost: the cheapest offer is the 10 kg box, 118.00 with IGV ÷ 1.18 = 100.00 net ÷ 10,000 g = 1 cent a gram,
    // so 200 × 1 = 200 cents; its kilogram costs 1000 cents.
    const r = costed(w, id);
    const [line] = r.lines;
    expect(line.grossG).toBe(200);
    expect(line.solidWasteG).toBeCloseTo(60, 9);
    expect(line.liquidWasteG).toBeCloseTo(10, 9);
    expect(line.finalG).toBeCloseTo(130, 9);
    expect(line.kcal).toBeCloseTo(279.5, 9);
    expect(line.nutrients.protein).toBeCloseTo(23.66, 9);
    expect(line.nutrients.fat).toBeCloseTo(19.5, 9);
    expect(line.nutrients.water).toBeNull();
    expect(line.costCents).toBeCloseTo(200, 9);
    expect(line.offer).toMatchObject({
      id: w.chickenBox.id,
      providerName: "Distribuidora Andina",
      presentation: "Caja 10 kg",
      pinned: false,
      costPerReferenceCents: 1000,
    });
    expect(line.offer!.costPerBaseUnitCents).toBeCloseTo(1, 12);
    expect(line).toMatchObject({ kind: "ingredient", name: "Pollo entero", quantity: 200, unit: "g", problem: null });
    expect(r.totals).toMatchObject({ costCents: 200, complete: true });
    expect(r.yieldG).toBeCloseTo(130, 9);
    expect(line.shares).toEqual({ grossG: 1, finalG: 1, kcal: 1, costCents: 1 });
  });

  test("millilitres through the density: 15 ml of oil", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Aliño"), MASTER, [{ ingredientId: w.oil.id, quantity: 15 }]);
    // gross 15 ml × 0.92 g/ml = 13.8 g, no waste: final 13.8 g; kcal 13.8 × 884 ÷ 100 = 121.992; fat 13.8 g;
    // cost 15 ml × 0.9 cents = 13.5 cents (priced by the millilitre, the base unit), total rounded once: 14.
    const [line] = costed(w, id).lines;
    expect(line.grossG).toBeCloseTo(13.8, 9);
    expect(line.finalG).toBeCloseTo(13.8, 9);
    expect(line.kcal).toBeCloseTo(121.992, 9);
    expect(line.nutrients.fat).toBeCloseTo(13.8, 9);
    expect(line.costCents).toBeCloseTo(13.5, 9);
    expect(line.unit).toBe("ml");
    expect(line.offer!.costPerReferenceCents).toBe(900);
    expect(costed(w, id).totals.costCents).toBe(14);
  });

  test("a unit through its weight: 2 eggs", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Huevos duros"), MASTER, [{ ingredientId: w.egg.id, quantity: 2 }]);
    // gross 2 × 50 g = 100 g; shell 12 % = 12 g; final 88 g; kcal 88 × 143 ÷ 100 = 125.84;
    // cost 2 eggs × (15.00 ÷ 30 = 50 cents) = 100 cents; the reference is one unit: 50 cents.
    const r = costed(w, id);
    const [line] = r.lines;
    expect(line.grossG).toBe(100);
    expect(line.solidWasteG).toBeCloseTo(12, 9);
    expect(line.finalG).toBeCloseTo(88, 9);
    expect(line.kcal).toBeCloseTo(125.84, 9);
    expect(line.costCents).toBeCloseTo(100, 9);
    expect(line.offer!.costPerReferenceCents).toBe(50);
    expect(r.totals.costCents).toBe(100);
  });

  test("IGV comes out of a price that includes it, and money is rounded once, on the total", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Arroz blanco"), MASTER, [
      { ingredientId: w.rice.id, quantity: 5 },
      { ingredientId: w.rice.id, quantity: 5 },
    ]);
    // The sack: 177.00 with IGV ÷ 1.18 = 150.00 net, ÷ 50,000 g = 0.3 cents a gram (a kilogram: 300 cents).
    // Each line: 5 g × 0.3 = 1.5 cents. Rounding each line would give 2 + 2 = 4 cents; the total of the unrounded
    // lines is 3.0, rounded once: 3 cents. Each line is half of the cost.
    const r = costed(w, id);
    expect(r.lines.map((l) => l.costCents)).toEqual([expect.closeTo(1.5, 9), expect.closeTo(1.5, 9)]);
    expect(r.lines[0].offer!.costPerReferenceCents).toBe(300);
    expect(r.totals.costCents).toBe(3);
    expect(r.lines.map((l) => l.shares.costCents)).toEqual([expect.closeTo(0.5, 9), expect.closeTo(0.5, 9)]);
  });

  test("a line without an offer in the city is flagged, unpriced, and the total is incomplete, never zero", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Pollo con culantro"), MASTER, [
      { ingredientId: w.chicken.id, quantity: 200 },
      { ingredientId: w.culantro.id, quantity: 10 },
    ]);
    // Lima has no culantro: that line's cost is null (not 0), flagged no_offer; the total, 200 cents, is the
    // chicken's alone and marked incomplete; the culantro's weight and kcal still count (10 g, 2.3 kcal).
    const r = costed(w, id);
    expect(r.lines[1]).toMatchObject({ problem: "no_offer", costCents: null, offer: null, grossG: 10 });
    expect(r.lines[1].kcal).toBeCloseTo(2.3, 9);
    expect(r.lines[1].shares.costCents).toBeNull();
    expect(r.totals).toMatchObject({ costCents: 200, complete: false });
    expect(r.totals.grossG).toBe(210);
    // In Arequipa it is the other way round: 10 g × 1 cent = 10 cents, and the chicken has no offer.
    const there = costed(w, id, { cityId: w.arequipa.id });
    expect(there.lines.map((l) => l.problem)).toEqual(["no_offer", null]);
    expect(there.totals).toMatchObject({ costCents: 10, complete: false });
  });
});

describe("the offer a line uses", () => {
  test("a pinned offer is used even when another is cheaper", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Pollo a la brasa"), MASTER, [
      { ingredientId: w.chicken.id, quantity: 200, offerId: w.chickenKilo.id },
    ]);
    // The kilo costs 12.00 without IGV: 1.2 cents a gram; 200 g × 1.2 = 240 cents.
    const [line] = costed(w, id).lines;
    expect(line.offer).toMatchObject({ id: w.chickenKilo.id, pinned: true, presentation: "Kilo" });
    expect(line.costCents).toBeCloseTo(240, 9);
    expect(line.problem).toBeNull();
  });

  test("a pinned offer withdrawn gives way to the cheapest current offer, flagged", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Pollo a la brasa"), MASTER, [
      { ingredientId: w.chicken.id, quantity: 200, offerId: w.chickenKilo.id },
    ]);
    updateOffer(w.db, CLI_ACTOR, AUTHOR, w.chickenKilo.id, {
      presentation: "Kilo",
      quantity: 1000,
      price: "12.00",
      price_includes_igv: false,
      active: false,
    });
    // The box, at 1 cent a gram: 200 cents; the line says its pin could not be used.
    const [line] = costed(w, id).lines;
    expect(line.offer).toMatchObject({ id: w.chickenBox.id, pinned: false });
    expect(line.costCents).toBeCloseTo(200, 9);
    expect(line.problem).toBe("pinned_offer_unavailable");
    // A pinned offer of another city is unavailable too: in Arequipa there is no chicken at all.
    expect(costed(w, id, { cityId: w.arequipa.id }).lines[0]).toMatchObject({ problem: "no_offer", costCents: null });
  });

  test("equal costs go to the most recent price, even when the arithmetic differs in the last bit", () => {
    const w = world();
    const offer = (presentation: string, quantity: number, price: string, at: Date) =>
      createOffer(
        w.db,
        CLI_ACTOR,
        AUTHOR,
        {
          provider_id: w.chickenBox.providerId,
          ingredient_id: w.culantro.id,
          city_id: w.lima.id,
          presentation,
          quantity,
          price,
          price_includes_igv: true,
        },
        at,
      );
    // 10.01 with IGV a kilo and 30.03 with IGV for 3 kg: both 1001 ÷ 1.18 ÷ 1000 = 0.848305… cents a gram, though the
    // second's float comes out one bit higher. The newer price wins the tie, as on the Logistics page.
    offer("Kilo", 1000, "10.01", T0);
    const bag = offer("Bolsa 3 kg", 3000, "30.03", T1);
    const id = recipe(w.db, dish(w.db, "Culantro picado"), MASTER, [{ ingredientId: w.culantro.id, quantity: 100 }]);
    const [line] = costed(w, id).lines;
    expect(line.offer!.id).toBe(bag.id);
    expect(line.costCents).toBeCloseTo((100 * 1001) / 1.18 / 1000, 9);
  });

  test("asOf: the prices in effect before a change", () => {
    const w = world();
    const id = recipe(w.db, dish(w.db, "Pollo al horno"), MASTER, [{ ingredientId: w.chicken.id, quantity: 200 }]);
    // On T1 the box goes up to 153.40 with IGV: 130.00 net, 1.3 cents a gram, dearer than the kilo (1.2).
    updateOffer(
      w.db,
      CLI_ACTOR,
      AUTHOR,
      w.chickenBox.id,
      { presentation: "Caja 10 kg", quantity: 10000, price: "153.40", price_includes_igv: true },
      T1,
    );
    // Now: the kilo is cheapest, 200 × 1.2 = 240 cents.
    expect(costed(w, id).lines[0].offer!.id).toBe(w.chickenKilo.id);
    expect(costed(w, id).totals.costCents).toBe(240);
    // A day before T1: the box at its old price, 200 × 1 = 200 cents.
    const before = costed(w, id, { asOf: new Date(T1.getTime() - 86_400_000) });
    expect(before.lines[0].offer!.id).toBe(w.chickenBox.id);
    expect(before.totals.costCents).toBe(200);
    // Before any offer existed: no offer.
    const earlier = costed(w, id, { asOf: new Date(T0.getTime() - 1) });
    expect(earlier.lines[0].problem).toBe("no_offer");
    // An offer withdrawn after a moment was current at that moment.
    updateOffer(w.db, CLI_ACTOR, AUTHOR, w.chickenKilo.id, {
      presentation: "Kilo",
      quantity: 1000,
      price: "12.00",
      price_includes_igv: false,
      active: false,
    });
    expect(costed(w, id, { asOf: new Date(T1.getTime() + 1000) }).lines[0].offer!.id).toBe(w.chickenKilo.id);
    expect(costed(w, id).lines[0].offer!.id).toBe(w.chickenBox.id);
  });
});

describe("a sub-recipe", () => {
  /** A dressing made by the batch: 100 ml of oil and 2 eggs, yielding 300 g. */
  function dressing(w: World, yieldGrams: number | null) {
    const id = dish(w.db, "Aderezo");
    recipe(
      w.db,
      id,
      MASTER,
      [
        { ingredientId: w.oil.id, quantity: 100 },
        { ingredientId: w.egg.id, quantity: 2 },
      ],
      yieldGrams,
    );
    return id;
  }

  test("with its yield: 60 g of a dressing that yields 300 g", () => {
    const w = world();
    const sub = dressing(w, 300);
    const main = recipe(w.db, dish(w.db, "Pollo con aderezo"), MASTER, [
      { ingredientId: w.chicken.id, quantity: 200 },
      { subDishId: sub, quantity: 60 },
    ]);
    // The dressing: oil 100 ml = 92 g, 813.28 kcal, 92 g fat, 90 cents; eggs 100 g gross, 88 g final, 125.84 kcal,
    // 100 cents. Totals 192 g gross, 180 g final, 939.12 kcal, 92 g fat, 190 cents; yield 300 g.
    // The line: factor 60 ÷ 300 = 0.2; gross = final = 60 g (no waste of its own); kcal 939.12 × 0.2 = 187.824;
    // fat 92 × 0.2 = 18.4 g; protein: the oil and eggs have none recorded, so null; cost 190 × 0.2 = 38 cents.
    // The dish: gross 200 + 60 = 260 g; final 130 + 60 = 190 g; kcal 279.5 + 187.824 = 467.324;
    // fat 19.5 + 18.4 = 37.9 g; protein 23.66 (the chicken's; the line without it adds nothing);
    // cost 200 + 38 = 238 cents; the dressing's share of the cost 38 ÷ 238, of the gross 60 ÷ 260.
    const r = costed(w, main);
    const line = r.lines[1];
    expect(line).toMatchObject({
      kind: "dish",
      subDishId: sub,
      name: "Aderezo",
      unit: "g",
      offer: null,
      problem: null,
    });
    expect(line.grossG).toBe(60);
    expect(line.finalG).toBe(60);
    expect(line.solidWasteG + line.liquidWasteG).toBe(0);
    expect(line.kcal).toBeCloseTo(187.824, 9);
    expect(line.nutrients.fat).toBeCloseTo(18.4, 9);
    expect(line.nutrients.protein).toBeNull();
    expect(line.costCents).toBeCloseTo(38, 9);
    expect(r.totals.grossG).toBe(260);
    expect(r.totals.finalG).toBeCloseTo(190, 9);
    expect(r.totals.kcal).toBeCloseTo(467.324, 9);
    expect(r.totals.nutrients.fat).toBeCloseTo(37.9, 9);
    expect(r.totals.nutrients.protein).toBeCloseTo(23.66, 9);
    expect(r.totals.nutrients.water).toBeNull();
    expect(r.totals).toMatchObject({ costCents: 238, complete: true });
    expect(line.shares.costCents).toBeCloseTo(38 / 238, 12);
    expect(line.shares.grossG).toBeCloseTo(60 / 260, 12);
    expect(r.lines[0].shares.finalG + line.shares.finalG).toBeCloseTo(1, 12);
  });

  test("without a yield it yields its final product; another level falls back to the dish's first level", () => {
    const w = world();
    const sub = dressing(w, null);
    // The dressing yields its final product, 180 g; 45 g of it is a factor of 0.25: 939.12 × 0.25 = 234.78 kcal
    // and 190 × 0.25 = 47.5 cents, rounded once: 48. The Staff recipe uses the dressing's Master recipe (it has
    // no Staff one).
    const main = recipe(w.db, dish(w.db, "Ensalada"), STAFF, [{ subDishId: sub, quantity: 45 }]);
    const r = costed(w, main);
    expect(r.lines[0].kcal).toBeCloseTo(234.78, 9);
    expect(r.lines[0].costCents).toBeCloseTo(47.5, 9);
    expect(r.totals.costCents).toBe(48);
    expect(r.levelId).toBe(STAFF);
  });

  test("what to buy: sub-recipes flattened and scaled", () => {
    const w = world();
    const sub = dressing(w, 300);
    const main = recipe(w.db, dish(w.db, "Pollo con aderezo"), MASTER, [
      { ingredientId: w.chicken.id, quantity: 200 },
      { subDishId: sub, quantity: 60 },
      { ingredientId: w.egg.id, quantity: 1 },
    ]);
    // 200 g of chicken; the dressing at 0.2: 20 ml of oil and 0.4 eggs, plus the recipe's own egg: 1.4 eggs.
    const needs = ingredientNeeds(w.db, [main], { cityId: w.lima.id, igvRate: IGV }).get(main)!;
    const byIngredient = Object.fromEntries(needs.map((n) => [n.ingredientId, n]));
    expect(needs).toHaveLength(3);
    expect(byIngredient[w.chicken.id]).toEqual({
      ingredientId: w.chicken.id,
      grossQuantity: 200,
      offerId: w.chickenBox.id,
    });
    expect(byIngredient[w.oil.id].grossQuantity).toBeCloseTo(20, 9);
    expect(byIngredient[w.oil.id].offerId).toBe(w.oilBottle.id);
    expect(byIngredient[w.egg.id].grossQuantity).toBeCloseTo(1.4, 9);
  });

  test("a dish without a recipe, and a dish inside itself, are flagged", () => {
    const w = world();
    const empty = dish(w.db, "Sin receta");
    const a = dish(w.db, "Plato A");
    const b = dish(w.db, "Plato B");
    const ra = recipe(w.db, a, MASTER, [
      { ingredientId: w.rice.id, quantity: 100 },
      { subDishId: b, quantity: 50 },
    ]);
    const rb = recipe(w.db, b, MASTER, [
      { ingredientId: w.rice.id, quantity: 100 },
      { subDishId: a, quantity: 10 },
    ]);
    const rc = recipe(w.db, dish(w.db, "Plato C"), MASTER, [
      { ingredientId: w.rice.id, quantity: 100 },
      { subDishId: empty, quantity: 20 },
    ]);
    // C: the empty dish's line counts its 20 g but has no cost; rice 100 × 0.3 = 30 cents, incomplete.
    const c = costed(w, rc);
    expect(c.lines[1]).toMatchObject({ problem: "no_sub_recipe", costCents: null, grossG: 20, name: "Sin receta" });
    expect(c.totals).toMatchObject({ costCents: 30, complete: false });
    // A uses B, which uses A: B's line of A is the cycle, and A's line of B carries it, unpriced.
    const r = costed(w, ra);
    expect(r.lines[1]).toMatchObject({ problem: "cycle", costCents: null });
    expect(r.totals).toMatchObject({ costCents: 30, complete: false });
    // The costing ends, the same from either side, and A and B costed together agree with each alone.
    const both = costRecipes(w.db, [ra, rb], { cityId: w.lima.id, igvRate: IGV });
    expect(both.get(ra)).toEqual(r);
    expect(both.get(rb)!.lines[1].problem).toBe("cycle");
  });
});

describe("the dish and the draft", () => {
  test("costDish takes the first level with a recipe, or the level asked for", () => {
    const w = world();
    const id = dish(w.db, "Arroz con huevo");
    recipe(w.db, id, STAFF, [{ ingredientId: w.rice.id, quantity: 100 }]);
    recipe(w.db, id, 4, [{ ingredientId: w.rice.id, quantity: 200 }]);
    const opts = { cityId: w.lima.id, igvRate: IGV };
    expect(costDish(w.db, id, opts)).toMatchObject({ levelId: STAFF, dishId: id, totals: { costCents: 30 } });
    expect(costDish(w.db, id, { ...opts, levelId: 4 })).toMatchObject({ levelId: 4, totals: { costCents: 60 } });
    expect(costDish(w.db, id, { ...opts, levelId: MASTER })).toBeNull();
  });

  test("a draft costs as the same recipe saved", () => {
    const w = world();
    const lines: Line[] = [
      { ingredientId: w.chicken.id, quantity: 180, offerId: w.chickenKilo.id },
      { ingredientId: w.oil.id, quantity: 12 },
      { ingredientId: w.culantro.id, quantity: 5 },
    ];
    const saved = costed(w, recipe(w.db, dish(w.db, "Pollo"), MASTER, lines, 250));
    const draft = costDraft(w.db, { levelId: MASTER, yieldGrams: 250, lines }, { cityId: w.lima.id, igvRate: IGV });
    const strip = (r: CostedRecipe) => ({
      ...r,
      recipeId: null,
      dishId: null,
      lines: r.lines.map((l) => ({ ...l, lineId: null })),
    });
    expect(draft).toEqual(strip(saved));
    expect(draft.yieldG).toBe(250);
  });
});

describe("whatever the lines", () => {
  test("the totals add the lines, the cost is rounded once and the shares add up to one", () => {
    const w = world();
    const ingredients = [w.chicken, w.oil, w.egg, w.rice, w.culantro].map((i) => i.id);
    const line = fc.record({
      ingredientId: fc.constantFrom(...ingredients),
      quantity: fc.double({ min: 0.01, max: 5000, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 15 }), (lines) => {
        const r = costDraft(w.db, { levelId: MASTER, lines }, { cityId: w.lima.id, igvRate: IGV });
        const sum = (f: (l: (typeof r.lines)[number]) => number) => r.lines.reduce((s, l) => s + f(l), 0);
        const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
        for (const l of r.lines) {
          if (!near(l.finalG, l.grossG - l.solidWasteG - l.liquidWasteG)) return false;
          if (l.finalG < 0 || l.finalG > l.grossG) return false;
        }
        const exact = sum((l) => l.costCents ?? 0);
        const priced = r.lines.filter((l) => l.costCents !== null);
        return (
          near(
            r.totals.grossG,
            sum((l) => l.grossG),
          ) &&
          near(
            r.totals.finalG,
            sum((l) => l.finalG),
          ) &&
          near(
            r.totals.kcal,
            sum((l) => l.kcal),
          ) &&
          r.totals.costCents === Math.round(exact) &&
          r.totals.complete === (priced.length === r.lines.length) &&
          r.lines.every((l) => (l.problem === "no_offer") === (l.costCents === null)) &&
          near(
            sum((l) => l.shares.grossG),
            1,
          ) &&
          (exact === 0 ||
            near(
              sum((l) => l.shares.costCents ?? 0),
              1,
            ))
        );
      }),
      { numRuns: 200 },
    );
  });
});
