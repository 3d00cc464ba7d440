/**
 * Loading ingredients from a workbook (`./mesa import:ingredients FILE` and the Ingredients page's upload), all or
 * nothing. The first sheet holds a header row, in Spanish or English (the columns of `INGREDIENT_COLUMNS`, in any
 * order; only Name, Category, Base unit and Kcal are required), then one ingredient per row. Every row is checked
 * first, with the same rules as the ingredient dialog (figures.ts); problems come back per row and column. Without
 * problems, the plan says what would be created (ingredients, and categories named that do not exist yet), changed
 * (an ingredient of the same name, case and accents ignored, whose figures differ) or left alone, with a fingerprint
 * of every write and of the rows it starts from. Applying writes that plan in one immediate transaction, and only
 * that plan: given the fingerprint a person confirmed, it refuses (the import engine's PlanChanged) when the catalogue
 * changed meanwhile, and a plan with problems (ImportRefused).
 *
 * The ingredients export (`ingredientSheet`) writes these columns, so an exported catalogue imports back unchanged.
 */
import type { Db } from "../../db";
import { translate, translateDynamic, type Locale, type TranslationKey } from "../../shared/i18n";
import type { ImportProblem } from "../../shared/imports";
import type { Actor } from "../audit";
import { confirmPlan, Fingerprint } from "../imports/engine";
import { message, type Message } from "../../shared/message";
import { foldText } from "../search";
import {
  MAX_WORKBOOK_BYTES,
  readFirstSheet,
  type CellValue,
  type IntakeLimits,
  type SheetRows,
} from "../spreadsheets/read";
import type { ExportColumn, ExportSheet } from "../spreadsheets/write";
import { insertCategory, listCategories } from "./categories";
import { tidy } from "./cities";
import { ALLERGENS, NUTRIENTS, type NutrientProperty } from "../../shared/food/composition";
import { checkIngredientFigures, type FigureInput, type IngredientFigures } from "./figures";
import {
  cellText,
  describeImportProblem,
  problemColumn,
  ProblemList,
  readHeader,
  type HeaderWords,
  type ProblemWords,
  type SheetColumn,
} from "./import-sheet";
import {
  ingredientKey,
  ingredientSnapshot,
  insertIngredient,
  listIngredients,
  writeIngredientUpdate,
  type Ingredient,
  type IngredientRow,
} from "./ingredients";
import { ingredients as ingredientsTable } from "../../../db/schema";

/** The most rows a workbook may hold. */
export const MAX_IMPORT_ROWS = 5000;
/** The most problems listed (any problem means nothing is imported). */
export const MAX_LISTED_PROBLEMS = 200;

/** A column of the workbook: the field it fills and the key of its header in food.json. */
export type IngredientColumn = SheetColumn<string>;

export const INGREDIENT_COLUMNS: readonly IngredientColumn[] = [
  { field: "name", header: "food.import.columns.name", required: true },
  { field: "category", header: "food.import.columns.category", required: true },
  { field: "base_unit", header: "food.import.columns.base_unit", required: true },
  { field: "unit_weight_g", header: "food.import.columns.unit_weight_g" },
  { field: "density", header: "food.import.columns.density" },
  { field: "kcal", header: "food.import.columns.kcal", required: true },
  { field: "solid_waste", header: "food.import.columns.solid_waste" },
  { field: "liquid_waste", header: "food.import.columns.liquid_waste" },
  ...NUTRIENTS.map((n): IngredientColumn => ({ field: n.key, header: `food.import.columns.nutrients.${n.key}` })),
  { field: "allergens", header: "food.import.columns.allergens" },
];

export type { ImportProblem };

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  /** Categories the workbook names that do not exist yet: they are created too. */
  newCategories: string[];
}

export interface IngredientImportPlan {
  counts: ImportCounts;
  problems: ImportProblem[];
  /** More problems than listed. */
  moreProblems: number;
  /** Rows read (blank ones left out). */
  rows: number;
  fingerprint: string;
}

/** Until the Ingredients routes name the engine's errors themselves. */

interface PlannedRow {
  row: number;
  name: string;
  category: string;
  figures: IngredientFigures;
  existing: Ingredient | null;
}

const HEADER_WORDS: HeaderWords = {
  empty: "food.import.empty",
  unknownColumn: "food.import.unknown_column",
  repeatedColumn: "food.import.repeated_column",
  missingColumn: "food.import.missing_column",
  tooManyRows: "food.import.too_many_rows",
};

