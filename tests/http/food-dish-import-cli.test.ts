/**
 * `./mesa import:dishes FILE [--dry-run] [--json]`: prints which dishes and recipes the workbook would create,
 * replace or leave alone and writes it all; --dry-run writes nothing; a workbook with a bad row writes nothing and
 * prints each problem by row and column (exit code 1); the same file again changes nothing; a missing file is a usage
 * mistake.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { cliWorkspace, mesaInProcess } from "../support/cli";

function workbook(dir: string, name: string, rows: (string | number | null)[][]): string {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Recipes");
  const path = join(dir, name);
  writeFileSync(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
  return path;
}

const GOOD = [
  ["Dish", "Categories", "Level", "Yield (g)", "Ingredient", "Sub-recipe", "Quantity"],
  ["Salsa criolla", "Salsa", "Staff", 400, "Cebolla roja", null, 300],
  ["Lomo saltado", "Segundo", "Staff", null, "Cebolla roja", null, 80],
  ["Lomo saltado", "Segundo", "Staff", null, null, "Salsa criolla", 20],
  ["Lomo saltado", "Segundo", "Master", null, "Cebolla roja", null, 100],
];

function sql(ws: { dbPath: string }, run: (db: Database) => unknown) {
  const db = new Database(ws.dbPath);
  try {
    return run(db);
  } finally {
    db.close();
  }
}

const count = (ws: { dbPath: string }, table: string) =>
  sql(ws, (db) => (db.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);

describe("./mesa import:dishes", () => {
  test("--dry-run prints the plan and writes nothing; without it, it writes all; again, nothing changes", async () => {
    const ws = cliWorkspace("mesa-dish-cli-");
    expect((await mesaInProcess(ws, ["db:migrate"])).code).toBe(0);
    sql(ws, (db) => {
      const now = Date.now();
      db.run("INSERT INTO ingredient_categories (name, description) VALUES ('Verduras', '')");
      db.run(
        `INSERT INTO ingredients (name, category_id, base_unit, kcal_per_100g, solid_waste_percent, liquid_waste_percent,
           allergens, demo_values, created_at, updated_at) VALUES ('Cebolla roja', 1, 'g', 40, 10, 0, '[]', 0, ?, ?)`,
        [now, now],
      );
      db.run("INSERT INTO dish_categories (name, unit, sort_order) VALUES ('Segundo', 'g', 1), ('Salsa', 'g', 2)");
    });

    const bad = workbook(ws.dir, "bad.xlsx", [...GOOD, ["Lomo saltado", "Segundo", "Staff", null, "Ají", null, 5]]);
    const refused = await mesaInProcess(ws, ["import:dishes", bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Row 6 (Ingredient): Unknown ingredient: Ají.");
    expect(count(ws, "dishes")).toBe(0);

    const good = workbook(ws.dir, "good.xlsx", GOOD);
    const dry = await mesaInProcess(ws, ["import:dishes", good, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("2 new dishes");
    expect(dry.out).toContain("3 new recipes");
    expect(count(ws, "dishes")).toBe(0);

    const done = await mesaInProcess(ws, ["import:dishes", good, "--json"]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toEqual({
      status: "imported",
      rows: 4,
      dishesCreated: 2,
      dishesUpdated: 0,
      dishesUnchanged: 0,
      recipesCreated: 3,
      recipesReplaced: 0,
      recipesUnchanged: 0,
      problems: [],
      moreProblems: 0,
    });
    expect([count(ws, "dishes"), count(ws, "recipes"), count(ws, "recipe_lines")]).toEqual([2, 3, 4]);
    const again = await mesaInProcess(ws, ["import:dishes", good]);
    expect(again.out).toContain("2 dishes unchanged");
    expect(again.out).toContain("3 recipes unchanged");
    expect(again.out).toContain("0 changes written.");

    const json = await mesaInProcess(ws, ["import:dishes", bad, "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({
      status: "refused",
      problems: [{ row: 6, column: "Ingredient", message: "Unknown ingredient: Ají." }],
    });
    const missing = await mesaInProcess(ws, ["import:dishes", join(ws.dir, "nowhere.xlsx")]);
    expect(missing.code).toBe(2);
  });
});
