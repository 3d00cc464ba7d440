/**
 * `./mesa dish:cost DISH [--level L] [--city C] [--json]`: the calculation popover's breakdown from the command line.
 * DISH, L and C by id or by name (case and accents ignored); the defaults (the dish's first level with a recipe, the
 * city where most of its ingredients have an offer); --json is the costing itself with the dish, level and city
 * named; the table is in the configured language; unknown names are usage mistakes (exit code 2).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { migrateDatabase, openDatabase } from "../../src/db";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createCategory } from "../../src/domain/food/categories";
import { createCity } from "../../src/domain/food/cities";
import { createIngredient } from "../../src/domain/food/ingredients";
import { createOffer } from "../../src/domain/food/offers";
import { createProvider } from "../../src/domain/food/providers";
import { cliWorkspace, mesaInProcess, workspaceFrom, type Workspace } from "../support/cli";

const AUTHOR = { userId: null, name: "Línea de comandos" };

let template = "";

/**
 * Lima sells chicken (1 cent a gram net: 118.00 with IGV for 10 kg) and oil (0.9 cents a ml); Arequipa only oil.
 * "Ají de gallina": Master 200 g chicken + 15 ml oil; Staff 100 g chicken. "Aderezo" (Master, yield 100 g) is used
 * by "Pollo con aderezo" (Master: 200 g chicken + 50 g Aderezo).
 */
beforeAll(async () => {
  const ws = cliWorkspace("mesa-dish-cost-template-", {}, "template.sqlite");
  const db = openDatabase(ws.dbPath);
  migrateDatabase(db);
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const arequipa = createCity(db, CLI_ACTOR, { name: "Arequipa", region: "Arequipa" });
  const category = createCategory(db, CLI_ACTOR, { name: "Varios" });
  const chicken = createIngredient(db, CLI_ACTOR, {
    name: "Pollo entero",
    category_id: category.id,
    base_unit: "g",
    kcal: 215,
    solid_waste: 30,
    liquid_waste: 5,
    protein: "18.2",
  });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite vegetal",
    category_id: category.id,
    base_unit: "ml",
    density: "0.92",
    kcal: 884,
    fat: 100,
  });
  const provider = createProvider(
    db,
    CLI_ACTOR,
    { name: "Distribuidora Andina", ruc: "20100934729" },
    { rucLength: 11 },
  );
  const offer = (
    ingredient: number,
    city: number,
    presentation: string,
    quantity: number,
    price: string,
    igv: boolean,
  ) =>
    createOffer(db, CLI_ACTOR, AUTHOR, {
      provider_id: provider.id,
      ingredient_id: ingredient,
      city_id: city,
      presentation,
      quantity,
      price,
      price_includes_igv: igv,
    });
  offer(chicken.id, lima.id, "Caja 10 kg", 10000, "118.00", true);
  offer(oil.id, lima.id, "Botella 1 L", 1000, "9.00", false);
  offer(oil.id, arequipa.id, "Botella 1 L", 1000, "10.00", false);
  const now = Date.now();
  const dish = (name: string) =>
    db.$client
      .query<{ id: number }, [string, number, number]>(
        "INSERT INTO dishes (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id",
      )
      .get(name, now, now)!.id;
  const recipe = (
    dishId: number,
    level: number,
    lines: [string, number, number][],
    yieldGrams: number | null = null,
  ) => {
    const id = db.$client
      .query<{ id: number }, [number, number, number | null, number]>(
        "INSERT INTO recipes (dish_id, level_id, yield_grams, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
      )
      .get(dishId, level, yieldGrams, now)!.id;
    lines.forEach(([column, ref, quantity], index) =>
      db.$client
        .query(`INSERT INTO recipe_lines (recipe_id, position, ${column}, quantity) VALUES (?, ?, ?, ?)`)
        .run(id, index + 1, ref, quantity),
    );
  };
  const aji = dish("Ají de gallina");
  recipe(aji, 1, [
    ["ingredient_id", chicken.id, 200],
    ["ingredient_id", oil.id, 15],
  ]);
  recipe(aji, 2, [["ingredient_id", chicken.id, 100]]);
  const aderezo = dish("Aderezo");
  recipe(aderezo, 1, [["ingredient_id", oil.id, 100]], 100);
  recipe(dish("Pollo con aderezo"), 1, [
    ["ingredient_id", chicken.id, 200],
    ["sub_dish_id", aderezo, 50],
  ]);
  dish("Sin receta");
  db.$client.close();
  template = ws.dbPath;
});

const workspace = (env: Record<string, string> = {}): Workspace => workspaceFrom(template, "mesa-dish-cost-", env);

