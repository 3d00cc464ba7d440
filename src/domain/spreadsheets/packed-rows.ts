/**
 * Rows packed for the trip from the parse worker back to the request thread. Cloning 100,000 rows of arrays of
 * strings one by one takes seconds; the same rows as a few typed arrays and one string take tens of milliseconds to
 * clone, and the typed arrays are moved rather than copied.
 */
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
  /** The texts, one after the other, and each one's length. */
  text: string;
  lengths: Uint32Array;
}

/** Packs a sheet's rows. */
export function packSheet(sheet: SheetRows): PackedSheet {
  let cells = 0;
  for (const row of sheet.rows) cells += row.length;
  const widths = new Uint32Array(sheet.rows.length);
  const kinds = new Uint8Array(cells);
  const numbers: number[] = [];
  const lengths: number[] = [];
  const texts: string[] = [];
  let at = 0;
  sheet.rows.forEach((row, r) => {
    widths[r] = row.length;
    for (const value of row) {
      if (typeof value === "string") {
        kinds[at] = TEXT;
        texts.push(value);
        lengths.push(value.length);
      } else if (typeof value === "number") {
        kinds[at] = NUMBER;
        numbers.push(value);
      } else if (typeof value === "boolean") kinds[at] = value ? TRUE : FALSE;
      else kinds[at] = NULL;
      at++;
    }
  });
  return {
    name: sheet.name,
    firstRow: sheet.firstRow,
    widths,
    kinds,
    numbers: new Float64Array(numbers),
    text: texts.join(""),
    lengths: new Uint32Array(lengths),
  };
}

/** The buffers of a packed sheet, to move them with postMessage. */
export const transferablesOf = (sheet: PackedSheet): ArrayBuffer[] =>
  [sheet.widths, sheet.kinds, sheet.numbers, sheet.lengths].map((array) => array.buffer as ArrayBuffer);

/** The rows of a packed sheet. */
export function unpackSheet(packed: PackedSheet): SheetRows {
  const rows: CellValue[][] = new Array(packed.widths.length);
  let cell = 0;
  let number = 0;
  let textIndex = 0;
  let textAt = 0;
  for (let r = 0; r < rows.length; r++) {
    const width = packed.widths[r];
    const row: CellValue[] = new Array(width);
    for (let c = 0; c < width; c++) {
      switch (packed.kinds[cell++]) {
        case TEXT: {
          const end = textAt + packed.lengths[textIndex++];
          row[c] = packed.text.slice(textAt, end);
          textAt = end;
          break;
        }
        case NUMBER:
          row[c] = packed.numbers[number++];
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
