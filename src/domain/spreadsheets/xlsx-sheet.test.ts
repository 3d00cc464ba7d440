/**
 * The fast first-sheet read of an .xlsx (xlsx-sheet.ts) against the general path it stands in for (parse-worker.ts:
 * checkZipContent with the sheet-size.ts checks, then SheetJS, then the rows of its first sheet), written out again
 * below: for random sheets SheetJS writes (with and without a shared string table) both give the same rows or the
 * same refusal, and the fast read never steps aside for them; for hand-made parts (rich text, phonetic runs, inline
 * strings, formulas, errors, dates, escapes, rows and cells without references, pretty-printed XML) the same, and
 * what it is not sure of (prefixed tags, Strict OOXML, comments, a reference going backwards, an unknown string
 * index) is left to the general path, which still gives the right rows.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { checkZip, DEFAULT_READ_LIMITS, type ReadLimits, type SheetRows } from "./read";
import { firstXlsxSheet, type SheetBounds } from "./sheet-size";
import { xlsxFirstSheetBySheetJS } from "./sheetjs-read";
import { readXlsxFirstSheet } from "./xlsx-sheet";
import {
  appXml,
  EXCEL_METADATA,
  replaced,
  without,
  WRITERS,
  writtenBy,
  xlsxBy,
  zipped,
  type Cell,
  type Part,
  type Writer,
} from "./workbook-fixtures.test-support";
import { zipOf } from "./zip-fixtures.test-support";

const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const limitsOf = (maxRows: number): ReadLimits => ({ ...DEFAULT_READ_LIMITS, maxRows, maxBytes: 20 * 1024 * 1024 });
const boundsOf = (limits: ReadLimits, cells?: number): SheetBounds => ({
  rows: limits.maxRows + 1,
  reportedRows: limits.maxRows,
  ...(cells === undefined ? {} : { cells }),
});

/** A read's outcome: its rows, or the key and parameters of its refusal (any other error: unreadable). */
type Outcome = { rows: SheetRows } | { refused: unknown };

function outcomeOf(read: () => SheetRows): Outcome {
  try {
    return { rows: read() };
  } catch (error) {
    if (error instanceof ValidationFailed) return { refused: error.errors.file };
    return { refused: { key: "import.unreadable" } };
  }
}

// ——— The general path, as parse-worker.ts runs it (sheetjs-read.ts) ———

function generalRead(bytes: Uint8Array, limits: ReadLimits, bounds: SheetBounds): SheetRows {
  const entryNames = checkZip(bytes, limits).entries.map((entry) => entry.name);
  return xlsxFirstSheetBySheetJS(XLSX, bytes, limits, bounds, firstOf(bytes), entryNames);
}

/** The first sheet of a zip, found as parse-worker.ts finds it. */
function firstOf(bytes: Uint8Array) {
  const zip = XLSX.CFB.read(bytes, { type: "array" });
  const find = (name: string) => {
    const index = zip.FullPaths.findIndex((path: string) => path.replace(/^[^/]*\//, "") === name);
    return index < 0 ? "" : text(zip.FileIndex[index].content as Uint8Array);
  };
  return firstXlsxSheet(find("xl/workbook.xml"), find("xl/_rels/workbook.xml.rels"));
}

/** The fast read: the rows, or null when it leaves the file to the general path. */
function fastRead(bytes: Uint8Array, limits: ReadLimits, bounds: SheetBounds): SheetRows | null {
  const entries = checkZip(bytes, limits).entries;
  const first = firstOf(bytes);
  if (first === null) return null;
  return readXlsxFirstSheet(bytes, entries, first, bounds, limits);
}

interface Compared {
  /** Whether the fast read read the file itself (false: it left it to the general path). */
  fast: boolean;
  outcome: Outcome;
}

/** Both reads of `bytes`, which must agree whenever the fast one reads the file itself. */
function compare(bytes: Uint8Array, limits: ReadLimits = limitsOf(100), cells?: number): Compared {
  const bounds = boundsOf(limits, cells);
  const general = outcomeOf(() => generalRead(bytes, limits, bounds));
  let fast: SheetRows | null = null;
  let fastOutcome: Outcome | null = null;
  try {
    fast = fastRead(bytes, limits, bounds);
    if (fast) fastOutcome = { rows: fast };
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    fastOutcome = { refused: error.errors.file };
  }
  if (fastOutcome === null) return { fast: false, outcome: general };
  expect(fastOutcome).toEqual(general);
  return { fast: true, outcome: general };
}

const rowsIn = (compared: Compared) => {
  expect("rows" in compared.outcome).toBe(true);
  return (compared.outcome as { rows: SheetRows }).rows.rows;
};

// ——— Random sheets written by SheetJS ———

/** Text with what needs care in XML and in SheetJS's escapes. */
const textCell = fc
  .array(
    fc.constantFrom(
      "a",
      "Ñ",
      "é",
      "ü",
      " ",
      "  ",
      "\t",
      "\n",
      "\r\n",
      "<",
      ">",
      "&",
      "&amp;",
      "&lt;",
      "&#233;",
      '"',
      "'",
      "0",
      "007",
      "_x0041_",
      "_x000D_",
      "😀",
      "中文",
      "=1+1",
      "\u00a0",
      "]]>",
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(""));

const numberCell = fc.oneof(
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.1, -2.5, 1e21, 1e-7, 123456789012345, 5e-324, 1.7976931348623157e308),
);

type Written = string | number | boolean | null | Date | XLSX.CellObject;

const cell: fc.Arbitrary<Written> = fc.oneof(
  { weight: 4, arbitrary: textCell },
  { weight: 3, arbitrary: numberCell },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof(numberCell, textCell, fc.boolean()), fc.constantFrom("A1+1", "SUM(A1:B2)", '"x"&"y"'))
      .map(([v, f]): XLSX.CellObject => ({
        t: typeof v === "string" ? "s" : typeof v === "boolean" ? "b" : "n",
        v,
        f,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .date({ min: new Date("1899-12-31T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => new Date(Math.round(d.getTime() / 1000) * 1000)),
  },
);

const sheetRows = fc.array(fc.array(cell, { maxLength: 9 }), { maxLength: 14 });

function writtenBook(rows: Written[][], bookSST: boolean, cellDates: boolean, name: string): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows, { cellDates }), name);
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["otra"]]), "Otra");
  return new Uint8Array(
    XLSX.write(book, { type: "array", bookType: "xlsx", compression: true, bookSST }) as ArrayBuffer,
  );
}

