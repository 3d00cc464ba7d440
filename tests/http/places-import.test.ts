/**
 * The places workbook import through the app, shown before it is written: uploading a workbook from the Management
 * page (a multipart form) starts a background job that checks it; the page's `importJob` then shows the preview
 * (what would be created, changed or left alone, the example rows skipped, the changes) or the rows to fix, and
 * nothing is written until the person confirms. Confirming writes exactly the preview's plan, or — when the places
 * changed meanwhile — nothing, with the new preview. The upload waits under STORAGE_PATH for the confirmation,
 * only the uploader's, for a bounded time, and is deleted when used, discarded, replaced or expired.
 *
 * Also: permissions (the routes need places.manage; the Services and Prices sheets need their own permissions when
 * they change something), files refused at once on the file field, the template whose example rows are marked and
 * never imported, and the places export, which imports back unchanged.
 *
 * The world: business "Catering X S.A.C." runs Mina Norte → Unidad A → Comedor A, which offers DES.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { translate, type TranslationKey, type TranslationParams, type KeysUnder } from "../../src/shared/i18n";
import { auditLog, cafes, cafeServices, jobs, mines, servicePriceHistory, services, units } from "../../db/schema";
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
import { createJob, UPLOAD_KEPT_MS } from "../../src/domain/jobs/jobs";
import { PLACES_IMPORT } from "../../src/domain/jobs/places-import";
import { createService } from "../../src/domain/places/services";
import { buildWorkbook } from "../../src/domain/spreadsheets/write";
import { BASE, Client, createTestApp, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

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

/** Uploads a workbook, waits until its check has ended, and returns the Management page's `importJob`. */
async function previewWorkbook(w: World, client: Client, bytes: Uint8Array<ArrayBuffer>): Promise<Record<string, any>> {
  const response = await upload(client, bytes);
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe("/management");
  await w.app.services.jobs.idle();
  return (await pageProps(client)).props.importJob;
}

/** Confirms the preview of job `id` as the page's button does. */
function confirm(client: Client, id: number): Promise<Response> {
  return client.request(`/management/import/${id}/confirm`, {
    method: "POST",
    inertia: true,
    headers: { referer: `${BASE}/management` },
  });
}

/** Confirms, waits for the import to end, and returns the page's `importJob` and `errors`. */
async function confirmAndWait(w: World, client: Client, id: number) {
  const response = await confirm(client, id);
  expect(response.status).toBe(302);
  await w.app.services.jobs.idle();
  const page = await pageProps(client);
  return { importJob: page.props.importJob, errors: page.props.errors };
}

const uploadsKept = (w: World) => {
  const folder = join(w.app.config.storagePath, "jobs");
  return existsSync(folder) ? readdirSync(folder) : [];
};

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

const count = (key: KeysUnder<"import.count">, n: number) => es(`import.count.${key}`, { count: n });

/** The book's sheets as rows (first row: headers). */
function sheetsOf(bytes: Uint8Array): Record<string, unknown[][]> {
  const book = XLSX.read(bytes, { type: "array" });
  return Object.fromEntries(
    book.SheetNames.map((name) => [name, XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name], { header: 1 })]),
  );
}

