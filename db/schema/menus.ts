import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { dishCategories, dishes } from "./dishes";
import { cafes } from "./places";
import { services } from "./services";
import { users } from "./users";

/**
 * Menu planning, place-bound data (a cafe and what belongs to it, under the scope rule).
 *
 * A menu structure says what a service's plate at a cafe is made of: an ordered list of dish categories, each with a
 * reference serving, its share of the plate by weight and the cost bounds of a serving. The meal schedule is a menu
 * day per cafe and date with a slot per service and structure category holding a dish; a day carries a version that
 * every save must name (a stale save is refused), and publishing copies the day's slots to the published menu that
 * the board shows. Display links open a cafe's board without signing in; only a hash of their token is kept.
 */
export const menuStructures = sqliteTable(
  "menu_structures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("menu_structures_cafe_service_unique").on(t.cafeId, t.serviceId)],
);

export const menuStructureItems = sqliteTable(
  "menu_structure_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    structureId: integer("structure_id")
      .notNull()
      .references(() => menuStructures.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    dishCategoryId: integer("dish_category_id")
      .notNull()
      .references(() => dishCategories.id, { onDelete: "restrict" }),
    /** The reference serving, in the category's unit (grams or millilitres). */
    servingAmount: real("serving_amount").notNull(),
    /** This category's share of the plate by weight, in percent. */
    sharePercent: real("share_percent").notNull().default(0),
    /** The cost of a serving, in cents, net of IGV: a dish below or above these is flagged. */
    minCostCents: integer("min_cost_cents").notNull().default(0),
    maxCostCents: integer("max_cost_cents").notNull(),
  },
  (t) => [
    uniqueIndex("menu_structure_items_category_unique").on(t.structureId, t.dishCategoryId),
    check("menu_structure_items_serving_check", sql`${t.servingAmount} > 0`),
    check("menu_structure_items_share_check", sql`${t.sharePercent} >= 0 AND ${t.sharePercent} <= 100`),
    check("menu_structure_items_cost_check", sql`${t.minCostCents} >= 0 AND ${t.maxCostCents} >= ${t.minCostCents}`),
  ],
);

/** A day of a cafe's meal schedule: its draft slots, the version every save names, and what was published. */
export const menuDays = sqliteTable(
  "menu_days",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    /** The day, YYYY-MM-DD, in the cafe's time zone. */
    date: text("date").notNull(),
    /** Grows by one with every saved change of the day's draft. */
    version: integer("version").notNull().default(1),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedByName: text("updated_by_name").notNull().default(""),
    /** The version of the draft that was last published (NULL: never published). */
    publishedVersion: integer("published_version"),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("menu_days_cafe_date_unique").on(t.cafeId, t.date)],
);

/** The draft: a dish in a slot (service × category of its structure; `position` orders several dishes offered). */
export const menuSlots = sqliteTable(
  "menu_slots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    dayId: integer("day_id")
      .notNull()
      .references(() => menuDays.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    dishCategoryId: integer("dish_category_id")
      .notNull()
      .references(() => dishCategories.id, { onDelete: "restrict" }),
    position: integer("position").notNull().default(0),
    dishId: integer("dish_id")
      .notNull()
      .references(() => dishes.id, { onDelete: "restrict" }),
  },
  (t) => [
    uniqueIndex("menu_slots_unique").on(t.dayId, t.serviceId, t.dishCategoryId, t.position),
    index("menu_slots_dish_index").on(t.dishId),
  ],
);

/** What the board shows: the slots of a day as they were when it was last published. */
export const publishedMenuSlots = sqliteTable(
  "published_menu_slots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    dayId: integer("day_id")
      .notNull()
      .references(() => menuDays.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    dishCategoryId: integer("dish_category_id")
      .notNull()
      .references(() => dishCategories.id, { onDelete: "restrict" }),
    position: integer("position").notNull().default(0),
    dishId: integer("dish_id")
      .notNull()
      .references(() => dishes.id, { onDelete: "restrict" }),
  },
  (t) => [
    uniqueIndex("published_menu_slots_unique").on(t.dayId, t.serviceId, t.dishCategoryId, t.position),
    index("published_menu_slots_dish_index").on(t.dishId),
  ],
);

/** Servings expected of a service on a day at a cafe, where a person (or the client's forecast) set them. */
export const menuExpectedServings = sqliteTable(
  "menu_expected_servings",
  {
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    date: text("date").notNull(),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    servings: integer("servings").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cafeId, t.date, t.serviceId] }),
    check("menu_expected_servings_check", sql`${t.servings} >= 0`),
  ],
);

/** A link that opens a cafe's menu board without signing in, until it is revoked. */
export const displayLinks = sqliteTable(
  "display_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cafeId: integer("cafe_id")
      .notNull()
      .references(() => cafes.id, { onDelete: "cascade" }),
    /** Where the screen is ("Pantalla del comedor"). */
    label: text("label").notNull().default(""),
    /** SHA-256 of the token, hex: the token itself is shown once, when the link is made. */
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("display_links_cafe_index").on(t.cafeId)],
);
