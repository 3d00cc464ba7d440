/**
 * Demo food and logistics: the cities of the demo places (Lima and Arequipa for the headquarters, the mining towns
 * for the cafes, each given to a demo place that has none yet), the ingredient categories and about 150 ingredients
 * of food-ingredients.ts with DEMO composition figures (marked `demo_values`), seven providers and their offers in
 * the cities they serve, each with a price two months ago and, for some, a change two weeks ago. Idempotent: cities,
 * categories, ingredients and providers are found by name (RUC for providers), offers by provider, ingredient, city
 * and presentation; nothing found is changed.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { insertCategory } from "../../src/domain/food/categories";
import { findCityByName } from "../../src/domain/food/cities";
import { NUTRIENTS, type NutrientProperty } from "../../src/shared/food/composition";
import { ingredientKey, insertIngredient, type IngredientValues } from "../../src/domain/food/ingredients";
import { CLI_ACTOR } from "../../src/domain/audit";
import type { Db } from "../../src/db";
import {
  cafes,
  cities,
  headquarters,
  ingredientCategories,
  ingredients,
  mines,
  offerPriceHistory,
  offers,
  providers,
  units,
  type BaseUnit,
} from "../schema";
import { DEMO_INGREDIENT_TABLE } from "./food-ingredients";
import type { Seeder } from "./index";
import { DEMO_HEADQUARTERS, DEMO_PLACES } from "./places";

export const DEMO_CITIES = [
  { name: "Lima", region: "Lima" },
  { name: "Arequipa", region: "Arequipa" },
  { name: "Uchumayo", region: "Arequipa" },
  { name: "San Marcos", region: "Áncash" },
  { name: "Huarmey", region: "Áncash" },
];

/** The city of each demo headquarters, and of the cafes of each demo mine's unit (the mining towns). */
const HEADQUARTERS_CITY: Record<string, string> = { "Sede Lima": "Lima", "Sede Arequipa": "Arequipa" };
const UNIT_CITY: Record<string, string> = {
  "Mina Cerro Verde/Unidad Norte": "Uchumayo",
  "Mina Cerro Verde/Unidad Sur": "Uchumayo",
  "Mina Antamina/Unidad Yanacancha": "San Marcos",
  "Mina Antamina/Unidad Huarmey": "Huarmey",
};

/** Demo price of a city against Lima's: further from the coast's markets, dearer. */
const CITY_FACTOR: Record<string, number> = {
  Lima: 1,
  Arequipa: 1.03,
  Uchumayo: 1.08,
  "San Marcos": 1.15,
  Huarmey: 1.1,
};

const CATEGORY = {
  cereals: "Cereales y derivados",
  tubers: "Tubérculos y raíces",
  vegetables: "Verduras y hortalizas",
  fruits: "Frutas",
  legumes: "Leguminosas y derivados",
  meat: "Carnes y derivados",
  fish: "Pescados y mariscos",
  dairy: "Leche y derivados",
  eggs: "Huevos",
  fats: "Grasas, aceites y oleaginosas",
  sugars: "Azúcares y derivados",
  condiments: "Condimentos y misceláneos",
  drinks: "Bebidas e infusiones",
};
const DRY = [
  CATEGORY.cereals,
  CATEGORY.legumes,
  CATEGORY.dairy,
  CATEGORY.fats,
  CATEGORY.sugars,
  CATEGORY.condiments,
  CATEGORY.drinks,
];
const FRESH = [CATEGORY.vegetables, CATEGORY.fruits, CATEGORY.tubers];