describe("./mesa dish:cost", () => {
  test("--json: the breakdown of the dish's first level in the city with the most offers", async () => {
    const ws = workspace();
    const result = await mesaInProcess(ws, ["dish:cost", "aji de GALLINA", "--json"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    // Lima prices both lines (Arequipa only the oil), and Master comes first.
    expect(report.dish.name).toBe("Ají de gallina");
    expect(report.level).toEqual({ id: 1, name: "Master" });
    expect(report.city.name).toBe("Lima");
    expect(report.igvRate).toBe(1800);
    // Chicken: 200 g, 60 g solid and 10 g liquid waste, 130 g final, 279.5 kcal, 200 cents.
    // Oil: 15 ml × 0.92 = 13.8 g, 121.992 kcal, 13.5 cents. Dish: 213.8 g gross, 143.8 g final, 213.5 → 214 cents.
    const [chicken, oil] = report.lines;
    expect(chicken).toMatchObject({ name: "Pollo entero", grossG: 200, unit: "g", problem: null });
    expect(chicken.finalG).toBeCloseTo(130, 9);
    expect(chicken.kcal).toBeCloseTo(279.5, 9);
    expect(chicken.nutrients.protein).toBeCloseTo(23.66, 9);
    expect(chicken.costCents).toBeCloseTo(200, 9);
    expect(chicken.offer).toMatchObject({ providerName: "Distribuidora Andina", presentation: "Caja 10 kg" });
    expect(oil.grossG).toBeCloseTo(13.8, 9);
    expect(oil.costCents).toBeCloseTo(13.5, 9);
    expect(report.totals).toMatchObject({ costCents: 214, complete: true });
    expect(report.totals.grossG).toBeCloseTo(213.8, 9);
    expect(report.totals.finalG).toBeCloseTo(143.8, 9);
    expect(report.totals.kcal).toBeCloseTo(401.492, 9);
    expect(chicken.shares.costCents).toBeCloseTo(200 / 213.5, 12);
    expect(chicken.shares.grossG + oil.shares.grossG).toBeCloseTo(1, 12);
  });

  test("level and city by name or id; a line without an offer is flagged and the cost incomplete", async () => {
    const ws = workspace();
    const staff = JSON.parse(
      (await mesaInProcess(ws, ["dish:cost", "Ají de gallina", "--level", "staff", "--json"])).out,
    );
    expect(staff.level.name).toBe("Staff");
    expect(staff.totals.costCents).toBe(100);
    const result = await mesaInProcess(ws, ["dish:cost", "1", "--level", "1", "--city", "arequipa", "--json"]);
    expect(result.code).toBe(0);
    const there = JSON.parse(result.out);
    expect(there.city.name).toBe("Arequipa");
    // No chicken in Arequipa: flagged, null; the oil at 1 cent a ml: 15 cents.
    expect(there.lines[0]).toMatchObject({ problem: "no_offer", costCents: null });
    expect(there.totals).toMatchObject({ costCents: 15, complete: false });
  });

  test("a sub-recipe line, and the table in the configured language", async () => {
    const ws = workspace();
    const json = JSON.parse((await mesaInProcess(ws, ["dish:cost", "Pollo con aderezo", "--json"])).out);
    // Aderezo: 100 ml of oil (90 cents) yields 100 g; 50 g of it is half: 45 cents; 200 + 45 = 245.
    expect(json.lines[1]).toMatchObject({ kind: "dish", name: "Aderezo", grossG: 50, finalG: 50 });
    expect(json.lines[1].costCents).toBeCloseTo(45, 9);
    expect(json.totals.costCents).toBe(245);

    const english = await mesaInProcess(ws, ["dish:cost", "Pollo con aderezo"]);
    expect(english.code).toBe(0);
    expect(english.out).toContain("Pollo con aderezo — level Master — prices in Lima");
    expect(english.out).toContain("Gross (g)");
    expect(english.out).toContain("sub-recipe");
    expect(english.out).toMatch(/Dish\s+250\.0\s+60\.0\s+10\.0\s+180\.0/);
    expect(english.out).toMatch(/Cost: S\/\s2\.45, net of IGV \(18 %\)/);
    expect(english.out).toContain("Total fat");

    const spanish = await mesaInProcess(ws, ["dish:cost", "Ají de gallina", "--city", "Arequipa"], {
      env: { APP_LOCALE: "es" },
    });
    expect(spanish.code).toBe(0);
    expect(spanish.out).toContain("Ají de gallina — nivel Master — precios en Arequipa");
    expect(spanish.out).toContain("Sin oferta en esta ciudad");
    expect(spanish.out).toContain("1 línea no tiene precio en Arequipa: el costo está incompleto.");
  });

  test("unknown or ambiguous names are usage mistakes; a dish without a recipe says so", async () => {
    const ws = workspace();
    const unknown = await mesaInProcess(ws, ["dish:cost", "Lomo saltado"]);
    expect(unknown).toMatchObject({ code: 2, out: "" });
    expect(unknown.err).toContain("No dish is called Lomo saltado.");
    const ambiguous = await mesaInProcess(ws, ["dish:cost", "de"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain("Several dishes match de:");
    expect((await mesaInProcess(ws, ["dish:cost", "Aderezo", "--city", "Cusco"])).err).toContain(
      "No city is called Cusco.",
    );
    const none = await mesaInProcess(ws, ["dish:cost", "Sin receta"]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("Sin receta has no recipe yet.");
    const level = await mesaInProcess(ws, ["dish:cost", "Aderezo", "--level", "Laborer"]);
    expect(level.code).toBe(1);
    expect(level.err).toContain("Aderezo has no recipe for the level Laborer.");
  });
});
