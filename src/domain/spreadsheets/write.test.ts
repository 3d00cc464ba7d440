import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { buildWorkbook, neutraliseFormula } from "./write";

describe("Excel export", () => {
  test("writes a header and one row per record, numbers as numbers", () => {
    const bytes = buildWorkbook([
      {
        name: "Comedores",
        columns: [
          { header: "Nombre", value: (r: { name: string; price: number }) => r.name },
          { header: "Precio", value: (r) => r.price, format: "0.00" },
        ],
        rows: [{ name: "Comedor Principal", price: 12.5 }],
      },
    ]);
    const book = XLSX.read(bytes, { type: "array", cellNF: true });
    expect(book.SheetNames).toEqual(["Comedores"]);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Comedores, { header: 1 });
    expect(rows).toEqual([
      ["Nombre", "Precio"],
      ["Comedor Principal", 12.5],
    ]);
    expect(book.Sheets.Comedores.B2.z).toBe("0.00");
  });

  test("text that looks like a formula is neutralised", () => {
    expect(neutraliseFormula('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(neutraliseFormula("+51 999")).toBe("'+51 999");
    expect(neutraliseFormula("-1")).toBe("'-1");
    expect(neutraliseFormula("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(neutraliseFormula("Mina Norte")).toBe("Mina Norte");
    const bytes = buildWorkbook([
      { name: "X", columns: [{ header: "Name", value: (r: string) => r }], rows: ["=1+1"] },
    ]);
    const cell = XLSX.read(bytes, { type: "array" }).Sheets.X.A2;
    expect(cell.t).toBe("s");
    expect(cell.f).toBeUndefined();
    expect(cell.v).toBe("'=1+1");
  });
});
