/**
 * Parses one spreadsheet away from the request thread (see read.ts): receives the bytes and the read limits, answers
 * with the rows as arrays of raw cell values, or with an error. read.ts terminates this worker when it takes too long.
 *
 * Before SheetJS sees a zip, checkZipContent inflates every entry with its declared size as the bound, so SheetJS
 * only ever inflates streams already proven to be no larger than the sizes read.ts has accepted.
 *
 * A sheet's declared size is not trusted (`nodim`: the used range comes from the cells themselves), parsing stops
 * one row past the row limit (`sheetRows`), and only the first MAX_SHEET_COLUMNS columns are read, so a small file
 * cannot claim a million blank rows and fill the memory. For readFirstSheet, the first sheet's XML is also counted
 * before SheetJS reads it (sheet-size.ts): an .ods repeating a row a million times, or an .xlsx holding millions of
 * cells, is refused before any cell exists. Formulas are never evaluated: a formula cell gives its cached value.
 */
import type * as SheetJS from "xlsx";
import { ValidationFailed } from "../errors";
import { parseCsv } from "./csv";
import { decodeText } from "./detect";
import { MAX_SHEET_COLUMNS } from "./limits";
import { packSheet, transferablesOf } from "./packed-rows";
import {
  checkZip,
  checkZipContent,
  entryContent,
  type CellValue,
  type SheetRows,
  type WorkerAnswer,
  type WorkerRequest,
} from "./read";
import {
  checkOdsContent,
  checkXlsxSheet,
  firstXlsxSheet,
  isBinaryWorkbook,
  odsIsEncrypted,
  type SheetBounds,
} from "./sheet-size";
import { readXlsxFirstSheet } from "./xlsx-sheet";

declare const self: Worker;

/** SheetJS, loaded when a workbook comes (a CSV does not need it, and loading it is most of a small read's time). */
let XLSX: typeof SheetJS;

const OPTIONS: SheetJS.ParsingOptions = {
  type: "array",
  dense: true,
  nodim: true,
  cellFormula: false,
  cellHTML: false,
  cellText: false,
  cellStyles: false,
  cellDates: false,
};

/** The places import's read: every sheet of an .xlsx, each refused past `limits.maxRows` rows. */
function everySheet({ bytes, limits }: WorkerRequest): SheetRows[] {
  checkZipContent(bytes, limits);
  const book = XLSX.read(bytes, { ...OPTIONS, sheetRows: limits.maxRows + 1 });
  const sheets = [];
  for (const name of book.SheetNames) {
    const sheet = book.Sheets[name];
    const ref = sheet["!ref"];
    const range = ref ? XLSX.utils.decode_range(ref) : null;
    if (range && range.e.r >= limits.maxRows)
      throw refusal("import.too_many_rows", { sheet: name, max: limits.maxRows });
    if (range) range.e.c = Math.min(range.e.c, range.s.c + MAX_SHEET_COLUMNS - 1);
    sheets.push({
      name,
      // The spreadsheet row number of rows[0]: with `nodim` the range starts at A1, so rows keep their numbers.
      firstRow: range ? range.s.r + 1 : 1,
      rows: range
        ? XLSX.utils.sheet_to_json<CellValue[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true, range })
        : [],
    });
  }
  return sheets;
}

const refusal = (key: string, params?: Record<string, string | number>) =>
  new ValidationFailed({ file: params ? { key, params } : { key } });

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A SheetJS cell as a raw value: text, a finite number or a boolean; anything else (blank, error) is null. */
function valueOf(cell: SheetJS.CellObject | undefined): CellValue {
  if (!cell) return null;
  switch (cell.t) {
    case "s":
      return typeof cell.v === "string" && cell.v !== "" ? cell.v : null;
    case "n":
      return typeof cell.v === "number" && Number.isFinite(cell.v) ? cell.v : null;
    case "b":
      return cell.v === true;
    default:
      return null;
  }
}

/**
 * A parsed sheet's rows from row 1 to its last row with a value, the first MAX_SHEET_COLUMNS columns, all of one
 * width (blank cells null, blank rows kept for the numbering). Refuses a value past `bounds.rows`, and a sheet with
 * no value at all.
 */
function rowsOf(sheet: SheetJS.WorkSheet, name: string, bounds: SheetBounds): CellValue[][] {
  const data = (sheet["!data"] ?? []) as (SheetJS.CellObject[] | undefined)[];
  const rows: CellValue[][] = [];
  let width = 0;
  let last = -1;
  for (let r = 0; r < data.length; r++) {
    const source = data[r];
    const row: CellValue[] = [];
    if (source) {
      const end = Math.min(source.length, MAX_SHEET_COLUMNS);
      for (let c = 0; c < end; c++) {
        const value = valueOf(source[c]);
        if (value !== null) {
          while (row.length < c) row.push(null);
          row.push(value);
        }
      }
    }
    rows.push(row);
    if (row.length === 0) continue;
    if (r >= bounds.rows) throw refusal("import.too_many_rows", { sheet: name, max: bounds.reportedRows });
    last = r;
    if (row.length > width) width = row.length;
  }
  if (last < 0) throw refusal("import.empty");
  rows.length = last + 1;
  for (const row of rows) while (row.length < width) row.push(null);
  return rows;
}

