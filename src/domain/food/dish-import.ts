/**
 * Loading dishes and their recipes from a workbook (`./mesa import:dishes FILE` and the Food page's upload), all or
 * nothing. The first sheet holds a header row, in Spanish or English (the columns of `DISH_COLUMNS`, in any order),
 * then one recipe line per row: the dish (with its categories and description), the level, the recipe's yield, and
 * the line — an ingredient (quantity in its base unit, optionally pinned to one of its offers) or another dish used as
 * a sub-recipe (quantity in grams). The rows of one dish and level are one recipe, and the file replaces that recipe
 * whole (dishes.ts and recipes.ts write it, as the dish modal does); the dish's other levels are left as they are. A
 * row with only the dish (no level, no line) keeps a dish without recipes, as the export writes one, so it imports
 * back.
 *
 * Every row is checked first against the catalogue as it is (unknown category, level, ingredient, offer or
 * sub-recipe; a bad number; a sub-recipe cycle; the same dish written two ways; a line repeated), per row and
 * column. Without problems, the plan says which dishes would be created, changed (name, description or categories)
 * or left alone and which recipes would be created, replaced or left alone, with a fingerprint of every write and of
 * the rows it starts from. Applying writes that plan in one immediate transaction, and only that plan: given the
 * fingerprint a person confirmed, it refuses (DishPlanChanged) when the catalogue changed meanwhile.
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
  recipeLines,
  recipes as recipesTable,
} from "../../../db/schema";
import type { Db } from "../../db";
import { sha256 } from "../../crypto";
import { translate, translateDynamic, type Locale, type TranslationKey } from "../../shared/i18n";
import type { Actor, Tx } from "../audit";
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
import { BUILT_IN_LEVELS } from "../../shared/food/built-in-levels";
import { tidy } from "./cities";
import { insertDish, writeDishUpdate, type Dish, type DishValues } from "./dishes";
import { readDecimal } from "./figures";
import { MAX_LINE_QUANTITY, MAX_RECIPE_LINES, writeRecipe } from "./recipes";

/** The most rows a dishes workbook may hold. */
export const MAX_DISH_IMPORT_ROWS = 20_000;
/** The most problems listed (any problem means nothing is imported). */
export const MAX_LISTED_DISH_PROBLEMS = 200;
/** What separates the parts of a pinned offer: "Provider · presentation · city". */
export const OFFER_SEPARATOR = " · ";

/** A column of the workbook: the field it fills and the key of its header (food-import-dishes.json). */
export interface DishColumn {
  field: DishField;
  header: TranslationKey;
  required?: boolean;
}

export type DishField =
  "dish" | "categories" | "description" | "level" | "yield_g" | "ingredient" | "sub_recipe" | "quantity" | "offer";

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

/** A problem of a row (its spreadsheet row number) and column (its header as written, or its key). */
export interface DishImportProblem {
  row: number | null;
  column: string | null;
  message: Message;
}

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
  problems: DishImportProblem[];
  /** More problems than listed. */
  moreProblems: number;
  /** Rows read (blank ones left out). */
  rows: number;
  fingerprint: string;
}

/** The catalogue changed between the preview and the confirmation: the new plan, nothing written. */
export class DishPlanChanged extends Error {
  constructor(readonly plan: DishImportPlan) {
    super("The dishes changed since the preview");
  }
}

/** Thrown by applying a plan with problems (the problems are in `plan`). */
export class DishImportRefused extends ValidationFailed {
  constructor(readonly plan: DishImportPlan) {
    super({ file: message("foodImportDishes.has_problems", { count: plan.problems.length + plan.moreProblems }) });
  }
}

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

interface ExistingRecipe {
  id: number;
  dishId: number;
  levelId: number;
  yieldGrams: number | null;
  updatedAt: number;
  lines: { ingredientId: number | null; subDishId: number | null; quantity: number; offerId: number | null }[];
}

/** A cell as text: trimmed, spaces made one, a neutralised formula read back without its apostrophe. */
function text(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  const cell = /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return cell.replace(/\s+/g, " ").trim();
}

