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
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { TranslationKey, TranslationParams } from "../../shared/i18n";
import { checkXlsFile } from "./compound-file";
import { detectContainer, zipWorkbookKind } from "./detect";
import { MAX_SHEET_ROWS } from "./limits";
import { PackedRows, unpackSheet, type PackedSheet } from "./packed-rows";

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
  /** The rows a sheet may hold (readWorkbook counts them all; readFirstSheet allows a header row besides). */
  maxRows: number;
}

const MIB = 1024 * 1024;

/** The largest workbook accepted: 5 MiB. */
export const MAX_WORKBOOK_BYTES = 5 * MIB;

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxBytes: MAX_WORKBOOK_BYTES,
  maxEntries: 1000,
  maxUncompressedBytes: 50 * MIB,
  timeoutMs: 10_000,
  maxRows: MAX_SHEET_ROWS,
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

function refuse(key: TranslationKey, params?: TranslationParams): never {
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
 * The content of one entry of a zip that passes checkZip, inflated with its declared size as the bound. Throws
 * ValidationFailed keyed `file` when it inflates to more or less than its headers declare.
 */
export function entryContent(bytes: Uint8Array, entry: ZipEntry, limits: ReadLimits = DEFAULT_READ_LIMITS): Uint8Array {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method !== DEFLATED) return data;
  let inflated: Uint8Array;
  try {
    // maxOutputLength makes zlib stop, and throw, as soon as the output passes the bound (it must be at least 1).
    inflated = inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE")
      refuse("import.too_large_uncompressed", { max: mib(limits.maxUncompressedBytes) });
    refuse("import.unreadable");
  }
  if (inflated.byteLength > entry.size)
    refuse("import.too_large_uncompressed", { max: mib(limits.maxUncompressedBytes) });
  if (inflated.byteLength !== entry.size) refuse("import.unreadable");
  return inflated;
}

/**
 * Inflates every deflated entry of a zip that passes checkZip, each bounded by its declared size, and refuses the
 * file when an entry inflates to more or less than its headers declare. Returns the checked entries; `visit`, when
 * given, sees each entry's content as it goes (one at a time, so a caller can check every part without holding them
 * all). Throws ValidationFailed keyed `file`.
 */
export function checkZipContent(
  bytes: Uint8Array,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
  visit?: (entry: ZipEntry, content: Uint8Array) => void,
): ZipEntry[] {
  // checkZip holds the declared sizes to maxUncompressedBytes in total, so bounding each entry by its own
  // declared size bounds the whole inflation by that limit too.
  const { entries } = checkZip(bytes, limits);
  for (const entry of entries) {
    if (entry.method !== DEFLATED && !visit) continue;
    const content = entryContent(bytes, entry, limits);
    visit?.(entry, content);
  }
  return entries;
}

/** What parse-worker.ts answers: the sheets' rows, packed (packed-rows.ts), or a refusal. */
export type WorkerAnswer =
  { ok: true; sheets: PackedSheet[] } | { ok: false; key: TranslationKey; params?: TranslationParams };

/** What parse-worker.ts receives: the file and the limits its content is checked against. */
export interface WorkerRequest {
  bytes: Uint8Array;
  limits: ReadLimits;
  /**
   * Set by readFirstSheet: the format the file was found to be, and the name its sheet takes when the format has
   * none (CSV). Only the first visible sheet is answered, and it may hold a header row besides `limits.maxRows` rows.
   * Unset (readWorkbook): every sheet of an .xlsx, each with at most `limits.maxRows` rows.
   */
  firstSheet?: { format: SpreadsheetFormat; name: string };
}

function parseInWorker(bytes: Uint8Array, limits: ReadLimits, firstSheet?: WorkerRequest["firstSheet"]) {
  return new Promise<PackedSheet[]>((resolve, reject) => {
    const worker = new Worker(new URL("./parse-worker.ts", import.meta.url));
    const fail = (key: TranslationKey, params?: TranslationParams) =>
      reject(new ValidationFailed({ file: message(key, params) }));
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
    // A copy goes to the worker (moved, not copied again), so the caller's bytes stay usable.
    const copy = bytes.slice();
    worker.postMessage({ bytes: copy, limits, firstSheet } satisfies WorkerRequest, [copy.buffer]);
  });
}

/**
 * The rows of every sheet of an .xlsx workbook (arrays of raw cell values, blank cells as null), after the checks
 * above. Throws ValidationFailed keyed `file` when the file is refused or cannot be read.
 */
export async function readWorkbook(bytes: Uint8Array, limits: Partial<ReadLimits> = {}): Promise<WorkbookRows> {
  const effective = { ...DEFAULT_READ_LIMITS, ...limits };
  checkZip(bytes, effective);
  return (await parseInWorker(bytes, effective)).map(unpackSheet);
}

export type SpreadsheetFormat = "xlsx" | "xls" | "ods" | "csv";

