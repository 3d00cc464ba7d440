/** The shapes of the point of sale, sales, reports and diner imports that pages show. */
import type { DocumentType } from "../documents";
import type { JobProgress, JobState } from "../jobs";
import type { ListResult } from "../lists";
import type { Message } from "../message";
import type { ServiceType } from "../places/types";

export const SALE_STATUSES = ["valid", "voided", "all"] as const;

/** A sale is charged to the diner's company (credit) or paid on the spot (cash). */
export const SALE_TYPES = ["credit", "cash"] as const;
export type SaleType = (typeof SALE_TYPES)[number];

/** Sales counted together: how many, and their amount in cents. */
export interface SalesCount {
  sales: number;
  totalCents: number;
}

/** One period's figures (today, or the month so far). */
export interface PeriodFigures {
  /** Meals served (the quantities of the valid lines) and their amount. */
  meals: number;
  totalCents: number;
  /** Valid sales (tickets). */
  sales: number;
  /** Valid sales at another unit's price (diners away from their home cafe); part of the above. */
  otherUnit: SalesCount;
  /** Voided sales, counted apart: in none of the figures above. */
  voided: SalesCount;
}

export interface DashboardFigures {
  /** The latest cafe's today (all cafes' today but across time zones), and the first day of its month. */
  today: string;
  monthStart: string;
  /** Today's figures: each cafe's own service date of today. */
  day: PeriodFigures;
  /** Meals and amount of today per service type, every type the cafes offer or sold today, in the catalogue's order. */
  byType: { type: ServiceType; meals: number; totalCents: number }[];
  /** From the first of each cafe's month to its today. */
  month: PeriodFigures;
  /** The last CHART_DAYS service dates (one more when the cafes' todays differ), oldest first, every day present. */
  days: { date: string; meals: number; totalCents: number }[];
  /** The month's subdealerships with the most revenue (then sales), at most TOP_SUBDEALERSHIPS. */
  topSubdealerships: { id: number; name: string; dealership: string; sales: number; totalCents: number }[];
}

/** Someone a person without a role may ask for one: who holds users.manage (or is a super-administrator), and where. */
export interface RoleKeeper {
  name: string;
  area: string;
  place: string;
}

/** A diner as the point of sale and the forms show them. */
export interface DinerView {
  id: number;
  name: string;
  documentType: DocumentType;
  documentNumber: string;
  phone: string;
  active: boolean;
  cafeId: number;
  cafeName: string;
  /** Mine › Unit › Cafe of the home cafe. */
  cafePath: string;
  subdealershipId: number;
  subdealershipName: string;
  dealershipName: string;
  levelId: number | null;
  levelName: string | null;
  /** The blacklist's reason when the diner's document is barred, else null. */
  barredReason: string | null;
}

export interface LevelOption {
  id: number;
  name: string;
}

export interface ClosedPeriod {
  cafeId: number;
  cafeName: string;
  month: string;
  closedAt: string;
  closedByName: string;
}

export interface PosService {
  id: number;
  code: string;
  name: string;
  type: ServiceType;
  priceCents: number | null;
  /** "04:30", or null when the service has no window at this cafe. */
  windowStart: string | null;
  windowEnd: string | null;
}

export interface PosCafe {
  id: number;
  name: string;
  /** Mine › Unit › Cafe. */
  path: string;
  timeZone: string;
  /** Today in the cafe's time zone, YYYY-MM-DD. */
  today: string;
  /** The series the cafe's tickets are numbered in ('' while it has none of its own). */
  ticketSeries: string;
  /** The cafe's boleta series ('' for none yet); no boleta is issued yet. */
  boletaSeries: string;
  autoPrint: boolean;
  /** A cash-only cafe: the sale type stays on cash after a cash sale (otherwise it goes back to credit). */
  keepCash: boolean;
  /** The business that issues the cafe's tickets, null when none is set (the cafe cannot sell). */
  business: { name: string; ruc: string | null } | null;
}

export interface PointOfSale {
  cafe: PosCafe;
  /** Every active service the cafe offers, priced or not, by time of day (servicesByTimeOfDay). */
  services: PosService[];
  /** The priced service whose window holds the cafe's current time, or null. */
  currentServiceId: number | null;
  /** The cafe's active tills, by name: the page runs as one, chosen once on each device. */
  tills: { id: number; name: string }[];
  /** The payment methods the cafe takes, in their order (docs/cash.md). */
  paymentMethods: PosPaymentMethod[];
}