describe("importing a places workbook from the Management page", () => {
  test("the upload is checked and shown first, nothing written; confirmed, exactly that is imported", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const minesBefore = w.db.select().from(mines).all();
    const response = await upload(client, good());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/management");
    // Answered before the check ran: the job waits, queued, with its upload under STORAGE_PATH/jobs.
    const queued = w.db.select().from(jobs).get()!;
    expect({ state: queued.state, kind: queued.kind, userId: queued.userId }).toEqual({
      state: "queued",
      kind: "places.import",
      userId: w.people.root.id,
    });
    expect(queued.upload!.startsWith(join(w.app.config.storagePath, "jobs"))).toBe(true);
    await w.app.services.jobs.idle();
    const page = await pageProps(client);
    const shown = page.props.importJob;
    expect(shown).toMatchObject({
      id: queued.id,
      state: "succeeded",
      step: "preview",
      fileName: "lugares.xlsx",
      notice: null,
      examples: null,
      problems: {},
      canConfirm: true,
      changeCount: 5,
    });
    // Counts with real plurals, one line per kind.
    expect(shown.counts).toEqual(["1 mina nueva", "1 unidad nueva", "1 comedor nuevo", "2 precios nuevos"]);
    // In the order they would be written: the places the database holds first.
    expect(shown.changes).toEqual([
      "Precio de DES en Mina Norte › Unidad A › Comedor A: S/\u00a010.00",
      "Mina nueva Mina Este — servicios DES",
      "Unidad nueva Mina Este › Unidad E — servicios DES",
      `Comedor nuevo Mina Este › Unidad E › Comedor E — empresa: Catering X S.A.C.; zona horaria: ${w.app.config.timezone}; servicios DES`,
      "Precio de DES en Mina Este › Unidad E › Comedor E: S/\u00a012.50",
    ]);
    expect(Date.parse(shown.expiresAt) - Date.now()).toBeGreaterThan(UPLOAD_KEPT_MS - 60_000);
    // Nothing written; the upload waits for the confirmation.
    expect(w.db.select().from(mines).all()).toEqual(minesBefore);
    expect(w.db.select().from(servicePriceHistory).all()).toEqual([]);
    expect(existsSync(queued.upload!)).toBe(true);

    const { importJob: done } = await confirmAndWait(w, client, queued.id);
    expect(done).toMatchObject({
      state: "succeeded",
      step: "done",
      fileName: "lugares.xlsx",
      notice: es("import.done"),
      counts: ["1 mina nueva", "1 unidad nueva", "1 comedor nuevo", "2 precios nuevos"],
      canConfirm: false,
    });
    expect(done.id).not.toBe(queued.id);
    expect(done.progress.label).toBe("import.progress_saving");
    // The upload is deleted once the import ended.
    expect(existsSync(queued.upload!)).toBe(false);
    expect(uploadsKept(w)).toEqual([]);
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
    // The preview is used: confirming it again imports nothing twice.
    expect((await confirmAndWait(w, client, queued.id)).errors).toEqual({ confirm: es("import.confirm_unavailable") });
    expect(w.db.select().from(cafes).where(eq(cafes.name, "Comedor E")).all()).toHaveLength(1);
  });

  test("the page speaks the viewer's language: English plurals for the same preview", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    client.cookies.set("locale", "en");
    const shown = await previewWorkbook(
      w,
      client,
      xlsx({
        Minas: [["Nombre"], ["Mina Uno"], ["Mina Dos"], ["Mina Norte"]],
      }),
    );
    expect(shown.counts).toEqual(["2 new mines, 1 mine unchanged"]);
    expect(shown.notice).toBeNull();
  });

  test("when the places change between the preview and the confirmation, nothing is written and the new preview is shown", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const shown = await previewWorkbook(w, client, good());
    expect(shown.counts).toContain("2 precios nuevos");
    // Meanwhile someone prices Comedor A at 10.00, as the workbook does.
    w.db.update(cafeServices).set({ priceCents: 1000 }).where(eq(cafeServices.cafeId, w.cafeA)).run();
    const { importJob: changed } = await confirmAndWait(w, client, shown.id);
    expect(changed).toMatchObject({
      state: "failed",
      step: "preview",
      notice: es("import.plan_changed"),
      counts: ["1 mina nueva", "1 unidad nueva", "1 comedor nuevo", "1 precio nuevo, 1 precio sin cambios"],
      canConfirm: true,
    });
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Este")).get()).toBeUndefined();
    // The new preview, confirmed, is imported.
    const { importJob: done } = await confirmAndWait(w, client, changed.id);
    expect(done.step).toBe("done");
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Este")).get()).toBeDefined();
    expect(uploadsKept(w)).toEqual([]);
  });

  test("only its uploader confirms a preview, while it is kept; discarding or a new upload deletes the file", async () => {
    const w = await buildWorld();
    const root = await signedIn(w, w.people.root);
    const shown = await previewWorkbook(w, root, good());
    // Someone else's preview cannot be confirmed, even with places.manage: the same answer as for a missing one.
    const other = await signedIn(w, w.people.placesManager);
    expect((await confirmAndWait(w, other, shown.id)).errors).toEqual({ confirm: es("import.confirm_unavailable") });
    expect((await confirmAndWait(w, root, 999_999)).errors).toEqual({ confirm: es("import.confirm_unavailable") });
    expect(uploadsKept(w)).toHaveLength(1);
    // A new upload replaces the preview waiting: its file is deleted, and it can no longer be confirmed.
    const second = await previewWorkbook(w, root, xlsx({ Minas: [["Nombre"], ["Mina Segunda"]] }));
    expect(uploadsKept(w)).toHaveLength(1);
    expect((await confirmAndWait(w, root, shown.id)).errors).toEqual({ confirm: es("import.confirm_unavailable") });
    // Discarding is closing it: the file goes.
    await root.request(`/jobs/${second.id}/dismiss`, {
      method: "POST",
      inertia: true,
      headers: { referer: `${BASE}/management` },
    });
    expect(uploadsKept(w)).toEqual([]);
    expect((await pageProps(root)).props.importJob).toBeNull();
    expect((await confirmAndWait(w, root, second.id)).errors).toEqual({
      confirm: es("import.confirm_unavailable"),
    });
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Segunda")).get()).toBeUndefined();
  });

  test("a preview left unconfirmed past its time can no longer be imported, and its file is deleted", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const shown = await previewWorkbook(w, client, good());
    w.db
      .update(jobs)
      .set({ finishedAt: new Date(Date.now() - UPLOAD_KEPT_MS - 1000) })
      .where(eq(jobs.id, shown.id))
      .run();
    const expired = (await pageProps(client)).props.importJob;
    expect(expired).toMatchObject({
      step: "preview",
      canConfirm: false,
      notice: es("import.expired", { minutes: 30 }),
    });
    expect((await confirmAndWait(w, client, shown.id)).errors).toEqual({ confirm: es("import.confirm_unavailable") });
    expect(uploadsKept(w)).toEqual([]);
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Este")).get()).toBeUndefined();
  });

  test("bad rows come back as the rows to fix, naming sheet, row and column, and nothing can be confirmed", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const minesBefore = w.db.select().from(mines).all();
    const importJob = await previewWorkbook(
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
    expect(importJob).toMatchObject({ state: "failed", step: "problems", notice: es("import.errors_title") });
    expect(importJob.problems).toEqual({
      "rows.Comedores.2.Empresa": `${es("import.row_column_label", { sheet: "Comedores", row: 2, column: "Empresa" })}: ${es("import.business_not_found", { business: "Nadie S.A.C." })}`,
      "rows.Precios.2.Precio": `${es("import.row_column_label", { sheet: "Precios", row: 2, column: "Precio" })}: ${es("import.price_invalid", { value: "doce" })}`,
    });
    expect(w.db.select().from(mines).all()).toEqual(minesBefore);
    // Nothing to confirm, so the file is not kept.
    expect(uploadsKept(w)).toEqual([]);
    expect((await confirmAndWait(w, client, importJob.id)).errors).toEqual({
      confirm: es("import.confirm_unavailable"),
    });
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
    expect(uploadsKept(w)).toEqual([]);
  });

  test("a workbook the job cannot use fails with a message about the file; closing the result hides it", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    // A real workbook (so it passes the checks at upload), but without any sheet Mesa recognises.
    const importJob = await previewWorkbook(w, client, xlsx({ Notas: [["Texto"], ["hola"]] }));
    expect(importJob).toMatchObject({
      state: "failed",
      step: "failed",
      notice: es("import.no_sheets", {
        sheets: "Servicios/Services, Minas/Mines, Unidades/Units, Comedores/Cafes, Precios/Prices",
      }),
      problems: {},
    });
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

  test("while an import of theirs is under way, another upload or a confirmation is refused; someone else's does not count", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const shown = await previewWorkbook(w, client, good());
    const waiting = createJob(w.db, {
      kind: PLACES_IMPORT,
      actor: { userId: w.people.root.id, label: w.people.root.email },
      scope: EVERYTHING,
      input: { step: "preview", fileName: "otro.xlsx" },
    });
    await upload(client, good());
    expect((await pageProps(client)).props.errors).toEqual({ file: es("import.busy") });
    await confirm(client, shown.id);
    expect((await pageProps(client)).props.errors).toEqual({ confirm: es("import.busy") });
    expect(
      w.db
        .select()
        .from(jobs)
        .all()
        .map((j) => j.id),
    ).toEqual([shown.id, waiting.id]);
    // Another person's import under way is no reason to wait (theirs is checked: a new mine needs a cafe of theirs).
    const other = await signedIn(w, w.people.placesManager);
    const theirs = await previewWorkbook(w, other, xlsx({ Minas: [["Nombre"], ["Mina Otra"]] }));
    expect(Object.values(theirs.problems)).toEqual([
      `${es("import.row_column_label", { sheet: "Minas", row: 2, column: "Nombre" })}: ${es("import.needs_cafe", { name: "Mina Otra" })}`,
    ]);
  });

  test("without places.manage the upload and the confirmation are forbidden", async () => {
    const w = await buildWorld();
    const root = await signedIn(w, w.people.root);
    const shown = await previewWorkbook(w, root, good());
    const client = await signedIn(w, w.people.viewer);
    expect((await upload(client, good())).status).toBe(403);
    expect((await confirm(client, shown.id)).status).toBe(403);
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Este")).get()).toBeUndefined();
  });

  test("places.manage alone does not allow changing services or prices", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.placesManager);
    const importJob = await previewWorkbook(
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
});

