/** The shapes the Businesses-area pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { BusinessRow, BusinessOption, OperatedCafe } from "../../../../src/shared/organisation/types";
export type { HeadquartersRow } from "../../../../src/shared/organisation/types";
export type {
  PropertyRow,
  PropertyStatus,
  PropertyLocation,
  LocationOptions,
} from "../../../../src/shared/organisation/types";
export type { ServiceOption } from "../../../../src/shared/places/types";
export type { OrganisationTab } from "../organisation-tabs";
