/**
 * Excel exports: tables become one worksheet each (a header row, then one row per record). Text that a
 * spreadsheet program would read as a formula (starting with =, +, -, @, a tab or a carriage return) is prefixed
 * with an apostrophe, so an exported name can never run as a formula on someone's desktop.
 */
import * as XLSX from "xlsx";

export type CellValue = string | number | boolean | null;

export interface ExportColumn<Row> {
  header: string;
  value: (row: Row) => CellValue;
  /** Excel number format, e.g. "0.00" for soles. */
  format?: string;
  width?: number;
}

export interface ExportSheet<Row> {
  name: string;
  columns: ExportColumn<Row>[];
  rows: Row[];
}

/** Text a spreadsheet would read as a formula when it is typed or pasted: = + - @, a tab or a carriage return first. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's text as it is safe to write: formula-looking text gets a leading apostrophe. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function sheetOf<Row>(sheet: ExportSheet<Row>): XLSX.WorkSheet {
  const header = sheet.columns.map((c) => c.header);
  const body = sheet.rows.map((row) =>
    sheet.columns.map((column) => {
      const value = column.value(row);
      return typeof value === "string" ? neutraliseFormula(value) : value;
    }),
  );
  const ws = XLSX.utils.aoa_to_sheet([header, ...body]);
  sheet.columns.forEach((column, c) => {
    if (!column.format) return;
    for (let r = 1; r <= body.length; r++) {
      const cell = ws[XLSX.utils.encode_cell({ r, c })];
      if (cell && cell.t === "n") cell.z = column.format;
    }
  });
  ws["!cols"] = sheet.columns.map((column) => ({ wch: column.width ?? Math.max(10, column.header.length + 2) }));
  return ws;
}

/** An .xlsx workbook with the given sheets (sheet names are cut to Excel's 31 characters). */
export function buildWorkbook(sheets: ExportSheet<any>[]): Uint8Array<ArrayBuffer> {
  const book = XLSX.utils.book_new();
  for (const sheet of sheets) XLSX.utils.book_append_sheet(book, sheetOf(sheet), sheet.name.slice(0, 31));
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer);
}
