/**
 * The dishes workbook as the export and the template write it: one recipe line per row, in the columns the import
 * reads (dish-import.ts), so an exported catalogue imports back unchanged. Dishes by name, each dish's recipes by
 * level order, each recipe's lines in their order; a dish without recipes is one row with no level. The dish's
 * categories and description are written on every row of it, so any row read alone says what the dish is.
 */
import type { Db } from "../../db";
import { translate, type Locale, type KeysUnder } from "../../shared/i18n";
import type { ExportSheet } from "../spreadsheets/write";
import { DISH_COLUMNS, offerLabel, type DishField } from "./dish-import";

/** One row of the workbook: a recipe line with its dish and level, or a dish alone. */
export type DishSheetRow = Record<DishField, string | number | null>;

const WIDTHS: Record<DishField, number> = {
  dish: 30,
  categories: 24,
  description: 36,
  level: 14,
  yield_g: 12,
  ingredient: 28,
  sub_recipe: 28,
  quantity: 12,
  offer: 40,
};

/** The dishes sheet in `locale`, in the import's columns. */
export function dishSheet(locale: Locale, rows: DishSheetRow[], name?: string): ExportSheet<DishSheetRow> {
  return {
    name: name ?? translate(locale, "foodImportDishes.sheet"),
    columns: DISH_COLUMNS.map((column) => ({
      header: translate(locale, column.header),
      value: (row: DishSheetRow) => row[column.field],
      width: WIDTHS[column.field],
    })),
    rows,
  };
}

interface LineRecord {
  dishId: number;
  dish: string;
  description: string;
  categories: string | null;
  level: string | null;
  yieldGrams: number | null;
  ingredient: string | null;
  subRecipe: string | null;
  quantity: number | null;
  providerName: string | null;
  presentation: string | null;
  cityName: string | null;
}

/**
 * Every dish (or those of `dishIds`) with its recipes, one line per row: what the dishes export writes. The dishes
 * table's export (`food.dishes.export`) calls this.
 */
export function dishRows(db: Db, dishIds?: readonly number[]): DishSheetRow[] {
  const records = db.$client
    .query<LineRecord, []>(
      `SELECT d.id AS dishId, d.name AS dish, d.description AS description,
         (SELECT group_concat(name, ', ') FROM (SELECT c.name FROM dish_category_links k
            JOIN dish_categories c ON c.id = k.category_id WHERE k.dish_id = d.id ORDER BY c.sort_order, c.name))
           AS categories,
         v.name AS level, r.yield_grams AS yieldGrams, i.name AS ingredient, s.name AS subRecipe,
         l.quantity AS quantity, p.name AS providerName, o.presentation AS presentation, c.name AS cityName
       FROM dishes d
       LEFT JOIN recipes r ON r.dish_id = d.id
       LEFT JOIN levels v ON v.id = r.level_id
       LEFT JOIN recipe_lines l ON l.recipe_id = r.id
       LEFT JOIN ingredients i ON i.id = l.ingredient_id
       LEFT JOIN dishes s ON s.id = l.sub_dish_id
       LEFT JOIN offers o ON o.id = l.offer_id
       LEFT JOIN providers p ON p.id = o.provider_id
       LEFT JOIN cities c ON c.id = o.city_id
       ORDER BY d.name COLLATE NOCASE, d.id, v.sort_order, v.name, l.position, l.id`,
    )
    .all();
  const wanted = dishIds ? new Set(dishIds) : null;
  return records
    .filter((r) => !wanted || wanted.has(r.dishId))
    .map((r) => ({
      dish: r.dish,
      categories: r.categories ?? "",
      description: r.description,
      level: r.level,
      yield_g: r.yieldGrams,
      ingredient: r.ingredient,
      sub_recipe: r.subRecipe,
      quantity: r.quantity,
      offer:
        r.providerName !== null && r.presentation !== null && r.cityName !== null
          ? offerLabel({ providerName: r.providerName, presentation: r.presentation, cityName: r.cityName })
          : null,
    }));
}

/** The dishes export: one sheet, every dish (or those of `dishIds`) with its recipes, in `locale`'s headers. */
export function dishesWorkbook(
  db: Db,
  locale: Locale = "es",
  dishIds?: readonly number[],
): ExportSheet<DishSheetRow>[] {
  return [dishSheet(locale, dishRows(db, dishIds))];
}

/**
 * The template: a first sheet with the columns to fill in (the one the import reads) and a second with an example —
 * a sauce made by the batch and a dish that uses it as a sub-recipe — so the example is never imported by mistake.
 */
export function dishesTemplate(locale: Locale): ExportSheet<DishSheetRow>[] {
  const t = (key: KeysUnder<"foodImportDishes.example">) => translate(locale, `foodImportDishes.example.${key}`);
  const row = (values: Partial<DishSheetRow>): DishSheetRow => ({
    dish: t("dish"),
    categories: t("category"),
    description: t("description"),
    level: t("level"),
    yield_g: null,
    ingredient: null,
    sub_recipe: null,
    quantity: null,
    offer: null,
    ...values,
  });
  const sauce = { dish: t("sauce"), categories: t("sauce_category"), description: "", yield_g: 500 };
  return [
    dishSheet(locale, []),
    dishSheet(
      locale,
      [
        row({ ...sauce, ingredient: t("coriander"), quantity: 400 }),
        row({ ...sauce, ingredient: t("oil"), quantity: 150 }),
        row({ ingredient: t("rice"), quantity: 120, offer: t("offer") }),
        row({ ingredient: t("chicken"), quantity: 180 }),
        row({ sub_recipe: t("sauce"), quantity: 30 }),
      ],
      t("sheet"),
    ),
  ];
}