describe("the template", () => {
  test("downloads in the user's language with the five sheets and an example row marked as one in the first column", async () => {
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
    const book = sheetsOf(bytes);
    expect(Object.keys(book)).toEqual(["Servicios", "Minas", "Unidades", "Comedores", "Precios"]);
    expect(book.Comedores).toEqual([
      ["Ejemplo", "Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
      [
        "EJEMPLO (no se importa)",
        "Mina Ejemplo",
        "Unidad Norte",
        "Comedor Principal",
        "Catering X S.A.C.",
        w.app.config.timezone,
        "DES",
      ],
    ]);
    const english = new Client(w.app);
    for (const [k, v] of root.cookies) english.cookies.set(k, v);
    english.cookies.set("locale", "en");
    const englishBook = sheetsOf(
      new Uint8Array(await (await english.get("/management/import/template")).arrayBuffer()),
    );
    expect(Object.keys(englishBook)).toEqual(["Services", "Mines", "Units", "Cafes", "Prices"]);
    expect(englishBook.Mines[1][0]).toBe("EXAMPLE (not imported)");

    // Uploaded unchanged, it imports nothing, and the preview says why.
    const before = { services: w.db.select().from(services).all(), mines: w.db.select().from(mines).all() };
    const shown = await previewWorkbook(w, root, bytes as Uint8Array<ArrayBuffer>);
    expect(shown).toMatchObject({
      step: "preview",
      notice: es("import.nothing_to_import"),
      counts: [],
      changes: [],
      canConfirm: false,
      examples: es("import.examples_skipped", {
        count: 5,
        rows: ["Servicios", "Minas", "Unidades", "Comedores", "Precios"]
          .map((sheet) => es("import.row_label", { sheet, row: 2 }))
          .join("; "),
      }),
    });
    expect(uploadsKept(w)).toEqual([]);
    expect({ services: w.db.select().from(services).all(), mines: w.db.select().from(mines).all() }).toEqual(before);
  });

  test("without places.view the template is forbidden", async () => {
    const w = await buildWorld();
    const noRole = await addUser(w.db, "Sin Rol", "none@mesa.test");
    const client = await signedIn(w, noRole);
    expect((await client.get("/management/import/template")).status).toBe(403);
  });
});

describe("the places export", () => {
  test("each tab exports the places workbook of its rows matching the search, named mesa-<tab>-<day>.xlsx", async () => {
    const w = await buildWorld();
    ensureCafe(w.db, "Mina Sur", "Unidad S", "=Comedor S", w.db.select().from(cafes).get()!.businessId!);
    const client = await signedIn(w, w.people.root);
    const response = await client.get("/management/export/cafes?search=Comedor%20A");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="mesa-cafes-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const book = sheetsOf(new Uint8Array(await response.arrayBuffer()));
    expect(book).toEqual({
      Servicios: [
        ["Código", "Nombre", "Tipo", "Descripción", "Activo"],
        ["DES", "Desayuno", "desayuno", "", "sí"],
      ],
      Minas: [
        ["Nombre", "Servicios"],
        ["Mina Norte", "DES"],
      ],
      Unidades: [
        ["Mina", "Nombre", "Servicios"],
        ["Mina Norte", "Unidad A", "DES"],
      ],
      Comedores: [
        ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
        ["Mina Norte", "Unidad A", "Comedor A", "Catering X S.A.C.", "America/Lima", "DES"],
      ],
      Precios: [["Mina", "Unidad", "Comedor", "Servicio", "Precio"]],
    });
    client.cookies.set("locale", "en");
    const mines = await client.get("/management/export/mines");
    expect(mines.headers.get("content-disposition")).toMatch(/filename="mesa-mines-/);
    const english = sheetsOf(new Uint8Array(await mines.arrayBuffer()));
    expect(Object.keys(english)).toEqual(["Services", "Mines", "Units", "Cafes", "Prices"]);
    // A name that looks like a formula comes out as text.
    expect(english.Cafes.map((r) => r[2])).toContain("'=Comedor S");
    expect((await client.get("/management/export/dinners")).status).toBe(404);
  });

  test("what the export writes imports back: the preview says everything is unchanged, and nothing is asked to confirm", async () => {
    const w = await buildWorld();
    w.db.update(cafeServices).set({ priceCents: 1450 }).where(eq(cafeServices.cafeId, w.cafeA)).run();
    ensureCafe(w.db, "Mina Norte", "Unidad A", "Comedor A2", w.db.select().from(cafes).get()!.businessId!);
    for (const who of [w.people.root, w.people.placesManager]) {
      const client = await signedIn(w, who);
      for (const table of ["mines", "units", "cafes"]) {
        const exported = new Uint8Array(await (await client.get(`/management/export/${table}`)).arrayBuffer());
        const shown = await previewWorkbook(w, client, exported as Uint8Array<ArrayBuffer>);
        expect({ who: who.email, table, ...shown }).toMatchObject({
          who: who.email,
          table,
          step: "preview",
          notice: es("import.nothing_to_import"),
          canConfirm: false,
          problems: {},
          changes: [],
          counts: [
            count("mines.unchanged", 1),
            count("units.unchanged", 1),
            count("cafes.unchanged", 2),
            count("services.unchanged", 1),
            count("prices.unchanged", 1),
          ],
        });
      }
    }
    expect(uploadsKept(w)).toEqual([]);
    expect(w.db.select().from(units).all()).toHaveLength(1);
  });
});