/** What one kind of import accepts. */
export interface IntakeLimits {
  maxBytes: number;
  /** Data rows: the sheet may hold a header row besides. */
  maxRows: number;
  /** How long reading may take (10 s when not given). */
  timeoutMs?: number;
  /** The declared uncompressed size of an .xlsx or .ods (10 × maxBytes, at least 50 MiB, when not given). */
  maxUncompressedBytes?: number;
}

/** The diner import: 20 MiB and 100,000 rows, read within a minute. */
export const DINER_INTAKE: IntakeLimits = { maxBytes: 20 * MIB, maxRows: 100_000, timeoutMs: 60_000 };

/**
 * Refusals of the zip and workbook checks that readWorkbook words for an .xlsx: once the bytes are known to be a
 * zip or a Compound File, a file that fails them is damaged.
 */
const DAMAGED_KEYS = new Set(["import.not_xlsx", "import.unreadable"]);

/**
 * The read limits for an import kind's limits: the zip bounds of readWorkbook, the kind's size, rows and time.
 */
function readLimitsOf(limits: IntakeLimits): ReadLimits {
  return {
    maxBytes: limits.maxBytes,
    maxEntries: DEFAULT_READ_LIMITS.maxEntries,
    maxUncompressedBytes:
      limits.maxUncompressedBytes ?? Math.max(DEFAULT_READ_LIMITS.maxUncompressedBytes, 10 * limits.maxBytes),
    timeoutMs: limits.timeoutMs ?? DEFAULT_READ_LIMITS.timeoutMs,
    maxRows: limits.maxRows,
  };
}

/** The text of a small zip entry (the `mimetype` of an .ods), or null when it is not small. */
function smallEntryText(bytes: Uint8Array, entry: ZipEntry, limits: ReadLimits): string | null {
  if (entry.size > 256) return null;
  return new TextDecoder().decode(entryContent(bytes, entry, limits));
}

/** The format of a file whose container is known, after that container's structural checks (on this thread). */
function checkedFormat(bytes: Uint8Array, fileName: string, limits: ReadLimits): SpreadsheetFormat {
  switch (detectContainer(bytes, fileName)) {
    case "zip": {
      const { entries } = checkZip(bytes, limits);
      const mimetype = entries.find((entry) => entry.name === "mimetype");
      return zipWorkbookKind(
        entries.map((entry) => entry.name),
        mimetype ? smallEntryText(bytes, mimetype, limits) : null,
      );
    }
    case "compound-file":
      checkXlsFile(bytes);
      return "xls";
    case "text":
      return "csv";
  }
}

/**
 * Reads the FIRST VISIBLE sheet of an .xlsx, .xls, .ods or .csv file, whichever it really is (known by its bytes,
 * not its name; the name only breaks ties such as csv vs text): sheets the workbook hides (a template, a list of
 * values; the first sheet when every one is hidden) are passed over, and the sheet's name says which one was read.
 * Throws ValidationFailed({ file: Message }) with one clear
 * message for: empty, too large, too many rows, not a spreadsheet, encrypted/password-protected, damaged, too slow.
 *
 * Each format is checked for what it is before it is parsed: the zip's structure and sizes for .xlsx and .ods, the
 * Compound File's structure and encryption for .xls, UTF-8 for .csv; then, in a worker with the time limit, the
 * zip's content, the sheet's size as its XML declares it (sheet-size.ts), and only then SheetJS (.csv is parsed by
 * csv.ts). Cells are raw values: formulas are never evaluated (their cached value, or null), blank cells are null,
 * and CSV cells are the strings written. `firstRow` is 1: rows[i] is the sheet's row i + 1, blank rows included.
 */
export async function readFirstSheet(
  bytes: Uint8Array,
  fileName: string,
  limits: IntakeLimits,
): Promise<{ format: SpreadsheetFormat; sheet: SheetRows }> {
  const { format, sheet } = await readFirstSheetPacked(bytes, fileName, limits);
  return { format, sheet: sheet.toSheetRows() };
}

/**
 * readFirstSheet's sheet as PackedRows (packed-rows.ts): its cells in a few typed arrays, each row made when it is
 * asked for, for an import that walks a large sheet row by row (the diner import: a 100,000-row sheet takes about
 * 13 MiB so, against about 35 MiB as arrays of values).
 */
export async function readFirstSheetPacked(
  bytes: Uint8Array,
  fileName: string,
  limits: IntakeLimits,
): Promise<{ format: SpreadsheetFormat; sheet: PackedRows }> {
  const effective = readLimitsOf(limits);
  try {
    if (bytes.byteLength === 0) refuse("import.empty");
    if (bytes.byteLength > effective.maxBytes) refuse("import.file_too_large", { max: mib(effective.maxBytes) });
    const format = checkedFormat(bytes, fileName, effective);
    const name = fileName.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "") || fileName;
    const [sheet] = await parseInWorker(bytes, effective, { format, name });
    return { format, sheet: new PackedRows(sheet) };
  } catch (error) {
    if (error instanceof ValidationFailed) {
      const refusal = error.errors.file;
      if (typeof refusal === "object" && DAMAGED_KEYS.has(refusal.key)) refuse("import.damaged");
    }
    throw error;
  }
}
