/**
 * Loading dishes and their recipes from a workbook (`./mesa import:dishes FILE` and the Food page's upload), all or
 * nothing. The first sheet holds a header row, in Spanish or English (the columns of `DISH_COLUMNS`, in any order),
 * then one recipe line per row: the dish (with its categories and description), the level, the recipe's yield, and
 * the line — an ingredient (quantity in its base unit, optionally pinned to one of its offers) or another dish used as
 * a sub-recipe (quantity in grams). The rows of one dish and level are one recipe, and the file replaces that recipe
 * whole (as the dish modal does); the dish's other levels are left as they are. A row with only the dish (no level,
 * no line) keeps a dish without recipes, as the export writes one, so it imports back.
 *
 * Every row is checked first against the catalogue as it is (unknown category, level, ingredient, offer or
 * sub-recipe; a bad number; a sub-recipe cycle; the same dish written two ways; a line repeated), per row and
 * column. Without problems, the plan says which dishes would be created, changed (name, description or categories)
 * or left alone and which recipes would be created, replaced or left alone, with a fingerprint of every write and of
 * the rows it starts from. The check yields to the event loop every few milliseconds, so a workbook at its limit
 * (MAX_DISH_IMPORT_ROWS) does not hold up the server.
 *
 * Applying plans again and writes that plan only: given the fingerprint a person confirmed, it refuses with the
 * import engine's PlanChanged when the catalogue changed meanwhile (ImportRefused for a plan with problems). The
 * rows are staged in short transactions and published in one (dish-import-staging.ts), so what it writes is seen
 * whole or not at all, and only if the catalogue is still the one it planned from.
 */
import { eq } from "drizzle-orm";
import {
  cities,
  dishCategories,
  dishCategoryLinks,
  dishes as dishesTable,
  ingredients as ingredientsTable,
  levels as levelsTable,
  offers as offersTable,
  providers as providersTable,
} from "../../../db/schema";
import type { Db } from "../../db";
import type { Locale } from "../../shared/i18n";
import type { ImportProblem } from "../../shared/imports";
import type { Actor, Tx } from "../audit";
import { Conflict } from "../errors";
import { confirmPlan, Fingerprint, type ChunkPacing } from "../imports/engine";
import { message, type Message } from "../../shared/message";
import {
  MAX_WORKBOOK_BYTES,
  readFirstSheet,
  type CellValue,
  type IntakeLimits,
  type SheetRows,
} from "../spreadsheets/read";
import { BUILT_IN_LEVELS } from "../../shared/food/built-in-levels";
import { tidy } from "./cities";
import type { Dish } from "./dishes";
import { findCycles } from "./dish-import-cycles";
import {
  clearRun,
  openRun,
  publishRun,
  recoverDishImports,
  reserveIds,
  stageRows,
  STAGING_PACING,
  type StagedRow,
} from "./dish-import-staging";
import { readDecimal } from "./figures";
import {
  cellText,
  describeImportProblem,
  problemColumn,
  ProblemList,
  readHeader,
  type HeaderWords,
  type ProblemWords,
  type SheetColumn,
  type SheetHeader,
} from "./import-sheet";
import { MAX_LINE_QUANTITY, MAX_RECIPE_LINES } from "./recipes";
import { foldText } from "../search";

/** The most rows a dishes workbook may hold. */
export const MAX_DISH_IMPORT_ROWS = 20_000;
/** The most problems listed (any problem means nothing is imported). */
export const MAX_LISTED_DISH_PROBLEMS = 200;
/** What separates the parts of a pinned offer: "Provider · presentation · city". */
export const OFFER_SEPARATOR = " · ";

export type DishField =
  "dish" | "categories" | "description" | "level" | "yield_g" | "ingredient" | "sub_recipe" | "quantity" | "offer";

/** A column of the workbook: the field it fills and the key of its header (food-import-dishes.json). */
export type DishColumn = SheetColumn<DishField>;

export const DISH_COLUMNS: readonly DishColumn[] = [
  { field: "dish", header: "foodImportDishes.columns.dish", required: true },
  { field: "categories", header: "foodImportDishes.columns.categories", required: true },
  { field: "description", header: "foodImportDishes.columns.description" },
  { field: "level", header: "foodImportDishes.columns.level", required: true },
  { field: "yield_g", header: "foodImportDishes.columns.yield_g" },
  { field: "ingredient", header: "foodImportDishes.columns.ingredient" },
  { field: "sub_recipe", header: "foodImportDishes.columns.sub_recipe" },
  { field: "quantity", header: "foodImportDishes.columns.quantity", required: true },
  { field: "offer", header: "foodImportDishes.columns.offer" },
];

