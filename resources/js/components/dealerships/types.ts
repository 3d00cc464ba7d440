/** The shapes the Dealerships pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { DealershipOption, DealershipRow } from "../../../../src/domain/organisation/dealerships";
export type {
  DealershipTreeRow,
  SubdealershipRow,
  UnitChoiceMine,
  UnitRef,
} from "../../../../src/domain/organisation/subdealerships";

/** What every Dealerships page sends for its dialogs. */
export interface DealershipDialogProps {
  dealershipOptions: import("../../../../src/domain/organisation/dealerships").DealershipOption[];
  unitChoices: import("../../../../src/domain/organisation/subdealerships").UnitChoiceMine[];
  rucLength: number;
  can: { manage: boolean };
}
