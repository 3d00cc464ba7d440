/** The shapes of menu planning that pages show: structures, the schedule, what to buy, the board. */
import type { TranslationKey, Locale } from "../i18n";
import type { JobState } from "../jobs";
import type { ServiceType } from "../places/types";
import type { StructureTotals } from "./structure-totals";

export const BOARD_LANGUAGES = ["es", "en"] as const;

export interface BoardDish {
  id: number;
  name: string;
  /** kcal of a serving for the cafe's default level; null when the dish has no recipe to count them from. */
  kcal: number | null;
  /** Allergen codes, sorted, with their words in the board's language. */
  allergens: { code: string; label: string }[];
}

export interface BoardCategory {
  id: number;
  name: string;
  dishes: BoardDish[];
}

export interface BoardService {
  id: number;
  name: string;
  categories: BoardCategory[];
}

export interface BoardDay {
  date: string;
  services: BoardService[];
}

export interface Board {
  cafe: { id: number; name: string; timeZone: string };
  language: Locale;
  today: string;
  /** Today first, then the six days after it; a day with nothing published has no services. */
  days: BoardDay[];
  /** When any of these days was last published (ISO), null when none was. */
  publishedAt: string | null;
}

export type BoardLanguage = (typeof BOARD_LANGUAGES)[number];

export interface CafeMenuSettings {
  cafeId: number;
  /** The level chosen for the cafe; null: the first level. */
  defaultLevelId: number | null;
  /** The level the schedule uses: the chosen one, else the first level by sort order (null when there are none). */
  effectiveLevelId: number | null;
  boardLanguage: BoardLanguage;
}

