/**
 * Browser-test fixture of the menu board: the `menu-board` command of tests/support/e2e-fixtures.ts,
 * {cafe: "Comedor Principal", dish: "Lasaña 1a2b"}.
 *
 * Writes today's draft (the cafe's clock) with one lunch slot holding a new dish (with a recipe of one ingredient
 * carrying gluten, when a level exists), as the meal schedule would save it, so the test can publish it from the page.
 * Returns {cafeId, date}.
 */
import { and, asc, eq } from "drizzle-orm";
import {
  cafes,
  cafeServices,
  dishCategories,
  dishes,
  ingredientCategories,
  ingredients,
  levels,
  menuDays,
  menuSlots,
  recipeLines,
  recipes,
  services,
} from "../../db/schema";
import type { Db } from "../../src/db";
import { dateIn } from "../../src/shared/calendar";

export function menuBoardDraft(db: Db, values: { cafe: string; dish: string }): { cafeId: number; date: string } {
  const now = new Date();
  const cafe = db.select().from(cafes).where(eq(cafes.name, values.cafe)).get();
  if (!cafe) throw new Error(`No cafe "${values.cafe}"`);
  const offered = db
    .select({ id: services.id })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(and(eq(cafeServices.cafeId, cafe.id), eq(services.type, "lunch")))
    .get();
  const serviceId =
    offered?.id ??
    db
      .insert(services)
      .values({ code: `E2E-${Date.now()}`, name: "Almuerzo", type: "lunch", createdAt: now, updatedAt: now })
      .returning()
      .get().id;
  const category =
    db.select().from(dishCategories).where(eq(dishCategories.name, "Segundo")).get() ??
    db.insert(dishCategories).values({ name: "Segundo", sortOrder: 2 }).returning().get();
  const dish = db.insert(dishes).values({ name: values.dish, createdAt: now, updatedAt: now }).returning().get();
  const level = db.select().from(levels).orderBy(asc(levels.sortOrder)).get();
  if (level) {
    const ingredientCategory =
      db.select().from(ingredientCategories).get() ??
      db.insert(ingredientCategories).values({ name: "Varios" }).returning().get();
    const flour = db
      .insert(ingredients)
      .values({
        name: `Harina ${values.dish}`,
        categoryId: ingredientCategory.id,
        baseUnit: "g",
        kcalPer100g: 360,
        allergens: ["gluten"],
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    const recipe = db.insert(recipes).values({ dishId: dish.id, levelId: level.id, updatedAt: now }).returning().get();
    db.insert(recipeLines).values({ recipeId: recipe.id, position: 0, ingredientId: flour.id, quantity: 100 }).run();
  }
  const date = dateIn(cafe.timeZone, now);
  const existing = db
    .select()
    .from(menuDays)
    .where(and(eq(menuDays.cafeId, cafe.id), eq(menuDays.date, date)))
    .get();
  const day = existing
    ? db
        .update(menuDays)
        .set({ version: existing.version + 1, updatedAt: now })
        .where(eq(menuDays.id, existing.id))
        .returning()
        .get()
    : db.insert(menuDays).values({ cafeId: cafe.id, date, updatedAt: now }).returning().get();
  db.delete(menuSlots).where(eq(menuSlots.dayId, day.id)).run();
  db.insert(menuSlots)
    .values({ dayId: day.id, serviceId, dishCategoryId: category.id, position: 0, dishId: dish.id })
    .run();
  return { cafeId: cafe.id, date };
}