/** An allergen named in words in either language ("Leche", "milk"), or by its code. */
function allergenByWord(): (word: string) => string | null {
  const words = new Map<string, string>();
  for (const code of ALLERGENS) {
    words.set(foldText(code), code);
    for (const locale of ["es", "en"] as const) words.set(foldText(translate(locale, `food.allergens.${code}`)), code);
  }
  return (word) => words.get(foldText(word)) ?? null;
}

/** Base units as people write them: g, gramos, ml, mililitros, unit, unidad, u... */
const BASE_UNIT_WORDS: Record<string, string> = {
  g: "g",
  gr: "g",
  gramo: "g",
  gramos: "g",
  gram: "g",
  grams: "g",
  ml: "ml",
  mililitro: "ml",
  mililitros: "ml",
  millilitre: "ml",
  millilitres: "ml",
  milliliter: "ml",
  milliliters: "ml",
  u: "unit",
  und: "unit",
  unid: "unit",
  unidad: "unit",
  unidades: "unit",
  unit: "unit",
  units: "unit",
};

/** The same figures (what an update would not change). */
function sameFigures(a: IngredientFigures & { categoryId: number; name: string }, b: Ingredient): boolean {
  return JSON.stringify(ingredientSnapshot(a)) === JSON.stringify(ingredientSnapshot(b));
}

/** One row checked on its own: its figures, or its problems keyed by field. */
function checkRow(
  cell: (field: string) => CellValue | undefined,
  allergenWords: (word: string) => string | null,
): { name: string; category: string; figures: IngredientFigures | null; errors: Record<string, Message> } {
  const errors: Record<string, Message> = {};
  const name = tidy(cellText(cell("name")));
  if (name.length < 2) errors.name = message(name ? "validation.min_length" : "validation.required", { min: 2 });
  else if (name.length > 120) errors.name = message("validation.max_length", { max: 120 });
  const category = tidy(cellText(cell("category")));
  if (!category) errors.category = message("validation.required");
  else if (category.length > 80) errors.category = message("validation.max_length", { max: 80 });
  const unitWord = foldText(cellText(cell("base_unit")));
  const input: FigureInput = {
    base_unit: BASE_UNIT_WORDS[unitWord] ?? unitWord,
    unit_weight_g: cell("unit_weight_g"),
    density: cell("density"),
    kcal: cell("kcal"),
    solid_waste: cell("solid_waste"),
    liquid_waste: cell("liquid_waste"),
    allergens: cellText(cell("allergens")),
  };
  for (const n of NUTRIENTS) input[n.key] = cell(n.key);
  const figures = checkIngredientFigures(input, errors, allergenWords);
  return { name, category, figures, errors };
}

/**
 * Reads and checks every row of the sheet against the catalogue as it is in `db`, and works out the plan. Writes
 * nothing.
 */
function planRows(db: Db, sheet: SheetRows | undefined): { plan: IngredientImportPlan; rows: PlannedRow[] } {
  const problems = new ProblemList(MAX_LISTED_PROBLEMS);
  const result = (rows: PlannedRow[], counts: ImportCounts, read: number) => {
    const plan = { counts, problems: problems.problems, moreProblems: problems.more, rows: read, fingerprint: "" };
    plan.fingerprint = fingerprintOf(rows, counts);
    return { plan, rows: problems.any ? [] : rows };
  };
  const empty: ImportCounts = { created: 0, updated: 0, unchanged: 0, newCategories: [] };
  const header = readHeader(sheet, INGREDIENT_COLUMNS, HEADER_WORDS, MAX_IMPORT_ROWS, problems);
  if (!header) return result([], empty, 0);

  const categories = new Map(listCategories(db).map((c) => [foldText(tidy(c.name)), c]));
  const existing = new Map(
    db
      .select()
      .from(ingredientsTable)
      .all()
      .map((i) => [ingredientKey(i.name), i]),
  );
  const allergenWords = allergenByWord();
  const seen = new Map<string, number>();
  const planned: PlannedRow[] = [];
  const newCategories = new Map<string, string>();
  let read = 0;
  header.body.forEach((cells, offset) => {
    const rowNumber = header.firstRow + 1 + offset;
    if (cells.every((value) => cellText(value) === "")) return;
    read++;
    const { name, category, figures, errors } = checkRow((field) => {
      const column = header.columns.get(field);
      return column ? cells[column.at] : undefined;
    }, allergenWords);
    const key = ingredientKey(name);
    if (!errors.name && seen.has(key))
      errors.name = message("food.import.repeated_name", { name, row: seen.get(key)! });
    if (!errors.name) seen.set(key, rowNumber);
    if (problems.reportRow(rowNumber, errors, header.order, header.headerOf) || !figures) return;
    const categoryKey = foldText(category);
    if (!categories.has(categoryKey) && !newCategories.has(categoryKey)) newCategories.set(categoryKey, category);
    planned.push({ row: rowNumber, name, category, figures, existing: existing.get(key) ?? null });
  });
  if (read === 0 && !problems.any) problems.report(null, null, message("food.import.no_rows"));
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, newCategories: [...newCategories.values()] };
  for (const row of planned) {
    const categoryId = categories.get(foldText(row.category))?.id ?? -1;
    if (!row.existing) counts.created++;
    else if (sameFigures({ ...row.figures, name: row.name, categoryId }, row.existing)) counts.unchanged++;
    else counts.updated++;
  }
  return result(planned, counts, read);
}

