/**
 * The Dinners page's Excel dialog through the app: uploading a spreadsheet of diners (a multipart form) starts a
 * background job that reads and checks it; the page's `dinerImport` prop then shows the preview (what would be
 * created, updated or left unchanged, the rows with problems, the leavers) and nothing is written until the person
 * confirms. Confirming writes exactly the previewed plan of their choice about the leavers, or — when the diners
 * changed meanwhile — nothing, with the new preview. The upload waits under STORAGE_PATH/jobs, only the uploader's,
 * and is deleted once used or dismissed. A file that is not a spreadsheet is refused as a whole, with one message,
 * and recorded in the import ledger.
 *
 * Also: permissions (diners.import: the cafe manager has it, the cashier does not), the default cafe's scope (404
 * outside it), and someone else's preview, which cannot be confirmed or dismissed.
 *
 * The world (tests/support/pos.ts): Comedor Norte and Comedor Sur; subdealerships Contrata Uno and Contrata Dos;
 * Ana (40000001, Contrata Uno, Norte), Beto (40000002, Contrata Dos, Norte), Carla (40000003, Contrata Uno, Sur),
 * Darío (40000004, inactive, Norte). Jefa is the cafe manager of Norte; Cajera one of its cashiers.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { dinerImports, diners, jobs } from "../../db/schema";
import { xlsxBy } from "../../src/domain/spreadsheets/workbook-fixtures.test-support";
import { translate, type TranslationKey, type TranslationParams, translateDynamic } from "../../src/shared/i18n";
import { BASE, type Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

type Rows = (string | number | null)[][];

/** An .xlsx workbook (SheetJS) whose first sheet holds `rows` (first row: headers). */
function xlsx(rows: Rows): Uint8Array<ArrayBuffer> {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Comensales");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
}

const HEADER = ["Nombre", "DNI", "Teléfono", "Subconcesionaria", "Comedor"];

/** Ana with a new phone, and a new diner, both of Contrata Uno with a blank cafe (the default cafe's). */
const goodRows = (): Rows => [
  HEADER,
  ["Ana Quispe Mamani", "40000001", "987654321", "Contrata Uno", ""],
  ["Elena Nueva Ccori", "40000010", "", "Contrata Uno", ""],
];

async function world(): Promise<PosApp> {
  // Uploads are kept under STORAGE_PATH while their job runs: a folder of this test's own.
  return posApp({ STORAGE_PATH: mkdtempSync(join(tmpdir(), "mesa-diner-import-")) });
}

function upload(
  client: Client,
  bytes: Uint8Array<ArrayBuffer>,
  fields: { name?: string; cafe?: number | string | null; deactivate?: boolean; json?: boolean } = {},
): Promise<Response> {
  const form = new FormData();
  form.append("file", new File([bytes], fields.name ?? "comensales.xlsx"));
  if (fields.cafe !== null) form.append("cafe_id", String(fields.cafe ?? ""));
  form.append("deactivate_leavers", fields.deactivate ? "1" : "0");
  return client.request("/diners/import", {
    method: "POST",
    inertia: !fields.json,
    body: form,
    headers: fields.json ? { accept: "application/json" } : { referer: `${BASE}/dinners` },
  });
}

/** The Dinners page's `dinerImport` prop and `errors` for the client. */
async function dinnersPage(client: Client) {
  const page = await visitPage(client, "/dinners");
  return { dinerImport: page.props.dinerImport, errors: page.props.errors as Record<string, string> };
}

/** Uploads, waits for the check to end, and returns the import the page shows. */
async function preview(p: PosApp, client: Client, bytes: Uint8Array<ArrayBuffer>, fields = {}) {
  const response = await upload(client, bytes, { cafe: p.w.norte, ...fields });
  expect({ status: response.status, location: response.headers.get("location") }).toEqual({
    status: 302,
    location: "/dinners",
  });
  await p.app.services.jobs.idle();
  return (await dinnersPage(client)).dinerImport.job;
}

function confirm(client: Client, id: number, deactivate = false): Promise<Response> {
  return client.request(`/diners/import/${id}/confirm`, {
    method: "POST",
    inertia: true,
    json: { deactivate_leavers: deactivate },
    headers: { referer: `${BASE}/dinners` },
  });
}

async function confirmAndWait(p: PosApp, client: Client, id: number, deactivate = false) {
  const response = await confirm(client, id, deactivate);
  expect(response.status).toBe(302);
  await p.app.services.jobs.idle();
  return dinnersPage(client);
}

