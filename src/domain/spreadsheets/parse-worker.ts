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
 * cells or hyperlinks covering millions, is refused before any cell exists (readWorkbook counts the hyperlinks).
 * Formulas are never evaluated: a formula cell gives its cached value. SheetJS's read and the rows of a first sheet
 * are in sheetjs-read.ts; an .xlsx is first tried by xlsx-sheet.ts, and SheetJS is loaded only by the reads that use
 * it. The rows go back packed (packed-rows.ts).
 */
import type * as SheetJS from "xlsx";
import { ValidationFailed } from "../errors";
import { parseCsv } from "./csv";
import { decodeText } from "./detect";
import { MAX_SHEET_CELLS, MAX_SHEET_COLUMNS } from "./limits";
import { packSheet, transferablesOf, type PackedSheet } from "./packed-rows";
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
  firstVisible,
  firstXlsxSheet,
  isBinaryWorkbook,
  odsHiddenSheets,
  odsIsEncrypted,
  xlsxHyperlinkCells,
  type SheetBounds,
} from "./sheet-size";
import { firstSheetOf, refusal, SHEETJS_OPTIONS, xlsxFirstSheetBySheetJS } from "./sheetjs-read";
import { readXlsxFirstSheetPacked } from "./xlsx-sheet";

declare const self: Worker;

/**
 * SheetJS, loaded when a read needs it: every sheet of a workbook, an .xls, an .ods, or an .xlsx that xlsx-sheet.ts
 * leaves to it. A CSV and the usual .xlsx never load it (loading it takes 40–70 ms).
 */
let loaded: typeof SheetJS | undefined;
const sheetJS = async () => (loaded ??= await import("xlsx"));

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The places import's read: every sheet of an .xlsx, each refused past `limits.maxRows` rows. */
async function everySheet({ bytes, limits }: WorkerRequest): Promise<SheetRows[]> {
  // SheetJS makes a cell of every cell a hyperlink covers (sheet-size.ts): each part's links fit the cell budget.
  checkZipContent(bytes, limits, (entry, content) => {
    if (xlsxHyperlinkCells(text(content)) > MAX_SHEET_CELLS)
      throw refusal("import.too_many_cells", { sheet: entry.name, max: MAX_SHEET_CELLS });
  });
  const XLSX = await sheetJS();
  const book = XLSX.read(bytes, { ...SHEETJS_OPTIONS, sheetRows: limits.maxRows + 1 });
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

/**
 * readFirstSheet's read: the first sheet of a file of the given format, checked as the comment above says, packed
 * (the usual .xlsx is packed as it is read, its rows never all values at once).
 */
async function firstSheet(request: WorkerRequest & Required<Pick<WorkerRequest, "firstSheet">>): Promise<PackedSheet> {
  if (request.firstSheet.format === "xlsx") return await firstXlsxSheetPacked(request);
  return packSheet(await firstSheetRows(request));
}

/** The first sheet of an .xlsx: Mesa's own reader (xlsx-sheet.ts), or SheetJS for what that reader leaves to it. */
async function firstXlsxSheetPacked({ bytes, limits }: WorkerRequest): Promise<PackedSheet> {
  const bounds: SheetBounds = { rows: limits.maxRows + 1, reportedRows: limits.maxRows };
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
  // that reader is not certain of is read by SheetJS.
  const fast = first && readXlsxFirstSheetPacked(bytes, zip, first, bounds, limits);
  if (fast) return fast;
  return packSheet(xlsxFirstSheetBySheetJS(await sheetJS(), bytes, limits, bounds, first, [...entries.keys()]));
}

/** The first sheet of a .csv, .ods or .xls, as rows. */
async function firstSheetRows({
  bytes,
  limits,
  firstSheet,
}: WorkerRequest & Required<Pick<WorkerRequest, "firstSheet">>): Promise<SheetRows> {
  const bounds: SheetBounds = { rows: limits.maxRows + 1, reportedRows: limits.maxRows };
  // One row past the limit is read, so that a sheet over it is told from one that fills it.
  const options = { ...SHEETJS_OPTIONS, sheetRows: bounds.rows + 1 };
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
    case "xlsx":
      throw new Error("an .xlsx is read by firstXlsxSheetPacked");
    case "ods": {
      const entries = new Map(checkZip(bytes, limits).entries.map((entry) => [entry.name, entry]));
      const manifest = entries.get("META-INF/manifest.xml");
      // Encrypted parts do not inflate: the manifest says so first.
      if (manifest && odsIsEncrypted(text(entryContent(bytes, manifest, limits)))) throw refusal("import.encrypted");
      // As for .xlsx, every part is counted (SheetJS looks for content.xml whatever its case).
      let hidden = new Set<string>();
      checkZipContent(bytes, limits, (entry, content) => {
        const xml = text(content);
        checkOdsContent(xml, bounds);
        if (entry.name.toLowerCase() === "content.xml") hidden = odsHiddenSheets(xml);
      });
      const book = (await sheetJS()).read(bytes, options);
      return firstSheetOf(
        book,
        bounds,
        firstVisible(book.SheetNames.length, (i) => hidden.has(book.SheetNames[i])),
      );
    }
    case "xls": {
      const XLSX = await sheetJS();
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
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  try {
    const request = event.data;
    const sheets = request.firstSheet
      ? [await firstSheet({ ...request, firstSheet: request.firstSheet })]
      : (await everySheet(request)).map(packSheet);
    self.postMessage({ ok: true, sheets } satisfies WorkerAnswer, sheets.flatMap(transferablesOf));
  } catch (error) {
    const refused = error instanceof ValidationFailed ? error.errors.file : null;
    if (refused && typeof refused === "object")
      self.postMessage({ ok: false, key: refused.key, params: refused.params } satisfies WorkerAnswer);
    else self.postMessage({ ok: false, key: "import.unreadable" } satisfies WorkerAnswer);
  }
};
