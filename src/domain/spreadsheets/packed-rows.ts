/**
 * Rows packed: a sheet's cells as a few typed arrays instead of arrays of JS values. The parse worker packs the rows
 * as it reads them and sends them back to the request thread, where typed arrays are moved rather than copied
 * (cloning 100,000 rows of arrays of strings one by one takes seconds). Packed, a 100,000-row sheet of seven columns
 * takes about 13 MiB, against about 35 MiB as arrays of values; `PackedRows` reads them back one row at a time, so
 * an import that walks its rows (the diner import) never holds them all as values. The texts are one more typed
 * array, their Latin-1 bytes, when every character is Latin-1 (the usual case: Spanish text is); else one string,
 * which is copied.
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
  /** Every row is read padded with nulls to this many cells (0: as it was packed). */
  width: number;
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

/** `array` with room for `needed` items, its first `used` kept (the same array when it has room already). */
function withRoom<T extends Uint8Array | Uint32Array | Float64Array>(array: T, used: number, needed: number): T {
  if (needed <= array.length) return array;
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  bigger.set(array.subarray(0, used));
  return bigger;
}

/** The first `used` items of `array`, in a buffer of their own (to be moved, without the room left over). */
const exact = <T extends Uint8Array | Uint32Array | Float64Array>(array: T, used: number): T =>
  array.slice(0, used) as T;

/**
 * Packs rows as they are read, one row at a time: what the parse worker fills instead of arrays of rows. Texts go
 * straight into Latin-1 bytes; the first character beyond Latin-1 turns them into strings, joined at the end.
 */
export class SheetPacker {
  // Small to begin with (most sheets are), doubled as they fill.
  private widths = new Uint32Array(64);
  private kinds = new Uint8Array(512);
  private numbers = new Float64Array(64);
  private lengths = new Uint32Array(256);
  private bytes: Uint8Array | null = new Uint8Array(4096);
  /** The texts once one of them is beyond Latin-1 (`bytes` is null then). */
  private pieces: string[] = [];
  private byteCount = 0;
  private cellCount = 0;
  private numberCount = 0;
  private textCount = 0;
  /** How many rows are packed. */
  rowCount = 0;
  /** How many cells the row being packed has so far. */
  rowCells = 0;

  /** Adds a row of cells (null for a blank one). */
  row(cells: readonly CellValue[]): void {
    for (let c = 0; c < cells.length; c++) this.cell(cells[c]);
    this.endRow();
  }

  /** Adds a cell to the row being packed. */
  cell(value: CellValue): void {
    if (typeof value === "string") this.textOf(value, 0, value.length);
    else if (typeof value === "number") {
      this.kind(NUMBER);
      this.numbers = withRoom(this.numbers, this.numberCount, this.numberCount + 1);
      this.numbers[this.numberCount++] = value;
    } else if (typeof value === "boolean") this.kind(value ? TRUE : FALSE);
    else this.kind(NULL);
  }

  /** Adds `count` blank cells to the row being packed. */
  nulls(count: number): void {
    for (let i = 0; i < count; i++) this.kind(NULL);
  }

  /**
   * Adds a text cell to the row being packed: `source` from `start` to `end`, copied character by character, so
   * that no string is made of it.
   */
  textOf(source: string, start: number, end: number): void {
    this.kind(TEXT);
    const length = end - start;
    this.lengths = withRoom(this.lengths, this.textCount, this.textCount + 1);
    this.lengths[this.textCount++] = length;
    let bytes = this.bytes;
    if (bytes === null) {
      this.pieces.push(source.slice(start, end));
      return;
    }
    if (this.byteCount + length > bytes.length)
      this.bytes = bytes = withRoom(bytes, this.byteCount, this.byteCount + length);
    let at = this.byteCount;
    for (let i = start; i < end; i++) {
      const code = source.charCodeAt(i);
      if (code > 0xff) {
        // Beyond Latin-1: the texts so far become one string, and the rest stay strings.
        this.pieces.push(Buffer.from(bytes.buffer, 0, this.byteCount).toString("latin1"), source.slice(start, end));
        this.bytes = null;
        return;
      }
      bytes[at++] = code;
    }
    this.byteCount = at;
  }

  /** Ends the row being packed. */
  endRow(): void {
    this.widths = withRoom(this.widths, this.rowCount, this.rowCount + 1);
    this.widths[this.rowCount++] = this.rowCells;
    this.rowCells = 0;
  }

  /** Adds `count` rows without cells (between two rows). */
  emptyRows(count: number): void {
    if (count <= 0) return;
    this.widths = withRoom(this.widths, this.rowCount, this.rowCount + count);
    this.widths.fill(0, this.rowCount, this.rowCount + count);
    this.rowCount += count;
  }

  private kind(kind: number): void {
    this.kinds = withRoom(this.kinds, this.cellCount, this.cellCount + 1);
    this.kinds[this.cellCount++] = kind;
    this.rowCells++;
  }

  /** The packed sheet; every row is read padded to `width` cells. */
  finish(name: string, firstRow: number, width = 0): PackedSheet {
    return {
      name,
      firstRow,
      width,
      widths: exact(this.widths, this.rowCount),
      kinds: exact(this.kinds, this.cellCount),
      numbers: exact(this.numbers, this.numberCount),
      text: this.bytes === null ? this.pieces.join("") : exact(this.bytes, this.byteCount),
      lengths: exact(this.lengths, this.textCount),
    };
  }
}