export const DEMO_PROVIDERS = [
  {
    name: "Distribuidora Mayorista del Pacífico S.A.C.",
    ruc: "20501234568",
    contact: "Rosa Quispe",
    phone: "+51 1 326 4410",
    email: "ventas@mayoristapacifico.pe",
    cities: ["Lima", "Arequipa"],
    categories: DRY,
    includesIgv: true,
  },
  {
    name: "Agrícola Santa Rosa S.A.C.",
    ruc: "20602345671",
    contact: "Julio Mamani",
    phone: "+51 987 410 220",
    email: "pedidos@agricolasantarosa.pe",
    cities: ["Lima", "Arequipa", "Uchumayo"],
    categories: FRESH,
    includesIgv: true,
  },
  {
    name: "Comercial Misti E.I.R.L.",
    ruc: "20453456782",
    contact: "Patricia Valdivia",
    phone: "+51 54 231 870",
    email: "comercial@misti.com.pe",
    cities: ["Arequipa", "Uchumayo"],
    categories: [...DRY, CATEGORY.tubers],
    includesIgv: false,
  },
  {
    name: "Avícola del Sur S.A.",
    ruc: "20484567892",
    contact: "Óscar Chávez",
    phone: "+51 54 412 990",
    email: "despachos@avicoladelsur.pe",
    cities: ["Arequipa", "Uchumayo", "Lima"],
    categories: [CATEGORY.meat, CATEGORY.eggs],
    includesIgv: true,
  },
  {
    name: "Pesquera Huarmey S.A.C.",
    ruc: "20535678911",
    contact: "Lucía Reyes",
    phone: "+51 43 400 115",
    email: "ventas@pesquerahuarmey.pe",
    cities: ["Huarmey", "San Marcos", "Lima"],
    categories: [CATEGORY.fish],
    includesIgv: true,
  },
  {
    name: "Abarrotes Conchucos E.I.R.L.",
    ruc: "20606789123",
    contact: "Teodoro Huamán",
    phone: "+51 943 118 602",
    email: "abarrotesconchucos@gmail.com",
    cities: ["San Marcos", "Huarmey"],
    categories: [...DRY, ...FRESH],
    includesIgv: true,
  },
  {
    name: "Frigorífico Andino S.A.C.",
    ruc: "20517891232",
    contact: "Martha Salazar",
    phone: "+51 1 555 7300",
    email: "comercial@frigorificoandino.pe",
    cities: ["San Marcos", "Huarmey", "Lima"],
    categories: [CATEGORY.meat, CATEGORY.eggs, CATEGORY.dairy],
    includesIgv: false,
  },
];

export interface DemoIngredient {
  category: string;
  values: Omit<IngredientValues, "categoryId">;
  /** The demo price of the presentation, IGV included, in cents. */
  priceCents: number;
  presentation: string;
  quantity: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The ingredient table of food-ingredients.ts as values: carbohydrate by difference, energy by Atwater's factors. */
export function demoIngredients(): DemoIngredient[] {
  const list: DemoIngredient[] = [];
  let category = "";
  for (const line of DEMO_INGREDIENT_TABLE.split("\n").map((l) => l.trim())) {
    if (!line) continue;
    if (line.startsWith("#")) {
      category = line.slice(1).trim();
      continue;
    }
    const f = line.split("|");
    if (f.length !== 22) throw new Error(`food-ingredients.ts: ${f[0]} has ${f.length} fields, not 22`);
    const [unitName, unitFigure] = f[1].split(":");
    const number = (text: string) => (text === "-" || text === "" ? null : Number(text));
    const [water, protein, fat, fibre, ash] = [4, 5, 6, 7, 8].map((i) => Number(f[i]));
    const carbohydrate = round1(Math.max(0, 100 - water - protein - fat - ash));
    const kcal = Math.round(4 * protein + 9 * fat + 4 * Math.max(0, carbohydrate - fibre) + 2 * fibre);
    const nutrients = {} as Record<NutrientProperty, number | null>;
    const given = [water, protein, fat, carbohydrate, fibre, ash, ...f.slice(9, 19).map(number)];
    NUTRIENTS.forEach((n, i) => (nutrients[n.property] = given[i]));
    const [presentation, quantity] = f[21].split(":");
    list.push({
      category,
      values: {
        name: f[0],
        baseUnit: unitName as BaseUnit,
        unitWeightGrams: unitName === "unit" ? Number(unitFigure) : null,
        densityGramsPerMl: unitName === "ml" ? Number(unitFigure) : null,
        kcalPer100g: kcal,
        solidWastePercent: Number(f[2]),
        liquidWastePercent: Number(f[3]),
        allergens: f[19] ? f[19].split(",").sort() : [],
        ...nutrients,
      },
      priceCents: Math.round(Number(f[20]) * 100),
      presentation,
      quantity: Number(quantity),
    });
  }
  return list;
}

/** A stable number in [0, 1) from a text: the demo's variations are the same on every machine and every run. */
function spread(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) / 2 ** 32;
}