const keyOf = (name: string) => foldText(tidy(name));

/** Header words, folded, to the field they name: both languages' headers and the field's own key. */
function headerIndex(): Map<string, DishField> {
  const index = new Map<string, DishField>();
  for (const column of DISH_COLUMNS) {
    index.set(foldText(column.field), column.field);
    for (const locale of ["es", "en"] as const) index.set(foldText(translate(locale, column.header)), column.field);
  }
  return index;
}

/** A pinned offer as the workbook writes it. */
export function offerLabel(offer: { providerName: string; presentation: string; cityName: string }): string {
  return [offer.providerName, offer.presentation, offer.cityName].join(OFFER_SEPARATOR);
}

/** Everything of the catalogue the plan reads, each by its folded name. */
function catalogue(db: Db | Tx) {
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
  // Offers by ingredient, then by "provider · presentation · city" folded.
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
  const recipes = new Map<string, ExistingRecipe>();
  const recipeById = new Map<number, ExistingRecipe>();
  for (const r of db.select().from(recipesTable).all()) {
    const recipe: ExistingRecipe = {
      id: r.id,
      dishId: r.dishId,
      levelId: r.levelId,
      yieldGrams: r.yieldGrams,
      updatedAt: r.updatedAt.getTime(),
      lines: [],
    };
    recipes.set(`${r.dishId}:${r.levelId}`, recipe);
    recipeById.set(r.id, recipe);
  }
  for (const l of db
    .select()
    .from(recipeLines)
    .orderBy(recipeLines.recipeId, recipeLines.position, recipeLines.id)
    .all())
    recipeById.get(l.recipeId)?.lines.push({
      ingredientId: l.ingredientId,
      subDishId: l.subDishId,
      quantity: l.quantity,
      offerId: l.offerId,
    });
  return { categories, levels, ingredients, offers, dishes, links, recipes };
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === [...b].sort((x, y) => x - y)[i]);

/**
 * Reads and checks every row of the sheet against the catalogue as it is in `db`, and works out the plan. Writes
 * nothing.
 */