export type { ImportProblem };

export interface DishImportCounts {
  dishesCreated: number;
  dishesUpdated: number;
  dishesUnchanged: number;
  recipesCreated: number;
  recipesReplaced: number;
  recipesUnchanged: number;
}

export interface DishImportPlan {
  counts: DishImportCounts;
  problems: ImportProblem[];
  /** More problems than listed. */
  moreProblems: number;
  /** Rows read (blank ones left out). */
  rows: number;
  fingerprint: string;
}

/** How many dishes and recipes a plan writes. */
export const changesOf = (counts: DishImportCounts) =>
  counts.dishesCreated + counts.dishesUpdated + counts.recipesCreated + counts.recipesReplaced;

/** A line as planned: an ingredient or a sub-recipe named by its key (a dish of the catalogue or of the file). */
interface PlannedLine {
  row: number;
  ingredientId: number | null;
  subDishKey: string | null;
  quantity: number;
  offerId: number | null;
}

interface PlannedRecipe {
  levelId: number;
  yieldGrams: number | null;
  lines: PlannedLine[];
  existing: ExistingRecipe | null;
}

interface PlannedDish {
  key: string;
  row: number;
  name: string;
  description: string;
  categoryIds: number[];
  existing: Dish | null;
  recipes: PlannedRecipe[];
}

interface ExistingLine {
  ingredientId: number | null;
  subDishId: number | null;
  quantity: number;
  offerId: number | null;
}

interface ExistingRecipe {
  id: number;
  dishId: number;
  levelId: number;
  yieldGrams: number | null;
  updatedAt: number;
  lines: ExistingLine[];
}

const keyOf = (name: string) => foldText(tidy(name));

/** A pinned offer as the workbook writes it. */
export function offerLabel(offer: { providerName: string; presentation: string; cityName: string }): string {
  return [offer.providerName, offer.presentation, offer.cityName].join(OFFER_SEPARATOR);
}

// ——— The catalogue the plan reads ———

/** Everything of the catalogue the plan reads, each by its folded name. */
interface Catalogue {
  categories: Map<string, number>;
  levels: Map<string, number>;
  ingredients: Map<string, number>;
  /** Offers by ingredient, then by "provider · presentation · city" folded. */
  offers: Map<number, Map<string, number>>;
  dishes: Map<string, Dish>;
  links: Map<number, number[]>;
  /** Recipes by "dishId:levelId". */
  recipes: Map<string, ExistingRecipe>;
}

/** Reads the catalogue at once (one read, so the plan is made from one state of it). */
function catalogue(db: Db | Tx): Catalogue {
  const categories = new Map(
    db
      .select({ id: dishCategories.id, name: dishCategories.name })
      .from(dishCategories)
      .all()
      .map((c) => [keyOf(c.name), c.id]),
  );
  const stored = db.select({ id: levelsTable.id, name: levelsTable.name }).from(levelsTable).all();
  const levels = new Map(stored.map((l) => [keyOf(l.name), l.id]));
  // A built-in level is found by the name the pages show in either language too ("Obrero" is Laborer).
  for (const level of stored)
    for (const label of Object.values(BUILT_IN_LEVELS.get(level.name) ?? {}))
      if (!levels.has(keyOf(label))) levels.set(keyOf(label), level.id);
  const ingredients = new Map(
    db
      .select({ id: ingredientsTable.id, name: ingredientsTable.name })
      .from(ingredientsTable)
      .all()
      .map((i) => [keyOf(i.name), i.id]),
  );
  const offers = new Map<number, Map<string, number>>();
  for (const o of db
    .select({
      id: offersTable.id,
      ingredientId: offersTable.ingredientId,
      presentation: offersTable.presentation,
      providerName: providersTable.name,
      cityName: cities.name,
    })
    .from(offersTable)
    .innerJoin(providersTable, eq(providersTable.id, offersTable.providerId))
    .innerJoin(cities, eq(cities.id, offersTable.cityId))
    .all()) {
    let byLabel = offers.get(o.ingredientId);
    if (!byLabel) offers.set(o.ingredientId, (byLabel = new Map()));
    byLabel.set(keyOf(offerLabel(o)), o.id);
  }
  const dishes = new Map(
    db
      .select()
      .from(dishesTable)
      .all()
      .map((d) => [keyOf(d.name), d]),
  );
  const links = new Map<number, number[]>();
  for (const l of db.select().from(dishCategoryLinks).all()) {
    const list = links.get(l.dishId);
    if (list) list.push(l.categoryId);
    else links.set(l.dishId, [l.categoryId]);
  }
  return { categories, levels, ingredients, offers, dishes, links, recipes: existingRecipes(db) };
}

