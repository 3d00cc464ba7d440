/** The shapes the Dealerships pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { DealershipOption, DealershipRow } from "../../../../src/shared/organisation/types";
export type {
  DealershipTreeRow,
  SubdealershipRow,
  UnitChoiceMine,
  UnitRef,
} from "../../../../src/shared/organisation/types";

/** What every Dealerships page sends for its dialogs. */
export interface DealershipDialogProps {
  dealershipOptions: import("../../../../src/shared/organisation/types").DealershipOption[];
  unitChoices: import("../../../../src/shared/organisation/types").UnitChoiceMine[];
  rucLength: number;
  can: { manage: boolean };
}
