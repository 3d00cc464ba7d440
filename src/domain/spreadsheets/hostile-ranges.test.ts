/**
 * Ranges in a sheet's XML that could make SheetJS allocate far more than the file holds. SheetJS creates a cell for
 * every cell a hyperlink's `ref` covers (whatever `sheetRows` says), so a few hundred bytes could ask for all 17
 * billion cells of the grid: those cells count toward the cell budget on both paths, before any cell exists. A
 * hyperlink on one cell far below the rows read leaves SheetJS's dense rows that long, and the rows of the sheet are
 * not walked past the rows SheetJS read. Merged ranges, data validations and conditional formats are kept by SheetJS
 * as ranges (or not read at all) and cost nothing. Each read is timed and the process's peak memory sampled (the
 * parse worker is a thread of this process).
 */
import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { ValidationFailed } from "../errors";
import { DINER_INTAKE, readFirstSheet, readWorkbook, type IntakeLimits } from "./read";
import { xlsxHyperlinkCells } from "./sheet-size";
import { SHEETJS_OPTIONS } from "./sheetjs-read";
import { replaced, writtenBy, xlsxBy, zipped } from "./workbook-fixtures.test-support";

const SHEET = "xl/worksheets/sheet1.xml";
const ROWS = [
  ["DNI", "Nombres"],
  ["00123456", "Rosa"],
];

/**
 * A workbook written as Excel writes it, with `after` put after the sheet data (where Excel writes merges, links,
 * validations and conditional formats); with `aside`, a comment in the sheet data makes Mesa's own reader leave
 * the file to SheetJS.
 */
function workbookWith(after: string, aside: boolean): Uint8Array {
  const parts = replaced(writtenBy("excel", [{ name: "Comensales", rows: ROWS }]), SHEET, (xml) =>
    xml
      .replace("<sheetData>", aside ? "<sheetData><!-- nota -->" : "<sheetData>")
      .replace("</sheetData>", `</sheetData>${after}`),
  );
  return zipped(parts);
}

const hyperlinks = (...refs: string[]) =>
  `<hyperlinks>${refs.map((ref) => `<hyperlink ref="${ref}" location="'Comensales'!A1" display="Ver"/>`).join("")}</hyperlinks>`;

/** A short time limit: a read that would exhaust it is a failure here, and it bounds what a failing read costs. */
const LIMITS: IntakeLimits = { ...DINER_INTAKE, timeoutMs: 5_000 };

interface Measured {
  outcome: unknown;
  ms: number;
  /** The most the process's resident memory grew while reading, in MiB. */
  grewMiB: number;
}

