/**
 * Diner import: a 100,000-row .xlsx of workers (SheetJS-made: Peruvian names, 8-digit DNIs, phones, the demo's
 * subdealerships at the cafes of the units they work in, levels) imported end to end by Mesa next to a bare
 * baseline measured in the same run, with sales made meanwhile.
 *
 *   npm run bench:diners                      (NODE_ENV=production bun bench/diners.ts)
 *   BENCH_ROWS=20000 npm run bench:diners     (a smaller file)
 *   BENCH_SMOKE=1 bun bench/diners.ts          (300 rows, 20 diners to sell to, 0.2 s of sales alone: a smoke run)
 *   npm run bench:diners -- formats           (the same workers as .xlsx, .csv, .ods and .xls, each one's peak)
 *
 * The database is built as bench/pos.ts builds its own (migrations, the reference and demo seeders for places,
 * access, services and dealerships) plus BENCH_SELLERS (500) diners to sell to, who are not in the file; it is
 * copied once for each case, so both start from the same data.
 *
 * (a) Baseline: SheetJS reading the same bytes (`dense: true`, as Mesa's worker does) and `sheet_to_json` of its
 *     rows, then one bare prepared INSERT per row into `diners` in one transaction (names folded, as the table
 *     needs), with the subdealership and cafe looked up in a Map. No checks, no audit, no undo log, no ledger.
 * (b) Mesa: readFirstSheetPacked (the intake's checks, then the parse in a worker, the rows sent back packed) +
 *     previewDinerImportAsync (every row checked, yielding to the event loop every thousand rows, as an import
 *     running in the server's process must) + importDiners (checked again, written in short chunks with the undo log, the audit and the ledger), timed
 *     step by step. `./mesa import:diners` runs the same with the synchronous previewDinerImport, in its own process.
 *     From 2 s before (b) to its end, a second process (`bun bench/diners.ts seller …`, its own connection) makes a
 *     cash sale through recordSale every BENCH_SALE_MS (20) ms, and this process's event loop does the same on
 *     Mesa's connection: the longest wait of a sale (from when it was due to its commit) is the figure to watch,
 *     printed for the 2 s before the import, for the import, and for each of its steps.
 * (c) Mesa again with the same file (every row unchanged).
 *
 * Peak memory is the resident set's high-water mark (VmHWM) of this process over each case, reset between cases
 * through /proc/self/clear_refs once the memory the case before freed has gone back to the system (settleMemory),
 * and printed with the resident set it started from; the parse worker runs inside this process, so it is counted. It prints its figures
 * next to the targets (not checked) and checks what they rest on: the baseline and Mesa store every row, the second
 * import finds every row unchanged, the diners to sell to are the leavers, and no sale failed meanwhile.
 * bench/README.md says how to read them.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import * as XLSX from "xlsx";
import { referenceSeeders } from "../db/seeds";
import { accessSeeder } from "../db/seeds/access";
import { dealershipsSeeder } from "../db/seeds/dealerships";
import { placesSeeder } from "../db/seeds/places";
import { servicesSeeder } from "../db/seeds/services";
import { loadConfig, type Config } from "../src/config";
import { groupCommit, migrateDatabase, openDatabase, type Db } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import { CLI_ACTOR, type Actor } from "../src/domain/audit";
import { foldText } from "../src/shared/fold";
import { dateIn } from "../src/shared/calendar";
import { importDiners, previewDinerImportAsync, type DinerImportOptions } from "../src/domain/sales/diner-import";
import { recordSale } from "../src/domain/sales/sell";
import { DINER_INTAKE, readFirstSheetPacked } from "../src/domain/spreadsheets/read";
import { check, finishChecks, setting } from "./support/smoke";

const ROWS = setting("BENCH_ROWS", 100_000, 300);
const SELLERS = setting("BENCH_SELLERS", 500, 20);
const SALE_MS = setting("BENCH_SALE_MS", 20, 20);
/** Sales alone before the import, for reference. */
const QUIET_MS = setting("BENCH_QUIET_MS", 2000, 200);

