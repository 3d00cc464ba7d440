/**
 * The spreadsheet intake of the diner import (readFirstSheet): .xlsx, .xls, .ods and .csv files made here with
 * SheetJS give their first sheet's rows, whatever their name says; every file that cannot be read is refused with one
 * message for the `file` field: empty, too large, too many rows or cells, not a spreadsheet, encrypted, damaged, too
 * slow. Hostile files (zip bombs, sheets declaring a million rows) are refused before anything large is allocated.
 */
import { describe, expect, test } from "bun:test";
import { deflateRawSync } from "node:zlib";
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { DINER_INTAKE, readFirstSheet, type IntakeLimits, type SpreadsheetFormat } from "./read";
import { without, writtenBy, xlsxBy, zipped } from "./workbook-fixtures.test-support";
import { zipOf } from "./zip-fixtures.test-support";

type Cell = string | number | boolean | null | XLSX.CellObject;

const HEADER = ["Tipo de documento", "DNI", "Apellidos", "Nombres", "Celular", "Subcontrata", "Comedor"];
const DINERS: Cell[][] = [
  HEADER,
  ["DNI", "00123456", "Quispe Mamani", "Rosa", 987654321, "Servicios Andinos", "Comedor Norte"],
  ["CE", "000987654", "Núñez", "José Ñaupari", null, "20123456789", "Comedor Sur"],
];

function bookOf(sheets: Record<string, Cell[][]>): XLSX.WorkBook {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  return book;
}

/** The workbook written by SheetJS as `bookType` (xls is BIFF8). */
function written(book: XLSX.WorkBook, bookType: "xlsx" | "xls" | "ods"): Uint8Array {
  return new Uint8Array(XLSX.write(book, { type: "array", bookType, compression: true }) as ArrayBuffer);
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const BOM = [0xef, 0xbb, 0xbf];
const withBom = (text: string) => new Uint8Array([...BOM, ...utf8(text)]);

/** The `file` message of a refused read. */
async function refusal(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.file;
  }
  throw new Error("not refused");
}

const read = (bytes: Uint8Array, name: string, limits: IntakeLimits = DINER_INTAKE) =>
  readFirstSheet(bytes, name, limits);
const refused = (bytes: Uint8Array, name: string, limits: IntakeLimits = DINER_INTAKE) =>
  refusal(readFirstSheet(bytes, name, limits));

/** Random bytes that are the same on every run (mulberry32). */
function randomBytes(length: number, seed = 15): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return out;
}

/** An entry of a container as SheetJS's CFB library reads it (the library is typed `any`). */
interface ContainerEntry {
  /** 2 for a file (a stream). */
  type: number;
  content: Uint8Array;
  size: number;
}

