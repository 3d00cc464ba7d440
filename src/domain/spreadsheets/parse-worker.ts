/**
 * Parses one workbook away from the request thread (see read.ts): receives the bytes and the read limits, answers
 * with each sheet's rows as arrays of raw cell values, or with an error. read.ts terminates this worker when it
 * takes too long.
 *
 * Before SheetJS sees the file, checkZipContent inflates every entry with its declared size as the bound, so SheetJS
 * only ever inflates streams already proven to be no larger than the sizes read.ts has accepted.
 *
 * A sheet's declared size is not trusted (`nodim`: the used range comes from the cells themselves), parsing stops
 * one row past MAX_SHEET_ROWS, and only the first MAX_SHEET_COLUMNS columns are read, so a small file cannot
 * claim a million blank rows and fill the memory.
 */
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { MAX_SHEET_COLUMNS, MAX_SHEET_ROWS } from "./limits";
import { checkZipContent, type WorkerRequest } from "./read";

declare const self: Worker;

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  try {
    checkZipContent(event.data.bytes, event.data.limits);
    const book = XLSX.read(event.data.bytes, {
      type: "array",
      dense: true,
      nodim: true,
      sheetRows: MAX_SHEET_ROWS + 1,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
    });
    const sheets = [];
    for (const name of book.SheetNames) {
      const sheet = book.Sheets[name];
      const ref = sheet["!ref"];
      const range = ref ? XLSX.utils.decode_range(ref) : null;
      if (range && range.e.r >= MAX_SHEET_ROWS) {
        self.postMessage({ ok: false, key: "import.too_many_rows", params: { sheet: name, max: MAX_SHEET_ROWS } });
        return;
      }
      if (range) range.e.c = Math.min(range.e.c, range.s.c + MAX_SHEET_COLUMNS - 1);
      sheets.push({
        name,
        // The spreadsheet row number of rows[0]: with `nodim` the range starts at A1, so rows keep their numbers.
        firstRow: range ? range.s.r + 1 : 1,
        rows: range
          ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true, range })
          : [],
      });
    }
    self.postMessage({ ok: true, sheets });
  } catch (error) {
    const refusal = error instanceof ValidationFailed ? error.errors.file : null;
    if (refusal && typeof refusal === "object")
      self.postMessage({ ok: false, key: refusal.key, params: refusal.params });
    else self.postMessage({ ok: false, key: "import.unreadable" });
  }
};
