/**
 * The general path of readFirstSheet: SheetJS's read of a workbook and the rows of the sheet an import reads (its
 * first visible sheet). parse-worker.ts runs it for every .xls and .ods, and for an .xlsx that Mesa's own reader
 * (xlsx-sheet.ts) leaves to it; the tests of that reader compare it with this very code. SheetJS is passed in: the
 * worker loads it only for the reads that use it.
 */
import type * as SheetJS from "xlsx";
import { ValidationFailed } from "../errors";
import type { TranslationKey, TranslationParams } from "../../shared/i18n";
import { MAX_SHEET_COLUMNS } from "./limits";
import { checkZipContent, type CellValue, type ReadLimits, type SheetRows } from "./read";
import { checkXlsxSheet, firstVisible, isBinaryWorkbook, type SheetBounds, type XlsxFirstSheet } from "./sheet-size";

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
  // SheetJS reads no value past the `sheetRows` it is given (bounds.rows + 1); a hyperlink's cell may lie further
  // down, leaving the dense rows that long, and is blank.
  const end = Math.min(data.length, bounds.rows + 1);
  for (let r = 0; r < end; r++) {
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

/**
 * The sheet of `book` an import reads, as rows: the one at `index`, by default the first that the workbook does not
 * hide (SheetJS's `Hidden`, which it reads from .xlsx and .xls files; firstVisible).
 */
export function firstSheetOf(
  book: SheetJS.WorkBook,
  bounds: SheetBounds,
  index = firstVisible(book.SheetNames.length, (i) => Boolean(book.Workbook?.Sheets?.[i]?.Hidden)),
): SheetRows {
  const name = book.SheetNames[index];
  if (name === undefined) throw refusal("import.empty");
  return { name, firstRow: 1, rows: rowsOf(book.Sheets[name], name, bounds) };
}

/**
 * The sheet an import reads of an .xlsx that passed checkZip (`entryNames`: its entries), read by SheetJS: `first`,
 * the workbook's first visible sheet (sheet-size.ts firstXlsxSheet; null when the workbook names none). Every part is
 * counted first, not only that sheet's: SheetJS finds its parts its own way (case-insensitively, with fallbacks), so
 * no part it could read escapes the cell budget. Rows are held to the limit in that sheet (or everywhere when the
 * workbook does not say which part it is); SheetJS reads one row past the limit, so that a sheet over it is told
 * from one that fills it.
 */
export function xlsxFirstSheetBySheetJS(
  XLSX: typeof SheetJS,
  bytes: Uint8Array,
  limits: ReadLimits,
  bounds: SheetBounds,
  first: XlsxFirstSheet | null,
  entryNames: string[],
): SheetRows {
  // For parts that are not the first sheet: cells within the rows SheetJS would read count, rows are not limited.
  const cellsOnly: SheetBounds = { ...bounds, rows: Number.POSITIVE_INFINITY, countedRows: bounds.rows + 1 };
  const path = first?.path?.toLowerCase() ?? null;
  checkZipContent(bytes, limits, (entry, content) => {
    if (entry.name === "[Content_Types].xml" && isBinaryWorkbook(text(content), entryNames))
      throw refusal("import.not_a_spreadsheet");
    const isFirst = path === null || entry.name.toLowerCase() === path;
    checkXlsxSheet(text(content), isFirst && first?.path ? first.name : entry.name, isFirst ? bounds : cellsOnly);
  });
  const index = first?.index ?? 0;
  const book = XLSX.read(bytes, { ...SHEETJS_OPTIONS, sheetRows: bounds.rows + 1, sheets: index });
  return firstSheetOf(book, bounds, index);
}