function planRows(db: Db | Tx, sheet: SheetRows | undefined): { plan: DishImportPlan; dishes: PlannedDish[] } {
  const problems: DishImportProblem[] = [];
  let moreProblems = 0;
  const report = (row: number | null, column: string | null, problem: Message) => {
    if (problems.length < MAX_LISTED_DISH_PROBLEMS) problems.push({ row, column, message: problem });
    else moreProblems++;
  };
  const empty: DishImportCounts = {
    dishesCreated: 0,
    dishesUpdated: 0,
    dishesUnchanged: 0,
    recipesCreated: 0,
    recipesReplaced: 0,
    recipesUnchanged: 0,
  };
  const result = (planned: PlannedDish[], counts: DishImportCounts, read: number) => {
    const plan: DishImportPlan = { counts, problems, moreProblems, rows: read, fingerprint: "" };
    plan.fingerprint = fingerprintOf(planned, counts);
    return { plan, dishes: problems.length ? [] : planned };
  };
  const all = sheet?.rows ?? [];
  const headerAt = all.findIndex((row) => row.some((cell) => text(cell) !== ""));
  if (!sheet || headerAt < 0) {
    report(null, null, message("foodImportDishes.empty"));
    return result([], empty, 0);
  }
  const firstRow = sheet.firstRow + headerAt;
  const index = headerIndex();
  const columns = new Map<DishField, { at: number; header: string }>();
  all[headerAt].forEach((cell, at) => {
    const header = text(cell);
    if (!header) return;
    const field = index.get(foldText(header));
    if (!field) return report(firstRow, header, message("foodImportDishes.unknown_column"));
    if (columns.has(field)) return report(firstRow, header, message("foodImportDishes.repeated_column"));
    columns.set(field, { at, header });
  });
  for (const column of DISH_COLUMNS)
    if (column.required && !columns.has(column.field))
      report(firstRow, column.header, message("foodImportDishes.missing_column"));
  if (!columns.has("ingredient") && !columns.has("sub_recipe"))
    report(firstRow, "foodImportDishes.columns.ingredient", message("foodImportDishes.missing_column"));
  const body = all.slice(headerAt + 1);
  if (body.length > MAX_DISH_IMPORT_ROWS)
    report(null, null, message("foodImportDishes.too_many_rows", { max: MAX_DISH_IMPORT_ROWS }));
  if (problems.length) return result([], empty, 0);

  const headerOf = (field: DishField) =>
    columns.get(field)?.header ?? DISH_COLUMNS.find((c) => c.field === field)!.header;
  const order = new Map(DISH_COLUMNS.map((c, i) => [c.field, i]));
  const known = catalogue(db);

  // First pass: every row read on its own; dishes gathered by key, in the order they first appear.
  interface DishDraft {
    row: number;
    name: string;
    description: { value: string; row: number } | null;
    categories: { ids: number[]; text: string; row: number } | null;
    recipes: Map<number, { yieldGrams: { value: number; row: number } | null; lines: PlannedLine[] }>;
  }
  const drafts = new Map<string, DishDraft>();
  // Lines whose sub-recipe is checked once every dish of the file is known.
  const subLines: { row: number; dishKey: string; subKey: string; subName: string }[] = [];
  let read = 0;
  body.forEach((cells, offset) => {
    const rowNumber = firstRow + 1 + offset;
    const cell = (field: DishField) => {
      const column = columns.get(field);
      return column ? cells[column.at] : undefined;
    };
    if (cells.every((value) => text(value) === "")) return;
    read++;
    const errors: Partial<Record<DishField, Message>> = {};
    const name = tidy(text(cell("dish")));
    if (name.length < 2) errors.dish = message(name ? "validation.min_length" : "validation.required", { min: 2 });
    else if (name.length > 120) errors.dish = message("validation.max_length", { max: 120 });
    const key = keyOf(name);
    const draft = !errors.dish ? drafts.get(key) : undefined;
    if (draft && draft.name !== name)
      errors.dish = message("foodImportDishes.written_differently", { name: draft.name, row: draft.row });

    // The dish's own fields: given on any of its rows, the same wherever given.
    const categoriesText = text(cell("categories"));
    let categoryIds: number[] | null = null;
    if (categoriesText) {
      const words = categoriesText
        .split(",")
        .map((w) => tidy(w))
        .filter(Boolean);
      const unknown = words.filter((w) => !known.categories.has(keyOf(w)));
      if (unknown.length)
        errors.categories = message("foodImportDishes.unknown_category", { names: unknown.join(", ") });
      else categoryIds = [...new Set(words.map((w) => known.categories.get(keyOf(w))!))];
      if (categoryIds && draft?.categories && !sameIds(categoryIds, draft.categories.ids))
        errors.categories = message("foodImportDishes.differs", { row: draft.categories.row });
    }
    const description = tidy(text(cell("description")));
    if (description.length > 1000) errors.description = message("validation.max_length", { max: 1000 });
    else if (description && draft?.description && draft.description.value !== description)
      errors.description = message("foodImportDishes.differs", { row: draft.description.row });

    // The recipe and its line.
    const levelName = tidy(text(cell("level")));
    const ingredientName = tidy(text(cell("ingredient")));
    const subName = tidy(text(cell("sub_recipe")));
    const offerText = tidy(text(cell("offer")));
    const quantityGiven = text(cell("quantity")) !== "";
    const yieldGiven = text(cell("yield_g")) !== "";
    const hasLine = Boolean(ingredientName || subName || quantityGiven || offerText);
    let levelId: number | null = null;
    if (levelName) {
      levelId = known.levels.get(keyOf(levelName)) ?? null;
      if (levelId === null) errors.level = message("foodImportDishes.unknown_level", { name: levelName });
    } else if (hasLine || yieldGiven) errors.level = message("validation.required");
    // A recipe has at least one line: a row with a level names one.
    if (levelName && !hasLine) errors.ingredient = message("foodImportDishes.ingredient_or_sub_recipe");
    const yieldGrams = readDecimal(
      cell("yield_g"),
      "yield_g",
      { min: 0, max: MAX_LINE_QUANTITY, aboveMin: true },
      errors,
    );
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
      const quantity = readDecimal(
        cell("quantity"),
        "quantity",
        { min: 0, max: MAX_LINE_QUANTITY, aboveMin: true },
        errors,
        true,
      );
      let offerId: number | null = null;
      if (offerText) {
        if (subName && !ingredientName) errors.offer = message("foodImportDishes.offer_of_sub_recipe");
        else if (ingredientId !== null) {
          offerId = known.offers.get(ingredientId)?.get(keyOf(offerText)) ?? null;
          if (offerId === null) errors.offer = message("foodImportDishes.unknown_offer", { name: ingredientName });
        }
      }
      if (quantity !== null) line = { row: rowNumber, ingredientId, subDishKey: null, quantity, offerId };
      if (subName && !ingredientName) {
        if (line) line.subDishKey = keyOf(subName);
        subLines.push({ row: rowNumber, dishKey: key, subKey: keyOf(subName), subName });
      }
    }

    // Within one recipe, a line written twice is a mistake.
    const recipe = draft && levelId !== null ? draft.recipes.get(levelId) : undefined;
    if (recipe && yieldGrams !== null && recipe.yieldGrams && recipe.yieldGrams.value !== yieldGrams)
      errors.yield_g = message("foodImportDishes.differs", { row: recipe.yieldGrams.row });
    if (line && recipe && recipe.lines.length >= MAX_RECIPE_LINES)
      errors.quantity = message("foodImportDishes.too_many_lines", { max: MAX_RECIPE_LINES });
    else if (line && recipe) {
      const twin = recipe.lines.find(
        (l) =>
          l.ingredientId === line!.ingredientId &&
          l.subDishKey === line!.subDishKey &&
          l.quantity === line!.quantity &&
          l.offerId === line!.offerId,
      );
      if (twin)
        errors[line.subDishKey ? "sub_recipe" : "ingredient"] = message("foodImportDishes.repeated_line", {
          row: twin.row,
        });
    }

    const inColumnOrder = Object.entries(errors).sort(
      ([a], [b]) => (order.get(a as DishField) ?? 99) - (order.get(b as DishField) ?? 99),
    );
    for (const [field, problem] of inColumnOrder) report(rowNumber, headerOf(field as DishField), problem);
    if (inColumnOrder.length) return;

    const target: DishDraft = draft ?? {
      row: rowNumber,
      name,
      description: null,
      categories: null,
      recipes: new Map(),
    };
    if (!draft) drafts.set(key, target);
    if (categoryIds && !target.categories)
      target.categories = { ids: categoryIds, text: categoriesText, row: rowNumber };
    if (description && !target.description) target.description = { value: description, row: rowNumber };
    if (levelId !== null) {
      let planned = target.recipes.get(levelId);
      if (!planned) target.recipes.set(levelId, (planned = { yieldGrams: null, lines: [] }));
      if (yieldGrams !== null && !planned.yieldGrams) planned.yieldGrams = { value: yieldGrams, row: rowNumber };
      if (line) planned.lines.push(line);
    }
  });
  if (read === 0 && problems.length === 0) report(null, null, message("foodImportDishes.no_rows"));

  // A dish needs its categories on one of its rows.
  for (const draft of drafts.values())
    if (!draft.categories) report(draft.row, headerOf("categories"), message("foodImportDishes.categories_required"));

  // Sub-recipes: a dish of the catalogue or of the file, and no dish made of itself through them.
  for (const sub of subLines)
    if (!drafts.has(sub.subKey) && !known.dishes.has(sub.subKey))
      report(sub.row, headerOf("sub_recipe"), message("foodImportDishes.unknown_dish", { name: sub.subName }));
  if (problems.length === 0) {
    const cycles = findCycles(drafts, known, subLines);
    for (const cycle of cycles)
      report(cycle.row, headerOf("sub_recipe"), message("foodImportDishes.cycle", { path: cycle.path }));
  }
  if (problems.length) return result([], empty, read);

  const counts = { ...empty };
  const planned: PlannedDish[] = [];
  for (const [key, draft] of drafts) {
    const existing = known.dishes.get(key) ?? null;
    const values = {
      name: draft.name,
      description: draft.description?.value ?? "",
      categoryIds: draft.categories!.ids,
    };
    if (!existing) counts.dishesCreated++;
    else if (
      existing.name === values.name &&
      existing.description === values.description &&
      sameIds(known.links.get(existing.id) ?? [], values.categoryIds)
    )
      counts.dishesUnchanged++;
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
  return result(planned, counts, read);
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

/**
 * The sub-recipe lines of the file that make a dish part of itself, once the file is written: each dish's
 * sub-recipes are those of its recipes in the file and of its other levels' recipes in the catalogue. Each cycle is
 * reported once, at the first of its lines the file writes, as the path of dish names.
 */
function findCycles(
  drafts: Map<string, { name: string; recipes: Map<number, { lines: PlannedLine[] }> }>,
  known: ReturnType<typeof catalogue>,
  subLines: { row: number; dishKey: string; subKey: string }[],
): { row: number; path: string }[] {
  const nameById = new Map<number, Dish>();
  for (const dish of known.dishes.values()) nameById.set(dish.id, dish);
  const names = new Map<string, string>();
  for (const [key, dish] of known.dishes) names.set(key, dish.name);
  for (const [key, draft] of drafts) names.set(key, draft.name);
  // Edges by dish key.
  const edges = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    let set = edges.get(from);
    if (!set) edges.set(from, (set = new Set()));
    set.add(to);
  };
  for (const recipe of known.recipes.values()) {
    const dish = nameById.get(recipe.dishId);
    if (!dish) continue;
    const key = keyOf(dish.name);
    if (drafts.get(key)?.recipes.has(recipe.levelId)) continue; // replaced by the file
    for (const line of recipe.lines) {
      const sub = line.subDishId === null ? undefined : nameById.get(line.subDishId);
      if (sub) add(key, keyOf(sub.name));
    }
  }
  for (const sub of subLines) add(sub.dishKey, sub.subKey);
  // A line closes a cycle when its dish and its sub-recipe are in one strongly connected component (or are one
  // dish); only those lines look for their path back, so a long chain of sub-recipes costs one walk of the graph.
  const component = components(edges);
  const reported = new Set<string>();
  const found: { row: number; path: string }[] = [];
  for (const line of subLines) {
    if (line.dishKey !== line.subKey && (component.get(line.dishKey) ?? -1) !== (component.get(line.subKey) ?? -2))
      continue;
    const path = pathBetween(edges, line.subKey, line.dishKey);
    if (!path) continue;
    const cycle = [line.dishKey, ...path];
    const signature = [...cycle.slice(1)].sort().join("→");
    if (reported.has(signature)) continue;
    reported.add(signature);
    found.push({ row: line.row, path: cycle.map((k) => names.get(k) ?? k).join(" → ") });
  }
  return found;
}

