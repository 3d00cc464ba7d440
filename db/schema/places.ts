import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cities } from "./food";
import { levels } from "./sales";

/**
 * The place hierarchy (mine → unit → cafe) and the caterer's businesses with their headquarters. Names are
 * unique within their parent. A business is identified by its RUC (nullable here only for rows made before the
 * column existed; the domain requires it). A cafe keeps its own time zone, filled from APP_TIMEZONE on creation.
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
  ruc: text("ruc").unique(),
  fiscalAddress: text("fiscal_address").notNull().default(""),
  legalAddress: text("legal_address").notNull().default(""),
  email: text("email").notNull().default(""),
  phone: text("phone").notNull().default(""),
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
    /** IANA time zone of the cafe's clock (sales days, tickets). */
    timeZone: text("time_zone").notNull().default("America/Lima"),
    /**
     * The series the cafe's tickets take their numbers from now (a code such as T001), one of the cafe's own in the
     * series registry (`receipt_series`, db/schema/sales.ts), which holds its next number. A new cafe gets T followed
     * by its id, registered under its business (triggers of migration 0023); '' while the cafe has none of its own.
     */
    ticketSeries: text("ticket_series").notNull().default(""),
    /** The cafe's boleta series (B and 3 letters or digits), registered as its ticket series is; '' for none yet. */
    boletaSeries: text("boleta_series").notNull().default(""),
    /**
     * Print every sale's ticket at once (true) or only when asked. New cafes print at once (migration 0022); cafes
     * made before keep what they had.
     */
    autoPrint: integer("auto_print", { mode: "boolean" }).notNull().default(true),
    /**
     * A cash-only cafe: after a cash sale the next one stays cash (true). Otherwise (the default) the point of sale
     * goes back to credit after every cash or visitor sale, so the next worker is not charged by mistake.
     */
    keepCash: integer("keep_cash", { mode: "boolean" }).notNull().default(false),
    /** How far a shift's count may be from what was expected without a note saying why, in cents (docs/cash.md). */
    allowedDifferenceCents: integer("allowed_difference_cents").notNull().default(500),
    /** The city the cafe is in: its supplies are bought at the offers there (NULL for cafes made before cities). */
    cityId: integer("city_id").references(() => cities.id, { onDelete: "restrict" }),
    /** The diner level whose recipes the meal schedule costs and shows (NULL: the first level). */
    defaultLevelId: integer("default_level_id").references(() => levels.id, { onDelete: "set null" }),
    /** The language of the cafe's menu board in the dining room: "es" or "en". */
    boardLanguage: text("board_language", { enum: ["es", "en"] })
      .notNull()
      .default("es"),
  },
  (t) => [
    uniqueIndex("cafes_unit_name_unique").on(t.unitId, t.name),
    index("cafes_business_index").on(t.businessId),
    index("cafes_city_index").on(t.cityId),
  ],
);

export const headquarters = sqliteTable(
  "headquarters",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    address: text("address").notNull().default(""),
    phone: text("phone").notNull().default(""),
    /** The city the headquarters is in: as a logistics centre it stocks from the offers there. */
    cityId: integer("city_id").references(() => cities.id, { onDelete: "restrict" }),
  },
  (t) => [
    uniqueIndex("headquarters_business_name_unique").on(t.businessId, t.name),
    index("headquarters_city_index").on(t.cityId),
  ],
);
