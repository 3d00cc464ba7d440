/**
 * What an ingredient's figures are: its base units, the nutrients per 100 g Mesa keeps (with the unit each is
 * measured in), and the fixed list of allergens. Free of database and server imports, so the browser shares it;
 * the words for each are in src/shared/i18n/locales/<language>/food.json (`food.nutrients.<key>`, `food.allergens.<code>`).
 */

export const BASE_UNIT_CODES = ["g", "ml", "unit"] as const;
export type BaseUnitCode = (typeof BASE_UNIT_CODES)[number];

/** A nutrient: its key (words and input field `<key>`), the ingredient's property, and its unit per 100 g. */
export interface NutrientSpec {
  key: string;
  property: NutrientProperty;
  unit: "g" | "mg" | "µg";
  /** The largest believable value per 100 g (grams cannot pass 100 g). */
  max: number;
}

export type NutrientProperty =
  | "waterG"
  | "proteinG"
  | "fatG"
  | "carbohydrateG"
  | "fibreG"
  | "ashG"
  | "calciumMg"
  | "phosphorusMg"
  | "ironMg"
  | "retinolUg"
  | "thiamineMg"
  | "riboflavinMg"
  | "niacinMg"
  | "vitaminCMg"
  | "sodiumMg"
  | "potassiumMg";

/**
 * The nutrients per 100 g, in the order the national composition tables list them; `as const`, so the compiler
 * knows each key (`food.nutrients.<key>` names it in words).
 */
export const NUTRIENTS = [
  { key: "water", property: "waterG", unit: "g", max: 100 },
  { key: "protein", property: "proteinG", unit: "g", max: 100 },
  { key: "fat", property: "fatG", unit: "g", max: 100 },
  { key: "carbohydrate", property: "carbohydrateG", unit: "g", max: 100 },
  { key: "fibre", property: "fibreG", unit: "g", max: 100 },
  { key: "ash", property: "ashG", unit: "g", max: 100 },
  { key: "calcium", property: "calciumMg", unit: "mg", max: 100_000 },
  { key: "phosphorus", property: "phosphorusMg", unit: "mg", max: 100_000 },
  { key: "iron", property: "ironMg", unit: "mg", max: 100_000 },
  { key: "retinol", property: "retinolUg", unit: "µg", max: 100_000_000 },
  { key: "thiamine", property: "thiamineMg", unit: "mg", max: 100_000 },
  { key: "riboflavin", property: "riboflavinMg", unit: "mg", max: 100_000 },
  { key: "niacin", property: "niacinMg", unit: "mg", max: 100_000 },
  { key: "vitamin_c", property: "vitaminCMg", unit: "mg", max: 100_000 },
  { key: "sodium", property: "sodiumMg", unit: "mg", max: 100_000 },
  { key: "potassium", property: "potassiumMg", unit: "mg", max: 100_000 },
] as const satisfies readonly NutrientSpec[];

/**
 * The allergens a label must declare (the fourteen of the Codex Alimentarius and EU lists, which Peruvian labelling
 * follows): an ingredient lists the codes of those it contains.
 */
export const ALLERGENS = [
  "gluten",
  "crustaceans",
  "eggs",
  "fish",
  "peanuts",
  "soy",
  "milk",
  "tree_nuts",
  "celery",
  "mustard",
  "sesame",
  "sulphites",
  "lupin",
  "molluscs",
] as const;
export type Allergen = (typeof ALLERGENS)[number];

export function isAllergen(code: string): code is Allergen {
  return (ALLERGENS as readonly string[]).includes(code);
}

/** The highest kcal per 100 g any food has (pure fat is about 900). */
export const MAX_KCAL_PER_100G = 1000;
