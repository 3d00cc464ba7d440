/**
 * Reading uploaded workbooks: a real .xlsx gives its rows; files that are too large, not zips, zips with too many
 * entries or too much declared content, ZIP64 archives, unreadable zips and slow parses are refused with a message
 * for the `file` field, before SheetJS is asked to decompress anything. So are zips whose headers lie: local
 * headers that disagree with the central directory, entries that share bytes, and entries that inflate past their
 * declared size (a zip bomb behind a forged directory), the last refused after that much inflation, not by the timer.
 */
import { describe, expect, test } from "bun:test";
import { deflateRawSync } from "node:zlib";
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { MAX_SHEET_ROWS } from "./limits";
import { checkZip, checkZipContent, MAX_WORKBOOK_BYTES, readWorkbook } from "./read";
import { buildWorkbook } from "./write";
import { concat, zipOf } from "./zip-fixtures.test-support";

const text = (value: string) => new TextEncoder().encode(value);

/** The offset of the End Of Central Directory record of a zip without a comment. */
const endOf = (bytes: Uint8Array) => bytes.length - 22;

function refusal(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.file;
  }
  throw new Error("not refused");
}

async function asyncRefusal(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.file;
  }
  throw new Error("not refused");
}

/** The workbook again, with the first sheet's declared <dimension> replaced (what a hostile file can claim). */
function withDimension(bytes: Uint8Array, ref: string): Uint8Array {
  const book = XLSX.read(bytes, { type: "array" });
  const files = XLSX.CFB.read(new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer), {
    type: "buffer",
  });
  const path = files.FullPaths.findIndex((p: string) => p.endsWith("sheet1.xml"));
  const xml = new TextDecoder()
    .decode(files.FileIndex[path].content as Uint8Array)
    .replace(/<dimension ref="[^"]*"\/>/, `<dimension ref="${ref}"/>`);
  const entry = files.FileIndex[path];
  entry.content = new TextEncoder().encode(xml);
  entry.size = entry.content.length;
  return new Uint8Array(XLSX.CFB.write(files, { type: "array", fileType: "zip" }) as ArrayBuffer);
}

const workbook = () =>
  buildWorkbook([
    {
      name: "Minas",
      columns: [
        { header: "Nombre", value: (r: { name: string; price: number | null }) => r.name },
        { header: "Precio", value: (r) => r.price },
      ],
      rows: [
        { name: "Mina Norte", price: 12.5 },
        { name: "Mina Sur", price: null },
      ],
    },
    { name: "Notas", columns: [{ header: "Texto", value: (r: string) => r }], rows: ["hola"] },
  ]);