describe("random sheets written by SheetJS", () => {
  test("read the same as the general path, refusals included, and never left to it", () => {
    fc.assert(
      fc.property(
        sheetRows,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 16 }),
        fc.constantFrom("Comensales", "Hoja & Co", "Año <1>", "Ñ'ñ"),
        (rows, bookSST, cellDates, maxRows, name) => {
          const bytes = writtenBook(rows, bookSST, cellDates, name);
          const compared = compare(bytes, limitsOf(maxRows));
          expect(compared.fast).toBe(true);
        },
      ),
      // XLSX_RUNS=5000 for a longer search.
      { numRuns: Number(process.env.XLSX_RUNS ?? 300) },
    );
  });

  test("a sheet of many rows reads the same", () => {
    const rows: Written[][] = [["Apellidos", "Nombres", "DNI", "Celular", "Subcontrata"]];
    for (let i = 0; i < 3000; i++)
      rows.push([`Quispe Ñaupari ${i % 97}`, `Rosa ${i}`, 40_000_000 + i * 3, `9${i}`, `Servicios & Cía ${i % 12}`]);
    for (const bookSST of [false, true]) {
      const compared = compare(writtenBook(rows, bookSST, false, "Comensales"), limitsOf(5000));
      expect(compared.fast).toBe(true);
      expect(rowsIn(compared).length).toBe(3001);
    }
  });
});

// ——— Hand-made parts ———

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const SHARED_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml";

interface Parts {
  /** The worksheet's sheetData content, or with `worksheet` the whole part. */
  data?: string;
  worksheet?: string;
  /** The shared string items (each an `<si>`'s content), or with `sst` the whole part. */
  strings?: string[];
  sst?: string;
  workbook?: string;
  /** Extra attributes of workbookPr. */
  workbookPr?: string;
  /** More entries. */
  extra?: { name: string; content: Uint8Array }[];
}

/** A stored zip of an .xlsx made of the given parts. */
function book(parts: Parts): Uint8Array {
  const sst =
    parts.sst ??
    (parts.strings
      ? `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}" count="${parts.strings.length}" uniqueCount="${parts.strings.length}">${parts.strings.map((item) => `<si>${item}</si>`).join("")}</sst>`
      : null);
  const files = [
    {
      name: "[Content_Types].xml",
      content: utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${sst ? `<Override PartName="/xl/sharedStrings.xml" ContentType="${SHARED_STRINGS_TYPE}"/>` : ""}</Types>`,
      ),
    },
    {
      name: "xl/workbook.xml",
      content: utf8(
        parts.workbook ??
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><workbookPr${parts.workbookPr ?? ""}/><sheets><sheet name="Comensales" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      content: utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>${sst ? `<Relationship Id="rId2" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/>` : ""}</Relationships>`,
      ),
    },
    {
      name: "xl/worksheets/sheet1.xml",
      content: utf8(
        parts.worksheet ??
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><dimension ref="A1"/><sheetData>${parts.data ?? ""}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
      ),
    },
    ...(sst ? [{ name: "xl/sharedStrings.xml", content: utf8(sst) }] : []),
    ...(parts.extra ?? []),
  ];
  return zipOf(files);
}

