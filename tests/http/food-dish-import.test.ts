/**
 * The dishes workbook through the app, as background jobs: only `food.manage` held at headquarters previews and
 * imports (a cafe area's grants nothing; `food.view` downloads the template); the preview writes nothing; confirming
 * it writes its plan; a plan the catalogue no longer matches writes nothing and shows the new preview; a file with a
 * bad row lists it by row and column in the viewer's language.
 *
 * The world: Catering X with Sede Lima and Comedor A. "Nora Nutri" is a nutritionist and "Bruno Buyer" a buyer at
 * Sede Lima; "Carla Cafe" holds every food permission in Comedor A's area, where they grant nothing.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { dishCategories, dishes, jobs, recipeLines } from "../../db/schema";
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

/** Sends the workbook from the Food page (the started job is flashed back to it). */
function upload(client: Client, bytes: ArrayBuffer) {
  const form = new FormData();
  form.append("file", new File([bytes], "platos.xlsx"));
  return client.request("/food/dishes/import/preview", {
    method: "POST",
    body: form,
    inertia: true,
    headers: { referer: `${BASE}/food` },
  });
}

/** Confirms a preview (the job that worked it out), as the dialog does. */
function confirm(client: Client, job: unknown) {
  return client.request("/food/dishes/import", {
    method: "POST",
    json: { job },
    inertia: true,
    headers: { referer: `${BASE}/food` },
  });
}

/** The person's latest dishes import, once every job has run, as the dialog reads it. */
async function latest(w: { app: { services: { jobs: { idle(): Promise<void> } } } }, client: Client) {
  await w.app.services.jobs.idle();
  const response = await client.get("/food/dishes/import/latest", { headers: { accept: "application/json" } });
  expect(response.status).toBe(200);
  return (await response.json()).job;
}

const flashOf = async (client: Client) => (await visitPage(client, "/food")).flash;
const errorsOf = async (client: Client) => (await visitPage(client, "/food")).props.errors;

describe("the dishes workbook on the Food page", () => {
  test("only food.manage at headquarters imports; food.view downloads the template", async () => {
    const w = await buildWorld();
    const bytes = workbook(GOOD);
    const carla = await signedIn(w, w.people.carla);
    const bruno = await signedIn(w, w.people.bruno);
    for (const client of [carla, bruno]) {
      expect((await upload(client, bytes)).status).toBe(403);
      expect((await confirm(client, 1)).status).toBe(403);
      expect((await client.get("/food/dishes/import/latest")).status).toBe(403);
    }
    expect((await carla.get("/food/dishes/import/template")).status).toBe(403);
    const template = await bruno.get("/food/dishes/import/template");
    expect(template.status).toBe(200);
    const book = XLSX.read(new Uint8Array(await template.arrayBuffer()), { type: "array" });
    expect(book.SheetNames).toEqual(["Recetas", "Ejemplo"]);
    expect(w.db.select().from(dishes).all()).toHaveLength(0);
    expect(w.db.select().from(jobs).all()).toHaveLength(0);
  });

  test("the preview writes nothing; confirming writes it; a stale one shows the new preview", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    const bytes = workbook(GOOD);
    expect((await upload(nora, bytes)).status).toBe(302);
    // The page hears of the job at once; it runs in the background.
    expect((await flashOf(nora)).dishesImport).toMatchObject({ step: "checking", fileName: "platos.xlsx" });
    const preview = await latest(w, nora);
    expect(preview).toMatchObject({
      step: "preview",
      fileName: "platos.xlsx",
      rows: 2,
      counts: { dishesCreated: 1, recipesCreated: 1 },
      problems: [],
      changed: false,
      canConfirm: true,
    });
    expect(w.db.select().from(dishes).all()).toHaveLength(0);

    // Someone creates the dish meanwhile: nothing is written, the new preview says it would be changed.
    const now = new Date();
    const made = w.db
      .insert(dishes)
      .values({ name: "Arroz con pollo", createdAt: now, updatedAt: now })
      .returning()
      .get();
    expect((await confirm(nora, preview.id)).status).toBe(302);
    const again = await latest(w, nora);
    expect(again).toMatchObject({
      step: "preview",
      changed: true,
      canConfirm: true,
      counts: { dishesUpdated: 1, recipesCreated: 1 },
    });
    expect(w.db.select().from(recipeLines).all()).toHaveLength(0);
    // The first preview was used up by its confirmation.
    await confirm(nora, preview.id);
    expect(await errorsOf(nora)).toEqual({ confirm: es("foodImportDishes.confirm_unavailable") });

    await confirm(nora, again.id);
    const done = await latest(w, nora);
    expect(done).toMatchObject({ step: "done", counts: { dishesUpdated: 1, recipesCreated: 1 } });
    expect(done.notice).toBe(es("foodImportDishes.done", { count: 2 }));
    expect(w.db.select().from(dishes).where(eq(dishes.id, made.id)).get()!.name).toBe("Arroz con pollo");
    expect(
      w.db
        .select()
        .from(recipeLines)
        .all()
        .map((l) => l.quantity),
    ).toEqual([120, 180]);

    // A confirmation without its preview is refused: the preview always comes first.
    const bare = await confirm(nora, undefined);
    expect(bare.status).toBe(302);
    expect(await errorsOf(nora)).toEqual({ confirm: es("foodImportDishes.confirm_unavailable") });
    expect((await latest(w, nora)).id).toBe(done.id);
  });

  test("a bad row is listed by row and column, in the viewer's language, and nothing is written", async () => {
    const w = await buildWorld();
    const nora = await signedIn(w, w.people.nora);
    await upload(nora, workbook([...GOOD, ["Sopa", "Segundo", "Staff", "Papa", 100]]));
    expect(await latest(w, nora)).toMatchObject({
      step: "problems",
      canConfirm: false,
      problems: ["Fila 4 (Insumo): Insumo desconocido: Papa."],
    });
    expect(w.db.select().from(dishes).all()).toHaveLength(0);
  });
});
