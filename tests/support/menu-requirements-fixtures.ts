/**
 * Browser-test fixture of the Compras page: the `menu-requirements` command of tests/support/e2e-fixtures.ts,
 * {cafe: "Comedor Principal", run: "1a2b", date: "2031-04-07"}.
 *
 * A provider "Proveedor 1a2b" with one offer in the cafe's city (a city is given to a cafe without one) of an
 * ingredient "Papa 1a2b" (Saco 10 kg, S/ 20.00 without IGV), a dish "Papa sancochada 1a2b" whose recipe at every level
 * takes 250 g of it, published at the cafe's first meal service on `--date`, with 30 servings set for that day.
 * 30 × 250 g = 7,500 g → 1 sack, S/ 20.00. Returns {cafeId, serviceId, service, dish, provider, ingredient}.
 */
import { and, asc, eq } from "drizzle-orm";
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
import type { Db } from "../../src/db";

function fail(message: string): never {
  throw new Error(message);
}

export function menuRequirementsWorld(db: Db, values: { cafe: string; run: string; date: string }) {
  const now = new Date();
  const run = values.run;
  const cafe = db.select().from(cafes).where(eq(cafes.name, values.cafe)).get() ?? fail(`No cafe "${values.cafe}"`);
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
    .values({
      name: `Papa ${run}`,
      categoryId: category,
      baseUnit: "g",
      kcalPer100g: 80,
      createdAt: now,
      updatedAt: now,
    })
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
    db.insert(recipeLines)
      .values({ recipeId: recipe.id, position: 0, ingredientId: ingredient.id, quantity: 250 })
      .run();
  }
  const dishCategory = db
    .insert(dishCategories)
    .values({ name: `Guarnición ${run}`, sortOrder: 99 })
    .returning()
    .get().id;
  const day = db
    .insert(menuDays)
    .values({ cafeId: cafe.id, date: values.date, updatedAt: now, publishedVersion: 1, publishedAt: now })
    .returning()
    .get().id;
  db.insert(publishedMenuSlots)
    .values({ dayId: day, serviceId: service.id, dishCategoryId: dishCategory, dishId: dish.id })
    .run();
  db.insert(menuExpectedServings)
    .values({ cafeId: cafe.id, date: values.date, serviceId: service.id, servings: 30 })
    .run();
  return {
    cafeId: cafe.id,
    serviceId: service.id,
    service: service.name,
    dish: dish.name,
    provider: provider.name,
    ingredient: ingredient.name,
  };
}
