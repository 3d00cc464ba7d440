/**
 * A streaming .xlsx writer for workbooks too large to hold in memory (the sales report: a month is ~330,000 lines;
 * decision 013). SheetJS, Mesa's one spreadsheet library, builds the whole workbook in memory before writing it, so
 * large reports are written here instead, row by row, straight to a file:
 *
 * - each worksheet is XML written into a buffer of about 1 MiB, which is deflated and appended to the file as soon as
 *   it is full: memory stays flat whatever the number of rows;
 * - text goes to the shared-string table (each distinct text once: names of cafes, companies, services repeat on
 *   every line), up to a bounded number of them, or into its cell for texts that rarely repeat (ticket numbers) and
 *   once the table is full; numbers are numbers with the column's number format (soles, dates, times, whole
 *   numbers); the header row is bold and frozen, columns are given a width; a cell names its place only after an
 *   empty one;
 * - the file is a zip written in one pass: each entry's CRC and sizes are patched into its local header once known,
 *   and the central directory ends the file.
 *
 * Text is never a formula (a cell is a string or a number, never an `<f>`; text that a spreadsheet would read as a
 * formula when copied gets a leading apostrophe as in every export, or, with `formulaText: "quote-prefix"`, is
 * written as it is in a cell styled `quotePrefix`: Excel's own mark for text typed after an apostrophe, which shows
 * no apostrophe and keeps the cell text when it is edited); characters XML 1.0 cannot hold are dropped.
 * Tests read every output back with SheetJS.
 *
 *   const book = openXlsxStream(path);
 *   book.startSheet("Detalle", [{ header: "Fecha", width: 11, format: "date" }, ...]);
 *   book.row([excelDate("2026-11-02"), ...]);
 *   book.close();
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { constants, crc32, deflateRawSync } from "node:zlib";
import { FORMULA_START, neutraliseFormula } from "../spreadsheets/write";

/** How a column's numbers are shown. */
export type XlsxFormat = "text" | "integer" | "money" | "date" | "time";

export interface XlsxColumn {
  header: string;
  /** Width in characters. */
  width: number;
  format?: XlsxFormat;
  /** Text that rarely repeats (ticket numbers): written in its cell rather than in the shared-string table. */
  unique?: boolean;
}

/** A cell: text, a number (shown with the column's format), or nothing. */
export type XlsxCell = string | number | null;

/** A row above a sheet's header (XlsxStream.startSheet's `preamble`). */
export interface XlsxPreambleRow {
  cells: readonly XlsxCell[];
  bold?: boolean;
}

export interface XlsxStreamOptions {
  /** Excel number format of dates ("dd/mm/yyyy" by default). */
  dateFormat?: string;
  /** The currency symbol written before amounts ("S/" by default). */
  currency?: string;
  /** zlib compression level, 1 (fastest) to 9 (smallest); 6 by default. */
  level?: number;
  /**
   * How text that would start a formula (= + - @, a tab or a carriage return first) is kept from being one:
   * "apostrophe" (the default) writes a leading apostrophe into the text; "quote-prefix" writes the text as it is
   * in a cell marked as text (a phone "+51 987 654 321" reads as typed).
   */
  formulaText?: "apostrophe" | "quote-prefix";
}

/** The most rows a worksheet holds (the format's limit), the header row included. */
export const XLSX_MAX_ROWS = 1_048_576;
/** Excel's limit on a sheet name's length. */
const MAX_SHEET_NAME = 31;
/** The worksheet XML buffered before it is deflated and written. */
const FLUSH_BYTES = 1 << 20;
/**
 * The most distinct texts kept in the shared-string table (a few megabytes); texts past it are written in their
 * cells, so memory stays bounded whatever the data.
 */
const MAX_SHARED_STRINGS = 200_000;
/** Zip's 32-bit sizes and offsets (no zip64 here: a report's sheet stays far below 4 GiB). */
const MAX_ZIP32 = 0xffff_ffff;

/** Serial day number of a calendar date "YYYY-MM-DD" as Excel counts days (1900 date system). */
export function excelDate(date: string): number {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000 + 25_569
  );
}

