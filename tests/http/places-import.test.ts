/**
 * The places workbook import through the app: uploading a workbook from the Management page (a multipart form)
 * starts a background job; once it ends, the page's `importJob` shows the counts, or the per-row errors with
 * nothing written. Also: permissions (the route needs places.manage; the Services and Prices sheets need their own
 * permissions), files refused at once on the file field, the upload kept under STORAGE_PATH only while the job
 * runs, and the template download in the user's language.
 *
 * The world: business "Catering X S.A.C." runs Mina Norte → Unidad A → Comedor A, which offers DES.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { translate } from "../../src/i18n";
import { auditLog, cafes, cafeServices, jobs, mines, servicePriceHistory, services } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { offerService } from "../../src/domain/places/service-assignments";
import { createJob } from "../../src/domain/jobs/jobs";
import { PLACES_IMPORT } from "../../src/domain/jobs/places-import";
import { createService } from "../../src/domain/places/services";
import { buildWorkbook } from "../../src/domain/spreadsheets/write";
import { BASE, Client, createTestApp, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, visitPage } from "../support/requests";

const es = (key: string, params?: Record<string, string | number>) => translate("es", key, params);

interface World {
  app: TestApp;
  db: Db;
  cafeA: number;
  people: { root: User; placesManager: User; viewer: User };
}

async function buildWorld(): Promise<World> {
  // Uploads are kept under STORAGE_PATH while their job runs: a folder of this test's own.
  const app = createTestApp({ env: { STORAGE_PATH: mkdtempSync(join(tmpdir(), "mesa-import-storage-")) } });
  const db = app.db;
  bootstrapAccess(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafe = db.select().from(cafes).where(eq(cafes.id, cafeA)).get()!;
  const des = createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
  const mineId = db.select().from(mines).where(eq(mines.name, "Mina Norte")).get()!.id;
  offerService(db, "mine", mineId, des);
  offerService(db, "unit", cafe.unitId, des);
  offerService(db, "cafe", cafeA, des);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const placesRole = makeRole(db, "places manager", ["places.view", "places.manage"]);
  const viewerRole = makeRole(db, "places viewer", ["places.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: x.headquartersId,
    role_ids: [superRole, placesRole],
  }).id;
  const caja = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Caja A", cafe_id: cafeA, role_ids: [viewerRole] }).id;
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  const placesManager = await addUser(db, "Gestor Lugares", "places@mesa.test");
  const viewer = await addUser(db, "Vera Vista", "viewer@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: sede, roleId: superRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: placesManager.id, areaId: sede, roleId: placesRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: viewer.id, areaId: caja, roleId: viewerRole });
  return { app, db, cafeA, people: { root, placesManager, viewer } };
}

type Rows = (string | number | null)[][];

/** An .xlsx file with the given sheets (first row: headers). */
function xlsx(sheets: Record<string, Rows>): Uint8Array<ArrayBuffer> {
  return buildWorkbook(
    Object.entries(sheets).map(([name, [header, ...rows]]) => ({
      name,
      columns: header.map((h, i) => ({ header: String(h), value: (row: Rows[number]) => row[i] })),
      rows,
    })),
  );
}

function upload(client: Client, bytes: Uint8Array<ArrayBuffer>, name = "lugares.xlsx"): Promise<Response> {
  const form = new FormData();
  form.append(
    "file",
    new File([bytes], name, { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }),
  );
  return client.request("/management/import", {
    method: "POST",
    inertia: true,
    body: form,
    headers: { referer: `${BASE}/management` },
  });
}

const pageProps = (client: Client, path = "/management") => visitPage(client, path);

/** Uploads a workbook, waits until its import job has ended, and returns the Management page's `importJob`. */
async function importWorkbook(w: World, client: Client, bytes: Uint8Array<ArrayBuffer>): Promise<Record<string, any>> {
  const response = await upload(client, bytes);
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe("/management");
  await w.app.services.jobs.idle();
  return (await pageProps(client)).props.importJob;
}

const good = () =>
  xlsx({
    Minas: [
      ["Nombre", "Servicios"],
      ["Mina Este", "DES"],
    ],
    Unidades: [
      ["Mina", "Nombre", "Servicios"],
      ["Mina Este", "Unidad E", "DES"],
    ],
    Comedores: [
      ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
      ["Mina Este", "Unidad E", "Comedor E", "Catering X S.A.C.", "", "DES"],
    ],
    Precios: [
      ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
      ["Mina Este", "Unidad E", "Comedor E", "DES", 12.5],
      ["Mina Norte", "Unidad A", "Comedor A", "DES", "10.00"],
    ],
  });

const tally = (created: number, updated: number) => es("import.tally", { created, updated });

