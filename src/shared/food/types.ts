/** The shapes of food and logistics that pages show: ingredients, providers, offers, dishes, their costs. */
import type { TranslationKey } from "../i18n";
import type { RouteName } from "../routes.generated";
import type { BaseUnitCode, NutrientProperty } from "./composition";

export const NUTRIENT_KEYS = [
  "water",
  "protein",
  "fat",
  "carbohydrate",
  "fibre",
  "ash",
  "calcium",
  "phosphorus",
  "iron",
  "retinol",
  "thiamine",
  "riboflavin",
  "niacin",
  "vitamin_c",
  "sodium",
  "potassium",
] as const;

/** The unit a dish's yield is weighed or measured in. */
export const DISH_UNITS = ["g", "ml"] as const;
export type DishUnit = (typeof DISH_UNITS)[number];

export interface CategoryRow {
  id: number;
  name: string;
  description: string;
  ingredients: number;
}

/** A city as its table shows it: with how many cafes, headquarters and offers are there. */
export interface CityRow {
  id: number;
  name: string;
  region: string;
  cafes: number;
  headquarters: number;
  offers: number;
}

export interface CityOption {
  id: number;
  name: string;
  region: string;
}

/** A row of the menu table. */
export interface DishCategoryRow {
  id: number;
  name: string;
  description: string;
  unit: DishUnit;
  sortOrder: number;
  /** Dishes in this category (a dish may be in several). */
  dishCount: number;
}

/** A dish as the dishes table and the dish modal show it. */
export interface DishRow {
  id: number;
  name: string;
  description: string;
  active: boolean;
  /** Its categories in their menu-table order. */
  categories: { id: number; name: string }[];
  /** The levels it has a recipe for, in their order. */
  levelIds: number[];
  updatedAt: string;
}

/** A dish to choose as a sub-recipe or in a menu: its name and whether it is still offered. */
export interface DishOption {
  id: number;
  name: string;
  active: boolean;
}

/** A row of the levels table. */
export interface LevelRow {
  id: number;
  name: string;
  sortOrder: number;
  /** Diners of this level, active or not. */
  dinerCount: number;
  /** Recipes made for this level. */
  recipeCount: number;
  /** Cafes whose menu is costed at this level by default. */
  cafeCount: number;
}

export interface LogisticsCentre {
  id: number;
  name: string;
  businessName: string;
  address: string;
  cityId: number | null;
  cityName: string | null;
  /** Ingredients with a current offer in the city. */
  stocked: number;
}

/** The cheapest current offer of an ingredient in a city, with how many current offers it was chosen from. */
export interface StockedIngredient {
  ingredientId: number;
  ingredientName: string;
  categoryName: string;
  offer: OfferRow;
  offersInCity: number;
}

/** An offer as the tables show it. */
export interface OfferRow {
  id: number;
  providerId: number;
  providerName: string;
  ingredientId: number;
  ingredientName: string;
  baseUnit: "g" | "ml" | "unit";
  cityId: number;
  cityName: string;
  presentation: string;
  quantity: number;
  priceCents: number;
  priceIncludesIgv: boolean;
  active: boolean;
  priceChangedAt: string;
  /** The price without IGV, in cents. */
  netPriceCents: number;
  /** What one gram, millilitre or unit costs, net of IGV, in cents (a fraction). */
  costPerBaseUnit: number;
  /** What a kilogram, litre or unit costs, net of IGV, in whole cents. */
  costPerReferenceCents: number;
}

export interface ProviderGroup {
  id: number;
  name: string;
  ruc: string;
  contact: string;
  phone: string;
  email: string;
  /** Its offers the filter finds, in all; `offers` holds those on this page. */
  count: number;
  offers: OfferRow[];
}

export interface CityGroup {
  id: number;
  name: string;
  region: string;
  count: number;
  offers: OfferRow[];
}

/** A page of offers, grouped. */
export interface GroupPage<G> {
  /** The groups of the page's offers, in order; the first and last may run over from or to another page. */
  groups: G[];
  /** Offers found (the list is paged by offers), and the groups they are in. */
  total: number;
  groupCount: number;
  page: number;
}

/** One dated price of an offer, with what it made a base unit cost. */
export interface PriceHistoryRow {
  id: number;
  priceCents: number;
  priceIncludesIgv: boolean;
  quantity: number;
  changedAt: string;
  changedByName: string;
  costPerReferenceCents: number;
}

/** The offer a line was costed at, as the view names it. */
export interface UsedOffer {
  offerId: number;
  providerName: string;
  presentation: string;
  pinned: boolean;
  /** Cost of a kilogram, litre or unit net of IGV, in cents. */
  costPerReferenceCents: number;
}

/** An ingredient of the dish whose offer, or its price, differs between the period's start and end. */
export interface OfferChange {
  ingredientId: number;
  ingredientName: string;
  unit: "g" | "ml" | "unit";
  /** null: no offer in the city then. */
  before: UsedOffer | null;
  after: UsedOffer | null;
}

export interface PriceChangeRow {
  dishId: number;
  dishName: string;
  recipeId: number;
  levelId: number;
  levelName: string;
  /** Cost per serving at the start of the period and at its end, in cents (priced lines; see `complete`). */
  beforeCents: number;
  afterCents: number;
  differenceCents: number;
  /** The difference as a percentage of the old cost; null when the old cost was zero. */
  percent: number | null;
  /** Whether every line had an offer then. */
  completeBefore: boolean;
  completeAfter: boolean;
  offers: OfferChange[];
}

export interface PriceChanges {
  from: string;
  to: string;
  cityId: number;
  levelId: number | null;
  /** Offers of the city whose price (or existence) changed in the period. */
  changedOffers: number;
  /** Recipes costed because they depend on one of those offers' ingredients. */
  recipesChecked: number;
  rows: PriceChangeRow[];
}

