import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, sqliteView, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DOCUMENT_TYPES } from "../../src/shared/documents";
import { dinerImports } from "./diner-imports";
import { subdealerships, dealerships } from "./organisation";
import { businesses, cafes } from "./places";
import { services } from "./services";
import { users } from "./users";

/**
 * Diners and the point of sale. A diner is a worker of a subdealership with a home cafe and a level, identified by
 * a document that is unique. A sale is a ticket of one of its cafe's series (numbers gapless per series), with its lines;
 * it keeps a snapshot of who and what it was about, so later edits of diners, client companies, the business or
 * prices never change a past sale. Sales reference their cafe, diner and services without cascading, so none of
 * them can be deleted once sold.
 */

/** Diner tiers a recipe is made for (Master, Staff, Employee, Laborer to start with; edited on the Food page). */
export const levels = sqliteTable("levels", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const diners = sqliteTable(
  "diners",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentType: text("document_type", { enum: DOCUMENT_TYPES }).notNull(),
    /** Normalized (src/shared/documents.ts): a DNI keeps its leading zeros. */
    documentNumber: text("document_number").notNull(),
    name: text("name").notNull(),
    /** A folded copy of the name that searches compare (see db/schema/folded.ts). */
    nameFolded: text("name_folded"),
    phone: text("phone").notNull().default(""),
    subdealershipId: integer("subdealership_id")
      .notNull()
      .references(() => subdealerships.id, { onDelete: "restrict" }),
    /** The home cafe: a sale at any other cafe is an other-unit sale. */
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "restrict" }),
    levelId: integer("level_id").references(() => levels.id, { onDelete: "restrict" }),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /**
     * The import that created this diner (null when registered by hand). While that import is still writing, the
     * diner is not visible (see visibleDiners); its last commit makes all of its diners visible at once.
     */
    importId: integer("import_id").references(() => dinerImports.id, { onDelete: "restrict" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("diners_document_unique").on(t.documentType, t.documentNumber),
    index("diners_cafe_name_index").on(t.cafeId, t.nameFolded),
    index("diners_subdealership_index").on(t.subdealershipId),
    index("diners_import_index")
      .on(t.importId)
      .where(sql`${t.importId} IS NOT NULL`),
    check("diners_document_type_check", sql`${t.documentType} IN ('dni', 'ce', 'pas')`),
  ],
);

/**
 * The diners everyone sees: every diner but those an unfinished import is writing (docs/decisions/018). It is the
 * one rule every read follows — the till, searches, lists, exports, the command line, the audit's names — so a
 * diner of an import that has not finished is never found, listed or sold to. Only the writers (registering by
 * hand, the import itself, undoing one) read the table `diners`.
 */
export const visibleDiners = sqliteView("visible_diners").as((qb) =>
  qb
    .select()
    .from(diners)
    .where(
      sql`${diners.importId} IS NULL OR ${diners.importId} NOT IN (SELECT id FROM diner_imports WHERE state = 'writing')`,
    ),
);

import { SALE_TYPES, type SaleType } from "../../src/shared/sales/types";
export { SALE_TYPES, type SaleType };
export const RECEIPT_TYPES = ["ticket"] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

/** The documents a series numbers: the internal ticket of every sale, and the boleta (not issued yet). */
export const SERIES_KINDS = ["ticket", "boleta"] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

/**
 * The series registry: every series a business has given out for a kind of document, the cafe it belongs to (for
 * ever, once registered) and the number its next document gets. A cafe's current series are named on the cafe
 * (`cafes.ticket_series`, `cafes.boleta_series`); a sale takes its number here with one UPDATE … RETURNING inside
 * its immediate transaction, so each series runs gapless. See docs/point-of-sale.md ("The series registry").
 */
export const receiptSeries = sqliteTable(
  "receipt_series",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // A series that numbered a sale holds on through that sale (sales restrict deleting their cafe and business);
    // the series of a cafe or business deleted without sales go with it.
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: SERIES_KINDS }).notNull(),
    series: text("series").notNull(),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    nextNumber: integer("next_number").notNull().default(1),
  },
  (t) => [
    uniqueIndex("receipt_series_unique").on(t.businessId, t.kind, t.series),
    index("receipt_series_cafe_index").on(t.cafeId, t.kind),
    check("receipt_series_kind_check", sql`${t.kind} IN ('ticket', 'boleta')`),
    check("receipt_series_next_number_check", sql`${t.nextNumber} >= 1`),
  ],
);

