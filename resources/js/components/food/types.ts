/** The shapes the food and logistics pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { CityOption, CityRow } from "../../../../src/shared/food/types";
export type { CategoryRow } from "../../../../src/shared/food/types";
export type { IngredientRow, IngredientOption } from "../../../../src/shared/food/types";
export type { ProviderRow, ProviderOption } from "../../../../src/shared/food/types";
export type { OfferRow, ProviderGroup, CityGroup, GroupPage } from "../../../../src/shared/food/types";
export type { PriceHistoryRow } from "../../../../src/shared/food/types";
export type { LogisticsCentre, StockedIngredient } from "../../../../src/shared/food/types";
export type { FoodTab } from "../../../../src/shared/food/types";

import type { CategoryRow as Category } from "../../../../src/shared/food/types";
import type { CityOption as City } from "../../../../src/shared/food/types";
import type { IngredientOption as IngredientChoice } from "../../../../src/shared/food/types";
import type { ProviderOption as ProviderChoice } from "../../../../src/shared/food/types";
import type { FoodTab as Tab } from "../../../../src/shared/food/types";
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
