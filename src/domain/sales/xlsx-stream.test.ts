import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { columnLetters, excelDate, excelTime, openXlsxStream, XLSX_MAX_ROWS, xmlText } from "./xlsx-stream";

const dir = mkdtempSync(join(tmpdir(), "mesa-xlsx-stream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `book-${++files}.xlsx`);

function readBack(path: string) {
  return XLSX.read(readFileSync(path), { type: "buffer", cellNF: true, cellStyles: true });
}

/** The raw XML of a part of the file, read with SheetJS's own zip reader. */
function part(path: string, name: string): string {
  const zip = XLSX.CFB.read(readFileSync(path), { type: "buffer" });
  const entry = XLSX.CFB.find(zip, `/${name}`);
  if (!entry?.content) throw new Error(`no ${name}`);
  return new TextDecoder().decode(entry.content as Uint8Array);
}

describe("streaming xlsx writer", () => {
  test("writes sheets SheetJS reads back: text, numbers with their formats, dates, times, widths, a frozen bold header", () => {
    const path = newPath();
    const book = openXlsxStream(path);
    book.startSheet("Detalle", [
      { header: "Fecha", width: 11, format: "date" },
      { header: "Hora", width: 7, format: "time" },
      { header: "Comensal", width: 30 },
      { header: "Cantidad", width: 9, format: "integer" },
      { header: "Total", width: 12, format: "money" },
    ]);
    book.row([excelDate("2026-11-02"), excelTime(30 * 60), "Béto Huamán Ñahui", 2, 1234 / 100]);
    book.row([excelDate("2024-02-29"), excelTime(23 * 3600 + 59 * 60), "  espacios  ", 1, 0.05]);
    book.row(["Total", null, null, 3, 12.39], { bold: true });
    book.startSheet("Resumen", [{ header: "A", width: 5 }]);
    book.row(["x"]);
    const size = book.close();
    expect(statSync(path).size).toBe(size);

    const read = readBack(path);
    expect(read.SheetNames).toEqual(["Detalle", "Resumen"]);
    const sheet = read.Sheets.Detalle;
    expect(XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true })).toEqual([
      ["Fecha", "Hora", "Comensal", "Cantidad", "Total"],
      [new Date("2026-11-02T00:00:00Z"), new Date("1899-12-31T00:30:00Z"), "Béto Huamán Ñahui", 2, 12.34],
      [new Date("2024-02-29T00:00:00Z"), new Date("1899-12-31T23:59:00Z"), "  espacios  ", 1, 0.05],
      ["Total", undefined, undefined, 3, 12.39],
    ]);
    // SheetJS reads dates as dates (2026-11-02 is Excel's day 46328); formats as asked.
    expect(excelDate("2026-11-02")).toBe(46328);
    expect(sheet.A2.z).toBe("dd/mm/yyyy");
    expect(sheet.B2.z).toBe("hh:mm");
    expect(sheet.D2.z).toBe("#,##0");
    expect(sheet.E2.z).toBe('"S/ "#,##0.00;-"S/ "#,##0.00');
    expect(sheet.E2.t).toBe("n");
    expect(XLSX.SSF.format(sheet.A2.z as string, 46328)).toBe("02/11/2026");
    expect(XLSX.SSF.format(sheet.B2.z as string, excelTime(30 * 60))).toBe("00:30");
    expect(XLSX.SSF.format(sheet.E2.z as string, sheet.E2.v as number)).toBe("S/ 12.34");
    expect(sheet["!cols"]?.map((c) => c.width)).toEqual([11, 7, 30, 9, 12]);

    const xml = part(path, "xl/worksheets/sheet1.xml");
    expect(xml).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    // The header and the totals row are bold (styles 1, 6 and 7), the body plain; a cell names its place only
    // after an empty one.
    expect(xml).toContain('<row r="1"><c s="1" t="s"><v>0</v></c>');
    expect(xml).toContain('<c r="D4" s="6"><v>3</v></c><c s="7"><v>12.39</v></c></row>');
    expect(part(path, "xl/styles.xml")).toContain("<b/>");
  });

  test("a note above the header: rows in the columns' formats, the header and the note kept in view", () => {
    const path = newPath();
    const book = openXlsxStream(path);
    book.startSheet(
      "Valorización",
      [
        { header: "Subcontrata", width: 20 },
        { header: "Comidas", width: 9, format: "integer" },
        { header: "Total", width: 12, format: "money" },
      ],
      { preamble: [{ cells: ["Solo crédito"], bold: true }, { cells: ["Crédito", 5, 73] }, { cells: [] }] },
    );
    book.row(["Contrata Uno", 5, 73]);
    book.close();
    const sheet = readBack(path).Sheets["Valorización"];
    expect(XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, blankrows: true })).toEqual([
      ["Solo crédito"],
      ["Crédito", 5, 73],
      [],
      ["Subcontrata", "Comidas", "Total"],
      ["Contrata Uno", 5, 73],
    ]);
    expect(sheet.C2.z).toBe('"S/ "#,##0.00;-"S/ "#,##0.00');
    const xml = part(path, "xl/worksheets/sheet1.xml");
    expect(xml).toContain('<pane ySplit="4" topLeftCell="A5" activePane="bottomLeft" state="frozen"/>');
    expect(xml).toContain('<row r="1"><c s="1" t="s">');
  });

  test("repeated text is written once in the shared-string table; a column of unique text keeps it in its cells", () => {
    const path = newPath();
    const book = openXlsxStream(path);
    book.startSheet("S", [
      { header: "Comedor", width: 20 },
      { header: "Ticket", width: 15, unique: true },
    ]);
    for (let i = 1; i <= 50; i++)
      book.row([i % 2 ? "Comedor Norte" : "Comedor Sur", `T001-${String(i).padStart(8, "0")}`]);
    book.close();
    const strings = part(path, "xl/sharedStrings.xml");
    // The first header and the two cafes (the ticket column's header is in its cell too).
    expect(strings.match(/<si>/g)?.length).toBe(3);
    expect(strings).toContain('count="51" uniqueCount="3"');
    expect(part(path, "xl/worksheets/sheet1.xml")).toContain(
      '<row r="2"><c t="s"><v>1</v></c><c t="inlineStr"><is><t>T001-00000001</t></is></c></row>',
    );
    const rows = XLSX.utils.sheet_to_json<string[]>(readBack(path).Sheets.S, { header: 1 });
    expect(rows[50]).toEqual(["Comedor Sur", "T001-00000050"]);
  });

  test("text is never a formula: formula-looking text is neutralised, markup escaped, XML-invalid characters dropped", () => {
    const path = newPath();
    const book = openXlsxStream(path);
    book.startSheet("X", [{ header: "Texto", width: 20 }]);
    for (const text of [
      '=HYPERLINK("http://x")',
      "+51 999",
      "@SUM(A1)",
      "<b>&amp;</b>",
      "nul\u0000bell\u0007 fin",
      "tab\tok",
    ])
      book.row([text]);
    book.close();
    const sheet = readBack(path).Sheets.X;
    const values = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 }).map((r) => r[0]);
    expect(values).toEqual([
      "Texto",
      '\'=HYPERLINK("http://x")',
      "'+51 999",
      "'@SUM(A1)",
      "<b>&amp;</b>",
      "nulbell fin",
      "tab\tok",
    ]);
    for (const address of ["A2", "A3", "A4"]) {
      expect(sheet[address].t).toBe("s");
      expect(sheet[address].f).toBeUndefined();
    }
    expect(part(path, "xl/worksheets/sheet1.xml")).not.toContain("<f>");
    expect(part(path, "xl/sharedStrings.xml")).toContain("<t>&lt;b&gt;&amp;amp;&lt;/b&gt;</t>");
  });

  test("formulaText quote-prefix: formula-looking text reads as typed, in cells marked as text, never a formula", () => {
    const path = newPath();
    const book = openXlsxStream(path, { formulaText: "quote-prefix" });
    book.startSheet("X", [
      { header: "Texto", width: 20 },
      { header: "Único", width: 20, unique: true },
    ]);
    book.row(["+51 987 654 321", "=1+2"]);
    book.row(["987654321", "@SUM(A1)"]);
    book.row(["-5 %", "Mina Norte"], { bold: true });
    book.close();
    const sheet = readBack(path).Sheets.X;
    const values = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 });
    expect(values).toEqual([
      ["Texto", "Único"],
      ["+51 987 654 321", "=1+2"],
      ["987654321", "@SUM(A1)"],
      ["-5 %", "Mina Norte"],
    ]);
    for (const address of ["A2", "B2", "A3", "B3", "A4"]) {
      expect(sheet[address].t).toBe("s");
      expect(sheet[address].f).toBeUndefined();
    }
    const xml = part(path, "xl/worksheets/sheet1.xml");
    expect(xml).not.toContain("<f>");
    const cells = [...xml.matchAll(/<row r="(\d+)">(.*?)<\/row>/g)].map(([, , row]) =>
      [...row.matchAll(/<c([^>]*)>/g)].map((m) => /s="(\d+)"/.exec(m[1])?.[1] ?? "0"),
    );
    // Row 2: both quote-prefixed; row 3: plain digits, then quote-prefixed; row 4 (bold): quote-prefixed bold, bold.
    expect(cells.slice(1)).toEqual([
      ["10", "10"],
      ["0", "10"],
      ["11", "1"],
    ]);
    expect(part(path, "xl/styles.xml")).toContain(
      '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>',
    );
    expect(part(path, "xl/sharedStrings.xml")).not.toContain("'");
  });

  test("many rows are written in pieces and read back whole, in order", () => {
    const path = newPath();
    const book = openXlsxStream(path, { level: 1 });
    book.startSheet("Filas", [
      { header: "N", width: 8, format: "integer" },
      { header: "Nombre", width: 20 },
      { header: "Monto", width: 10, format: "money" },
    ]);
    const rows = 30_000; // megabytes of XML: many deflated pieces joined into one stream
    let cents = 0;
    for (let i = 1; i <= rows; i++) {
      book.row([i, `Comensal ${i} ñ`, (i % 9999) / 100]);
      cents += i % 9999;
    }
    book.close();
    const data = XLSX.utils.sheet_to_json<(string | number)[]>(readBack(path).Sheets.Filas, { header: 1 });
    expect(data.length).toBe(rows + 1);
    expect(data[rows]).toEqual([rows, `Comensal ${rows} ñ`, (rows % 9999) / 100]);
    expect(data.slice(1).every((r, i) => r[0] === i + 1)).toBe(true);
    expect(data.slice(1).reduce((sum, r) => sum + Math.round((r[2] as number) * 100), 0)).toBe(cents);
  });

  test("sheet names are made valid and unique; a sheet refuses rows past the format's limit", () => {
    const path = newPath();
    const book = openXlsxStream(path);
    expect(book.startSheet("Ventas: 2026/11 [todo]", [{ header: "A", width: 5 }])).toBe("Ventas- 2026-11 -todo-");
    expect(book.startSheet("Detalle", [{ header: "A", width: 5 }])).toBe("Detalle");
    expect(book.startSheet("detalle", [{ header: "A", width: 5 }])).toBe("detalle (2)");
    expect(book.startSheet("A very long sheet name that goes on and on", [{ header: "A", width: 5 }])).toBe(
      "A very long sheet name that goe",
    );
    book.close();
    expect(readBack(path).SheetNames).toEqual([
      "Ventas- 2026-11 -todo-",
      "Detalle",
      "detalle (2)",
      "A very long sheet name that goe",
    ]);
    expect(XLSX_MAX_ROWS).toBe(1_048_576);
  });

  test("an aborted workbook leaves no file", () => {
    const path = newPath();
    const book = openXlsxStream(path);
    book.startSheet("A", [{ header: "A", width: 5 }]);
    book.row(["x"]);
    book.abort();
    expect(() => statSync(path)).toThrow();
  });

  test("helpers: column letters, Excel dates, XML text", () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702, 16383].map(columnLetters)).toEqual([
      "A",
      "Z",
      "AA",
      "AB",
      "AZ",
      "BA",
      "ZZ",
      "AAA",
      "XFD",
    ]);
    expect(excelDate("1900-03-01")).toBe(61);
    expect(excelDate("2026-01-01")).toBe(46023);
    expect(xmlText("a<b>&c\u0001\uD800")).toBe("a&lt;b&gt;&amp;c");
    expect(xmlText("😀")).toBe("😀");
  });
});