/** The targets of issue 15. */
const TARGET_ROWS_PER_SECOND = 25_000;
const TARGET_RATIO = 2;
const TARGET_WAIT_MS = 1000;
/** Issue 29: the peak of a 100,000-row .xlsx import. */
const TARGET_PEAK_MIB = 300;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");

function settingsFor(dbPath: string): Config {
  return loadConfig({
    NODE_ENV: "production",
    DB_PATH: dbPath,
    STORAGE_PATH: join(dbPath, ".."),
    LOG_REQUESTS: "false",
  });
}

// ——— Peak memory ———

/** Resets the resident set's high-water mark (Linux); false where that cannot be done. */
function resetPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** The resident set now, in bytes (0 where /proc is not there). */
function currentRss(): number {
  try {
    const line = readFileSync("/proc/self/status", "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    if (line) return Number(line.replace(/\D+/g, "")) * 1024;
  } catch {}
  return 0;
}

/**
 * Collects the garbage and waits (at most 3 s) for the resident set to stop shrinking: memory freed by the case
 * before (or by making the file) goes back to the system a while after it is freed, and would otherwise be counted
 * in the next case's peak. Returns the resident set then, the case's starting point.
 */
async function settleMemory(): Promise<number> {
  let last = currentRss();
  for (let i = 0; i < 30; i++) {
    Bun.gc(true);
    await Bun.sleep(100);
    const now = currentRss();
    if (last - now < 1048576) return now;
    last = now;
  }
  return last;
}

/** The resident set's high-water mark in bytes: VmHWM (since the last reset), else the process's maxRSS. */
function peakRss(): number {
  try {
    const line = readFileSync("/proc/self/status", "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmHWM:"));
    if (line) return Number(line.replace(/\D+/g, "")) * 1024;
  } catch {}
  return process.resourceUsage().maxRSS * 1024;
}

// ——— The database and the file ———

interface Place {
  cafe: string;
  cafeId: number;
  subdealerships: { name: string; id: number }[];
}

/** The demo places and companies, and SELLERS diners to sell to (their documents start with 1, the file's with 4–7). */
async function generateDatabase(path: string): Promise<{ places: Place[]; sellers: string[] }> {
  const config = settingsFor(path);
  const db = openDatabase(path);
  migrateDatabase(db);
  for (const seeder of [...referenceSeeders, placesSeeder, accessSeeder, servicesSeeder, dealershipsSeeder])
    await seeder.run(db, config);
  const client = db.$client;
  const cafes = client.query("SELECT c.id, c.name, c.unit_id FROM cafes c ORDER BY c.id").all() as {
    id: number;
    name: string;
    unit_id: number;
  }[];
  const places = cafes.map((c) => ({
    cafe: c.name,
    cafeId: c.id,
    subdealerships: client
      .query(
        `SELECT s.id, s.name FROM subdealerships s JOIN subdealership_units su ON su.subdealership_id = s.id
         WHERE su.unit_id = ? ORDER BY s.id`,
      )
      .all(c.unit_id) as { id: number; name: string }[],
  }));
  const withCompanies = places.filter((p) => p.subdealerships.length > 0);
  const sellers: string[] = [];
  const now = Date.now();
  client.transaction(() => {
    const insert = client.prepare(
      `INSERT INTO diners (document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id,
         active, created_at, updated_at) VALUES ('dni', ?, ?, ?, '', ?, ?, NULL, 1, ?, ?)`,
    );
    for (let i = 0; i < SELLERS; i++) {
      const place = withCompanies[i % withCompanies.length];
      const document = String(10_000_000 + i);
      const name = `Vendido ${i + 1}`;
      insert.run(document, name, foldText(name), place.subdealerships[0].id, place.cafeId, now, now);
      sellers.push(document);
    }
  })();
  client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  return { places: withCompanies, sellers };
}