export interface CostPoint {
  /** The moment (ISO) this cost took effect: the period's start, then each change. */
  at: string;
  costCents: number;
  complete: boolean;
}

/** The view's filters as the page shows them: a period of days, a city and a level (null: every level). */
export interface PriceChangeFilters {
  from: string;
  to: string;
  cityId: number | null;
  levelId: number | null;
}

export interface ProviderRow {
  id: number;
  name: string;
  ruc: string;
  contact: string;
  phone: string;
  email: string;
  /** Offers, current or withdrawn, and the cities they are in. */
  offers: number;
  cities: number;
}

export interface ProviderOption {
  id: number;
  name: string;
}

/** The keys of the nutrients of composition.ts (`NUTRIENTS[].key`). */
export type NutrientKey = (typeof NUTRIENT_KEYS)[number];

export interface Figures {
  /** Gross weight in grams (ml via density, units via unit weight; a sub-recipe: its quantity). */
  grossG: number;
  /** Gross × solid %. */
  solidWasteG: number;
  /** Gross × liquid %. */
  liquidWasteG: number;
  /** Gross − both wastes. */
  finalG: number;
  /** Final × kcal per 100 g ÷ 100. */
  kcal: number;
  /** Final × per-100 g ÷ 100, in each nutrient's unit (g, mg or µg); null when the ingredient lacks it. */
  nutrients: Record<NutrientKey, number | null>;
  /** A line's cost: an unrounded fraction of cents (null = no offer: flagged, never zero). */
  costCents: number | null;
}

export type LineProblem = "no_offer" | "pinned_offer_unavailable" | "no_sub_recipe" | "cycle";

export interface CostedOffer {
  id: number;
  providerName: string;
  presentation: string;
  pinned: boolean;
  /** What one gram, millilitre or unit costs, net of IGV, in cents (a fraction). */
  costPerBaseUnitCents: number;
  /** What a kilogram, litre or unit costs, net of IGV, in whole cents. */
  costPerReferenceCents: number;
}

export interface CostedLine extends Figures {
  lineId: number | null;
  position: number;
  kind: "ingredient" | "dish";
  ingredientId: number | null;
  subDishId: number | null;
  name: string;
  /** As entered: in the ingredient's base unit, or grams of a sub-recipe. */
  quantity: number;
  unit: "g" | "ml" | "unit";
  offer: null | CostedOffer;
  problem: LineProblem | null;
  /** 0..1 of the dish total (0 when the total is 0; cost null when the line's cost is). */
  shares: { grossG: number; finalG: number; kcal: number; costCents: number | null };
}

export interface CostedRecipe {
  recipeId: number | null;
  dishId: number | null;
  levelId: number;
  cityId: number;
  lines: CostedLine[];
  /** costCents: the priced lines, rounded once; complete: every line priced. */
  totals: Omit<Figures, "costCents"> & { costCents: number; complete: boolean };
  /** recipes.yield_grams, else totals.finalG. */
  yieldG: number;
}

export interface FoodTab {
  id: "food" | "ingredients" | "providers" | "logistics";
  route: RouteName;
  label: TranslationKey;
}

/** A dish's cost per serving for the page's city and level, in brief: what the table and the export show. */
export interface DishCost {
  recipeId: number;
  costCents: number;
  complete: boolean;
  kcal: number;
  finalG: number;
  /** Lines with no price in the city (no offer, or a sub-recipe without one). */
  unpriced: number;
}

/** A row of the dishes table: the dish, its cost for the page's city and level, and the levels it has no recipe for. */
export type CostedDishRow = DishRow & {
  cost: DishCost | null;
  /** The levels (in their order) without a recipe of this dish: the table flags them. */
  levelsWithoutRecipe: number[];
};

/** A dish with every recipe it has, each costed for the city: what the edit modal and the popover read. */
export interface DishDetail {
  dish: DishRow;
  cityId: number;
  recipes: CostedRecipe[];
}

/** What `food.price_changes.history` answers. */
export interface DishHistoryAnswer {
  dishId: number;
  levelId: number;
  cityId: number;
  from: string;
  to: string;
  /** The period's last moment (ISO), where the chart's line ends. */
  end: string;
  points: CostPoint[];
}

/** An ingredient's own figures (the `ingredients` table's columns but its timestamps; db/schema/food.ts). */
export type IngredientFields = {
  id: number;
  categoryId: number;
  name: string;
  baseUnit: BaseUnitCode;
  unitWeightGrams: number | null;
  densityGramsPerMl: number | null;
  kcalPer100g: number;
  solidWastePercent: number;
  liquidWastePercent: number;
  /** Allergen codes of the fixed list (./composition.ts). */
  allergens: string[];
  /** The composition figures are demonstration values, not measured ones (the demo seed's). */
  demoValues: boolean;
} & Record<NutrientProperty, number | null>;

/** An ingredient as its table and its dialog show it: every figure, its category's name and how many offers it has. */
export type IngredientRow = IngredientFields & {
  categoryName: string;
  offers: number;
  updatedAt: string;
};

export interface IngredientOption {
  id: number;
  name: string;
  baseUnit: BaseUnitCode;
}

/** What a recipe line may be made of: the ingredients, the dishes (as sub-recipes) and every offer, costed. */
export interface RecipeChoices {
  ingredients: IngredientOption[];
  dishes: DishOption[];
  offers: {
    id: number;
    ingredientId: number;
    cityId: number;
    providerName: string;
    presentation: string;
    active: boolean;
    costPerReferenceCents: number;
  }[];
}