export const sales = sqliteTable(
  "sales",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "restrict" }),
    receiptType: text("receipt_type", { enum: RECEIPT_TYPES }).notNull(),
    series: text("series").notNull(),
    number: integer("number").notNull(),
    saleType: text("sale_type", { enum: SALE_TYPES }).notNull(),
    /** The day of the meal in the cafe's time zone, YYYY-MM-DD. */
    serviceDate: text("service_date").notNull(),
    soldAt: integer("sold_at", { mode: "timestamp_ms" }).notNull(),
    /** The browser's key of the request: the same key is one sale. */
    requestKey: text("request_key").notNull(),
    /** A digest of what the request asked, to tell a replay from a key reused with other content. */
    requestDigest: text("request_digest").notNull(),
    /** Null for a cash visitor. */
    dinerId: integer("diner_id").references(() => diners.id, { onDelete: "restrict" }),
    documentType: text("document_type", { enum: DOCUMENT_TYPES }).notNull(),
    documentNumber: text("document_number").notNull(),
    dinerName: text("diner_name").notNull(),
    subdealershipId: integer("subdealership_id").references(() => subdealerships.id, { onDelete: "restrict" }),
    subdealershipName: text("subdealership_name"),
    subdealershipRuc: text("subdealership_ruc"),
    dealershipId: integer("dealership_id").references(() => dealerships.id, { onDelete: "restrict" }),
    dealershipName: text("dealership_name"),
    dealershipRuc: text("dealership_ruc"),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "restrict" }),
    businessName: text("business_name").notNull(),
    businessRuc: text("business_ruc").notNull(),
    businessAddress: text("business_address").notNull().default(""),
    cafeName: text("cafe_name").notNull(),
    /** Sold at a cafe that is not the diner's home cafe, at the other-unit factor. */
    otherUnit: integer("other_unit", { mode: "boolean" }).notNull().default(false),
    /** The factor applied, in hundredths (200 = ×2); 100 when not an other-unit sale. */
    priceFactorPercent: integer("price_factor_percent").notNull().default(100),
    /** IGV rate in basis points (1800 = 18 %). */
    igvRateBasisPoints: integer("igv_rate_basis_points").notNull(),
    baseCents: integer("base_cents").notNull(),
    igvCents: integer("igv_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    cashierId: integer("cashier_id").references(() => users.id, { onDelete: "set null" }),
    cashierName: text("cashier_name").notNull(),
    voidedAt: integer("voided_at", { mode: "timestamp_ms" }),
    voidedBy: integer("voided_by").references(() => users.id, { onDelete: "set null" }),
    voidedByName: text("voided_by_name"),
    voidReason: text("void_reason"),
  },
  (t) => [
    // A document's number is its business's, kind's and series' (the series registry gives each number once). The
    // cafe is part of the key because numbers issued before migration 0023 may repeat across the cafes of a business
    // (nothing kept two cafes from sharing a series then); a cafe's own numbers never repeat.
    uniqueIndex("sales_number_unique").on(t.businessId, t.receiptType, t.series, t.number, t.cafeId),
    uniqueIndex("sales_request_key_unique").on(t.requestKey),
    index("sales_cafe_date_index").on(t.cafeId, t.serviceDate, t.id),
    index("sales_diner_index").on(t.dinerId),
    index("sales_service_date_index").on(t.serviceDate),
    // The sales of a client company over a range of dates (the Sales page's filters, the billing sheet).
    index("sales_dealership_date_index").on(t.dealershipId, t.serviceDate),
    index("sales_subdealership_date_index").on(t.subdealershipId, t.serviceDate),
    check("sales_sale_type_check", sql`${t.saleType} IN ('credit', 'cash')`),
    check("sales_receipt_type_check", sql`${t.receiptType} IN ('ticket')`),
    check("sales_credit_diner_check", sql`${t.saleType} = 'cash' OR ${t.dinerId} IS NOT NULL`),
  ],
);

export const saleLines = sqliteTable(
  "sale_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    saleId: integer("sale_id")
      .notNull()
      .references(() => sales.id, { onDelete: "restrict" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    serviceCode: text("service_code").notNull(),
    serviceName: text("service_name").notNull(),
    quantity: integer("quantity").notNull(),
    /** The cafe's list price when sold. */
    listPriceCents: integer("list_price_cents").notNull(),
    /** What one unit was charged: the list price times the sale's factor. */
    unitPriceCents: integer("unit_price_cents").notNull(),
    baseCents: integer("base_cents").notNull(),
    igvCents: integer("igv_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    /**
     * Copies of the sale's diner, type, date and state, so that one index can hold "one credit sale per diner,
     * service and service date" across all cafes, under concurrent requests.
     */
    dinerId: integer("diner_id"),
    saleType: text("sale_type", { enum: SALE_TYPES }).notNull(),
    serviceDate: text("service_date").notNull(),
    voided: integer("voided", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("sale_lines_sale_index").on(t.saleId),
    index("sale_lines_service_index").on(t.serviceId),
    // A range of service dates read in date and sale order with everything their totals need, without the lines
    // themselves (the Sales page's totals and first page, src/domain/sales/report.ts).
    index("sale_lines_date_index").on(
      t.serviceDate,
      t.saleId,
      t.voided,
      t.saleType,
      t.serviceId,
      t.quantity,
      t.baseCents,
      t.igvCents,
      t.totalCents,
    ),
    // The voided lines by date, with their amounts: the voided sales of a filter, counted apart, in a short read.
    index("sale_lines_voided_index")
      .on(t.serviceDate, t.saleId, t.totalCents)
      .where(sql`${t.voided} = 1`),
    // The meals of registered diners that count, by date, diner and service: the duplicates report groups in its order.
    index("sale_lines_meal_index")
      .on(t.serviceDate, t.dinerId, t.serviceId)
      .where(sql`${t.voided} = 0 AND ${t.dinerId} IS NOT NULL`),
    uniqueIndex("sale_lines_one_credit_meal")
      .on(t.dinerId, t.serviceId, t.serviceDate)
      .where(sql`${t.saleType} = 'credit' AND ${t.voided} = 0`),
    check("sale_lines_quantity_check", sql`${t.quantity} > 0`),
  ],
);

/** Every time a ticket was printed (the first print and each reprint), by whom. */
export const salePrints = sqliteTable(
  "sale_prints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    saleId: integer("sale_id")
      .notNull()
      .references(() => sales.id, { onDelete: "restrict" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    reprint: integer("reprint", { mode: "boolean" }).notNull(),
    printedAt: integer("printed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sale_prints_sale_index").on(t.saleId)],
);