const FIRST = ["Juan", "José", "Luis", "Carlos", "Víctor", "Percy", "Wilber", "Edwin", "Efraín", "Yony", "María"];
const FIRST_2 = ["Rosa", "Lucía", "Yesenia", "Maribel", "Gladys", "Ruth", "Milagros", "Roxana", "Teodoro", "Néstor"];
const SURNAMES = ["Quispe", "Mamani", "Huamán", "Condori", "Flores", "Rojas", "Chávez", "Ñaupari", "Ccahuana", "Apaza"];
const SURNAMES_2 = ["Ticona", "Gutiérrez", "Sánchez", "Vargas", "Mendoza", "Castillo", "Ramos", "Torres", "Ayala"];
const LEVELS = ["Laborer", "Laborer", "Employee", "Laborer", "Staff", "Employee", "Laborer", "Master"];

const COLUMNS = ["Apellidos", "Nombres", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"];

/** The file's rows: header, then `count` workers spread over the cafes, each with a subdealership of the cafe's unit. */
function workerRows(places: Place[], count = ROWS): (string | number)[][] {
  const rows: (string | number)[][] = [COLUMNS];
  for (let i = 0; i < count; i++) {
    const place = places[i % places.length];
    const company = place.subdealerships[Math.floor(i / places.length) % place.subdealerships.length];
    rows.push([
      `${SURNAMES[i % SURNAMES.length]} ${SURNAMES_2[Math.floor(i / 10) % SURNAMES_2.length]}`,
      `${FIRST[Math.floor(i / 7) % FIRST.length]} ${FIRST_2[Math.floor(i / 13) % FIRST_2.length]}`,
      // Unique 8-digit DNIs from 40,000,000 up; some with leading zeros would start with 0 (numbers in the cell).
      40_000_000 + i * 3,
      `9${String(10_000_000 + ((i * 7919) % 90_000_000)).padStart(8, "0")}`,
      company.name,
      place.cafe,
      LEVELS[i % LEVELS.length],
    ]);
  }
  return rows;
}

function workbookBytes(rows: (string | number)[][], bookType: "xlsx" | "xls" | "ods" | "csv" = "xlsx"): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Trabajadores");
  if (bookType === "csv") return new TextEncoder().encode(XLSX.utils.sheet_to_csv(book.Sheets.Trabajadores));
  return new Uint8Array(XLSX.write(book, { type: "array", bookType, compression: true }) as ArrayBuffer);
}

// ——— (a) The baseline ———

