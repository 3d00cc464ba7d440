/**
 * Loading ingredients from a workbook (`./mesa import:ingredients FILE` and the Ingredients page's upload), all or
 * nothing. The first sheet holds a header row, in Spanish or English (the columns of `INGREDIENT_COLUMNS`, in any
 * order; only Name, Category, Base unit and Kcal are required), then one ingredient per row. Every row is checked
 * first, with the same rules as the ingredient dialog (figures.ts); problems come back per row and column. Without
 * problems, the plan says what would be created (ingredients, and categories named that do not exist yet), changed
 * (an ingredient of the same name, case and accents ignored, whose figures differ) or left alone, with a fingerprint
 * of every write and of the rows it starts from. Applying writes that plan in one immediate transaction, and only
 * that plan: given the fingerprint a person confirmed, it refuses (PlanChanged) when the catalogue changed meanwhile.
 *
 * The ingredients export (`ingredientSheet`) writes these columns, so an exported catalogue imports back unchanged.
 */
import type { Db } from "../../db";
import { sha256 } from "../../crypto";
import { translate, translateDynamic, type Locale, type TranslationKey } from "../../shared/i18n";
import type { Actor } from "../audit";
import { ValidationFailed } from "../errors";
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

/** A column of the workbook: the field it fills and its header in each language (words from food.json). */
export interface IngredientColumn {
  field: string;
  /** The key of its header in food.json. */
  header: TranslationKey;
  required?: boolean;
}

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

/** A problem of a row (its spreadsheet row number) and column (its header as written, or the field's own). */
export interface ImportProblem {
  row: number | null;
  column: string | null;
  message: Message;
}

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

/** The catalogue changed between the preview and the confirmation: the new plan, nothing written. */
export class PlanChanged extends Error {
  constructor(readonly plan: IngredientImportPlan) {
    super("The ingredients changed since the preview");
  }
}

/** Thrown by applying a plan with problems (the problems are in `plan`). */
export class ImportRefused extends ValidationFailed {
  constructor(readonly plan: IngredientImportPlan) {
    super({ file: message("food.import.has_problems", { count: plan.problems.length + plan.moreProblems }) });
  }
}

interface PlannedRow {
  row: number;
  name: string;
  category: string;
  figures: IngredientFigures;
  existing: Ingredient | null;
}

/** A cell as text: trimmed, spaces made one, a neutralised formula read back without its apostrophe. */
function text(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  const cell = /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return cell.replace(/\s+/g, " ").trim();
}

/** Header words, folded, to the field they name: both languages' headers and the field's own key. */
function headerIndex(): Map<string, string> {
  const index = new Map<string, string>();
  for (const column of INGREDIENT_COLUMNS) {
    index.set(foldText(column.field), column.field);
    for (const locale of ["es", "en"] as const) index.set(foldText(translate(locale, column.header)), column.field);
  }
  return index;
}

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

/**
 * Reads and checks every row of the sheet against the catalogue as it is in `db`, and works out the plan. Writes
 * nothing. `columnWords` names a column in the problems (the header as written in the workbook).
 */
