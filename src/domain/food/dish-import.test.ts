/**
 * The dishes workbook: headers in Spanish or English in any order, one recipe line per row, the rows of a dish and
 * level replacing that recipe whole; every row checked before anything is written (unknown category, level,
 * ingredient, offer or sub-recipe, bad numbers, a dish written two ways, a repeated line, a sub-recipe cycle), by row
 * and column; what it would create, change or leave alone; a fingerprint that refuses a plan the catalogue no longer
 * matches; the same file twice changes nothing; and an export that imports back unchanged. The writes are staged in
 * chunks and published at once: between chunks nothing of the import is seen, a change of the catalogue meanwhile
 * is caught, and a writer killed mid-way leaves nothing but staging that recovery deletes.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { eq } from "drizzle-orm";
import {
  auditLog,
  cities,
  dishCategories,
  dishCategoryLinks,
  dishes,
  offers,
  providers,
  recipeLines,
  recipes,
} from "../../../db/schema";
import { migrateDatabase, openDatabase } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { buildWorkbook } from "../spreadsheets/write";
import type { SheetRows } from "../spreadsheets/read";
import { createCategory } from "./categories";
import { createIngredient, updateIngredient } from "./ingredients";
import { dishesTemplate, dishesWorkbook } from "./dish-export";
import { recoverDishImports, RUN_LEASE_MS } from "./dish-import-staging";
import { listDishes } from "./dishes";
import { ImportRefused, PlanChanged } from "../imports/engine";
import {
  describeDishProblem,
  importDishes,
  previewDishImport,
  readDishSheet,
  type DishImportPlan,
} from "./dish-import";

type Cell = string | number | null;
const sheet = (rows: Cell[][]): SheetRows => ({ name: "Recetas", firstRow: 1, rows });

function world() {
  const db = migratedDatabase();
  const now = new Date("2026-11-01T12:00:00Z");
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: cereals.id,
    base_unit: "g",
    kcal: 358,
  });
  const chicken = createIngredient(db, CLI_ACTOR, {
    name: "Pollo",
    category_id: cereals.id,
    base_unit: "g",
    kcal: 215,
  });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite vegetal",
    category_id: cereals.id,
    base_unit: "ml",
    density: 0.92,
    kcal: 884,
  });
  const lima = db.insert(cities).values({ name: "Lima" }).returning().get();
  const provider = db
    .insert(providers)
    .values({ name: "Molinos del Norte", ruc: "20100047218", createdAt: now, updatedAt: now })
    .returning()
    .get();
  const sack = db
    .insert(offers)
    .values({
      providerId: provider.id,
      ingredientId: rice.id,
      cityId: lima.id,
      presentation: "Saco 50 kg",
      quantity: 50000,
      priceCents: 17700,
      priceIncludesIgv: true,
      priceChangedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  const [main, sauce] = db
    .insert(dishCategories)
    .values([
      { name: "Segundo", unit: "g", sortOrder: 1 },
      { name: "Salsa", unit: "g", sortOrder: 2 },
    ])
    .returning()
    .all();
  return { db, rice, chicken, oil, sack, main, sauce };
}

const HEADER: Cell[] = [
  "Plato",
  "Categorías",
  "Descripción",
  "Nivel",
  "Rendimiento (g)",
  "Insumo",
  "Subreceta",
  "Cantidad",
  "Oferta fijada",
];

/** Arroz con pollo for two levels (one line with the sauce as a sub-recipe and one pinned offer), and the sauce. */
const GOOD: Cell[][] = [
  HEADER,
  ["Salsa criolla", "Salsa", "", "Staff", 500, "Aceite vegetal", null, 100, null],
  [
    "Arroz con pollo",
    "Segundo",
    "Con culantro",
    "Staff",
    null,
    "Arroz pilado",
    null,
    120,
    "Molinos del Norte · Saco 50 kg · Lima",
  ],
  ["Arroz con pollo", "Segundo", "", "Staff", null, "Pollo", null, "180,5", null],
  ["Arroz con pollo", "", "", "Staff", null, null, "Salsa criolla", 30, null],
  ["Arroz con pollo", "Segundo", "Con culantro", "Master", null, "Arroz pilado", null, 150, null],
];