/** Every recipe with its lines, by "dishId:levelId" (read as plain rows: at the limit there are tens of thousands). */
function existingRecipes(db: Db | Tx): Map<string, ExistingRecipe> {
  const client = (db as Db).$client;
  const recipes = new Map<string, ExistingRecipe>();
  const recipeById = new Map<number, ExistingRecipe>();
  const stored = client
    .query<[number, number, number, number | null, number], []>(
      "SELECT id, dish_id, level_id, yield_grams, updated_at FROM recipes",
    )
    .values() as [number, number, number, number | null, number][];
  for (const [id, dishId, levelId, yieldGrams, updatedAt] of stored) {
    const recipe: ExistingRecipe = { id, dishId, levelId, yieldGrams, updatedAt, lines: [] };
    recipes.set(`${dishId}:${levelId}`, recipe);
    recipeById.set(id, recipe);
  }
  const lines = client
    .query(
      `SELECT recipe_id, ingredient_id, sub_dish_id, quantity, offer_id FROM recipe_lines
       ORDER BY recipe_id, position, id`,
    )
    .values() as [number, number | null, number | null, number, number | null][];
  for (const [recipeId, ingredientId, subDishId, quantity, offerId] of lines)
    recipeById.get(recipeId)?.lines.push({ ingredientId, subDishId, quantity, offerId });
  return recipes;
}

/**
 * What the plan reads of each table, as one row of one statement. The small tables are written out whole (their ids
 * and names); the large ones are summed: their counts, their highest ids and sums of what the plan reads. Mesa moves
 * `updated_at` with every change of a dish or recipe and replaces a recipe's lines whole (new ids, never reused), so
 * the same stamp is the same catalogue, and so the same plan from the same file. A few milliseconds at the limit,
 * where reading the catalogue takes a hundred: publishing checks it inside its own short transaction.
 */
const STAMP = `SELECT ${[
  ...(
    [
      ["dish_categories", "id, name"],
      ["levels", "id, name"],
      ["ingredients", "id, name"],
      ["offers", "id, ingredient_id, provider_id, city_id, presentation"],
      ["providers", "id, name"],
      ["cities", "id, name"],
    ] as const
  ).map(
    ([table, columns]) =>
      `(SELECT group_concat(v, char(10)) FROM (SELECT ${columns
        .split(", ")
        .map((c) => `quote(${c})`)
        .join(" || ',' || ")} AS v FROM ${table} ORDER BY rowid))`,
  ),
  `(SELECT count(*) || ',' || ifnull(max(id), 0) || ',' || total(updated_at) || ',' || total(active) || ',' ||
    total(length(name)) || ',' || total(length(description)) FROM dishes)`,
  `(SELECT count(*) || ',' || total(dish_id * 65537 + category_id) FROM dish_category_links)`,
  `(SELECT count(*) || ',' || ifnull(max(id), 0) || ',' || total(updated_at) || ',' || total(ifnull(yield_grams, -1)) ||
    ',' || total(dish_id * 65537 + level_id) FROM recipes)`,
  `(SELECT count(*) || ',' || ifnull(max(id), 0) || ',' || total(id) || ',' || total(recipe_id * 131 + position * 137 +
    ifnull(ingredient_id, 0) * 139 + ifnull(sub_dish_id, 0) * 149 + ifnull(offer_id, 0) * 151) || ',' ||
    total(quantity) FROM recipe_lines)`,
].join(", ")}`;

/** The catalogue's stamp (STAMP), hashed. */
function catalogueStamp(db: Db): string {
  const hash = new Bun.CryptoHasher("sha256");
  const [texts] = db.$client.query(STAMP).values() as (string | null)[][];
  for (const text of texts) hash.update(`${text ?? ""}\u0000`);
  return hash.digest("base64url");
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === [...b].sort((x, y) => x - y)[i]);

// ——— Checking the rows ———

const HEADER_WORDS: HeaderWords = {
  empty: "foodImportDishes.empty",
  unknownColumn: "foodImportDishes.unknown_column",
  repeatedColumn: "foodImportDishes.repeated_column",
  missingColumn: "foodImportDishes.missing_column",
  tooManyRows: "foodImportDishes.too_many_rows",
};

/** A dish as the rows read so far say it: its first row, its fields (with the row that gave them), its recipes. */
interface DishDraft {
  row: number;
  name: string;
  description: { value: string; row: number } | null;
  categories: { ids: number[]; row: number } | null;
  recipes: Map<number, { yieldGrams: { value: number; row: number } | null; lines: PlannedLine[] }>;
}

