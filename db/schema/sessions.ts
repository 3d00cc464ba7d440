import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Server-side sessions. The browser holds only a random id in an HttpOnly cookie; the row is keyed by the
 * SHA-256 of that id, so a copy of the database does not hand out live sessions.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id"),
    data: text("data").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    lastActivity: integer("last_activity").notNull(),
  },
  (table) => [
    index("sessions_user_id_index").on(table.userId),
    index("sessions_last_activity_index").on(table.lastActivity),
  ],
);