const names = (db: ReturnType<typeof world>["db"]) =>
  db
    .select()
    .from(dishes)
    .all()
    .map((d) => d.name);

describe("the dishes workbook", () => {
  test("creates dishes and their recipes, with sub-recipes of the file and pinned offers; twice changes nothing", async () => {
    const w = world();
    const plan = await previewDishImport(w.db, sheet(GOOD));
    expect(plan.problems).toEqual([]);
    expect([plan.rows, plan.counts]).toEqual([
      5,
      {
        dishesCreated: 2,
        dishesUpdated: 0,
        dishesUnchanged: 0,
        recipesCreated: 3,
        recipesReplaced: 0,
        recipesUnchanged: 0,
      },
    ]);
    expect(names(w.db)).toEqual([]);
    const written = await importDishes(w.db, CLI_ACTOR, sheet(GOOD), { fingerprint: plan.fingerprint });
    expect(written.counts).toEqual(plan.counts);
    expect(names(w.db)).toEqual(["Salsa criolla", "Arroz con pollo"]);
    const arroz = w.db.select().from(dishes).where(eq(dishes.name, "Arroz con pollo")).get()!;
    const salsa = w.db.select().from(dishes).where(eq(dishes.name, "Salsa criolla")).get()!;
    expect(arroz.description).toBe("Con culantro");
    expect(w.db.select().from(dishCategoryLinks).where(eq(dishCategoryLinks.dishId, arroz.id)).all()).toEqual([
      { dishId: arroz.id, categoryId: w.main.id },
    ]);
    const staff = w.db.select().from(recipes).where(eq(recipes.dishId, arroz.id)).all();
    expect(staff).toHaveLength(2);
    const staffRecipe = staff.find((r) => r.levelId === 2)!;
    expect(
      w.db
        .select()
        .from(recipeLines)
        .where(eq(recipeLines.recipeId, staffRecipe.id))
        .orderBy(recipeLines.position)
        .all()
        .map((l) => [l.ingredientId, l.subDishId, l.quantity, l.offerId]),
    ).toEqual([
      [w.rice.id, null, 120, w.sack.id],
      [w.chicken.id, null, 180.5, null],
      [null, salsa.id, 30, null],
    ]);
    expect(w.db.select().from(recipes).where(eq(recipes.dishId, salsa.id)).get()!.yieldGrams).toBe(500);
    // Each dish and recipe write is audited.
    const actions = w.db
      .select()
      .from(auditLog)
      .all()
      .map((a) => a.action)
      .filter((a) => a.startsWith("dish.") || a.startsWith("recipe."));
    expect(actions.sort()).toEqual(["dish.created", "dish.created", "recipe.saved", "recipe.saved", "recipe.saved"]);

    // The same file again: nothing to write.
    const again = await importDishes(w.db, CLI_ACTOR, sheet(GOOD));
    expect(again.counts).toEqual({
      dishesCreated: 0,
      dishesUpdated: 0,
      dishesUnchanged: 2,
      recipesCreated: 0,
      recipesReplaced: 0,
      recipesUnchanged: 3,
    });
    expect(
      w.db
        .select()
        .from(auditLog)
        .all()
        .filter((a) => a.action.startsWith("recipe.")),
    ).toHaveLength(3);

    // A changed quantity replaces that recipe whole; the other level and the other dish are left alone.
    const changed = GOOD.map((row) => [...row]);
    changed[3][7] = 200;
    changed.splice(4, 1);
    expect((await previewDishImport(w.db, sheet(changed))).counts).toEqual({
      dishesCreated: 0,
      dishesUpdated: 0,
      dishesUnchanged: 2,
      recipesCreated: 0,
      recipesReplaced: 1,
      recipesUnchanged: 2,
    });
    await importDishes(w.db, CLI_ACTOR, sheet(changed));
    expect(
      w.db
        .select()
        .from(recipeLines)
        .where(eq(recipeLines.recipeId, staffRecipe.id))
        .all()
        .map((l) => l.quantity),
    ).toEqual([120, 200]);
  });

  test("every row's problems come back by row and column, in the reader's language, and nothing is written", async () => {
    const w = world();
    const rows: Cell[][] = [
      [null],
      ["Dish", "Categories", "Level", "Ingredient", "Sub-recipe", "Quantity", "Pinned offer", "Color"],
      ["Arroz con pollo", "Segundo", "Staff", "Arroz pilado", null, 120, null, null],
    ];
    expect((await previewDishImport(w.db, sheet(rows))).problems.map((p) => describeDishProblem(p, "en"))).toEqual([
      "Row 2 (Color): Unknown column. Use the template's headers.",
    ]);
    rows[1].pop();
    rows.push(
      ["ARROZ CON POLLO", "Segundo", "Staff", "Pollo", null, 100, null],
      ["Tallarín", "Postre, Segundo", "Chef", "Papa", null, "mucho", null],
      ["Tallarín", "Segundo", "Staff", "Arroz pilado", "Arroz con pollo", -2, null],
      ["Sopa", "Segundo", "Staff", "Pollo", null, 50, null],
      ["Sopa", "Segundo", "Staff", null, "Caldo", 50, null],
      ["Sopa", "Segundo", "Staff", null, "Arroz con pollo", 50, "Molinos del Norte · Saco 50 kg · Lima"],
      ["Sopa", "Segundo", "Staff", "Pollo", null, 50, null],
      ["Sopa", "Segundo", "Staff", "Arroz pilado", null, 60, "Otro · Saco · Lima"],
      ["Sopa", "Segundo", "Staff", null, null, null, null],
      ["Guiso", "", "", null, null, null, null],
    );
    const plan = await previewDishImport(w.db, sheet(rows));
    expect(plan.problems.map((p) => describeDishProblem(p, "es"))).toEqual([
      "Fila 4 (Dish): Escrito de otra forma en la fila 3 (Arroz con pollo): escriba el plato igual en todas sus filas.",
      "Fila 5 (Categories): Categoría de plato desconocida: Postre. Créela antes en la tabla de menú.",
      "Fila 5 (Level): Nivel desconocido: Chef.",
      "Fila 5 (Ingredient): Insumo desconocido: Papa.",
      "Fila 5 (Quantity): Debe ser un número.",
      "Fila 6 (Sub-recipe): Indique un insumo o una subreceta: uno de los dos.",
      "Fila 6 (Quantity): Debe ser mayor que 0.",
      "Fila 9 (Pinned offer): Una subreceta no se compra: deje vacía la oferta fijada.",
      "Fila 10 (Ingredient): La misma línea está en la fila 7 de esta receta.",
      'Fila 11 (Pinned offer): Ninguna oferta de Arroz pilado se escribe así: use "proveedor · presentación · ciudad".',
      "Fila 12 (Ingredient): Indique un insumo o una subreceta: uno de los dos.",
      "Fila 13 (Categories): Da al plato al menos una categoría en una de sus filas.",
      "Fila 8 (Sub-recipe): Plato desconocido: Caldo. Debe estar en el catálogo o en este archivo.",
    ]);
    await expect(importDishes(w.db, CLI_ACTOR, sheet(rows))).rejects.toThrow(ImportRefused);
    expect(names(w.db)).toEqual([]);
    // A missing column, an empty sheet.
    const missing = await previewDishImport(w.db, sheet([["Plato", "Categorías", "Insumo"]]));
    expect(missing.problems.map((p) => describeDishProblem(p, "en"))).toEqual([
      "Row 1 (Level): This column is missing.",
      "Row 1 (Quantity): This column is missing.",
    ]);
    expect((await previewDishImport(w.db, sheet([]))).problems.map((p) => describeDishProblem(p, "en"))).toEqual([
      "The first sheet is empty.",
    ]);
  });

  test("a sub-recipe cycle is refused, within the file and through the catalogue", async () => {
    const w = world();
    const within: Cell[][] = [
      HEADER,
      ["Salsa A", "Salsa", "", "Staff", null, null, "Salsa B", 10, null],
      ["Salsa B", "Salsa", "", "Staff", null, null, "Salsa A", 10, null],
      ["Salsa C", "Salsa", "", "Master", null, null, "Salsa C", 10, null],
    ];
    expect((await previewDishImport(w.db, sheet(within))).problems.map((p) => describeDishProblem(p, "en"))).toEqual([
      "Row 2 (Subreceta): A dish would be made of itself: Salsa A → Salsa B → Salsa A.",
      "Row 4 (Subreceta): A dish would be made of itself: Salsa C → Salsa C.",
    ]);
    // B uses A in the catalogue (another level); a file making A of B closes the loop.
    await importDishes(w.db, CLI_ACTOR, sheet(GOOD));
    const closing: Cell[][] = [
      HEADER,
      ["Salsa criolla", "Salsa", "", "Master", null, null, "Arroz con pollo", 10, null],
    ];
    expect((await previewDishImport(w.db, sheet(closing))).problems.map((p) => describeDishProblem(p, "en"))).toEqual([
      "Row 2 (Subreceta): A dish would be made of itself: Salsa criolla → Arroz con pollo → Salsa criolla.",
    ]);
  });

  test("a plan confirmed after the catalogue changed is refused with the new plan, and nothing is written", async () => {
    const w = world();
    await importDishes(w.db, CLI_ACTOR, sheet(GOOD));
    const changed = GOOD.map((row) => [...row]);
    changed[2][7] = 125;
    const plan = await previewDishImport(w.db, sheet(changed));
    expect(plan.counts).toMatchObject({ recipesReplaced: 1, recipesUnchanged: 2 });
    // Someone saves the dish meanwhile.
    w.db
      .update(dishes)
      .set({ updatedAt: new Date(Date.now() + 1000) })
      .where(eq(dishes.name, "Arroz con pollo"))
      .run();
    let refused: PlanChanged<DishImportPlan> | null = null;
    try {
      await importDishes(w.db, CLI_ACTOR, sheet(changed), { fingerprint: plan.fingerprint });
    } catch (error) {
      refused = error as PlanChanged<DishImportPlan>;
    }
    expect(refused).toBeInstanceOf(PlanChanged);
    expect(refused!.plan.counts).toEqual(plan.counts);
    expect(
      w.db
        .select()
        .from(recipeLines)
        .all()
        .map((l) => l.quantity),
    ).not.toContain(125);
  });

  test("the export is the workbook: read back through the intake, it imports unchanged; the template is two sheets", async () => {
    const w = world();
    await importDishes(w.db, CLI_ACTOR, sheet(GOOD));
    // A dish without recipes, a name that would run as a formula, an ingredient renamed after the import.
    const now = new Date();
    const bare = w.db
      .insert(dishes)
      .values({ name: "=HYPERLINK(1)", description: "Sin receta", createdAt: now, updatedAt: now })
      .returning()
      .get();
    w.db
      .insert(dishCategoryLinks)
      .values([
        { dishId: bare.id, categoryId: w.main.id },
        { dishId: bare.id, categoryId: w.sauce.id },
      ])
      .run();
    updateIngredient(w.db, CLI_ACTOR, w.chicken.id, {
      name: "Pollo entero",
      category_id: w.rice.categoryId,
      base_unit: "g",
      kcal: 215,
    });
    for (const locale of ["es", "en"] as const) {
      const bytes = buildWorkbook(dishesWorkbook(w.db, locale));
      expect(XLSX.read(bytes, { type: "array" }).SheetNames).toHaveLength(1);
      const read = await readDishSheet(bytes, `platos-${locale}.xlsx`);
      const plan = await previewDishImport(w.db, read);
      expect(plan.problems).toEqual([]);
      expect(plan.counts).toEqual({
        dishesCreated: 0,
        dishesUpdated: 0,
        dishesUnchanged: 3,
        recipesCreated: 0,
        recipesReplaced: 0,
        recipesUnchanged: 3,
      });
    }
    const template = XLSX.read(buildWorkbook(dishesTemplate("es")), { type: "array" });
    expect(template.SheetNames).toEqual(["Recetas", "Ejemplo"]);
    const example = XLSX.utils.sheet_to_json<Cell[]>(template.Sheets.Ejemplo, { header: 1 });
    expect(example[0]).toEqual(HEADER);
    expect(example).toHaveLength(6);
  });
});

