/**
 * The ingredients workbook: headers in Spanish or English in any order, every row checked before anything is written
 * (problems by row and column, nothing written), what it would create, change or leave alone with the categories it
 * adds, all or nothing, a fingerprint that refuses a plan the catalogue no longer matches, and an export that imports
 * back unchanged.
 */
import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { ingredientCategories, ingredients } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { buildWorkbook } from "../spreadsheets/write";
import type { SheetRows } from "../spreadsheets/read";
import { createCategory } from "./categories";
import { createIngredient, updateIngredient } from "./ingredients";
import { ImportRefused, PlanChanged } from "../imports/engine";
import {
  describeProblem,
  importIngredients,
  ingredientsWorkbook,
  previewIngredientsImport,
  readIngredientSheet,
  type IngredientImportPlan,
} from "./import";

const sheet = (rows: (string | number | null)[][]): SheetRows => ({ name: "Insumos", firstRow: 1, rows });

function world() {
  const db = migratedDatabase();
  const cereals = createCategory(db, CLI_ACTOR, { name: "Cereales" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: cereals.id,
    base_unit: "g",
    kcal: 358,
  });
  return { db, cereals, rice };
}

describe("the ingredients workbook", () => {
  test("headers in either language, any order; creates, changes and leaves alone; adds the categories it names", () => {
    const w = world();
    const rows = [
      [
        "Base unit",
        "Name",
        "Category",
        "Kcal per 100 g",
        "Unit weight (g)",
        "Density (g/ml)",
        "Proteínas (g)",
        "Alérgenos",
      ],
      ["g", "Arroz pilado", "Cereales", 358, null, null, null, null],
      ["unidad", "Huevo de gallina", "Huevos", "143", 50, null, "12,6", "huevo"],
      ["ml", "leche fresca", "Lácteos", 61, null, 1.03, 3.1, "milk, Leche"],
      [null, null, null, null, null, null, null, null],
      ["G", "ARROZ integral", "cereales", 350, null, null, 7.5, ""],
    ];
    const plan = previewIngredientsImport(w.db, sheet(rows));
    expect(plan.problems).toEqual([]);
    expect([plan.rows, plan.counts]).toEqual([
      4,
      { created: 3, updated: 0, unchanged: 1, newCategories: ["Huevos", "Lácteos"] },
    ]);
    // Nothing is written by a preview.
    expect(w.db.select().from(ingredients).all()).toHaveLength(1);
    const written = importIngredients(w.db, CLI_ACTOR, sheet(rows), { fingerprint: plan.fingerprint });
    expect(written.counts).toEqual(plan.counts);
    const all = w.db.select().from(ingredients).all();
    expect(
      all.map((i) => [i.name, i.baseUnit, i.unitWeightGrams, i.densityGramsPerMl, i.proteinG, i.allergens]),
    ).toEqual([
      ["Arroz pilado", "g", null, null, null, []],
      ["Huevo de gallina", "unit", 50, null, 12.6, ["eggs"]],
      ["leche fresca", "ml", null, 1.03, 3.1, ["milk"]],
      ["ARROZ integral", "g", null, null, 7.5, []],
    ]);
    expect(
      w.db
        .select()
        .from(ingredientCategories)
        .all()
        .map((c) => c.name),
    ).toEqual(["Cereales", "Huevos", "Lácteos"]);
    // The same file again changes nothing; a changed figure updates that ingredient only.
    expect(previewIngredientsImport(w.db, sheet(rows)).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 4,
      newCategories: [],
    });
    rows[1][3] = 360;
    expect(previewIngredientsImport(w.db, sheet(rows)).counts).toMatchObject({ updated: 1, unchanged: 3 });
  });

  test("every row's problems come back by row and column, and nothing is written", () => {
    const w = world();
    const rows = [
      [null],
      ["Nombre", "Categoría", "Unidad base", "Kcal por 100 g", "Merma sólida (%)", "Hierro (mg)", "Alérgenos", "Color"],
      ["Papa blanca", "Tubérculos", "g", 97, 18, 0.5, "", null],
      ["Leche", "Lácteos", "ml", 61, null, null, "", null],
      ["Papa Blanca", "Tubérculos", "kg", -1, 120, "mucho", "polen", null],
    ];
    const plan = previewIngredientsImport(w.db, sheet(rows));
    expect(plan.problems.map((p) => describeProblem(p, "es"))).toEqual([
      "Fila 2 (Color): Columna desconocida. Use los encabezados de la plantilla.",
    ]);
    rows[1].pop();
    const problems = previewIngredientsImport(w.db, sheet(rows)).problems.map((p) => describeProblem(p, "es"));
    expect(problems).toEqual([
      "Fila 4 (Densidad (g/ml)): Este campo es obligatorio.",
      "Fila 5 (Nombre): Papa Blanca ya está en la fila 3.",
      "Fila 5 (Unidad base): Elija una opción de la lista.",
      "Fila 5 (Kcal por 100 g): Debe ser al menos 0.",
      "Fila 5 (Merma sólida (%)): Debe ser como máximo 99.99.",
      "Fila 5 (Hierro (mg)): Debe ser un número.",
      "Fila 5 (Alérgenos): Alérgeno desconocido. Use los de la lista.",
    ]);
    expect(() => importIngredients(w.db, CLI_ACTOR, sheet(rows))).toThrow(ImportRefused);
    expect(w.db.select().from(ingredients).all()).toHaveLength(1);
    expect(w.db.select().from(ingredientCategories).all()).toHaveLength(1);
    // A missing required column, an empty sheet.
    const missing = previewIngredientsImport(w.db, sheet([["Nombre", "Categoría"]]));
    expect(missing.problems.map((p) => describeProblem(p, "en"))).toEqual([
      "Row 1 (Base unit): This column is missing.",
      "Row 1 (Kcal per 100 g): This column is missing.",
    ]);
    expect(previewIngredientsImport(w.db, sheet([])).problems.map((p) => describeProblem(p, "en"))).toEqual([
      "The first sheet is empty.",
    ]);
  });

  test("a plan confirmed after the ingredients changed is refused with the new plan, and nothing is written", () => {
    const w = world();
    const rows = [
      ["Name", "Category", "Base unit", "Kcal per 100 g"],
      ["Arroz pilado", "Cereales", "g", 360],
      ["Quinua", "Cereales", "g", 343],
    ];
    const plan = previewIngredientsImport(w.db, sheet(rows));
    expect(plan.counts).toMatchObject({ created: 1, updated: 1 });
    updateIngredient(w.db, CLI_ACTOR, w.rice.id, {
      name: "Arroz pilado",
      category_id: w.cereals.id,
      base_unit: "g",
      kcal: 359,
    });
    let changed: PlanChanged<IngredientImportPlan> | null = null;
    try {
      importIngredients(w.db, CLI_ACTOR, sheet(rows), { fingerprint: plan.fingerprint });
    } catch (error) {
      changed = error as PlanChanged<IngredientImportPlan>;
    }
    expect(changed).toBeInstanceOf(PlanChanged);
    expect(changed!.plan.counts).toMatchObject({ created: 1, updated: 1 });
    expect(
      w.db
        .select()
        .from(ingredients)
        .all()
        .map((i) => i.name),
    ).toEqual(["Arroz pilado"]);
  });

  test("the export is the workbook: read back through the intake, it imports unchanged", async () => {
    const w = world();
    createIngredient(w.db, CLI_ACTOR, {
      name: "Aceite vegetal",
      category_id: w.cereals.id,
      base_unit: "ml",
      density: 0.92,
      kcal: 884,
      fat: 100,
      solid_waste: 0,
      liquid_waste: 2.5,
      allergens: ["soy"],
    });
    createIngredient(w.db, CLI_ACTOR, {
      name: "=HYPERLINK(1)",
      category_id: w.cereals.id,
      base_unit: "unit",
      unit_weight_g: 1,
      kcal: 0,
    });
    for (const locale of ["es", "en"] as const) {
      const bytes = buildWorkbook(ingredientsWorkbook(w.db, locale, {}));
      const read = await readIngredientSheet(bytes, `insumos-${locale}.xlsx`);
      expect(XLSX.read(bytes, { type: "array" }).SheetNames).toHaveLength(1);
      expect(previewIngredientsImport(w.db, read).counts).toEqual({
        created: 0,
        updated: 0,
        unchanged: 3,
        newCategories: [],
      });
    }
  });
});