/** A zip's entries, rewritten by `change` (given each entry's path and text), through SheetJS's own zip writer. */
function rewriteZip(bytes: Uint8Array, change: (path: string, content: Uint8Array) => Uint8Array | string): Uint8Array {
  const zip = XLSX.CFB.read(bytes, { type: "array" });
  zip.FileIndex.forEach((entry: ContainerEntry, i: number) => {
    if (entry.type !== 2) return;
    const changed = change(zip.FullPaths[i].replace(/^[^/]*\//, ""), entry.content as Uint8Array);
    entry.content = typeof changed === "string" ? utf8(changed) : changed;
    entry.size = entry.content.length;
  });
  return new Uint8Array(XLSX.CFB.write(zip, { type: "array", fileType: "zip", compression: true }) as ArrayBuffer);
}

const textOf = (content: Uint8Array) => new TextDecoder().decode(content);

describe("each format gives its first sheet", () => {
  const expected = [
    HEADER,
    ["DNI", "00123456", "Quispe Mamani", "Rosa", 987654321, "Servicios Andinos", "Comedor Norte"],
    ["CE", "000987654", "Núñez", "José Ñaupari", null, "20123456789", "Comedor Sur"],
  ];

  for (const format of ["xlsx", "xls", "ods"] as const) {
    test(`.${format}: the first sheet's raw values, text kept as text, blanks as null; other sheets ignored`, async () => {
      const bytes = written(bookOf({ Comensales: DINERS, Notas: [["no es de comensales"]] }), format);
      const { format: found, sheet } = await read(bytes, `comensales.${format}`);
      expect(found).toBe(format);
      expect(sheet).toEqual({ name: "Comensales", firstRow: 1, rows: expected });
    });
  }

  test("the format comes from the bytes, not the name", async () => {
    const bytes = written(bookOf({ Comensales: DINERS }), "ods");
    expect((await read(bytes, "comensales.xlsx")).format).toBe("ods");
    const xls = written(bookOf({ Comensales: DINERS }), "xls");
    expect((await read(xls, "comensales.csv")).format).toBe("xls");
    const csv = utf8("Nombre,DNI\nRosa,00123456\n");
    expect(await read(csv, "comensales.txt")).toEqual({
      format: "csv",
      sheet: {
        name: "comensales",
        firstRow: 1,
        rows: [
          ["Nombre", "DNI"],
          ["Rosa", "00123456"],
        ],
      },
    });
  });

  test("rows keep their spreadsheet numbers: leading blank rows stay, trailing ones go, columns fill to one width", async () => {
    const bytes = written(bookOf({ Comensales: [[null], ["Lista de comensales"], [null], HEADER, DINERS[1]] }), "xlsx");
    const { sheet } = await read(bytes, "comensales.xlsx");
    expect(sheet.firstRow).toBe(1);
    expect(sheet.rows.length).toBe(5);
    expect(sheet.rows[3]).toEqual(HEADER);
    expect(sheet.rows[0]).toEqual(Array(7).fill(null));
    expect(sheet.rows[1]).toEqual(["Lista de comensales", ...Array(6).fill(null)]);
  });

  for (const format of ["xlsx", "ods"] as const) {
    test(`.${format}: a formula is never evaluated: its cached value is read, or null without one`, async () => {
      // The cached value 7 is not what the formula computes, so reading 7 shows nothing was evaluated.
      const rows: Cell[][] = [
        ["Nombre", "Cuenta", "Sin valor"],
        ["Rosa", { t: "n", v: 7, f: "1+1" }, { t: "n", f: "1+2" } as XLSX.CellObject],
      ];
      const { sheet } = await read(written(bookOf({ Comensales: rows }), format), `f.${format}`);
      expect(sheet.rows).toEqual([
        ["Nombre", "Cuenta", "Sin valor"],
        ["Rosa", 7, null],
      ]);
    });
  }
});

describe("hidden sheets", () => {
  const visible = { name: "Comensales", firstRow: 1, rows: [HEADER, ...DINERS.slice(1)] };
  const hiddenFirst = (): XLSX.WorkBook => {
    const book = bookOf({ Plantilla: [["no es de comensales"]], Oculta: [["tampoco"]], Comensales: DINERS });
    book.Workbook = { Sheets: [{ Hidden: 1 }, { Hidden: 2 }, { Hidden: 0 }] };
    return book;
  };
  const expected = [
    HEADER,
    ["DNI", "00123456", "Quispe Mamani", "Rosa", 987654321, "Servicios Andinos", "Comedor Norte"],
    ["CE", "000987654", "Núñez", "José Ñaupari", null, "20123456789", "Comedor Sur"],
  ];

  test(".xlsx as LibreOffice writes it, its first sheet hidden: the first visible sheet is read", async () => {
    const bytes = xlsxBy("libreoffice", [
      { name: "Plantilla", rows: [["no es de comensales"]], state: "hidden" },
      { name: "Comensales", rows: expected },
    ]);
    expect((await read(bytes, "comensales.xlsx")).sheet).toEqual({ ...visible, rows: expected });
  });

  test(".xlsx the fast reader leaves to SheetJS: the same sheet", async () => {
    // A comment in the sheet data is one of the things the fast reader leaves to SheetJS.
    const bytes = rewriteZip(written(hiddenFirst(), "xlsx"), (path, content) =>
      path === "xl/worksheets/sheet3.xml"
        ? textOf(content).replace("<sheetData>", "<sheetData><!-- lista -->")
        : content,
    );
    expect((await read(bytes, "comensales.xlsx")).sheet).toEqual({ ...visible, rows: expected });
  });

  for (const format of ["xlsx", "xls", "ods"] as const)
    test(`.${format} written by SheetJS with hidden and very hidden sheets first`, async () => {
      let bytes = written(hiddenFirst(), format);
      // SheetJS writes every .ods table displayed: hide the first two as LibreOffice does, by their table style.
      if (format === "ods")
        bytes = rewriteZip(bytes, (path, content) =>
          path !== "content.xml"
            ? content
            : textOf(content)
                .replace(
                  "</office:automatic-styles>",
                  '<style:style style:name="ta2" style:family="table" style:master-page-name="mp1"><style:table-properties table:display="false" style:writing-mode="lr-tb"/></style:style></office:automatic-styles>',
                )
                .replace(/(<table:table table:name="(?:Plantilla|Oculta)" table:style-name=")ta1"/g, '$1ta2"'),
        );
      expect((await read(bytes, `comensales.${format}`)).sheet).toEqual({ ...visible, rows: expected });
    });

  test("a workbook whose sheets are all hidden is read from its first sheet", async () => {
    const book = bookOf({ Comensales: DINERS, Otra: [["otra"]] });
    book.Workbook = { Sheets: [{ Hidden: 1 }, { Hidden: 1 }] };
    expect((await read(written(book, "xlsx"), "c.xlsx")).sheet).toEqual({ ...visible, rows: expected });
  });
});

describe("parts the workbook declares", () => {
  test("an Excel file whose declared styles, metadata or people part is missing is damaged, as SheetJS finds it", async () => {
    const parts = writtenBy("excel", [{ name: "Comensales", rows: [["Nombre"], ["Rosa"]] }]);
    expect((await read(zipped(parts), "c.xlsx")).sheet.rows).toEqual([["Nombre"], ["Rosa"]]);
    for (const part of ["xl/styles.xml", "xl/metadata.xml", "xl/persons/person.xml"])
      expect(await refused(zipped(without(parts, part)), "c.xlsx")).toEqual({ key: "import.damaged" });
  });
});

describe("CSV", () => {
  test("UTF-8 with a BOM, semicolons, quotes: every cell a string as written, leading zeros kept", async () => {
    const text = [
      "Tipo de documento;DNI;Nombres;Teléfono",
      'DNI;00123456;"Quispe; Rosa";+51 987 654 321',
      'PAS;"000A1234";"Dice ""hola""";  ',
      'CE;000987654;"Núñez,\r\nJosé";1e5',
    ].join("\r\n");
    const { format, sheet } = await read(withBom(text), "comensales.csv");
    expect(format).toBe("csv");
    expect(sheet.rows).toEqual([
      ["Tipo de documento", "DNI", "Nombres", "Teléfono"],
      ["DNI", "00123456", "Quispe; Rosa", "+51 987 654 321"],
      ["PAS", "000A1234", 'Dice "hola"', "  "],
      ["CE", "000987654", "Núñez,\r\nJosé", "1e5"],
    ]);
  });

  test("commas without a BOM; blank lines are blank rows, so each row keeps its line number", async () => {
    const { sheet } = await read(utf8("\nNombre,DNI,Nivel\n\nRosa,00123456,\n,,\nJosé,07654321,2\n\n\n"), "c.csv");
    expect(sheet.rows).toEqual([
      [null, null, null],
      ["Nombre", "DNI", "Nivel"],
      [null, null, null],
      ["Rosa", "00123456", null],
      [null, null, null],
      ["José", "07654321", "2"],
    ]);
    expect(sheet.rows.findIndex((row) => row[0] === "José") + sheet.firstRow).toBe(6);
  });

  test("the separator is the header line's: semicolons win there even when a later field holds commas", async () => {
    const { sheet } = await read(utf8('Nombre;DNI\n"Quispe, Rosa";00123456\n'), "c.csv");
    expect(sheet.rows).toEqual([
      ["Nombre", "DNI"],
      ["Quispe, Rosa", "00123456"],
    ]);
    const tabs = await read(utf8("Nombre\tDNI\nRosa\t00123456"), "c.csv");
    expect(tabs.sheet.rows[1]).toEqual(["Rosa", "00123456"]);
    const declared = await read(utf8("sep=;\nNombre;DNI,CE\nRosa;1,2"), "c.csv");
    expect(declared.sheet.rows).toEqual([
      ["Nombre", "DNI,CE"],
      ["Rosa", "1,2"],
    ]);
  });

  test("a CSV written by SheetJS with semicolons and a BOM reads back with its leading zeros", async () => {
    const csv = XLSX.utils.sheet_to_csv(XLSX.utils.aoa_to_sheet(DINERS), { FS: ";" });
    const { sheet } = await read(withBom(csv), "comensales.csv");
    expect(sheet.rows[1]).toEqual([
      "DNI",
      "00123456",
      "Quispe Mamani",
      "Rosa",
      "987654321",
      "Servicios Andinos",
      "Comedor Norte",
    ]);
    expect(sheet.rows[2][1]).toBe("000987654");
  });

  test("text in another encoding, UTF-16 text and a quote that never closes are refused with their reason", async () => {
    // "Núñez" in Windows-1252, as Excel's plain "CSV" writes it on many systems.
    const latin1 = new Uint8Array([...utf8("Nombre,DNI\nN"), 0xfa, 0xf1, ...utf8("ez,00123456\n")]);
    expect(await refused(latin1, "c.csv")).toEqual({ key: "import.csv_encoding" });
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(utf8("Nombre\tDNI"), (byte) => [byte, 0]).flat()]);
    expect(await refused(utf16, "c.txt")).toEqual({ key: "import.csv_encoding" });
    expect(await refused(utf8('Nombre,DNI\nRosa,00123456\n"José,0765'), "c.csv")).toEqual({
      key: "import.csv_unclosed_quote",
      params: { row: 3 },
    });
  });
});

describe("files that are not spreadsheets", () => {
  test("an empty file, a CSV of blank lines, a workbook whose first sheet is blank", async () => {
    expect(await refused(new Uint8Array(0), "c.xlsx")).toEqual({ key: "import.empty" });
    expect(await refused(withBom("\r\n\r\n  \n"), "c.csv")).toEqual({ key: "import.empty" });
    expect(await refused(utf8(";;;\n;;\n"), "c.csv")).toEqual({ key: "import.empty" });
    for (const format of ["xlsx", "xls", "ods"] as const) {
      const bytes = written(bookOf({ Vacia: [[null]], Comensales: DINERS }), format);
      expect(await refused(bytes, `c.${format}`)).toEqual({ key: "import.empty" });
    }
  });

  test("a renamed PNG, PDF or program, and random bytes, are not spreadsheets", async () => {
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      ...utf8("IHDR"),
      0,
      0,
      1,
      0,
    ]);
    expect(await refused(png, "comensales.xlsx")).toEqual({ key: "import.not_a_spreadsheet" });
    const pdf = utf8("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
    expect(await refused(pdf, "comensales.csv")).toEqual({ key: "import.not_a_spreadsheet" });
    const elf = new Uint8Array([0x7f, ...utf8("ELF"), 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(await refused(elf, "comensales.xls")).toEqual({ key: "import.not_a_spreadsheet" });
    for (const length of [16, 4096, 100_000])
      expect(await refused(randomBytes(length, length), "comensales.xlsx")).toEqual({
        key: "import.not_a_spreadsheet",
      });
    // Text with control characters but no NUL in its first bytes, and no UTF-8: binary after all.
    const binary = new Uint8Array([...utf8("Nombre,DNI\n"), 0x01, 0x02, 0x9f, 0xff, 0x10]);
    expect(await refused(binary, "c.csv")).toEqual({ key: "import.not_a_spreadsheet" });
  });

  test("other documents in the same containers are not spreadsheets: a Word zip, an OpenDocument text, a .doc", async () => {
    const docx = zipOf([
      { name: "[Content_Types].xml", content: utf8("<Types/>") },
      { name: "word/document.xml", content: utf8("<w:document/>") },
    ]);
    expect(await refused(docx, "comensales.xlsx")).toEqual({ key: "import.not_a_spreadsheet" });
    const odt = zipOf([
      { name: "mimetype", content: utf8("application/vnd.oasis.opendocument.text") },
      { name: "content.xml", content: utf8("<office:document-content/>") },
    ]);
    expect(await refused(odt, "comensales.ods")).toEqual({ key: "import.not_a_spreadsheet" });
    const doc = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(doc, "/WordDocument", randomBytes(5000));
    const bytes = new Uint8Array(XLSX.CFB.write(doc, { type: "array" }) as ArrayBuffer);
    expect(await refused(bytes, "comensales.xls")).toEqual({ key: "import.not_a_spreadsheet" });
  });

  test("a web page under a spreadsheet's name is told apart; under a .csv name it is read as CSV", async () => {
    const page = withBom("\n  <html><body><table><tr><td>Nombre</td></tr></table></body></html>");
    expect(await refused(page, "comensales.xls")).toEqual({ key: "import.markup" });
    expect(await refused(utf8('<?xml version="1.0"?><Workbook/>'), "comensales.xml")).toEqual({
      key: "import.markup",
    });
    expect((await read(utf8("<b>Nombre</b>,DNI\nRosa,1"), "comensales.csv")).sheet.rows[0]).toEqual([
      "<b>Nombre</b>",
      "DNI",
    ]);
  });
});

describe("limits", () => {
  const small: IntakeLimits = { maxBytes: 1024 * 1024, maxRows: 5, timeoutMs: 20_000 };
  const rowsOf = (count: number): Cell[][] => [
    ["Nombre", "DNI"],
    ...Array.from({ length: count }, (_, i) => [`Comensal ${i}`, String(i).padStart(8, "0")]),
    [null, null],
    [null, null],
  ];
  const files = (count: number): [SpreadsheetFormat, Uint8Array][] => [
    ...(["xlsx", "xls", "ods"] as const).map((format): [SpreadsheetFormat, Uint8Array] => [
      format,
      written(bookOf({ Comensales: rowsOf(count) }), format),
    ]),
    ["csv", withBom(XLSX.utils.sheet_to_csv(XLSX.utils.aoa_to_sheet(rowsOf(count))))],
  ];

  test("maxRows counts data rows: a header and maxRows rows are read, one more is refused, naming the sheet", async () => {
    for (const [format, bytes] of files(5)) expect((await read(bytes, `c.${format}`, small)).sheet.rows.length).toBe(6);
    for (const [format, bytes] of files(6))
      expect(await refused(bytes, `comensales.${format}`, small)).toEqual({
        key: "import.too_many_rows",
        params: { sheet: format === "csv" ? "comensales" : "Comensales", max: 5 },
      });
  });

  test("a file over maxBytes is refused with the limit in MiB, whatever it holds", async () => {
    for (const [format, bytes] of files(5))
      expect(await refused(bytes, `c.${format}`, { ...small, maxBytes: bytes.length - 1 })).toEqual({
        key: "import.file_too_large",
        params: { max: 0 },
      });
    const big = new Uint8Array(DINER_INTAKE.maxBytes + 1).fill(0x41);
    expect(await refused(big, "c.csv")).toEqual({ key: "import.file_too_large", params: { max: 20 } });
  });

  test("a read that takes longer than the kind's time limit is stopped", async () => {
    const bytes = written(bookOf({ Comensales: DINERS }), "xlsx");
    expect(await refused(bytes, "c.xlsx", { ...small, timeoutMs: 1 })).toEqual({ key: "import.too_slow" });
  });
});

/** An .ods whose content.xml is changed by `change`. */
const odsWith = (change: (content: string) => string) =>
  rewriteZip(written(bookOf({ Comensales: DINERS }), "ods"), (path, content) =>
    path === "content.xml" ? change(textOf(content)) : content,
  );

/** The n-th (0-based) `<table:table-row>` start tag of an .ods content.xml, with `attributes` added. */
const withRowAttributes = (content: string, n: number, attributes: string) => {
  let seen = -1;
  return content.replace(/<table:table-row\b/g, (tag) => (++seen === n ? `${tag} ${attributes}` : tag));
};

describe("hostile workbooks", () => {
  test("an .ods row repeated a million times is refused at once, before SheetJS writes out a single copy", async () => {
    const bytes = odsWith((content) => withRowAttributes(content, 1, 'table:number-rows-repeated="1000000"'));
    expect(bytes.length).toBeLessThan(10_000);
    const started = performance.now();
    expect(await refused(bytes, "c.ods")).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "Comensales", max: 100_000 },
    });
    // SheetJS would fill a million rows of seven cells; the count from the XML takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test("an .ods cell repeated across thousands of columns and rows is refused for its cells", async () => {
    const bytes = odsWith((content) =>
      content.replace(
        /<\/table:table>/,
        '<table:table-row table:number-rows-repeated="5000"><table:table-cell table:number-columns-repeated="16000" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table>',
      ),
    );
    expect(bytes.length).toBeLessThan(10_000);
    expect(await refused(bytes, "c.ods")).toEqual({
      key: "import.too_many_cells",
      params: { sheet: "Comensales", max: 3_000_000 },
    });
  });

  test("trailing blank rows repeated to the end of the sheet, as LibreOffice writes them, are no rows", async () => {
    const bytes = odsWith((content) =>
      content.replace(
        /<\/table:table>/,
        '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>',
      ),
    );
    expect((await read(bytes, "c.ods")).sheet.rows.length).toBe(3);
  });

  test("an .xlsx that declares a million rows is read by its cells", async () => {
    const bytes = rewriteZip(written(bookOf({ Comensales: DINERS }), "xlsx"), (path, content) =>
      path === "xl/worksheets/sheet1.xml"
        ? textOf(content).replace(/<dimension ref="[^"]*"\/>/, '<dimension ref="A1:XFD1048576"/>')
        : content,
    );
    expect(textOf(bytes).length).toBeGreaterThan(0);
    expect((await read(bytes, "c.xlsx")).sheet.rows.length).toBe(3);
  });

  test("an .xlsx holding a million rows is refused from its XML, before SheetJS splits it into rows", async () => {
    const million = "<row><c><v>1</v></c></row>".repeat(1_000_000);
    const bytes = rewriteZip(written(bookOf({ Comensales: DINERS }), "xlsx"), (path, content) =>
      path === "xl/worksheets/sheet1.xml"
        ? textOf(content).replace(/<sheetData>.*<\/sheetData>/s, `<sheetData>${million}</sheetData>`)
        : content,
    );
    expect(bytes.length).toBeLessThan(4 * 1024 * 1024);
    expect(await refused(bytes, "c.xlsx")).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "Comensales", max: 100_000 },
    });
  });

  test("an .xlsx with more cells than the budget in the rows it may hold is refused for its cells", async () => {
    const row = `<row>${"<c><v>1</v></c>".repeat(40)}</row>`;
    const bytes = rewriteZip(written(bookOf({ Comensales: DINERS }), "xlsx"), (path, content) =>
      path === "xl/worksheets/sheet1.xml"
        ? textOf(content).replace(/<sheetData>.*<\/sheetData>/s, `<sheetData>${row.repeat(100_000)}</sheetData>`)
        : content,
    );
    expect(await refused(bytes, "c.xlsx")).toEqual({
      key: "import.too_many_cells",
      params: { sheet: "Comensales", max: 3_000_000 },
    });
  });

  test("cells in a part the workbook does not name first still count: SheetJS finds parts its own way", async () => {
    const row = `<row>${"<c><v>1</v></c>".repeat(40)}</row>`;
    const bytes = rewriteZip(written(bookOf({ Comensales: DINERS, Otra: DINERS }), "xlsx"), (path, content) =>
      path === "xl/worksheets/sheet2.xml"
        ? textOf(content).replace(/<sheetData>.*<\/sheetData>/s, `<sheetData>${row.repeat(100_000)}</sheetData>`)
        : content,
    );
    expect(await refused(bytes, "c.xlsx")).toEqual({
      key: "import.too_many_cells",
      params: { sheet: "xl/worksheets/sheet2.xml", max: 3_000_000 },
    });
  });

  test("a binary workbook (.xlsb), whose cells cannot be counted first, is not a spreadsheet Mesa reads", async () => {
    const bytes = new Uint8Array(
      XLSX.write(bookOf({ Comensales: DINERS }), { type: "array", bookType: "xlsb", compression: true }) as ArrayBuffer,
    );
    expect(await refused(bytes, "comensales.xlsx")).toEqual({ key: "import.not_a_spreadsheet" });
  });

  test("a zip bomb is refused: by its declared size, or after inflating what it declares when it lies", async () => {
    const zeros = deflateRawSync(Buffer.alloc(300 * 1024 * 1024));
    const parts = (size: number) => [
      { name: "[Content_Types].xml", content: utf8("<Types/>") },
      { name: "xl/workbook.xml", content: utf8("<workbook/>") },
      { name: "xl/worksheets/sheet1.xml", content: zeros, method: 8, size },
    ];
    // Honest headers: 300 MiB declared, over the 200 MiB a 20 MiB kind allows.
    expect(await refused(zipOf(parts(300 * 1024 * 1024)), "c.xlsx")).toEqual({
      key: "import.too_large_uncompressed",
      params: { max: 200 },
    });
    // Lying headers: 100 bytes declared; inflation stops after 100 bytes.
    const started = performance.now();
    expect(await refused(zipOf(parts(100)), "c.xlsx")).toEqual({
      key: "import.too_large_uncompressed",
      params: { max: 200 },
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

/** The Compound File of an .xls with its Workbook stream changed by `change`. */
function xlsWithWorkbook(change: (stream: Uint8Array) => Uint8Array): Uint8Array {
  const file = XLSX.CFB.read(written(bookOf({ Comensales: DINERS }), "xls"), { type: "array" });
  const index = file.FullPaths.findIndex((path: string) => /\/Workbook$/i.test(path));
  const entry = file.FileIndex[index];
  entry.content = change(entry.content as Uint8Array);
  entry.size = entry.content.length;
  return new Uint8Array(XLSX.CFB.write(file, { type: "array" }) as ArrayBuffer);
}

describe("encrypted and damaged files", () => {
  test("an encrypted .xlsx (a Compound File with EncryptionInfo and EncryptedPackage) is password-protected", async () => {
    const file = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(file, "/EncryptionInfo", randomBytes(300));
    XLSX.CFB.utils.cfb_add(file, "/EncryptedPackage", randomBytes(20_000));
    const bytes = new Uint8Array(XLSX.CFB.write(file, { type: "array" }) as ArrayBuffer);
    expect(await refused(bytes, "comensales.xlsx")).toEqual({ key: "import.encrypted" });
  });

  test("an .xls with a FILEPASS record after its BOF is password-protected", async () => {
    const bytes = xlsWithWorkbook((stream) => {
      const bofLength = 4 + (stream[2] | (stream[3] << 8));
      // FILEPASS (0x002F) with RC4 CryptoAPI's header: what Excel writes for a workbook with an open password.
      const filepass = new Uint8Array([0x2f, 0x00, 0x08, 0x00, 0x01, 0x00, 0x02, 0x00, 0x02, 0x00, 0x04, 0x00]);
      return new Uint8Array([...stream.subarray(0, bofLength), ...filepass, ...stream.subarray(bofLength)]);
    });
    expect(await refused(bytes, "comensales.xls")).toEqual({ key: "import.encrypted" });
  });

  test("an .ods whose manifest declares encrypted parts is password-protected", async () => {
    const bytes = rewriteZip(written(bookOf({ Comensales: DINERS }), "ods"), (path, content) => {
      if (path === "content.xml") return randomBytes(content.length);
      if (path !== "META-INF/manifest.xml") return content;
      return textOf(content).replace(
        /(<manifest:file-entry manifest:full-path="content.xml"[^>]*?)\/>/,
        '$1><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/></manifest:encryption-data></manifest:file-entry>',
      );
    });
    let manifest = "";
    rewriteZip(bytes, (path, content) => (path === "META-INF/manifest.xml" ? (manifest = textOf(content)) : content));
    expect(manifest).toContain("<manifest:encryption-data");
    expect(await refused(bytes, "comensales.ods")).toEqual({ key: "import.encrypted" });
  });

  test("a truncated .xls, .xlsx or .ods is damaged", async () => {
    for (const format of ["xls", "xlsx", "ods"] as const) {
      const bytes = written(bookOf({ Comensales: DINERS, Otra: DINERS }), format);
      for (const keep of [0.5, 0.9])
        expect(await refused(bytes.subarray(0, Math.floor(bytes.length * keep)), `c.${format}`)).toEqual({
          key: "import.damaged",
        });
    }
  });

  test("an .xls workbook stream that does not start as a workbook is damaged", async () => {
    const bytes = xlsWithWorkbook((stream) => randomBytes(stream.length));
    expect(await refused(bytes, "comensales.xls")).toEqual({ key: "import.damaged" });
  });

  test("an .xlsx whose sheet XML SheetJS cannot read, or whose zip headers disagree, is damaged", async () => {
    const bytes = written(bookOf({ Comensales: DINERS }), "xlsx");
    const local = bytes.slice();
    // The first local header's method no longer matches its central directory entry.
    new DataView(local.buffer).setUint16(8, 12, true);
    expect(await refused(local, "c.xlsx")).toEqual({ key: "import.damaged" });
  });
});
