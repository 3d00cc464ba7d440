/** The shapes the point of sale receives: the domain's own types (type-only imports, erased from the bundle). */
export type { PointOfSale, PosCafe, PosPaymentMethod, PosService } from "../../../../src/shared/sales/types";
export type { DaySales, SaleView, SaleLineView } from "../../../../src/shared/sales/types";
export type { DinerView, LevelOption } from "../../../../src/shared/sales/types";
export type { DocumentType } from "../../../../src/shared/documents";
import type { DocumentType } from "../../../../src/shared/documents";
import type { LevelOption } from "../../../../src/shared/sales/types";
import type { PointOfSale } from "../../../../src/shared/sales/types";
import type { DaySales, SaleView } from "../../../../src/shared/sales/types";

export type SaleType = "credit" | "cash";

export interface CafeChoice {
  id: number;
  name: string;
  path: string;
}

export interface SubdealershipOption {
  id: number;
  name: string;
  dealership: string;
}

export interface PosSettings {
  /** The other-unit price factor (2 = double price). */
  otherUnitFactor: number;
  /** IGV in percent (18). */
  igvRate: number;
  dniLength: number;
  /** How often the open page tells the server it is still there. */
  keepAliveMinutes: number;
}

export interface PosAbilities {
  backdate: boolean;
  voidAny: boolean;
  manageDiners: boolean;
  managePrices: boolean;
}

/** The props of the Dinners page (route dinners.index). */
export interface DinnersProps {
  cafes: CafeChoice[];
  pos: PointOfSale | null;
  /** The service date shown and sold for, YYYY-MM-DD. */
  date: string;
  sales: DaySales | null;
  last: SaleView | null;
  levels: LevelOption[];
  subdealerships: SubdealershipOption[];
  documentTypes: DocumentType[];
  /** Named apart from the shared `settings` (time zone, currency), which a page prop of that name would replace. */
  posSettings: PosSettings;
  can: PosAbilities;
  userId: number;
}