/** One link as the display page lists it (never its token, which is not kept). */
export interface DisplayLinkRow {
  id: number;
  label: string;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A meal service of a cafe. */
export interface MenuService {
  id: number;
  code: string;
  name: string;
  type: string;
}

/** The servings of one service on one day: set by a person (or a forecast), or the average. */
export interface ServingsCell {
  serviceId: number;
  servings: number;
  /** The value a person or a forecast set, or null when `servings` is the average. */
  set: number | null;
  /** The average served on this weekday over the four weeks before the range. */
  average: number;
}

export interface ServingsDay {
  date: string;
  /** 0 (Sunday) to 6. */
  weekday: number;
  cells: ServingsCell[];
}

export interface ExpectedServings {
  cafeId: number;
  from: string;
  to: string;
  /** The four weeks the averages come from. */
  basis: { from: string; to: string };
  services: MenuService[];
  days: ServingsDay[];
}

export type BaseUnit = "g" | "ml" | "unit";

/** One presentation of an ingredient bought from a provider (one offer). */
export interface RequirementPack {
  offerId: number;
  presentation: string;
  /** Base units in one presentation. */
  presentationQuantity: number;
  /** Whole presentations to buy. */
  presentations: number;
  /** One presentation's price net of IGV, in cents (a fraction when the price included IGV). */
  presentationNetCents: number;
  /** presentations × presentationNetCents, rounded to whole cents. */
  costCents: number;
}

/** One ingredient bought from one provider, in the cheapest mix of its presentations. */
export interface RequirementLine {
  ingredientId: number;
  ingredientName: string;
  categoryName: string;
  baseUnit: BaseUnit;
  /** What the menu needs, in the base unit (unrounded). */
  neededQuantity: number;
  /** The presentations bought, largest first (at least one). */
  packs: RequirementPack[];
  /** What the presentations bought hold, in the base unit. */
  boughtQuantity: number;
  /** The packs' costs added up. */
  costCents: number;
  /** What one base unit of what is bought costs net of IGV, in cents (unrounded). */
  unitNetCents: number;
  /** A larger presentation of the provider's that is cheaper per unit than what is bought, or null. */
  largerPack: LargerPack | null;
}

export interface ProviderRequirements {
  providerId: number;
  providerName: string;
  ruc: string;
  contact: string;
  phone: string;
  email: string;
  lines: RequirementLine[];
  totalCents: number;
}

/** An ingredient the menu needs that has no current offer in the cafe's city. */
export interface MissingOffer {
  ingredientId: number;
  ingredientName: string;
  categoryName: string;
  baseUnit: BaseUnit;
  neededQuantity: number;
  /** The dishes that need it, by name. */
  dishes: string[];
}

/** A dish of the published menu that has no recipe at all: it adds nothing to buy. */
export interface DishWithoutRecipe {
  dishId: number;
  dishName: string;
  servings: number;
}

export interface Requirements {
  cafe: { id: number; name: string; cityId: number; cityName: string };
  from: string;
  to: string;
  level: { id: number; name: string };
  /** Published days in the range, and dishes served × servings over them. */
  publishedDays: number;
  dishServings: number;
  servings: ExpectedServings;
  providers: ProviderRequirements[];
  missing: MissingOffer[];
  dishesWithoutRecipe: DishWithoutRecipe[];
  totalCents: number;
}

export type BoundState = "below" | "within" | "above";

export type DishProblem = "no_recipe" | "unpriced" | "no_city";

export interface ScheduleDish {
  id: number;
  name: string;
  active: boolean;
  /** Cost of a serving for the cafe's level and city, cents net of IGV; null when it cannot be costed at all. */
  costCents: number | null;
  kcal: number | null;
  problem: DishProblem | null;
  /** Against the slot's bounds (null: not known, see the module's doc). */
  bound: BoundState | null;
}

export interface ScheduleSlot {
  categoryId: number;
  categoryName: string;
  unit: "g" | "ml";
  servingAmount: number;
  minCostCents: number;
  maxCostCents: number;
  dishes: ScheduleDish[];
  /** The dearest dish's figures; null while the slot is empty or nothing in it can be costed. */
  costCents: number | null;
  kcal: number | null;
  /** Filled, and every dish in it fully costed. */
  complete: boolean;
  bound: BoundState | null;
}

export interface ScheduleMeal {
  serviceId: number;
  serviceName: string;
  serviceType: ServiceType;
  slots: ScheduleSlot[];
  minCostCents: number;
  maxCostCents: number;
  costCents: number;
  kcal: number;
  complete: boolean;
  bound: BoundState | null;
}

export interface ScheduleDay {
  date: string;
  /** 0 for a day never saved; every save names it. */
  version: number;
  updatedAt: string | null;
  updatedByName: string;
  publishedVersion: number | null;
  publishedAt: string | null;
  /** empty: nothing planned; draft: never published; published: as published; changed: edited since. */
  state: "empty" | "draft" | "published" | "changed";
  meals: ScheduleMeal[];
  /** Dishes saved in slots the structures no longer have (a category or service removed since): kept, not shown. */
  hiddenDishes: number;
}

export interface ScheduleCafe {
  id: number;
  name: string;
  cityId: number | null;
  levelId: number | null;
  levelName: string | null;
}

export interface Schedule {
  cafe: ScheduleCafe;
  from: string;
  to: string;
  /** The services with a structure, in the order the days show them. */
  services: { id: number; name: string; type: ServiceType }[];
  days: ScheduleDay[];
}

export interface DishOption {
  id: number;
  name: string;
  costCents: number | null;
  kcal: number | null;
  problem: DishProblem | null;
}

export interface StructureItem {
  position: number;
  categoryId: number;
  categoryName: string;
  unit: "g" | "ml";
  /** The reference serving, in the category's unit. */
  servingAmount: number;
  /** Share of the plate by weight, in percent. */
  sharePercent: number;
  minCostCents: number;
  maxCostCents: number;
}

export interface ServiceStructure {
  cafeId: number;
  service: { id: number; code: string; name: string; type: ServiceType; active: boolean };
  /** Null while the service has no structure at this cafe yet. */
  structureId: number | null;
  updatedAt: string | null;
  items: StructureItem[];
  totals: StructureTotals;
}

export interface MenuCafe {
  id: number;
  name: string;
  /** Mine › Unit › Cafe. */
  path: string;
}

export interface MenuTab {
  id: "structures" | "schedule" | "display" | "requirements";
  route: string;
  label: TranslationKey;
}

/** An export job as the page shows it, worded in the viewer's language. */
export interface RequirementsJobView {
  id: number;
  state: JobState;
  progress: { done: number; total: number; label: string; text: string };
  cafeId: number;
  from: string;
  to: string;
  result: Pick<MenuRequirementsResult, "providers" | "lines" | "missing" | "totalCents" | "sheets" | "fileName"> | null;
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
}

export interface MenuRequirementsResult {
  cafeName: string;
  from: string;
  to: string;
  providers: number;
  lines: number;
  missing: number;
  totalCents: number;
  sheets: string[];
  bytes: number;
  /** The name the workbook is downloaded as. */
  fileName: string;
}

/** A presentation a provider sells an ingredient in (one offer). */
export interface Pack {
  offerId: number;
  presentation: string;
  /** Base units in one presentation (> 0). */
  quantity: number;
  /** One presentation's price net of IGV, in cents (a fraction when the price included IGV). */
  netCents: number;
}

/** A larger presentation than any bought that costs less per base unit than what was bought. */
export interface LargerPack extends Pack {
  /** Its price per base unit, and that of what was bought (net of IGV, cents). */
  unitNetCents: number;
  boughtUnitNetCents: number;
  /** What covering the whole need with it alone would cost (net of IGV, cents, unrounded). */
  coverNetCents: number;
}
