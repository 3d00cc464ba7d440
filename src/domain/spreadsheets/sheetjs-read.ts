/**
 * The general path of readFirstSheet: SheetJS's read of a workbook and the rows of its first sheet. parse-worker.ts
 * runs it for every .xls and .ods, and for an .xlsx that Mesa's own reader (xlsx-sheet.ts) leaves to it; the tests
 * of that reader compare it with this very code. SheetJS is passed in: the worker loads it only for the reads that
 * use it.
 */
import type * as SheetJS from "xlsx";
import { ValidationFailed } from "../errors";
import type { TranslationKey, TranslationParams } from "../../i18n";
import { MAX_SHEET_COLUMNS } from "./limits";
import { checkZipContent, type CellValue, type ReadLimits, type SheetRows } from "./read";
import { checkXlsxSheet, isBinaryWorkbook, type SheetBounds } from "./sheet-size";

/** Raw values, one array of cells per row, formulas never evaluated, the sheet's declared size not trusted. */
export const SHEETJS_OPTIONS: SheetJS.ParsingOptions = {
  type: "array",
  dense: true,
  nodim: true,
  cellFormula: false,
  cellHTML: false,
  cellText: false,
  cellStyles: false,
  cellDates: false,
};

/** A refusal of the whole file, keyed `file`. */
export const refusal = (key: TranslationKey, params?: TranslationParams) =>
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
export function firstSheetOf(book: SheetJS.WorkBook, bounds: SheetBounds): SheetRows {
  const name = book.SheetNames[0];
  if (name === undefined) throw refusal("import.empty");
  return { name, firstRow: 1, rows: rowsOf(book.Sheets[name], name, bounds) };
}

/**
 * The first sheet of an .xlsx that passed checkZip (`entryNames`: its entries), read by SheetJS. Every part is
 * counted first, not only the one the workbook names first (`first`, null when it names none): SheetJS finds its
 * parts its own way (case-insensitively, with fallbacks), so no part it could read escapes the cell budget. Rows are
 * held to the limit in the first sheet (or everywhere when the workbook does not say which one that is); SheetJS
 * reads one row past the limit, so that a sheet over it is told from one that fills it.
 */
export function xlsxFirstSheetBySheetJS(
  XLSX: typeof SheetJS,
  bytes: Uint8Array,
  limits: ReadLimits,
  bounds: SheetBounds,
  first: { name: string; path: string } | null,
  entryNames: string[],
): SheetRows {
  // For parts that are not the first sheet: cells within the rows SheetJS would read count, rows are not limited.
  const cellsOnly: SheetBounds = { ...bounds, rows: Number.POSITIVE_INFINITY, countedRows: bounds.rows + 1 };
  checkZipContent(bytes, limits, (entry, content) => {
    if (entry.name === "[Content_Types].xml" && isBinaryWorkbook(text(content), entryNames))
      throw refusal("import.not_a_spreadsheet");
    const isFirst = first === null || entry.name.toLowerCase() === first.path.toLowerCase();
    checkXlsxSheet(text(content), isFirst && first ? first.name : entry.name, isFirst ? bounds : cellsOnly);
  });
  return firstSheetOf(XLSX.read(bytes, { ...SHEETJS_OPTIONS, sheetRows: bounds.rows + 1, sheets: 0 }), bounds);
}