/** The first sheet of `book`, as rows. */
function firstSheetOf(book: SheetJS.WorkBook, bounds: SheetBounds): SheetRows {
  const name = book.SheetNames[0];
  if (name === undefined) throw refusal("import.empty");
  return { name, firstRow: 1, rows: rowsOf(book.Sheets[name], name, bounds) };
}

/** readFirstSheet's read: the first sheet of a file of the given format, checked as the comment above says. */
function firstSheet({ bytes, limits, firstSheet }: WorkerRequest & Required<Pick<WorkerRequest, "firstSheet">>) {
  const bounds: SheetBounds = { rows: limits.maxRows + 1, reportedRows: limits.maxRows };
  // For parts that are not the first sheet: cells within the rows SheetJS would read count, rows are not limited.
  const cellsOnly: SheetBounds = { ...bounds, rows: Number.POSITIVE_INFINITY, countedRows: bounds.rows + 1 };
  // One row past the limit is read, so that a sheet over it is told from one that fills it.
  const options = { ...OPTIONS, sheetRows: bounds.rows + 1 };
  switch (firstSheet.format) {
    case "csv": {
      const { rows } = parseCsv(decodeText(bytes), {
        maxRows: bounds.rows,
        maxColumns: MAX_SHEET_COLUMNS,
        sheet: firstSheet.name,
        maxReported: bounds.reportedRows,
      });
      if (rows.length === 0) throw refusal("import.empty");
      return { name: firstSheet.name, firstRow: 1, rows };
    }
    case "xlsx": {
      const zip = checkZip(bytes, limits).entries;
      const entries = new Map(zip.map((entry) => [entry.name, entry]));
      const part = (name: string) => {
        const entry = entries.get(name);
        return entry ? text(entryContent(bytes, entry, limits)) : "";
      };
      const first = firstXlsxSheet(part("xl/workbook.xml"), part("xl/_rels/workbook.xml.rels"));
      if (entries.has("[Content_Types].xml") && isBinaryWorkbook(part("[Content_Types].xml"), [...entries.keys()]))
        throw refusal("import.not_a_spreadsheet");
      // The usual workbook is read without SheetJS (xlsx-sheet.ts), with the same checks and the same rows; what
      // that reader is not certain of is read below.
      const fast = first && readXlsxFirstSheet(bytes, zip, first, bounds, limits);
      if (fast) return fast;
      // Every part is counted, not only the one the workbook names first: SheetJS finds its parts its own way
      // (case-insensitively, with fallbacks), so no part it could read escapes the cell budget. Rows are held to
      // the limit in the first sheet (or everywhere when the workbook does not say which one that is).
      checkZipContent(bytes, limits, (entry, content) => {
        if (entry.name === "[Content_Types].xml" && isBinaryWorkbook(text(content), [...entries.keys()]))
          throw refusal("import.not_a_spreadsheet");
        const isFirst = first === null || entry.name.toLowerCase() === first.path.toLowerCase();
        checkXlsxSheet(text(content), isFirst && first ? first.name : entry.name, isFirst ? bounds : cellsOnly);
      });
      return firstSheetOf(XLSX.read(bytes, { ...options, sheets: 0 }), bounds);
    }
    case "ods": {
      const entries = new Map(checkZip(bytes, limits).entries.map((entry) => [entry.name, entry]));
      const manifest = entries.get("META-INF/manifest.xml");
      // Encrypted parts do not inflate: the manifest says so first.
      if (manifest && odsIsEncrypted(text(entryContent(bytes, manifest, limits)))) throw refusal("import.encrypted");
      // As for .xlsx, every part is counted (SheetJS looks for content.xml whatever its case).
      checkZipContent(bytes, limits, (_, content) => checkOdsContent(text(content), bounds));
      return firstSheetOf(XLSX.read(bytes, options), bounds);
    }
    case "xls":
      try {
        return firstSheetOf(XLSX.read(bytes, options), bounds);
      } catch (error) {
        // read.ts found no FILEPASS record; SheetJS still refuses some protections on its own.
        if (!(error instanceof ValidationFailed) && /password|encrypt/i.test(String((error as Error)?.message)))
          throw refusal("import.encrypted");
        throw error;
      }
  }
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  try {
    const request = event.data;
    if (request.firstSheet?.format !== "csv") XLSX ??= await import("xlsx");
    const rows = request.firstSheet
      ? [firstSheet({ ...request, firstSheet: request.firstSheet })]
      : everySheet(request);
    const sheets = rows.map(packSheet);
    self.postMessage({ ok: true, sheets } satisfies WorkerAnswer, sheets.flatMap(transferablesOf));
  } catch (error) {
    const refused = error instanceof ValidationFailed ? error.errors.file : null;
    if (refused && typeof refused === "object")
      self.postMessage({ ok: false, key: refused.key, params: refused.params } satisfies WorkerAnswer);
    else self.postMessage({ ok: false, key: "import.unreadable" } satisfies WorkerAnswer);
  }
};