/** A line whose sub-recipe is checked once every dish of the file is known. */
interface SubLine {
  row: number;
  dishKey: string;
  subKey: string;
  subName: string;
}

/** What the row loop shares: the catalogue, the dishes read so far, and the problems. */
interface RowContext {
  known: Catalogue;
  header: SheetHeader<DishField>;
  drafts: Map<string, DishDraft>;
  subLines: SubLine[];
  problems: ProblemList;
}

type RowErrors = Partial<Record<DishField, Message>>;
type Cell = (field: DishField) => CellValue | undefined;

/** The dish's own fields: given on any of its rows, the same wherever given. */
function checkDishFields(known: Catalogue, cell: Cell, drafts: Map<string, DishDraft>, errors: RowErrors) {
  const name = tidy(cellText(cell("dish")));
  if (name.length < 2) errors.dish = message(name ? "validation.min_length" : "validation.required", { min: 2 });
  else if (name.length > 120) errors.dish = message("validation.max_length", { max: 120 });
  const key = keyOf(name);
  const draft = !errors.dish ? drafts.get(key) : undefined;
  if (draft && draft.name !== name)
    errors.dish = message("foodImportDishes.written_differently", { name: draft.name, row: draft.row });
  const categoriesText = cellText(cell("categories"));
  let categoryIds: number[] | null = null;
  if (categoriesText) {
    const words = categoriesText
      .split(",")
      .map((w) => tidy(w))
      .filter(Boolean);
    const unknown = words.filter((w) => !known.categories.has(keyOf(w)));
    if (unknown.length) errors.categories = message("foodImportDishes.unknown_category", { names: unknown.join(", ") });
    else categoryIds = [...new Set(words.map((w) => known.categories.get(keyOf(w))!))];
    if (categoryIds && draft?.categories && !sameIds(categoryIds, draft.categories.ids))
      errors.categories = message("foodImportDishes.differs", { row: draft.categories.row });
  }
  const description = tidy(cellText(cell("description")));
  if (description.length > 1000) errors.description = message("validation.max_length", { max: 1000 });
  else if (description && draft?.description && draft.description.value !== description)
    errors.description = message("foodImportDishes.differs", { row: draft.description.row });
  return { name, key, draft, categoryIds, description };
}

/** The row's recipe and line: its level, its yield, and an ingredient (maybe pinned to an offer) or a sub-recipe. */
function checkRecipeLine(known: Catalogue, cell: Cell, row: number, errors: RowErrors) {
  const levelName = tidy(cellText(cell("level")));
  const ingredientName = tidy(cellText(cell("ingredient")));
  const subName = tidy(cellText(cell("sub_recipe")));
  const offerText = tidy(cellText(cell("offer")));
  const quantityGiven = cellText(cell("quantity")) !== "";
  const yieldGiven = cellText(cell("yield_g")) !== "";
  const hasLine = Boolean(ingredientName || subName || quantityGiven || offerText);
  let levelId: number | null = null;
  if (levelName) {
    levelId = known.levels.get(keyOf(levelName)) ?? null;
    if (levelId === null) errors.level = message("foodImportDishes.unknown_level", { name: levelName });
  } else if (hasLine || yieldGiven) errors.level = message("validation.required");
  // A recipe has at least one line: a row with a level names one.
  if (levelName && !hasLine) errors.ingredient = message("foodImportDishes.ingredient_or_sub_recipe");
  const bounds = { min: 0, max: MAX_LINE_QUANTITY, aboveMin: true };
  const yieldGrams = readDecimal(cell("yield_g"), "yield_g", bounds, errors);
  let line: PlannedLine | null = null;
  if (hasLine) {
    if (ingredientName && subName) errors.sub_recipe = message("foodImportDishes.ingredient_or_sub_recipe");
    else if (!ingredientName && !subName) errors.ingredient = message("foodImportDishes.ingredient_or_sub_recipe");
    let ingredientId: number | null = null;
    if (ingredientName && !subName) {
      ingredientId = known.ingredients.get(keyOf(ingredientName)) ?? null;
      if (ingredientId === null)
        errors.ingredient = message("foodImportDishes.unknown_ingredient", { name: ingredientName });
    }
    const quantity = readDecimal(cell("quantity"), "quantity", bounds, errors, true);
    let offerId: number | null = null;
    if (offerText) {
      if (subName && !ingredientName) errors.offer = message("foodImportDishes.offer_of_sub_recipe");
      else if (ingredientId !== null) {
        offerId = known.offers.get(ingredientId)?.get(keyOf(offerText)) ?? null;
        if (offerId === null) errors.offer = message("foodImportDishes.unknown_offer", { name: ingredientName });
      }
    }
    if (quantity !== null) line = { row, ingredientId, subDishKey: null, quantity, offerId };
  }
  const sub = hasLine && subName && !ingredientName ? subName : null;
  if (line && sub) line.subDishKey = keyOf(sub);
  return { levelId, yieldGrams, line, sub };
}

