/**
 * `./mesa import:diners`, run as a person or cron runs it, on a copy of a seeded database (the demo places — Mina
 * Cerro Verde → Unidad Norte → Comedor Principal, Comedor Taller … — the demo subdealerships such as "Perforaciones
 * Altiplano S.A.C." and about 300 demo diners). The spreadsheets are made here with SheetJS. Single files and the
 * one-pass inbox go through the command in this process (tests/support/cli.ts); `--watch` and the crash run as real
 * processes, since they are about signals and a process dying. Messages are checked in English (APP_LOCALE=en)
 * against the dictionaries.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { translate, type TranslationKey, type TranslationParams, type KeysUnder } from "../src/shared/i18n";
import { commandWords, type DinerImportSummary } from "./commands/diners-import";
import { MESA, mesaInProcess, seededTemplate, sql, workspaceFrom, type Workspace } from "../tests/support/cli";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);
const words = commandWords("en");
const say = (key: KeysUnder<"dinerImportCli">, params?: TranslationParams) => words(`dinerImportCli.${key}`, params);

const SETTINGS = { APP_TIMEZONE: "America/Lima" };
const ALTIPLANO = "Perforaciones Altiplano S.A.C.";
const PRINCIPAL = "Comedor Principal";

let template = "";

beforeAll(async () => {
  template = await seededTemplate("mesa-import-diners-template-", SETTINGS);
}, 60_000);

const workspace = (): Workspace => workspaceFrom(template, "mesa-import-diners-", SETTINGS);

type Rows = (string | number | null)[][];

/** An .xlsx workbook whose first sheet holds `rows` (the first is the header). */
function xlsxBytes(rows: Rows): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Comensales");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
}

