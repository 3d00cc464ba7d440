/**
 * The Ingredients, Providers and Logistics pages through the app: who may open and change what (company-wide
 * permissions count only from a headquarters area), the offers grouped by provider and by city with search, filters,
 * sort and exports, the New-ingredient dialog with its first offer, a price change kept in the offer's history, the
 * provider, category and city dialogs, each headquarters as a logistics centre with the cheapest current offer of each
 * ingredient in its city, the workbook upload (preview, then the confirmed plan), and the starting roles.
 *
 * The world: Catering X with Sede Lima (in Lima) and Comedor A (in Lima too), Catering Y with Sede Y (no city).
 * "Nora Nutri" is a nutritionist and "Bruno Buyer" a buyer at Sede Lima; "Carla Cafe" holds every food and logistics
 * permission in Comedor A's area, where they grant nothing.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { auditLog, headquarters, ingredients, offerPriceHistory, offers, providers } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { ensureStartingRole, STARTING_ROLES } from "../../src/domain/access/starting-roles";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createCategory } from "../../src/domain/food/categories";
import { createCity } from "../../src/domain/food/cities";
import { createIngredient } from "../../src/domain/food/ingredients";
import { createOffer } from "../../src/domain/food/offers";
import { createProvider } from "../../src/domain/food/providers";
import { BASE, createTestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submit, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);
const RUC = { andina: "20501234568", sur: "20602345671", new: "20453456782" };
const AUTHOR = { userId: null, name: "" };

async function buildWorld() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede Lima");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const cusco = createCity(db, CLI_ACTOR, { name: "Cusco", region: "Cusco" });
  db.update(headquarters).set({ cityId: lima.id }).where(eq(headquarters.id, x.headquartersId)).run();
  const nutritionist = findRoleByName(db, "nutritionist")!.id;
  const buyer = findRoleByName(db, "buyer")!.id;
  const everything = makeRole(db, "food everything", [
    "food.view",
    "food.manage",
    "logistics.view",
    "logistics.manage",
  ]);
  const other = makeRole(db, "services viewer", ["services.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Nutrición y compras",
    headquarters_id: x.headquartersId,
    role_ids: [nutritionist, buyer],
  }).id;
  const cocina = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Cocina A",
    cafe_id: cafeA,
    role_ids: [everything, other],
  }).id;
  const people = {
    nora: await addUser(db, "Nora Nutri", "nora@mesa.test"),
    bruno: await addUser(db, "Bruno Buyer", "bruno@mesa.test"),
    carla: await addUser(db, "Carla Cafe", "carla@mesa.test"),
    otto: await addUser(db, "Otto Otro", "otto@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.nora.id, areaId: sede, roleId: nutritionist });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.bruno.id, areaId: sede, roleId: buyer });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.carla.id, areaId: cocina, roleId: everything });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.otto.id, areaId: cocina, roleId: other });

  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const eggs = createCategory(db, CLI_ACTOR, { name: "Huevos" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: cereals.id,
    base_unit: "g",
    kcal: 358,
  });
  const egg = createIngredient(db, CLI_ACTOR, {
    name: "Huevo de gallina",
    category_id: eggs.id,
    base_unit: "unit",
    unit_weight_g: 50,
    kcal: 143,
    allergens: ["eggs"],
  });
  const settings = { rucLength: 11 };
  const andina = createProvider(db, CLI_ACTOR, { name: "Distribuidora Andina", ruc: RUC.andina }, settings);
  const sur = createProvider(db, CLI_ACTOR, { name: "Avícola del Sur", ruc: RUC.sur }, settings);
  const offer = (values: Record<string, unknown>) =>
    createOffer(db, CLI_ACTOR, AUTHOR, { price_includes_igv: true, ...values });
  const sack = offer({
    provider_id: andina.id,
    ingredient_id: rice.id,
    city_id: lima.id,
    presentation: "Saco 50 kg",
    quantity: 50000,
    price: "177",
  });
  offer({
    provider_id: sur.id,
    ingredient_id: rice.id,
    city_id: lima.id,
    presentation: "Saco 49 kg",
    quantity: 49000,
    price: "145",
  });
  offer({
    provider_id: sur.id,
    ingredient_id: egg.id,
    city_id: lima.id,
    presentation: "Jaba 30",
    quantity: 30,
    price: "14.16",
  });
  offer({
    provider_id: andina.id,
    ingredient_id: rice.id,
    city_id: cusco.id,
    presentation: "Saco 50 kg",
    quantity: 50000,
    price: "150",
    price_includes_igv: false,
  });
  return { app, db, x, y, cafeA, lima, cusco, people, cereals, eggs, rice, egg, andina, sur, sack };
}

async function workbook(response: Response): Promise<Record<string, unknown[][]>> {
  expect(response.status).toBe(200);
  const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array" });
  return Object.fromEntries(
    book.SheetNames.map((name) => [name, XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name], { header: 1 })]),
  );
}

describe("who may do what", () => {
  test("the nutritionist and the buyer start with their permissions; held in a cafe area they grant nothing", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const ingredientsPage = await visitPage(nora, "/ingredients");
    expect(ingredientsPage.props.can).toEqual({ manageFood: true, manageLogistics: false });
    expect(ingredientsPage.props.tabs.map((t: any) => t.id)).toEqual(["food", "ingredients", "providers", "logistics"]);
    expect(ingredientsPage.props.navigation.map((n: any) => n.route)).toEqual(
      expect.arrayContaining(["food.index", "logistics.index"]),
    );
    const bruno = await signedIn(w, w.people.bruno);
    expect((await visitPage(bruno, "/providers")).props.can).toEqual({ manageFood: false, manageLogistics: true });

    // Company-wide permissions held in a cafe area: nothing opens, nothing is written.
    const carla = await signedIn(w, w.people.carla);
    for (const path of ["/ingredients", "/providers", "/logistics", "/ingredients/export", "/providers/export"])
      expect({ path, status: (await carla.get(path)).status }).toEqual({ path, status: 403 });
    const writes: [string, string, unknown][] = [
      ["POST", "/ingredients", { name: "Quinua", category_id: w.cereals.id, base_unit: "g", kcal: 343 }],
      ["POST", "/providers", { name: "Otro", ruc: RUC.new }],
      ["POST", "/cities", { name: "Puno" }],
      ["DELETE", `/offers/${w.sack.id}`, {}],
    ];
    for (const [method, path, json] of writes)
      expect({ method, path, status: (await submitJson(carla, method, path, json)).status }).toEqual({
        method,
        path,
        status: 403,
      });

    // The nutritionist keeps ingredients but not offers; the buyer the other way round.
    expect((await submitJson(nora, "DELETE", `/offers/${w.sack.id}`)).status).toBe(403);
    expect((await submitJson(nora, "POST", "/ingredients", { with_offer: true, name: "Quinua" })).status).toBe(403);
    expect((await submitJson(bruno, "POST", "/ingredient-categories", { name: "Frutas" })).status).toBe(403);
    expect(w.db.select().from(offers).all()).toHaveLength(4);
  });
});

describe("the Ingredients page", () => {
  test("lists offers grouped by provider with search, provider and city filters, sort, and exports them as shown", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const page = (await visitPage(nora, "/ingredients")).props;
    expect([page.offers.groups, page.offers.total, page.offers.perPage]).toEqual([2, 4, 25]);
    expect(
      page.offers.data.map((g: any) => [g.name, g.offers.map((o: any) => `${o.ingredientName}/${o.cityName}`)]),
    ).toEqual([
      ["Avícola del Sur", ["Arroz pilado/Lima", "Huevo de gallina/Lima"]],
      ["Distribuidora Andina", ["Arroz pilado/Cusco", "Arroz pilado/Lima"]],
    ]);
    const sack = page.offers.data[1].offers[1];
    expect(sack).toMatchObject({ priceCents: 17_700, netPriceCents: 15_000, costPerReferenceCents: 300, active: true });
    const byCost = (await visitPage(nora, "/ingredients?sort=cost&direction=desc&city=" + w.lima.id)).props.offers;
    expect(byCost.data[0].offers.map((o: any) => o.costPerReferenceCents)).toEqual([251, 40]);
    const searched = (await visitPage(nora, `/ingredients?search=HUEVO&provider=${w.sur.id}`)).props;
    expect(searched.filters).toMatchObject({ search: "HUEVO", provider: w.sur.id, tab: "offers" });
    expect(searched.offers.data.map((g: any) => g.offers.length)).toEqual([1]);

    const book = await workbook(await nora.get(`/ingredients/export?provider=${w.andina.id}`));
    const sheet = book[es("food.offers.by_provider")];
    expect(sheet[0]).toEqual([
      "Proveedor",
      "Insumo",
      "Ciudad",
      "Presentación",
      "Cantidad",
      "Unidad",
      "Precio",
      "Incluye IGV",
      "Precio sin IGV",
      "Costo sin IGV por kg, litro o unidad",
      "Por",
      "Estado",
      "Precio desde",
    ]);
    expect(sheet.slice(1).map((r) => [r[2], r[6], r[7], r[8], r[9], r[10]])).toEqual([
      ["Cusco", 150, "No", 150, 3, "por kg"],
      ["Lima", 177, "Sí", 150, 3, "por kg"],
    ]);
  });

  test("the ingredients tab lists every figure, searched and filtered by category; its export is the import's workbook", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const tab = (await visitPage(nora, `/ingredients?tab=ingredients&category=${w.eggs.id}`)).props;
    expect(tab.offers).toBeNull();
    expect(
      tab.ingredients.data.map((i: any) => [i.name, i.baseUnit, i.unitWeightGrams, i.allergens, i.offers]),
    ).toEqual([["Huevo de gallina", "unit", 50, ["eggs"], 1]]);
    expect(tab.categories.map((c: any) => [c.name, c.ingredients])).toEqual([
      ["Cereales", 1],
      ["Huevos", 1],
    ]);
    const book = await workbook(await nora.get("/ingredients/export?tab=ingredients"));
    const sheet = book[es("food.ingredients.title")];
    expect(sheet[0].slice(0, 6)).toEqual([
      "Nombre",
      "Categoría",
      "Unidad base",
      "Peso por unidad (g)",
      "Densidad (g/ml)",
      "Kcal por 100 g",
    ]);
    expect(sheet.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([
      ["Arroz pilado", "Cereales", "g"],
      ["Huevo de gallina", "Huevos", "unit"],
    ]);
  });

  test("the New-ingredient dialog creates the ingredient with its first offer in one go, or nothing", async () => {
    const w = await buildWorld();
    // A person who keeps both: the nutritionist's and the buyer's roles at headquarters.
    const both = makeRole(w.db, "cook and buyer", ["food.view", "food.manage", "logistics.view", "logistics.manage"]);
    const area = createArea(w.db, CLI_ACTOR, EVERYTHING, {
      name: "Jefatura",
      headquarters_id: w.x.headquartersId,
      role_ids: [both],
    }).id;
    const chef = await addUser(w.db, "Chef Jefe", "chef@mesa.test");
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: chef.id, areaId: area, roleId: both });
    const client = await signedIn(w, chef);
    const quinoa = {
      name: "Quinua",
      category_id: w.cereals.id,
      base_unit: "g",
      kcal: "343",
      protein: "13,6",
      allergens: [],
      with_offer: true,
      offer: {
        provider_id: w.andina.id,
        city_id: w.lima.id,
        presentation: "",
        quantity: "0",
        price: "14.00",
        price_includes_igv: true,
      },
    };
    const refused = await submit(client, "POST", "/ingredients", quinoa, "/ingredients");
    expect(refused.status).toBe(302);
    expect((await visitPage(client, "/ingredients")).props.errors).toEqual({
      "offer.presentation": es("validation.required"),
      "offer.quantity": es("food.figures.above", { min: 0 }),
    });
    expect(w.db.select().from(ingredients).where(eq(ingredients.name, "Quinua")).get()).toBeUndefined();

    const ok = await submit(
      client,
      "POST",
      "/ingredients",
      { ...quinoa, offer: { ...quinoa.offer, presentation: "Bolsa 1 kg", quantity: "1000" } },
      "/ingredients",
    );
    expect(ok.headers.get("location")).toBe("/ingredients");
    const created = w.db.select().from(ingredients).where(eq(ingredients.name, "Quinua")).get()!;
    expect(created).toMatchObject({ proteinG: 13.6, demoValues: false });
    const offer = w.db.select().from(offers).where(eq(offers.ingredientId, created.id)).get()!;
    expect(offer).toMatchObject({ presentation: "Bolsa 1 kg", quantity: 1000, priceCents: 1400, cityId: w.lima.id });
    expect(w.db.select().from(offerPriceHistory).where(eq(offerPriceHistory.offerId, offer.id)).all()).toMatchObject([
      { priceCents: 1400, changedByName: "Chef Jefe", changedBy: chef.id },
    ]);
    const flash = (await visitPage(client, "/ingredients")).flash;
    expect(flash).toMatchObject({ success: es("food.ingredients.saved_with_offer", { name: "Quinua" }) });
  });

  test("the workbook upload shows its preview, writes the confirmed plan, and refuses a plan that changed", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ["Nombre", "Categoría", "Unidad base", "Kcal por 100 g"],
        ["Arroz pilado", "Cereales", "g", 360],
        ["Papa amarilla", "Tubérculos", "g", 100],
      ]),
      "Insumos",
    );
    const bytes = XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer;
    const upload = (confirm?: string) => {
      const form = new FormData();
      form.append("file", new File([bytes], "insumos.xlsx"));
      if (confirm) form.append("confirm", confirm);
      return nora.request("/ingredients/import", {
        method: "POST",
        body: form,
        inertia: true,
        headers: { referer: `${BASE}/ingredients?tab=ingredients` },
      });
    };
    expect((await upload()).status).toBe(302);
    const preview = (await visitPage(nora, "/ingredients?tab=ingredients")).flash.ingredientsImport;
    expect(preview).toMatchObject({
      step: "preview",
      fileName: "insumos.xlsx",
      rows: 2,
      counts: { created: 1, updated: 1, unchanged: 0 },
      newCategories: ["Tubérculos"],
      problems: [],
      changed: false,
    });
    expect(w.db.select().from(ingredients).all()).toHaveLength(2);

    // Someone changes the rice meanwhile: the confirmation shows the new preview and writes nothing.
    await submit(
      nora,
      "PUT",
      `/ingredients/${w.rice.id}`,
      { name: "Arroz pilado", category_id: w.cereals.id, base_unit: "g", kcal: 359 },
      "/ingredients",
    );
    await upload(preview.fingerprint);
    const again = (await visitPage(nora, "/ingredients?tab=ingredients")).flash.ingredientsImport;
    expect(again).toMatchObject({ step: "preview", changed: true });
    expect(w.db.select().from(ingredients).all()).toHaveLength(2);

    await upload(again.fingerprint);
    const done = (await visitPage(nora, "/ingredients?tab=ingredients")).flash;
    expect(done.ingredientsImport).toMatchObject({ step: "done", counts: { created: 1, updated: 1 } });
    expect(done.success).toBe(es("food.import.done", { count: 2 }));
    expect(
      w.db
        .select()
        .from(ingredients)
        .all()
        .map((i) => [i.name, i.kcalPer100g]),
    ).toEqual([
      ["Arroz pilado", 360],
      ["Huevo de gallina", 143],
      ["Papa amarilla", 100],
    ]);
  });
});

describe("the Providers page", () => {
  test("lists offers grouped by city; a price change is kept in the offer's history; a withdrawn offer is marked", async () => {
    const w = await buildWorld();
    const bruno = await signedIn(w, w.people.bruno);
    const page = (await visitPage(bruno, "/providers")).props;
    expect(page.offers.data.map((g: any) => [g.name, g.offers.map((o: any) => o.providerName)])).toEqual([
      ["Cusco", ["Distribuidora Andina"]],
      ["Lima", ["Avícola del Sur", "Distribuidora Andina", "Avícola del Sur"]],
    ]);
    expect(page.cities.map((c: any) => [c.name, c.headquarters, c.offers])).toEqual([
      ["Cusco", 0, 1],
      ["Lima", 1, 3],
    ]);
    const change = { presentation: "Saco 50 kg", quantity: "50000", price: "188,80", price_includes_igv: true };
    expect((await submit(bruno, "PUT", `/offers/${w.sack.id}`, change, "/providers")).status).toBe(303);
    expect(
      (await submit(bruno, "PUT", `/offers/${w.sack.id}`, { ...change, active: false }, "/providers")).status,
    ).toBe(303);
    const history = (
      await visitPage(bruno, `/providers?history=${w.sack.id}`, {
        "x-inertia-partial-component": "providers/index",
        "x-inertia-partial-data": "history",
      })
    ).props.history;
    expect(history.rows.map((r: any) => [r.priceCents, r.costPerReferenceCents, r.changedByName])).toEqual([
      [18_880, 320, "Bruno Buyer"],
      [17_700, 300, ""],
    ]);
    const lima = (await visitPage(bruno, `/providers?city=${w.lima.id}&provider=${w.andina.id}`)).props.offers.data[0];
    expect(lima.offers.map((o: any) => [o.presentation, o.active])).toEqual([["Saco 50 kg", false]]);
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "offer.updated")).all();
    expect(JSON.parse(audit[0].after!)).toMatchObject({ priceCents: 18_880 });
  });

  test("the provider dialog checks the RUC; the providers tab lists and exports them; one with offers stays", async () => {
    const w = await buildWorld();
    const bruno = await signedIn(w, w.people.bruno);
    await submit(bruno, "POST", "/providers", { name: "Abarrotes Conchucos", ruc: "20453456781" }, "/providers");
    expect((await visitPage(bruno, "/providers")).props.errors).toEqual({ ruc: es("validation.ruc_check_digit") });
    const ok = await submit(
      bruno,
      "POST",
      "/providers",
      { name: "Abarrotes Conchucos", ruc: RUC.new, contact: "Teodoro Huamán" },
      "/providers",
    );
    expect(ok.status).toBe(302);
    const tab = (await visitPage(bruno, "/providers?tab=providers&sort=cities&direction=desc")).props.providers;
    expect(tab.data.map((p: any) => [p.name, p.offers, p.cities])).toEqual([
      ["Distribuidora Andina", 2, 2],
      ["Avícola del Sur", 2, 1],
      ["Abarrotes Conchucos", 0, 0],
    ]);
    const refused = await submitJson(bruno, "DELETE", `/providers/${w.andina.id}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(
      es("food.providers.has_offers", { name: "Distribuidora Andina", count: 2 }),
    );
    const book = await workbook(await bruno.get("/providers/export?tab=providers&search=conchucos"));
    expect(book[es("food.providers.title")].slice(1)).toEqual([
      ["Abarrotes Conchucos", RUC.new, "Teodoro Huamán", "", "", 0, 0],
    ]);
    expect(w.db.select().from(providers).all()).toHaveLength(3);

    // The Cities and Categories dialogs export their lists, each to those who may see it.
    const cities = await workbook(await bruno.get("/cities/export"));
    expect(cities[es("food.cities.title")][0]).toEqual(["Ciudad", "Región", "Comedores", "Sedes", "Ofertas"]);
    expect(cities[es("food.cities.title")].map((row) => row[0])).toEqual(expect.arrayContaining(["Lima", "Cusco"]));
    const nora = await signedIn(w, w.people.nora);
    const categories = await workbook(await nora.get("/ingredient-categories/export"));
    expect(categories[es("food.categories.title")]).toEqual(
      expect.arrayContaining([["Nombre", "Descripción", "Insumos"], expect.arrayContaining(["Cereales"])]),
    );
    const carla = await signedIn(w, w.people.carla);
    for (const path of ["/cities/export", "/ingredient-categories/export"])
      expect({ path, status: (await carla.get(path)).status }).toEqual({ path, status: 403 });
  });

  test("the cities dialog adds, renames and deletes a city; one in use stays", async () => {
    const w = await buildWorld();
    const bruno = await signedIn(w, w.people.bruno);
    expect((await submit(bruno, "POST", "/cities", { name: "Puno", region: "Puno" }, "/providers")).status).toBe(302);
    const puno = (await visitPage(bruno, "/providers")).props.cities.find((c: any) => c.name === "Puno");
    expect(
      (await submit(bruno, "PUT", `/cities/${puno.id}`, { name: "Juliaca", region: "Puno" }, "/providers")).status,
    ).toBe(303);
    expect((await submitJson(bruno, "DELETE", `/cities/${w.lima.id}`)).status).toBe(409);
    expect((await submit(bruno, "DELETE", `/cities/${puno.id}`, {}, "/providers")).status).toBe(303);
    expect((await visitPage(bruno, "/providers")).props.cities.map((c: any) => c.name)).toEqual(["Cusco", "Lima"]);
  });
});

describe("the Logistics page", () => {
  test("each headquarters in scope is a logistics centre with the cheapest current offer of each ingredient in its city", async () => {
    const w = await buildWorld();
    const bruno = await signedIn(w, w.people.bruno);
    const page = (await visitPage(bruno, "/logistics")).props;
    // Bruno's area is at Catering X's headquarters: only its headquarters are his centres.
    expect(page.centres.map((c: any) => [c.name, c.cityName, c.stocked])).toEqual([["Sede Lima", "Lima", 2]]);
    expect(page.filters).toEqual({ centre: w.x.headquartersId, search: "" });
    expect(
      page.stock.data.map((r: any) => [r.ingredientName, r.offer.providerName, r.offer.presentation, r.offersInCity]),
    ).toEqual([
      ["Arroz pilado", "Avícola del Sur", "Saco 49 kg", 2],
      ["Huevo de gallina", "Avícola del Sur", "Jaba 30", 1],
    ]);
    expect((await bruno.get(`/logistics?centre=${w.y.headquartersId}`, { inertia: true })).status).toBe(404);
    const book = await workbook(await bruno.get("/logistics/export?search=arroz"));
    expect(book["Sede Lima"].slice(1).map((r) => [r[0], r[1], r[2], r[10]])).toEqual([
      ["Cereales", "Avícola del Sur", "Arroz pilado", 2.51],
    ]);
  });

  test("a centre without a city stocks nothing and says how to give it one", async () => {
    const w = await buildWorld();
    w.db.update(headquarters).set({ cityId: null }).where(eq(headquarters.id, w.x.headquartersId)).run();
    const bruno = await signedIn(w, w.people.bruno);
    const page = (await visitPage(bruno, "/logistics")).props;
    expect(page.centres.map((c: any) => [c.name, c.cityName])).toEqual([["Sede Lima", null]]);
    expect(page.stock).toBeNull();
    const html = await (await bruno.get("/logistics")).text();
    expect(html).toContain(es("food.logistics.set_city"));
  });
});

describe("the pages render on the server in both languages", () => {
  test("each page's first load is whole HTML with its words", async () => {
    const w = await buildWorld();
    const both = makeRole(w.db, "all food", ["food.view", "food.manage", "logistics.view", "logistics.manage"]);
    const area = createArea(w.db, CLI_ACTOR, EVERYTHING, {
      name: "Todo",
      headquarters_id: w.x.headquartersId,
      role_ids: [both],
    }).id;
    const chef = await addUser(w.db, "Chef Jefe", "chef@mesa.test");
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: chef.id, areaId: area, roleId: both });
    const client = await signedIn(w, chef);
    for (const [path, words] of [
      ["/ingredients", ["Distribuidora Andina", "Ofertas por proveedor", "S/"]],
      ["/ingredients?tab=ingredients", ["Huevo de gallina", "Kcal/100 g"]],
      ["/providers", ["Ofertas por ciudad", "Cusco"]],
      ["/providers?tab=providers", [RUC.andina]],
      ["/logistics", ["Sede Lima", "Saco 49 kg"]],
    ] as const) {
      const response = await client.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const html = await response.text();
      for (const word of words) expect({ path, word, found: html.includes(word) }).toEqual({ path, word, found: true });
    }
    await submit(client, "PUT", "/settings/language", { locale: "en" }, "/ingredients");
    const english = await (await client.get("/ingredients")).text();
    expect(english).toContain("Offers by provider");
    // Money reads "S/ 3.00" in English too, never "PEN 3.00".
    expect(english).toMatch(/S\/\u00a0\d/);
    expect(english).not.toContain("PEN\u00a0");
  });
});
