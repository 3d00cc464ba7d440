/** The shapes the Food page and its dish modal receive: the server's own types (type-only imports, erased from the bundle). */
export type { CostedLine, CostedRecipe } from "../../../../src/domain/food/recipe-cost";
export type { DishRow, DishOption } from "../../../../src/domain/food/dishes";
export type { CostedDishRow, DishCost, DishDetail, RecipeChoices } from "../../../../src/http/routes/food";
export type { DishCategoryRow } from "../../../../src/domain/food/dish-categories";
export type { LevelRow } from "../../../../src/domain/food/levels";
