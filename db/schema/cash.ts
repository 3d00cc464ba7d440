import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cafes } from "./places";
import { sales } from "./sales";
import { users } from "./users";

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
    /** The cashier's shift open at that till when sold (null: none was open, or the sale came before shifts). */
    shiftId: integer("shift_id").references(() => cashShifts.id, { onDelete: "restrict" }),
  },
  (t) => [
    index("sale_tills_till_index").on(t.tillId, t.saleId),
    index("sale_tills_shift_index")
      .on(t.shiftId, t.saleId)
      .where(sql`${t.shiftId} IS NOT NULL`),
  ],
);

/**
 * A cashier's cash shift at a till: opened with a float, closed with a blind count of the drawer. One open shift per
 * till and one per cashier at a time, held by the database (two partial unique indexes).
 */
export const cashShifts = sqliteTable(
  "cash_shifts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "restrict" }),
    tillId: integer("till_id")
      .notNull()
      .references(() => tills.id, { onDelete: "restrict" }),
    tillName: text("till_name").notNull(),
    /** The cashier (null once their account is deleted; the name stays). */
    cashierId: integer("cashier_id").references(() => users.id, { onDelete: "set null" }),
    cashierName: text("cashier_name").notNull(),
    state: text("state", { enum: ["open", "closed"] }).notNull(),
    openedAt: integer("opened_at", { mode: "timestamp_ms" }).notNull(),
    openingFloatCents: integer("opening_float_cents").notNull(),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    closedById: integer("closed_by_id").references(() => users.id, { onDelete: "set null" }),
    closedByName: text("closed_by_name"),
    /** The blind count: pieces by denomination in cents, as JSON ({"20000": 1, "1000": 3, …}). */
    countedPieces: text("counted_pieces"),
    countedCents: integer("counted_cents"),
    /** What the drawer should have held at the close: the float, the cash taken, the cash moved in and out. */
    expectedCents: integer("expected_cents"),
    note: text("note"),
  },
  (t) => [
    uniqueIndex("cash_shifts_one_open_per_till")
      .on(t.tillId)
      .where(sql`${t.state} = 'open'`),
    uniqueIndex("cash_shifts_one_open_per_cashier")
      .on(t.cashierId)
      .where(sql`${t.state} = 'open'`),
    index("cash_shifts_cafe_index").on(t.cafeId, t.openedAt),
    check("cash_shifts_state_check", sql`${t.state} IN ('open', 'closed')`),
    check("cash_shifts_float_check", sql`${t.openingFloatCents} >= 0`),
  ],
);

/** Why cash goes into or out of a drawer during a shift. */
export const CASH_MOVE_REASONS = ["change_fund", "expense", "deposit", "other"] as const;

/** Cash put into or taken out of a shift's drawer, with its reason. */
export const cashMoves = sqliteTable(
  "cash_moves",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    shiftId: integer("shift_id")
      .notNull()
      .references(() => cashShifts.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: ["in", "out"] }).notNull(),
    reason: text("reason", { enum: CASH_MOVE_REASONS }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    note: text("note").notNull().default(""),
    byId: integer("by_id").references(() => users.id, { onDelete: "set null" }),
    byName: text("by_name").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("cash_moves_shift_index").on(t.shiftId),
    check("cash_moves_amount_check", sql`${t.amountCents} > 0`),
    check("cash_moves_kind_check", sql`${t.kind} IN ('in', 'out')`),
  ],
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
