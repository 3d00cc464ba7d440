/** The shapes the Businesses-area pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { BusinessRow, BusinessOption, OperatedCafe } from "../../../../src/domain/organisation/businesses";
export type { HeadquartersRow } from "../../../../src/domain/organisation/headquarters";
export type {
  PropertyRow,
  PropertyStatus,
  PropertyLocation,
  LocationOptions,
} from "../../../../src/domain/organisation/properties";
export type { ServiceOption } from "../../../../src/domain/places/services";
export type { OrganisationTab } from "../organisation-tabs";