/** Each dish key's strongly connected component (Tarjan's algorithm, walked without recursion). */
function components(edges: Map<string, Set<string>>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let next = 0;
  let count = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { key: string; children: Iterator<string> }[] = [];
    const open = (key: string) => {
      index.set(key, next);
      low.set(key, next++);
      stack.push(key);
      onStack.add(key);
      work.push({ key, children: (edges.get(key) ?? new Set<string>()).values() });
    };
    open(root);
    while (work.length) {
      const top = work[work.length - 1];
      const child = top.children.next();
      if (!child.done) {
        if (!index.has(child.value)) open(child.value);
        else if (onStack.has(child.value)) low.set(top.key, Math.min(low.get(top.key)!, index.get(child.value)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].key;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.key)!));
      }
      if (low.get(top.key) === index.get(top.key)) {
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.set(member, count);
        } while (member !== top.key);
        count++;
      }
    }
  }
  return component;
}

/** The shortest path of dish keys from `from` to `to` (both included), or null. */
function pathBetween(edges: Map<string, Set<string>>, from: string, to: string): string[] | null {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) {
      const path: string[] = [];
      for (let k: string | null = at; k !== null; k = previous.get(k) ?? null) path.unshift(k);
      return path;
    }
    for (const next of edges.get(at) ?? [])
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
  }
  return null;
}

