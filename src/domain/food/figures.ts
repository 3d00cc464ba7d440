/**
 * Reading an ingredient's figures from what a person typed or a workbook cell holds: decimal numbers with a point or
 * a comma ("12,5"), blank for "not known", each with its bounds, and every field's problem reported at once. The
 * form, the workbook import and the seeds go through `checkIngredientFigures`, so an ingredient is held to the same
 * rules wherever it comes from.
 */
import type { BaseUnit } from "../../../db/schema";
import { message, type Message } from "../../shared/message";
import {
  ALLERGENS,
  isAllergen,
  MAX_KCAL_PER_100G,
  NUTRIENTS,
  type NutrientProperty,
} from "../../shared/food/composition";

/** A number as typed: 12, "12.5", "12,5", " 3 "; null for blank; NaN for anything else. */
export function decimalOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value !== "string") return Number.NaN;
  const text = value.trim();
  if (text === "") return null;
  if (!/^-?\d{1,12}([.,]\d{1,6})?$/.test(text)) return Number.NaN;
  return Number(text.replace(",", "."));
}

interface Bounds {
  min: number;
  max: number;
  /** The minimum itself is refused (a weight must be more than 0). */
  aboveMin?: boolean;
}

/** Reads one decimal field into `errors` (keyed by `field`): null when blank, the number when within bounds. */
export function readDecimal(
  value: unknown,
  field: string,
  bounds: Bounds,
  errors: Record<string, Message>,
  required = false,
): number | null {
  const number = decimalOf(value);
  if (number === null) {
    if (required) errors[field] = message("validation.required");
    return null;
  }
  if (Number.isNaN(number)) {
    errors[field] = message("validation.number");
    return null;
  }
  if (number < bounds.min || (bounds.aboveMin && number === bounds.min)) {
    errors[field] = message(bounds.aboveMin ? "food.figures.above" : "food.figures.at_least", { min: bounds.min });
    return null;
  }
  if (number > bounds.max) {
    errors[field] = message("food.figures.at_most", { max: bounds.max });
    return null;
  }
  return number;
}

/** An ingredient's figures as stored (the columns of `ingredients` beyond name and category). */
export type IngredientFigures = {
  baseUnit: BaseUnit;
  unitWeightGrams: number | null;
  densityGramsPerMl: number | null;
  kcalPer100g: number;
  solidWastePercent: number;
  liquidWastePercent: number;
  allergens: string[];
} & Record<NutrientProperty, number | null>;

/** The figures' input fields: base_unit, unit_weight_g, density, kcal, solid_waste, liquid_waste, each nutrient, allergens. */
export interface FigureInput {
  base_unit?: unknown;
  unit_weight_g?: unknown;
  density?: unknown;
  kcal?: unknown;
  solid_waste?: unknown;
  liquid_waste?: unknown;
  allergens?: unknown;
  [nutrient: string]: unknown;
}

export const FIGURE_FIELDS = [
  "base_unit",
  "unit_weight_g",
  "density",
  "kcal",
  "solid_waste",
  "liquid_waste",
  ...NUTRIENTS.map((n) => n.key),
  "allergens",
];

/** Allergens as a list of codes: an array, or text with codes separated by commas (a workbook cell). */
function allergenCodes(value: unknown): string[] | null {
  if (value === null || value === undefined || value === "") return [];
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,;]/) : null;
  if (!list || list.length > ALLERGENS.length) return null;
  const codes = list.map((v) => (typeof v === "string" ? v.trim() : "")).filter((v) => v !== "");
  return codes.every(isAllergen) ? [...new Set(codes)].sort() : null;
}

/**
 * Checks an ingredient's figures and reports every field's problem into `errors` at once; returns the figures when
 * there was none. A unit ingredient needs the weight of one unit, a millilitre ingredient its density (the other
 * unit's figure is dropped); both wastes together stay under 100 %.
 */
export function checkIngredientFigures(
  input: FigureInput,
  errors: Record<string, Message>,
  allergenWords: (code: string) => string | null = () => null,
): IngredientFigures | null {
  const before = Object.keys(errors).length;
  const unit = typeof input.base_unit === "string" ? input.base_unit.trim().toLowerCase() : "";
  const baseUnit = unit === "g" || unit === "ml" || unit === "unit" ? (unit as BaseUnit) : null;
  if (!baseUnit) errors.base_unit = unit === "" ? message("validation.required") : message("validation.invalid_choice");
  const unitWeightGrams = readDecimal(
    input.unit_weight_g,
    "unit_weight_g",
    { min: 0, max: 100_000, aboveMin: true },
    errors,
    baseUnit === "unit",
  );
  const densityGramsPerMl = readDecimal(
    input.density,
    "density",
    { min: 0, max: 25, aboveMin: true },
    errors,
    baseUnit === "ml",
  );
  const kcalPer100g = readDecimal(input.kcal, "kcal", { min: 0, max: MAX_KCAL_PER_100G }, errors, true);
  const solid = readDecimal(input.solid_waste, "solid_waste", { min: 0, max: 99.99 }, errors) ?? 0;
  const liquid = readDecimal(input.liquid_waste, "liquid_waste", { min: 0, max: 99.99 }, errors) ?? 0;
  if (!errors.solid_waste && !errors.liquid_waste && solid + liquid >= 100)
    errors.liquid_waste = message("food.figures.waste_total");
  const nutrients = {} as Record<NutrientProperty, number | null>;
  for (const n of NUTRIENTS) nutrients[n.property] = readDecimal(input[n.key], n.key, { min: 0, max: n.max }, errors);
  let allergens = allergenCodes(input.allergens);
  if (allergens === null && typeof input.allergens === "string") {
    // A workbook may name allergens in words ("leche, huevo"): each is looked up in both languages.
    const codes = input.allergens
      .split(/[,;]/)
      .map((word) => word.trim())
      .filter(Boolean)
      .map((word) => allergenWords(word));
    allergens = codes.every((c): c is string => c !== null) ? [...new Set(codes)].sort() : null;
  }
  if (allergens === null) errors.allergens = message("food.figures.allergens_unknown");
  if (Object.keys(errors).length > before || !baseUnit || kcalPer100g === null || allergens === null) return null;
  return {
    baseUnit,
    unitWeightGrams: baseUnit === "unit" ? unitWeightGrams : null,
    densityGramsPerMl: baseUnit === "ml" ? densityGramsPerMl : null,
    kcalPer100g,
    solidWastePercent: solid,
    liquidWastePercent: liquid,
    allergens,
    ...nutrients,
  };
}
