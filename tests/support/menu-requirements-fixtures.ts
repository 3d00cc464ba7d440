/**
 * Browser-test fixtures of the Compras page, on the e2e database (DB_PATH):
 *
 *   node_modules/.bin/bun tests/support/menu-requirements-fixtures.ts setup --cafe "Comedor Principal" --run 1a2b \
 *     --date 2031-04-07
 *
 * A provider "Proveedor 1a2b" with one offer in the cafe's city (a city is given to a cafe without one) of an
 * ingredient "Papa 1a2b" (Saco 10 kg, S/ 20.00 without IGV), a dish "Papa sancochada 1a2b" whose recipe at every level
 * takes 250 g of it, published at the cafe's first meal service on `--date`, with 30 servings set for that day.
 * 30 × 250 g = 7,500 g → 1 sack, S/ 20.00. Prints {"cafeId","serviceId","service","dish","provider","ingredient"}.
 */
import { and, asc, eq } from "drizzle-orm";
import { parseArgs } from "node:util";
import {
  cafes,
  cafeServices,
  cities,
  dishCategories,
  dishes,
  ingredientCategories,
  ingredients,
  levels,
  menuDays,
  menuExpectedServings,
  offers,
  providers,
  publishedMenuSlots,
  recipeLines,
  recipes,
  services,
} from "../../db/schema";
import { loadConfig } from "../../src/config";
import { migrateDatabase, openDatabase } from "../../src/db";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { cafe: { type: "string" }, run: { type: "string" }, date: { type: "string" } },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (positionals[0] !== "setup" || !values.cafe || !values.run || !values.date)
  fail("Usage: menu-requirements-fixtures.ts setup --cafe NAME --run RUN --date YYYY-MM-DD");
const db = openDatabase(loadConfig().dbPath);
migrateDatabase(db);
const now = new Date();
const run = values.run!;
const cafe = db.select().from(cafes).where(eq(cafes.name, values.cafe!)).get() ?? fail(`No cafe "${values.cafe}"`);
let cityId = cafe.cityId;
if (cityId === null) {
  cityId = (
    db.select().from(cities).orderBy(asc(cities.id)).get() ??
    db.insert(cities).values({ name: "Lima" }).returning().get()
  ).id;
  db.update(cafes).set({ cityId }).where(eq(cafes.id, cafe.id)).run();
}
const service =
  db
    .select({ id: services.id, name: services.name })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(and(eq(cafeServices.cafeId, cafe.id), eq(services.active, true)))
    .orderBy(asc(services.id))
    .all()
    .find(() => true) ?? fail("The cafe has no active service");
const category = db
  .insert(ingredientCategories)
  .values({ name: `Tubérculos ${run}` })
  .returning()
  .get().id;
const ingredient = db
  .insert(ingredients)
  .values({ name: `Papa ${run}`, categoryId: category, baseUnit: "g", kcalPer100g: 80, createdAt: now, updatedAt: now })
  .returning()
  .get();
const provider = db
  .insert(providers)
  .values({ name: `Proveedor ${run}`, ruc: `20${String(Date.now()).slice(-9)}`, createdAt: now, updatedAt: now })
  .returning()
  .get();
db.insert(offers)
  .values({
    providerId: provider.id,
    ingredientId: ingredient.id,
    cityId,
    presentation: "Saco 10 kg",
    quantity: 10_000,
    priceCents: 2000,
    priceIncludesIgv: false,
    priceChangedAt: now,
    createdAt: now,
    updatedAt: now,
  })
  .run();
const dish = db
  .insert(dishes)
  .values({ name: `Papa sancochada ${run}`, createdAt: now, updatedAt: now })
  .returning()
  .get();
for (const level of db.select().from(levels).all()) {
  const recipe = db.insert(recipes).values({ dishId: dish.id, levelId: level.id, updatedAt: now }).returning().get();
  db.insert(recipeLines).values({ recipeId: recipe.id, position: 0, ingredientId: ingredient.id, quantity: 250 }).run();
}
const dishCategory = db
  .insert(dishCategories)
  .values({ name: `Guarnición ${run}`, sortOrder: 99 })
  .returning()
  .get().id;
const day = db
  .insert(menuDays)
  .values({ cafeId: cafe.id, date: values.date!, updatedAt: now, publishedVersion: 1, publishedAt: now })
  .returning()
  .get().id;
db.insert(publishedMenuSlots)
  .values({ dayId: day, serviceId: service.id, dishCategoryId: dishCategory, dishId: dish.id })
  .run();
db.insert(menuExpectedServings)
  .values({ cafeId: cafe.id, date: values.date!, serviceId: service.id, servings: 30 })
  .run();
console.log(
  JSON.stringify({
    cafeId: cafe.id,
    serviceId: service.id,
    service: service.name,
    dish: dish.name,
    provider: provider.name,
    ingredient: ingredient.name,
  }),
);