const read = (parts: Parts, limits?: ReadLimits, cells?: number) => compare(book(parts), limits, cells);

describe("hand-made parts the fast read reads itself", () => {
  test("shared strings: plain, preserved and unpreserved spaces, rich text runs joined, phonetic runs left out", () => {
    const compared = read({
      strings: [
        "<t>Quispe</t>",
        '<t xml:space="preserve">  Ñaupari  </t>',
        "<t> sin preservar </t>",
        '<r><t>Mamani</t></r><r><rPr><b/><sz val="11"/><rFont val="Calibri"/></rPr><t xml:space="preserve"> Huamán</t></r>',
        '<r><t>カタ</t></r><rPh sb="0" eb="2"><t>カタ</t></rPh><phoneticPr fontId="1"/>',
        '<t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh>',
        "<t></t>",
        "<t/>",
      ],
      data: `<row r="1">${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `<c r="${"ABCDEFGH"[i]}1" t="s"><v>${i}</v></c>`).join("")}</row>`,
    });
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)).toEqual([["Quispe", "  Ñaupari  ", " sin preservar ", "Mamani Huamán", "カタ", "漢字"]]);
  });

  test("entities, numeric references and _xHHHH_ escapes decode as the general path decodes them", () => {
    const compared = read({
      strings: [
        "<t>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</t>",
        "<t>&#233;&#xE9;&#x1F600;&#X41;&AMP;</t>",
        "<t>uno_x000D_\ndos_x0009_tres_x005F_x0041_</t>",
        "<t>línea\r\notra</t>",
      ],
      data:
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>' +
        '<c r="D1" t="s"><v>3</v></c><c r="E1" t="str"><v>&amp;amp; &amp;#233; x_x0041_</v></c>' +
        '<c r="F1" t="inlineStr"><is><t>in &amp; line_x000D_</t></is></c></row>',
    });
    expect(compared.fast).toBe(true);
    const [row] = rowsIn(compared);
    expect(row[0]).toBe(`a & b <c> "d" 'e'`);
    expect(row[2]).toBe("uno\ndos\ttres_x0041_");
    expect(row[3]).toBe("línea\notra");
    expect(row[4]).toBe("& é xA");
    expect(row[5]).toBe("in & line\r");
  });

  test("inline strings, formulas with their cached values, booleans, errors, numbers", () => {
    const compared = read({
      data:
        '<row r="1"><c r="A1" t="inlineStr"><is><t xml:space="preserve"> en línea </t></is></c>' +
        '<c r="B1"><f>1+1</f><v>2</v></c><c r="C1" t="str"><f>"x"&amp;"y"</f><v>xy</v></c>' +
        '<c r="D1"><f t="shared" ref="D1:D2" si="0">B1*2</f><v>4</v></c><c r="E1"><f>B1</f></c>' +
        '<c r="F1" t="e"><v>#DIV/0!</v></c><c r="G1" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>' +
        '<row r="2"><c r="A2" t="b"><v>1</v></c><c r="B2" t="b"><v>0</v></c><c r="C2" t="b"><v>true</v></c>' +
        '<c r="D2"><f t="shared" si="0"/><v>8</v></c><c r="E2" t="b"><v>TRUE</v></c><c r="F2" t="b"/>' +
        '<c r="G2" t="n"><v>-1.5E-3</v></c><c r="H2"><v>007</v></c><c r="I2" s="3"><v>1e400</v></c></row>' +
        '<row r="3"><c r="A3" t="str"><v></v></c><c r="B3" t="n"/><c r="C3" s="1"/><c r="D3" t="inlineStr"/>' +
        '<c r="E3" t="z"><v>5</v></c><c r="F3"><v> 12</v></c></row>',
    });
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)).toEqual([
      [" en línea ", 2, "xy", 4, null, null, null, null],
      [true, false, true, 8, false, false, -0.0015, 7],
      [null, null, null, null, null, 12, null, null],
    ]);
  });

  test('dates written as t="d" become serial numbers, in the 1900 and the 1904 systems', () => {
    const data =
      '<row r="1"><c r="A1" t="d"><v>2024-02-29</v></c><c r="B1" t="d"><v>2024-02-29T12:30:00</v></c>' +
      '<c r="C1" t="d"><v>1900-01-01</v></c><c r="D1" t="d"><v>10:30</v></c><c r="E1" t="d"><v>no es fecha</v></c></row>';
    const plain = read({ data });
    expect(plain.fast).toBe(true);
    expect(rowsIn(plain)[0].slice(0, 2)).toEqual([45351, 45351.520833333336]);
    const of1904 = read({ data, workbookPr: ' date1904="1"' });
    expect(of1904.fast).toBe(true);
    expect(rowsIn(of1904)[0][0]).toBe(45351 - 1462);
  });

  test("rows and cells without references follow the previous ones; blank rows keep the numbering", () => {
    const compared = read({
      strings: ["<t>a</t>"],
      data:
        '<row><c t="s"><v>0</v></c><c><v>2</v></c></row><row r="4"><c r="C4"><v>3</v></c><c><v>4</v></c></row>' +
        '<row><c r="B5"><v>5</v></c></row><row r="7" spans="1:3" x14ac:dyDescent="0.25" ht="15" customHeight="1"/>' +
        '<row r="9" s="2" customFormat="1"><c r="A9" s="1"/><c r="AB9"><v>9</v></c></row>',
    });
    expect(compared.fast).toBe(true);
    const rows = rowsIn(compared);
    expect(rows.length).toBe(9);
    expect(rows[0].slice(0, 4)).toEqual(["a", 2, null, null]);
    expect(rows[3].slice(0, 5)).toEqual([null, null, 3, 4, null]);
    expect(rows[4].slice(0, 2)).toEqual([null, 5]);
    expect(rows[8][27]).toBe(9);
  });

  test("pretty-printed XML, attributes in another order and single quotes", () => {
    const compared = read({
      strings: ["<t>uno</t>"],
      data: `
        <row r='1' spans='1:2'>
          <c t='s' s='0' r='A1'>
            <v>0</v>
          </c>
          <c s="1"  r="B1" >
            <f>1+1</f>
            <v>2</v>
          </c>
          <c r="C1" t="inlineStr">
            <is>
              <t>tres</t>
            </is>
          </c>
        </row>
      `,
    });
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)).toEqual([["uno", 2, "tres"]]);
  });

  test("parts as Excel and LibreOffice write them", () => {
    const excel = read({
      workbook: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr6="http://schemas.microsoft.com/office/spreadsheetml/2016/revision6"><fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="27328"/><workbookPr defaultThemeVersion="166925"/><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x15"><x15ac:absPath url="C:\\Users\\ana\\" xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac"/></mc:Choice></mc:AlternateContent><xr:revisionPtr revIDLastSave="0" documentId="8_{6B1C}" xr6:coauthVersionLast="47" xr6:coauthVersionMax="47"/><bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15840"/></bookViews><sheets><sheet name="Comensales" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`,
      worksheet: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xr:uid="{8A0D}"><dimension ref="A1:D3"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="20.7109375" customWidth="1"/></cols><sheetData><row r="1" spans="1:4" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row><row r="2" spans="1:4" x14ac:dyDescent="0.25"><c r="A2" s="1" t="s"><v>4</v></c><c r="B2" s="2"><v>40123456</v></c><c r="C2" s="3"><v>45351.5</v></c><c r="D2"><f>B2*2</f><v>80246912</v></c></row><row r="3" spans="1:4" ht="18" customHeight="1" x14ac:dyDescent="0.3"><c r="A3" t="s"><v>5</v></c><c r="B3" s="2"><v>7</v></c><c r="D3" cm="1"><f t="array" ref="D3">B3*2</f><v>14</v></c></row></sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><pageSetup orientation="portrait" r:id="rId1"/></worksheet>`,
      strings: [
        "<t>Nombre</t>",
        "<t>DNI</t>",
        "<t>Ingreso</t>",
        "<t>Doble</t>",
        '<t>Núñez</t><rPh sb="0" eb="5"><t>ヌニェス</t></rPh><phoneticPr fontId="1"/>',
        '<r><rPr><b/><sz val="11"/><color theme="1"/><rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr><t>Rosa</t></r><r><rPr><sz val="11"/><color theme="1"/><rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr><t xml:space="preserve"> Quispe</t></r>',
      ],
    });
    expect(excel.fast).toBe(true);
    expect(rowsIn(excel)).toEqual([
      ["Nombre", "DNI", "Ingreso", "Doble"],
      ["Núñez", 40123456, 45351.5, 80246912],
      ["Rosa Quispe", 7, null, 14],
    ]);
    const libreOffice = read({
      strings: ['<t xml:space="preserve">Nombre</t>', '<t xml:space="preserve">José </t>'],
      data:
        '<row r="1" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false"><c r="A1" s="0" t="s"><v>0</v></c><c r="B1" s="0" t="n"><v>1.5</v></c></row>' +
        '<row r="2" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false"><c r="A2" s="0" t="s"><v>1</v></c><c r="B2" s="0" t="b"><v>1</v></c><c r="C2" s="0" t="str"><f aca="false">A2&amp;"x"</f><v>José x</v></c></row>',
    });
    expect(libreOffice.fast).toBe(true);
    expect(rowsIn(libreOffice)).toEqual([
      ["Nombre", 1.5, null],
      ["José ", true, "José x"],
    ]);
  });

  test("only the first 64 columns are read", () => {
    const compared = read({ data: '<row r="1"><c r="BL1"><v>64</v></c><c r="BM1"><v>65</v></c></row>' });
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)[0].length).toBe(64);
    expect(rowsIn(compared)[0][63]).toBe(64);
  });
});

describe("refusals, as the general path refuses", () => {
  test("too many rows: a cell past the limit, even an empty one, names the sheet and the limit", () => {
    const limits = limitsOf(2);
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join("");
    expect(read({ data: rows(3) }, limits).outcome).toEqual({ rows: expect.anything() });
    const over = read({ data: rows(4) }, limits);
    expect(over.fast).toBe(true);
    expect(over.outcome).toEqual({ refused: { key: "import.too_many_rows", params: { sheet: "Comensales", max: 2 } } });
    const styled = read({ data: `${rows(1)}<row r="40"><c r="A40" s="1"></c></row>` }, limits);
    expect(styled.fast).toBe(true);
    expect(styled.outcome).toEqual({
      refused: { key: "import.too_many_rows", params: { sheet: "Comensales", max: 2 } },
    });
  });

  test("a cell closed on itself past the limit: refused only when it holds a value in the row still read", () => {
    const limits = limitsOf(2);
    const base = '<row r="1"><c r="A1"><v>1</v></c></row>';
    const blank = read({ data: `${base}<row r="4"><c r="A4" s="1"/></row><row r="9"><c r="A9" t="b"/></row>` }, limits);
    expect(blank.fast).toBe(true);
    expect(rowsIn(blank)).toEqual([[1]]);
    const boolean = read({ data: `${base}<row r="4"><c r="A4" t="b"/></row>` }, limits);
    expect(boolean.fast).toBe(true);
    expect(boolean.outcome).toEqual({
      refused: { key: "import.too_many_rows", params: { sheet: "Comensales", max: 2 } },
    });
  });

  test("an empty sheet: no sheet data, blank cells only, or text that is empty", () => {
    for (const data of ["", '<row r="1"><c r="A1" s="1"/><c r="B1" t="str"><v></v></c></row>', '<row r="3"/>']) {
      const compared = read({ data });
      expect(compared.fast).toBe(true);
      expect(compared.outcome).toEqual({ refused: { key: "import.empty" } });
    }
  });

  test("the cell budget, counted as sheet-size.ts counts it", () => {
    const data = Array.from(
      { length: 10 },
      (_, i) =>
        `<row r="${i + 1}">${'<c r="A#"><v>1</v></c><c r="B#"/><c r="C#" s="1"></c>'.replaceAll("#", String(i + 1))}</row>`,
    ).join("");
    const within = read({ data }, limitsOf(100), 20);
    expect(within.fast).toBe(true);
    expect("rows" in within.outcome).toBe(true);
    const over = read({ data }, limitsOf(100), 19);
    expect(over.fast).toBe(true);
    expect(over.outcome).toEqual({
      refused: { key: "import.too_many_cells", params: { sheet: "Comensales", max: 19 } },
    });
  });

  test("cells in another part still count, as before", () => {
    const compared = read(
      {
        data: '<row r="1"><c r="A1"><v>1</v></c></row>',
        extra: [
          {
            name: "xl/worksheets/sheet9.xml",
            content: utf8(`<sheetData>${"<row><c><v>1</v></c></row>".repeat(30)}</sheetData>`),
          },
        ],
      },
      limitsOf(100),
      20,
    );
    expect(compared.fast).toBe(true);
    expect(compared.outcome).toEqual({
      refused: { key: "import.too_many_cells", params: { sheet: "xl/worksheets/sheet9.xml", max: 20 } },
    });
  });
});

describe("what the fast read leaves to the general path, which still reads it", () => {
  const cases: [string, Parts][] = [
    [
      "prefixed tags",
      {
        worksheet: `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
      },
    ],
    [
      "a Strict OOXML workbook",
      {
        workbook: `<workbook xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Comensales" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        data: '<row r="1"><c r="A1"><v>1</v></c></row>',
      },
    ],
    ["a comment in the sheet data", { data: '<row r="1"><!-- nota --><c r="A1"><v>1</v></c></row>' }],
    ["a reference going backwards", { data: '<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>2</v></c></row>' }],
    [
      "rows going backwards",
      { data: '<row r="2"><c r="A2"><v>1</v></c></row><row r="1"><c r="A1"><v>2</v></c></row>' },
    ],
    ["a cell of another row", { data: '<row r="1"><c r="A2"><v>1</v></c></row>' }],
    ["rich text in a cell", { data: '<row r="1"><c r="A1" t="inlineStr"><is><r><t>a</t></r></is></c></row>' }],
    ["an attribute it does not know", { data: '<row r="1"><c r="A1" foo="1"><v>1</v></c></row>' }],
    ["CDATA", { strings: ["<t><![CDATA[a<b]]></t>"], data: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }],
  ];
  for (const [what, parts] of cases)
    test(what, () => {
      const compared = read(parts);
      expect(compared.fast).toBe(false);
    });

  test("a shared string index past the table: the general path cannot read it either", () => {
    const compared = read({ strings: ["<t>a</t>"], data: '<row r="1"><c r="A1" t="s"><v>5</v></c></row>' });
    expect(compared.fast).toBe(false);
    expect(compared.outcome).toEqual({ refused: { key: "import.unreadable" } });
  });

  test("prefixed tags still give the right rows through the general path", () => {
    const compared = read(cases[0][1]);
    expect(rowsIn(compared)).toEqual([[1]]);
  });
});

// ——— Files as their writers write them ———

const DINERS: Cell[][] = [
  ["Apellidos y nombres", "DNI", "Subcontrata", "Comedor"],
  ["Quispe Mamani, Rosa", 40123456, "Servicios & Cía", "Comedor Principal"],
  ["Ñaupari  Huamán, José", 1234567, " Minera <Sur> ", "Comedor Principal"],
  ["Huanca, Ana", "01234567", "Servicios & Cía", null],
];
const DINER_ROWS = DINERS.map((row) => row.map((cell) => (cell === "" ? null : cell)));

describe("files as Excel, LibreOffice, openpyxl, POI and Google Sheets write them", () => {
  for (const writer of WRITERS)
    test(`${writer}: read by the fast read, as the general path reads them`, () => {
      const compared = compare(xlsxBy(writer, [{ name: "Comensales", rows: DINERS }]));
      expect(compared.fast).toBe(true);
      expect(rowsIn(compared)).toEqual(DINER_ROWS);
    });

  test("shared strings (Excel) and inline strings (POI's streaming writer, numbers as 4.0123456E7) read alike", () => {
    const shared = writtenBy("excel", [{ name: "Comensales", rows: DINERS }]);
    const inline = writtenBy("poi", [{ name: "Comensales", rows: DINERS }]);
    expect(shared.find((p) => p.name === "xl/worksheets/sheet1.xml")?.content).toContain('t="s"');
    const poiSheet = inline.find((p) => p.name === "xl/worksheets/sheet1.xml")?.content ?? "";
    expect(poiSheet).toContain('t="inlineStr"');
    expect(poiSheet).toContain("<v>4.0123456E7</v>");
    expect(poiSheet).not.toContain("<dimension");
    expect(rowsIn(compare(zipped(inline)))).toEqual(rowsIn(compare(zipped(shared))));
  });

  test("an absolute target (/xl/worksheets/sheet1.xml, as openpyxl writes it) and the content types last", () => {
    const parts = writtenBy("openpyxl", [{ name: "Comensales", rows: DINERS }]);
    expect(parts.find((p) => p.name === "xl/_rels/workbook.xml.rels")?.content).toContain(
      'Target="/xl/worksheets/sheet1.xml"',
    );
    expect(parts[parts.length - 1].name).toBe("[Content_Types].xml");
    const compared = compare(zipped(parts));
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)).toEqual(DINER_ROWS);
  });

  test("a first sheet not stored as sheet1.xml", () => {
    for (const file of ["sheet3.xml", "Comensales.xml"]) {
      const compared = compare(
        xlsxBy("excel", [
          { name: "Comensales", rows: DINERS, file },
          { name: "Otra", rows: [["otra"]], file: "sheet1.xml" },
        ]),
      );
      expect(compared.fast).toBe(true);
      expect(rowsIn(compared)).toEqual(DINER_ROWS);
    }
  });

  test("a first sheet hidden (and a very hidden one): the first visible sheet is read, by both paths alike", () => {
    for (const writer of WRITERS) {
      const compared = compare(
        xlsxBy(writer, [
          { name: "Plantilla", rows: [["no es de comensales"]], state: "hidden" },
          { name: "Macros", rows: [["tampoco"]], state: "veryHidden" },
          { name: "Comensales", rows: DINERS },
          { name: "Otra", rows: [["otra"]] },
        ]),
      );
      expect(compared.fast).toBe(true);
      expect((compared.outcome as { rows: SheetRows }).rows.name).toBe("Comensales");
      expect(rowsIn(compared)).toEqual(DINER_ROWS);
    }
  });

  test("a merged title above the header, as every writer keeps it: the title in its first cell", () => {
    const rows: Cell[][] = [["Lista de personal — marzo"], ...DINERS];
    for (const writer of WRITERS) {
      const compared = compare(xlsxBy(writer, [{ name: "Comensales", rows, merges: ["A1:D1"] }]));
      expect(compared.fast).toBe(true);
      expect(rowsIn(compared)[0]).toEqual(["Lista de personal — marzo", null, null, null]);
    }
  });
});

// ——— Parts the workbook declares ———

/** The Excel file of the diners, its parts as Excel writes them. */
const excelParts = (): Part[] => writtenBy("excel", [{ name: "Comensales", rows: DINERS }]);

/** The parts with the content types' entry for `part` left out of [Content_Types].xml. */
const undeclared = (parts: Part[], part: string): Part[] =>
  replaced(parts, "[Content_Types].xml", (xml) =>
    xml.replace(new RegExp(`<Override [^>]*PartName="/${part}"[^>]*/>`), ""),
  );

const UNREADABLE = { refused: { key: "import.unreadable" } };

describe("parts the workbook declares in [Content_Types].xml", () => {
  test("all there: the fast read reads the file", () => {
    const compared = compare(zipped(excelParts()));
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)).toEqual(DINER_ROWS);
  });

  // SheetJS reads the styles, the sheet metadata and the people of the content types without a fallback: the file
  // is refused when one is missing, and the fast read leaves it to SheetJS.
  for (const part of ["xl/styles.xml", "xl/metadata.xml", "xl/persons/person.xml"])
    test(`${part} declared and missing: refused as SheetJS refuses it`, () => {
      const compared = compare(zipped(without(excelParts(), part)));
      expect(compared.outcome).toEqual(UNREADABLE);
      expect(compared.fast).toBe(false);
    });

  // The theme is read only for cell styles, and the document properties only when they are there.
  for (const part of ["xl/theme/theme1.xml", "docProps/core.xml", "docProps/app.xml"])
    test(`${part} declared and missing: read, by the fast read too`, () => {
      const compared = compare(zipped(without(excelParts(), part)));
      expect(compared.fast).toBe(true);
      expect(rowsIn(compared)).toEqual(DINER_ROWS);
    });

  test("a part only the workbook's relationships name, missing: SheetJS does not look for it, nor does the fast read", () => {
    for (const part of ["xl/styles.xml", "xl/metadata.xml", "xl/persons/person.xml"]) {
      const parts = without(undeclared(excelParts(), part), part);
      expect(parts.find((p) => p.name === "xl/_rels/workbook.xml.rels")?.content).toContain(
        `Target="${part.slice(3)}"`,
      );
      const compared = compare(zipped(parts));
      expect(compared.fast).toBe(true);
      expect(rowsIn(compared)).toEqual(DINER_ROWS);
    }
  });

  test("a declared part named in another case is found, as SheetJS finds it", () => {
    const parts = replaced(excelParts(), "[Content_Types].xml", (xml) =>
      xml.replace('PartName="/xl/styles.xml"', 'PartName="/xl/Styles.xml"'),
    );
    const compared = compare(zipped(parts));
    expect(compared.fast).toBe(true);
    expect(rowsIn(compared)).toEqual(DINER_ROWS);
  });

  const unreadable: [string, (parts: Part[]) => Part[]][] = [
    [
      "styles: a number format without its code",
      (parts) => replaced(parts, "xl/styles.xml", (xml) => xml.replace(' formatCode="00000000"', "")),
    ],
    [
      "styles: a cell format's alignment before any cell format",
      (parts) =>
        replaced(parts, "xl/styles.xml", (xml) =>
          xml.replace('<cellXfs count="3">', '<cellXfs count="3"><alignment wrapText="1"/>'),
        ),
    ],
    [
      "metadata: a cell's metadata of a type it does not declare",
      (parts) => replaced(parts, "xl/metadata.xml", EXCEL_METADATA.replace('<rc t="1" v="0"/>', '<rc t="2" v="0"/>')),
    ],
    [
      "properties: a heading without its count",
      (parts) =>
        replaced(parts, "docProps/app.xml", (xml) =>
          xml.replace(
            '<vt:vector size="2" baseType="variant">',
            '<vt:vector size="3" baseType="variant"><vt:variant><vt:lpstr>Rangos con nombre</vt:lpstr></vt:variant>',
          ),
        ),
    ],
    [
      "the styles declared in their binary form",
      (parts) =>
        replaced(parts, "[Content_Types].xml", (xml) =>
          xml.replace('PartName="/xl/styles.xml"', 'PartName="/xl/styles.bin"'),
        ).map((p) => (p.name === "xl/styles.xml" ? { ...p, name: "xl/styles.bin" } : p)),
    ],
    [
      "the workbook: a sheet without a name",
      (parts) =>
        replaced(parts, "xl/workbook.xml", (xml) =>
          xml.replace("</sheets>", '<sheet sheetId="2" r:id="rId1"/></sheets>'),
        ),
    ],
    [
      "the workbook: a defined name without a name",
      (parts) => replaced(parts, "xl/workbook.xml", (xml) => xml.replace('name="_xlnm._FilterDatabase" ', "")),
    ],
  ];
  for (const [what, change] of unreadable)
    test(`unreadable to SheetJS, ${what}: refused as SheetJS refuses it`, () => {
      const compared = compare(zipped(change(excelParts())));
      expect(compared.outcome).toEqual(UNREADABLE);
      expect(compared.fast).toBe(false);
    });

  test("a declared part whose bytes are not UTF-8 is left to SheetJS", () => {
    const parts = excelParts();
    const files = parts.map((p) => {
      const bytes = new TextEncoder().encode(p.content);
      if (p.name !== "xl/persons/person.xml") return { name: p.name, content: bytes };
      return { name: p.name, content: new Uint8Array([...bytes.subarray(0, 60), 0xff, ...bytes.subarray(60)]) };
    });
    expect(compare(zipOf(files)).fast).toBe(false);
  });
});

// ——— Generated workbooks of every writer, their declared parts there, missing or broken ———

type Change = (parts: Part[]) => Part[];
const DECLARED_PARTS = [
  "xl/styles.xml",
  "xl/metadata.xml",
  "xl/persons/person.xml",
  "docProps/app.xml",
  "xl/theme/theme1.xml",
];

const partChange: fc.Arbitrary<{ harmless: boolean; change: Change }> = fc.oneof(
  fc.constant({ harmless: true, change: (parts: Part[]) => parts }),
  fc.constantFrom(...DECLARED_PARTS).map((part) => ({
    harmless: part === "xl/theme/theme1.xml" || part === "docProps/app.xml",
    change: (parts: Part[]) => without(parts, part),
  })),
  fc.constantFrom(...DECLARED_PARTS).map((part) => ({
    harmless: true,
    change: (parts: Part[]) => without(undeclared(parts, part), part),
  })),
  fc.constantFrom(...DECLARED_PARTS).map((part) => ({
    harmless: false,
    change: (parts: Part[]) => replaced(parts, part, (xml) => xml.slice(0, Math.floor(xml.length / 2))),
  })),
  fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })).map(([types, t]) => ({
    harmless: false,
    change: (parts: Part[]) =>
      replaced(parts, "xl/metadata.xml", () =>
        EXCEL_METADATA.replace(
          /<metadataTypes count="1">.*<\/metadataTypes>/,
          `<metadataTypes count="${types}">${'<metadataType name="XLDAPR" minSupportedVersion="120000"/>'.repeat(types)}</metadataTypes>`,
        ).replace('<rc t="1"', `<rc t="${t}"`),
      ),
  })),
  fc.array(fc.constantFrom("Hojas de cálculo", "1", "Rangos con nombre", "2"), { maxLength: 5 }).map((headings) => ({
    harmless: false,
    change: (parts: Part[]) =>
      replaced(parts, "docProps/app.xml", () =>
        appXml(["Comensales"]).replace(
          /<HeadingPairs>.*<\/HeadingPairs>/,
          `<HeadingPairs><vt:vector size="${headings.length}" baseType="variant">${headings.map((h) => (/^\d+$/.test(h) ? `<vt:variant><vt:i4>${h}</vt:i4></vt:variant>` : `<vt:variant><vt:lpstr>${h}</vt:lpstr></vt:variant>`)).join("")}</vt:vector></HeadingPairs>`,
        ),
      ),
  })),
);

const writerCell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constantFrom("Quispe", "Ñaupari & Cía", " espacio ", "<x>", "007", "Comedor Principal"),
  fc.integer({ min: 0, max: 99_999_999 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  fc.constant(null),
);

describe("generated workbooks of every writer", () => {
  test("read the same as SheetJS whatever their declared parts; the fast read steps aside only for a part missing or broken", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Writer>(...WRITERS),
        fc.array(fc.array(writerCell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.array(partChange, { maxLength: 3 }),
        fc.array(fc.constantFrom<"hidden" | "veryHidden" | undefined>("hidden", "veryHidden", undefined), {
          maxLength: 3,
        }),
        (writer, rows, changes, states) => {
          const sheets = [
            ...states.map((state, i) => ({ name: `Hoja ${i + 1}`, rows: [[`hoja ${i + 1}`]], state })),
            { name: "Comensales", rows },
          ];
          let parts = writtenBy(writer, sheets);
          const changed = changes.filter((c) => c.change(parts) !== parts);
          for (const { change } of changes) parts = change(parts);
          const compared = compare(zipped(parts));
          const touchedOwnParts = changed.some((c) => !c.harmless);
          if (!touchedOwnParts) expect(compared.fast).toBe(true);
        },
      ),
      { numRuns: Number(process.env.XLSX_RUNS ?? 200) },
    );
  });
});
