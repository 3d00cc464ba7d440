/** The shapes of the organisation that pages show: businesses, headquarters, properties, client companies. */

/** Where a property stands. */
export const PROPERTY_STATUSES = ["in_use", "in_storage", "under_repair", "retired"] as const;
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];

/** A cafe a business operates, with its unit and mine. */
export interface OperatedCafe {
  id: number;
  name: string;
  unit: string;
  mine: string;
}

/** A business as the Businesses table shows it. */
export interface BusinessRow {
  id: number;
  name: string;
  ruc: string;
  fiscalAddress: string;
  legalAddress: string;
  email: string;
  phone: string;
  headquarters: number;
  cafes: number;
  serviceIds: number[];
  operatedCafes: OperatedCafe[];
}

/** A business as a choice in the headquarters dialog. */
export interface BusinessOption {
  id: number;
  name: string;
}

/** A dealership as the tables show it, with how many subdealerships it has. */
export interface DealershipRow {
  id: number;
  name: string;
  ruc: string;
  fiscalAddress: string;
  legalAddress: string;
  phone: string;
  email: string;
  subdealershipCount: number;
}

export interface DealershipOption {
  id: number;
  name: string;
}

/** A headquarters as the Headquarters table shows it. */
export interface HeadquartersRow {
  id: number;
  businessId: number;
  businessName: string;
  name: string;
  address: string;
  phone: string;
  cityId: number | null;
  cityName: string | null;
  areas: number;
  properties: number;
}

/** Where a property is kept: "hq:3" or "cafe:5" in forms. */
export interface PropertyLocation {
  kind: "headquarters" | "cafe";
  id: number;
  /** The value of the location select, e.g. "hq:3". */
  value: string;
  name: string;
  /** The business of a headquarters, or "Unit / Mine" of a cafe. */
  detail: string;
}

/** A property as the table, its page and its label show it. */
export interface PropertyRow {
  id: number;
  code: string;
  name: string;
  category: string;
  serial: string;
  status: PropertyStatus;
  location: PropertyLocation;
  /** The business of the headquarters, or the business operating the cafe (empty when it has none). */
  businessName: string;
  acquiredOn: string | null;
  acquisitionValueCents: number | null;
  notes: string;
  updatedAt: string;
}

/** The places a property may be kept at, as the location select groups them. */
export interface LocationOptions {
  headquarters: { value: string; label: string }[];
  cafes: { value: string; label: string }[];
}

export interface UnitRef {
  id: number;
  name: string;
  mineName: string;
}

/** A subdealership as the tree and the table show it: its units within the actor's scope. */
export interface SubdealershipRow {
  id: number;
  dealershipId: number;
  dealershipName: string;
  name: string;
  ruc: string;
  fiscalAddress: string;
  legalAddress: string;
  phone: string;
  email: string;
  units: UnitRef[];
  /** How many of its units lie outside the actor's scope (kept, not shown). */
  hiddenUnits: number;
  /** The search matched this subdealership (tree page). */
  matched: boolean;
}

/** A dealership of the tree page with its subdealerships; `expanded` when the search matched one of them. */
export interface DealershipTreeRow extends DealershipRow {
  subdealerships: SubdealershipRow[];
  expanded: boolean;
}

/** The units the actor may choose, grouped by mine (the checkboxes of the subdealership dialog). */
export interface UnitChoiceMine {
  id: number;
  name: string;
  units: { id: number; name: string }[];
}
