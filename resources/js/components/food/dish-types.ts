/** The shapes the Food page and its dish modal receive: the server's own types (type-only imports, erased from the bundle). */
export type { CostedLine, CostedRecipe } from "../../../../src/shared/food/types";
export type { DishRow, DishOption } from "../../../../src/shared/food/types";
export type { CostedDishRow, DishCost, DishDetail, RecipeChoices } from "../../../../src/shared/food/types";
export type { DishCategoryRow } from "../../../../src/shared/food/types";
export type { LevelRow } from "../../../../src/shared/food/types";
