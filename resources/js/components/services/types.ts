/** The shapes the Services page receives: the domain's own types (type-only imports, erased from the bundle). */
export type { ServiceRow, ServiceOption, ServiceType } from "../../../../src/domain/places/services";
export type { AffectedPlace, PlaceKind } from "../../../../src/domain/places/service-assignments";
export type { CafePrices, CafePriceRow, PriceHistoryRow } from "../../../../src/domain/places/prices";
import type { AffectedPlace, PlaceKind } from "../../../../src/domain/places/service-assignments";

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
