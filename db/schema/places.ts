import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The place hierarchy (mine → unit → cafe) and the caterer's businesses with their headquarters. Names and
 * parents only for now; the places area completes them. Names are unique within their parent.
 */
export const mines = sqliteTable("mines", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
});

export const units = sqliteTable(
  "units",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    mineId: integer("mine_id")
      .notNull()
      .references(() => mines.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("units_mine_name_unique").on(t.mineId, t.name)],
);

export const businesses = sqliteTable("businesses", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
});

export const cafes = sqliteTable(
  "cafes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "restrict" }),
    /** The business that issues this cafe's tickets (and whose headquarters areas reach it). */
    businessId: integer("business_id").references(() => businesses.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("cafes_unit_name_unique").on(t.unitId, t.name), index("cafes_business_index").on(t.businessId)],
);

export const headquarters = sqliteTable(
  "headquarters",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("headquarters_business_name_unique").on(t.businessId, t.name)],
);