async function baseline(path: string, bytes: Uint8Array) {
  const db = openDatabase(path);
  const client = db.$client;
  const start = await settleMemory();
  resetPeak();
  const started = performance.now();
  const book = XLSX.read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false, cellText: false });
  const rows = XLSX.utils.sheet_to_json<(string | number | null)[]>(book.Sheets[book.SheetNames[0]], {
    header: 1,
    raw: true,
    defval: null,
  });
  const readMs = performance.now() - started;
  const cafes = new Map(
    (client.query("SELECT id, name FROM cafes").all() as { id: number; name: string }[]).map((c) => [c.name, c.id]),
  );
  const companies = new Map(
    (client.query("SELECT id, name FROM subdealerships").all() as { id: number; name: string }[]).map((s) => [
      s.name,
      s.id,
    ]),
  );
  const levels = new Map(
    (client.query("SELECT id, name FROM levels").all() as { id: number; name: string }[]).map((l) => [l.name, l.id]),
  );
  const insert = client.prepare(
    `INSERT INTO diners (document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id,
       active, created_at, updated_at) VALUES ('dni', ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  );
  const now = Date.now();
  client.transaction(() => {
    for (let i = 1; i < rows.length; i++) {
      const [last, first, dni, phone, company, cafe, level] = rows[i];
      const name = `${last} ${first}`;
      insert.run(
        String(dni).padStart(8, "0"),
        name,
        foldText(name),
        String(phone ?? ""),
        companies.get(String(company))!,
        cafes.get(String(cafe))!,
        levels.get(String(level)) ?? null,
        now,
        now,
      );
    }
  })();
  const totalMs = performance.now() - started;
  const peak = peakRss();
  const inserted = (client.query("SELECT COUNT(*) AS n FROM diners").get() as { n: number }).n - SELLERS;
  client.close();
  return { readMs, insertMs: totalMs - readMs, totalMs, start, peak, inserted };
}

// ——— Sales meanwhile ———

/** A cash sale of `document` at `cafeId` for today: no limit per day, so one diner may buy again and again. */
function saleBody(cafe: SellingCafe, document: string, n: number) {
  return {
    key: `bench-diners-${process.pid}-${n}`,
    cafe_id: cafe.id,
    document_type: "dni",
    document_number: document,
    service_date: dateIn(cafe.timeZone),
    sale_type: "cash",
    lines: [{ service_id: cafe.serviceId, quantity: 1 }],
  };
}

interface SellingCafe {
  id: number;
  timeZone: string;
  serviceId: number;
  documents: string[];
}

/** A cafe with its sellers' documents and a priced meal service to sell. */
function sellingCafe(db: Db, sellers: string[]): SellingCafe {
  const client = db.$client;
  const first = client
    .query(
      `SELECT d.cafe_id AS id, c.time_zone AS timeZone FROM diners d JOIN cafes c ON c.id = d.cafe_id
       WHERE d.document_number = ?`,
    )
    .get(sellers[0]) as { id: number; timeZone: string };
  const service = client
    .query(
      `SELECT s.id FROM cafe_services cs JOIN services s ON s.id = cs.service_id
       WHERE cs.cafe_id = ? AND cs.price_cents IS NOT NULL AND s.type IN ('breakfast', 'lunch', 'dinner', 'snack')
       ORDER BY s.id DESC LIMIT 1`,
    )
    .get(first.id) as { id: number };
  const documents = (
    client
      .query("SELECT document_number AS n FROM diners WHERE cafe_id = ? AND document_number < '2'")
      .all(first.id) as {
      n: string;
    }[]
  ).map((d) => d.n);
  return { id: first.id, timeZone: first.timeZone, serviceId: service.id, documents };
}

/** One sale: when it was due (ms since the epoch, comparable between processes) and how long it waited for its commit. */
type SaleRecord = [dueAt: number, waitMs: number, ok: 0 | 1];

interface SaleLog {
  records: SaleRecord[];
  firstError: string | null;
}

/**
 * Sells one cash sale every SALE_MS ms on `db` until `stop()`. A sale's wait runs from when it was due to its commit,
 * so a sale held back by a busy event loop or by the database's write lock counts the whole delay. A slot missed
 * meanwhile is skipped (the next sale is due when the late one ends), so one stall is counted once, not passed on
 * to every later sale.
 */
function sellEvery(db: Db, config: Config, cafe: SellingCafe, actor: Actor) {
  const log: SaleLog = { records: [], firstError: null };
  let stopped = false;
  let n = 0;
  const loop = (async () => {
    let next = performance.now();
    while (!stopped) {
      const ahead = next - performance.now();
      if (ahead > 0) await Bun.sleep(ahead);
      if (stopped) break;
      const due = next;
      const document = cafe.documents[n % cafe.documents.length];
      let ok: 0 | 1 = 1;
      try {
        await groupCommit(db, () =>
          recordSale(db, actor, EVERYTHING, saleBody(cafe, document, n), config, { backdate: false }),
        );
      } catch (error) {
        ok = 0;
        log.firstError ??= error instanceof Error ? error.message : String(error);
      }
      const end = performance.now();
      log.records.push([performance.timeOrigin + due, end - due, ok]);
      n++;
      next = Math.max(due + SALE_MS, end);
    }
  })();
  return {
    async stop(): Promise<SaleLog> {
      stopped = true;
      await loop;
      return log;
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

/** The sales due within [from, to) (ms since the epoch): how many, how many failed, their waits sorted. */
function salesWithin(log: SaleLog, from: number, to: number) {
  const within = log.records.filter(([dueAt]) => dueAt >= from && dueAt < to);
  return {
    sales: within.length,
    failed: within.filter(([, , ok]) => !ok).length,
    waits: within.map(([, wait]) => wait).sort((a, b) => a - b),
    firstError: log.firstError,
  };
}

/** The waits, sorted, of the sales that were waiting at some moment of [from, to) (ms since the epoch). */
function waitingDuring(log: SaleLog, from: number, to: number): number[] {
  return log.records
    .filter(([dueAt, wait]) => dueAt < to && dueAt + wait > from)
    .map(([, wait]) => wait)
    .sort((a, b) => a - b);
}

function waitsLine(label: string, w: ReturnType<typeof salesWithin>, target: boolean): string {
  const max = w.waits.at(-1) ?? NaN;
  const failed = w.failed ? `, ${w.failed} failed (${w.firstError})` : "";
  const verdict = target ? `   ${mark(max <= TARGET_WAIT_MS && w.failed === 0)} (≤ ${TARGET_WAIT_MS} ms)` : "";
  return `    ${label.padEnd(26)} ${String(w.sales).padStart(4)} sales${failed}; wait p50 ${percentile(w.waits, 0.5).toFixed(1)} ms  p99 ${percentile(w.waits, 0.99).toFixed(1)} ms  max ${max.toFixed(1)} ms${verdict}`;
}

/** The seller process: sells on its own connection until told to stop, then sends its waits back. */
async function runSeller(path: string, sellersFile: string): Promise<void> {
  const config = settingsFor(path);
  const db = openDatabase(path);
  const cafe = sellingCafe(db, JSON.parse(readFileSync(sellersFile, "utf8")) as string[]);
  const actor: Actor = { userId: null, label: "bench-seller" };
  let seller: ReturnType<typeof sellEvery> | null = null;
  process.on("message", async (message: { cmd: "start" | "stop" }) => {
    if (message.cmd === "start") {
      seller = sellEvery(db, config, cafe, actor);
      process.send!({ cmd: "started" });
    } else {
      const log = await seller!.stop();
      process.send!({ cmd: "stopped", log });
      db.$client.close();
      process.exit(0);
    }
  });
  process.send!({ cmd: "ready" });
}

function spawnSeller(path: string, sellersFile: string) {
  const waiting = new Map<string, (value: any) => void>();
  const next = (cmd: string) => new Promise<any>((resolve) => waiting.set(cmd, resolve));
  const ready = next("ready");
  const child: Subprocess = Bun.spawn([process.execPath, import.meta.path, "seller", path, sellersFile], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
    ipc(message: { cmd: string }) {
      waiting.get(message.cmd)?.(message);
      waiting.delete(message.cmd);
    },
  });
  return {
    ready,
    async start() {
      const started = next("started");
      child.send({ cmd: "start" });
      await started;
    },
    async stop(): Promise<SaleLog> {
      const stopped = next("stopped");
      child.send({ cmd: "stop" });
      return ((await stopped) as { log: SaleLog }).log;
    },
  };
}

// ——— (b) and (c) Mesa ———

async function mesaImport(db: Db, config: Config, bytes: Uint8Array, fileName: string) {
  const options: DinerImportOptions = { dniLength: config.dniLength };
  const start = currentRss();
  resetPeak();
  const t0 = performance.now();
  const { sheet } = await readFirstSheetPacked(bytes, fileName, DINER_INTAKE);
  const t1 = performance.now();
  const preview = await previewDinerImportAsync(db, EVERYTHING, sheet, options);
  const t2 = performance.now();
  if (preview.problemCount) {
    const first = preview.problems[0];
    throw new Error(
      `the bench's file has ${preview.problemCount} problems, e.g. row ${first.row}: ${JSON.stringify(first.message)}`,
    );
  }
  let chunks = 0;
  let writeFrom = NaN;
  const { counts } = await importDiners(db, CLI_ACTOR, EVERYTHING, sheet, {
    ...options,
    expectedPlan: preview.plan,
    source: { fileName, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"), via: "cli" },
    onProgress: (step) => {
      if (step !== "saving") return;
      if (chunks++ === 0) writeFrom = performance.now();
    },
  });
  const t3 = performance.now();
  if (Number.isNaN(writeFrom)) writeFrom = t3;
  const epoch = (t: number) => performance.timeOrigin + t;
  return {
    readMs: t1 - t0,
    checkMs: t2 - t1,
    recheckMs: writeFrom - t2,
    writeMs: t3 - writeFrom,
    totalMs: t3 - t0,
    start,
    peak: peakRss(),
    counts,
    leavers: preview.leaverCount,
    // The first report is "0 of N" before the first chunk.
    chunks: Math.max(0, chunks - 1),
    /** Each step's start and end, in ms since the epoch (to place the sales made meanwhile). */
    steps: [
      ["reading (readFirstSheetPacked)", epoch(t0), epoch(t1)],
      ["checking (previewDinerImportAsync)", epoch(t1), epoch(t2)],
      ["checking again (importDiners)", epoch(t2), epoch(writeFrom)],
      ["writing (importDiners)", epoch(writeFrom), epoch(t3)],
    ] as [string, number, number][],
  };
}

