/**
 * Rows packed for the trip from the parse worker back to the request thread. Cloning 100,000 rows of arrays of
 * strings one by one takes seconds; the same rows as a few typed arrays take next to nothing, as typed arrays are
 * moved rather than copied. The texts go as one more typed array, their Latin-1 bytes, when every character is
 * Latin-1 (the usual case: Spanish text is); else as one string, which is copied.
 */
import { Buffer } from "node:buffer";
import type { CellValue, SheetRows } from "./read";

const NULL = 0;
const TEXT = 1;
const NUMBER = 2;
const TRUE = 3;
const FALSE = 4;

export interface PackedSheet {
  name: string;
  firstRow: number;
  /** Each row's cell count. */
  widths: Uint32Array;
  /** Each cell's kind: null, text, number, true or false. */
  kinds: Uint8Array;
  /** The numbers, in cell order. */
  numbers: Float64Array;
  /** The texts, one after the other (one byte per character when all are Latin-1), and each one's length. */
  text: Uint8Array | string;
  lengths: Uint32Array;
}

const BEYOND_LATIN1 = /[^\x00-\xff]/;

/** `text` as Latin-1 bytes, in a buffer of its own (to be moved), when every character is Latin-1. */
function latin1(text: string): Uint8Array | string {
  if (BEYOND_LATIN1.test(text)) return text;
  const bytes = new Uint8Array(text.length);
  Buffer.from(bytes.buffer).write(text, 0, "latin1");
  return bytes;
}

/** Packs a sheet's rows. */
export function packSheet(sheet: SheetRows): PackedSheet {
  const rows = sheet.rows;
  let cells = 0;
  let textCount = 0;
  let numberCount = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    cells += row.length;
    for (let c = 0; c < row.length; c++) {
      const kind = typeof row[c];
      if (kind === "string") textCount++;
      else if (kind === "number") numberCount++;
    }
  }
  const widths = new Uint32Array(rows.length);
  const kinds = new Uint8Array(cells);
  const numbers = new Float64Array(numberCount);
  const lengths = new Uint32Array(textCount);
  const texts: string[] = new Array(textCount);
  let cell = 0;
  let number = 0;
  let text = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    widths[r] = row.length;
    for (let c = 0; c < row.length; c++, cell++) {
      const value = row[c];
      if (typeof value === "string") {
        kinds[cell] = TEXT;
        lengths[text] = value.length;
        texts[text++] = value;
      } else if (typeof value === "number") {
        kinds[cell] = NUMBER;
        numbers[number++] = value;
      } else if (typeof value === "boolean") kinds[cell] = value ? TRUE : FALSE;
      else kinds[cell] = NULL;
    }
  }
  return {
    name: sheet.name,
    firstRow: sheet.firstRow,
    widths,
    kinds,
    numbers,
    text: latin1(texts.join("")),
    lengths,
  };
}

/** The buffers of a packed sheet, to move them with postMessage. */
export const transferablesOf = (sheet: PackedSheet): ArrayBuffer[] =>
  [sheet.widths, sheet.kinds, sheet.numbers, sheet.lengths, sheet.text]
    .filter((array) => typeof array !== "string")
    .map((array) => array.buffer as ArrayBuffer);

/** The rows of a packed sheet. */
export function unpackSheet(packed: PackedSheet): SheetRows {
  const { widths, kinds, numbers, lengths } = packed;
  const text =
    typeof packed.text === "string"
      ? packed.text
      : Buffer.from(packed.text.buffer, packed.text.byteOffset, packed.text.byteLength).toString("latin1");
  const rows: CellValue[][] = new Array(widths.length);
  let cell = 0;
  let number = 0;
  let textIndex = 0;
  let textAt = 0;
  for (let r = 0; r < rows.length; r++) {
    const width = widths[r];
    const row: CellValue[] = new Array(width);
    for (let c = 0; c < width; c++) {
      switch (kinds[cell++]) {
        case TEXT: {
          const end = textAt + lengths[textIndex++];
          row[c] = text.slice(textAt, end);
          textAt = end;
          break;
        }
        case NUMBER:
          row[c] = numbers[number++];
          break;
        case TRUE:
          row[c] = true;
          break;
        case FALSE:
          row[c] = false;
          break;
        default:
          row[c] = null;
      }
    }
    rows[r] = row;
  }
  return { name: packed.name, firstRow: packed.firstRow, rows };
}