function writeFile(dir: string, name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** Two new diners of Perforaciones Altiplano at Comedor Principal (their DNIs are not in the demo data). */
const goodRows = (): Rows => [
  ["Nombre", "DNI", "Subcontrata", "Comedor", "Celular"],
  ["Quispe Mamani, Teodoro", "09990001", ALTIPLANO, PRINCIPAL, "987654321"],
  ["Ccahuana Apaza, Roxana", "09990002", ALTIPLANO, PRINCIPAL, ""],
];

/** The same two with the second one's subdealership misspelt. */
const badRows = (): Rows => {
  const rows = goodRows();
  rows[2][2] = "Perforaciones Altiplan S.A.C.";
  return rows;
};

const dinerCount = (ws: Workspace) => sql<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM diners")[0].n;
const dinerByDocument = (ws: Workspace, document: string) =>
  sql<{ name: string; cafe: string; active: number; phone: string | null }>(
    ws,
    "SELECT d.name, c.name AS cafe, d.active, d.phone FROM diners d JOIN cafes c ON c.id = d.cafe_id WHERE d.document_number = ?",
    document,
  )[0];
const ledger = (ws: Workspace) =>
  sql<{ id: number; state: string; via: string; file_name: string; sha256: string; created: number }>(
    ws,
    "SELECT id, state, via, file_name, sha256, created FROM diner_imports ORDER BY id",
  );

/** The active demo diners of Perforaciones Altiplano at Comedor Principal: the leavers of a file naming only others. */
const altiplanoAtPrincipal = (ws: Workspace) =>
  sql<{ id: number; document_number: string }>(
    ws,
    `SELECT d.id, d.document_number FROM diners d
       JOIN subdealerships s ON s.id = d.subdealership_id JOIN cafes c ON c.id = d.cafe_id
     WHERE s.name = ? AND c.name = ? AND d.active = 1 ORDER BY d.id`,
    ALTIPLANO,
    PRINCIPAL,
  );

const parse = (out: string) => JSON.parse(out) as DinerImportSummary;

describe("./mesa import:diners FILE", () => {
  test("imports a file (exit code 0) and prints the JSON summary; the same file again changes nothing", async () => {
    const ws = workspace();
    const leavers = altiplanoAtPrincipal(ws);
    expect(leavers.length).toBeGreaterThan(0);
    const before = dinerCount(ws);
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(goodRows()));

    const first = await mesaInProcess(ws, ["import:diners", file, "--json"]);
    expect({ code: first.code, err: first.err }).toEqual({ code: 0, err: "" });
    const summary = parse(first.out);
    expect(summary).toMatchObject({
      result: "imported",
      ok: true,
      dryRun: false,
      rows: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      deactivated: 0,
      errors: [],
      errorCount: 0,
      file: { name: "planilla.xlsx", format: "xlsx", sheet: "Comensales", bytes: readFileSync(file).length },
      headerRow: 1,
    });
    expect(summary.file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(summary.leavers.count).toBe(leavers.length);
    expect(summary.leavers.deactivate).toBe(false);
    expect(summary.leavers.list.map((l) => l.documentNumber).sort()).toEqual(
      leavers.map((l) => l.document_number).sort(),
    );
    expect(summary.message).toBe(say("result_imported", { id: summary.importId! }));
    expect(dinerCount(ws)).toBe(before + 2);
    expect(dinerByDocument(ws, "09990001")).toMatchObject({ cafe: PRINCIPAL, active: 1, phone: "987654321" });
    expect(ledger(ws)).toEqual([
      expect.objectContaining({ id: summary.importId, state: "succeeded", via: "cli", file_name: "planilla.xlsx" }),
    ]);
    // Leavers are listed and left active.
    expect(altiplanoAtPrincipal(ws).length).toBe(leavers.length + 2);

    const again = parse((await mesaInProcess(ws, ["import:diners", file, "--json"])).out);
    expect(again).toMatchObject({ result: "imported", created: 0, updated: 0, unchanged: 2, deactivated: 0 });
    expect(dinerCount(ws)).toBe(before + 2);
  });

  test("prints a summary in words: the counts, the leavers and how to deactivate them", async () => {
    const ws = workspace();
    const leavers = altiplanoAtPrincipal(ws).length;
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(goodRows()));
    const result = await mesaInProcess(ws, ["import:diners", file]);
    expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: "" });
    const lines = result.out.trim().split("\n");
    expect(lines.slice(0, 4)).toEqual([
      say("file_line", { file: "planilla.xlsx", sheet: "Comensales", format: "xlsx", rows: say("rows", { count: 2 }) }),
      say("created", { count: 2 }),
      say("updated", { count: 0 }),
      say("unchanged", { count: 0 }),
    ]);
    expect(lines).toContain(say("leavers", { count: leavers }));
    // The first 20 of them by name, then how many more.
    expect(leavers).toBeGreaterThan(20);
    expect(lines.filter((l) => l.startsWith("  DNI ") || l.startsWith("  CE "))).toHaveLength(20);
    expect(lines).toContain(`  ${say("more_leavers", { count: leavers - 20 })}`);
    expect(lines).toContain(say("leavers_kept"));
    expect(lines.at(-1)).toStartWith("Imported (import #");
  });

  test("on a terminal it draws a progress bar on standard error, wiped at the end; with --json it draws none", async () => {
    const ws = workspace();
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(goodRows()));
    const bar = await onTerminal(ws, ["import:diners", file, "--dry-run"]);
    expect(bar.code).toBe(0);
    expect(bar.screen).toContain(`\r\x1b[2K${say("reading")}…`);
    expect(bar.screen).toContain(
      `] 100 %  ${en("jobs.progress_count", { label: say("checking"), done: 2, total: 2 })}`,
    );
    expect(bar.screen).toContain(
      `\r\x1b[2K${say("file_line", { file: "planilla.xlsx", sheet: "Comensales", format: "xlsx", rows: say("rows", { count: 2 }) })}`,
    );
    const quiet = await onTerminal(ws, ["import:diners", file, "--dry-run", "--json"]);
    expect(quiet.code).toBe(0);
    expect(quiet.screen).not.toContain("\x1b[2K");
    expect(JSON.parse(quiet.screen)).toMatchObject({ result: "checked", created: 2 });
  });

  test("--dry-run checks and reports but writes nothing, not even in the ledger", async () => {
    const ws = workspace();
    const before = dinerCount(ws);
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(goodRows()));
    const result = await mesaInProcess(ws, ["import:diners", file, "--dry-run", "--json"]);
    expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: "" });
    expect(parse(result.out)).toMatchObject({ result: "checked", ok: true, dryRun: true, created: 2, importId: null });
    expect(parse(result.out).changes.map((c) => [c.row, c.kind, c.documentNumber])).toEqual([
      [2, "create", "09990001"],
      [3, "create", "09990002"],
    ]);
    expect(dinerCount(ws)).toBe(before);
    expect(ledger(ws)).toEqual([]);

    const words = await mesaInProcess(ws, ["import:diners", file, "--dry-run"]);
    expect(words.code).toBe(0);
    expect(words.out).toContain(say("result_checked"));
    expect(words.out).toContain(say("change_create", { row: 2, document: "09990001", name: "Quispe Mamani, Teodoro" }));
    expect(dinerCount(ws)).toBe(before);
  });

  test("a file with row problems is refused (exit code 1): every problem with its row and column, nothing written", async () => {
    const ws = workspace();
    const before = dinerCount(ws);
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(badRows()));
    const result = await mesaInProcess(ws, ["import:diners", file, "--json"]);
    expect(result.code).toBe(1);
    const summary = parse(result.out);
    expect(summary).toMatchObject({ result: "refused", ok: false, errorCount: 1 });
    expect(summary.errors).toEqual([
      {
        row: 3,
        column: "Subcontrata",
        message: en("diners.import_subdealership_unknown", { subdealership: "Perforaciones Altiplan S.A.C." }),
      },
    ]);
    expect(result.err.trim()).toBe(say("result_refused"));
    expect(dinerCount(ws)).toBe(before);
    expect(ledger(ws).map((l) => l.state)).toEqual(["refused"]);

    const words = await mesaInProcess(ws, ["import:diners", file]);
    expect(words.code).toBe(1);
    expect(words.out).toBe("");
    expect(words.err.trim().split("\n")).toEqual([
      say("file_line", { file: "planilla.xlsx", sheet: "Comensales", format: "xlsx", rows: say("rows", { count: 2 }) }),
      say("problems", { count: 1 }),
      `  ${say("problem_row_column", { row: 3, column: "Subcontrata", message: summary.errors[0].message })}`,
      say("result_refused"),
    ]);
    // A dry run of it exits with 1 too.
    expect((await mesaInProcess(ws, ["import:diners", file, "--dry-run"])).code).toBe(1);
  });

  test("a file that is no spreadsheet is refused with one message (exit code 1) and recorded as refused", async () => {
    const ws = workspace();
    const file = writeFile(ws.dir, "planilla.xlsx", new TextEncoder().encode("\u0000\u0001 not a workbook \u0002"));
    const result = await mesaInProcess(ws, ["import:diners", file, "--json"]);
    expect(result.code).toBe(1);
    const summary = parse(result.out);
    expect(summary).toMatchObject({ result: "refused", errorCount: 1, rows: 0, created: 0 });
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]).toMatchObject({ row: null, column: null });
    // A sentence, not a translation key.
    expect(summary.errors[0].message).toContain(" ");
    expect(ledger(ws)).toEqual([expect.objectContaining({ state: "refused", via: "cli", id: summary.importId })]);
  });

  test("usage mistakes exit with code 2: no FILE, a missing file, an unknown option, a --cafe naming no cafe or two", async () => {
    const ws = workspace();
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(goodRows()));
    const none = await mesaInProcess(ws, ["import:diners"]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("Give the FILE to import");
    expect((await mesaInProcess(ws, ["import:diners", join(ws.dir, "missing.xlsx")])).code).toBe(2);
    expect((await mesaInProcess(ws, ["import:diners", file, "--frobnicate"])).code).toBe(2);
    expect((await mesaInProcess(ws, ["import:diners", file, "--inbox", ws.dir])).code).toBe(2);

    const unknown = await mesaInProcess(ws, ["import:diners", file, "--cafe", "Comedor Lunar"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('No cafe named "Comedor Lunar"');
    expect(unknown.err).toContain("Unidad Norte/Comedor Principal");

    // A second "Comedor Taller", in Unidad Sur.
    sql(
      ws,
      `INSERT INTO cafes (unit_id, name, business_id, time_zone)
       SELECT u.id, 'Comedor Taller', c.business_id, c.time_zone FROM units u, cafes c
       WHERE u.name = 'Unidad Sur' AND c.name = 'Comedor Taller'`,
    );
    const twice = await mesaInProcess(ws, ["import:diners", file, "--cafe", "comedor taller"]);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('More than one cafe is named "comedor taller"');
    expect(twice.err).toContain('"Unidad Norte/Comedor Taller", "Unidad Sur/Comedor Taller"');
    expect(ledger(ws)).toEqual([]);
  });

  test("--cafe is the home cafe of a file without a cafe column; without it such a file is refused", async () => {
    const ws = workspace();
    const rows = goodRows().map((r) => [r[0], r[1], r[2]]);
    const file = writeFile(ws.dir, "sin-comedor.xlsx", xlsxBytes(rows));
    const refused = await mesaInProcess(ws, ["import:diners", file, "--json"]);
    expect(refused.code).toBe(1);
    expect(parse(refused.out).errors.map((e) => e.message)).toEqual([en("diners.import_missing_column_cafe")]);

    const result = await mesaInProcess(ws, ["import:diners", file, "--cafe", "Unidad Norte/Comedor Taller", "--json"]);
    expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: "" });
    expect(parse(result.out)).toMatchObject({ created: 2 });
    expect(dinerByDocument(ws, "09990001").cafe).toBe("Comedor Taller");
    expect(dinerByDocument(ws, "09990002").cafe).toBe("Comedor Taller");
  });

  test("--deactivate-leavers deactivates the active diners of the file's subdealerships at its cafes not in it", async () => {
    const ws = workspace();
    const leavers = altiplanoAtPrincipal(ws);
    const file = writeFile(ws.dir, "planilla.xlsx", xlsxBytes(goodRows()));
    const result = await mesaInProcess(ws, ["import:diners", file, "--deactivate-leavers", "--json"]);
    expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: "" });
    const summary = parse(result.out);
    expect(summary).toMatchObject({ created: 2, deactivated: leavers.length });
    expect(summary.leavers).toMatchObject({ count: leavers.length, deactivate: true });
    const ids = leavers.map((l) => l.id).join(",");
    expect(sql<{ n: number }>(ws, `SELECT COUNT(*) AS n FROM diners WHERE id IN (${ids}) AND active = 1`)[0].n).toBe(0);
    expect(altiplanoAtPrincipal(ws).map((d) => d.document_number)).toEqual(["09990001", "09990002"]);
  });
});

