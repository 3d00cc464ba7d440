/**
 * Places import: a workbook of N cafes (2 cafes per unit, 5 units per mine) with a price for each cafe's five
 * services, read (zip checks + SheetJS in a worker) and imported all-or-nothing, next to a baseline that inserts
 * the same mines, units, cafes and prices with plain batched statements in one transaction, in the same run.
 * Run with `npm run bench:import` (CAFES=2000 by default; BENCH_SMOKE=1: 20 cafes). Checked: the import creates
 * every mine, unit, cafe and price of the workbook, and stores the same rows as the baseline.
 */
import * as XLSX from "xlsx";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servicesSeeder } from "../db/seeds/services";
import { placesSeeder } from "../db/seeds/places";
import { loadConfig } from "../src/config";
import { migrateDatabase, openDatabase } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import { CLI_ACTOR } from "../src/domain/audit";
import { ALL_ABILITIES, importPlaces } from "../src/domain/places/import";
import { readWorkbook } from "../src/domain/spreadsheets/read";
import { check, finishChecks, setting } from "./support/smoke";

const CAFES = setting("CAFES", 2000, 20);
const CODES = ["DES", "ALM", "CEN", "REF", "DSC"];
const dir = mkdtempSync(join(tmpdir(), "mesa-bench-import-"));

async function freshDb(name: string) {
  const config = loadConfig({ NODE_ENV: "production", DB_PATH: join(dir, `${name}.sqlite`), LOG_REQUESTS: "false" });
  const db = openDatabase(config.dbPath);
  migrateDatabase(db);
  await placesSeeder.run(db, config);
  await servicesSeeder.run(db, config);
  return { db, config };
}

const rows = Array.from({ length: CAFES }, (_, i) => ({
  mine: `Mina B${Math.floor(i / 10)}`,
  unit: `Unidad B${Math.floor(i / 2)}`,
  cafe: `Comedor B${i}`,
}));
const mines = [...new Set(rows.map((r) => r.mine))];
const units = [...new Map(rows.map((r) => [r.unit, r])).values()];
const sheet = (data: unknown[][]) => XLSX.utils.aoa_to_sheet(data);
const book = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(
  book,
  sheet([["Nombre", "Servicios"], ...mines.map((m) => [m, CODES.join(", ")])]),
  "Minas",
);
XLSX.utils.book_append_sheet(
  book,
  sheet([["Mina", "Nombre", "Servicios"], ...units.map((u) => [u.mine, u.unit, CODES.join(", ")])]),
  "Unidades",
);
XLSX.utils.book_append_sheet(
  book,
  sheet([
    ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
    ...rows.map((r) => [r.mine, r.unit, r.cafe, "Mesa Catering S.A.C.", "", CODES.join(", ")]),
  ]),
  "Comedores",
);
XLSX.utils.book_append_sheet(
  book,
  sheet([
    ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
    ...rows.flatMap((r) => CODES.map((code, k) => [r.mine, r.unit, r.cafe, code, 10 + k + 0.5])),
  ]),
  "Precios",
);
const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer);

// Mesa: read and import.
const mesa = await freshDb("mesa");
const heapBefore = process.memoryUsage().rss;
let t0 = performance.now();
const workbook = await readWorkbook(bytes);
const readMs = performance.now() - t0;
t0 = performance.now();
const counts = importPlaces(mesa.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, workbook, {
  timeZone: mesa.config.timezone,
});
const importMs = performance.now() - t0;
const rssGrowth = process.memoryUsage().rss - heapBefore;

