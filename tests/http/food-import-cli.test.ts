/**
 * `./mesa import:ingredients FILE [--dry-run] [--json]`: prints what the workbook would create, change or leave alone
 * and writes it all; --dry-run writes nothing; a workbook with a bad row writes nothing and prints each problem by
 * row and column (exit code 1); a file that is not a workbook is refused; a missing file is a usage mistake.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { cliWorkspace, mesaInProcess } from "../support/cli";

function workbook(dir: string, name: string, rows: (string | number | null)[][]): string {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Insumos");
  const path = join(dir, name);
  writeFileSync(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
  return path;
}

const GOOD = [
  ["Name", "Category", "Base unit", "Unit weight (g)", "Kcal per 100 g", "Protein (g)", "Allergens"],
  ["Arroz pilado", "Cereales", "g", null, 358, 7.8, ""],
  ["Huevo de gallina", "Huevos", "unit", 50, 143, 12.6, "eggs"],
];

const count = (ws: { dbPath: string }, table: string) => {
  const db = new Database(ws.dbPath);
  try {
    return (db.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("./mesa import:ingredients", () => {
  test("--dry-run prints the plan and writes nothing; without it, it writes all; again, nothing changes", async () => {
    const ws = cliWorkspace("mesa-food-cli-");
    expect((await mesaInProcess(ws, ["db:migrate"])).code).toBe(0);
    // A missing unit weight: nothing is written, the problem says where.
    const bad = workbook(ws.dir, "bad.xlsx", [...GOOD, ["Pan francés", "Panes", "unit", null, 280, 8.4, ""]]);
    const refused = await mesaInProcess(ws, ["import:ingredients", bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Row 4 (Unit weight (g)): This field is required.");
    expect(count(ws, "ingredients")).toBe(0);

    const good = workbook(ws.dir, "good.xlsx", GOOD);
    const dry = await mesaInProcess(ws, ["import:ingredients", good, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("2 new ingredients");
    expect(dry.out).toContain("2 new categories: Cereales, Huevos");
    expect(count(ws, "ingredients")).toBe(0);

    const done = await mesaInProcess(ws, ["import:ingredients", good, "--json"]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toEqual({
      status: "imported",
      rows: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      newCategories: ["Cereales", "Huevos"],
      problems: [],
      moreProblems: 0,
    });
    expect(count(ws, "ingredients")).toBe(2);
    const again = await mesaInProcess(ws, ["import:ingredients", good]);
    expect(again.out).toContain("2 ingredients unchanged");
    expect(again.out).toContain("0 ingredients imported.");

    const json = await mesaInProcess(ws, ["import:ingredients", bad, "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({
      status: "refused",
      problems: [{ row: 4, column: "Unit weight (g)", message: "This field is required." }],
    });
  });

  test("a .csv file imports the same way; a file that is no spreadsheet is refused; a missing one is a usage mistake", async () => {
    const ws = cliWorkspace("mesa-food-cli-");
    const csv = join(ws.dir, "insumos.csv");
    writeFileSync(csv, 'Nombre,Categoría,Unidad base,Kcal por 100 g,Hierro (mg)\nQuinua,Cereales,g,343,"7,5"\n');
    const done = await mesaInProcess(ws, ["import:ingredients", csv, "--json"]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ status: "imported", created: 1, newCategories: ["Cereales"] });
    const db = new Database(ws.dbPath);
    expect(db.query("SELECT name, iron_mg AS iron FROM ingredients").all()).toEqual([{ name: "Quinua", iron: 7.5 }]);
    db.close();

    const junk = join(ws.dir, "foto.xlsx");
    writeFileSync(
      junk,
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
    );
    const refused = await mesaInProcess(ws, ["import:ingredients", junk]);
    expect(refused.code).toBe(1);
    expect(refused.err.trim().length).toBeGreaterThan(0);
    expect(count(ws, "ingredients")).toBe(1);
    expect((await mesaInProcess(ws, ["import:ingredients", join(ws.dir, "none.xlsx")])).code).toBe(2);
  });
});