/** Packs a sheet's rows. */
export function packSheet(sheet: SheetRows): PackedSheet {
  const packer = new SheetPacker();
  for (const row of sheet.rows) packer.row(row);
  return packer.finish(sheet.name, sheet.firstRow);
}

/** The buffers of a packed sheet, to move them with postMessage. */
export const transferablesOf = (sheet: PackedSheet): ArrayBuffer[] =>
  [sheet.widths, sheet.kinds, sheet.numbers, sheet.lengths, sheet.text]
    .filter((array) => typeof array !== "string")
    .map((array) => array.buffer as ArrayBuffer);

/** Whether `code` is white space as String.prototype.trim takes it (so a text of such characters trims to ""). */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * A packed sheet read back one row at a time: `row(i)` is what `rows[i]` of its SheetRows would be, made when it is
 * asked for. The texts are decoded once, into one string each cell's text is a slice of.
 */
export class PackedRows {
  readonly name: string;
  readonly firstRow: number;
  /** How many rows there are (rows[0] is the sheet's row `firstRow`). */
  readonly rowCount: number;
  private readonly packed: PackedSheet;
  private readonly text: string;
  /** Where each row's cells, numbers and texts start (in kinds, numbers, lengths and the text); one more at the end. */
  private readonly cellStarts: Uint32Array;
  private readonly numberStarts: Uint32Array;
  private readonly textStarts: Uint32Array;
  private readonly charStarts: Float64Array;

  constructor(packed: PackedSheet) {
    this.packed = packed;
    this.name = packed.name;
    this.firstRow = packed.firstRow;
    const { widths, kinds, lengths } = packed;
    this.rowCount = widths.length;
    this.text =
      typeof packed.text === "string"
        ? packed.text
        : Buffer.from(packed.text.buffer, packed.text.byteOffset, packed.text.byteLength).toString("latin1");
    const rows = widths.length;
    this.cellStarts = new Uint32Array(rows + 1);
    this.numberStarts = new Uint32Array(rows + 1);
    this.textStarts = new Uint32Array(rows + 1);
    this.charStarts = new Float64Array(rows + 1);
    let cell = 0;
    let number = 0;
    let text = 0;
    let char = 0;
    for (let r = 0; r < rows; r++) {
      this.cellStarts[r] = cell;
      this.numberStarts[r] = number;
      this.textStarts[r] = text;
      this.charStarts[r] = char;
      for (const end = cell + widths[r]; cell < end; cell++) {
        const kind = kinds[cell];
        if (kind === TEXT) char += lengths[text++];
        else if (kind === NUMBER) number++;
      }
    }
    this.cellStarts[rows] = cell;
    this.numberStarts[rows] = number;
    this.textStarts[rows] = text;
    this.charStarts[rows] = char;
  }

  /** Row `index`'s cells (blank cells null), padded to the sheet's width. */
  row(index: number): CellValue[] {
    const { kinds, numbers, lengths } = this.packed;
    const start = this.cellStarts[index];
    const width = this.cellStarts[index + 1] - start;
    const cells: CellValue[] = new Array(Math.max(width, this.packed.width));
    let number = this.numberStarts[index];
    let text = this.textStarts[index];
    let char = this.charStarts[index];
    for (let c = 0; c < width; c++) {
      switch (kinds[start + c]) {
        case TEXT: {
          const end = char + lengths[text++];
          cells[c] = this.text.slice(char, end);
          char = end;
          break;
        }
        case NUMBER:
          cells[c] = numbers[number++];
          break;
        case TRUE:
          cells[c] = true;
          break;
        case FALSE:
          cells[c] = false;
          break;
        default:
          cells[c] = null;
      }
    }
    for (let c = width; c < cells.length; c++) cells[c] = null;
    return cells;
  }

  /**
   * Whether row `index` holds nothing: every cell null or text of white space only (what an import skips), told
   * from the characters themselves, without making a string of any.
   */
  isBlank(index: number): boolean {
    const { kinds, lengths } = this.packed;
    const text = this.text;
    let textIndex = this.textStarts[index];
    let char = this.charStarts[index];
    for (let cell = this.cellStarts[index], end = this.cellStarts[index + 1]; cell < end; cell++) {
      const kind = kinds[cell];
      if (kind === NULL) continue;
      if (kind !== TEXT) return false;
      const textEnd = char + lengths[textIndex++];
      for (; char < textEnd; char++) if (!isWhiteSpace(text.charCodeAt(char))) return false;
    }
    return true;
  }

  /** Every row, as arrays of values. */
  toSheetRows(): SheetRows {
    const rows: CellValue[][] = new Array(this.rowCount);
    for (let r = 0; r < this.rowCount; r++) rows[r] = this.row(r);
    return { name: this.name, firstRow: this.firstRow, rows };
  }
}

/** The rows of a packed sheet, as arrays of values. */
export const unpackSheet = (packed: PackedSheet): SheetRows => new PackedRows(packed).toSheetRows();
