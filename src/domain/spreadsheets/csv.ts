/**
 * Reading a CSV file into rows, by hand rather than through SheetJS, so that every cell stays the text it was
 * ("00123" is not the number 123, "1-2" is not a date).
 *
 * The text is UTF-8, with or without a byte order mark. The separator is found on the header line (the first line
 * that is not blank): a comma, a semicolon (what Excel writes where the decimal separator is a comma) or a tab,
 * whichever appears most often outside quotes; Excel's own `sep=;` first line names it too. Fields follow RFC 4180:
 * a field in double quotes may hold separators, line breaks and doubled quotes. Lines end with CRLF, LF or CR.
 *
 * Each record is one row, so a row's index is its row number as a spreadsheet program shows the file: blank lines
 * are kept as blank rows (every cell null) for the numbering, and the import skips them. An empty field is null;
 * every other field is a string exactly as written (the import trims).
 */
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { TranslationKey, TranslationParams } from "../../shared/i18n";
import type { CellValue } from "./read";

const QUOTE = 0x22;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

function refuse(key: TranslationKey, params?: TranslationParams): never {
  throw new ValidationFailed({ file: message(key, params) });
}

/** Whether a character ends a line (LF, or CR alone or before LF). */
const isLineEnd = (code: number) => code === LF || code === CR;

/** The separator of the line starting at `from`: the commonest of comma, semicolon and tab outside quotes. */
export function detectSeparator(text: string, from = 0): number {
  const counts = new Map<number, number>([
    [COMMA, 0],
    [SEMICOLON, 0],
    [TAB, 0],
  ]);
  let quoted = false;
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) quoted = !quoted;
    else if (!quoted && isLineEnd(code)) break;
    else if (!quoted && counts.has(code)) counts.set(code, counts.get(code)! + 1);
  }
  let best = COMMA;
  for (const [separator, count] of counts) if (count > counts.get(best)!) best = separator;
  return best;
}

export interface CsvRows {
  /** Every record, blank ones included (as rows of nulls), all of the same width. */
  rows: CellValue[][];
}

/**
 * The rows of CSV `text` (already decoded, its byte order mark removed). At most `maxColumns` cells are kept per
 * row. Throws ValidationFailed keyed `file` — import.too_many_rows (with `sheet` and `maxReported`) as soon as a
 * record that is not blank lies past `maxRows` rows, import.csv_unclosed_quote when a quote never closes.
 */
export function parseCsv(
  text: string,
  options: { maxRows: number; maxColumns: number; sheet: string; maxReported: number },
): CsvRows {
  const length = text.length;
  let at = 0;
  let separator: number | null = null;
  // Excel's "sep=;" line names the separator and is not part of the sheet.
  const declared = /^sep=([,;\t|])(\r\n|\n|\r|$)/i.exec(text.slice(0, 8));
  if (declared) {
    separator = declared[1].charCodeAt(0);
    at = declared[0].length;
  }
  if (separator === null) {
    let header = 0;
    while (header < length && isLineEnd(text.charCodeAt(header))) header++;
    separator = detectSeparator(text, header);
  }

  const rows: CellValue[][] = [];
  let width = 0;
  let lastFilled = -1;
  let row: CellValue[] = [];
  let filled = false;
  const push = (value: string) => {
    if (row.length >= options.maxColumns) return;
    if (value === "") row.push(null);
    else {
      row.push(value);
      filled = true;
    }
  };

  while (at < length) {
    // One field, starting at `at`.
    let value: string;
    if (at < length && text.charCodeAt(at) === QUOTE) {
      let start = at + 1;
      value = "";
      for (;;) {
        const close = text.indexOf('"', start);
        if (close < 0) refuse("import.csv_unclosed_quote", { row: rows.length + 1 });
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += text.slice(start, close + 1);
          start = close + 2;
          continue;
        }
        value += text.slice(start, close);
        at = close + 1;
        break;
      }
      // Text after the closing quote (`"12"3`) is kept, as spreadsheet programs keep it.
      const rest = at;
      while (at < length) {
        const code = text.charCodeAt(at);
        if (code === separator || isLineEnd(code)) break;
        at++;
      }
      if (at > rest) value += text.slice(rest, at);
    } else {
      const start = at;
      while (at < length) {
        const code = text.charCodeAt(at);
        if (code === separator || isLineEnd(code)) break;
        at++;
      }
      value = text.slice(start, at);
    }
    push(value);

    if (at < length && text.charCodeAt(at) === separator) {
      at++;
      // A separator ending the text still ends a field: the empty one after it.
      if (at === length) push("");
      else continue;
    }
    // The end of a record: a line end or the end of the text.
    const end = text.charCodeAt(at);
    if (end === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
    else if (end === LF) at++;
    if (filled) {
      if (rows.length >= options.maxRows)
        refuse("import.too_many_rows", { sheet: options.sheet, max: options.maxReported });
      lastFilled = rows.length;
      rows.push(row);
      if (row.length > width) width = row.length;
    } else rows.push([]);
    row = [];
    filled = false;
    if (at >= length) break;
  }

  rows.length = lastFilled + 1;
  for (const each of rows) while (each.length < width) each.push(null);
  return { rows };
}