describe("importing a places workbook from the Management page", () => {
  test("a super-administrator's upload creates the places and prices and says what it did", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const response = await upload(client, good());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/management");
    // Answered before the import ran: the job waits, queued, with its upload under STORAGE_PATH/jobs.
    const queued = w.db.select().from(jobs).get()!;
    expect({ state: queued.state, kind: queued.kind, userId: queued.userId }).toEqual({
      state: "queued",
      kind: "places.import",
      userId: w.people.root.id,
    });
    expect(queued.upload!.startsWith(join(w.app.config.storagePath, "jobs"))).toBe(true);
    expect(existsSync(queued.upload!)).toBe(true);
    await w.app.services.jobs.idle();
    const page = await pageProps(client);
    expect(page.props.importJob).toEqual({
      id: queued.id,
      state: "succeeded",
      fileName: "lugares.xlsx",
      // Saved: the service and the 2 mines, 2 units and 2 cafes the database then holds.
      progress: { done: 7, total: 7, label: "import.progress_saving" },
      summary: es("import.done", {
        mines: tally(1, 0),
        units: tally(1, 0),
        cafes: tally(1, 0),
        services: tally(0, 0),
        prices: tally(2, 0),
      }),
      error: null,
      problems: {},
    });
    expect(page.flash.success).toBeUndefined();
    // The upload is deleted once the job ended.
    expect(existsSync(queued.upload!)).toBe(false);
    const cafe = w.db.select().from(cafes).where(eq(cafes.name, "Comedor E")).get()!;
    expect(cafe.timeZone).toBe(w.app.config.timezone);
    expect(w.db.select().from(cafeServices).where(eq(cafeServices.cafeId, cafe.id)).get()!.priceCents).toBe(1250);
    const history = w.db.select().from(servicePriceHistory).all();
    expect(history.map((h) => [h.newPriceCents, h.changedBy])).toEqual([
      [1000, w.people.root.id],
      [1250, w.people.root.id],
    ]);
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "places.imported")).get()!;
    expect(audit.actorId).toBe(w.people.root.id);
  });

  test("bad rows come back as form errors naming sheet, row and column, and nothing is written", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const minesBefore = w.db.select().from(mines).all();
    const importJob = await importWorkbook(
      w,
      client,
      xlsx({
        Minas: [["Nombre"], ["Mina Este"]],
        Comedores: [
          ["Mina", "Unidad", "Nombre", "Empresa"],
          ["Mina Norte", "Unidad A", "Comedor A2", "Nadie S.A.C."],
        ],
        Precios: [
          ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
          ["Mina Norte", "Unidad A", "Comedor A", "DES", "doce"],
        ],
      }),
    );
    expect(importJob.state).toBe("failed");
    expect(importJob.error).toBe(es("import.failed"));
    expect(importJob.problems).toEqual({
      "rows.Comedores.2.Empresa": `${es("import.row_column_label", { sheet: "Comedores", row: 2, column: "Empresa" })}: ${es("import.business_not_found", { business: "Nadie S.A.C." })}`,
      "rows.Precios.2.Precio": `${es("import.row_column_label", { sheet: "Precios", row: 2, column: "Precio" })}: ${es("import.price_invalid", { value: "doce" })}`,
    });
    expect(w.db.select().from(mines).all()).toEqual(minesBefore);
    expect(w.db.select().from(servicePriceHistory).all()).toEqual([]);
  });

  test("a file that is not a workbook, or no file, is refused on the file field", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    await upload(client, new TextEncoder().encode("Nombre\nMina Este\n") as Uint8Array<ArrayBuffer>, "minas.csv");
    expect((await pageProps(client)).props.errors).toEqual({ file: es("import.not_xlsx") });
    await client.request("/management/import", {
      method: "POST",
      inertia: true,
      body: new FormData(),
      headers: { referer: `${BASE}/management` },
    });
    expect((await pageProps(client)).props.errors).toEqual({ file: es("import.file_required") });
    // Refused before any job: none was recorded, no file kept.
    expect(w.db.select().from(jobs).all()).toEqual([]);
    expect(
      existsSync(join(w.app.config.storagePath, "jobs")) ? readdirSync(join(w.app.config.storagePath, "jobs")) : [],
    ).toEqual([]);
  });

  test("a workbook the job cannot use fails with a message about the file; closing the result hides it", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    // A real workbook (so it passes the checks at upload), but without any sheet Mesa recognises.
    const importJob = await importWorkbook(w, client, xlsx({ Notas: [["Texto"], ["hola"]] }));
    expect(importJob.state).toBe("failed");
    expect(importJob.error).toBe(
      es("import.no_sheets", {
        sheets: "Servicios/Services, Minas/Mines, Unidades/Units, Comedores/Cafes, Precios/Prices",
      }),
    );
    expect(importJob.problems).toEqual({});
    // The result waits on the page until it is closed.
    expect((await pageProps(client)).props.importJob.id).toBe(importJob.id);
    const closed = await client.request(`/jobs/${importJob.id}/dismiss`, {
      method: "POST",
      inertia: true,
      headers: { referer: `${BASE}/management` },
    });
    expect(closed.headers.get("location")).toBe("/management");
    expect((await pageProps(client)).props.importJob).toBeNull();
  });

  test("while an import of theirs is under way, another upload is refused on the file field; someone else's does not count", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const waiting = createJob(w.db, {
      kind: PLACES_IMPORT,
      actor: { userId: w.people.root.id, label: w.people.root.email },
      scope: EVERYTHING,
      input: { fileName: "otro.xlsx" },
    });
    await upload(client, good());
    expect((await pageProps(client)).props.errors).toEqual({ file: es("import.busy") });
    expect(
      w.db
        .select()
        .from(jobs)
        .all()
        .map((j) => j.id),
    ).toEqual([waiting.id]);
    // Another person's import under way is no reason to wait.
    const other = await signedIn(w, w.people.placesManager);
    expect((await importWorkbook(w, other, xlsx({ Minas: [["Nombre"], ["Mina Otra"]] }))).state).toBe("failed");
  });

  test("without places.manage the upload is forbidden", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.viewer);
    const response = await upload(client, good());
    expect(response.status).toBe(403);
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Este")).get()).toBeUndefined();
  });

  test("places.manage alone does not allow the Services and Prices sheets", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.placesManager);
    const importJob = await importWorkbook(
      w,
      client,
      xlsx({
        Servicios: [
          ["Código", "Nombre", "Tipo"],
          ["CEN", "Cena", "cena"],
        ],
        Precios: [
          ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
          ["Mina Norte", "Unidad A", "Comedor A", "DES", 9],
        ],
      }),
    );
    expect(Object.values(importJob.problems)).toEqual([
      `${es("import.row_label", { sheet: "Servicios", row: 1 })}: ${es("import.sheet_not_allowed", { sheet: "Servicios" })}`,
      `${es("import.row_label", { sheet: "Precios", row: 1 })}: ${es("import.sheet_not_allowed", { sheet: "Precios" })}`,
    ]);
    expect(w.db.select().from(services).where(eq(services.code, "CEN")).get()).toBeUndefined();
  });

  test("the template downloads in the user's language with the five sheets and an example row that imports", async () => {
    const w = await buildWorld();
    // Anyone with places.view may download it; its example business is one the user may give a new cafe.
    expect((await (await signedIn(w, w.people.viewer)).get("/management/import/template")).status).toBe(200);
    const root = await signedIn(w, w.people.root);
    const response = await root.get("/management/import/template");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("spreadsheetml");
    expect(response.headers.get("content-disposition")).toMatch(
      /attachment; filename="mesa-plantilla-lugares-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    const book = XLSX.read(bytes, { type: "array" });
    expect(book.SheetNames).toEqual(["Servicios", "Minas", "Unidades", "Comedores", "Precios"]);
    expect(XLSX.utils.sheet_to_json(book.Sheets.Comedores, { header: 1 })).toEqual([
      ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
      ["Mina Ejemplo", "Unidad Norte", "Comedor Principal", "Catering X S.A.C.", w.app.config.timezone, "DES"],
    ]);
    const english = new Client(w.app);
    for (const [k, v] of root.cookies) english.cookies.set(k, v);
    english.cookies.set("locale", "en");
    const englishBook = XLSX.read(
      new Uint8Array(await (await english.get("/management/import/template")).arrayBuffer()),
      { type: "array" },
    );
    expect(englishBook.SheetNames).toEqual(["Services", "Mines", "Units", "Cafes", "Prices"]);

    // Uploaded unchanged, it creates its example places and leaves the existing service as it was.
    const before = w.db.select().from(services).all();
    expect((await importWorkbook(w, root, bytes as Uint8Array<ArrayBuffer>)).summary).toBe(
      es("import.done", {
        mines: tally(1, 0),
        units: tally(1, 0),
        cafes: tally(1, 0),
        services: tally(0, 0),
        prices: tally(1, 0),
      }),
    );
    expect(w.db.select().from(services).all()).toEqual(before);
  });

  test("without places.view the template is forbidden", async () => {
    const w = await buildWorld();
    const noRole = await addUser(w.db, "Sin Rol", "none@mesa.test");
    const client = await signedIn(w, noRole);
    expect((await client.get("/management/import/template")).status).toBe(403);
  });
});