describe("levels by the names people read", () => {
  test("a built-in level is found by its Spanish name too: Obrero is Laborer", async () => {
    const w = world();
    const spanish = GOOD.map((row) => row.map((cell) => (cell === "Master" ? "Obrero" : cell)));
    const plan = await previewDishImport(w.db, sheet(spanish));
    expect(plan.problems).toEqual([]);
    expect(plan.counts.recipesCreated).toBe(3);
    await importDishes(w.db, CLI_ACTOR, sheet(spanish), { fingerprint: plan.fingerprint });
    const arroz = w.db.select().from(dishes).where(eq(dishes.name, "Arroz con pollo")).get()!;
    const levelIds = w.db
      .select()
      .from(recipes)
      .where(eq(recipes.dishId, arroz.id))
      .all()
      .map((r) => r.levelId)
      .sort();
    // Staff (2) and Laborer (4).
    expect(levelIds).toEqual([2, 4]);
  });
});

/** A file of `count` dishes of three lines each, for the Staff level. */
function manyDishes(count: number, quantity = 100): Cell[][] {
  const rows: Cell[][] = [HEADER];
  for (let d = 0; d < count; d++)
    for (const [i, ingredient] of ["Arroz pilado", "Pollo", "Aceite vegetal"].entries())
      rows.push([`Plato ${d}`, "Segundo", "", "Staff", null, ingredient, null, quantity + i, null]);
  return rows;
}

