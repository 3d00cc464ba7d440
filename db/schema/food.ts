import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * Food and logistics, company-wide data: the cities where places are and where providers deliver, ingredient
 * categories, ingredients with their composition per 100 g, providers, and their supply offers (provider ×
 * ingredient × city) with every price they ever had. Dishes and recipes will refer to ingredients and offers.
 *
 * Amounts of an ingredient are in its base unit: grams, millilitres or units. Composition figures are per 100 g of
 * the edible part, as the national food composition tables give them; a density turns millilitres into grams and a
 * unit weight turns units into grams. Money is in integer cents.
 */
export const cities = sqliteTable("cities", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  /** The region (departamento) the city is in. */
  region: text("region").notNull().default(""),
});

export const ingredientCategories = sqliteTable("ingredient_categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  description: text("description").notNull().default(""),
});

export const BASE_UNITS = ["g", "ml", "unit"] as const;
export type BaseUnit = (typeof BASE_UNITS)[number];

export const ingredients = sqliteTable(
  "ingredients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => ingredientCategories.id, { onDelete: "restrict" }),
    name: text("name").notNull().unique(),
    baseUnit: text("base_unit", { enum: BASE_UNITS }).notNull(),
    /** Grams of one unit (base unit "unit"): an egg weighs about 50 g. */
    unitWeightGrams: real("unit_weight_grams"),
    /** Grams of one millilitre (base unit "ml"): oil is about 0.92. */
    densityGramsPerMl: real("density_g_per_ml"),
    kcalPer100g: real("kcal_per_100g").notNull(),
    /** Percent of the gross amount lost as solid waste (peel, bones) and as liquid (thawing, draining). */
    solidWastePercent: real("solid_waste_percent").notNull().default(0),
    liquidWastePercent: real("liquid_waste_percent").notNull().default(0),
    /** Nutrients per 100 g, each optional: grams for the first six, micrograms for retinol, milligrams for the rest. */
    waterG: real("water_g"),
    proteinG: real("protein_g"),
    fatG: real("fat_g"),
    carbohydrateG: real("carbohydrate_g"),
    fibreG: real("fibre_g"),
    ashG: real("ash_g"),
    calciumMg: real("calcium_mg"),
    phosphorusMg: real("phosphorus_mg"),
    ironMg: real("iron_mg"),
    retinolUg: real("retinol_ug"),
    thiamineMg: real("thiamine_mg"),
    riboflavinMg: real("riboflavin_mg"),
    niacinMg: real("niacin_mg"),
    vitaminCMg: real("vitamin_c_mg"),
    sodiumMg: real("sodium_mg"),
    potassiumMg: real("potassium_mg"),
    /** Allergen codes of the fixed list (src/domain/food/allergens.ts), as a JSON array. */
    allergens: text("allergens", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** The composition figures are demonstration values, not measured ones (the demo seed's). */
    demoValues: integer("demo_values", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("ingredients_category_index").on(t.categoryId),
    check("ingredients_base_unit_check", sql`${t.baseUnit} IN ('g', 'ml', 'unit')`),
    check("ingredients_unit_weight_check", sql`${t.baseUnit} <> 'unit' OR ${t.unitWeightGrams} > 0`),
    check("ingredients_density_check", sql`${t.baseUnit} <> 'ml' OR ${t.densityGramsPerMl} > 0`),
    check("ingredients_kcal_check", sql`${t.kcalPer100g} >= 0`),
    check(
      "ingredients_waste_check",
      sql`${t.solidWastePercent} >= 0 AND ${t.liquidWastePercent} >= 0 AND ${t.solidWastePercent} + ${t.liquidWastePercent} < 100`,
    ),
  ],
);

export const providers = sqliteTable("providers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  ruc: text("ruc").notNull().unique(),
  /** The person to call. */
  contact: text("contact").notNull().default(""),
  phone: text("phone").notNull().default(""),
  email: text("email").notNull().default(""),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * A supply offer: what a provider charges for an ingredient delivered in a city, in one presentation ("50 kg
 * sack") holding `quantity` of the ingredient's base unit. The cost per base unit follows, net of IGV when the
 * price includes it. A withdrawn offer (active = false) is kept with its history but is no longer current.
 */
export const offers = sqliteTable(
  "offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    providerId: integer("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "restrict" }),
    ingredientId: integer("ingredient_id")
      .notNull()
      .references(() => ingredients.id, { onDelete: "restrict" }),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id, { onDelete: "restrict" }),
    presentation: text("presentation").notNull(),
    quantity: real("quantity").notNull(),
    priceCents: integer("price_cents").notNull(),
    priceIncludesIgv: integer("price_includes_igv", { mode: "boolean" }).notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** When the price (or quantity, or IGV flag) last changed: the date of the newest history row. */
    priceChangedAt: integer("price_changed_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("offers_provider_ingredient_city_presentation_unique").on(
      t.providerId,
      t.ingredientId,
      t.cityId,
      t.presentation,
    ),
    index("offers_ingredient_city_index").on(t.ingredientId, t.cityId),
    index("offers_city_index").on(t.cityId),
    check("offers_quantity_check", sql`${t.quantity} > 0`),
    check("offers_price_check", sql`${t.priceCents} > 0`),
  ],
);

/** Every price an offer had, from its first, with the moment it took effect and who set it. */
export const offerPriceHistory = sqliteTable(
  "offer_price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    offerId: integer("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    priceCents: integer("price_cents").notNull(),
    priceIncludesIgv: integer("price_includes_igv", { mode: "boolean" }).notNull(),
    quantity: real("quantity").notNull(),
    changedAt: integer("changed_at", { mode: "timestamp_ms" }).notNull(),
    changedBy: integer("changed_by").references(() => users.id, { onDelete: "set null" }),
    /** Who set it, as they were named then ("Command line" for the CLI and imports run there). */
    changedByName: text("changed_by_name").notNull().default(""),
  },
  (t) => [
    index("offer_price_history_offer_index").on(t.offerId, t.changedAt),
    index("offer_price_history_changed_index").on(t.changedAt),
  ],
);