describe("reading a workbook", () => {
  test("a real .xlsx gives each sheet's rows as raw values, blanks as null", async () => {
    const sheets = await readWorkbook(workbook());
    expect(sheets).toEqual([
      {
        name: "Minas",
        firstRow: 1,
        rows: [
          ["Nombre", "Precio"],
          ["Mina Norte", 12.5],
          ["Mina Sur", null],
        ],
      },
      { name: "Notas", firstRow: 1, rows: [["Texto"], ["hola"]] },
    ]);
  });

  test("a sheet whose cells start below row 1 keeps its row numbers", async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[null], [null], ["Nombre"], ["Mina Norte"]]), "Minas");
    const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
    const [sheet] = await readWorkbook(bytes);
    const header = sheet.rows.findIndex((row) => row.some((cell) => cell !== null));
    expect(sheet.firstRow + header).toBe(3);
    expect(sheet.rows.slice(header)).toEqual([["Nombre"], ["Mina Norte"]]);
  });

  test("a sheet declaring a million rows is read by its cells, not by its declaration", async () => {
    const bytes = withDimension(workbook(), "A1:XFD1048576");
    const [sheet] = await readWorkbook(bytes);
    expect(sheet.rows).toEqual([
      ["Nombre", "Precio"],
      ["Mina Norte", 12.5],
      ["Mina Sur", null],
    ]);
  });

  test(`a sheet with more than ${MAX_SHEET_ROWS} rows is refused, naming the sheet`, async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet(Array.from({ length: MAX_SHEET_ROWS + 1 }, (_, i) => [i])),
      "Comedores",
    );
    const bytes = new Uint8Array(
      XLSX.write(book, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer,
    );
    expect(await asyncRefusal(() => readWorkbook(bytes))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "Comedores", max: MAX_SHEET_ROWS },
    });
  });

  test("a file over 5 MiB is refused", () => {
    const bytes = new Uint8Array(MAX_WORKBOOK_BYTES + 1);
    bytes.set([0x50, 0x4b, 0x03, 0x04]);
    expect(refusal(() => checkZip(bytes))).toEqual({ key: "import.file_too_large", params: { max: 5 } });
  });

  test("a file that is not a zip is refused", async () => {
    expect(refusal(() => checkZip(new TextEncoder().encode("Nombre,Servicios\nMina Norte,DES\n")))).toEqual({
      key: "import.not_xlsx",
    });
    // A zip signature without a central directory is not a zip either.
    expect(refusal(() => checkZip(new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(40)])))).toEqual({
      key: "import.not_xlsx",
    });
    expect(await asyncRefusal(() => readWorkbook(new Uint8Array([1, 2, 3])))).toEqual({ key: "import.not_xlsx" });
  });

  test("a zip with more than 1000 entries is refused", () => {
    const files = Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}`, content: new Uint8Array(1) }));
    expect(refusal(() => checkZip(zipOf(files)))).toEqual({ key: "import.too_many_entries", params: { max: 1000 } });
    expect(checkZip(zipOf(files.slice(0, 1000))).entries.length).toBe(1000);
  });

  test("a zip whose entries declare more than 50 MiB uncompressed is refused (a zip bomb's header)", () => {
    const bytes = workbook();
    const view = new DataView(bytes.buffer);
    const directory = view.getUint32(endOf(bytes) + 16, true);
    // The first entry now claims 60 MiB once inflated.
    view.setUint32(directory + 24, 60 * 1024 * 1024, true);
    expect(refusal(() => checkZip(bytes))).toEqual({ key: "import.too_large_uncompressed", params: { max: 50 } });
  });

  test("ZIP64 archives are refused", () => {
    const bytes = workbook();
    const view = new DataView(bytes.buffer);
    const directory = view.getUint32(endOf(bytes) + 16, true);
    view.setUint32(directory + 24, 0xffffffff, true);
    expect(refusal(() => checkZip(bytes))).toEqual({ key: "import.zip64" });
    const count = workbook();
    new DataView(count.buffer).setUint16(endOf(count) + 10, 0xffff, true);
    expect(refusal(() => checkZip(count))).toEqual({ key: "import.zip64" });
  });

  test("a zip that is not a workbook cannot be read", async () => {
    const bytes = zipOf([{ name: "hello.txt", content: text("hello") }]);
    expect(checkZip(bytes).entries.length).toBe(1);
    expect(await asyncRefusal(() => readWorkbook(bytes))).toEqual({ key: "import.unreadable" });
  });

  test("a parse that takes longer than the time limit is stopped", async () => {
    expect(await asyncRefusal(() => readWorkbook(workbook(), { timeoutMs: 1 }))).toEqual({ key: "import.too_slow" });
  });
});

/** 200 MiB of zeros, deflated (about 200 KB): built once, for the zip bomb tests. */
let bombStream: Uint8Array | undefined;
const zeros200MiB = () => (bombStream ??= deflateRawSync(Buffer.alloc(200 * 1024 * 1024)));

/** The zip again, with `patch` applied to a copy of its bytes. */
function patched(bytes: Uint8Array, patch: (view: DataView) => void): Uint8Array {
  const copy = bytes.slice();
  patch(new DataView(copy.buffer));
  return copy;
}

/** The offset of the central directory of a zip without a comment. */
const directoryOf = (bytes: Uint8Array) =>
  new DataView(bytes.buffer, bytes.byteOffset).getUint32(endOf(bytes) + 16, true);

const fixture = async (name: string) =>
  new Uint8Array(
    await Bun.file(new URL(`../../../tests/fixtures/spreadsheets/${name}`, import.meta.url)).arrayBuffer(),
  );

describe("zips whose headers lie", () => {
  test("a zip bomb whose headers claim 100 bytes is refused after inflating 100 bytes, not by the timer", async () => {
    for (const descriptor of [false, true]) {
      const bytes = zipOf([
        { name: "xl/worksheets/sheet1.xml", content: zeros200MiB(), method: 8, size: 100, descriptor },
      ]);
      // Its directory alone looks harmless.
      expect(checkZip(bytes).uncompressedBytes).toBe(100);
      expect(refusal(() => checkZipContent(bytes))).toEqual({
        key: "import.too_large_uncompressed",
        params: { max: 50 },
      });
      // The worker answers with the size refusal; a bomb inflated until the timer stops it would be import.too_slow.
      expect(await asyncRefusal(() => readWorkbook(bytes))).toEqual({
        key: "import.too_large_uncompressed",
        params: { max: 50 },
      });
    }
  });

  test("an entry that inflates to less than it declares, or whose deflate stream is cut short, cannot be read", () => {
    const hello = deflateRawSync(text("hello"));
    expect(() => checkZipContent(zipOf([{ name: "a.txt", content: hello, method: 8, size: 5 }]))).not.toThrow();
    expect(refusal(() => checkZipContent(zipOf([{ name: "a.txt", content: hello, method: 8, size: 10 }])))).toEqual({
      key: "import.unreadable",
    });
    const long = deflateRawSync(text("Mina Norte, Mina Sur, Mina Este, Mina Oeste. ".repeat(50)));
    expect(
      refusal(() =>
        checkZipContent(zipOf([{ name: "a.txt", content: long.subarray(0, long.length - 4), method: 8, size: 2250 }])),
      ),
    ).toEqual({ key: "import.unreadable" });
  });

  test("a local header that disagrees with the central directory is refused", () => {
    const stored = zipOf([{ name: "hello.txt", content: text("hello") }]);
    const described = zipOf([{ name: "hello.txt", content: text("hello"), descriptor: true }]);
    expect(checkZip(stored).entries.length).toBe(1);
    expect(checkZip(described).entries.length).toBe(1);
    // The descriptor of `described` starts after its 30-byte local header, 9-byte name, 5 bytes of data and signature.
    const lies: [Uint8Array, (view: DataView) => void][] = [
      [stored, (view) => view.setUint16(6, 0x0008, true)], // a data descriptor only the local header announces
      [stored, (view) => view.setUint16(8, 8, true)], // method
      [stored, (view) => view.setUint32(14, 1, true)], // CRC
      [stored, (view) => view.setUint32(18, 1000, true)], // compressed size
      [stored, (view) => view.setUint32(22, 1000, true)], // uncompressed size
      [stored, (view) => view.setUint8(30, "H".charCodeAt(0))], // name
      [described, (view) => view.setUint32(22, 1000, true)], // a local size that is neither 0 nor the directory's
      [described, (view) => view.setUint32(30 + 9 + 5 + 4 + 8, 1000, true)], // the descriptor's uncompressed size
    ];
    for (const [bytes, lie] of lies)
      expect(refusal(() => checkZip(patched(bytes, lie)))).toEqual({ key: "import.not_xlsx" });
  });

  test("encrypted entries, unknown methods and ZIP64 extra fields are refused", () => {
    const bytes = zipOf([{ name: "hello.txt", content: text("hello") }]);
    const directory = directoryOf(bytes);
    const encrypted = patched(
      bytes,
      (view) => (view.setUint16(6, 0x0001, true), view.setUint16(directory + 8, 0x0001, true)),
    );
    expect(refusal(() => checkZip(encrypted))).toEqual({ key: "import.unreadable" });
    const bzip2 = patched(bytes, (view) => (view.setUint16(8, 12, true), view.setUint16(directory + 10, 12, true)));
    expect(refusal(() => checkZip(bzip2))).toEqual({ key: "import.unreadable" });

    // SheetJS takes sizes from a ZIP64 record wherever it appears, even when the header's own sizes are not maxed.
    const zip64 = new Uint8Array([0x01, 0x00, 16, 0, ...new Uint8Array(16)]);
    const both = zipOf([{ name: "hello.txt", content: text("hello"), extra: zip64 }]);
    expect(refusal(() => checkZip(both))).toEqual({ key: "import.zip64" });
    const localOnly = patched(both, (view) => view.setUint16(directoryOf(both) + 46 + 9, 0xcafe, true));
    expect(refusal(() => checkZip(localOnly))).toEqual({ key: "import.zip64" });
  });

  test("entries that share bytes are refused", () => {
    const bytes = zipOf([
      { name: "a", content: text("x") },
      { name: "a", content: text("x") },
    ]);
    expect(checkZip(bytes).entries.length).toBe(2);
    // The second central entry (after the first one's 46 bytes and 1-byte name) now points at the first entry.
    const overlapping = patched(bytes, (view) => view.setUint32(directoryOf(bytes) + 47 + 42, 0, true));
    expect(refusal(() => checkZip(overlapping))).toEqual({ key: "import.not_xlsx" });
  });

  test("a zip comment is accepted, but not one that hides another end of central directory", () => {
    const bytes = zipOf([{ name: "hello.txt", content: text("hello") }]);
    const withComment = (comment: Uint8Array) =>
      patched(concat([bytes, comment]), (view) => view.setUint16(endOf(bytes) + 20, comment.length, true));
    expect(checkZip(withComment(text("Mesa"))).entries.length).toBe(1);
    const fakeEnd = new Uint8Array(22);
    fakeEnd.set([0x50, 0x4b, 0x05, 0x06]);
    expect(refusal(() => checkZip(withComment(concat([fakeEnd, text("xx")]))))).toEqual({ key: "import.not_xlsx" });
  });

  test("workbooks written by streaming zip writers (data descriptors) are read", async () => {
    for (const name of ["minas-descriptors-python.xlsx", "minas-descriptors-infozip.xlsx"]) {
      expect(await readWorkbook(await fixture(name))).toEqual([
        {
          name: "Minas",
          firstRow: 1,
          rows: [
            ["Nombre", "Precio"],
            ["Mina Norte", 12.5],
            ["Mina Sur", null],
          ],
        },
      ]);
    }
  });
});
