/** The shapes the food and logistics pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { CityOption, CityRow } from "../../../../src/domain/food/cities";
export type { CategoryRow } from "../../../../src/domain/food/categories";
export type { IngredientRow, IngredientOption } from "../../../../src/domain/food/ingredients";
export type { ProviderRow, ProviderOption } from "../../../../src/domain/food/providers";
export type { OfferRow, ProviderGroup, CityGroup, GroupPage } from "../../../../src/domain/food/offer-lists";
export type { PriceHistoryRow } from "../../../../src/domain/food/offers";
export type { LogisticsCentre, StockedIngredient } from "../../../../src/domain/food/logistics";
export type { FoodTab } from "../../../../src/http/food-pages";

import type { CategoryRow as Category } from "../../../../src/domain/food/categories";
import type { CityOption as City } from "../../../../src/domain/food/cities";
import type { IngredientOption as IngredientChoice } from "../../../../src/domain/food/ingredients";
import type { ProviderOption as ProviderChoice } from "../../../../src/domain/food/providers";
import type { FoodTab as Tab } from "../../../../src/http/food-pages";
import type { OfferHistory } from "./offer-history-dialog";

/** The props every page of the area receives for its dialogs (src/http/food-pages.ts, foodDialogProps). */
export interface FoodDialogProps {
  categories: Category[];
  providerOptions: ProviderChoice[];
  cityOptions: City[];
  /** Loaded when the offer dialog opens. */
  ingredientOptions?: IngredientChoice[];
  foodSettings: { rucLength: number; igvRate: number };
  can: { manageFood: boolean; manageLogistics: boolean };
  tabs: Tab[];
  /** An offer's price history, loaded when its dialog opens. */
  history?: OfferHistory | null;
}