/** Checks one row on its own and against the rows before it; a row without problems joins its dish's draft. */
function checkRow(context: RowContext, cells: CellValue[], row: number): void {
  const { known, header, drafts } = context;
  const cell: Cell = (field) => {
    const column = header.columns.get(field);
    return column ? cells[column.at] : undefined;
  };
  const errors: RowErrors = {};
  const { name, key, draft, categoryIds, description } = checkDishFields(known, cell, drafts, errors);
  const { levelId, yieldGrams, line, sub } = checkRecipeLine(known, cell, row, errors);
  if (sub) context.subLines.push({ row, dishKey: key, subKey: keyOf(sub), subName: sub });

  // Within one recipe, a line written twice is a mistake.
  const recipe = draft && levelId !== null ? draft.recipes.get(levelId) : undefined;
  if (recipe && yieldGrams !== null && recipe.yieldGrams && recipe.yieldGrams.value !== yieldGrams)
    errors.yield_g = message("foodImportDishes.differs", { row: recipe.yieldGrams.row });
  if (line && recipe && recipe.lines.length >= MAX_RECIPE_LINES)
    errors.quantity = message("foodImportDishes.too_many_lines", { max: MAX_RECIPE_LINES });
  else if (line && recipe) {
    const twin = recipe.lines.find(
      (l) =>
        l.ingredientId === line.ingredientId &&
        l.subDishKey === line.subDishKey &&
        l.quantity === line.quantity &&
        l.offerId === line.offerId,
    );
    if (twin)
      errors[line.subDishKey ? "sub_recipe" : "ingredient"] = message("foodImportDishes.repeated_line", {
        row: twin.row,
      });
  }
  if (context.problems.reportRow(row, errors, header.order, header.headerOf)) return;

  const target: DishDraft = draft ?? { row, name, description: null, categories: null, recipes: new Map() };
  if (!draft) drafts.set(key, target);
  if (categoryIds && !target.categories) target.categories = { ids: categoryIds, row };
  if (description && !target.description) target.description = { value: description, row };
  if (levelId !== null) {
    let planned = target.recipes.get(levelId);
    if (!planned) target.recipes.set(levelId, (planned = { yieldGrams: null, lines: [] }));
    if (yieldGrams !== null && !planned.yieldGrams) planned.yieldGrams = { value: yieldGrams, row };
    if (line) planned.lines.push(line);
  }
}

/** The checks of the whole file: each dish has its categories; sub-recipes exist and make no dish of itself. */
function checkFile(context: RowContext): void {
  const { drafts, known, header, problems } = context;
  for (const draft of drafts.values())
    if (!draft.categories)
      problems.report(draft.row, header.headerOf("categories"), message("foodImportDishes.categories_required"));
  for (const sub of context.subLines)
    if (!drafts.has(sub.subKey) && !known.dishes.has(sub.subKey))
      problems.report(
        sub.row,
        header.headerOf("sub_recipe"),
        message("foodImportDishes.unknown_dish", { name: sub.subName }),
      );
  if (problems.any) return;
  for (const cycle of findCycles(drafts, known, context.subLines))
    problems.report(cycle.row, header.headerOf("sub_recipe"), message("foodImportDishes.cycle", { path: cycle.path }));
}

/** The plan of the drafts: each dish and recipe created, changed or left alone. */
function planDishes(context: RowContext): { counts: DishImportCounts; dishes: PlannedDish[] } {
  const { known } = context;
  const counts = emptyCounts();
  const planned: PlannedDish[] = [];
  for (const [key, draft] of context.drafts) {
    const existing = known.dishes.get(key) ?? null;
    const values = {
      name: draft.name,
      description: draft.description?.value ?? "",
      categoryIds: draft.categories!.ids,
    };
    if (!existing) counts.dishesCreated++;
    else if (sameDish(existing, values, known)) counts.dishesUnchanged++;
    else counts.dishesUpdated++;
    const recipes: PlannedRecipe[] = [];
    for (const [levelId, recipe] of draft.recipes) {
      const before = existing ? (known.recipes.get(`${existing.id}:${levelId}`) ?? null) : null;
      const plannedRecipe: PlannedRecipe = {
        levelId,
        yieldGrams: recipe.yieldGrams?.value ?? null,
        lines: recipe.lines,
        existing: before,
      };
      if (!before) counts.recipesCreated++;
      else if (sameRecipe(plannedRecipe, before, known.dishes)) counts.recipesUnchanged++;
      else counts.recipesReplaced++;
      recipes.push(plannedRecipe);
    }
    planned.push({ key, row: draft.row, ...values, existing, recipes });
  }
  return { counts, dishes: planned };
}

