/**
 * The dishes workbook through the app: only `food.manage` held at headquarters previews and imports (a cafe area's
 * grants nothing; `food.view` downloads the template); the preview writes nothing; the same file with the preview's
 * fingerprint writes it; a fingerprint the catalogue no longer matches writes nothing and shows the new preview; a
 * file with a bad row lists it by row and column in the viewer's language.
 *
 * The world: Catering X with Sede Lima and Comedor A. "Nora Nutri" is a nutritionist and "Bruno Buyer" a buyer at
 * Sede Lima; "Carla Cafe" holds every food permission in Comedor A's area, where they grant nothing.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { dishCategories, dishes, recipeLines } from "../../db/schema";
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
import { createIngredient } from "../../src/domain/food/ingredients";
import { BASE, createTestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, visitPage } from "../support/requests";
import type { Client } from "../support/app";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

async function buildWorld() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede Lima");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const everything = makeRole(db, "food everything", ["food.view", "food.manage"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Nutrición y compras",
    headquarters_id: x.headquartersId,
    role_ids: [findRoleByName(db, "nutritionist")!.id, findRoleByName(db, "buyer")!.id],
  }).id;
  const cocina = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Cocina A", cafe_id: cafeA, role_ids: [everything] }).id;
  const people = {
    nora: await addUser(db, "Nora Nutri", "nora@mesa.test"),
    bruno: await addUser(db, "Bruno Buyer", "bruno@mesa.test"),
    carla: await addUser(db, "Carla Cafe", "carla@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, {
    userId: people.nora.id,
    areaId: sede,
    roleId: findRoleByName(db, "nutritionist")!.id,
  });
  assignRole(db, CLI_ACTOR, EVERYTHING, {
    userId: people.bruno.id,
    areaId: sede,
    roleId: findRoleByName(db, "buyer")!.id,
  });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.carla.id, areaId: cocina, roleId: everything });
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  createIngredient(db, CLI_ACTOR, { name: "Arroz pilado", category_id: cereals.id, base_unit: "g", kcal: 358 });
  createIngredient(db, CLI_ACTOR, { name: "Pollo", category_id: cereals.id, base_unit: "g", kcal: 215 });
  db.insert(dishCategories).values({ name: "Segundo", unit: "g" }).run();
  return { ...app, app, people };
}

function workbook(rows: (string | number | null)[][]): ArrayBuffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Recetas");
  return XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer;
}

const HEADER = ["Plato", "Categorías", "Nivel", "Insumo", "Cantidad"];
const GOOD = [
  HEADER,
  ["Arroz con pollo", "Segundo", "Staff", "Arroz pilado", 120],
  ["Arroz con pollo", "", "Staff", "Pollo", 180],
];

/** Sends the workbook from the Ingredients page (the flash is read on the next page visited). */
function upload(client: Client, path: string, bytes: ArrayBuffer, fingerprint?: string) {
  const form = new FormData();
  form.append("file", new File([bytes], "platos.xlsx"));
  if (fingerprint) form.append("fingerprint", fingerprint);
  return client.request(path, {
    method: "POST",
    body: form,
    inertia: true,
    headers: { referer: `${BASE}/ingredients` },
  });
}

const flashOf = async (client: Client) => (await visitPage(client, "/ingredients")).flash;

describe("the dishes workbook on the Food page", () => {
  test("only food.manage at headquarters imports; food.view downloads the template", async () => {
    const w = await buildWorld();
    const bytes = workbook(GOOD);
    const carla = await signedIn(w, w.people.carla);
    const bruno = await signedIn(w, w.people.bruno);
    for (const client of [carla, bruno]) {
      expect((await upload(client, "/food/dishes/import/preview", bytes)).status).toBe(403);
      expect((await upload(client, "/food/dishes/import", bytes, "x")).status).toBe(403);
    }
    expect((await carla.get("/food/dishes/import/template")).status).toBe(403);
    const template = await bruno.get("/food/dishes/import/template");
    expect(template.status).toBe(200);
    const book = XLSX.read(new Uint8Array(await template.arrayBuffer()), { type: "array" });
    expect(book.SheetNames).toEqual(["Recetas", "Ejemplo"]);
    expect(w.db.select().from(dishes).all()).toHaveLength(0);
  });

  test("the preview writes nothing; its fingerprint writes it; a stale one shows the new preview", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const bytes = workbook(GOOD);
    expect((await upload(nora, "/food/dishes/import/preview", bytes)).status).toBe(302);
    const preview = (await flashOf(nora)).dishesImport;
    expect(preview).toMatchObject({
      step: "preview",
      fileName: "platos.xlsx",
      rows: 2,
      counts: { dishesCreated: 1, recipesCreated: 1 },
      problems: [],
      changed: false,
    });
    expect(w.db.select().from(dishes).all()).toHaveLength(0);

    // Someone creates the dish meanwhile: nothing is written, the new preview says it would be changed.
    const now = new Date();
    const made = w.db
      .insert(dishes)
      .values({ name: "Arroz con pollo", createdAt: now, updatedAt: now })
      .returning()
      .get();
    await upload(nora, "/food/dishes/import", bytes, preview.fingerprint);
    const again = (await flashOf(nora)).dishesImport;
    expect(again).toMatchObject({ step: "preview", changed: true, counts: { dishesUpdated: 1, recipesCreated: 1 } });
    expect(w.db.select().from(recipeLines).all()).toHaveLength(0);

    await upload(nora, "/food/dishes/import", bytes, again.fingerprint);
    const done = await flashOf(nora);
    expect(done.dishesImport).toMatchObject({ step: "done", counts: { dishesUpdated: 1, recipesCreated: 1 } });
    expect(done.success).toBe(es("foodImportDishes.done", { count: 2 }));
    expect(w.db.select().from(dishes).where(eq(dishes.id, made.id)).get()!.name).toBe("Arroz con pollo");
    expect(
      w.db
        .select()
        .from(recipeLines)
        .all()
        .map((l) => l.quantity),
    ).toEqual([120, 180]);

    // A store without a fingerprint is refused: the preview always comes first.
    const bare = await upload(nora, "/food/dishes/import", bytes);
    expect(bare.status).toBe(302);
    expect((await flashOf(nora)).dishesImport).toBeUndefined();
  });

  test("a bad row is listed by row and column, in the viewer's language, and nothing is written", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    await upload(nora, "/food/dishes/import/preview", workbook([...GOOD, ["Sopa", "Segundo", "Staff", "Papa", 100]]));
    expect((await flashOf(nora)).dishesImport).toMatchObject({
      step: "problems",
      fingerprint: null,
      problems: ["Fila 4 (Insumo): Insumo desconocido: Papa."],
    });
    expect(w.db.select().from(dishes).all()).toHaveLength(0);
  });
});
