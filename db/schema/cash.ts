import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cafes } from "./places";
import { sales } from "./sales";

/**
 * Money at the till (docs/cash.md). A till is a named point of sale of a cafe (a counter, a tablet); every sale made
 * at one keeps it (`sale_tills`). Payment methods are a company-wide catalogue (cash, Yape, Plin, card, transfer and
 * those an administrator adds), switched on per cafe; a cash-type ("Contado") sale keeps its payments, whose sum is
 * its total, with the amount tendered and the change for cash. These facts live in tables of their own keyed by
 * sale: `sales` is never rebuilt (its daily figures' triggers hang on it).
 */

export const tills = sqliteTable(
  "tills",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** A cafe's tills go with it; one that sold cannot (its sales keep it, and the cafe). */
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("tills_cafe_name_unique").on(t.cafeId, t.name)],
);

/** The methods Mesa starts with, by code; an administrator adds others (their code is made from their name). */
export const BUILT_IN_PAYMENT_METHODS = ["cash", "yape", "plin", "card", "transfer"] as const;

export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** A stable code: one of BUILT_IN_PAYMENT_METHODS, or made from the name of one an administrator added. */
    code: text("code").notNull(),
    /** The name people see (a built-in method's name is translated by its code instead). */
    name: text("name").notNull(),
    /** Whether a payment by it needs a reference: the wallet's operation number, the card voucher's number. */
    needsReference: integer("needs_reference", { mode: "boolean" }).notNull(),
    /** Whether its money goes into the cash drawer (and so into a shift's count). */
    inDrawer: integer("in_drawer", { mode: "boolean" }).notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("payment_methods_code_unique").on(t.code)],
);

/** The payment methods switched on at a cafe. */
export const cafePaymentMethods = sqliteTable(
  "cafe_payment_methods",
  {
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    methodId: integer("method_id")
      .notNull()
      .references(() => paymentMethods.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.cafeId, t.methodId] })],
);

/** The till a sale was made at (its name as it was). */
export const saleTills = sqliteTable(
  "sale_tills",
  {
    saleId: integer("sale_id")
      .primaryKey()
      .references(() => sales.id, { onDelete: "cascade" }),
    tillId: integer("till_id")
      .notNull()
      .references(() => tills.id, { onDelete: "restrict" }),
    tillName: text("till_name").notNull(),
  },
  (t) => [index("sale_tills_till_index").on(t.tillId, t.saleId)],
);

/**
 * A payment of a cash-type sale, never edited (a wrong method is a void and a new sale). The method's code, name and
 * whether it went into the drawer are kept as they were.
 */
export const salePayments = sqliteTable(
  "sale_payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    saleId: integer("sale_id")
      .notNull()
      .references(() => sales.id, { onDelete: "cascade" }),
    methodId: integer("method_id")
      .notNull()
      .references(() => paymentMethods.id, { onDelete: "restrict" }),
    methodCode: text("method_code").notNull(),
    methodName: text("method_name").notNull(),
    inDrawer: integer("in_drawer", { mode: "boolean" }).notNull(),
    /** What this payment covers of the sale's total. */
    amountCents: integer("amount_cents").notNull(),
    /** Cash: what the diner handed over, and the change given back (tendered − amount); null for other methods. */
    tenderedCents: integer("tendered_cents"),
    changeCents: integer("change_cents"),
    reference: text("reference"),
  },
  (t) => [
    index("sale_payments_sale_index").on(t.saleId),
    check("sale_payments_amount_check", sql`${t.amountCents} > 0`),
    check(
      "sale_payments_change_check",
      sql`(${t.tenderedCents} IS NULL AND ${t.changeCents} IS NULL) OR (${t.changeCents} >= 0 AND ${t.tenderedCents} = ${t.amountCents} + ${t.changeCents})`,
    ),
  ],
);