// ——— The run ———

async function main() {
  const runStarted = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "mesa-bench-diners-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  console.log(
    `Mesa diner import, Bun ${Bun.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown CPU"}; load average before: ${load()}`,
  );

  const t = performance.now();
  const template = join(dir, "template.sqlite");
  const { places, sellers } = await generateDatabase(template);
  const sellersFile = join(dir, "sellers.json");
  writeFileSync(sellersFile, JSON.stringify(sellers));
  const bytes = workbookBytes(workerRows(places));
  const companies = new Set(places.flatMap((p) => p.subdealerships.map((s) => s.name)));
  console.log(
    `file: ${fmt(ROWS)} rows × ${COLUMNS.length} columns, ${(bytes.length / 1048576).toFixed(1)} MiB .xlsx; ${places.length} cafes, ${companies.size} subdealerships; database: demo places and companies + ${fmt(SELLERS)} diners to sell to; made in ${seconds(performance.now() - t)}`,
  );
  const copy = (name: string) => {
    const path = join(dir, `${name}.sqlite`);
    copyFileSync(template, path);
    return path;
  };
  const canResetPeak = resetPeak();

  // (a) The baseline.
  const bare = await baseline(copy("baseline"), bytes);
  const bareRate = ROWS / (bare.totalMs / 1000);
  console.log(
    "\n── (a) baseline: SheetJS read (dense) + sheet_to_json + bare prepared INSERT per row, one transaction",
  );
  console.log(
    `  read ${seconds(bare.readMs)}  insert ${seconds(bare.insertMs)}  total ${seconds(bare.totalMs)}  ${fmt(bareRate)} rows/s  (${fmt(bare.inserted)} rows)  peak RSS ${mib(bare.peak)} (from ${mib(bare.start)})`,
  );

  // (b) Mesa, with sales meanwhile: QUIET_MS of sales alone first (what a sale waits with no import), then the import.
  const mesaPath = copy("mesa");
  const config = settingsFor(mesaPath);
  const db = openDatabase(mesaPath);
  migrateDatabase(db);
  const seller = spawnSeller(mesaPath, sellersFile);
  await seller.ready;
  await settleMemory();
  const now = () => performance.timeOrigin + performance.now();
  const here = sellEvery(db, config, sellingCafe(db, sellers), { userId: null, label: "bench-loop" });
  await seller.start();
  const quietFrom = now();
  await Bun.sleep(QUIET_MS);
  const importFrom = now();
  const mesa = await mesaImport(db, config, bytes, "trabajadores.xlsx");
  const importTo = now();
  const [otherLog, hereLog] = [await seller.stop(), await here.stop()];
  const mesaRate = ROWS / (mesa.totalMs / 1000);
  console.log("\n── (b) Mesa: readFirstSheetPacked + previewDinerImportAsync + importDiners");
  console.log(
    `  read ${seconds(mesa.readMs)}  check ${seconds(mesa.checkMs)}  check again ${seconds(mesa.recheckMs)}  write ${seconds(mesa.writeMs)} (${mesa.chunks} chunks)  total ${seconds(mesa.totalMs)}  ${fmt(mesaRate)} rows/s  peak RSS ${mib(mesa.peak)} (from ${mib(mesa.start)})`,
  );
  console.log(
    `  ${fmt(mesa.counts.created)} created, ${fmt(mesa.counts.updated)} updated, ${fmt(mesa.counts.unchanged)} unchanged; ${fmt(mesa.leavers)} leavers (the diners to sell to) left active`,
  );
  console.log(`  a cash sale through recordSale due every ${SALE_MS} ms, its wait from when it was due to its commit:`);
  const other = salesWithin(otherLog, importFrom, importTo);
  const hereDuring = salesWithin(hereLog, importFrom, importTo);
  console.log(`  ${seconds(QUIET_MS)} before the import, no import running:`);
  console.log(waitsLine("another process", salesWithin(otherLog, quietFrom, importFrom), false));
  console.log(waitsLine("this process's event loop", salesWithin(hereLog, quietFrom, importFrom), false));
  console.log(`  while the import ran (${seconds(importTo - importFrom)}):`);
  console.log(waitsLine("another process", other, true));
  console.log(waitsLine("this process's event loop", hereDuring, true));
  console.log("  the longest wait of a sale waiting during each step (another process / this event loop):");
  for (const [step, from, to] of mesa.steps) {
    const longest = (log: SaleLog) => (waitingDuring(log, from, to).at(-1) ?? NaN).toFixed(0).padStart(6);
    console.log(`    ${step.padEnd(32)} ${longest(otherLog)} ms / ${longest(hereLog)} ms   (${seconds(to - from)})`);
  }

  // (c) The same file again: every row unchanged.
  await settleMemory();
  const again = await mesaImport(db, config, bytes, "trabajadores.xlsx");
  console.log("\n── (c) Mesa, the same file again (all unchanged)");
  console.log(
    `  read ${seconds(again.readMs)}  check ${seconds(again.checkMs)}  check again + write ${seconds(again.recheckMs + again.writeMs)}  total ${seconds(again.totalMs)}  ${fmt(ROWS / (again.totalMs / 1000))} rows/s  (${fmt(again.counts.unchanged)} unchanged)  peak RSS ${mib(again.peak)} (from ${mib(again.start)})`,
  );
  db.$client.close();

  check(bare.inserted === ROWS, `the baseline stores every row (${fmt(bare.inserted)} of ${fmt(ROWS)})`);
  check(
    mesa.counts.created === ROWS,
    `Mesa creates every diner of the file (${fmt(mesa.counts.created)} of ${fmt(ROWS)})`,
  );
  check(mesa.leavers === SELLERS, `the diners to sell to, not in the file, are the leavers (${fmt(mesa.leavers)})`);
  check(
    again.counts.unchanged === ROWS,
    `the same file again leaves every diner unchanged (${fmt(again.counts.unchanged)})`,
  );
  for (const [who, log] of [
    ["another process", otherLog],
    ["this process's event loop", hereLog],
  ] as const) {
    const failures = log.records.filter(([, , ok]) => !ok).length;
    check(
      log.records.length > 0 && failures === 0,
      `the sales of ${who} all succeed (${failures} of ${log.records.length} failed${log.firstError ? `: ${log.firstError}` : ""})`,
    );
  }

  const ratio = mesa.totalMs / bare.totalMs;
  const worst = Math.max(other.waits.at(-1) ?? 0, hereDuring.waits.at(-1) ?? 0);
  console.log("\n── targets");
  console.log(
    `  end to end ≥ ${fmt(TARGET_ROWS_PER_SECOND)} rows/s   ${fmt(mesaRate)} rows/s   ${mark(mesaRate >= TARGET_ROWS_PER_SECOND)}`,
  );
  console.log(`  Mesa / bare ≤ ${TARGET_RATIO}×            ${ratio.toFixed(2)}×   ${mark(ratio <= TARGET_RATIO)}`);
  console.log(
    `  peak RSS ≤ ${TARGET_PEAK_MIB} MiB          ${mib(mesa.peak)}   ${mark(mesa.peak <= TARGET_PEAK_MIB * 1048576)}`,
  );
  console.log(
    `  a sale's longest wait ≤ ${TARGET_WAIT_MS} ms   ${worst.toFixed(0)} ms (another process ${(other.waits.at(-1) ?? NaN).toFixed(0)} ms, this event loop ${(hereDuring.waits.at(-1) ?? NaN).toFixed(0)} ms)   ${mark(worst <= TARGET_WAIT_MS)}`,
  );
  console.log(
    `\npeak RSS is ${canResetPeak ? "each case's own high-water mark (VmHWM reset between cases)" : "the process's high-water mark so far (could not reset it here)"}; load average after: ${load()}; total ${seconds(performance.now() - runStarted)}`,
  );
  finishChecks();
}

