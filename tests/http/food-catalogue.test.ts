/**
 * The Food page's catalogue through the app: the menu table (dish categories) and the levels, created, edited,
 * reordered and deleted by the nutritionist (food.manage at headquarters), seen and exported with food.view, refused
 * to a buyer and to anyone holding food permissions only in a cafe area; a delete that something blocks comes back
 * to the form saying how many of each; and the price-changes export.
 *
 * The world: Catering X with Sede Lima and Comedor A. "Nora Nutri" is a nutritionist at Sede Lima, "Bruno Buyer" a
 * buyer there (food.view only), "Carla Cafe" holds food.view and food.manage in Comedor A's area.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { auditLog, dishCategories, dishCategoryLinks, dishes, levels, recipeLines, recipes } from "../../db/schema";
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
import { createDishCategory } from "../../src/domain/food/dish-categories";
import { createIngredient } from "../../src/domain/food/ingredients";
import { createOffer, updateOffer } from "../../src/domain/food/offers";
import { createProvider } from "../../src/domain/food/providers";
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
  const nutritionist = findRoleByName(db, "nutritionist")!.id;
  const buyer = findRoleByName(db, "buyer")!.id;
  const cook = makeRole(db, "cafe cook", ["food.view", "food.manage"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Nutrición y compras",
    headquarters_id: x.headquartersId,
    role_ids: [nutritionist, buyer],
  }).id;
  const cocina = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Cocina A", cafe_id: cafeA, role_ids: [cook] }).id;
  const people = {
    nora: await addUser(db, "Nora Nutri", "nora@mesa.test"),
    bruno: await addUser(db, "Bruno Buyer", "bruno@mesa.test"),
    carla: await addUser(db, "Carla Cafe", "carla@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.nora.id, areaId: sede, roleId: nutritionist });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.bruno.id, areaId: sede, roleId: buyer });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.carla.id, areaId: cocina, roleId: cook });
  const soup = createDishCategory(db, CLI_ACTOR, { name: "Sopa", unit: "ml", description: "Caldos y cremas" });
  const main = createDishCategory(db, CLI_ACTOR, { name: "Segundo", unit: "g" });
  return { app, db, people, soup, main, cafeA };
}

async function workbook(response: Response): Promise<Record<string, unknown[][]>> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("spreadsheetml");
  const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array" });
  return Object.fromEntries(
    book.SheetNames.map((name) => [name, XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name], { header: 1 })]),
  );
}

const FROM = "/ingredients";

describe("who may change the catalogue", () => {
  test("food.manage at headquarters changes it; food.view only exports; held in a cafe area nothing opens", async () => {
    const w = await buildWorld();
    const carla = await signedIn(w, w.people.carla);
    const bruno = await signedIn(w, w.people.bruno);
    const writes: [string, string, unknown][] = [
      ["POST", "/food/dish-categories", { name: "Postre", unit: "g" }],
      ["PATCH", `/food/dish-categories/${w.soup.id}`, { name: "Sopas", unit: "ml" }],
      ["PUT", "/food/dish-categories/order", { ids: [w.main.id, w.soup.id] }],
      ["DELETE", `/food/dish-categories/${w.soup.id}`, {}],
      ["POST", "/food/levels", { name: "Visita" }],
      ["PATCH", `/food/levels/1`, { name: "Maestro" }],
      ["PUT", "/food/levels/order", { ids: [4, 3, 2, 1] }],
      ["DELETE", `/food/levels/1`, {}],
    ];
    for (const who of [carla, bruno])
      for (const [method, path, json] of writes)
        expect({ method, path, status: (await submitJson(who, method, path, json)).status }).toEqual({
          method,
          path,
          status: 403,
        });
    for (const path of ["/food/dish-categories/export", "/food/levels/export"]) {
      expect({ path, status: (await carla.get(path)).status }).toEqual({ path, status: 403 });
      expect({ path, status: (await bruno.get(path)).status }).toEqual({ path, status: 200 });
    }
    expect(
      w.db
        .select()
        .from(dishCategories)
        .all()
        .map((c) => c.name),
    ).toEqual(["Sopa", "Segundo"]);
    expect(w.db.select().from(levels).all()).toHaveLength(4);

    // The buyer sees the tables, read only: no buttons to change them, and a note saying so.
    for (const tab of ["menu_table", "levels"]) {
      const html = await (await bruno.get(`/food?tab=${tab}`)).text();
      expect({ tab, readOnly: html.includes(es("foodCatalogue.read_only")) }).toEqual({ tab, readOnly: true });
      expect(html).not.toContain(es(`foodCatalogue.${tab === "levels" ? "levels" : "dish_categories"}.add`));
    }
    const nora = await signedIn(w, w.people.nora);
    const html = await (await nora.get("/food?tab=menu_table")).text();
    expect(html).toContain(es("foodCatalogue.dish_categories.add"));
    expect(html).not.toContain(es("foodCatalogue.read_only"));
  });
});

describe("the menu table", () => {
  test("the nutritionist adds, edits, reorders and deletes dish categories, each audited", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const added = await submit(nora, "POST", "/food/dish-categories", { name: " Refresco ", unit: "ml" }, FROM);
    expect([added.status, added.headers.get("location")]).toEqual([302, FROM]);
    const page = await visitPage(nora, FROM);
    expect(page.flash.success).toBe(es("foodCatalogue.dish_categories.saved", { name: "Refresco" }));
    const drink = w.db.select().from(dishCategories).where(eq(dishCategories.name, "Refresco")).get()!;
    expect(drink).toMatchObject({ unit: "ml", sortOrder: 3, description: "" });

    // The same name again, whatever its case, and a unit other than g or ml: errors by field.
    await submit(nora, "POST", "/food/dish-categories", { name: "REFRESCO", unit: "kg" }, FROM);
    const errors = (await visitPage(nora, FROM)).props.errors;
    expect(errors).toEqual({
      unit: es("foodCatalogue.dish_categories.unit_required"),
    });
    await submit(nora, "POST", "/food/dish-categories", { name: "REFRESCO", unit: "ml" }, FROM);
    expect((await visitPage(nora, FROM)).props.errors).toEqual({
      name: es("foodCatalogue.dish_categories.taken", { name: "REFRESCO" }),
    });

    await submit(nora, "PATCH", `/food/dish-categories/${drink.id}`, {
      name: "Bebida",
      unit: "ml",
      description: "Chicha, limonada",
    });
    await submit(nora, "PUT", "/food/dish-categories/order", { ids: [drink.id, w.main.id, w.soup.id] });
    const order = w.db.select().from(dishCategories).orderBy(dishCategories.sortOrder).all();
    expect(order.map((c) => [c.name, c.description])).toEqual([
      ["Bebida", "Chicha, limonada"],
      ["Segundo", ""],
      ["Sopa", "Caldos y cremas"],
    ]);
    // A stale order (a category added meanwhile is missing) is refused as a whole.
    await submit(nora, "PUT", "/food/dish-categories/order", { ids: [w.soup.id, w.main.id] }, FROM);
    expect((await visitPage(nora, FROM)).props.errors).toEqual({ form: es("foodCatalogue.list_changed") });
    await submit(nora, "DELETE", `/food/dish-categories/${drink.id}`);
    const audit = w.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectType, "dish_category"))
      .orderBy(auditLog.id)
      .all();
    expect(audit.map((e) => [e.action, e.actorLabel])).toEqual([
      ["dish_category.created", "cli"],
      ["dish_category.created", "cli"],
      ["dish_category.created", "nora@mesa.test"],
      ["dish_category.updated", "nora@mesa.test"],
      ["dish_category.reordered", "nora@mesa.test"],
      ["dish_category.deleted", "nora@mesa.test"],
    ]);
  });

  test("a category with dishes is not deleted: the form says how many", async () => {
    const w = await buildWorld();
    const now = new Date();
    const dish = w.db
      .insert(dishes)
      .values({ name: "Sopa de quinua", createdAt: now, updatedAt: now })
      .returning()
      .get();
    w.db.insert(dishCategoryLinks).values({ dishId: dish.id, categoryId: w.soup.id }).run();
    const nora = await signedIn(w, w.people.nora);
    await submit(nora, "DELETE", `/food/dish-categories/${w.soup.id}`, {}, FROM);
    expect((await visitPage(nora, FROM)).props.errors.form).toBe(
      "No se puede eliminar Sopa: la usan 1 plato, 0 estructuras de menú y 0 días del menú.",
    );
    const json = await submitJson(nora, "DELETE", `/food/dish-categories/${w.soup.id}`);
    expect(json.status).toBe(409);
    expect(w.db.select().from(dishCategories).all()).toHaveLength(2);
  });

  test("exports the menu table in its order with units and dish counts", async () => {
    const w = await buildWorld();
    const bruno = await signedIn(w, w.people.bruno);
    const book = await workbook(await bruno.get("/food/dish-categories/export"));
    expect(book[es("foodCatalogue.dish_categories.title")]).toEqual([
      ["Orden", "Nombre", "Descripción", "Unidad", "Platos"],
      [1, "Sopa", "Caldos y cremas", "Mililitros (ml)", 0],
      [2, "Segundo", "", "Gramos (g)", 0],
    ]);
  });
});

describe("the levels", () => {
  test("the nutritionist adds, renames, reorders and deletes a level; one in use is refused with its counts", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    await submit(nora, "POST", "/food/levels", { name: "Visita" }, FROM);
    const visit = w.db.select().from(levels).where(eq(levels.name, "Visita")).get()!;
    expect(visit.sortOrder).toBe(5);
    await submit(nora, "PATCH", `/food/levels/${visit.id}`, { name: "master" }, FROM);
    expect((await visitPage(nora, FROM)).props.errors).toEqual({
      name: es("foodCatalogue.levels.taken", { name: "master" }),
    });
    await submit(nora, "PATCH", `/food/levels/${visit.id}`, { name: "Visitante" }, FROM);
    const ids = w.db
      .select()
      .from(levels)
      .orderBy(levels.sortOrder)
      .all()
      .map((l) => l.id);
    await submit(nora, "PUT", "/food/levels/order", { ids: [visit.id, ...ids.filter((id) => id !== visit.id)] });
    const book = await workbook(await nora.get("/food/levels/export"));
    expect(book[es("foodCatalogue.levels.title")].slice(0, 2)).toEqual([
      ["Orden", "Nombre", "Comensales", "Recetas", "Comedores"],
      [1, "Visitante", 0, 0, 0],
    ]);
    // The cafe's menu is costed at the new level: it stays.
    w.app.db.$client.run("UPDATE cafes SET default_level_id = ? WHERE id = ?", [visit.id, w.cafeA]);
    await submit(nora, "DELETE", `/food/levels/${visit.id}`, {}, FROM);
    expect((await visitPage(nora, FROM)).props.errors.form).toBe(
      "No se puede eliminar Visitante: lo usan 0 comensales, 0 recetas y 1 comedor.",
    );
    w.app.db.$client.run("UPDATE cafes SET default_level_id = NULL");
    await submit(nora, "DELETE", `/food/levels/${visit.id}`, {}, FROM);
    expect(
      w.db
        .select()
        .from(levels)
        .all()
        .map((l) => l.name),
    ).toEqual(["Master", "Staff", "Employee", "Laborer"]);
  });
});

describe("the price changes", () => {
  /** Lima: a 50 kg sack of rice at S/ 150.00 without IGV since October; "Arroz blanco" (Laborer) is 100 g of it. */
  function withPrices(w: Awaited<ReturnType<typeof buildWorld>>) {
    const author = { userId: null, name: "" };
    const lima = createCity(w.db, CLI_ACTOR, { name: "Lima", region: "Lima" });
    const cereals = createCategory(w.db, CLI_ACTOR, { name: "Cereales" });
    const rice = createIngredient(w.db, CLI_ACTOR, {
      name: "Arroz",
      category_id: cereals.id,
      base_unit: "g",
      kcal: 358,
    });
    const provider = createProvider(
      w.db,
      CLI_ACTOR,
      { name: "Distribuidora Andina", ruc: "20501234568" },
      { rucLength: 11 },
    );
    const values = {
      provider_id: provider.id,
      ingredient_id: rice.id,
      city_id: lima.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      price_includes_igv: false,
    };
    const sack = createOffer(w.db, CLI_ACTOR, author, { ...values, price: "150" }, new Date("2026-10-01T15:00:00Z"));
    const laborer = w.db.select().from(levels).where(eq(levels.name, "Laborer")).get()!.id;
    const now = new Date("2026-09-01T12:00:00Z");
    const dish = w.db.insert(dishes).values({ name: "Arroz blanco", createdAt: now, updatedAt: now }).returning().get();
    const recipe = w.db.insert(recipes).values({ dishId: dish.id, levelId: laborer, updatedAt: now }).returning().get();
    w.db.insert(recipeLines).values({ recipeId: recipe.id, position: 0, ingredientId: rice.id, quantity: 100 }).run();
    // Up to S/ 200.00 on 10 November: 30 → 40 cents a serving.
    updateOffer(w.db, CLI_ACTOR, author, sack.id, { ...values, price: "200" }, new Date("2026-11-10T15:00:00Z"));
    return { lima, dish, laborer };
  }

  test("the export lists the dishes that moved in the period, with the offers under them", async () => {
    const w = await buildWorld();
    const { lima } = withPrices(w);
    const bruno = await signedIn(w, w.people.bruno);
    const inside = await workbook(
      await bruno.get(`/food/price-changes/export?from=2026-11-01&to=2026-11-15&city=${lima.id}`),
    );
    const sheet = inside[es("foodCatalogue.price_changes.title")];
    expect(sheet[0]).toEqual([
      "Plato",
      "Nivel",
      "Antes",
      "Después",
      "Diferencia",
      "Variación",
      "Sin precio",
      "Ofertas que cambiaron",
    ]);
    expect(sheet.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[4], Number(r[5]).toFixed(4), r[6], r[7]])).toEqual([
      [
        "Arroz blanco",
        // The built-in level by its Spanish name in a Spanish workbook.
        "Obrero",
        0.3,
        0.4,
        0.1,
        "0.3333",
        undefined,
        // Money as the pages write it (Intl, es-PE: a no-break space after "S/").
        "Arroz (Distribuidora Andina, Saco 50 kg): S/\u00a03.00 → S/\u00a04.00 por kg",
      ],
    ]);
    const outside = await workbook(
      await bruno.get(`/food/price-changes/export?from=2026-11-11&to=2026-11-20&city=${lima.id}`),
    );
    expect(outside[es("foodCatalogue.price_changes.title")]).toHaveLength(1);
    const carla = await signedIn(w, w.people.carla);
    expect((await carla.get(`/food/price-changes/export?city=${lima.id}`)).status).toBe(403);
  });

  test("a dish's cost over time answers as JSON: a point at the start and one at the change", async () => {
    const w = await buildWorld();
    const { lima, dish, laborer } = withPrices(w);
    const nora = await signedIn(w, w.people.nora);
    const path = `/food/price-changes/history?dish=${dish.id}&level=${laborer}&city=${lima.id}&from=2026-11-01&to=2026-11-30`;
    const response = await nora.get(path, { headers: { accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      dishId: dish.id,
      levelId: laborer,
      cityId: lima.id,
      from: "2026-11-01",
      to: "2026-11-30",
      end: "2026-12-01T04:59:59.999Z",
      points: [
        { at: "2026-11-01T05:00:00.000Z", costCents: 30, complete: true },
        { at: "2026-11-10T15:00:00.000Z", costCents: 40, complete: true },
      ],
    });
    expect(
      (await nora.get(path.replace(/level=\d+/, "level=999"), { headers: { accept: "application/json" } })).status,
    ).toBe(404);
    const carla = await signedIn(w, w.people.carla);
    expect((await carla.get(path, { headers: { accept: "application/json" } })).status).toBe(403);
  });
});