/** A fingerprint of every write the plan makes and of the rows it starts from. */
function fingerprintOf(dishes: PlannedDish[], counts: DishImportCounts): string {
  return sha256(
    JSON.stringify({
      counts,
      dishes: dishes.map((d) => [
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
      ]),
    }),
  );
}

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
export function previewDishImport(db: Db, sheet: SheetRows | undefined): DishImportPlan {
  return planRows(db, sheet).plan;
}

/**
 * Imports the sheet: plans it again inside one immediate transaction and, when it has no problems
 * (DishImportRefused otherwise) and matches `fingerprint` when one is given (DishPlanChanged otherwise), writes it:
 * the new and changed dishes, then every recipe that is new or differs, its lines replaced whole, each audited.
 * Returns the plan written.
 */
export function importDishes(
  db: Db,
  actor: Actor,
  sheet: SheetRows | undefined,
  options: { fingerprint?: string } = {},
  now = new Date(),
): DishImportPlan {
  return db.transaction(
    (tx) => {
      const { plan, dishes } = planRows(tx, sheet);
      if (plan.problems.length) throw new DishImportRefused(plan);
      if (options.fingerprint !== undefined && options.fingerprint !== plan.fingerprint)
        throw new DishPlanChanged(plan);
      const known = catalogue(tx);
      const ids = new Map<string, number>();
      for (const [key, dish] of known.dishes) ids.set(key, dish.id);
      for (const dish of dishes) {
        const values: DishValues = {
          name: dish.name,
          description: dish.description,
          categoryIds: dish.categoryIds,
          active: dish.existing?.active ?? true,
        };
        if (!dish.existing) ids.set(dish.key, insertDish(tx, actor, values, now).id);
        else if (
          dish.existing.name !== values.name ||
          dish.existing.description !== values.description ||
          !sameIds(known.links.get(dish.existing.id) ?? [], values.categoryIds)
        )
          writeDishUpdate(tx, actor, dish.existing, values, now);
      }
      const byId = new Map([...known.dishes.values()].map((d) => [keyOf(d.name), d]));
      for (const dish of dishes) {
        const dishId = ids.get(dish.key)!;
        for (const recipe of dish.recipes) {
          if (recipe.existing && sameRecipe(recipe, recipe.existing, byId)) continue;
          const lines = recipe.lines.map((l) => ({
            ingredientId: l.ingredientId,
            subDishId: l.subDishKey === null ? null : ids.get(l.subDishKey)!,
            quantity: l.quantity,
            offerId: l.offerId,
          }));
          writeRecipe(tx, actor, dishId, recipe.levelId, { yieldGrams: recipe.yieldGrams, lines }, now);
        }
      }
      return plan;
    },
    { behavior: "immediate" },
  );
}

/** A problem in words: "Fila 7 (Insumo): Insumo desconocido: Papa amarilla." */
export function describeDishProblem(problem: DishImportProblem, locale: Locale): string {
  const words =
    typeof problem.message === "string"
      ? problem.message
      : translate(locale, problem.message.key, problem.message.params);
  const column = columnWords(problem.column, locale);
  const where =
    problem.row !== null && column
      ? translate(locale, "foodImportDishes.at_row_column", { row: problem.row, column })
      : problem.row !== null
        ? translate(locale, "foodImportDishes.at_row", { row: problem.row })
        : null;
  return where ? `${where}: ${words}` : words;
}

/** A problem's column in the reader's words: a header as written, or a column's key translated. */
export function columnWords(column: string | null, locale: Locale): string | null {
  return column?.startsWith("foodImportDishes.") ? translateDynamic(locale, column, column) : column;
}
