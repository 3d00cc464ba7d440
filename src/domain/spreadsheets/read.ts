/**
 * Reading an uploaded .xlsx workbook safely. Before SheetJS sees a byte, the file is checked: its size, that it
 * is a zip, and — from the zip's own central directory — how many entries it holds and how large they claim to be
 * once uncompressed (ZIP64 archives are refused: no workbook Mesa reads needs one, and they could hide sizes).
 * Then it is parsed with `dense: true` in a worker, so a slow or hostile file never blocks the request thread,
 * and the worker is stopped when it takes too long.
 */
import { message, ValidationFailed, type Message } from "../errors";

export type CellValue = string | number | boolean | null;

export interface SheetRows {
  name: string;
  /** The spreadsheet row number (1-based) of `rows[0]`. */
  firstRow: number;
  rows: CellValue[][];
}

export type WorkbookRows = SheetRows[];

export interface ReadLimits {
  maxBytes: number;
  maxEntries: number;
  maxUncompressedBytes: number;
  timeoutMs: number;
}

const MIB = 1024 * 1024;

/** The largest workbook accepted: 5 MiB. */
export const MAX_WORKBOOK_BYTES = 5 * MIB;

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxBytes: MAX_WORKBOOK_BYTES,
  maxEntries: 1000,
  maxUncompressedBytes: 50 * MIB,
  timeoutMs: 10_000,
};

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_ENTRY_SIGNATURE = 0x02014b50;
const EOCD_SIZE = 22;

function refuse(key: string, params?: Record<string, string | number>): never {
  throw new ValidationFailed({ file: message(key, params) });
}

const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/** Finds the End Of Central Directory record (it sits at the end, after an optional comment of up to 64 KiB). */
function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - EOCD_SIZE;
  const first = Math.max(0, last - 0xffff);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE && at + EOCD_SIZE + view.getUint16(at + 20, true) === view.byteLength) return at;
  }
  return -1;
}

/**
 * Checks the zip structure of `bytes` without decompressing anything: the entry count and the declared total of
 * uncompressed sizes stay within the limits. Throws ValidationFailed keyed `file`.
 */
export function checkZip(bytes: Uint8Array, limits: ReadLimits = DEFAULT_READ_LIMITS): { entries: number; uncompressedBytes: number } {
  if (bytes.byteLength > limits.maxBytes) refuse("import.file_too_large", { max: mib(limits.maxBytes) });
  // Every zip (and so every .xlsx) starts with a local file header "PK\3\4".
  if (bytes.byteLength < EOCD_SIZE || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) refuse("import.not_xlsx");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  if (eocd < 0) refuse("import.not_xlsx");
  if (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIGNATURE) refuse("import.zip64");
  const diskEntries = view.getUint16(eocd + 8, true);
  const totalEntries = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (totalEntries === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) refuse("import.zip64");
  if (view.getUint16(eocd + 4, true) !== 0 || diskEntries !== totalEntries) refuse("import.not_xlsx");
  if (totalEntries > limits.maxEntries) refuse("import.too_many_entries", { max: limits.maxEntries });
  if (directoryOffset + directorySize > eocd) refuse("import.not_xlsx");

  let at = directoryOffset;
  let uncompressed = 0;
  for (let i = 0; i < totalEntries; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_ENTRY_SIGNATURE) refuse("import.not_xlsx");
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff || compressedSize === 0xffffffff || view.getUint32(at + 42, true) === 0xffffffff) refuse("import.zip64");
    uncompressed += size;
    if (uncompressed > limits.maxUncompressedBytes) refuse("import.too_large_uncompressed", { max: mib(limits.maxUncompressedBytes) });
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return { entries: totalEntries, uncompressedBytes: uncompressed };
}

type WorkerAnswer = { ok: true; sheets: WorkbookRows } | { ok: false; key: string; params?: Record<string, string | number> };

function parseInWorker(bytes: Uint8Array, timeoutMs: number): Promise<WorkbookRows> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./parse-worker.ts", import.meta.url));
    const fail = (key: string, params?: Record<string, string | number>) => reject(new ValidationFailed({ file: message(key, params) as Message }));
    const timer = setTimeout(() => {
      worker.terminate();
      fail("import.too_slow");
    }, timeoutMs);
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      clearTimeout(timer);
      worker.terminate();
      if (event.data.ok) resolve(event.data.sheets);
      else fail(event.data.key, event.data.params);
    };
    worker.onerror = () => {
      clearTimeout(timer);
      worker.terminate();
      fail("import.unreadable");
    };
    // A copy goes to the worker, so the caller's bytes stay usable.
    worker.postMessage(bytes.slice());
  });
}

/**
 * The rows of every sheet of an .xlsx workbook (arrays of raw cell values, blank cells as null), after the checks
 * above. Throws ValidationFailed keyed `file` when the file is refused or cannot be read.
 */
export async function readWorkbook(bytes: Uint8Array, limits: Partial<ReadLimits> = {}): Promise<WorkbookRows> {
  const effective = { ...DEFAULT_READ_LIMITS, ...limits };
  checkZip(bytes, effective);
  return parseInWorker(bytes, effective.timeoutMs);
}
