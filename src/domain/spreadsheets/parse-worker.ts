/**
 * Parses one workbook away from the request thread (see read.ts): receives the bytes, answers with each sheet's
 * rows as arrays of raw cell values, or with an error. read.ts terminates this worker when it takes too long.
 */
import * as XLSX from "xlsx";

declare const self: Worker;

self.onmessage = (event: MessageEvent<Uint8Array>) => {
  try {
    const book = XLSX.read(event.data, { type: "array", dense: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false });
    const sheets = book.SheetNames.map((name) => {
      const sheet = book.Sheets[name];
      const ref = sheet["!ref"];
      return {
        name,
        // The spreadsheet row number of rows[0] (a sheet's used range may start below row 1).
        firstRow: ref ? XLSX.utils.decode_range(ref).s.r + 1 : 1,
        rows: XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true }),
      };
    });
    self.postMessage({ ok: true, sheets });
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
};
