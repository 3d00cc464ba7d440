import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ingredients, offers } from "./food";
import { levels } from "./sales";

/**
 * Dishes and their recipes, company-wide data like the ingredients they are made of.
 *
 * A dish category (entrada, segundo, sopa, refresco…) is measured in grams or millilitres; the "menu table" lists
 * them and menu structures are built from them. A dish belongs to one or more categories. A recipe is what one
 * serving of a dish is made of for one diner level (a Master's plate is larger than a Laborer's): lines of an
 * ingredient, or of another dish used as a sub-recipe, with a gross quantity, and optionally the one offer that line
 * is always costed at. Costs and nutrition are never stored: src/domain/food/recipe-cost.ts computes them from the
 * current figures and prices, so a price change shows at once everywhere.
 */
import { DISH_UNITS, type DishUnit } from "../../src/shared/food/types";
export { DISH_UNITS, type DishUnit };

export const dishCategories = sqliteTable(
  "dish_categories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull().unique(),
    description: text("description").notNull().default(""),
    /** How a serving of this category is measured: grams (a main course) or millilitres (a soup, a drink). */
    unit: text("unit", { enum: DISH_UNITS }).notNull().default("g"),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [check("dish_categories_unit_check", sql`${t.unit} IN ('g', 'ml')`)],
);

export const dishes = sqliteTable("dishes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  description: text("description").notNull().default(""),
  /** A dish no longer offered: kept for the menus and recipes that used it, left out of the dish search. */
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

export const dishCategoryLinks = sqliteTable(
  "dish_category_links",
  {
    dishId: integer("dish_id")
      .notNull()
      .references(() => dishes.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => dishCategories.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.dishId, t.categoryId] }),
    index("dish_category_links_category_index").on(t.categoryId),
  ],
);

/**
 * One serving of a dish for one level. `yieldGrams`, when set, is what the recipe makes (a sauce made by the
 * batch); otherwise it makes its lines' final product. A dish used as a sub-recipe is costed per gram of its yield.
 */
export const recipes = sqliteTable(
  "recipes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    dishId: integer("dish_id")
      .notNull()
      .references(() => dishes.id, { onDelete: "cascade" }),
    levelId: integer("level_id")
      .notNull()
      .references(() => levels.id, { onDelete: "restrict" }),
    yieldGrams: real("yield_grams"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("recipes_dish_level_unique").on(t.dishId, t.levelId),
    index("recipes_level_index").on(t.levelId),
    check("recipes_yield_check", sql`${t.yieldGrams} IS NULL OR ${t.yieldGrams} > 0`),
  ],
);

/**
 * A line of a recipe: exactly one of an ingredient (its quantity in the ingredient's base unit: g, ml or units) or
 * a sub-recipe dish (its quantity in grams of that dish). A line may pin the offer it is costed at; otherwise the
 * cheapest current offer in the city asked for is used.
 */
export const recipeLines = sqliteTable(
  "recipe_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    recipeId: integer("recipe_id")
      .notNull()
      .references(() => recipes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    ingredientId: integer("ingredient_id").references(() => ingredients.id, { onDelete: "restrict" }),
    subDishId: integer("sub_dish_id").references(() => dishes.id, { onDelete: "restrict" }),
    quantity: real("quantity").notNull(),
    offerId: integer("offer_id").references(() => offers.id, { onDelete: "set null" }),
  },
  (t) => [
    index("recipe_lines_recipe_index").on(t.recipeId, t.position),
    index("recipe_lines_ingredient_index").on(t.ingredientId),
    index("recipe_lines_sub_dish_index").on(t.subDishId),
    index("recipe_lines_offer_index").on(t.offerId),
    check("recipe_lines_quantity_check", sql`${t.quantity} > 0`),
    check(
      "recipe_lines_one_kind_check",
      sql`(${t.ingredientId} IS NULL) <> (${t.subDishId} IS NULL) AND (${t.subDishId} IS NULL OR ${t.offerId} IS NULL)`,
    ),
  ],
);
