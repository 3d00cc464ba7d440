import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cafes, mines, units } from "./places";
import { users } from "./users";

/**
 * Services a cafe sells (breakfast, lunch, ...), offered down the place tree: a unit offers only services its
 * mine offers, a cafe only services its unit offers (the domain keeps that rule). A cafe sets its own price per
 * service, and every price change is kept in the history.
 */
import { SERVICE_TYPES, type ServiceType } from "../../src/shared/places/types";
export { SERVICE_TYPES, type ServiceType };

export const services = sqliteTable(
  "services",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    type: text("type", { enum: SERVICE_TYPES }).notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [check("services_type_check", sql`${t.type} IN ('breakfast', 'lunch', 'dinner', 'snack', 'disposables')`)],
);

export const mineServices = sqliteTable(
  "mine_services",
  {
    mineId: integer("mine_id")
      .notNull()
      .references(() => mines.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.mineId, t.serviceId] }), index("mine_services_service_index").on(t.serviceId)],
);

export const unitServices = sqliteTable(
  "unit_services",
  {
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.unitId, t.serviceId] }), index("unit_services_service_index").on(t.serviceId)],
);

export const cafeServices = sqliteTable(
  "cafe_services",
  {
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    /** The cafe's price in cents; null until set. */
    priceCents: integer("price_cents"),
    /**
     * The service's window at this cafe, in minutes after midnight of the cafe's clock (04:30 = 270): the point of
     * sale preselects the service whose window holds the current time. A window whose end is before its start
     * crosses midnight. Null: no window.
     */
    windowStart: integer("window_start"),
    windowEnd: integer("window_end"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.cafeId, t.serviceId] }), index("cafe_services_service_index").on(t.serviceId)],
);

/** Every change of a cafe's price for a service: before and after (cents, null = no price), who and when. */
export const servicePriceHistory = sqliteTable(
  "service_price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    oldPriceCents: integer("old_price_cents"),
    newPriceCents: integer("new_price_cents"),
    changedBy: integer("changed_by").references(() => users.id, { onDelete: "set null" }),
    /** "cli" or the user's name at the time, for changes whose user was deleted. */
    changedByLabel: text("changed_by_label").notNull(),
    changedAt: integer("changed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("service_price_history_cafe_index").on(t.cafeId, t.serviceId, t.changedAt)],
);
