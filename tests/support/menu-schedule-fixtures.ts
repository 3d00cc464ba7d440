/**
 * Browser-test fixtures of the meal schedule: commands of tests/support/e2e-fixtures.ts.
 *
 *   `menu-schedule-setup` {cafe: "Comedor Principal", run: "1a2b"} (menuScheduleWorld)
 *     A dish category "Fondo 1a2b" added to the cafe's lunch structure (S/ 1.00 – 4.00; the structure is made when the
 *     cafe has none), two dishes of it with a recipe of the first level priced in the cafe's city (a city is given to
 *     a cafe without one): "Seco 1a2b" (250 g at 1 cent a gram = S/ 2.50) and "Ají 1a2b" (300 g = S/ 3.00).
 *     Returns {cafeId, serviceId, categoryId, category, dishes: {seco, aji}}.
 *
 *   `menu-schedule-save` {cafeId, date, service, category, dish, as: "Name"} (menuScheduleSave)
 *     Saves the day as someone else would, through saveDay at the day's current version, without announcing it (no
 *     realtime event): a page showing the day is left stale. Returns {version}.
 */
import { and, asc, eq, max } from "drizzle-orm";
import {
  cafes,
  cafeServices,
  cities,
  dishCategories,
  dishCategoryLinks,
  dishes,
  ingredientCategories,
  ingredients,
  levels,
  menuDays,
  menuStructureItems,
  menuStructures,
  offers,
  providers,
  recipeLines,
  recipes,
  services,
} from "../../db/schema";
import type { Db } from "../../src/db";
import { EVERYTHING } from "../../src/domain/access/scope";
import { saveDay } from "../../src/domain/menu/schedule";

function fail(message: string): never {
  throw new Error(message);
}

export function menuScheduleWorld(db: Db, values: { cafe: string; run: string }) {
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
  const lunch =
    db
      .select({ id: services.id })
      .from(cafeServices)
      .innerJoin(services, eq(services.id, cafeServices.serviceId))
      .where(and(eq(cafeServices.cafeId, cafe.id), eq(services.type, "lunch")))
      .get() ?? fail(`${values.cafe} offers no lunch`);
  const level =
    (cafe.defaultLevelId !== null ? db.select().from(levels).where(eq(levels.id, cafe.defaultLevelId)).get() : null) ??
    db.select().from(levels).orderBy(asc(levels.sortOrder), asc(levels.id)).get() ??
    fail("No levels");
  const category = db
    .insert(dishCategories)
    .values({ name: `Fondo ${run}`, sortOrder: 99 })
    .returning()
    .get();
  const structure =
    db
      .select()
      .from(menuStructures)
      .where(and(eq(menuStructures.cafeId, cafe.id), eq(menuStructures.serviceId, lunch.id)))
      .get() ??
    db.insert(menuStructures).values({ cafeId: cafe.id, serviceId: lunch.id, updatedAt: now }).returning().get();
  const last =
    db
      .select({ position: max(menuStructureItems.position) })
      .from(menuStructureItems)
      .where(eq(menuStructureItems.structureId, structure.id))
      .get()?.position ?? -1;
  db.insert(menuStructureItems)
    .values({
      structureId: structure.id,
      position: last + 1,
      dishCategoryId: category.id,
      servingAmount: 250,
      minCostCents: 100,
      maxCostCents: 400,
    })
    .run();
  const group =
    db.select().from(ingredientCategories).orderBy(asc(ingredientCategories.id)).get() ??
    db.insert(ingredientCategories).values({ name: "Varios" }).returning().get();
  const beef = db
    .insert(ingredients)
    .values({
      name: `Res ${run}`,
      categoryId: group.id,
      baseUnit: "g",
      kcalPer100g: 250,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  const provider = db
    .insert(providers)
    .values({ name: `Carnes ${run}`, ruc: `20${String(Date.now()).slice(-9)}`, createdAt: now, updatedAt: now })
    .returning()
    .get();
  db.insert(offers)
    .values({
      providerId: provider.id,
      ingredientId: beef.id,
      cityId,
      presentation: "1 kg",
      quantity: 1000,
      priceCents: 1000,
      priceIncludesIgv: false,
      priceChangedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const dish = (name: string, grams: number) => {
    const id = db.insert(dishes).values({ name, createdAt: now, updatedAt: now }).returning().get().id;
    db.insert(dishCategoryLinks).values({ dishId: id, categoryId: category.id }).run();
    const recipe = db.insert(recipes).values({ dishId: id, levelId: level.id, updatedAt: now }).returning().get().id;
    db.insert(recipeLines).values({ recipeId: recipe, position: 0, ingredientId: beef.id, quantity: grams }).run();
    return id;
  };
  const result = {
    cafeId: cafe.id,
    serviceId: lunch.id,
    categoryId: category.id,
    category: category.name,
    dishes: { seco: dish(`Seco ${run}`, 250), aji: dish(`Ají ${run}`, 300) },
  };
  return result;
}

export function menuScheduleSave(
  db: Db,
  values: { cafeId: number; date: string; service: number; category: number; dish: number; as: string },
): { version: number } {
  const { cafeId, date } = values;
  const day = db
    .select()
    .from(menuDays)
    .where(and(eq(menuDays.cafeId, cafeId), eq(menuDays.date, date)))
    .get();
  const saved = saveDay(db, { userId: null, label: values.as }, EVERYTHING, cafeId, date, {
    version: day?.version ?? 0,
    slots: [{ service_id: values.service, category_id: values.category, dish_ids: [values.dish] }],
  });
  return { version: saved.version };
}