// Baseline: the same rows with prepared statements in one transaction (no checks, no history, no audit).
const base = await freshDb("baseline");
const client = base.db.$client;
const businessId = (client.query("SELECT id FROM businesses LIMIT 1").get() as { id: number }).id;
const serviceIds = CODES.map(
  (code) => (client.query("SELECT id FROM services WHERE code = ?").get(code) as { id: number }).id,
);
t0 = performance.now();
client.transaction(() => {
  const insertMine = client.prepare("INSERT INTO mines (name) VALUES (?) RETURNING id");
  const insertUnit = client.prepare("INSERT INTO units (mine_id, name) VALUES (?, ?) RETURNING id");
  const insertCafe = client.prepare(
    "INSERT INTO cafes (unit_id, name, business_id, time_zone) VALUES (?, ?, ?, 'America/Lima') RETURNING id",
  );
  const mineOffer = client.prepare("INSERT INTO mine_services (mine_id, service_id) VALUES (?, ?)");
  const unitOffer = client.prepare("INSERT INTO unit_services (unit_id, service_id) VALUES (?, ?)");
  const cafeOffer = client.prepare(
    "INSERT INTO cafe_services (cafe_id, service_id, price_cents, updated_at) VALUES (?, ?, ?, ?)",
  );
  const mineIds = new Map<string, number>();
  const unitIds = new Map<string, number>();
  for (const r of rows) {
    if (!mineIds.has(r.mine)) {
      const id = (insertMine.get(r.mine) as { id: number }).id;
      mineIds.set(r.mine, id);
      for (const s of serviceIds) mineOffer.run(id, s);
    }
    if (!unitIds.has(r.unit)) {
      const id = (insertUnit.get(mineIds.get(r.mine)!, r.unit) as { id: number }).id;
      unitIds.set(r.unit, id);
      for (const s of serviceIds) unitOffer.run(id, s);
    }
    const cafeId = (insertCafe.get(unitIds.get(r.unit)!, r.cafe, businessId) as { id: number }).id;
    serviceIds.forEach((s, k) => cafeOffer.run(cafeId, s, 1050 + k * 100, Date.now()));
  }
})();
const baselineMs = performance.now() - t0;

console.log(
  `workbook: ${CAFES} cafes, ${units.length} units, ${mines.length} mines, ${CAFES * CODES.length} prices; ${(bytes.length / 1024).toFixed(0)} KiB`,
);
console.log(`created: ${counts.cafes.created} cafes, ${counts.prices.created + counts.prices.updated} prices`);
console.log(`read (zip checks + parse in a worker): ${readMs.toFixed(0)} ms`);
console.log(`import (validate + write + history + audit, one transaction): ${importMs.toFixed(0)} ms`);
console.log(`baseline (bare prepared inserts, one transaction): ${baselineMs.toFixed(0)} ms`);
console.log(
  `import / baseline: ${(importMs / baselineMs).toFixed(1)}×; RSS growth during read + import: ${(rssGrowth / 1048576).toFixed(0)} MiB`,
);

// The checks: everything in the workbook was created, and both databases hold the same places and prices.
check(
  counts.mines.created === mines.length && counts.units.created === units.length && counts.cafes.created === CAFES,
  `the import creates ${mines.length} mines, ${units.length} units and ${CAFES} cafes`,
);
check(
  counts.prices.created + counts.prices.updated === CAFES * CODES.length,
  `the import sets ${CAFES * CODES.length} prices`,
);
const stored = (client: typeof base.db.$client) =>
  client
    .query(
      `SELECT (SELECT count(*) FROM mines) AS mines, (SELECT count(*) FROM units) AS units, (SELECT count(*) FROM cafes) AS cafes,
         (SELECT count(*) FROM cafe_services WHERE price_cents IS NOT NULL) AS prices,
         (SELECT sum(price_cents) FROM cafe_services) AS cents`,
    )
    .get() as Record<string, number>;
const [mesaRows, baselineRows] = [stored(mesa.db.$client), stored(client)];
check(
  Bun.deepEquals(mesaRows, baselineRows),
  `Mesa and the baseline store the same places and prices (${JSON.stringify(mesaRows)} and ${JSON.stringify(baselineRows)})`,
);
mesa.db.$client.close();
client.close();
rmSync(dir, { recursive: true, force: true });
finishChecks();