const emptyCounts = (): DishImportCounts => ({
  dishesCreated: 0,
  dishesUpdated: 0,
  dishesUnchanged: 0,
  recipesCreated: 0,
  recipesReplaced: 0,
  recipesUnchanged: 0,
});

/** The dish already has these name, description and categories. */
function sameDish(
  existing: Dish,
  values: { name: string; description: string; categoryIds: number[] },
  known: Catalogue,
) {
  return (
    existing.name === values.name &&
    existing.description === values.description &&
    sameIds(known.links.get(existing.id) ?? [], values.categoryIds)
  );
}

/** The planned recipe writes exactly what the catalogue holds (sub-recipes named by the dishes they are now). */
function sameRecipe(planned: PlannedRecipe, before: ExistingRecipe, dishes: Map<string, Dish>): boolean {
  if (planned.yieldGrams !== before.yieldGrams || planned.lines.length !== before.lines.length) return false;
  return planned.lines.every((line, i) => {
    const was = before.lines[i];
    const subDishId = line.subDishKey === null ? null : (dishes.get(line.subDishKey)?.id ?? -1);
    return (
      line.ingredientId === was.ingredientId &&
      subDishId === was.subDishId &&
      line.quantity === was.quantity &&
      line.offerId === was.offerId
    );
  });
}

/** A fingerprint of every write the plan makes and of the rows it starts from (a turn of the event loop every 500 dishes). */
async function fingerprintOf(dishes: PlannedDish[], counts: DishImportCounts): Promise<string> {
  const fingerprint = new Fingerprint();
  fingerprint.add(counts);
  for (const [i, d] of dishes.entries()) {
    if (i > 0 && i % 500 === 0) await nextTurn();
    fingerprint.add([
      d.name,
      d.description,
      d.categoryIds,
      d.existing ? [d.existing.id, d.existing.updatedAt.getTime()] : null,
      d.recipes.map((r) => [
        r.levelId,
        r.yieldGrams,
        r.lines.map((l) => [l.ingredientId, l.subDishKey, l.quantity, l.offerId]),
        r.existing ? [r.existing.id, r.existing.updatedAt] : null,
      ]),
    ]);
  }
  return fingerprint.digest();
}

/** How a long step reports and lets the event loop in. */
export interface DishImportProgress {
  /** Hears each step's progress: rows checked, rows staged. */
  onProgress?: (step: "checking" | "saving", done: number, total: number) => void;
}

/** The check gives the event loop a turn after about this long. */
const CHECK_SLICE_MS = 10;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Planned {
  plan: DishImportPlan;
  dishes: PlannedDish[];
  known: Catalogue;
  /** The stamp of the catalogue the plan was made from. */
  stamp: string;
}

/**
 * Reads and checks every row of the sheet against the catalogue as it is in `db` (read once, at the start), and works
 * out the plan, giving the event loop a turn every CHECK_SLICE_MS. Writes nothing.
 */
async function planRows(db: Db, sheet: SheetRows | undefined, options: DishImportProgress): Promise<Planned> {
  const problems = new ProblemList(MAX_LISTED_DISH_PROBLEMS);
  // The catalogue and its stamp in one read, so the stamp is the catalogue's even with another process writing.
  const { known, stamp } = db.$client.transaction(() => ({ known: catalogue(db), stamp: catalogueStamp(db) }))();
  const result = async (dishes: PlannedDish[], counts: DishImportCounts, read: number): Promise<Planned> => {
    await nextTurn();
    const plan: DishImportPlan = {
      counts,
      problems: problems.problems,
      moreProblems: problems.more,
      rows: read,
      fingerprint: await fingerprintOf(dishes, counts),
    };
    return { plan, dishes: problems.any ? [] : dishes, known, stamp };
  };
  // A line is an ingredient or a sub-recipe: the sheet needs one of the two columns.
  const header = readHeader(sheet, DISH_COLUMNS, HEADER_WORDS, MAX_DISH_IMPORT_ROWS, problems, (found, firstRow) => {
    if (!found.has("ingredient") && !found.has("sub_recipe"))
      problems.report(firstRow, "foodImportDishes.columns.ingredient", message("foodImportDishes.missing_column"));
  });
  if (!header || problems.any) return result([], emptyCounts(), 0);

  const context: RowContext = { known, header, drafts: new Map(), subLines: [], problems };
  let read = 0;
  let slice = performance.now();
  for (let offset = 0; offset < header.body.length; offset++) {
    if (offset % 256 === 0 && performance.now() - slice > CHECK_SLICE_MS) {
      options.onProgress?.("checking", offset, header.body.length);
      await nextTurn();
      slice = performance.now();
    }
    const cells = header.body[offset];
    if (cells.every((value) => cellText(value) === "")) continue;
    read++;
    checkRow(context, cells, header.firstRow + 1 + offset);
  }
  options.onProgress?.("checking", header.body.length, header.body.length);
  if (read === 0 && !problems.any) problems.report(null, null, message("foodImportDishes.no_rows"));
  // Each step of the whole file is a turn of its own.
  await nextTurn();
  checkFile(context);
  if (problems.any) return result([], emptyCounts(), read);
  await nextTurn();
  const { counts, dishes } = planDishes(context);
  return result(dishes, counts, read);
}

