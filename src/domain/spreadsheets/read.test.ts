/**
 * Reading uploaded workbooks: a real .xlsx gives its rows; files that are too large, not zips, zips with too many
 * entries or too much declared content, ZIP64 archives, unreadable zips and slow parses are refused with a message
 * for the `file` field, before SheetJS is asked to decompress anything.
 */
import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { MAX_SHEET_ROWS } from "./limits";
import { checkZip, MAX_WORKBOOK_BYTES, readWorkbook } from "./read";
import { buildWorkbook } from "./write";

/** A stored (uncompressed) zip of the given files, written by hand so tests control every header field. */
function zipOf(files: { name: string; content: Uint8Array }[]): Uint8Array {
  const local: number[] = [];
  const central: number[] = [];
  const u16 = (out: number[], v: number) => out.push(v & 0xff, (v >>> 8) & 0xff);
  const u32 = (out: number[], v: number) => out.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  for (const file of files) {
    const name = new TextEncoder().encode(file.name);
    const offset = local.length;
    u32(local, 0x04034b50);
    u16(local, 20), u16(local, 0), u16(local, 0), u16(local, 0), u16(local, 0);
    u32(local, 0), u32(local, file.content.length), u32(local, file.content.length);
    u16(local, name.length), u16(local, 0);
    local.push(...name, ...file.content);
    u32(central, 0x02014b50);
    u16(central, 20), u16(central, 20), u16(central, 0), u16(central, 0), u16(central, 0), u16(central, 0);
    u32(central, 0), u32(central, file.content.length), u32(central, file.content.length);
    u16(central, name.length), u16(central, 0), u16(central, 0), u16(central, 0), u16(central, 0);
    u32(central, 0), u32(central, offset);
    central.push(...name);
  }
  const end: number[] = [];
  u32(end, 0x06054b50);
  u16(end, 0), u16(end, 0), u16(end, files.length), u16(end, files.length);
  u32(end, central.length), u32(end, local.length), u16(end, 0);
  return new Uint8Array([...local, ...central, ...end]);
}

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
  const files = XLSX.CFB.read(new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer), { type: "buffer" });
  const path = files.FullPaths.findIndex((p: string) => p.endsWith("sheet1.xml"));
  const xml = new TextDecoder().decode(files.FileIndex[path].content as Uint8Array).replace(/<dimension ref="[^"]*"\/>/, `<dimension ref="${ref}"/>`);
  const entry = files.FileIndex[path];
  entry.content = new TextEncoder().encode(xml);
  entry.size = entry.content.length;
  return new Uint8Array(XLSX.CFB.write(files, { type: "array", fileType: "zip" }) as ArrayBuffer);
}

const workbook = () =>
  buildWorkbook([
    { name: "Minas", columns: [{ header: "Nombre", value: (r: { name: string; price: number | null }) => r.name }, { header: "Precio", value: (r) => r.price }], rows: [{ name: "Mina Norte", price: 12.5 }, { name: "Mina Sur", price: null }] },
    { name: "Notas", columns: [{ header: "Texto", value: (r: string) => r }], rows: ["hola"] },
  ]);

describe("reading a workbook", () => {
  test("a real .xlsx gives each sheet's rows as raw values, blanks as null", async () => {
    const sheets = await readWorkbook(workbook());
    expect(sheets).toEqual([
      { name: "Minas", firstRow: 1, rows: [["Nombre", "Precio"], ["Mina Norte", 12.5], ["Mina Sur", null]] },
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
    expect(sheet.rows).toEqual([["Nombre", "Precio"], ["Mina Norte", 12.5], ["Mina Sur", null]]);
  });

  test(`a sheet with more than ${MAX_SHEET_ROWS} rows is refused, naming the sheet`, async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(Array.from({ length: MAX_SHEET_ROWS + 1 }, (_, i) => [i])), "Comedores");
    const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer);
    expect(await asyncRefusal(() => readWorkbook(bytes))).toEqual({ key: "import.too_many_rows", params: { sheet: "Comedores", max: MAX_SHEET_ROWS } });
  });

  test("a file over 5 MiB is refused", () => {
    const bytes = new Uint8Array(MAX_WORKBOOK_BYTES + 1);
    bytes.set([0x50, 0x4b, 0x03, 0x04]);
    expect(refusal(() => checkZip(bytes))).toEqual({ key: "import.file_too_large", params: { max: 5 } });
  });

  test("a file that is not a zip is refused", async () => {
    expect(refusal(() => checkZip(new TextEncoder().encode("Nombre,Servicios\nMina Norte,DES\n")))).toEqual({ key: "import.not_xlsx" });
    // A zip signature without a central directory is not a zip either.
    expect(refusal(() => checkZip(new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(40)])))).toEqual({ key: "import.not_xlsx" });
    expect(await asyncRefusal(() => readWorkbook(new Uint8Array([1, 2, 3])))).toEqual({ key: "import.not_xlsx" });
  });

  test("a zip with more than 1000 entries is refused", () => {
    const files = Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}`, content: new Uint8Array(1) }));
    expect(refusal(() => checkZip(zipOf(files)))).toEqual({ key: "import.too_many_entries", params: { max: 1000 } });
    expect(checkZip(zipOf(files.slice(0, 1000))).entries).toBe(1000);
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
    const bytes = zipOf([{ name: "hello.txt", content: new TextEncoder().encode("hello") }]);
    expect(checkZip(bytes).entries).toBe(1);
    expect(await asyncRefusal(() => readWorkbook(bytes))).toEqual({ key: "import.unreadable" });
  });

  test("a parse that takes longer than the time limit is stopped", async () => {
    expect(await asyncRefusal(() => readWorkbook(workbook(), { timeoutMs: 1 }))).toEqual({ key: "import.too_slow" });
  });
});
