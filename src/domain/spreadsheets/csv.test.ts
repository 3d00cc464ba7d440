/**
 * The CSV reader: RFC 4180 fields, the three line endings, the separator of the header line, one row per record
 * (blank ones kept for the numbering), the column and row limits, and 100,000 rows of 8 columns in well under a
 * second.
 */
import { describe, expect, test } from "bun:test";
import { ValidationFailed } from "../errors";
import { detectSeparator, parseCsv } from "./csv";

const options = { maxRows: 1000, maxColumns: 64, sheet: "comensales", maxReported: 999 };
const rows = (text: string, more: Partial<typeof options> = {}) => parseCsv(text, { ...options, ...more }).rows;

function refusal(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.file;
  }
  throw new Error("not refused");
}

describe("reading CSV", () => {
  test("CRLF, LF and a lone CR all end a record; the last record needs no line end", () => {
    expect(rows("a,b\r\n1,2\n3,4\r5,6")).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
      ["5", "6"],
    ]);
  });

  test("quoted fields hold separators, line breaks and doubled quotes; text after a closing quote is kept", () => {
    expect(rows('a,"b,c","d\r\ne","f""g",""\n"x"y,z')).toEqual([
      ["a", "b,c", "d\r\ne", 'f"g', null],
      ["xy", "z", null, null, null],
    ]);
  });

  test("empty fields are null, a separator at the end adds one, short rows are filled to the widest", () => {
    expect(rows("a,,c,\n1\n")).toEqual([
      ["a", null, "c", null],
      ["1", null, null, null],
    ]);
  });

  test("spaces are kept as written (the import trims)", () => {
    expect(rows(" a , b\n")).toEqual([[" a ", " b"]]);
  });

  test("the separator is the commonest of comma, semicolon and tab on the header line, outside quotes", () => {
    expect(String.fromCharCode(detectSeparator("a;b;c,d\n1,2,3,4,5"))).toBe(";");
    expect(String.fromCharCode(detectSeparator('"a,b,c";d;e\n'))).toBe(";");
    expect(String.fromCharCode(detectSeparator("a\tb\n"))).toBe("\t");
    expect(String.fromCharCode(detectSeparator("nombre\n"))).toBe(",");
    // Blank lines before the header do not decide it.
    expect(rows("\n\na;b\n1;2")).toEqual([
      [null, null],
      [null, null],
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  test("cells past maxColumns are dropped", () => {
    expect(rows("a,b,c,d\n1,2,3,4", { maxColumns: 2 })).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  test("a record with a value past maxRows is refused at once; blank lines past it are not records", () => {
    expect(rows("a\n1\n2\n\n\n", { maxRows: 3 })).toEqual([["a"], ["1"], ["2"]]);
    expect(refusal(() => rows("a\n1\n2\n3\n" + "4\n".repeat(1_000_000), { maxRows: 3 }))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "comensales", max: 999 },
    });
  });

  test("a quote that never closes names the row it opens on", () => {
    expect(refusal(() => rows('a,b\n1,2\n\n3,"4\n5,6\n'))).toEqual({
      key: "import.csv_unclosed_quote",
      params: { row: 4 },
    });
  });

  test("100,000 rows of 8 columns, some quoted, parse in well under a second", () => {
    const lines = ["Tipo,DNI,Apellidos,Nombres,Celular,Subcontrata,Comedor,Nivel"];
    for (let i = 0; i < 100_000; i++)
      lines.push(
        `DNI,${String(i).padStart(8, "0")},"Quispe, Mamani ${i % 977}",Rosa ${i % 1013},9${String(i).padStart(8, "0")},Subcontrata ${i % 40},Comedor ${i % 12},${i % 3}`,
      );
    const text = lines.join("\r\n");
    rows(text.slice(0, 10_000), { maxRows: 200_000 });
    const started = performance.now();
    const read = rows(text, { maxRows: 200_000 });
    const elapsed = performance.now() - started;
    expect(read.length).toBe(100_001);
    const last = 99_999;
    expect(read[100_000]).toEqual([
      "DNI",
      "00099999",
      `Quispe, Mamani ${last % 977}`,
      `Rosa ${last % 1013}`,
      "900099999",
      "Subcontrata 39",
      "Comedor 3",
      "0",
    ]);
    // About 0.1 s on an idle 2-core machine; the bound leaves room for a busy one, and fails a quadratic parser.
    expect(elapsed).toBeLessThan(1000);
  });
});
