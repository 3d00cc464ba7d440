/** The shapes of places, services and prices that pages show. */

/** The three levels of the place tree. */
export const PLACE_KINDS = ["mine", "unit", "cafe"] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** The kinds of service a cafe sells. */
export const SERVICE_TYPES = ["breakfast", "lunch", "dinner", "snack", "disposables"] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** Counts in a row are of the places within the actor's scope (a limited actor learns nothing of the others). */
export interface MineRow {
  id: number;
  name: string;
  units: number;
  cafes: number;
  serviceIds: number[];
}

export interface UnitRow {
  id: number;
  name: string;
  mineId: number;
  mineName: string;
  cafes: number;
  subdealerships: number;
  serviceIds: number[];
  /** The services its mine offers (the choices of its services popover). */
  parentServiceIds: number[];
}

export interface CafeRow {
  id: number;
  name: string;
  unitId: number;
  unitName: string;
  mineId: number;
  mineName: string;
  businessId: number | null;
  businessName: string | null;
  timeZone: string;
  cityId: number | null;
  cityName: string | null;
  areas: number;
  serviceIds: number[];
  parentServiceIds: number[];
  /** Services with a price, of those offered. */
  priced: number;
  /** The price of each service it offers, in cents (null: none yet, so it cannot be sold). */
  prices: { serviceId: number; priceCents: number | null }[];
}

export interface PlaceOption {
  id: number;
  name: string;
}

/** A mine or unit found by the management modal, with the services it offers (what a new cafe there may offer). */
export interface PlaceChoice extends PlaceOption {
  serviceIds: number[];
}

export interface CafePriceRow {
  serviceId: number;
  code: string;
  name: string;
  type: ServiceType;
  active: boolean;
  priceCents: number | null;
  /** The price as typed in the form ("12.50"), "" when none. */
  price: string;
}

export interface PriceHistoryRow {
  id: number;
  serviceCode: string;
  serviceName: string;
  oldPriceCents: number | null;
  newPriceCents: number | null;
  by: string;
  at: string;
}

export interface CafePrices {
  /** The cafe, with its time zone: the history's times read in it. */
  cafe: { id: number; name: string; path: string; timeZone: string };
  services: CafePriceRow[];
  history: PriceHistoryRow[];
}

/** A child place that loses services when its parent stops offering them. */
export interface AffectedPlace {
  kind: "unit" | "cafe";
  id: number;
  name: string;
  path: string;
  services: string[];
}

/** A service as the Services table shows it, with how many places offer it. */
export interface ServiceRow {
  id: number;
  code: string;
  name: string;
  description: string;
  type: ServiceType;
  active: boolean;
  places: number;
  updatedAt: string;
}

/** A service as a choice in the assignment and price dialogs. */
export interface ServiceOption {
  id: number;
  code: string;
  name: string;
  type: ServiceType;
  active: boolean;
}