/**
 * A fingerprint of every write the plan makes and of the rows it starts from: their figures themselves, since a
 * change within the same second leaves `updated_at` (kept in seconds) as it was.
 */
function fingerprintOf(rows: PlannedRow[], counts: ImportCounts): string {
  const fingerprint = new Fingerprint();
  fingerprint.add(counts);
  for (const r of rows)
    fingerprint.add([
      r.name,
      r.category,
      r.figures,
      r.existing ? [r.existing.id, ingredientSnapshot(r.existing)] : null,
    ]);
  return fingerprint.digest();
}

/** What the ingredients import accepts: 5 MiB and MAX_IMPORT_ROWS rows. */
export const INGREDIENT_INTAKE: IntakeLimits = { maxBytes: MAX_WORKBOOK_BYTES, maxRows: MAX_IMPORT_ROWS };

/**
 * The first sheet of an uploaded .xlsx, .xls, .ods or .csv file (known by its bytes; `fileName` only breaks ties),
 * through the one spreadsheet intake: each format checked for what it is, then parsed in a worker with a time limit.
 * Throws ValidationFailed keyed `file` when the file is refused.
 */
export async function readIngredientSheet(bytes: Uint8Array, fileName: string): Promise<SheetRows> {
  return (await readFirstSheet(bytes, fileName, INGREDIENT_INTAKE)).sheet;
}

/** What importing `sheet` would do, without writing. */
export function previewIngredientsImport(db: Db, sheet: SheetRows | undefined): IngredientImportPlan {
  return planRows(db, sheet).plan;
}

/** How confirmPlan refuses an ingredients plan. */
const CONFIRM_WORDS = {
  refused: (plan: IngredientImportPlan) => ({
    file: message("food.import.has_problems", { count: plan.problems.length + plan.moreProblems }),
  }),
  changed: message("food.import.changed"),
};

/**
 * Imports the sheet: plans it again inside one immediate transaction and, when it has no problems (ImportRefused
 * otherwise) and matches `fingerprint` when one is given (PlanChanged otherwise), writes it: the new categories, the
 * new ingredients and the changed ones, each audited. Returns the plan written. A workbook holds at most
 * MAX_IMPORT_ROWS rows, which one short transaction writes.
 */
export function importIngredients(
  db: Db,
  actor: Actor,
  sheet: SheetRows | undefined,
  options: { fingerprint?: string } = {},
  now = new Date(),
): IngredientImportPlan {
  return db.transaction(
    (tx) => {
      const { plan, rows } = planRows(tx as unknown as Db, sheet);
      confirmPlan(plan, options.fingerprint, CONFIRM_WORDS);
      const categories = new Map(listCategories(tx as unknown as Db).map((c) => [foldText(tidy(c.name)), c.id]));
      for (const row of rows) {
        const key = foldText(row.category);
        let categoryId = categories.get(key);
        if (categoryId === undefined) {
          categoryId = insertCategory(tx, actor, { name: row.category, description: "" }, now).id;
          categories.set(key, categoryId);
        }
        const values = { name: row.name, categoryId, ...row.figures };
        if (!row.existing) insertIngredient(tx, actor, values, now);
        else if (!sameFigures(values, row.existing)) writeIngredientUpdate(tx, actor, row.existing, values, now);
      }
      return plan;
    },
    { behavior: "immediate" },
  );
}