// ——— Reading, previewing, importing ———

/**
 * What the dishes import accepts: 5 MiB and MAX_DISH_IMPORT_ROWS rows, read within 30 s (a full 20,000-row .xlsx
 * took 12 s on two cores under a load of 20, past the intake's default 10 s: dish-import.measure.ts).
 */
export const DISH_INTAKE: IntakeLimits = {
  maxBytes: MAX_WORKBOOK_BYTES,
  maxRows: MAX_DISH_IMPORT_ROWS,
  timeoutMs: 30_000,
};

/**
 * The first sheet of an uploaded .xlsx, .xls, .ods or .csv file through the one spreadsheet intake. Throws
 * ValidationFailed keyed `file` when the file is refused.
 */
export async function readDishSheet(bytes: Uint8Array, fileName: string): Promise<SheetRows> {
  return (await readFirstSheet(bytes, fileName, DISH_INTAKE)).sheet;
}

/** What importing `sheet` would do, without writing. */
export async function previewDishImport(
  db: Db,
  sheet: SheetRows | undefined,
  options: DishImportProgress = {},
): Promise<DishImportPlan> {
  return (await planRows(db, sheet, options)).plan;
}

/** How confirmPlan refuses a dishes plan. */
const CONFIRM_WORDS = {
  refused: (plan: DishImportPlan) => ({
    file: message("foodImportDishes.has_problems", { count: plan.problems.length + plan.moreProblems }),
  }),
  changed: message("foodImportDishes.changed"),
};

export interface DishImportOptions extends DishImportProgress {
  /** The fingerprint of the preview the person confirmed; without it (the command line) the plan as it is now. */
  fingerprint?: string;
  /** The background job writing it, so recovery knows the run is alive while the job runs. */
  jobId?: number | null;
  /** How long each staging chunk may hold the database, and the pause between chunks. */
  pacing?: ChunkPacing;
}

/** How often the import plans again when the catalogue changes while it stages, before it gives up. */
const PUBLISH_ATTEMPTS = 3;

/**
 * Imports the sheet: plans it again and, when it has no problems (ImportRefused otherwise) and matches `fingerprint`
 * when one is given (PlanChanged otherwise), stages every write in short transactions and publishes them in one:
 * the new and changed dishes, then every recipe that is new or differs, its lines replaced whole, each audited.
 * When the catalogue changed while staging, it plans again (the same plan is staged again; another is PlanChanged).
 * Returns the plan written.
 */
export async function importDishes(
  db: Db,
  actor: Actor,
  sheet: SheetRows | undefined,
  options: DishImportOptions = {},
  now?: Date,
): Promise<DishImportPlan> {
  recoverDishImports(db);
  let expected = options.fingerprint;
  for (let attempt = 1; ; attempt++) {
    const planned = await planRows(db, sheet, options);
    confirmPlan(planned.plan, expected, CONFIRM_WORDS);
    // Planned again, it is this plan that is written or nothing.
    expected = planned.plan.fingerprint;
    if (changesOf(planned.plan.counts) === 0) return planned.plan;
    const runId = openRun(db, actor, options.jobId ?? null);
    try {
      await nextTurn();
      const rows = stagedRows(db, planned);
      await stageRows(db, runId, rows, options.pacing ?? STAGING_PACING, (done, total) =>
        options.onProgress?.("saving", done, total),
      );
      await nextTurn();
      const stillCurrent = () => catalogueStamp(db) === planned.stamp;
      if (publishRun(db, runId, stillCurrent, now ?? new Date())) return planned.plan;
    } finally {
      await clearRun(db, runId);
    }
    if (attempt === PUBLISH_ATTEMPTS) throw new Conflict(message("foodImportDishes.busy"));
  }
}