/** A payment method as the till offers it: a built-in one's code names it in the reader's language (cash.methods). */
export interface PosPaymentMethod {
  code: string;
  name: string;
  needsReference: boolean;
  inDrawer: boolean;
}

export interface SaleLineView {
  serviceId: number;
  serviceCode: string;
  serviceName: string;
  quantity: number;
  unitPriceCents: number;
  listPriceCents: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
}

export interface SaleView {
  id: number;
  cafeId: number;
  cafeName: string;
  timeZone: string;
  receiptType: "ticket";
  series: string;
  number: number;
  /** "T001-00000023": the series and the number as the ticket shows them. */
  ticket: string;
  saleType: SaleType;
  serviceDate: string;
  soldAt: string;
  dinerId: number | null;
  dinerName: string;
  documentType: DocumentType;
  documentNumber: string;
  subdealershipName: string | null;
  subdealershipRuc: string | null;
  dealershipName: string | null;
  businessName: string;
  businessRuc: string;
  businessAddress: string;
  otherUnit: boolean;
  priceFactorPercent: number;
  igvRateBasisPoints: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
  cashierId: number | null;
  cashierName: string;
  voided: boolean;
  voidedAt: string | null;
  voidedByName: string | null;
  voidReason: string | null;
  lines: SaleLineView[];
  /** The till it was sold at (its name then); null for a sale from before tills, or from a cafe without one. */
  tillName: string | null;
  /** How a cash-type sale was paid (none for credit): the amounts add up to its total. */
  payments: SalePaymentView[];
}

/** One payment of a cash-type sale: a built-in method's code names it in the reader's language (cash.methods). */
export interface SalePaymentView {
  methodCode: string;
  methodName: string;
  amountCents: number;
  /** Cash: what was handed over and the change given back; null for the other methods. */
  tenderedCents: number | null;
  changeCents: number | null;
  reference: string | null;
}

export interface DaySales extends ListResult<SaleView> {
  /** Sales of the day that count (not voided): how many, meals sold, and their amount. */
  totals: { sales: number; meals: number; totalCents: number; voided: number };
}

export type SaleStatus = (typeof SALE_STATUSES)[number];

/** A filter as query-string fields; a field that does not filter is left out. */
export type SalesFilterQuery = {
  from: string;
  to: string;
  cafe_ids?: string;
  dealership_id?: string;
  subdealership_id?: string;
  service_ids?: string;
  sale_type?: SaleType;
  other_unit?: "1" | "0";
  status?: SaleStatus;
};

export interface SalesTotals {
  /** Sales (tickets) that count: not voided, with at least one line the filter shows. */
  sales: number;
  /** Their lines the filter shows, and the meals (quantities) of those lines. */
  lines: number;
  meals: number;
  /** Amounts of those lines, in cents: base + IGV = total for every line, so for the sums too. */
  baseCents: number;
  igvCents: number;
  totalCents: number;
  /** Voided sales that match the filter otherwise, and the amount of their lines: counted apart, never above. */
  voidedSales: number;
  voidedCents: number;
}

/** One sale line as the Sales page and its export show it. */
export interface SalesLineRow {
  /** The line's id. */
  id: number;
  saleId: number;
  serviceDate: string;
  /** When it was sold (ISO), and the cafe's time zone to show the time in. */
  soldAt: string;
  timeZone: string;
  cafeId: number;
  cafeName: string;
  /** "T001-00000023". */
  ticket: string;
  dinerName: string;
  documentType: DocumentType;
  documentNumber: string;
  dealershipName: string | null;
  subdealershipName: string | null;
  subdealershipRuc: string | null;
  serviceId: number;
  serviceCode: string;
  serviceName: string;
  quantity: number;
  unitPriceCents: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
  saleType: SaleType;
  otherUnit: boolean;
  voided: boolean;
}

/** One sale of a duplicate group. */
export interface DuplicateSale {
  saleId: number;
  ticket: string;
  cafeId: number;
  cafeName: string;
  soldAt: string;
  timeZone: string;
  saleType: SaleType;
  otherUnit: boolean;
  quantity: number;
  totalCents: number;
}

/** A diner served one service more than once on one service date, with the sales involved (in the order sold). */
export interface DuplicateGroup {
  dinerId: number;
  dinerName: string;
  documentType: DocumentType;
  documentNumber: string;
  subdealershipName: string | null;
  serviceId: number;
  serviceCode: string;
  serviceName: string;
  serviceDate: string;
  /** Lines in the group (more than one), and their meals. */
  lines: number;
  meals: number;
  cafes: number;
  sales: DuplicateSale[];
}

