/** The shapes the Management page receives: the domain's own types (type-only imports, erased from the bundle). */
export type { MineRow, UnitRow, CafeRow, PlaceChoice, PlaceOption } from "../../../../src/shared/places/types";
import type { PlaceChoice } from "../../../../src/shared/places/types";

/** The management modal's search results: mines, and the units of the chosen mine, each with its services. */
export interface PlaceSearch {
  mines: PlaceChoice[];
  units: PlaceChoice[];
}

export interface ManagementAbilities {
  manage: boolean;
  managePrices: boolean;
  /** An all-places scope: may create a mine or unit without a cafe. */
  allPlaces: boolean;
}