const uploadsKept = (p: PosApp) => {
  const folder = join(p.app.config.storagePath, "jobs");
  return existsSync(folder) ? readdirSync(folder) : [];
};

const dinerByDocument = (p: PosApp, number: string) =>
  p.app.db.select().from(diners).where(eq(diners.documentNumber, number)).get();

describe("importing diners from the Dinners page", () => {
  test("the upload is checked and shown first, nothing written; confirmed, exactly that is imported", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    // The page offers the import to whoever holds diners.import, with nothing under way yet.
    expect((await dinnersPage(client)).dinerImport).toEqual({ job: null, maxBytes: 20 * 1024 * 1024 });

    const bytes = xlsx(goodRows());
    const response = await upload(client, bytes, { cafe: p.w.norte });
    expect(response.status).toBe(302);
    // Answered before the check ran: the job waits, queued, with its upload under STORAGE_PATH/jobs.
    const queued = p.app.db.select().from(jobs).get()!;
    expect({ kind: queued.kind, state: queued.state, userId: queued.userId }).toEqual({
      kind: "diners.import",
      state: "queued",
      userId: p.people.jefa.id,
    });
    expect(queued.upload!.startsWith(join(p.app.config.storagePath, "jobs"))).toBe(true);
    await p.app.services.jobs.idle();

    const shown = (await dinnersPage(client)).dinerImport.job;
    expect(shown).toMatchObject({
      id: queued.id,
      state: "succeeded",
      step: "preview",
      fileName: "comensales.xlsx",
      defaultCafeId: p.w.norte,
      notice: null,
      rows: 2,
      counts: { created: 1, updated: 1, unchanged: 0, deactivated: 0 },
      problems: [],
      problemCount: 0,
      unknownColumns: [],
      leaverCount: 0,
      changeCount: 2,
      canConfirm: true,
      canDeactivate: false,
    });
    expect(shown.changes.map((c: any) => [c.kind, c.documentNumber, c.fields])).toEqual([
      ["update", "40000001", ["phone"]],
      ["create", "40000010", expect.any(Array)],
    ]);
    expect(Date.parse(shown.expiresAt)).toBeGreaterThan(Date.now());
    // Nothing written yet; the file waits for the confirmation.
    expect(dinerByDocument(p, "40000010")).toBeUndefined();
    expect(dinerByDocument(p, "40000001")!.phone).toBe("");
    expect(uploadsKept(p)).toHaveLength(1);

    const { dinerImport } = await confirmAndWait(p, client, shown.id);
    expect(dinerImport.job).toMatchObject({
      step: "done",
      state: "succeeded",
      notice: es("dinners.import.done"),
      counts: { created: 1, updated: 1, unchanged: 0, deactivated: 0 },
    });
    const elena = dinerByDocument(p, "40000010")!;
    expect({ name: elena.name, cafe: elena.cafeId, sub: elena.subdealershipId, active: elena.active }).toEqual({
      name: "Elena Nueva Ccori",
      cafe: p.w.norte,
      sub: p.w.contrata,
      active: true,
    });
    expect(dinerByDocument(p, "40000001")!.phone).toBe("987654321");
    // The upload is gone once written.
    expect(uploadsKept(p)).toEqual([]);
    // Each job's progress went to its end, worded by step: the rows checked, then the diners saved.
    const progress = p.app.db
      .select({ label: jobs.progressLabel, done: jobs.progressDone, total: jobs.progressTotal })
      .from(jobs)
      .all();
    expect(progress).toEqual([
      { label: "dinners.import.progress_checking", done: 2, total: 2 },
      { label: "dinners.import.progress_saving", done: 2, total: 2 },
    ]);

    // The ledger names the file by its bytes, the page as the way in, the job and who did it.
    const ledger = p.app.db.select().from(dinerImports).all();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      fileName: "comensales.xlsx",
      sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"),
      via: "page",
      jobId: dinerImport.job.id,
      actorId: p.people.jefa.id,
      state: "succeeded",
      created: 1,
      updated: 1,
    });

    // The result waits on the page until it is dismissed.
    expect((await dinnersPage(client)).dinerImport.job.step).toBe("done");
    const dismissed = await client.request(`/diners/import/${dinerImport.job.id}/dismiss`, {
      method: "POST",
      inertia: true,
      headers: { referer: `${BASE}/dinners` },
    });
    expect(dismissed.status).toBe(302);
    expect((await dinnersPage(client)).dinerImport.job).toBeNull();

    // The same file again changes nothing: there is nothing to confirm, and its file is not kept.
    const again = await preview(p, client, bytes);
    expect(again).toMatchObject({
      step: "preview",
      counts: { created: 0, updated: 0, unchanged: 2, deactivated: 0 },
      canConfirm: false,
      notice: es("dinners.import.nothing_to_import"),
    });
    expect(uploadsKept(p)).toEqual([]);
  });

  test("leavers are listed; deactivating them is chosen when confirming, either way with a plan the server recorded", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    // Only Elena of Contrata Uno at Norte: Ana (active, Contrata Uno, Norte) is a leaver; Darío is inactive already,
    // Carla is at Sur and Beto of Contrata Dos, which the file does not name.
    const rows = [HEADER, ["Elena Nueva Ccori", "40000010", "", "Contrata Uno", "Comedor Norte"]];
    const shown = await preview(p, client, xlsx(rows), { cafe: "" });
    expect(shown).toMatchObject({
      step: "preview",
      defaultCafeId: null,
      deactivateLeavers: false,
      counts: { created: 1, updated: 0, unchanged: 0, deactivated: 0 },
      leaverCount: 1,
      canConfirm: true,
      canDeactivate: true,
    });
    expect(shown.leavers.map((l: any) => [l.documentNumber, l.name])).toEqual([["40000001", "Ana Quispe Mamani"]]);
    const { dinerImport } = await confirmAndWait(p, client, shown.id, true);
    expect(dinerImport.job).toMatchObject({
      step: "done",
      deactivateLeavers: true,
      counts: { created: 1, updated: 0, unchanged: 0, deactivated: 1 },
    });
    expect(dinerByDocument(p, "40000001")!.active).toBe(false);
    expect(dinerByDocument(p, "40000002")!.active).toBe(true);
    expect(dinerByDocument(p, "40000003")!.active).toBe(true);

    // Left alone when not ticked (Ana again on the list, Elena now the leaver).
    const back = [HEADER, ["Ana Quispe Mamani", "40000001", "", "Contrata Uno", "Comedor Norte"]];
    const second = await preview(p, client, xlsx(back), { cafe: "" });
    expect(second).toMatchObject({ leaverCount: 1, counts: { updated: 1 }, canDeactivate: true });
    const kept = await confirmAndWait(p, client, second.id, false);
    expect(kept.dinerImport.job).toMatchObject({ step: "done", counts: { updated: 1, deactivated: 0 } });
    expect(dinerByDocument(p, "40000001")!.active).toBe(true);
    expect(dinerByDocument(p, "40000010")!.active).toBe(true);
  });

  test("rows with problems are listed with their row and column; there is nothing to confirm", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    const rows = [
      [...HEADER, "Talla"],
      ["Elena Nueva Ccori", "40000010", "", "Contrata Fantasma", "", "M"],
      ["Fidel Otro", "40000011", "", "Contrata Uno", "", "L"],
    ];
    const shown = await preview(p, client, xlsx(rows));
    expect(shown).toMatchObject({
      step: "problems",
      state: "failed",
      notice: null,
      problemCount: 1,
      unknownColumns: ["Talla"],
      canConfirm: false,
    });
    expect(shown.problems).toEqual([
      {
        row: 2,
        column: "Subconcesionaria",
        message: es("diners.import_subdealership_unknown", { subdealership: "Contrata Fantasma" }),
      },
    ]);
    expect(uploadsKept(p)).toEqual([]);
    const refused = await confirm(client, shown.id);
    expect(refused.status).toBe(302);
    const { errors } = await dinnersPage(client);
    expect(errors.confirm).toBe(es("dinners.import.confirm_unavailable"));
    expect(dinerByDocument(p, "40000011")).toBeUndefined();
    expect(p.app.db.select().from(jobs).all()).toHaveLength(1);
  });

  test("a file that is not a spreadsheet is refused as a whole, with one message, and recorded", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    // A PNG renamed .xlsx.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);
    const shown = await preview(p, client, png, { name: "lista.xlsx" });
    const ledger = p.app.db.select().from(dinerImports).all();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ fileName: "lista.xlsx", state: "refused", via: "page", jobId: shown.id });
    const key = ledger[0].messageKey!;
    const reason = translateDynamic(
      "es",
      key,
      key,
      ledger[0].messageParams ? JSON.parse(ledger[0].messageParams) : undefined,
    );
    expect(reason).not.toBe(key);
    expect(shown).toMatchObject({ step: "refused", state: "failed", notice: reason, canConfirm: false });
    expect(uploadsKept(p)).toEqual([]);

    // No file at all is said on the file field at once, with nothing started.
    const form = new FormData();
    form.append("cafe_id", String(p.w.norte));
    const none = await client.request("/diners/import", {
      method: "POST",
      inertia: true,
      body: form,
      headers: { referer: `${BASE}/dinners` },
    });
    expect(none.status).toBe(302);
    expect((await dinnersPage(client)).errors.file).toBe(es("dinners.import.file_required"));
    expect(p.app.db.select().from(jobs).all()).toHaveLength(1);
  });

  test("diners.import is needed, and the default cafe must be one of the person's", async () => {
    const p = await world();
    // A cashier sells but does not import: no dialog, and the routes refuse.
    const cashier = await signedIn(p, p.people.cajera);
    expect((await dinnersPage(cashier)).dinerImport).toBeNull();
    expect((await upload(cashier, xlsx(goodRows()), { cafe: p.w.norte })).status).toBe(403);

    const manager = await signedIn(p, p.people.jefa);
    // Comedor Sur is not hers, and a cafe that does not exist is not either: both read as not found.
    expect((await upload(manager, xlsx(goodRows()), { cafe: p.w.sur })).status).toBe(404);
    expect((await upload(manager, xlsx(goodRows()), { cafe: 999_999 })).status).toBe(404);
    expect(p.app.db.select().from(jobs).all()).toEqual([]);
    expect(uploadsKept(p)).toEqual([]);

    // An API client gets the job to follow.
    const api = await upload(manager, xlsx(goodRows()), { cafe: p.w.norte, json: true });
    expect(api.status).toBe(202);
    const { job } = (await api.json()) as { job: number };
    await p.app.services.jobs.idle();
    const followed = (await (
      await manager.get(`/jobs/${job}`, { headers: { accept: "application/json" } })
    ).json()) as {
      kind: string;
      state: string;
    };
    expect(followed).toMatchObject({ kind: "diners.import", state: "succeeded" });
    expect((await cashier.request(`/diners/import/${job}/confirm`, { method: "POST", json: {} })).status).toBe(403);
  });

  test("someone else's preview can be neither confirmed nor closed; one import at a time per person", async () => {
    const p = await world();
    const manager = await signedIn(p, p.people.jefa);
    const root = await signedIn(p, p.people.root);
    const first = await upload(manager, xlsx(goodRows()), { cafe: p.w.norte });
    expect(first.status).toBe(302);
    // A second upload while the first is under way is refused on the file field.
    const second = await upload(manager, xlsx(goodRows()), { cafe: p.w.norte });
    expect(second.status).toBe(302);
    expect((await dinnersPage(manager)).errors.file).toBe(es("dinners.import.busy"));
    await p.app.services.jobs.idle();
    const shown = (await dinnersPage(manager)).dinerImport.job;
    expect(shown.canConfirm).toBe(true);

    // The super-administrator reaches every cafe, yet another person's preview is not theirs to import.
    expect((await confirm(root, shown.id)).status).toBe(302);
    expect((await dinnersPage(root)).errors.confirm).toBe(es("dinners.import.confirm_unavailable"));
    expect((await dinnersPage(root)).dinerImport.job).toBeNull();
    const dismiss = await root.request(`/diners/import/${shown.id}/dismiss`, {
      method: "POST",
      inertia: true,
      headers: { referer: `${BASE}/dinners` },
    });
    // Nor theirs to close: it is left as it is, the same answer as for a job that does not exist.
    expect({ status: dismiss.status, location: dismiss.headers.get("location") }).toEqual({
      status: 302,
      location: "/dinners",
    });
    await p.app.services.jobs.idle();
    expect(dinerByDocument(p, "40000010")).toBeUndefined();
    // Still the manager's to confirm.
    expect((await dinnersPage(manager)).dinerImport.job).toMatchObject({ id: shown.id, canConfirm: true });
    expect(uploadsKept(p)).toHaveLength(1);
    const { dinerImport } = await confirmAndWait(p, manager, shown.id);
    expect(dinerImport.job.step).toBe("done");
  });

  test("when the diners changed since the preview nothing is written, and the new preview can be confirmed", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    const shown = await preview(p, client, xlsx(goodRows()));
    expect(shown.counts).toMatchObject({ created: 1, updated: 1 });
    // Meanwhile Ana gets the file's phone on the page: the plan is no longer the one previewed.
    p.app.db.update(diners).set({ phone: "987654321" }).where(eq(diners.documentNumber, "40000001")).run();

    const changed = await confirmAndWait(p, client, shown.id);
    expect(changed.dinerImport.job).toMatchObject({
      step: "preview",
      state: "failed",
      notice: es("dinners.import.plan_changed"),
      counts: { created: 1, updated: 0, unchanged: 1 },
      canConfirm: true,
    });
    expect(dinerByDocument(p, "40000010")).toBeUndefined();
    expect(uploadsKept(p)).toHaveLength(1);

    const done = await confirmAndWait(p, client, changed.dinerImport.job.id);
    expect(done.dinerImport.job).toMatchObject({ step: "done", counts: { created: 1, updated: 0, unchanged: 1 } });
    expect(dinerByDocument(p, "40000010")!.cafeId).toBe(p.w.norte);
    expect(uploadsKept(p)).toEqual([]);
  });

  test("while another import writes (the command line's, say), confirming writes nothing and can be done again", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    const shown = await preview(p, client, xlsx(goodRows()));
    // The inbox is writing another file: its lease is alive, so it is not a stopped writer to undo.
    const other = p.app.db
      .insert(dinerImports)
      .values({
        fileName: "inbox.csv",
        sha256: "0".repeat(64),
        via: "inbox",
        actorLabel: "cli",
        state: "writing",
        leaseOwner: "another-process",
        leaseUntil: new Date(Date.now() + 60_000),
        startedAt: new Date(),
      })
      .returning()
      .get();
    const busy = await confirmAndWait(p, client, shown.id);
    expect(busy.dinerImport.job).toMatchObject({
      step: "preview",
      state: "failed",
      notice: es("diners.import_busy"),
      counts: { created: 1, updated: 1 },
      canConfirm: true,
    });
    expect(dinerByDocument(p, "40000010")).toBeUndefined();

    p.app.db
      .update(dinerImports)
      .set({ state: "succeeded", leaseOwner: null, leaseUntil: null, finishedAt: new Date() })
      .where(eq(dinerImports.id, other.id))
      .run();
    const done = await confirmAndWait(p, client, busy.dinerImport.job.id);
    expect(done.dinerImport.job).toMatchObject({ step: "done", counts: { created: 1, updated: 1 } });
    expect(dinerByDocument(p, "40000010")).toBeDefined();
  });

  test("a LibreOffice file whose first sheet is hidden, a title above its header: the preview names the sheet read", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    const bytes = xlsxBy("libreoffice", [
      {
        name: "Plantilla",
        rows: [
          ["Nombre", "DNI", "Subcontrata"],
          ["Ejemplo", "00000000", "Ninguna"],
        ],
        state: "hidden",
      },
      {
        name: "Comensales",
        rows: [["Personal de marzo"], HEADER, ["Elena Nueva Ccori", 4000010, "", "Contrata Uno", ""]],
        merges: ["A1:E1"],
      },
    ]);
    const shown = await preview(p, client, bytes as Uint8Array<ArrayBuffer>, { cafe: p.w.norte });
    expect(shown).toMatchObject({ step: "preview", sheet: "Comensales", headerRow: 2, problemCount: 0, rows: 1 });
    expect(shown.changes.map((c: any) => [c.row, c.documentNumber])).toEqual([[3, "04000010"]]);
  });

  test("a .csv with a byte order mark and semicolons imports the same way, leading zeros kept", async () => {
    const p = await world();
    const client = await signedIn(p, p.people.jefa);
    const csv = "\uFEFFApellidos;Nombres;DNI;Subcontrata\r\nZapata Ríos;Óscar;01234567;Contrata Uno\r\n";
    const shown = await preview(p, client, new TextEncoder().encode(csv) as Uint8Array<ArrayBuffer>, {
      name: "semana.csv",
    });
    // A CSV's one sheet is named after the file, as Excel names it.
    expect(shown).toMatchObject({
      step: "preview",
      fileName: "semana.csv",
      sheet: "semana",
      headerRow: 1,
      counts: { created: 1 },
      canConfirm: true,
    });
    expect(shown.changes.map((c: any) => c.documentNumber)).toEqual(["01234567"]);
    const { dinerImport } = await confirmAndWait(p, client, shown.id);
    expect(dinerImport.job.step).toBe("done");
    expect(dinerByDocument(p, "01234567")).toMatchObject({ cafeId: p.w.norte, subdealershipId: p.w.contrata });
  });
});
