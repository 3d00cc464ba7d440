/** The shapes the Sales page receives: the domain's own types (type-only imports, erased from the bundle). */
export type {
  DuplicateGroup,
  DuplicateSale,
  SalesFilterOptions,
  SalesFilterQuery,
  SalesLineRow,
  SalesTotals,
} from "../../../../src/shared/sales/types";
export type { ClosedPeriod } from "../../../../src/shared/sales/types";
