/**
 * Measures the dishes workbook at its limit (not a test): 20,000 rows — 2,000 dishes of 10 lines for one level, each
 * dish but the first using the one before as a sub-recipe, the longest chain the cycle check can meet — written as an
 * .xlsx, read through the intake, previewed, imported into a SQLite file, previewed again (everything unchanged), and
 * exported; next to a bare prepared insert of the same 20,000 lines in the same run, to tell a slow machine from a
 * slow import. For the preview and the import it prints the event loop's longest stall too (a 1 ms timer's longest
 * gap): the server's other requests wait at most that long while a dishes import runs in its process.
 * Run: `node_modules/.bin/bun src/domain/food/dish-import.measure.ts [dishes]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dishCategories } from "../../../db/schema";
import { migrateDatabase, openDatabase } from "../../db";
import { CLI_ACTOR } from "../audit";
import { buildWorkbook } from "../spreadsheets/write";
import { createCategory } from "./categories";
import { dishesWorkbook, dishSheet, type DishSheetRow } from "./dish-export";
import { importDishes, previewDishImport, readDishSheet } from "./dish-import";
import { createIngredient } from "./ingredients";

const DISHES = Number(process.argv[2] ?? 2000);
const LINES = 10;
const dir = mkdtempSync(join(tmpdir(), "mesa-dish-import-"));

try {
  const db = openDatabase(join(dir, "dishes.sqlite"));
  migrateDatabase(db);
  const category = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  for (let i = 0; i < 200; i++)
    createIngredient(db, CLI_ACTOR, { name: `Insumo ${i}`, category_id: category.id, base_unit: "g", kcal: 100 });
  db.insert(dishCategories).values({ name: "Segundo", unit: "g" }).run();
  const rows: DishSheetRow[] = [];
  for (let d = 0; d < DISHES; d++)
    for (let l = 0; l < LINES; l++) {
      const sub = d > 0 && l === LINES - 1;
      rows.push({
        dish: `Plato ${d}`,
        categories: "Segundo",
        description: "",
        level: "Staff",
        yield_g: null,
        ingredient: sub ? null : `Insumo ${(d * 7 + l) % 200}`,
        sub_recipe: sub ? `Plato ${d - 1}` : null,
        quantity: 10 + l,
        offer: null,
      });
    }
  const time = <T>(label: string, work: () => T): T => {
    const started = performance.now();
    const result = work();
    console.log(`${label}: ${Math.round(performance.now() - started)} ms`);
    return result;
  };
  /** Runs `work` with a 1 ms timer beside it: its time and the timer's longest wait, the event loop's longest stall. */
  const watch = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const result = await work();
    const took = performance.now() - started;
    clearInterval(timer);
    longest = Math.max(longest, performance.now() - last);
    console.log(`${label}: ${Math.round(took)} ms, event loop's longest stall ${Math.round(longest)} ms`);
    return result;
  };
  const bytes = buildWorkbook([dishSheet("es", rows)]);
  console.log(`${rows.length} rows, ${(bytes.length / 1024 / 1024).toFixed(2)} MiB`);
  let started = performance.now();
  const sheet = await readDishSheet(bytes, "platos.xlsx");
  console.log(`read through the intake: ${Math.round(performance.now() - started)} ms`);
  const plan = await watch("preview", () => previewDishImport(db, sheet));
  if (plan.problems.length) throw new Error(JSON.stringify(plan.problems.slice(0, 3)));
  let chunks = 0;
  await watch("import (plans again, stages in chunks, publishes)", () =>
    importDishes(db, CLI_ACTOR, sheet, {
      fingerprint: plan.fingerprint,
      onProgress: (step) => {
        if (step === "saving") chunks++;
      },
    }),
  );
  console.log(`  staged in ${chunks} chunks`);
  const again = await watch("preview of the same file", () => previewDishImport(db, sheet));
  console.log(`  unchanged: ${again.counts.dishesUnchanged} dishes, ${again.counts.recipesUnchanged} recipes`);
  const exported = time("export", () => buildWorkbook(dishesWorkbook(db, "es")));
  started = performance.now();
  const back = await previewDishImport(db, await readDishSheet(exported, "export.xlsx"));
  console.log(
    `export read back and previewed: ${Math.round(performance.now() - started)} ms, ` +
      `${back.counts.recipesUnchanged} recipes unchanged`,
  );
  // The floor: the same number of lines through one bare prepared insert, in the same run.
  db.$client.run("CREATE TABLE bare_lines (recipe_id INTEGER, position INTEGER, ingredient_id INTEGER, quantity REAL)");
  const insert = db.$client.prepare("INSERT INTO bare_lines VALUES (?, ?, ?, ?)");
  time("bare prepared insert of the same lines", () =>
    db.$client.transaction(() => {
      for (let i = 0; i < rows.length; i++) insert.run(Math.floor(i / LINES), i % LINES, 1, 10);
    })(),
  );
  db.$client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