/** The words of an ingredients problem's place. */
const PROBLEM_WORDS: ProblemWords = {
  atRowColumn: "food.import.at_row_column",
  atRow: "food.import.at_row",
  columnPrefix: "food.",
};

/** A problem in words: "Fila 7 (Kcal por 100 g): Debe ser al menos 0." */
export function describeProblem(problem: ImportProblem, locale: Locale): string {
  return describeImportProblem(problem, locale, PROBLEM_WORDS);
}

/** A problem's column in the reader's words: a header as written, or a column's key translated. */
export function ingredientColumnWords(column: string | null, locale: Locale): string | null {
  return problemColumn(column, locale, PROBLEM_WORDS.columnPrefix);
}

// ——— The workbook the export writes and the template ———

/** A number for a cell: null stays blank. */
const figure = (value: number | null) => value;

/** The ingredients sheet in `locale`: the import's columns, so an export imports back. */
export function ingredientSheet(locale: Locale, rows: IngredientRow[]): ExportSheet<IngredientRow> {
  const t = (key: TranslationKey) => translate(locale, key);
  const nutrientColumns: ExportColumn<IngredientRow>[] = NUTRIENTS.map((n) => ({
    header: t(`food.import.columns.nutrients.${n.key}`),
    value: (r) => figure(r[n.property as NutrientProperty]),
    width: 12,
  }));
  return {
    name: t("food.ingredients.title"),
    columns: [
      { header: t("food.import.columns.name"), value: (r) => r.name, width: 30 },
      { header: t("food.import.columns.category"), value: (r) => r.categoryName, width: 26 },
      { header: t("food.import.columns.base_unit"), value: (r) => r.baseUnit, width: 10 },
      { header: t("food.import.columns.unit_weight_g"), value: (r) => figure(r.unitWeightGrams), width: 12 },
      { header: t("food.import.columns.density"), value: (r) => figure(r.densityGramsPerMl), width: 12 },
      { header: t("food.import.columns.kcal"), value: (r) => r.kcalPer100g, width: 12 },
      { header: t("food.import.columns.solid_waste"), value: (r) => r.solidWastePercent, width: 12 },
      { header: t("food.import.columns.liquid_waste"), value: (r) => r.liquidWastePercent, width: 12 },
      ...nutrientColumns,
      {
        header: t("food.import.columns.allergens"),
        // The codes are the stored lists': one Mesa no longer knows is written as it is.
        value: (r) => r.allergens.map((code) => translateDynamic(locale, `food.allergens.${code}`, code)).join(", "),
        width: 24,
      },
    ],
    rows,
  };
}

/** Every ingredient, as the export writes them (by name). */
export function ingredientsWorkbook(db: Db, locale: Locale, filter: { search?: string; categoryId?: number }) {
  return [ingredientSheet(locale, listIngredients(db, filter, null).rows)];
}

/**
 * The template: a first sheet with the columns to fill in (the one the import reads) and a second with two examples,
 * so the examples are never imported by mistake.
 */
export function ingredientsTemplate(locale: Locale): ExportSheet<IngredientRow>[] {
  const example = (values: Partial<IngredientRow>): IngredientRow =>
    ({
      ...Object.fromEntries(NUTRIENTS.map((n) => [n.property, null])),
      unitWeightGrams: null,
      densityGramsPerMl: null,
      solidWastePercent: 0,
      liquidWastePercent: 0,
      allergens: [],
      ...values,
    }) as IngredientRow;
  const t = (key: TranslationKey) => translate(locale, key);
  return [
    ingredientSheet(locale, []),
    {
      ...ingredientSheet(locale, [
        example({
          name: t("food.import.example.rice"),
          categoryName: t("food.import.example.cereals"),
          baseUnit: "g",
          kcalPer100g: 358,
          waterG: 13.4,
          proteinG: 7.8,
          fatG: 0.7,
          carbohydrateG: 77.6,
        }),
        example({
          name: t("food.import.example.milk"),
          categoryName: t("food.import.example.dairy"),
          baseUnit: "ml",
          densityGramsPerMl: 1.03,
          kcalPer100g: 61,
          proteinG: 3.1,
          fatG: 3.4,
          calciumMg: 113,
          allergens: ["milk"],
        }),
      ]),
      name: t("food.import.example.sheet"),
    },
  ];
}
