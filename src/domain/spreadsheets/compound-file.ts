/**
 * Checking an OLE Compound File (the container of an .xls workbook, and of an encrypted .xlsx) before SheetJS reads
 * it. A Compound File is a small file system: a header, a FAT (one 32-bit "next sector" entry per sector, its own
 * sectors listed by the header and the DIFAT chain), a directory (a red-black tree of 128-byte entries) and streams,
 * each a chain of sectors, or of 64-byte mini sectors inside the root's mini stream when shorter than 4096 bytes.
 *
 * Everything a reader would follow is checked against the file: the header's fields, every FAT, DIFAT, directory
 * and mini FAT sector lies inside the file, every chain stays inside it and ends, no chain loops, the directory tree
 * neither loops nor points past its entries, and each stream's chain is long enough for its declared size. A file
 * that fails is damaged (a truncated download, a file cut by a mail server); nothing is allocated beyond the file's
 * own size, so a header that declares a huge FAT costs nothing.
 */
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { TranslationKey } from "../../shared/i18n";

export const COMPOUND_FILE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const HEADER_SIZE = 512;
const DIRECTORY_ENTRY_SIZE = 128;
const MINI_SECTOR_SIZE = 64;
const MINI_STREAM_CUTOFF = 4096;
/** Sector numbers above this one are markers (free, end of chain, FAT or DIFAT sector), never a sector. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const END_OF_CHAIN = 0xfffffffe;
const NO_STREAM = 0xffffffff;
/** Directory entry types. */
const STORAGE = 1;
const STREAM = 2;
const ROOT = 5;
/** The DIFAT entries held in the header itself. */
const HEADER_DIFAT_ENTRIES = 109;

function damaged(): never {
  throw new ValidationFailed({ file: message("import.damaged") });
}

/** A stream of the file: where its data starts and how long it is. */
export interface CompoundStream {
  name: string;
  start: number;
  size: number;
}

/** A checked Compound File: the streams at its root, and a way to read the start of one. */
export interface CompoundFile {
  /** The streams directly under the root storage, by their name as written. */
  rootStreams: CompoundStream[];
  /** The names of every entry of the directory tree (streams and storages, at any depth). */
  names: string[];
  /** The first `length` bytes of a stream (fewer when the stream is shorter). */
  read(stream: CompoundStream, length: number): Uint8Array;
}

/** Whether `bytes` starts with the Compound File signature. */
export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= COMPOUND_FILE_SIGNATURE.length && COMPOUND_FILE_SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * Checks the Compound File structure of `bytes` (see above) and returns its root streams. Throws
 * ValidationFailed({ file: import.damaged }) when a reader following it would leave the file, loop, or read a stream
 * shorter than it claims.
 */