/** What the audit keeps of a dish (as src/domain/food/dishes.ts writes it). */
const dishSnapshot = (values: { name: string; description: string; categoryIds: number[]; active: boolean }) => ({
  name: values.name,
  description: values.description,
  dishCategoryIds: [...values.categoryIds].sort((a, b) => a - b),
  active: values.active,
});

/** What the audit keeps of a recipe (as src/domain/food/recipes.ts writes it). */
const recipeSnapshot = (levelId: number, yieldGrams: number | null, lines: ExistingLine[]) => ({
  levelId,
  yieldGrams,
  lines: lines.map((l) =>
    l.subDishId !== null
      ? { subDishId: l.subDishId, quantity: l.quantity }
      : { ingredientId: l.ingredientId, quantity: l.quantity, offerId: l.offerId },
  ),
});

/**
 * Every row the plan writes, in the order it is written, with the ids its new dishes and recipes will have
 * (reserved now): the dishes created or changed with their audit entries, then the recipes with theirs.
 */
function stagedRows(db: Db, { dishes, known }: Planned): StagedRow[] {
  const creating = dishes.filter((d) => !d.existing);
  const saving = dishes.flatMap((d) =>
    d.recipes
      .filter((r) => !r.existing || !sameRecipe(r, r.existing, known.dishes))
      .map((r) => ({ dish: d, recipe: r })),
  );
  let nextDish = reserveIds(db, "dishes", creating.length);
  let nextRecipe = reserveIds(db, "recipes", saving.filter((s) => !s.recipe.existing).length);
  const ids = new Map<string, number>();
  for (const [key, dish] of known.dishes) ids.set(key, dish.id);
  for (const dish of creating) ids.set(dish.key, nextDish++);
  const rows: StagedRow[] = [];
  for (const dish of dishes) {
    const values = {
      name: dish.name,
      description: dish.description,
      categoryIds: dish.categoryIds,
      active: dish.existing?.active ?? true,
    };
    const dishId = ids.get(dish.key)!;
    if (!dish.existing) {
      rows.push({ kind: "dish", dishId, isNew: true, ...values });
      rows.push({ kind: "audit", action: "dish.created", subjectId: dishId, after: dishSnapshot(values) });
    } else if (!sameDish(dish.existing, values, known)) {
      const before = { ...dish.existing, categoryIds: [...(known.links.get(dish.existing.id) ?? [])] };
      rows.push({ kind: "dish", dishId, isNew: false, ...values });
      rows.push({
        kind: "audit",
        action: "dish.updated",
        subjectId: dishId,
        before: dishSnapshot(before),
        after: dishSnapshot(values),
      });
    }
  }
  for (const { dish, recipe } of saving) {
    const dishId = ids.get(dish.key)!;
    const lines = recipe.lines.map((l) => ({
      ingredientId: l.ingredientId,
      subDishId: l.subDishKey === null ? null : ids.get(l.subDishKey)!,
      quantity: l.quantity,
      offerId: l.offerId,
    }));
    const existing = recipe.existing;
    const recipeId = existing ? existing.id : nextRecipe++;
    rows.push({
      kind: "recipe",
      recipeId,
      isNew: !existing,
      dishId,
      levelId: recipe.levelId,
      yieldGrams: recipe.yieldGrams,
      lines,
    });
    rows.push({
      kind: "audit",
      action: "recipe.saved",
      subjectId: dishId,
      before: existing ? recipeSnapshot(recipe.levelId, existing.yieldGrams, existing.lines) : undefined,
      after: recipeSnapshot(recipe.levelId, recipe.yieldGrams, lines),
    });
  }
  return rows;
}

// ——— Problems in words ———

const PROBLEM_WORDS: ProblemWords = {
  atRowColumn: "foodImportDishes.at_row_column",
  atRow: "foodImportDishes.at_row",
  columnPrefix: "foodImportDishes.",
};

/** A problem in words: "Fila 7 (Insumo): Insumo desconocido: Papa amarilla." */
export function describeDishProblem(problem: ImportProblem, locale: Locale): string {
  return describeImportProblem(problem, locale, PROBLEM_WORDS);
}

/** A problem's column in the reader's words: a header as written, or a column's key translated. */
export function columnWords(column: string | null, locale: Locale): string | null {
  return problemColumn(column, locale, PROBLEM_WORDS.columnPrefix);
}
