/**
 * Reading an uploaded .xlsx workbook safely. Before SheetJS sees a byte, the file is checked: its size, that it
 * is a zip, and — from the zip's own central directory — how many entries it holds and how large they claim to be
 * once uncompressed (ZIP64 archives are refused: no workbook Mesa reads needs one, and they could hide sizes).
 * Each entry's local header must agree with the central directory, and entries may not share bytes.
 * Then, in a worker, so a slow or hostile file never blocks the request thread, every deflated entry is inflated
 * with its declared size as a hard bound (a directory that understates sizes is caught after that much work, not
 * after the whole bomb), and only then is the file parsed with `dense: true`. The worker is stopped when it takes
 * too long.
 */
import { inflateRawSync } from "node:zlib";
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
const LOCAL_ENTRY_SIGNATURE = 0x04034b50;
const DATA_DESCRIPTOR_SIGNATURE = 0x08074b50;
const EOCD_SIZE = 22;
const CENTRAL_ENTRY_SIZE = 46;
const LOCAL_ENTRY_SIZE = 30;
/** The extra-field record that carries 64-bit sizes (SheetJS takes sizes from it wherever it appears). */
const ZIP64_EXTRA_FIELD = 0x0001;
/** General-purpose flag bits of an encrypted entry: encrypted, strongly encrypted, local header masked. */
const ENCRYPTED_FLAGS = 0x0001 | 0x0040 | 0x2000;
/** General-purpose flag bit of an entry whose CRC and sizes follow its data, in a data descriptor. */
const DATA_DESCRIPTOR_FLAG = 0x0008;
const STORED = 0;
const DEFLATED = 8;

/** One entry of a checked zip: where its data lies in the file and the sizes both of its headers declare. */
export interface ZipEntry {
  name: string;
  /** 0, stored, or 8, deflated: the only methods accepted. */
  method: number;
  dataOffset: number;
  compressedSize: number;
  size: number;
}

function refuse(key: string, params?: Record<string, string | number>): never {
  throw new ValidationFailed({ file: message(key, params) });
}

const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/**
 * Finds the End Of Central Directory record (it sits at the end, after an optional comment of up to 64 KiB). Like
 * SheetJS, it takes the signature nearest the end; when that one is not a whole record ending the file (a comment
 * hiding a second directory), the file is no zip Mesa reads.
 */
function findEndOfCentralDirectory(view: DataView): number {
  const first = Math.max(0, view.byteLength - EOCD_SIZE - 0xffff);
  for (let at = view.byteLength - 4; at >= first; at--) {
    if (view.getUint32(at, true) !== EOCD_SIGNATURE) continue;
    return at + EOCD_SIZE <= view.byteLength && at + EOCD_SIZE + view.getUint16(at + 20, true) === view.byteLength
      ? at
      : -1;
  }
  return -1;
}