export function checkCompoundFile(bytes: Uint8Array): CompoundFile {
  if (!isCompoundFile(bytes) || bytes.length < HEADER_SIZE) damaged();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);

  const major = view.getUint16(26, true);
  const sectorShift = view.getUint16(30, true);
  if (view.getUint16(28, true) !== 0xfffe) damaged(); // byte order mark
  if (!((major === 3 && sectorShift === 9) || (major === 4 && sectorShift === 12))) damaged();
  if (view.getUint16(32, true) !== 6 || u32(56) !== MINI_STREAM_CUTOFF) damaged();
  const sectorSize = 1 << sectorShift;
  const perSector = sectorSize / 4;
  // Sector n starts at (n + 1) × sectorSize: the header takes the place of sector -1. The FAT, the DIFAT, the
  // directory and the mini FAT are read whole; a stream's last sector only needs to hold the stream's last bytes
  // (some writers do not pad the file).
  const wholeSectors = Math.max(0, Math.floor(bytes.length / sectorSize) - 1);
  const sectorCount = Math.max(0, Math.ceil(bytes.length / sectorSize) - 1);
  const offsetOf = (sector: number) => (sector + 1) * sectorSize;
  const isWholeSector = (sector: number) => sector <= MAX_REGULAR_SECTOR && sector < wholeSectors;
  const isSector = (sector: number) => sector <= MAX_REGULAR_SECTOR && sector < sectorCount;

  // The FAT's own sectors: the first 109 listed in the header, the rest along the DIFAT chain.
  const fatSectorCount = u32(44);
  if (fatSectorCount > sectorCount) damaged();
  const fatSectors: number[] = [];
  for (let i = 0; i < Math.min(fatSectorCount, HEADER_DIFAT_ENTRIES); i++) fatSectors.push(u32(76 + i * 4));
  let difat = u32(68);
  const difatCount = u32(72);
  const seenDifat = new Set<number>();
  for (let i = 0; fatSectors.length < fatSectorCount; i++) {
    if (i >= difatCount || !isWholeSector(difat) || seenDifat.has(difat)) damaged();
    seenDifat.add(difat);
    const at = offsetOf(difat);
    for (let j = 0; j < perSector - 1 && fatSectors.length < fatSectorCount; j++) fatSectors.push(u32(at + j * 4));
    difat = u32(at + (perSector - 1) * 4);
  }
  const fat = new Uint32Array(fatSectorCount * perSector);
  fatSectors.forEach((sector, i) => {
    if (!isWholeSector(sector)) damaged();
    const at = offsetOf(sector);
    for (let j = 0; j < perSector; j++) fat[i * perSector + j] = u32(at + j * 4);
  });

  // Every sector belongs to one chain at most: a sector claimed twice is a loop or two streams sharing bytes, and
  // so every chain walked below adds up to no more than the file's own sectors.
  const claimed = new Uint8Array(sectorCount);
  fatSectors.forEach((sector) => (claimed[sector] = 1));
  seenDifat.forEach((sector) => (claimed[sector] = 1));
  let claimedMini = new Uint8Array(0);

  /**
   * The sectors of the chain starting at `start`, following `table` (the FAT or the mini FAT): `limit` of them when
   * given (a stream's size says how far a reader follows it), else up to the chain's end. `exists` says whether a
   * number is a sector of the file (or of the mini stream); `claim`, when given, marks each one as taken.
   */
  const follow = (
    table: Uint32Array,
    start: number,
    exists: (sector: number) => boolean,
    limit: number | undefined,
    claim: Uint8Array | null,
  ) => {
    const chain: number[] = [];
    let sector = start;
    while (limit === undefined || chain.length < limit) {
      if (sector === END_OF_CHAIN && limit === undefined) break;
      if (!exists(sector) || sector >= table.length || chain.length >= table.length) damaged();
      if (claim) {
        if (claim[sector]) damaged();
        claim[sector] = 1;
      }
      chain.push(sector);
      sector = table[sector];
    }
    return chain;
  };

  const directoryChain = follow(fat, u32(48), isWholeSector, undefined, claimed);
  const entryCount = (directoryChain.length * sectorSize) / DIRECTORY_ENTRY_SIZE;
  const entryAt = (id: number) =>
    offsetOf(directoryChain[Math.floor((id * DIRECTORY_ENTRY_SIZE) / sectorSize)]) +
    ((id * DIRECTORY_ENTRY_SIZE) % sectorSize);
  const typeOf = (id: number) => bytes[entryAt(id) + 66];
  const nameOf = (id: number) => {
    const at = entryAt(id);
    const length = view.getUint16(at + 64, true);
    if (length > 64 || length % 2 !== 0) damaged();
    // The length counts the terminating NUL.
    return new TextDecoder("utf-16le").decode(bytes.subarray(at, at + Math.max(0, length - 2)));
  };
  const sizeOf = (id: number) => {
    const at = entryAt(id);
    // Version 3 files may leave garbage in the high half; a version 4 stream over 4 GiB is no stream Mesa reads.
    if (major === 4 && u32(at + 124) !== 0) damaged();
    return u32(at + 120);
  };
  if (entryCount === 0 || typeOf(0) !== ROOT) damaged();

  /** The chain of a stream of `size` bytes: whole sectors, but for the last one, which holds the stream's end. */
  const fileChain = (start: number, size: number) => {
    const chain = follow(fat, start, isSector, Math.ceil(size / sectorSize), claimed);
    const last = chain.length - 1;
    if (
      last >= 0 &&
      (!chain.slice(0, last).every(isWholeSector) || offsetOf(chain[last]) + size - last * sectorSize > bytes.length)
    )
      damaged();
    return chain;
  };

  // The root's stream is the mini stream; the mini FAT describes its 64-byte sectors.
  const miniStreamSize = sizeOf(0);
  const miniStreamChain = fileChain(u32(entryAt(0) + 116), miniStreamSize);
  const miniFatSectors = u32(64);
  const miniFatChain = miniFatSectors === 0 ? [] : follow(fat, u32(60), isWholeSector, undefined, claimed);
  if (miniFatChain.length !== miniFatSectors) damaged();
  const miniFat = new Uint32Array(miniFatChain.length * perSector);
  miniFatChain.forEach((sector, i) => {
    const at = offsetOf(sector);
    for (let j = 0; j < perSector; j++) miniFat[i * perSector + j] = u32(at + j * 4);
  });
  const miniSectorCount = Math.floor(miniStreamSize / MINI_SECTOR_SIZE);
  claimedMini = new Uint8Array(miniSectorCount);
  const isMiniSector = (sector: number) => sector < miniSectorCount;
  const miniOffset = (miniSector: number) => {
    const position = miniSector * MINI_SECTOR_SIZE;
    return offsetOf(miniStreamChain[Math.floor(position / sectorSize)]) + (position % sectorSize);
  };

  const isMini = (stream: CompoundStream) => stream.size < MINI_STREAM_CUTOFF;
  /** A stream's chain covers its size: a reader never runs out of the file or around a loop. */
  const checkStream = (stream: CompoundStream) => {
    if (stream.size === 0) return;
    if (isMini(stream))
      follow(miniFat, stream.start, isMiniSector, Math.ceil(stream.size / MINI_SECTOR_SIZE), claimedMini);
    else fileChain(stream.start, stream.size);
  };

  // The directory tree from the root: siblings to the left and right, children below storages.
  const names: string[] = [];
  const rootStreams: CompoundStream[] = [];
  const visited = new Uint8Array(entryCount);
  visited[0] = 1;
  const pending: { id: number; atRoot: boolean }[] = [{ id: u32(entryAt(0) + 76), atRoot: true }];
  while (pending.length > 0) {
    const { id, atRoot } = pending.pop()!;
    if (id === NO_STREAM) continue;
    if (id >= entryCount || visited[id]) damaged();
    visited[id] = 1;
    const at = entryAt(id);
    const type = typeOf(id);
    if (type !== STORAGE && type !== STREAM) damaged();
    const name = nameOf(id);
    names.push(name);
    pending.push({ id: u32(at + 68), atRoot }, { id: u32(at + 72), atRoot });
    if (type === STORAGE) pending.push({ id: u32(at + 76), atRoot: false });
    else {
      const stream = { name, start: u32(at + 116), size: sizeOf(id) };
      checkStream(stream);
      if (atRoot) rootStreams.push(stream);
    }
  }

  const read = (stream: CompoundStream, length: number): Uint8Array => {
    const wanted = Math.min(length, stream.size);
    const out = new Uint8Array(wanted);
    const mini = isMini(stream);
    const unit = mini ? MINI_SECTOR_SIZE : sectorSize;
    const count = Math.ceil(wanted / unit);
    const chain = mini
      ? follow(miniFat, stream.start, isMiniSector, count, null)
      : follow(fat, stream.start, isSector, count, null);
    chain.forEach((sector, i) => {
      const at = mini ? miniOffset(sector) : offsetOf(sector);
      out.set(bytes.subarray(at, at + Math.min(unit, wanted - i * unit)), i * unit);
    });
    return out;
  };

  return { rootStreams, names, read };
}

