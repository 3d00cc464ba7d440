/**
 * Measures the diner import's own work (not a test, not the benchmark: `npm run bench:diners` is that): 100,000
 * diners validated and written by importDiners into a SQLite file, next to a bare prepared insert of the same rows
 * into the same table in the same run, then the same file imported again (everything unchanged). While it writes,
 * a timer asks for the event loop every millisecond, and the longest wait is what a sale in the same process would
 * have waited. Run: `node_modules/.bin/bun src/domain/sales/diner-import.measure.ts [rows]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase, openDatabase, type Db } from "../../db";
import { posWorld } from "../../../tests/support/pos";
import { foldText } from "../../shared/fold";
import { EVERYTHING } from "../access/scope";
import type { CellValue, SheetRows } from "../spreadsheets/read";
import { importDiners, previewDinerImport } from "./diner-import";

const ROWS = Number(process.argv[2] ?? 100_000);
const CHUNK = process.argv[3] ? Number(process.argv[3]) : undefined;
const dir = mkdtempSync(join(tmpdir(), "mesa-diner-import-"));

function world(name: string): Db {
  const db = openDatabase(join(dir, `${name}.sqlite`));
  migrateDatabase(db);
  posWorld(db);
  return db;
}

const LEVELS = ["Master", "Staff", "Employee", "Laborer"];
const rows: CellValue[][] = [["Apellidos", "Nombres", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"]];
for (let i = 0; i < ROWS; i++)
  rows.push([
    `Quispe Mamani ${i}`,
    `Juana ${i % 97}`,
    50_000_000 + i,
    `9${String(10_000_000 + i)}`,
    i % 2 ? "Contrata Uno" : "20512345682",
    i % 3 ? "Comedor Norte" : "Comedor Sur",
    LEVELS[i % 4],
  ]);
const sheet: SheetRows = { name: "Hoja1", firstRow: 1, rows };

// The baseline: the same rows, already resolved, inserted with one prepared statement in one transaction.
const bare = world("bare");
const cafes = bare.$client.query("SELECT id FROM cafes ORDER BY id").values() as [number][];
const subs = bare.$client.query("SELECT id FROM subdealerships ORDER BY id").values() as [number][];
// CPU time as well as wall time: on a busy machine the wall time also counts the other processes' turns.
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const c0 = cpu();
const t0 = performance.now();
const insert = bare.$client.prepare(
  `INSERT INTO diners (document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id,
    active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
bare.$client.transaction(() => {
  const now = Date.now();
  for (let i = 1; i <= ROWS; i++) {
    const r = rows[i];
    const name = `${r[1]} ${r[0]}`;
    insert.run(
      "dni",
      String(r[2]),
      name,
      foldText(name),
      String(r[3]),
      subs[i % 2][0],
      cafes[i % 3 ? 0 : 1][0],
      (i % 4) + 1,
      1,
      now,
      now,
    );
  }
})();
const bareMs = performance.now() - t0;
const bareCpu = cpu() - c0;

const db = world("import");
let longestWait = 0;
let last = performance.now();
const ticker = setInterval(() => {
  const at = performance.now();
  longestWait = Math.max(longestWait, at - last);
  last = at;
}, 1);
// The longest chunk: from one "saving" report to the next (its transaction, and the turn of the loop before it).
let longestChunk = 0;
let lastSaved = 0;
const c1 = cpu();
const t1 = performance.now();
const { counts } = await importDiners(db, { userId: null, label: "cli" }, EVERYTHING, sheet, {
  source: { fileName: "measure.xlsx", sha256: "0".repeat(64), via: "cli" },
  chunkSize: CHUNK,
  onProgress: (step, done) => {
    if (step !== "saving") return;
    const at = performance.now();
    if (done > 0) longestChunk = Math.max(longestChunk, at - lastSaved);
    lastSaved = at;
  },
});
const importMs = performance.now() - t1;
const importCpu = cpu() - c1;
clearInterval(ticker);

const c2 = cpu();
const preview = previewDinerImport(db, EVERYTHING, sheet);
const previewCpu = cpu() - c2;
const c3 = cpu();
const t3 = performance.now();
const again = await importDiners(db, { userId: null, label: "cli" }, EVERYTHING, sheet, {
  source: { fileName: "measure.xlsx", sha256: "0".repeat(64), via: "cli" },
});
const againMs = performance.now() - t3;
const againCpu = cpu() - c3;

const rate = (ms: number) => Math.round((ROWS / ms) * 1000).toLocaleString("en");
const line = (label: string, ms: number, cpuMs: number) =>
  console.log(
    `${label.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms ${rate(ms).padStart(8)} rows/s   cpu ${cpuMs.toFixed(0).padStart(6)} ms ${rate(cpuMs).padStart(8)} rows/s`,
  );
console.log(
  `rows: ${ROWS.toLocaleString("en")} (created ${counts.created}, re-import unchanged ${again.counts.unchanged})`,
);
line("bare prepared insert, one transaction", bareMs, bareCpu);
line("importDiners (check + write in chunks)", importMs, importCpu);
console.log(
  `  of which the check (a preview, alone)  cpu ${previewCpu.toFixed(0)} ms (${preview.unchanged} unchanged)`,
);
line("re-import, everything unchanged", againMs, againCpu);
console.log(`ratio import / bare: wall ${(importMs / bareMs).toFixed(2)}, cpu ${(importCpu / bareCpu).toFixed(2)}`);
console.log(`longest event-loop wait during the import: ${longestWait.toFixed(1)} ms`);
console.log(`longest chunk (write lock held, and the turn before it): ${longestChunk.toFixed(1)} ms`);
console.log(`peak RSS: ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MiB`);
bare.$client.close();
db.$client.close();
rmSync(dir, { recursive: true, force: true });