function planRows(db: Db, sheet: SheetRows | undefined): { plan: IngredientImportPlan; rows: PlannedRow[] } {
  const problems: ImportProblem[] = [];
  let moreProblems = 0;
  const report = (row: number | null, column: string | null, problem: Message) => {
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push({ row, column, message: problem });
    else moreProblems++;
  };
  const result = (rows: PlannedRow[], counts: ImportCounts, read: number) => {
    const plan = { counts, problems, moreProblems, rows: read, fingerprint: "" };
    plan.fingerprint = fingerprintOf(rows, counts);
    return { plan, rows: problems.length ? [] : rows };
  };
  const empty: ImportCounts = { created: 0, updated: 0, unchanged: 0, newCategories: [] };
  const all = sheet?.rows ?? [];
  const headerAt = all.findIndex((row) => row.some((cell) => text(cell) !== ""));
  if (!sheet || headerAt < 0) {
    report(null, null, message("food.import.empty"));
    return result([], empty, 0);
  }
  const firstRow = sheet.firstRow + headerAt;
  const index = headerIndex();
  const columns = new Map<string, { at: number; header: string }>();
  all[headerAt].forEach((cell, at) => {
    const header = text(cell);
    const field = index.get(foldText(header));
    if (!header) return;
    if (!field) return report(firstRow, header, message("food.import.unknown_column"));
    if (columns.has(field)) return report(firstRow, header, message("food.import.repeated_column"));
    columns.set(field, { at, header });
  });
  for (const column of INGREDIENT_COLUMNS)
    if (column.required && !columns.has(column.field))
      report(firstRow, column.header, message("food.import.missing_column"));
  const body = all.slice(headerAt + 1);
  if (body.length > MAX_IMPORT_ROWS) report(null, null, message("food.import.too_many_rows", { max: MAX_IMPORT_ROWS }));
  if (problems.length) return result([], empty, 0);

  // A column the sheet lacks is named by its header in the reader's language.
  const headerOf = (field: string) =>
    columns.get(field)?.header ?? INGREDIENT_COLUMNS.find((c) => c.field === field)?.header ?? field;
  const order = new Map(INGREDIENT_COLUMNS.map((c, i) => [c.field, i]));
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
  body.forEach((cells, offset) => {
    const rowNumber = firstRow + 1 + offset;
    const cell = (field: string) => {
      const column = columns.get(field);
      return column ? cells[column.at] : undefined;
    };
    if (cells.every((value) => text(value) === "")) return;
    read++;
    const errors: Record<string, Message> = {};
    const name = tidy(text(cell("name")));
    if (name.length < 2) errors.name = message(name ? "validation.min_length" : "validation.required", { min: 2 });
    else if (name.length > 120) errors.name = message("validation.max_length", { max: 120 });
    const category = tidy(text(cell("category")));
    if (!category) errors.category = message("validation.required");
    else if (category.length > 80) errors.category = message("validation.max_length", { max: 80 });
    const unitWord = foldText(text(cell("base_unit")));
    const input: FigureInput = {
      base_unit: BASE_UNIT_WORDS[unitWord] ?? unitWord,
      unit_weight_g: cell("unit_weight_g"),
      density: cell("density"),
      kcal: cell("kcal"),
      solid_waste: cell("solid_waste"),
      liquid_waste: cell("liquid_waste"),
      allergens: text(cell("allergens")),
    };
    for (const n of NUTRIENTS) input[n.key] = cell(n.key);
    const figures = checkIngredientFigures(input, errors, allergenWords);
    const key = ingredientKey(name);
    if (!errors.name && seen.has(key))
      errors.name = message("food.import.repeated_name", { name, row: seen.get(key)! });
    if (!errors.name) seen.set(key, rowNumber);
    const inColumnOrder = Object.entries(errors).sort(([a], [b]) => (order.get(a) ?? 99) - (order.get(b) ?? 99));
    for (const [field, problem] of inColumnOrder) report(rowNumber, headerOf(field), problem);
    if (Object.keys(errors).length || !figures) return;
    const categoryKey = foldText(category);
    if (!categories.has(categoryKey) && !newCategories.has(categoryKey)) newCategories.set(categoryKey, category);
    planned.push({ row: rowNumber, name, category, figures, existing: existing.get(key) ?? null });
  });
  if (read === 0 && problems.length === 0) report(null, null, message("food.import.no_rows"));
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, newCategories: [...newCategories.values()] };
  for (const row of planned) {
    const categoryId = categories.get(foldText(row.category))?.id ?? -1;
    if (!row.existing) counts.created++;
    else if (sameFigures({ ...row.figures, name: row.name, categoryId }, row.existing)) counts.unchanged++;
    else counts.updated++;
  }
  return result(planned, counts, read);
}

/** A fingerprint of every write the plan makes and of the rows it starts from. */
function fingerprintOf(rows: PlannedRow[], counts: ImportCounts): string {
  return sha256(
    JSON.stringify({
      counts,
      rows: rows.map((r) => [r.name, r.category, r.figures, r.existing ? [r.existing.id, r.existing.updatedAt] : null]),
    }),
  );
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

/**
 * Imports the sheet: plans it again inside one immediate transaction and, when it has no problems (ImportRefused
 * otherwise) and matches `fingerprint` when one is given (PlanChanged otherwise), writes it: the new categories, the
 * new ingredients and the changed ones, each audited. Returns the plan written.
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
      if (plan.problems.length) throw new ImportRefused(plan);
      if (options.fingerprint !== undefined && options.fingerprint !== plan.fingerprint) throw new PlanChanged(plan);
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

/** A problem in words: "Fila 7 (Kcal por 100 g): Debe ser al menos 0." */
export function describeProblem(problem: ImportProblem, locale: Locale): string {
  const words =
    typeof problem.message === "string"
      ? problem.message
      : translate(locale, problem.message.key, problem.message.params);
  // The column is one of INGREDIENT_COLUMNS' keys, or a header as the file wrote it.
  const column = problem.column?.startsWith("food.")
    ? translateDynamic(locale, problem.column, problem.column)
    : problem.column;
  const where =
    problem.row !== null && column
      ? translate(locale, "food.import.at_row_column", { row: problem.row, column })
      : problem.row !== null
        ? translate(locale, "food.import.at_row", { row: problem.row })
        : null;
  return where ? `${where}: ${words}` : words;
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
