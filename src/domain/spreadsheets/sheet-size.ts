/**
 * What a sheet would make SheetJS allocate, counted from its XML before SheetJS reads it.
 *
 * An .ods sheet can repeat a row (`table:number-rows-repeated`) and a cell (`table:number-columns-repeated`) any
 * number of times, and SheetJS writes out every copy of a cell with content: a few hundred bytes could declare a
 * million rows of a thousand cells each. An .xlsx sheet lists its cells one by one, so its size bounds them, but a
 * small zip still inflates to millions of them, and SheetJS makes a cell of every cell a hyperlink's range covers (one
 * tag may cover the whole grid). All are refused here, before any cell exists: rows with content past
 * the row limit (import.too_many_rows, as SheetJS would find once it had read them), and more cells than
 * MAX_SHEET_CELLS in one sheet (import.too_many_cells).
 */
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { TranslationKey, TranslationParams } from "../../shared/i18n";
import { MAX_SHEET_CELLS } from "./limits";

export interface SheetBounds {
  /** The rows a sheet may hold, its header included. */
  rows: number;
  /** The row limit as the message states it (data rows). */
  reportedRows: number;
  /** The most cells SheetJS may be asked to allocate for one sheet. */
  cells?: number;
  /** The rows whose cells count toward `cells` (.xlsx; `rows + 1`, SheetJS's `sheetRows`, when not given). */
  countedRows?: number;
}

function refuse(key: TranslationKey, params: TranslationParams): never {
  throw new ValidationFailed({ file: message(key, params) });
}

/**
 * The value of attribute `name` (whatever its namespace prefix) in `tag`, a tag's attribute text, or null.
 * Attributes are found by their name followed by `=`, after a space or a prefix's colon.
 */
function attribute(tag: string, name: string): string | null {
  for (let at = tag.indexOf(name); at >= 0; at = tag.indexOf(name, at + 1)) {
    const before = tag.charCodeAt(at - 1);
    if (before !== COLON && !isSpace(before)) continue;
    let p = at + name.length;
    while (isSpace(tag.charCodeAt(p))) p++;
    if (tag.charCodeAt(p) !== EQUALS) continue;
    p++;
    while (isSpace(tag.charCodeAt(p))) p++;
    const quote = tag.charCodeAt(p);
    if (quote !== QUOTE && quote !== APOSTROPHE) continue;
    const end = tag.indexOf(quote === QUOTE ? '"' : "'", p + 1);
    return end < 0 ? null : tag.slice(p + 1, end);
  }
  return null;
}

const SLASH = 0x2f;
const COLON = 0x3a;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** One tag of an XML text: its local name (without a namespace prefix), whether it closes, or closes itself. */
interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** The text between the name and the closing `>` (or `/>`). */
  attributes: string;
}

/**
 * Calls `visit` with each start or end tag of `xml` whose local name is one of `names` (other tags and text are
 * skipped: a `<` in XML always opens markup). With `quoted`, a `>` inside a double-quoted attribute value does not
 * end a tag, as SheetJS reads .ods XML; without, it does, as SheetJS splits an .xlsx sheet into rows and cells (so
 * this counts what SheetJS counts).
 */
function eachTag(xml: string, names: string[], visit: (tag: Tag) => void, quoted = true): void {
  const alternatives = [...names].sort((a, b) => b.length - a.length).join("|");
  const opening = new RegExp(`<(/?)(?:[\\w.-]+:)?(${alternatives})(?=[\\s/>])`, "g");
  for (let found = opening.exec(xml); found !== null; found = opening.exec(xml)) {
    const from = opening.lastIndex;
    let to: number;
    if (quoted) {
      TAG_END.lastIndex = from;
      to = TAG_END.test(xml) ? TAG_END.lastIndex - 1 : -1;
    } else to = xml.indexOf(">", from);
    if (to < 0) return;
    const selfClosing = xml.charCodeAt(to - 1) === SLASH;
    visit({
      name: found[2],
      closing: found[1] === "/",
      selfClosing,
      attributes: xml.slice(from, selfClosing ? to - 1 : to),
    });
    opening.lastIndex = to + 1;
  }
}

