/**
 * The Food page through the app: who may see and change dishes (company-wide permissions count only from a
 * headquarters area), the dishes table costed for a chosen city and level with its flags and export, the dish
 * modal's save (a dish with its recipes in one request, all or nothing), the live totals of a draft (bounded and
 * rate-limited), a dish's recipes costed for the popover, and deletes refused while a dish is used.
 *
 * The world: Catering X with Sede Lima (in Lima); Comedor A in Lima too. "Nora Nutri" is a nutritionist at Sede
 * Lima; "Carla Cafe" holds food.view and food.manage in Comedor A's area, where they grant nothing.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { auditLog, dishCategories, dishes, headquarters, levels, recipes } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { ensureStartingRole, STARTING_ROLES } from "../../src/domain/access/starting-roles";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createCategory } from "../../src/domain/food/categories";
import { createCity } from "../../src/domain/food/cities";
import { createDish } from "../../src/domain/food/dishes";
import { createIngredient } from "../../src/domain/food/ingredients";
import { createOffer } from "../../src/domain/food/offers";
import { createProvider } from "../../src/domain/food/providers";
import { saveRecipe } from "../../src/domain/food/recipes";
import { DISH_COST_LIMIT } from "../../src/http/routes/food";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { createTestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submit, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

async function buildWorld() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede Lima");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const arequipa = createCity(db, CLI_ACTOR, { name: "Arequipa", region: "Arequipa" });
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  db.update(headquarters).set({ cityId: lima.id }).where(eq(headquarters.id, x.headquartersId)).run();
  const nutritionist = findRoleByName(db, "nutritionist")!.id;
  const cook = makeRole(db, "food in a cafe", ["food.view", "food.manage"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Nutrición",
    headquarters_id: x.headquartersId,
    role_ids: [nutritionist],
  }).id;
  const cocina = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Cocina A", cafe_id: cafeA, role_ids: [cook] }).id;
  const people = {
    nora: await addUser(db, "Nora Nutri", "nora@mesa.test"),
    carla: await addUser(db, "Carla Cafe", "carla@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.nora.id, areaId: sede, roleId: nutritionist });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.carla.id, areaId: cocina, roleId: cook });

  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: cereals.id,
    base_unit: "g",
    kcal: 358,
  });
  const egg = createIngredient(db, CLI_ACTOR, {
    name: "Huevo de gallina",
    category_id: cereals.id,
    base_unit: "unit",
    unit_weight_g: 50,
    kcal: 143,
  });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite vegetal",
    category_id: cereals.id,
    base_unit: "ml",
    density: 0.92,
    kcal: 884,
  });
  const andina = createProvider(db, CLI_ACTOR, { name: "Distribuidora Andina", ruc: "20501234568" }, { rucLength: 11 });
  const offer = (values: Record<string, unknown>) =>
    createOffer(
      db,
      CLI_ACTOR,
      { userId: null, name: "" },
      { provider_id: andina.id, price_includes_igv: false, ...values },
    );
  // Lima: rice S/ 3.00 a kg, eggs S/ 0.50 each; Arequipa: rice only. No oil anywhere.
  offer({ ingredient_id: rice.id, city_id: lima.id, presentation: "Saco 50 kg", quantity: 50000, price: "150" });
  const eggs = offer({ ingredient_id: egg.id, city_id: lima.id, presentation: "Jaba 30", quantity: 30, price: "15" });
  offer({ ingredient_id: rice.id, city_id: arequipa.id, presentation: "Saco 50 kg", quantity: 50000, price: "200" });
  const byName = new Map(
    db
      .select()
      .from(levels)
      .all()
      .map((l) => [l.name, l.id]),
  );
  const master = byName.get("Master")!;
  const laborer = byName.get("Laborer")!;
  const [segundo, entrada] = db
    .insert(dishCategories)
    .values([
      { name: "Segundo", sortOrder: 2 },
      { name: "Entrada", sortOrder: 1 },
    ])
    .returning()
    .all();
  const tortilla = createDish(db, CLI_ACTOR, { name: "Tortilla de arroz", category_ids: [segundo.id] });
  saveRecipe(db, CLI_ACTOR, tortilla.id, master, {
    lines: [
      { ingredient_id: rice.id, quantity: 100 },
      { ingredient_id: egg.id, quantity: 2 },
      { ingredient_id: oil.id, quantity: 10 },
    ],
  });
  return { app, db, x, lima, arequipa, people, rice, egg, oil, eggs, master, laborer, segundo, entrada, tortilla };
}

describe("who may do what", () => {
  test("the nutritionist sees and changes dishes; food permissions held in a cafe area grant nothing", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const page = await visitPage(nora, "/food");
    expect(page.component).toBe("food/index");
    expect(page.props.can).toEqual({ manage: true });
    expect(page.props.tabs.map((t: any) => t.id)).toEqual(["food", "ingredients", "providers", "logistics"]);
    expect(page.props.navigation.map((n: any) => n.route)).toContain("food.index");

    const carla = await signedIn(w, w.people.carla);
    for (const path of ["/food", "/food/dishes/export", `/food/dishes/${w.tortilla.id}`])
      expect({ path, status: (await carla.get(path)).status }).toEqual({ path, status: 403 });
    const writes: [string, string, unknown][] = [
      ["POST", "/food/dishes", { name: "Causa", category_ids: [w.entrada.id] }],
      ["PATCH", `/food/dishes/${w.tortilla.id}`, { name: "Otra", category_ids: [w.entrada.id] }],
      ["DELETE", `/food/dishes/${w.tortilla.id}`, {}],
      [
        "PUT",
        `/food/dishes/${w.tortilla.id}/recipes/${w.laborer}`,
        { lines: [{ ingredient_id: w.rice.id, quantity: 1 }] },
      ],
      ["DELETE", `/food/dishes/${w.tortilla.id}/recipes/${w.master}`, {}],
      ["POST", "/food/dishes/cost", { level_id: w.master, city_id: w.lima.id, lines: [] }],
    ];
    for (const [method, path, json] of writes)
      expect({ method, path, status: (await submitJson(carla, method, path, json)).status }).toEqual({
        method,
        path,
        status: 403,
      });
    expect(
      w.db
        .select()
        .from(dishes)
        .all()
        .map((d) => d.name),
    ).toEqual(["Tortilla de arroz"]);
    expect(w.db.select().from(recipes).all()).toHaveLength(1);
  });
});

describe("the dishes table", () => {
  test("costs each dish per serving for the city of the person's headquarters, flags lines without an offer, and exports as shown", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const page = (await visitPage(nora, "/food")).props;
    // Lima (Sede Lima's city) though Arequipa comes first by name; the first level by order.
    expect(page.filters).toMatchObject({ tab: "dishes", city: w.lima.id, level: w.master });
    const [row] = page.dishes.data;
    // 100 g of rice at 0.3 cents a gram + 2 eggs at 50 cents; the oil has no offer in Lima.
    expect(row).toMatchObject({ name: "Tortilla de arroz", levelIds: [w.master] });
    expect(row.cost).toMatchObject({ costCents: 130, complete: false, unpriced: 1 });
    expect(Math.round(row.cost.kcal)).toBe(Math.round(358 + 143 + (884 * 9.2) / 100));

    const arequipa = (await visitPage(nora, `/food?city=${w.arequipa.id}`)).props.dishes.data[0];
    expect(arequipa.cost).toMatchObject({ costCents: 40, complete: false, unpriced: 2 });
    const laborer = (await visitPage(nora, `/food?level=${w.laborer}`)).props.dishes.data[0];
    expect(laborer.cost).toBeNull();
    expect((await visitPage(nora, `/food?category=${w.entrada.id}`)).props.dishes.total).toBe(0);
    expect((await visitPage(nora, "/food?search=TORTILLA")).props.dishes.total).toBe(1);
    // The other tabs read nothing of the dishes table; the price changes come after the page (deferred).
    const changes = await visitPage(nora, "/food?tab=price_changes");
    expect(changes.props.dishes).toBeNull();
    expect(changes.props.priceChangeFilters).toMatchObject({ levelId: null });
    expect(Object.values(changes.deferredProps ?? {}).flat()).toContain("priceChanges");

    const response = await nora.get(`/food/dishes/export?city=${w.lima.id}`);
    expect(response.status).toBe(200);
    const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array" });
    // First the dishes workbook the import reads back, then the table as shown.
    expect(book.SheetNames).toEqual([translate("es", "foodImportDishes.sheet"), es("food.dishes.sheet")]);
    const lines = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(lines.slice(1).map((r) => r[0])).toEqual(["Tortilla de arroz", "Tortilla de arroz", "Tortilla de arroz"]);
    const sheet = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[es("food.dishes.sheet")], { header: 1 });
    expect(sheet[0].slice(0, 6)).toEqual([
      "Nombre",
      "Categorías",
      "Niveles con receta",
      "Costo (Máster, Lima)",
      "Costo completo",
      "Kcal",
    ]);
    expect(sheet[1].slice(0, 5)).toEqual(["Tortilla de arroz", "Segundo", "Máster", 1.3, "No"]);
  });
});

describe("the dish modal", () => {
  test("saves a dish with its recipes in one request, all or nothing, and reads it back costed", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const bad = await submit(
      nora,
      "POST",
      "/food/dishes",
      {
        name: "Arroz con huevo",
        category_ids: [w.segundo.id],
        recipes: [{ level_id: w.master, lines: [{ ingredient_id: w.rice.id, quantity: "0" }] }],
      },
      "/food",
    );
    expect(bad.status).toBe(302);
    const errors = (await visitPage(nora, "/food")).props.errors;
    expect(errors).toEqual({ [`recipes.${w.master}.lines.0.quantity`]: es("food.recipes.quantity_positive") });
    expect(w.db.select().from(dishes).all()).toHaveLength(1);

    const good = await submit(
      nora,
      "POST",
      "/food/dishes",
      {
        name: "Arroz con huevo",
        description: "Arroz blanco con huevo frito",
        category_ids: [w.segundo.id],
        recipes: [
          {
            level_id: w.master,
            lines: [
              { ingredient_id: w.rice.id, quantity: "150" },
              { ingredient_id: w.egg.id, quantity: "1", offer_id: w.eggs.id },
            ],
          },
          { level_id: w.laborer, lines: [{ ingredient_id: w.rice.id, quantity: "200" }] },
        ],
      },
      "/food",
    );
    expect(good.status).toBe(302);
    const dish = w.db.select().from(dishes).where(eq(dishes.name, "Arroz con huevo")).get()!;
    const detail = await (await nora.get(`/food/dishes/${dish.id}?city=${w.lima.id}`)).json();
    expect(detail.recipes.map((r: any) => [r.levelId, r.totals.costCents, r.totals.complete])).toEqual([
      [w.master, 95, true],
      [w.laborer, 60, true],
    ]);
    expect(detail.recipes[0].lines[1]).toMatchObject({
      name: "Huevo de gallina",
      grossG: 50,
      offer: { id: w.eggs.id, pinned: true },
    });

    // The same draft, costed live, gives the same figures.
    const live = await submitJson(nora, "POST", "/food/dishes/cost", {
      level_id: w.master,
      city_id: w.lima.id,
      lines: [
        { ingredient_id: w.rice.id, quantity: "150" },
        { ingredient_id: w.egg.id, quantity: "1", offer_id: w.eggs.id },
      ],
    });
    expect(live.status).toBe(200);
    const costed = await live.json();
    expect(costed.totals).toEqual(detail.recipes[0].totals);

    // Editing removes a level's recipe and withdraws the dish.
    await submit(
      nora,
      "PATCH",
      `/food/dishes/${dish.id}`,
      { name: "Arroz con huevo", category_ids: [w.segundo.id], active: false, removed_levels: [w.laborer] },
      "/food",
    );
    expect(
      w.db
        .select()
        .from(recipes)
        .where(eq(recipes.dishId, dish.id))
        .all()
        .map((r) => r.levelId),
    ).toEqual([w.master]);
    expect(w.db.select().from(dishes).where(eq(dishes.id, dish.id)).get()!.active).toBe(false);
    const actions = w.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "dish"), eq(auditLog.subjectId, dish.id)))
      .all()
      .map((e) => e.action);
    expect(actions).toEqual(["dish.created", "recipe.saved", "recipe.saved", "dish.updated", "recipe.deleted"]);
  });

  test("the live totals refuse a bad draft and are rate-limited", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const cost = (json: unknown) => submitJson(nora, "POST", "/food/dishes/cost", json);
    const base = { level_id: w.master, city_id: w.lima.id };
    expect((await cost({ ...base, lines: [{ ingredient_id: w.rice.id, quantity: "-1" }] })).status).toBe(422);
    expect((await cost({ ...base, lines: [{ ingredient_id: w.rice.id, quantity: "1e999" }] })).status).toBe(422);
    expect((await cost({ ...base, lines: [{ ingredient_id: 999, quantity: "1" }] })).status).toBe(422);
    expect((await cost({ ...base, city_id: 999, lines: [] })).status).toBe(422);
    expect((await cost({ ...base, level_id: 999, lines: [] })).status).toBe(404);
    const lines = Array.from({ length: 61 }, () => ({ ingredient_id: w.rice.id, quantity: 1 }));
    expect((await cost({ ...base, lines })).status).toBe(422);
    // A draft still being typed costs what is complete.
    const partial = await cost({ ...base, lines: [{ ingredient_id: w.rice.id, quantity: "100" }, { quantity: "" }] });
    expect((await partial.json()).totals.costCents).toBe(30);

    w.db.$client
      .query("INSERT OR REPLACE INTO rate_limits (key, attempts, reset_at) VALUES (?, ?, ?)")
      .run(`dish-cost:${w.people.nora.id}`, DISH_COST_LIMIT.max, Date.now() + 60_000);
    const limited = await cost({ ...base, lines: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).not.toBeNull();
  });

  test("a dish used as a sub-recipe cannot be deleted, and the page says which dish uses it", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const plate = createDish(w.db, CLI_ACTOR, { name: "Plato combinado", category_ids: [w.segundo.id] });
    saveRecipe(w.db, CLI_ACTOR, plate.id, w.master, { lines: [{ sub_dish_id: w.tortilla.id, quantity: 120 }] });
    const refused = await submit(nora, "DELETE", `/food/dishes/${w.tortilla.id}`, {}, "/food");
    expect(refused.status).toBe(303);
    expect((await visitPage(nora, "/food")).props.errors.form).toBe(
      es("food.dishes.used_in_recipes", { name: "Tortilla de arroz", count: 1, dishes: "Plato combinado" }),
    );
    expect((await submitJson(nora, "DELETE", `/food/dishes/${w.tortilla.id}`)).status).toBe(409);
    expect((await submitJson(nora, "DELETE", `/food/dishes/${plate.id}`)).status).toBe(204);
    expect((await submitJson(nora, "DELETE", `/food/dishes/${w.tortilla.id}`)).status).toBe(204);
    expect(w.db.select().from(recipes).all()).toHaveLength(0);
  });
});