/** What the filters of sales offer: the cafes of the scope, the client companies and the services. */
export interface SalesFilterOptions {
  cafes: { id: number; name: string; unit: string; mine: string }[];
  dealerships: { id: number; name: string }[];
  subdealerships: { id: number; name: string; dealershipId: number }[];
  services: { id: number; code: string; name: string }[];
}

/** A diner import as the Dinners page shows it; messages worded in the viewer's language. */
export interface DinerImportView {
  id: number;
  state: JobState;
  /**
   * The file being checked, or written; a preview to confirm (or with nothing to import); the rows to fix; what
   * was written; the file refused as a whole; or why the job could not run.
   */
  step: "checking" | "saving" | "preview" | "problems" | "done" | "refused" | "failed";
  fileName: string;
  /** The cafe of rows with a blank cafe cell, as chosen on upload. */
  defaultCafeId: number | null;
  /** Whether the preview (or the write) deactivates the leavers. */
  deactivateLeavers: boolean;
  /** `label` is a translation key; the page words it. */
  progress: JobProgress;
  /** What to say first: the refusal, nothing to import, expired, the diners changed, another import writing, a failure. */
  notice: string | null;
  /** The sheet read (the file's first visible sheet) and its header's row, once checked. */
  sheet: string | null;
  headerRow: number | null;
  /** Data rows read. */
  rows: number;
  /** What the preview would do, or (step `done`) what was written. */
  counts: { created: number; updated: number; unchanged: number; deactivated: number } | null;
  problems: { row: number; column: string | null; message: string }[];
  problemCount: number;
  unknownColumns: string[];
  blacklisted: DinerImportPreview["blacklisted"];
  leavers: DinerImportPreview["leavers"];
  leaverCount: number;
  /** The first changes, each with the fields it sets. */
  changes: DinerImportPreview["changes"];
  changeCount: number;
  /** Whether it may be confirmed now (it writes something, has no problem, and its upload is kept). */
  canConfirm: boolean;
  /** Whether confirming may deactivate the leavers (there are some, and that plan was worked out). */
  canDeactivate: boolean;
  /** Until when it may be confirmed (ISO 8601). */
  expiresAt: string | null;
}

/** What the Dinners page receives about imports: null without `diners.import`, else the latest import (or none). */
export interface DinerImportProp {
  job: DinerImportView | null;
  /** The largest file accepted, in bytes (DINER_INTAKE). */
  maxBytes: number;
}

export interface DinerImportProblem {
  row: number;
  column: string | null;
  message: Message;
}

export interface DinerImportPreview {
  /** The sheet read (the file's first visible sheet; a CSV's is named after the file, as Excel names it). */
  sheet: string;
  /** The header's row in the sheet (after a title above it), or null when the sheet has none. */
  headerRow: number | null;
  /** Data rows read (blank rows skipped). */
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  /** At most MAX_LISTED, in row order. */
  problems: DinerImportProblem[];
  /** All of them. */
  problemCount: number;
  /** Header texts ignored. */
  unknownColumns: string[];
  blacklisted: { row: number; documentType: DocumentType; documentNumber: string; name: string; reason: string }[];
  /** At most MAX_LISTED. */
  leavers: {
    id: number;
    documentType: DocumentType;
    documentNumber: string;
    name: string;
    cafe: string;
    subdealership: string;
  }[];
  leaverCount: number;
  /** The first MAX_LISTED, each with the fields it sets (`dinners.import.field.<field>` names them). */
  changes: { row: number; kind: "create" | "update"; documentNumber: string; name: string; fields: DinerField[] }[];
  /** Fingerprint of exactly what would be written (leavers included only when asked). */
  plan: string;
}

export type Field =
  "name" | "lastNames" | "firstNames" | "document" | "documentType" | "phone" | "subdealership" | "cafe" | "level";

export type Column = { index: number; header: string };

/** What a header row says: its columns, the texts it does not know, the columns it repeats, the name's columns. */
export interface Header {
  columns: Map<Field, Column>;
  unknownColumns: string[];
  repeated: string[];
  /** The name's column, or "Nombres" and "Apellidos" (as a person is called); none when it has neither. */
  nameParts: Column[];
}

/** A diner's field as a change names it. */
export type DinerField = "name" | "documentType" | "phone" | "subdealership" | "cafe" | "level" | "active";
