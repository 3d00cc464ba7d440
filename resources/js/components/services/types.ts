/** The shapes the Services page receives: the domain's own types (type-only imports, erased from the bundle). */
export type { ServiceRow, ServiceOption, ServiceType } from "../../../../src/shared/places/types";
export type { AffectedPlace, PlaceKind } from "../../../../src/shared/places/types";
export type { CafePrices, CafePriceRow, PriceHistoryRow } from "../../../../src/shared/places/types";
import type { AffectedPlace, PlaceKind } from "../../../../src/shared/places/types";

export interface ServiceAbilities {
  manage: boolean;
  /** May open Management, where each place's services and prices are edited. */
  viewPlaces: boolean;
}

/** Flashed by places.services.update when removing services would also remove them from children. */
export interface RemovalConfirmation {
  kind: PlaceKind;
  id: number;
  name: string;
  removed: string[];
  affected: AffectedPlace[];
}