/** The fraction of a day that a time of day is (06:30 → 0.2708…), as Excel stores times. */
export function excelTime(secondsOfDay: number): number {
  return secondsOfDay / 86_400;
}

/** Column letters of a zero-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

// XML 1.0 allows tab, newline, carriage return and everything from space up, except lone surrogates and U+FFFE/F.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPED = /[&<>]/g;
const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** Text as XML character data: escaped, without characters XML cannot hold. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, "").replace(ESCAPED, (c) => ENTITY[c]);
}

/** Text as an XML attribute value in double quotes. */
function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;");
}

/** A text cell's `<t>` element: formula-looking text neutralised (unless its cell says so), escaped, spaces at its ends kept. */
function textElement(value: string, quotePrefix = false): string {
  const text = xmlText(quotePrefix ? value : neutraliseFormula(value));
  return text.length > 0 && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32)
    ? `<t xml:space="preserve">${text}</t>`
    : `<t>${text}</t>`;
}

const SHEET_NAME_FORBIDDEN = /[[\]:*?/\\]/g;

/** A valid, unique sheet name: forbidden characters replaced, at most 31 characters. */
function sheetName(wanted: string, taken: Set<string>): string {
  const base = wanted.replace(SHEET_NAME_FORBIDDEN, "-").replace(/^'+|'+$/g, "") || "Sheet";
  let name = base.slice(0, MAX_SHEET_NAME);
  for (let n = 2; taken.has(name.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    name = `${base.slice(0, MAX_SHEET_NAME - suffix.length)}${suffix}`;
  }
  taken.add(name.toLowerCase());
  return name;
}

// Cell styles (styles.xml's cellXfs, in this order): plain, then bold for the header and totals rows; 10 and 11 are
// text marked `quotePrefix`, plain and bold.
const STYLE_OF: Record<XlsxFormat, number> = { text: 0, integer: 2, money: 3, date: 4, time: 5 };
const BOLD_OF: Record<XlsxFormat, number> = { text: 1, integer: 6, money: 7, date: 8, time: 9 };

const styleAttribute = (style: number) => (style ? ` s="${style}"` : "");

function stylesXml(dateFormat: string, currency: string): string {
  const money = `&quot;${xmlAttribute(currency)} &quot;#,##0.00;-&quot;${xmlAttribute(currency)} &quot;#,##0.00`;
  const xf = (numFmt: number, font: number, quotePrefix = false) =>
    `<xf numFmtId="${numFmt}" fontId="${font}" fillId="0" borderId="0" xfId="0"${numFmt ? ' applyNumberFormat="1"' : ""}${font ? ' applyFont="1"' : ""}${quotePrefix ? ' quotePrefix="1"' : ""}/>`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `<numFmts count="3"><numFmt numFmtId="164" formatCode="${money}"/>` +
    `<numFmt numFmtId="165" formatCode="${xmlAttribute(dateFormat)}"/><numFmt numFmtId="166" formatCode="hh:mm"/></numFmts>` +
    `<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>` +
    `<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
    `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
    `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="12">${xf(0, 0)}${xf(0, 1)}${xf(3, 0)}${xf(164, 0)}${xf(165, 0)}${xf(166, 0)}${xf(3, 1)}${xf(164, 1)}${xf(165, 1)}${xf(166, 1)}${xf(0, 0, true)}${xf(0, 1, true)}</cellXfs>` +
    `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
    `</styleSheet>`
  );
}

const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n`;

interface ZipEntry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

interface OpenSheet {
  name: string;
  index: number;
  columns: XlsxColumn[];
  letters: string[];
  /** ` s="n"` of each column's numbers, plain and bold. */
  styleAttributes: string[];
  boldAttributes: string[];
  /** Whether each column's text stays in its cells (XlsxColumn.unique). */
  unique: boolean[];
  /** Each column's last shared text and its index. */
  lastText: (string | undefined)[];
  lastIndex: number[];
  /** The opening of each column's number cell, plain and bold: `<c s="3"><v>`. */
  numberOpen: string[];
  boldNumberOpen: string[];
  rows: number;
}

/** The DOS date and time of a moment (zip headers). */
function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((Math.max(1980, at.getFullYear()) - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** An .xlsx file being written: sheets one after the other, rows one after the other; `close()` finishes the file. */
export class XlsxStream {
  private readonly fd: number;
  private position = 0;
  private readonly entries: ZipEntry[] = [];
  private readonly sheetNames: string[] = [];
  private readonly taken = new Set<string>();
  private sheet: OpenSheet | null = null;
  private entry: ZipEntry | null = null;
  /** The entry's XML waiting to be deflated, encoded as it comes (room for a piece and one more long row). */
  private buffer = Buffer.allocUnsafe(FLUSH_BYTES * 2);
  private buffered = 0;
  private closed = false;
  /** The shared-string table: each distinct text's index, the texts as XML in order, and how many cells use them. */
  private readonly shared = new Map<string, number>();
  private readonly sharedTexts: string[] = [];
  private sharedUses = 0;
  private readonly stamp: { time: number; date: number };
  private readonly level: number;
  private readonly dateFormat: string;
  private readonly currency: string;
  /** Whether formula-looking text is written as it is in a `quotePrefix` cell (XlsxStreamOptions.formulaText). */
  private readonly quotePrefix: boolean;

  constructor(
    readonly path: string,
    options: XlsxStreamOptions = {},
  ) {
    this.level = options.level ?? 6;
    this.dateFormat = options.dateFormat ?? "dd/mm/yyyy";
    this.currency = options.currency ?? "S/";
    this.quotePrefix = options.formulaText === "quote-prefix";
    this.stamp = dosDateTime(new Date());
    this.fd = openSync(path, "w", 0o600);
  }

  /** The rows written to the open sheet so far, its header included (0 with no sheet open). */
  get rowsInSheet(): number {
    return this.sheet?.rows ?? 0;
  }

  /**
   * Starts a worksheet (ending the one before) with its columns and a bold header row, frozen. Returns its name.
   * `preamble` rows come above the header (a note on what the sheet counts), in the columns' formats, and stay in
   * view with it; a row of `{ bold: true }` cells is bold.
   */
  startSheet(wanted: string, columns: XlsxColumn[], options: { preamble?: XlsxPreambleRow[] } = {}): string {
    this.assertOpen();
    this.endSheet();
    if (columns.length === 0 || columns.length > 16_384) throw new RangeError("a sheet has 1 to 16,384 columns");
    const name = sheetName(wanted, this.taken);
    this.sheetNames.push(name);
    const index = this.sheetNames.length;
    this.sheet = {
      name,
      index,
      columns,
      letters: columns.map((_, i) => columnLetters(i)),
      styleAttributes: columns.map((c) => styleAttribute(STYLE_OF[c.format ?? "text"])),
      boldAttributes: columns.map((c) => styleAttribute(BOLD_OF[c.format ?? "text"])),
      unique: columns.map((c) => c.unique === true),
      lastText: columns.map(() => undefined),
      lastIndex: columns.map(() => 0),
      numberOpen: columns.map((c) => `<c${styleAttribute(STYLE_OF[c.format ?? "text"])}><v>`),
      boldNumberOpen: columns.map((c) => `<c${styleAttribute(BOLD_OF[c.format ?? "text"])}><v>`),
      rows: 0,
    };
    const preamble = options.preamble ?? [];
    const headerRow = preamble.length + 1;
    this.beginEntry(`xl/worksheets/sheet${index}.xml`);
    const cols = columns
      .map(
        (c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.max(1, Math.min(255, c.width))}" customWidth="1"/>`,
      )
      .join("");
    this.write(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        `<sheetViews><sheetView workbookViewId="0"${index === 1 ? ' tabSelected="1"' : ""}>` +
        `<pane ySplit="${headerRow}" topLeftCell="A${headerRow + 1}" activePane="bottomLeft" state="frozen"/>` +
        `<selection pane="bottomLeft" activeCell="A${headerRow + 1}" sqref="A${headerRow + 1}"/></sheetView></sheetViews>` +
        `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`,
    );
    for (const row of preamble) this.writeRow(row.cells, row.bold === true);
    this.writeRow(
      columns.map((c) => c.header),
      true,
    );
    return name;
  }

  /** Appends a row to the open sheet; `bold` for a totals row. Throws past the format's row limit. */
  row(cells: readonly XlsxCell[], options: { bold?: boolean } = {}): void {
    const sheet = this.sheet;
    if (!sheet) throw new Error("no sheet is open");
    this.writeRow(cells, options.bold === true);
  }

  private writeRow(cells: readonly XlsxCell[], bold: boolean): void {
    const sheet = this.sheet!;
    if (sheet.rows >= XLSX_MAX_ROWS) throw new RangeError(`a sheet holds at most ${XLSX_MAX_ROWS} rows`);
    const styles = bold ? sheet.boldAttributes : sheet.styleAttributes;
    const numbers = bold ? sheet.boldNumberOpen : sheet.numberOpen;
    // Text keeps the text style whatever the column's number format.
    const textStyle = bold ? ' s="1"' : "";
    const r = ++sheet.rows;
    let xml = `<row r="${r}">`;
    // A cell names its place only after a gap: the cells of a row follow one another otherwise.
    let next = 0;
    const count = Math.min(cells.length, sheet.columns.length);
    for (let c = 0; c < count; c++) {
      const value = cells[c];
      if (value === null || value === undefined || value === "") continue;
      if (typeof value === "number" && !Number.isFinite(value)) continue;
      const place = c === next ? "" : ` r="${sheet.letters[c]}${r}"`;
      next = c + 1;
      if (typeof value === "number") {
        xml += place ? `<c${place}${styles[c]}><v>` : numbers[c];
        xml += value + "</v></c>";
      } else {
        let index: number | undefined;
        if (sheet.unique[c]) index = undefined;
        // Neighbouring rows often repeat a column's text (the service, the sale type): its index is kept.
        else if (value === sheet.lastText[c]) index = sheet.lastIndex[c];
        else {
          index = this.sharedIndex(value);
          if (index !== undefined) {
            sheet.lastText[c] = value;
            sheet.lastIndex[c] = index;
          }
        }
        const quoted = this.quotePrefix && FORMULA_START.test(value);
        const style = quoted ? (bold ? ' s="11"' : ' s="10"') : textStyle;
        if (index !== undefined) {
          xml += `<c${place}${style} t="s"><v>${index}</v></c>`;
          this.sharedUses++;
        } else xml += `<c${place}${style} t="inlineStr"><is>${textElement(value, quoted)}</is></c>`;
      }
    }
    this.write(xml + "</row>");
  }

  /** The shared-string index of a text, added when new; undefined once the table is full (the text goes inline). */
  private sharedIndex(value: string): number | undefined {
    let index = this.shared.get(value);
    if (index === undefined) {
      if (this.sharedTexts.length >= MAX_SHARED_STRINGS) return undefined;
      index = this.sharedTexts.length;
      this.shared.set(value, index);
      this.sharedTexts.push(textElement(value, this.quotePrefix && FORMULA_START.test(value)));
    }
    return index;
  }

  /** Ends the open sheet, if any. */
  endSheet(): void {
    if (!this.sheet) return;
    this.write(`</sheetData></worksheet>`);
    this.endEntry();
    this.sheet = null;
  }

  /** Finishes the workbook: the sheets' index, styles and the zip's directory. Returns the file's size in bytes. */
  close(): number {
    this.assertOpen();
    this.endSheet();
    if (this.sheetNames.length === 0) throw new Error("a workbook needs at least one sheet");
    const sheets = this.sheetNames;
    this.file(
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
        sheets
          .map(
            (_, i) =>
              `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join("") +
        `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
        `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>` +
        `</Types>`,
    );
    this.file(
      "_rels/.rels",
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    this.file(
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView activeTab="0"/></bookViews><sheets>` +
        sheets
          .map((name, i) => `<sheet name="${xmlAttribute(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join("") +
        `</sheets></workbook>`,
    );
    this.file(
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
        sheets
          .map(
            (_, i) =>
              `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
          )
          .join("") +
        `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>` +
        `<Relationship Id="rId${sheets.length + 2}" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
        `</Relationships>`,
    );
    this.file("xl/styles.xml", stylesXml(this.dateFormat, this.currency));
    this.beginEntry("xl/sharedStrings.xml");
    this.write(
      `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.sharedUses}" uniqueCount="${this.sharedTexts.length}">`,
    );
    for (const text of this.sharedTexts) this.write(`<si>${text}</si>`);
    this.write(`</sst>`);
    this.endEntry();
    this.writeDirectory();
    closeSync(this.fd);
    this.closed = true;
    return this.position;
  }

  /** Stops writing and deletes the file (a report that failed half way leaves nothing behind). */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } finally {
      rmSync(this.path, { force: true });
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("the workbook is closed");
  }

  /** A small entry written whole. */
  private file(name: string, xml: string): void {
    this.beginEntry(name);
    this.write(xml);
    this.endEntry();
  }

  private write(xml: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    if (this.buffered + xml.length * 3 > this.buffer.length) {
      this.flush(false);
      if (xml.length * 3 > this.buffer.length) this.buffer = Buffer.allocUnsafe(xml.length * 3);
    }
    this.buffered += this.buffer.write(xml, this.buffered, "utf8");
    if (this.buffered >= FLUSH_BYTES) this.flush(false);
  }

  private raw(bytes: Uint8Array): void {
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    this.position += bytes.length;
    if (this.position > MAX_ZIP32) throw new RangeError("the workbook is larger than 4 GiB");
  }

  private beginEntry(path: string): void {
    const name = Buffer.from(path, "utf8");
    this.entry = { name, offset: this.position, crc: 0, compressed: 0, size: 0 };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: deflate
    header.writeUInt16LE(0x0800, 6); // names in UTF-8
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    // CRC and sizes (14–25) are patched in when the entry ends.
    header.writeUInt16LE(name.length, 26);
    this.raw(header);
    this.raw(name);
  }

  /**
   * Deflates what is buffered and appends it to the entry. Each piece is compressed on its own, ending with a sync
   * flush (a byte-aligned, non-final block), so the pieces join into one deflate stream; `last` ends it.
   */
  private flush(last: boolean): void {
    const entry = this.entry!;
    if (this.buffered > 0) {
      const data = this.buffer.subarray(0, this.buffered);
      this.buffered = 0;
      entry.crc = crc32(data, entry.crc);
      entry.size += data.length;
      if (entry.size > MAX_ZIP32) throw new RangeError("a worksheet is larger than 4 GiB");
      const deflated = deflateRawSync(data, { level: this.level, finishFlush: constants.Z_SYNC_FLUSH });
      entry.compressed += deflated.length;
      this.raw(deflated);
    }
    if (last) {
      // An empty final block with fixed Huffman codes ends the stream.
      const end = Buffer.from([0x03, 0x00]);
      entry.compressed += end.length;
      this.raw(end);
    }
  }

  private endEntry(): void {
    this.flush(true);
    const entry = this.entry!;
    const sizes = Buffer.alloc(12);
    sizes.writeUInt32LE(entry.crc >>> 0, 0);
    sizes.writeUInt32LE(entry.compressed, 4);
    sizes.writeUInt32LE(entry.size, 8);
    writeSync(this.fd, sizes, 0, 12, entry.offset + 14);
    this.entries.push(entry);
    this.entry = null;
  }

  private writeDirectory(): void {
    const start = this.position;
    for (const entry of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4); // made by: MS-DOS, zip 2.0
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0800, 8);
      header.writeUInt16LE(8, 10);
      header.writeUInt16LE(this.stamp.time, 12);
      header.writeUInt16LE(this.stamp.date, 14);
      header.writeUInt32LE(entry.crc >>> 0, 16);
      header.writeUInt32LE(entry.compressed, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      // extra, comment, disk, attributes: 0
      header.writeUInt32LE(entry.offset, 42);
      this.raw(header);
      this.raw(entry.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.position - start, 12);
    end.writeUInt32LE(start, 16);
    this.raw(end);
  }
}

/** Opens a new .xlsx file at `path` (replacing any, readable by Mesa's user only) to be written sheet by sheet. */
export function openXlsxStream(path: string, options?: XlsxStreamOptions): XlsxStream {
  return new XlsxStream(path, options);
}
