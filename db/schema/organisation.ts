import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { businesses, cafes, headquarters, units } from "./places";
import { services } from "./services";

/**
 * The organisation around the places: the services each business offers, the business's properties (assets kept
 * at a headquarters or a cafe, labelled with a QR code), and the client companies: dealerships and their
 * subdealerships, which work in some units.
 */
export const businessServices = sqliteTable(
  "business_services",
  {
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.serviceId] }),
    index("business_services_service_index").on(t.serviceId),
  ],
);

import { PROPERTY_STATUSES, type PropertyStatus } from "../../src/shared/organisation/types";
export { PROPERTY_STATUSES, type PropertyStatus };

export const properties = sqliteTable(
  "properties",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    /** Folded copies of name and category that searches compare (see db/schema/folded.ts). */
    nameFolded: text("name_folded"),
    categoryFolded: text("category_folded"),
    serial: text("serial").notNull().default(""),
    /** Exactly one of headquarters and cafe is set: where the property is kept. */
    headquartersId: integer("headquarters_id").references(() => headquarters.id, { onDelete: "restrict" }),
    cafeId: integer("cafe_id").references(() => cafes.id, { onDelete: "restrict" }),
    status: text("status", { enum: PROPERTY_STATUSES }).notNull(),
    /** Calendar date, YYYY-MM-DD. */
    acquiredOn: text("acquired_on"),
    acquisitionValueCents: integer("acquisition_value_cents"),
    notes: text("notes").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    check("properties_location_check", sql`(${t.headquartersId} IS NULL) <> (${t.cafeId} IS NULL)`),
    check("properties_status_check", sql`${t.status} IN ('in_use', 'in_storage', 'under_repair', 'retired')`),
    index("properties_headquarters_index").on(t.headquartersId),
    index("properties_cafe_index").on(t.cafeId),
  ],
);

export const dealerships = sqliteTable("dealerships", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  /** A folded copy of the name that searches compare (see db/schema/folded.ts). */
  nameFolded: text("name_folded"),
  ruc: text("ruc").notNull().unique(),
  fiscalAddress: text("fiscal_address").notNull().default(""),
  legalAddress: text("legal_address").notNull().default(""),
  phone: text("phone").notNull().default(""),
  email: text("email").notNull().default(""),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

export const subdealerships = sqliteTable(
  "subdealerships",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    dealershipId: integer("dealership_id")
      .notNull()
      .references(() => dealerships.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    /** A folded copy of the name that searches compare (see db/schema/folded.ts). */
    nameFolded: text("name_folded"),
    ruc: text("ruc").notNull().unique(),
    fiscalAddress: text("fiscal_address").notNull().default(""),
    legalAddress: text("legal_address").notNull().default(""),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("subdealerships_dealership_name_unique").on(t.dealershipId, t.name)],
);

/** The units a subdealership works in. A unit cannot be deleted while a subdealership works there. */
export const subdealershipUnits = sqliteTable(
  "subdealership_units",
  {
    subdealershipId: integer("subdealership_id")
      .notNull()
      .references(() => subdealerships.id, { onDelete: "cascade" }),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.subdealershipId, t.unitId] }), index("subdealership_units_unit_index").on(t.unitId)],
);