/** Whether the extra field at `start` holds a ZIP64 record, its records walked the way SheetJS walks them. */
function hasZip64Field(view: DataView, start: number, length: number): boolean {
  for (let at = start; at <= start + length - 4; at += 4 + view.getUint16(at + 2, true)) {
    if (view.getUint16(at, true) === ZIP64_EXTRA_FIELD) return true;
  }
  return false;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

interface CentralEntry {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  name: Uint8Array;
  localOffset: number;
}

/**
 * Checks the local header a central directory entry points to: it agrees on name, method, encryption, data
 * descriptor and (unless a descriptor carries them) CRC and sizes, and the entry lies before the directory.
 * Returns the entry and the offset just past its data (and descriptor).
 */
function checkLocalHeader(
  view: DataView,
  central: CentralEntry,
  directoryOffset: number,
): { entry: ZipEntry; end: number } {
  const at = central.localOffset;
  if (at + LOCAL_ENTRY_SIZE > directoryOffset || view.getUint32(at, true) !== LOCAL_ENTRY_SIGNATURE)
    refuse("import.not_xlsx");
  const flags = view.getUint16(at + 6, true);
  const method = view.getUint16(at + 8, true);
  const crc = view.getUint32(at + 14, true);
  const compressedSize = view.getUint32(at + 18, true);
  const size = view.getUint32(at + 22, true);
  const nameLength = view.getUint16(at + 26, true);
  const extraLength = view.getUint16(at + 28, true);
  const dataOffset = at + LOCAL_ENTRY_SIZE + nameLength + extraLength;
  if (dataOffset > directoryOffset) refuse("import.not_xlsx");
  if (hasZip64Field(view, at + LOCAL_ENTRY_SIZE + nameLength, extraLength)) refuse("import.zip64");
  if ((flags | central.flags) & ENCRYPTED_FLAGS) refuse("import.unreadable");
  if (central.method !== STORED && central.method !== DEFLATED) refuse("import.unreadable");
  const name = new Uint8Array(view.buffer, view.byteOffset + at + LOCAL_ENTRY_SIZE, nameLength);
  if (
    method !== central.method ||
    (flags & DATA_DESCRIPTOR_FLAG) !== (central.flags & DATA_DESCRIPTOR_FLAG) ||
    !sameBytes(name, central.name)
  )
    refuse("import.not_xlsx");
  if (central.method === STORED && central.compressedSize !== central.size) refuse("import.not_xlsx");

  let end = dataOffset + central.compressedSize;
  if (flags & DATA_DESCRIPTOR_FLAG) {
    // The local header may leave CRC and sizes at 0; any other value must be the directory's.
    const agrees = (local: number, declared: number) => local === 0 || local === declared;
    if (!agrees(crc, central.crc) || !agrees(compressedSize, central.compressedSize) || !agrees(size, central.size))
      refuse("import.not_xlsx");
    // The descriptor follows the data, with or without its signature, as SheetJS reads it.
    if (end + 4 <= directoryOffset && view.getUint32(end, true) === DATA_DESCRIPTOR_SIGNATURE) end += 4;
    if (end + 12 > directoryOffset) refuse("import.not_xlsx");
    if (
      view.getUint32(end, true) !== central.crc ||
      view.getUint32(end + 4, true) !== central.compressedSize ||
      view.getUint32(end + 8, true) !== central.size
    )
      refuse("import.not_xlsx");
    end += 12;
  } else if (crc !== central.crc || compressedSize !== central.compressedSize || size !== central.size) {
    refuse("import.not_xlsx");
  }
  if (end > directoryOffset) refuse("import.not_xlsx");
  const entry = {
    name: new TextDecoder().decode(name),
    method: central.method,
    dataOffset,
    compressedSize: central.compressedSize,
    size: central.size,
  };
  return { entry, end };
}

/**
 * Checks the zip structure of `bytes` without decompressing anything: the entry count and the declared total of
 * uncompressed sizes stay within the limits, every local header agrees with the central directory, and no two
 * entries overlap. Returns the entries. Throws ValidationFailed keyed `file`.
 */
export function checkZip(
  bytes: Uint8Array,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): { entries: ZipEntry[]; uncompressedBytes: number } {
  if (bytes.byteLength > limits.maxBytes) refuse("import.file_too_large", { max: mib(limits.maxBytes) });
  // Every zip (and so every .xlsx) starts with a local file header "PK\3\4".
  if (bytes.byteLength < EOCD_SIZE || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04)
    refuse("import.not_xlsx");
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

  const centrals: CentralEntry[] = [];
  let at = directoryOffset;
  let uncompressed = 0;
  for (let i = 0; i < totalEntries; i++) {
    if (at + CENTRAL_ENTRY_SIZE > eocd || view.getUint32(at, true) !== CENTRAL_ENTRY_SIGNATURE)
      refuse("import.not_xlsx");
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const localOffset = view.getUint32(at + 42, true);
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) refuse("import.zip64");
    uncompressed += size;
    if (uncompressed > limits.maxUncompressedBytes)
      refuse("import.too_large_uncompressed", { max: mib(limits.maxUncompressedBytes) });
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const next = at + CENTRAL_ENTRY_SIZE + nameLength + extraLength + view.getUint16(at + 32, true);
    if (next > eocd) refuse("import.not_xlsx");
    if (hasZip64Field(view, at + CENTRAL_ENTRY_SIZE + nameLength, extraLength)) refuse("import.zip64");
    const name = bytes.subarray(at + CENTRAL_ENTRY_SIZE, at + CENTRAL_ENTRY_SIZE + nameLength);
    centrals.push({
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize,
      size,
      name,
      localOffset,
    });
    at = next;
  }

  const entries: ZipEntry[] = [];
  const spans: { start: number; end: number }[] = [];
  for (const central of centrals) {
    const { entry, end } = checkLocalHeader(view, central, directoryOffset);
    entries.push(entry);
    spans.push({ start: central.localOffset, end });
  }
  // No two entries may share bytes: overlapping entries let one small deflate stream be read as many large files.
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) if (spans[i].start < spans[i - 1].end) refuse("import.not_xlsx");
  return { entries, uncompressedBytes: uncompressed };
}

/**
 * Inflates every deflated entry of a zip that passes checkZip, each bounded by its declared size, and refuses the
 * file when an entry inflates to more or less than its headers declare. Throws ValidationFailed keyed `file`.
 */
export function checkZipContent(bytes: Uint8Array, limits: ReadLimits = DEFAULT_READ_LIMITS): void {
  // checkZip holds the declared sizes to maxUncompressedBytes in total, so bounding each entry by its own
  // declared size bounds the whole inflation by that limit too.
  for (const entry of checkZip(bytes, limits).entries) {
    if (entry.method !== DEFLATED) continue;
    const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
    let inflated: number;
    try {
      // maxOutputLength makes zlib stop, and throw, as soon as the output passes the bound (it must be at least 1).
      inflated = inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) }).byteLength;
    } catch (error) {
      if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE")
        refuse("import.too_large_uncompressed", { max: mib(limits.maxUncompressedBytes) });
      refuse("import.unreadable");
    }
    if (inflated > entry.size) refuse("import.too_large_uncompressed", { max: mib(limits.maxUncompressedBytes) });
    if (inflated !== entry.size) refuse("import.unreadable");
  }
}

type WorkerAnswer =
  { ok: true; sheets: WorkbookRows } | { ok: false; key: string; params?: Record<string, string | number> };

/** What parse-worker.ts receives: the file and the limits its content is checked against. */
export interface WorkerRequest {
  bytes: Uint8Array;
  limits: ReadLimits;
}

function parseInWorker(bytes: Uint8Array, limits: ReadLimits): Promise<WorkbookRows> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./parse-worker.ts", import.meta.url));
    const fail = (key: string, params?: Record<string, string | number>) =>
      reject(new ValidationFailed({ file: message(key, params) as Message }));
    const timer = setTimeout(() => {
      worker.terminate();
      fail("import.too_slow");
    }, limits.timeoutMs);
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
    worker.postMessage({ bytes: bytes.slice(), limits } satisfies WorkerRequest);
  });
}

/**
 * The rows of every sheet of an .xlsx workbook (arrays of raw cell values, blank cells as null), after the checks
 * above. Throws ValidationFailed keyed `file` when the file is refused or cannot be read.
 */
export async function readWorkbook(bytes: Uint8Array, limits: Partial<ReadLimits> = {}): Promise<WorkbookRows> {
  const effective = { ...DEFAULT_READ_LIMITS, ...limits };
  checkZip(bytes, effective);
  return parseInWorker(bytes, effective);
}