/** Cents rounded to the ten: how wholesale prices are quoted. */
const toTen = (cents: number) => Math.max(10, Math.round(cents / 10) * 10);

function ensureCities(db: Db): Map<string, number> {
  const ids = new Map<string, number>();
  for (const city of DEMO_CITIES) {
    const existing = findCityByName(db, city.name);
    ids.set(city.name, existing?.id ?? db.insert(cities).values(city).returning().get().id);
  }
  return ids;
}

/** Gives the demo headquarters and cafes their city, when they have none yet. */
function placeDemoPlaces(db: Db, cityIds: Map<string, number>): number {
  let placed = 0;
  for (const hq of DEMO_HEADQUARTERS) {
    const city = cityIds.get(HEADQUARTERS_CITY[hq.name]);
    if (!city) continue;
    placed += db
      .update(headquarters)
      .set({ cityId: city })
      .where(and(eq(headquarters.name, hq.name), isNull(headquarters.cityId)))
      .returning({ id: headquarters.id })
      .all().length;
  }
  for (const mine of DEMO_PLACES) {
    for (const unit of mine.units) {
      const city = cityIds.get(UNIT_CITY[`${mine.mine}/${unit.name}`]);
      if (!city) continue;
      const unitRow = db
        .select({ id: units.id })
        .from(units)
        .innerJoin(mines, eq(mines.id, units.mineId))
        .where(and(eq(mines.name, mine.mine), eq(units.name, unit.name)))
        .get();
      if (!unitRow) continue;
      placed += db
        .update(cafes)
        .set({ cityId: city })
        .where(and(eq(cafes.unitId, unitRow.id), inArray(cafes.name, unit.cafes), isNull(cafes.cityId)))
        .returning({ id: cafes.id })
        .all().length;
    }
  }
  return placed;
}

const DAY = 24 * 60 * 60 * 1000;

