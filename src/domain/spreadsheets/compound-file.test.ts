/**
 * The Compound File check behind .xls uploads: SheetJS's own .xls files pass and show their streams; a file whose
 * header, FAT, directory or chains would lead a reader outside the file, around a loop or short of a stream's size is
 * damaged; encrypted workbooks and Compound Files without a workbook are told apart.
 */
import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { checkCompoundFile, checkXlsFile } from "./compound-file";

/** An .xls (BIFF8) written by SheetJS, with `rows` rows so that its workbook stream passes the mini stream's 4 KiB. */
function xls(rows = 300): Uint8Array {
  const book = XLSX.utils.book_new();
  const data = [
    ["Nombre", "DNI"],
    ...Array.from({ length: rows }, (_, i) => [`Comensal ${i}`, String(i).padStart(8, "0")]),
  ];
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(data), "Comensales");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xls" }) as ArrayBuffer);
}

function refusal(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.file;
  }
  throw new Error("not refused");
}

const DAMAGED = { key: "import.damaged" };

/** A copy of `bytes` with `patch` applied to it. */
function patched(bytes: Uint8Array, patch: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  patch(new DataView(copy.buffer), copy);
  return copy;
}

/** Where sector `n` of a 512-byte-sector file starts. */
const sectorAt = (n: number) => (n + 1) * 512;

describe("a Compound File's structure", () => {
  test("SheetJS's .xls passes, with its workbook stream readable from its first record", () => {
    for (const rows of [2, 300]) {
      const file = checkCompoundFile(xls(rows));
      const workbook = file.rootStreams.find((stream) => stream.name === "Workbook")!;
      expect(workbook.size).toBeGreaterThan(rows === 2 ? 0 : 4096);
      // BIFF8's BOF record: type 0x0809, 16 bytes, version 0x0600.
      expect(Array.from(file.read(workbook, 6))).toEqual([0x09, 0x08, 0x10, 0x00, 0x00, 0x06]);
    }
    expect(() => checkXlsFile(xls())).not.toThrow();
  });

  test("a file cut short, or too short for a header, is damaged", () => {
    const bytes = xls();
    for (const length of [100, 511, 512, 1024, Math.floor(bytes.length / 2), bytes.length - 512])
      expect(refusal(() => checkCompoundFile(bytes.subarray(0, length)))).toEqual(DAMAGED);
  });

  test("header fields out of the format are damaged: byte order, sector size, mini sector size, cutoff", () => {
    const bytes = xls();
    const lies: ((view: DataView) => void)[] = [
      (view) => view.setUint16(28, 0xfeff, true),
      (view) => view.setUint16(30, 10, true),
      (view) => view.setUint16(26, 4, true), // version 4 with 512-byte sectors
      (view) => view.setUint16(32, 7, true),
      (view) => view.setUint32(56, 8192, true),
    ];
    for (const lie of lies) expect(refusal(() => checkCompoundFile(patched(bytes, lie)))).toEqual(DAMAGED);
  });

  test("a FAT or directory declared outside the file is damaged, however large it claims to be", () => {
    const bytes = xls();
    const lies: ((view: DataView) => void)[] = [
      (view) => view.setUint32(76, 0x00ffffff, true), // the first FAT sector
      (view) => view.setUint32(44, 0x7fffffff, true), // the FAT's sector count: nothing is allocated for it
      (view) => view.setUint32(48, 0x00ffffff, true), // the directory's first sector
      (view) => (view.setUint32(44, 200, true), view.setUint32(72, 1, true), view.setUint32(68, 0x00ffffff, true)),
    ];
    for (const lie of lies) expect(refusal(() => checkCompoundFile(patched(bytes, lie)))).toEqual(DAMAGED);
  });

  test("a chain that loops, or a stream longer than its chain, is damaged", () => {
    const bytes = xls();
    const workbook = checkCompoundFile(bytes).rootStreams.find((stream) => stream.name === "Workbook")!;
    const view = new DataView(bytes.buffer);
    const fatSector = view.getUint32(76, true);
    // The workbook stream's first sector now points back at itself.
    const loop = patched(bytes, (v) => v.setUint32(sectorAt(fatSector) + workbook.start * 4, workbook.start, true));
    expect(refusal(() => checkCompoundFile(loop))).toEqual(DAMAGED);
    // The directory entry of the workbook claims twice its size.
    const directory = view.getUint32(48, true);
    const entries = Array.from({ length: 4 }, (_, i) => sectorAt(directory) + i * 128);
    const entry = entries.find((at) => view.getUint32(at + 120, true) === workbook.size)!;
    const longer = patched(bytes, (v) => v.setUint32(entry + 120, workbook.size * 2, true));
    expect(refusal(() => checkCompoundFile(longer))).toEqual(DAMAGED);
  });

  test("a directory tree that loops or points past its entries is damaged", () => {
    const bytes = xls();
    const directory = new DataView(bytes.buffer).getUint32(48, true);
    const root = sectorAt(directory);
    const child = new DataView(bytes.buffer).getUint32(root + 76, true);
    const selfSibling = patched(bytes, (v) => v.setUint32(sectorAt(directory) + child * 128 + 68, child, true));
    expect(refusal(() => checkCompoundFile(selfSibling))).toEqual(DAMAGED);
    const past = patched(bytes, (v) => v.setUint32(root + 76, 1000, true));
    expect(refusal(() => checkCompoundFile(past))).toEqual(DAMAGED);
    const notRoot = patched(bytes, (_, b) => (b[root + 66] = 1));
    expect(refusal(() => checkCompoundFile(notRoot))).toEqual(DAMAGED);
  });
});

describe("what an .xls Compound File holds", () => {
  const container = (streams: Record<string, Uint8Array>) => {
    const file = XLSX.CFB.utils.cfb_new();
    for (const [name, content] of Object.entries(streams)) XLSX.CFB.utils.cfb_add(file, `/${name}`, content);
    return new Uint8Array(XLSX.CFB.write(file, { type: "array" }) as ArrayBuffer);
  };

  test("EncryptionInfo and EncryptedPackage streams (an encrypted .xlsx) are password-protected", () => {
    const bytes = container({ EncryptionInfo: new Uint8Array(200), EncryptedPackage: new Uint8Array(9000) });
    expect(refusal(() => checkXlsFile(bytes))).toEqual({ key: "import.encrypted" });
  });

  test("a Compound File without a workbook stream is not a spreadsheet", () => {
    const bytes = container({ WordDocument: new Uint8Array(5000), "1Table": new Uint8Array(100) });
    expect(refusal(() => checkXlsFile(bytes))).toEqual({ key: "import.not_a_spreadsheet" });
  });

  test("a workbook stream that does not open with a BOF record is damaged", () => {
    const bytes = container({ Workbook: new Uint8Array(5000).fill(7) });
    expect(refusal(() => checkXlsFile(bytes))).toEqual(DAMAGED);
  });
});