/** The outcome of `work` (its value, or the `file` message it was refused with), its time and memory. */
async function measured(work: () => Promise<unknown>): Promise<Measured> {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  let outcome: unknown;
  try {
    outcome = await work();
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    outcome = error.errors.file;
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { outcome, ms: performance.now() - started, grewMiB: (peak - before) / (1024 * 1024) };
}

const firstSheet = (bytes: Uint8Array) => measured(() => readFirstSheet(bytes, "comensales.xlsx", LIMITS));
const sheetRows = (outcome: unknown) => (outcome as { sheet: { rows: unknown[][] } }).sheet.rows;
const TOO_MANY_CELLS = { key: "import.too_many_cells", params: { sheet: "Comensales", max: 3_000_000 } };

describe("a hyperlink over the whole grid", () => {
  for (const aside of [true, false])
    test(`is refused for its cells at once, read by ${aside ? "SheetJS" : "Mesa's own reader"}`, async () => {
      const bytes = workbookWith(hyperlinks("A1:XFD1048576"), aside);
      expect(bytes.length).toBeLessThan(10_000);
      const { outcome, ms, grewMiB } = await firstSheet(bytes);
      expect(outcome).toEqual(TOO_MANY_CELLS);
      expect(ms).toBeLessThan(2_000);
      expect(grewMiB).toBeLessThan(200);
    });

  test("is refused by readWorkbook too, naming the part", async () => {
    const bytes = workbookWith(hyperlinks("A1:XFD1048576"), false);
    const { outcome, ms, grewMiB } = await measured(() => readWorkbook(bytes, { timeoutMs: 5_000 }));
    expect(outcome).toEqual({ key: "import.too_many_cells", params: { sheet: SHEET, max: 3_000_000 } });
    expect(ms).toBeLessThan(2_000);
    expect(grewMiB).toBeLessThan(200);
  });

  test("counts with the sheet's cells: many small links add up, a few ordinary ones cost nothing", async () => {
    // 1,000 links of 3,000 cells each: no one is large, together they pass the budget.
    const many = Array.from({ length: 1_001 }, (_, i) => `A${i * 3_000 + 1}:A${(i + 1) * 3_000}`);
    expect((await firstSheet(workbookWith(hyperlinks(...many), true))).outcome).toEqual(TOO_MANY_CELLS);
    for (const aside of [true, false]) {
      const { outcome } = await firstSheet(workbookWith(hyperlinks("A1", "B2", "A1:B2"), aside));
      expect(sheetRows(outcome)).toEqual(ROWS);
    }
  });
});

test("a hyperlink on one cell far below the rows read neither lengthens the read nor fills the memory", async () => {
  const { outcome, ms, grewMiB } = await firstSheet(workbookWith(hyperlinks("A20000000"), true));
  expect(sheetRows(outcome)).toEqual(ROWS);
  expect(ms).toBeLessThan(2_000);
  expect(grewMiB).toBeLessThan(200);
});

describe("ranges SheetJS keeps as ranges or does not read", () => {
  const whole = "A1:XFD1048576";
  const cases: [string, string][] = [
    ["a merged range", `<mergeCells count="1"><mergeCell ref="${whole}"/></mergeCells>`],
    [
      "a data validation",
      `<dataValidations count="1"><dataValidation type="list" sqref="${whole}"><formula1>"DNI,CE"</formula1></dataValidation></dataValidations>`,
    ],
    [
      "a conditional format",
      `<conditionalFormatting sqref="${whole}"><cfRule type="containsBlanks" dxfId="0" priority="1"><formula>LEN(TRIM(A1))=0</formula></cfRule></conditionalFormatting>`,
    ],
  ];
  for (const [name, xml] of cases)
    test(`${name} over the whole grid costs nothing on either path`, async () => {
      for (const aside of [true, false]) {
        const { outcome, ms, grewMiB } = await firstSheet(workbookWith(xml, aside));
        expect(sheetRows(outcome)).toEqual(ROWS);
        expect(ms).toBeLessThan(2_000);
        expect(grewMiB).toBeLessThan(200);
      }
      const { outcome } = await measured(() => readWorkbook(workbookWith(xml, false)));
      expect((outcome as { rows: unknown[][] }[])[0].rows).toEqual(ROWS);
    });

  test("a merged title, as the fixtures write it, reads as before", async () => {
    const bytes = xlsxBy("excel", [{ name: "Comensales", rows: ROWS, merges: ["A1:B1"] }]);
    expect(sheetRows((await firstSheet(bytes)).outcome)).toEqual(ROWS);
  });
});

describe("the cells counted for hyperlinks", () => {
  /** The cells SheetJS makes for `links` (a sheet of them alone, read with Mesa's options): those with a link. */
  function sheetJSCells(links: string): number {
    const bytes = workbookWith(links, true);
    const book = XLSX.read(bytes, { ...SHEETJS_OPTIONS, sheetRows: 100 });
    const data = book.Sheets.Comensales["!data"] ?? [];
    return Object.values(data).reduce((total, row) => total + Object.values(row ?? []).filter((c) => c.l).length, 0);
  }

  test("are never fewer than SheetJS makes, however the tag is written", () => {
    const tags = [
      '<hyperlink ref="B2:D5" location="A1"/>',
      // Prefixed, unquoted, spaced, in other cases or with a suffix: SheetJS still reads a `ref`.
      '<x:hyperlink x:ref="A1:C3" location="A1"/>',
      "<hyperlink ref=A1:C3 location=A1/>",
      '<hyperlink\tref = "A1:C3" location="A1"/>',
      '<hyperlink REF="A1:C3" location="A1"/>',
      '<hyperlink ref_x="A1:C3" location="A1"/>',
      "<hyperlink ref='A1:C3' location='A1'/>",
      // Beyond the rows read: SheetJS makes them all the same.
      '<hyperlink ref="A200:B300" location="A1"/>',
      // One cell, an end before its start, a range without a row.
      '<hyperlink ref="C7" location="A1"/>',
      '<hyperlink ref="C7:A1" location="A1"/>',
      '<hyperlink ref="A:C" location="A1"/>',
    ];
    for (const tag of tags) {
      const links = `<hyperlinks>${tag}</hyperlinks>`;
      expect({ tag, counted: xlsxHyperlinkCells(links) >= sheetJSCells(links) }).toEqual({ tag, counted: true });
    }
    expect(xlsxHyperlinkCells(hyperlinks("B2:D5"))).toBe(12);
    expect(xlsxHyperlinkCells(hyperlinks("A200:B300"))).toBe(202);
    expect(xlsxHyperlinkCells(hyperlinks("C7:A1"))).toBe(1);
    // Overlapping links add up (SheetJS makes the shared cells once).
    expect(xlsxHyperlinkCells(hyperlinks("A1:B2", "A1:B2"))).toBe(8);
    expect(xlsxHyperlinkCells(hyperlinks("A1:XFD1048576"))).toBe(16_384 * 1_048_576);
    // The container and other tags are no links.
    expect(xlsxHyperlinkCells('<hyperlinks count="1"></hyperlinks><hyperlinkx ref="A1:Z9"/>')).toBe(0);
  });

  test("a bound no loop can count to counts as infinitely many", () => {
    expect(xlsxHyperlinkCells(hyperlinks(`A1:A${"9".repeat(20)}`))).toBe(Number.POSITIVE_INFINITY);
    expect(xlsxHyperlinkCells(hyperlinks(`A1:${"Z".repeat(20)}1`))).toBe(Number.POSITIVE_INFINITY);
    // A start past every row covers nothing, as SheetJS's loop never starts.
    expect(xlsxHyperlinkCells(`<hyperlink ref="A${"9".repeat(20)}:A1"/>`)).toBe(0);
  });
});