/** `./mesa ARGS` on a terminal of its own (a pseudo-terminal made by util-linux's `script`): what it showed, and its exit code. */
async function onTerminal(ws: Workspace, args: string[]): Promise<{ code: number; screen: string }> {
  const command = [MESA, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = Bun.spawn(["script", "--quiet", "--return", "--command", command, "/dev/null"], {
    cwd: ws.dir,
    env: { ...process.env, ...ws.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const screen = await new Response(child.stdout).text();
  return { code: await child.exited, screen: screen.replaceAll("\r\n", "\n") };
}

/** The file names in a folder, and the reports' JSON. */
const namesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const report = (path: string) => JSON.parse(readFileSync(`${path}.report.json`, "utf8")) as DinerImportSummary;

describe("./mesa import:diners --inbox DIR", () => {
  test("takes each file once: the good one to done/, the bad one to failed/, each with its two reports", async () => {
    const ws = workspace();
    const inbox = join(ws.dir, "inbox");
    mkdirSync(inbox);
    const before = dinerCount(ws);
    writeFile(inbox, "buena.xlsx", xlsxBytes(goodRows()));
    writeFile(inbox, "mala.xlsx", xlsxBytes(badRows()));
    writeFile(inbox, ".oculta.xlsx", xlsxBytes(goodRows()));
    mkdirSync(join(inbox, "subcarpeta"));

    const result = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0"]);
    expect(result.code).toBe(1);
    expect(result.err.trim()).toBe(say("inbox_failed", { count: 1, folder: join(inbox, "failed") }));
    expect(namesIn(inbox)).toEqual([".oculta.xlsx", "done", "failed", "subcarpeta"]);
    expect(namesIn(join(inbox, "done"))).toEqual(["buena.xlsx", "buena.xlsx.report.json", "buena.xlsx.report.txt"]);
    expect(namesIn(join(inbox, "failed"))).toEqual(["mala.xlsx", "mala.xlsx.report.json", "mala.xlsx.report.txt"]);

    const good = report(join(inbox, "done", "buena.xlsx"));
    expect(good).toMatchObject({ result: "imported", created: 2, movedTo: join(inbox, "done", "buena.xlsx") });
    const bad = report(join(inbox, "failed", "mala.xlsx"));
    expect(bad).toMatchObject({ result: "refused", errorCount: 1 });
    expect(bad.errors[0]).toMatchObject({ row: 3, column: "Subcontrata" });
    const text = readFileSync(join(inbox, "failed", "mala.xlsx.report.txt"), "utf8");
    expect(text).toContain(say("report_file", { file: "mala.xlsx" }));
    expect(text).toContain(
      say("problem_row_column", { row: 3, column: "Subcontrata", message: bad.errors[0].message }),
    );
    expect(readFileSync(join(inbox, "done", "buena.xlsx.report.txt"), "utf8")).toContain(say("created", { count: 2 }));
    const counts = [say("created", { count: 2 }), say("updated", { count: 0 }), say("unchanged", { count: 0 })];
    const lines = result.out.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      say("inbox_line", {
        file: "buena.xlsx",
        folder: join("done", "buena.xlsx"),
        result: `${good.message} ${counts.join(", ")}`,
      }),
    );
    expect(lines[1]).toStartWith(`mala.xlsx → ${join("failed", "mala.xlsx")}: ${say("result_refused")} Row 3`);
    expect(dinerCount(ws)).toBe(before + 2);
    expect(ledger(ws).map((l) => [l.file_name, l.state, l.via])).toEqual([
      ["buena.xlsx", "succeeded", "inbox"],
      ["mala.xlsx", "refused", "inbox"],
    ]);

    // An empty inbox: nothing to do, exit code 0.
    const empty = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0"]);
    expect({ code: empty.code, out: empty.out.trim() }).toEqual({
      code: 0,
      out: say("inbox_empty", { folder: inbox }),
    });
  });

  test("the same bytes dropped again are moved, not imported again; a corrected file is imported, whatever its name", async () => {
    const ws = workspace();
    const inbox = join(ws.dir, "inbox");
    mkdirSync(inbox);
    writeFile(inbox, "buena.xlsx", xlsxBytes(goodRows()));
    writeFile(inbox, "mala.xlsx", xlsxBytes(badRows()));
    expect((await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0"])).code).toBe(1);
    const imports = ledger(ws).length;

    // The same bytes under the same names and under another: none is imported again.
    writeFileSync(join(inbox, "buena.xlsx"), readFileSync(join(inbox, "done", "buena.xlsx")));
    writeFileSync(join(inbox, "copia de buena.xlsx"), readFileSync(join(inbox, "done", "buena.xlsx")));
    writeFileSync(join(inbox, "mala.xlsx"), readFileSync(join(inbox, "failed", "mala.xlsx")));
    const again = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0", "--json"]);
    expect(again.code).toBe(1);
    const pass = JSON.parse(again.out) as { files: DinerImportSummary[]; succeeded: number; failed: number };
    expect(pass.files.map((f) => [f.file.name, f.result])).toEqual([
      ["buena.xlsx", "already_imported"],
      ["copia de buena.xlsx", "already_imported"],
      ["mala.xlsx", "already_refused"],
    ]);
    expect({ succeeded: pass.succeeded, failed: pass.failed }).toEqual({ succeeded: 2, failed: 1 });
    expect(ledger(ws).length).toBe(imports);
    // The names were taken: a timestamp tells them apart.
    const done = namesIn(join(inbox, "done"));
    expect(done).toHaveLength(9);
    expect(done).toContain("copia de buena.xlsx");
    expect(done.filter((n) => /^buena\.\d{8}T\d{6}Z\.xlsx$/.test(n))).toHaveLength(1);
    expect(namesIn(join(inbox, "failed")).filter((n) => /^mala\.\d{8}T\d{6}Z\.xlsx$/.test(n))).toHaveLength(1);

    // The corrected file, under a new name: new bytes, imported.
    const fixed = goodRows();
    fixed[2][4] = "912345678";
    writeFile(inbox, "mala corregida.xlsx", xlsxBytes(fixed));
    const corrected = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0", "--json"]);
    expect({ code: corrected.code, err: corrected.err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(corrected.out).files.map((f: DinerImportSummary) => [f.file.name, f.result, f.updated])).toEqual([
      ["mala corregida.xlsx", "imported", 1],
    ]);
    expect(dinerByDocument(ws, "09990002").phone).toBe("912345678");
  });

  test("a file still being written is left for a later pass", async () => {
    const ws = workspace();
    const inbox = join(ws.dir, "inbox");
    mkdirSync(inbox);
    const bytes = xlsxBytes(goodRows());
    const path = join(inbox, "llegando.xlsx");
    writeFileSync(path, bytes.slice(0, 100));
    // A copy that goes on growing for a while, a few bytes at a time.
    let written = 100;
    const growing = setInterval(() => {
      if (written >= bytes.length) return;
      writeFileSync(path, bytes.slice(0, (written += 20)));
    }, 50);
    try {
      // Growing every 50 ms, it never stays unchanged for 0.6 s.
      expect(bytes.length).toBeGreaterThan(100 + (20 * (4 * 600)) / 50);
      const result = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0.6"]);
      expect(result.code).toBe(0);
      expect(namesIn(inbox)).toEqual(["llegando.xlsx"]);
    } finally {
      clearInterval(growing);
    }
    writeFileSync(path, bytes);
    const later = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0.2"]);
    expect({ code: later.code, err: later.err }).toEqual({ code: 0, err: "" });
    expect(namesIn(join(inbox, "done"))).toContain("llegando.xlsx");
  });
});

/** `./mesa ARGS` as a process of its own, with its output gathered as it goes. */
function spawnMesa(ws: Workspace, args: string[]) {
  const child = Bun.spawn([MESA, ...args], {
    cwd: ws.dir,
    env: { ...process.env, ...ws.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = new Response(child.stdout).text();
  const err = new Response(child.stderr).text();
  return { child, out, err };
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

describe("./mesa import:diners --watch DIR", () => {
  test("imports files as they arrive until SIGTERM, then exits with code 0", async () => {
    const ws = workspace();
    const inbox = join(ws.dir, "inbox");
    mkdirSync(inbox);
    const run = spawnMesa(ws, ["import:diners", "--watch", inbox, "--settle", "0.2", "--poll", "0.2"]);
    try {
      writeFile(inbox, "lunes.xlsx", xlsxBytes(goodRows()));
      await until(() => existsSync(join(inbox, "done", "lunes.xlsx")), 15_000, "lunes.xlsx in done/");
      writeFile(inbox, "martes.xlsx", xlsxBytes(badRows()));
      await until(() => existsSync(join(inbox, "failed", "martes.xlsx")), 15_000, "martes.xlsx in failed/");
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.child.exited).toBe(0);
    const out = (await run.out).trim().split("\n");
    expect(out).toHaveLength(2);
    expect(out[0]).toStartWith(`lunes.xlsx → ${join("done", "lunes.xlsx")}: Imported`);
    expect(out[1]).toStartWith(`martes.xlsx → ${join("failed", "martes.xlsx")}: ${say("result_refused")}`);
    const err = await run.err;
    expect(err).toContain(say("watching", { folder: inbox }));
    expect(err).toContain(say("stopping"));
    expect(report(join(inbox, "done", "lunes.xlsx")).created).toBe(2);
  }, 40_000);
});

describe("a process that dies half-way through a file", () => {
  test("leaves nothing behind once the lease runs out: the next pass undoes it and imports the file again", async () => {
    const ws = workspace();
    const inbox = join(ws.dir, "inbox");
    mkdirSync(inbox);
    const before = dinerCount(ws);
    // Enough rows to be written in several chunks.
    const rows: Rows = [["Nombre", "DNI", "Subcontrata", "Comedor"]];
    for (let i = 0; i < 20_000; i++)
      rows.push([`Trabajador ${i + 1}`, String(80_000_000 + i), ALTIPLANO, i % 2 ? PRINCIPAL : "Comedor Taller"]);
    writeFile(inbox, "grande.xlsx", xlsxBytes(rows));
    const run = spawnMesa(ws, ["import:diners", "--watch", inbox, "--settle", "0", "--poll", "0.1"]);
    try {
      // Killed once some chunks are written (but not all).
      await until(
        () =>
          sql<{ n: number }>(
            ws,
            "SELECT COUNT(*) AS n FROM diner_import_undo u JOIN diner_imports i ON i.id = u.import_id WHERE i.state = 'writing'",
          )[0].n >= 2,
        30_000,
        "a half-written import",
      );
    } finally {
      run.child.kill("SIGKILL");
    }
    await run.child.exited;
    expect(ledger(ws).map((l) => l.state)).toEqual(["writing"]);
    expect(dinerCount(ws)).toBeGreaterThan(before);
    expect(namesIn(inbox)).toContain("grande.xlsx");

    // While the dead writer's lease lasts, the file waits.
    const waiting = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0"]);
    expect(waiting.code).toBe(0);
    expect(namesIn(inbox)).toContain("grande.xlsx");

    // Its lease runs out: the next pass undoes what it wrote and imports the whole file once.
    sql(ws, "UPDATE diner_imports SET lease_until = 0 WHERE state = 'writing'");
    const next = await mesaInProcess(ws, ["import:diners", "--inbox", inbox, "--settle", "0", "--json"]);
    expect({ code: next.code, err: next.err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(next.out).files[0]).toMatchObject({ result: "imported", created: 20_000 });
    expect(ledger(ws).map((l) => l.state)).toEqual(["rolled_back", "succeeded"]);
    expect(dinerCount(ws)).toBe(before + 20_000);
  }, 90_000);
});