/** The rest of a tag up to its `>`, skipping double-quoted values. */
const TAG_END = /[^>"]*(?:"[^"]*"[^>"]*)*>/y;

const ODS_TAGS = ["table", "table-row", "table-cell", "p"];
/** Value types whose cell SheetJS keeps even without a paragraph of text. */
const TEXT_TYPES = new Set(["", "string", "text"]);

const repeatOf = (value: string | null) => Math.max(1, Number.parseInt(value ?? "1", 10) || 1);

/**
 * Checks an .ods `content.xml` against `bounds` (see above), following rows and cells the way SheetJS counts them:
 * a table starts at row 0, a row advances by its repeat count when it closes, and a cell with content fills
 * rows-repeated × columns-repeated cells. Every table counts, as SheetJS reads them all.
 */
export function checkOdsContent(xml: string, bounds: SheetBounds): void {
  const maxCells = bounds.cells ?? MAX_SHEET_CELLS;
  let table = "";
  let row = -1;
  let rowRepeat = 1;
  let cells = 0;
  // The open cell: its repeats, whether it has a value whatever its text, whether a paragraph was seen inside it.
  let cell: { columns: number; valued: boolean; text: boolean } | null = null;
  const count = (columns: number) => {
    if (row < 0) return;
    if (row + rowRepeat > bounds.rows) refuse("import.too_many_rows", { sheet: table, max: bounds.reportedRows });
    cells += rowRepeat * columns;
    if (cells > maxCells) refuse("import.too_many_cells", { sheet: table, max: maxCells });
  };
  eachTag(xml, ODS_TAGS, ({ name, closing, selfClosing, attributes }) => {
    switch (name) {
      case "table":
        if (closing || selfClosing) break;
        table = unescapeXml(attribute(attributes, "name") ?? "");
        row = -1;
        rowRepeat = 1;
        cells = 0;
        break;
      case "table-row":
        if (closing) {
          row += rowRepeat;
          rowRepeat = 1;
        } else {
          if (row === -1) row = 0;
          rowRepeat = repeatOf(attribute(attributes, "number-rows-repeated"));
        }
        break;
      case "table-cell": {
        if (closing) {
          if (cell && (cell.valued || cell.text)) count(cell.columns);
          cell = null;
          break;
        }
        const type = attribute(attributes, "value-type") ?? "";
        // A cell closed on itself keeps one copy when it holds a string value; any other one is empty.
        if (selfClosing) {
          if (type === "string") count(1);
          break;
        }
        cell = {
          columns: repeatOf(attribute(attributes, "number-columns-repeated")),
          valued: !TEXT_TYPES.has(type),
          text: attribute(attributes, "string-value") !== null,
        };
        break;
      }
      case "p":
        if (cell && !closing) cell.text = true;
        break;
    }
  });
}

/** A hyperlink tag as SheetJS finds them in a worksheet, with any whitespace (not only a space) after the name. */
const HYPERLINK = /<(?:\w+:)?hyperlink\s[^<>]*>/g;
const A = 0x41;
const Z = 0x5a;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * The cells of a range as SheetJS reads a hyperlink's `ref` (its safe_decode_range): letters A–Z then digits, and,
 * after a colon, letters and digits again; a reference alone is one cell, and an end before the start covers none.
 * A bound past the integers a loop can count to counts as infinitely many.
 */
function rangeCells(text: string, from: number): number {
  let at = from;
  const read = (low: number, high: number, base: number) => {
    let value = 0;
    for (let code = text.charCodeAt(at); code >= low && code <= high; code = text.charCodeAt(++at))
      value = value * base + code - (base === 26 ? A - 1 : ZERO);
    return value - 1;
  };
  const startColumn = read(A, Z, 26);
  const startRow = read(ZERO, NINE, 10);
  if (text.charCodeAt(at) !== COLON) return 1;
  at++;
  const endColumn = read(A, Z, 26);
  const endRow = read(ZERO, NINE, 10);
  if (!Number.isSafeInteger(endColumn) || !Number.isSafeInteger(endRow)) return Number.POSITIVE_INFINITY;
  return Math.max(0, endRow - startRow + 1) * Math.max(0, endColumn - startColumn + 1);
}

/**
 * The cells SheetJS creates for the hyperlinks of an .xlsx worksheet: every cell of each link's range, whatever its
 * row (the `sheetRows` it is given does not hold them back). SheetJS's reading of a tag's attributes has its own
 * rules (prefixes, case, unquoted values), so every value in the tag is read as the range and the largest counts;
 * links are counted through the whole part and added up, however they overlap: never fewer than SheetJS creates.
 */
export function xlsxHyperlinkCells(xml: string): number {
  let cells = 0;
  // Most sheets have none: one search for the name spares the regular expression a pass over a large sheet.
  if (!xml.includes("hyperlink")) return 0;
  for (const [tag] of xml.matchAll(HYPERLINK)) {
    let largest = 0;
    for (let at = tag.indexOf("="); at >= 0; at = tag.indexOf("=", at + 1)) {
      let value = at + 1;
      while (isSpace(tag.charCodeAt(value))) value++;
      if (tag.charCodeAt(value) === QUOTE || tag.charCodeAt(value) === APOSTROPHE) value++;
      largest = Math.max(largest, rangeCells(tag, value));
    }
    cells += largest;
  }
  return cells;
}

const XLSX_TAGS = ["row", "c"];

/**
 * Checks an .xlsx worksheet's XML against `bounds`: the cells SheetJS would keep (the cells its hyperlinks cover,
 * and those of rows within `bounds.countedRows`, the `sheetRows` it is given) fit the cell budget, and no cell with
 * content lies past the row limit. Rows are numbered by their `r` attribute, or follow the previous one, as SheetJS
 * numbers them. Any XML may be given: a part without hyperlinks, `row` and `c` elements passes.
 */
export function checkXlsxSheet(xml: string, sheet: string, bounds: SheetBounds): void {
  const maxCells = bounds.cells ?? MAX_SHEET_CELLS;
  const counted = bounds.countedRows ?? bounds.rows + 1;
  let row = 0;
  let cells = xlsxHyperlinkCells(xml);
  if (cells > maxCells) refuse("import.too_many_cells", { sheet, max: maxCells });
  eachTag(
    xml,
    XLSX_TAGS,
    ({ name, closing, selfClosing, attributes }) => {
      if (closing) return;
      if (name === "row") {
        const number = attribute(attributes, "r");
        row = number === null ? row + 1 : Number.parseInt(number, 10) || row + 1;
        return;
      }
      // A cell that closes on itself holds nothing (a styled blank); SheetJS keeps none of those.
      if (selfClosing) return;
      if (row > bounds.rows) refuse("import.too_many_rows", { sheet, max: bounds.reportedRows });
      if (row > counted) return;
      if (++cells > maxCells) refuse("import.too_many_cells", { sheet, max: maxCells });
    },
    false,
  );
}

/**
 * Whether an .xlsx zip holds a binary workbook (.xlsb), whose sheets cannot be counted before SheetJS reads them:
 * [Content_Types].xml names a workbook part ending in "bin", or names none and there is no xl/workbook.xml but an
 * xl/workbook.bin (SheetJS's own way of finding the workbook).
 */
export function isBinaryWorkbook(contentTypes: string, entryNames: string[]): boolean {
  let named = false;
  let binary = false;
  eachTag(contentTypes, ["Override"], ({ closing, attributes }) => {
    const type = attribute(attributes, "ContentType") ?? "";
    if (closing || !/\.main(\+xml)?$/.test(type)) return;
    named = true;
    if (/bin$/i.test(attribute(attributes, "PartName") ?? "")) binary = true;
  });
  if (named) return binary;
  const names = new Set(entryNames.map((name) => name.toLowerCase()));
  return !names.has("xl/workbook.xml") && names.has("xl/workbook.bin");
}

/** Whether an .ods manifest (META-INF/manifest.xml) says that some of its parts are encrypted. */
export function odsIsEncrypted(manifest: string): boolean {
  let encrypted = false;
  eachTag(manifest, ["encryption-data"], () => (encrypted = true));
  return encrypted;
}

/**
 * The position of the sheet an import reads: the first visible one (`hidden(i)` false), or the first when every
 * sheet is hidden. A hidden sheet is one the person who sent the file does not see: a template, a list of values.
 */
export function firstVisible(count: number, hidden: (index: number) => boolean): number {
  for (let i = 0; i < count; i++) if (!hidden(i)) return i;
  return 0;
}

/** The sheet of an .xlsx an import reads (firstXlsxSheet). */
export interface XlsxFirstSheet {
  name: string;
  /** Its position among the workbook's sheets, as SheetJS orders them. */
  index: number;
  /** Its part in the zip; null when the workbook's relationships do not say (the caller then checks every part). */
  path: string | null;
}

const HIDDEN_STATES = new Set(["hidden", "veryHidden"]);

/**
 * The sheet of an .xlsx workbook an import reads: the first visible one (`state` neither "hidden" nor
 * "veryHidden"), as SheetJS orders the sheets, from xl/workbook.xml, with the path of its part from the workbook's
 * relationships. Null when the workbook names no sheet.
 */
export function firstXlsxSheet(workbookXml: string, relationshipsXml: string): XlsxFirstSheet | null {
  const sheets: { name: string; id: string | null; hidden: boolean }[] = [];
  eachTag(workbookXml, ["sheet"], ({ closing, attributes }) => {
    if (closing) return;
    sheets.push({
      name: unescapeXml(attribute(attributes, "name") ?? ""),
      id: attribute(attributes, "id"),
      hidden: HIDDEN_STATES.has(attribute(attributes, "state") ?? ""),
    });
  });
  if (sheets.length === 0) return null;
  const index = firstVisible(sheets.length, (i) => sheets[i].hidden);
  const { name, id } = sheets[index];
  let target: string | null = null;
  if (id !== null)
    eachTag(relationshipsXml, ["Relationship"], ({ closing, attributes }) => {
      if (!closing && target === null && attribute(attributes, "Id") === id)
        target = unescapeXml(attribute(attributes, "Target") ?? "");
    });
  if (target === null) return { name, index, path: null };
  const path: string[] = [];
  const found = target as string;
  for (const part of (found.startsWith("/") ? found.slice(1) : `xl/${found}`).split("/")) {
    if (part === "..") path.pop();
    else if (part !== "." && part !== "") path.push(part);
  }
  return { name, index, path: path.join("/") };
}

/**
 * The names of the tables an .ods content.xml hides (LibreOffice's hidden sheets: a table whose table style says
 * `table:display="false"`). SheetJS does not read that style, so its sheets are told hidden by these names.
 */
export function odsHiddenSheets(contentXml: string): Set<string> {
  const hiddenStyles = new Set<string>();
  const hidden = new Set<string>();
  let style: string | null = null;
  eachTag(contentXml, ["style", "table-properties", "table"], ({ name, closing, selfClosing, attributes }) => {
    if (name === "style") {
      style =
        closing || selfClosing || attribute(attributes, "family") !== "table" ? null : attribute(attributes, "name");
    } else if (name === "table-properties") {
      if (!closing && style !== null && attribute(attributes, "display") === "false") hiddenStyles.add(style);
    } else if (!closing && hiddenStyles.has(attribute(attributes, "style-name") ?? "")) {
      hidden.add(unescapeXml(attribute(attributes, "name") ?? ""));
    }
  });
  return hidden;
}
