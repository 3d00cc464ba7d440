/**
 * Measures the spreadsheet intake (not a test; `npm run bench:diners` measures the whole import): a diner sheet of
 * 100,000 rows × 7 columns written by SheetJS as .xlsx (inline strings, as SheetJS writes them, and a shared string
 * table, as Excel writes them), .ods, .csv (UTF-8 with a BOM, semicolons) and .xls (65,535 rows, the format's most),
 * each read by readFirstSheet with the diner limits, three times. For each it prints the median time of the whole
 * read (checks, worker, SheetJS or the CSV reader, rows back to this thread), the longest the request thread went
 * without running a 1 ms timer meanwhile (what a request would have waited), and SheetJS's own read of the same
 * bytes on this thread for comparison.
 * Run: `node_modules/.bin/bun src/domain/spreadsheets/intake.measure.ts [rows]`.
 */
import * as XLSX from "xlsx";
import { DINER_INTAKE, readFirstSheet } from "./read";
import { SHEETJS_OPTIONS } from "./sheetjs-read";

const ROWS = Number(process.argv[2] ?? 100_000);
const RUNS = 3;

function sheetOf(rows: number): XLSX.WorkSheet {
  const data: (string | number)[][] = [
    ["Tipo de documento", "DNI", "Apellidos", "Nombres", "Celular", "Subcontrata", "Comedor"],
  ];
  for (let i = 0; i < rows; i++)
    data.push([
      i % 10 ? "DNI" : "CE",
      String(i).padStart(8, "0"),
      `Quispe Mamani ${i % 977}`,
      `Rosa ${i % 1013}`,
      900_000_000 + i,
      `Subcontrata ${i % 40}`,
      `Comedor ${i % 12}`,
    ]);
  return XLSX.utils.aoa_to_sheet(data);
}

function bookOf(sheet: XLSX.WorkSheet): XLSX.WorkBook {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, "Comensales");
  return book;
}

const sheet = sheetOf(ROWS);
const files: { label: string; name: string; rows: number; bytes: Uint8Array }[] = [];
const binary = (book: XLSX.WorkBook, bookType: XLSX.BookType, bookSST = false) =>
  new Uint8Array(XLSX.write(book, { type: "array", bookType, compression: true, bookSST }) as ArrayBuffer);
files.push({
  label: "xlsx (inline strings)",
  name: "comensales.xlsx",
  rows: ROWS,
  bytes: binary(bookOf(sheet), "xlsx"),
});
files.push({
  label: "xlsx (shared strings)",
  name: "comensales.xlsx",
  rows: ROWS,
  bytes: binary(bookOf(sheet), "xlsx", true),
});
files.push({ label: "ods", name: "comensales.ods", rows: ROWS, bytes: binary(bookOf(sheet), "ods") });
const csv = XLSX.utils.sheet_to_csv(sheet, { FS: ";" });
files.push({
  label: "csv (BOM, semicolons)",
  name: "comensales.csv",
  rows: ROWS,
  bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(csv)]),
});
const xlsRows = Math.min(ROWS, 65_535);
files.push({
  label: "xls (BIFF8)",
  name: "comensales.xls",
  rows: xlsRows,
  bytes: binary(bookOf(sheetOf(xlsRows)), "biff8"),
});

/** Runs `work` while a 1 ms timer keeps asking for this thread; returns its time and the longest gap between ticks. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; longestWait: number }> {
  let longestWait = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longestWait = Math.max(longestWait, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  clearInterval(timer);
  return { ms, longestWait: Math.max(longestWait, performance.now() - last) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The intake's own SheetJS options, for its first sheet only. */
const OPTIONS: XLSX.ParsingOptions = { ...SHEETJS_OPTIONS, sheetRows: DINER_INTAKE.maxRows + 2, sheets: 0 };

console.log(`readFirstSheet, ${ROWS.toLocaleString("en")} rows × 7 columns (.xls: ${xlsRows.toLocaleString("en")})`);
console.log(
  "format                  | MiB  | read (median of 3) | longest wait of this thread | SheetJS alone, this thread",
);
for (const file of files) {
  const reads: number[] = [];
  const waits: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { ms, longestWait } = await timed(async () => {
      const { sheet: read } = await readFirstSheet(file.bytes, file.name, DINER_INTAKE);
      if (read.rows.length !== file.rows + 1) throw new Error(`${file.label}: ${read.rows.length} rows`);
    });
    reads.push(ms);
    waits.push(longestWait);
  }
  let alone = "(not used)";
  if (!file.name.endsWith(".csv")) {
    const started = performance.now();
    XLSX.read(file.bytes, OPTIONS);
    alone = `${Math.round(performance.now() - started)} ms`;
  }
  console.log(
    [
      file.label.padEnd(23),
      (file.bytes.length / 1024 / 1024).toFixed(1).padStart(4),
      `${Math.round(median(reads))} ms`.padStart(18),
      `${Math.round(Math.max(...waits))} ms`.padStart(27),
      alone.padStart(26),
    ].join(" | "),
  );
}