// ——— The other formats: each one's peak, in a process of its own ———

/** An .xls (BIFF8) holds at most 65,536 rows: its file has a header row and 65,535 workers. */
const XLS_ROWS = 65_535;

interface FormatRun {
  rows: number;
  bytes: number;
  start: number;
  peak: number;
  readMs: number;
  totalMs: number;
  created: number;
}

/** One file imported by Mesa (read, checked, written) alone in this process; prints what it measured as JSON. */
async function runFormat(template: string, file: string): Promise<void> {
  const path = `${file}.sqlite`;
  copyFileSync(template, path);
  const db = openDatabase(path);
  migrateDatabase(db);
  const bytes = new Uint8Array(readFileSync(file));
  await settleMemory();
  const run = await mesaImport(db, settingsFor(path), bytes, file.replace(/^.*\//, ""));
  db.$client.close();
  const result: FormatRun = {
    rows: run.counts.created,
    bytes: bytes.length,
    start: run.start,
    peak: run.peak,
    readMs: run.readMs,
    totalMs: run.totalMs,
    created: run.counts.created,
  };
  console.log(JSON.stringify(result));
}

/**
 * `bun bench/diners.ts formats`: the same workers as .xlsx, .csv, .ods and .xls (65,535 rows: the most an .xls
 * holds), each imported by Mesa in a process of its own (no sales meanwhile), with its peak resident set.
 */
async function formats(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mesa-bench-diners-formats-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const template = join(dir, "template.sqlite");
  const { places } = await generateDatabase(template);
  console.log(
    `Mesa diner import by format, Bun ${Bun.version}, ${cpus().length} cores; load average ${loadavg()[0].toFixed(2)}`,
  );
  for (const format of ["xlsx", "csv", "ods", "xls"] as const) {
    const rows = format === "xls" ? Math.min(ROWS, XLS_ROWS) : ROWS;
    const file = join(dir, `trabajadores.${format}`);
    writeFileSync(file, workbookBytes(workerRows(places, rows), format));
    const child = Bun.spawn([process.execPath, import.meta.path, "format", template, file], {
      stdout: "pipe",
      stderr: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    const out = await new Response(child.stdout).text();
    await child.exited;
    const run = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as FormatRun;
    console.log(
      `  .${format.padEnd(4)} ${fmt(rows).padStart(7)} rows  ${(run.bytes / 1048576).toFixed(1).padStart(5)} MiB  read ${seconds(run.readMs)}  total ${seconds(run.totalMs)}  ${fmt(rows / (run.totalMs / 1000)).padStart(7)} rows/s  peak RSS ${mib(run.peak)} (from ${mib(run.start)})`,
    );
    check(run.created === rows, `the .${format} file's diners are all created (${fmt(run.created)} of ${fmt(rows)})`);
  }
  finishChecks();
}

if (process.argv[2] === "seller") {
  const [path, sellersFile] = process.argv.slice(3);
  await runSeller(path, sellersFile);
} else if (process.argv[2] === "format") await runFormat(process.argv[3], process.argv[4]);
else if (process.argv[2] === "formats") await formats();
else await main();
