import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cafes } from "./places";

/**
 * The sales added up per cafe and service date, kept by triggers of migration 0015 on `sales` and `sale_lines`, so the
 * dashboard reads a few thousand rows instead of a month of lines. A voided sale (`sales.voided_at` set) counts in
 * neither table's valid figures, exactly as `salesWhere` leaves it out; its amount is kept apart in
 * `daily_sale_figures`. Nothing writes these tables but the triggers: sales never change but for their void, which
 * the triggers follow (as they follow any insert, change or deletion of a sale or a line).
 *
 * Both tables are WITHOUT ROWID (migration 0019; drizzle has no word for it): rows are stored in their key's order, so
 * a cafe's month is one contiguous range that the dashboard reads without a lookup per row.
 */

/** Meals and amount of the valid sale lines, per cafe, service date and service. */
export const dailyServiceFigures = sqliteTable(
  "daily_service_figures",
  {
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    serviceDate: text("service_date").notNull(),
    serviceId: integer("service_id").notNull(),
    /** The quantities of the lines. */
    meals: integer("meals").notNull().default(0),
    totalCents: integer("total_cents").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.cafeId, t.serviceDate, t.serviceId] })],
);

/**
 * Sales (tickets) per cafe, service date, subdealership (0: a visitor's sale, with none) and other-unit mark: how many
 * count and their amount, and apart how many were voided and theirs.
 */
export const dailySaleFigures = sqliteTable(
  "daily_sale_figures",
  {
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    serviceDate: text("service_date").notNull(),
    subdealershipId: integer("subdealership_id").notNull(),
    otherUnit: integer("other_unit", { mode: "boolean" }).notNull(),
    sales: integer("sales").notNull().default(0),
    totalCents: integer("total_cents").notNull().default(0),
    voidedSales: integer("voided_sales").notNull().default(0),
    voidedCents: integer("voided_cents").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.cafeId, t.serviceDate, t.subdealershipId, t.otherUnit] })],
);
