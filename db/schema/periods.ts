import { sql } from "drizzle-orm";
import { check, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cafes } from "./places";
import { users } from "./users";

/**
 * The months closed at each cafe (src/domain/sales/periods.ts): a closed month takes no sale, void or backdated sale
 * any more, so what was billed for it never changes. Reopening deletes the row (audited).
 */
export const closedPeriods = sqliteTable(
  "closed_periods",
  {
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    /** "YYYY-MM": the service dates of that month. */
    month: text("month").notNull(),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }).notNull(),
    closedBy: integer("closed_by").references(() => users.id, { onDelete: "set null" }),
    closedByName: text("closed_by_name").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cafeId, t.month] }),
    check("closed_periods_month_check", sql`${t.month} GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
  ],
);