const staged = (db: ReturnType<typeof world>["db"]) =>
  [
    "dish_import_runs",
    "dish_import_dishes",
    "dish_import_links",
    "dish_import_recipes",
    "dish_import_lines",
    "dish_import_audit",
  ].map((table) => (db.$client.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);

/** Pacing that makes every chunk as small as it may be, so a few hundred rows take many chunks. */
const TINY_CHUNKS = { chunkMs: 0.001, pauseMs: 0 };

describe("writing in chunks, seen only when whole", () => {
  test("between chunks the dishes list, the recipes and the audit show none of the import; then all of it at once", async () => {
    const w = world();
    await importDishes(w.db, CLI_ACTOR, sheet(manyDishes(40)));
    const before = {
      lines: w.db.select().from(recipeLines).all(),
      audit: w.db.select().from(auditLog).all().length,
    };
    // 40 dishes changed (new quantities) and 200 new ones.
    const file = manyDishes(240, 200);
    const plan = await previewDishImport(w.db, sheet(file));
    expect(plan.counts).toMatchObject({
      dishesCreated: 200,
      dishesUnchanged: 40,
      recipesCreated: 200,
      recipesReplaced: 40,
    });
    let chunks = 0;
    await importDishes(w.db, CLI_ACTOR, sheet(file), {
      fingerprint: plan.fingerprint,
      pacing: TINY_CHUNKS,
      onProgress: (step, done, total) => {
        if (step !== "saving" || done === total) return;
        chunks++;
        // What every page reads is as it was: the list, the recipes and their lines, the costing's input, the audit.
        expect(listDishes(w.db, {}, null).rows).toHaveLength(40);
        expect(w.db.select().from(recipes).all()).toHaveLength(40);
        expect(w.db.select().from(recipeLines).all()).toEqual(before.lines);
        expect(w.db.select().from(auditLog).all()).toHaveLength(before.audit);
        expect(staged(w.db)[0]).toBe(1);
      },
    });
    expect(chunks).toBeGreaterThan(5);
    expect(listDishes(w.db, {}, null).rows).toHaveLength(240);
    expect(w.db.select().from(recipes).all()).toHaveLength(240);
    expect(
      new Set(
        w.db
          .select()
          .from(recipeLines)
          .all()
          .map((l) => l.quantity),
      ),
    ).toEqual(new Set([200, 201, 202]));
    expect(w.db.select().from(auditLog).all().length - before.audit).toBe(200 + 240);
    // The staging is cleared once published.
    expect(staged(w.db)).toEqual([0, 0, 0, 0, 0, 0]);
    // Imported again: nothing changes.
    expect((await previewDishImport(w.db, sheet(file))).counts).toMatchObject({
      dishesUnchanged: 240,
      recipesUnchanged: 240,
    });
  });

  test("a change of the catalogue while staging: the same plan is staged again; a different one is PlanChanged", async () => {
    const w = world();
    const file = manyDishes(30);
    const plan = await previewDishImport(w.db, sheet(file));
    let touched = false;
    // An ingredient the file does not use: the plan is the same, it is written.
    await importDishes(w.db, CLI_ACTOR, sheet(file), {
      fingerprint: plan.fingerprint,
      pacing: TINY_CHUNKS,
      onProgress: (step) => {
        if (step !== "saving" || touched) return;
        touched = true;
        createIngredient(w.db, CLI_ACTOR, { name: "Sal", category_id: w.rice.categoryId, base_unit: "g", kcal: 0 });
      },
    });
    expect(names(w.db)).toHaveLength(30);

    // A dish of the file made meanwhile by someone else: nothing of the file is written.
    const other = manyDishes(60).filter((row) => row[0] !== "Plato 0" || row === HEADER);
    const second = await previewDishImport(w.db, sheet(other));
    let made = false;
    const refused = importDishes(w.db, CLI_ACTOR, sheet(other), {
      fingerprint: second.fingerprint,
      pacing: TINY_CHUNKS,
      onProgress: (step) => {
        if (step !== "saving" || made) return;
        made = true;
        const now = new Date();
        w.db.insert(dishes).values({ name: "Plato 45", createdAt: now, updatedAt: now }).run();
      },
    });
    await expect(refused).rejects.toThrow(PlanChanged);
    expect(names(w.db)).toHaveLength(31);
    expect(w.db.select().from(recipes).all()).toHaveLength(30);
    expect(staged(w.db)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  test("an import killed mid-way leaves nothing visible, and recovery deletes what it staged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesa-dish-kill-"));
    try {
      const path = join(dir, "mesa.sqlite");
      const db = openDatabase(path);
      migrateDatabase(db);
      const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
      for (const name of ["Arroz pilado", "Pollo", "Aceite vegetal"])
        createIngredient(db, CLI_ACTOR, { name, category_id: cereals.id, base_unit: "g", kcal: 100 });
      db.insert(dishCategories).values({ name: "Segundo", unit: "g" }).run();
      // A writer in a process of its own, staging slowly; it says when its first chunks are in, then is killed.
      const script = join(dir, "writer.ts");
      writeFileSync(
        script,
        `import { openDatabase } from ${JSON.stringify(join(import.meta.dir, "../../db"))};
import { CLI_ACTOR } from ${JSON.stringify(join(import.meta.dir, "../audit"))};
import { importDishes } from ${JSON.stringify(join(import.meta.dir, "dish-import"))};
const rows = ${JSON.stringify(manyDishes(200))};
let said = false;
await importDishes(openDatabase(process.argv[2]), CLI_ACTOR, { name: "Recetas", firstRow: 1, rows }, {
  pacing: { chunkMs: 0.001, pauseMs: 20 },
  onProgress: (step, done) => {
    if (step === "saving" && done >= 450 && !said) { said = true; console.log("staged"); }
  },
});
console.log("published");
`,
      );
      const writer = Bun.spawn([process.execPath, script, path], { stdout: "pipe", stderr: "pipe" });
      const reader = writer.stdout.getReader();
      let out = "";
      while (!out.includes("staged")) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      writer.kill("SIGKILL");
      await writer.exited;
      expect(out).toBe("staged\n");

      expect(listDishes(db, {}, null).rows).toHaveLength(0);
      expect(db.select().from(recipes).all()).toHaveLength(0);
      expect(
        db
          .select()
          .from(auditLog)
          .all()
          .filter((a) => a.action.startsWith("dish.")),
      ).toHaveLength(0);
      const [runs, stagedDishes, , , lines] = staged(db as never);
      expect([runs, stagedDishes > 0, lines > 0]).toEqual([1, true, true]);
      // Its lease still runs: recovery leaves it (its writer might be alive); once it is out, the run goes.
      expect(recoverDishImports(db)).toBe(0);
      expect(recoverDishImports(db, new Date(Date.now() + RUN_LEASE_MS + 1000))).toBe(1);
      expect(staged(db as never)).toEqual([0, 0, 0, 0, 0, 0]);
      // The file imports whole afterwards, with ids after the ones the killed writer had reserved.
      const plan = await importDishes(db, CLI_ACTOR, sheet(manyDishes(200)));
      expect(plan.counts.dishesCreated).toBe(200);
      expect(listDishes(db, {}, null).rows).toHaveLength(200);
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