/** BIFF record types read at the start of an .xls workbook stream. */
const BOF_RECORDS = new Set([0x0809, 0x0409, 0x0209, 0x0009]);
const EOF_RECORD = 0x000a;
const FILEPASS_RECORD = 0x002f;
/** FILEPASS, when present, comes right after the workbook's BOF: the first records are enough to find it. */
const HEAD_BYTES = 8192;

function refuse(key: TranslationKey): never {
  throw new ValidationFailed({ file: message(key) });
}

/**
 * Checks a Compound File that should hold an .xls workbook: its structure (checkCompoundFile), that it is not an
 * encrypted .xlsx (EncryptionInfo and EncryptedPackage streams: import.encrypted), that it holds a workbook stream
 * at all (a Word document or an Outlook message is import.not_a_spreadsheet), that the stream starts as a workbook
 * does (import.damaged) and carries no FILEPASS record (a password: import.encrypted).
 */
export function checkXlsFile(bytes: Uint8Array): void {
  const file = checkCompoundFile(bytes);
  const names = new Set(file.names.map((name) => name.toLowerCase()));
  if (names.has("encryptioninfo") || names.has("encryptedpackage")) refuse("import.encrypted");
  const workbook =
    file.rootStreams.find((stream) => stream.name.toLowerCase() === "workbook") ??
    file.rootStreams.find((stream) => stream.name.toLowerCase() === "book");
  if (!workbook) refuse("import.not_a_spreadsheet");
  const head = file.read(workbook, HEAD_BYTES);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length < 4 || !BOF_RECORDS.has(view.getUint16(0, true))) damaged();
  for (let at = 0; at + 4 <= head.length; at += 4 + view.getUint16(at + 2, true)) {
    const type = view.getUint16(at, true);
    if (type === FILEPASS_RECORD) refuse("import.encrypted");
    if (type === EOF_RECORD) break;
  }
}