export const foodSeeder: Seeder = {
  name: "Cities, ingredients, providers and offers",
  async run(db) {
    const now = new Date();
    const cityIds = ensureCities(db);
    const placed = placeDemoPlaces(db, cityIds);
    const catalogue = demoIngredients();
    let createdIngredients = 0;
    const ingredientIds = new Map<string, number>();
    db.transaction(
      (tx) => {
        const categories = new Map(
          tx
            .select()
            .from(ingredientCategories)
            .all()
            .map((c) => [ingredientKey(c.name), c]),
        );
        const known = new Map(
          tx
            .select({ id: ingredients.id, name: ingredients.name })
            .from(ingredients)
            .all()
            .map((i) => [ingredientKey(i.name), i.id]),
        );
        for (const item of catalogue) {
          const key = ingredientKey(item.category);
          let category = categories.get(key);
          if (!category) {
            category = insertCategory(tx, CLI_ACTOR, { name: item.category, description: "" }, now);
            categories.set(key, category);
          }
          let id = known.get(ingredientKey(item.values.name));
          if (id === undefined) {
            id = insertIngredient(tx, CLI_ACTOR, { ...item.values, categoryId: category.id }, now, {
              demoValues: true,
            }).id;
            createdIngredients++;
          }
          ingredientIds.set(item.values.name, id);
        }
      },
      { behavior: "immediate" },
    );

    let createdProviders = 0;
    let createdOffers = 0;
    db.transaction(
      (tx) => {
        const existing = new Set(
          tx
            .select({ p: offers.providerId, i: offers.ingredientId, c: offers.cityId, n: offers.presentation })
            .from(offers)
            .all()
            .map((o) => `${o.p}/${o.i}/${o.c}/${o.n}`),
        );
        const created = new Date(now.getTime() - 60 * DAY);
        const changedAt = new Date(now.getTime() - 14 * DAY);
        const rows: (typeof offers.$inferInsert & { was: number })[] = [];
        // The first provider serving an ingredient's category in a city always carries it, so every demo recipe has
        // an offer wherever some provider serves its ingredients; the others carry most of it.
        const firstCarrier = new Map<string, string>();
        for (const spec of DEMO_PROVIDERS)
          for (const cityName of spec.cities)
            for (const category of spec.categories)
              if (!firstCarrier.has(`${cityName}/${category}`)) firstCarrier.set(`${cityName}/${category}`, spec.ruc);
        for (const spec of DEMO_PROVIDERS) {
          let provider = tx.select().from(providers).where(eq(providers.ruc, spec.ruc)).get();
          if (!provider) {
            const { cities: _cities, categories: _categories, includesIgv: _igv, ...fields } = spec;
            provider = tx
              .insert(providers)
              .values({ ...fields, createdAt: now, updatedAt: now })
              .returning()
              .get();
            createdProviders++;
          }
          for (const cityName of spec.cities) {
            const cityId = cityIds.get(cityName)!;
            for (const item of catalogue) {
              if (!spec.categories.includes(item.category)) continue;
              const key = `${spec.ruc}/${cityName}/${item.values.name}`;
              // Most of what a provider sells, not all of it, in each city it serves.
              if (firstCarrier.get(`${cityName}/${item.category}`) !== spec.ruc && spread(key) > 0.8) continue;
              const ingredientId = ingredientIds.get(item.values.name)!;
              if (existing.has(`${provider.id}/${ingredientId}/${cityId}/${item.presentation}`)) continue;
              const factor = CITY_FACTOR[cityName] * (0.9 + spread(`${key}/price`) * 0.2);
              const withIgv = toTen(item.priceCents * factor);
              const price = spec.includesIgv ? withIgv : toTen((withIgv * 100) / 118);
              // Two months ago at an earlier price for a third of the offers, changed two weeks ago.
              const was = spread(`${key}/changed`) < 0.35 ? toTen(price * (0.92 + spread(`${key}/was`) * 0.1)) : price;
              const at = was !== price ? changedAt : created;
              rows.push({
                providerId: provider.id,
                ingredientId,
                cityId,
                presentation: item.presentation,
                quantity: item.quantity,
                priceCents: price,
                priceIncludesIgv: spec.includesIgv,
                active: true,
                priceChangedAt: at,
                createdAt: created,
                updatedAt: at,
                was,
              });
            }
          }
        }
        // Many rows per statement: a statement per row is many times slower.
        for (let start = 0; start < rows.length; start += 200) {
          const chunk = rows.slice(start, start + 200);
          const ids = tx
            .insert(offers)
            .values(chunk.map(({ was: _was, ...row }) => row))
            .returning({ id: offers.id })
            .all();
          const history = chunk.flatMap((row, i) => {
            const base = {
              offerId: ids[i].id,
              priceIncludesIgv: row.priceIncludesIgv,
              quantity: row.quantity,
              changedBy: null,
              changedByName: "",
            };
            return row.was === row.priceCents
              ? [{ ...base, priceCents: row.priceCents, changedAt: created }]
              : [
                  { ...base, priceCents: row.was, changedAt: created },
                  { ...base, priceCents: row.priceCents, changedAt },
                ];
          });
          tx.insert(offerPriceHistory).values(history).run();
          createdOffers += chunk.length;
        }
      },
      { behavior: "immediate" },
    );
    const total =
      db
        .select({ n: sql<number>`count(*)` })
        .from(offers)
        .get()?.n ?? 0;
    return [
      `${cityIds.size} cities (${placed} demo places given theirs); ${createdIngredients} ingredients created of ${catalogue.length} (demo composition values); ${createdProviders} providers and ${createdOffers} offers created (${total} offers in all)`,
    ];
  },
};
