/**
 * The menu board: what a cafe's published menu offers today and in the six days after it (the cafe's clock), per
 * day, per service (in the order of their windows at the cafe), per category (in the order of the service's menu
 * structure), the dishes with their kcal for the cafe's default level and their allergens: the union of the
 * allergens of every ingredient of the dish's recipe, sub-recipes included. Only published slots are read: a draft
 * never reaches the board. Words (allergens) are in the cafe's board language.
 */
import { and, asc, between, eq, inArray, isNotNull } from "drizzle-orm";
import {
  cafes,
  cafeServices,
  dishCategories,
  dishes,
  ingredients,
  levels,
  menuDays,
  menuStructureItems,
  menuStructures,
  publishedMenuSlots,
  recipeLines,
  recipes,
  services,
} from "../../../db/schema";
import type { Db } from "../../db";
import { translateDynamic, type Locale } from "../../shared/i18n";
import { reachesCafe, type Scope } from "../access/scope";
import { NotFound } from "../errors";
import { costRecipes } from "../food/recipe-cost";
import { dateIn, addDays, datesBetween } from "../../shared/calendar";
import type { Board, BoardDay, BoardDish } from "../../shared/menu/types";
export type { Board, BoardCategory, BoardDay, BoardDish, BoardService } from "../../shared/menu/types";

/** Days the board shows: today and the six after it. */
export const BOARD_DAYS = 7;

interface RecipeChoice {
  recipeId: number;
  levelId: number;
}

/** The recipe a dish is shown by: the level asked for, else the first level (sort order) it has a recipe for. */
function chooseRecipes(db: Db, dishIds: number[], levelId: number | null): Map<number, RecipeChoice> {
  const chosen = new Map<number, RecipeChoice>();
  if (dishIds.length === 0) return chosen;
  const rows = db
    .select({ recipeId: recipes.id, dishId: recipes.dishId, levelId: recipes.levelId })
    .from(recipes)
    .innerJoin(levels, eq(levels.id, recipes.levelId))
    .where(inArray(recipes.dishId, dishIds))
    .orderBy(asc(levels.sortOrder), asc(levels.id))
    .all();
  for (const row of rows) {
    const current = chosen.get(row.dishId);
    if (!current || (row.levelId === levelId && current.levelId !== levelId))
      chosen.set(row.dishId, { recipeId: row.recipeId, levelId: row.levelId });
  }
  return chosen;
}

/**
 * The allergens of each dish: those of its recipe's ingredients and, through sub-recipe lines, of the sub-dishes'
 * recipes (the same level, else their first), however deep; a cycle is walked once.
 */
function allergensOf(db: Db, dishIds: number[], levelId: number | null): Map<number, Set<string>> {
  const direct = new Map<number, Set<string>>();
  const subDishes = new Map<number, Set<number>>();
  let pending = [...new Set(dishIds)];
  const seen = new Set<number>();
  while (pending.length) {
    pending.forEach((id) => seen.add(id));
    const chosen = chooseRecipes(db, pending, levelId);
    const recipeToDish = new Map([...chosen].map(([dishId, c]) => [c.recipeId, dishId]));
    const lines = recipeToDish.size
      ? db
          .select({
            recipeId: recipeLines.recipeId,
            subDishId: recipeLines.subDishId,
            allergens: ingredients.allergens,
          })
          .from(recipeLines)
          .leftJoin(ingredients, eq(ingredients.id, recipeLines.ingredientId))
          .where(inArray(recipeLines.recipeId, [...recipeToDish.keys()]))
          .all()
      : [];
    const next = new Set<number>();
    for (const id of pending) {
      direct.set(id, new Set());
      subDishes.set(id, new Set());
    }
    for (const line of lines) {
      const dishId = recipeToDish.get(line.recipeId)!;
      for (const code of (line.allergens as string[] | null) ?? []) direct.get(dishId)!.add(code);
      if (line.subDishId !== null) {
        subDishes.get(dishId)!.add(line.subDishId);
        if (!seen.has(line.subDishId)) next.add(line.subDishId);
      }
    }
    pending = [...next];
  }
  const result = new Map<number, Set<string>>();
  const collect = (dishId: number, into: Set<string>, walked: Set<number>) => {
    if (walked.has(dishId)) return;
    walked.add(dishId);
    for (const code of direct.get(dishId) ?? []) into.add(code);
    for (const sub of subDishes.get(dishId) ?? []) collect(sub, into, walked);
  };
  for (const dishId of dishIds) {
    const all = new Set<string>();
    collect(dishId, all, new Set());
    result.set(dishId, all);
  }
  return result;
}

/** The days from `from`, `count` of them. */
function daysFrom(from: string, count: number): string[] {
  return datesBetween(from, addDays(from, count - 1));
}

/** The cafe's board (see the file's comment); NotFound for an unknown cafe, or one `scope` does not reach. */
export function menuBoard(
  db: Db,
  cafeId: number,
  { scope, now = new Date() }: { scope?: Scope; now?: Date } = {},
): Board {
  const cafe = db.select().from(cafes).where(eq(cafes.id, cafeId)).get();
  if (!cafe || (scope && !reachesCafe(scope, cafe.id))) throw new NotFound();
  const language: Locale = cafe.boardLanguage === "en" ? "en" : "es";
  const today = dateIn(cafe.timeZone, now);
  const dates = daysFrom(today, BOARD_DAYS);
  const days = db
    .select({ id: menuDays.id, date: menuDays.date, publishedAt: menuDays.publishedAt })
    .from(menuDays)
    .where(
      and(
        eq(menuDays.cafeId, cafe.id),
        between(menuDays.date, dates[0], dates[dates.length - 1]),
        isNotNull(menuDays.publishedAt),
      ),
    )
    .all();
  const slots = days.length
    ? db
        .select({
          dayId: publishedMenuSlots.dayId,
          serviceId: publishedMenuSlots.serviceId,
          serviceName: services.name,
          categoryId: publishedMenuSlots.dishCategoryId,
          categoryName: dishCategories.name,
          categoryOrder: dishCategories.sortOrder,
          position: publishedMenuSlots.position,
          dishId: dishes.id,
          dishName: dishes.name,
        })
        .from(publishedMenuSlots)
        .innerJoin(services, eq(services.id, publishedMenuSlots.serviceId))
        .innerJoin(dishCategories, eq(dishCategories.id, publishedMenuSlots.dishCategoryId))
        .innerJoin(dishes, eq(dishes.id, publishedMenuSlots.dishId))
        .where(
          inArray(
            publishedMenuSlots.dayId,
            days.map((d) => d.id),
          ),
        )
        .all()
    : [];
  // Services in the order of their windows at the cafe (those without a window last), then by name.
  const windows = new Map(
    db
      .select({ serviceId: cafeServices.serviceId, start: cafeServices.windowStart })
      .from(cafeServices)
      .where(eq(cafeServices.cafeId, cafe.id))
      .all()
      .map((w) => [w.serviceId, w.start]),
  );
  // Categories in the order of the service's structure, then the menu table's order.
  const structureOrder = new Map(
    db
      .select({
        serviceId: menuStructures.serviceId,
        categoryId: menuStructureItems.dishCategoryId,
        position: menuStructureItems.position,
      })
      .from(menuStructureItems)
      .innerJoin(menuStructures, eq(menuStructures.id, menuStructureItems.structureId))
      .where(eq(menuStructures.cafeId, cafe.id))
      .all()
      .map((r) => [`${r.serviceId}:${r.categoryId}`, r.position]),
  );

  const dishIds = [...new Set(slots.map((s) => s.dishId))];
  const chosen = chooseRecipes(db, dishIds, cafe.defaultLevelId);
  const costed = chosen.size
    ? costRecipes(
        db,
        [...chosen.values()].map((c) => c.recipeId),
        { cityId: cafe.cityId ?? 0 },
      )
    : new Map();
  const allergens = allergensOf(db, dishIds, cafe.defaultLevelId);
  const dishOf = new Map<number, BoardDish>();
  for (const slot of slots) {
    if (dishOf.has(slot.dishId)) continue;
    const choice = chosen.get(slot.dishId);
    const kcal = choice ? costed.get(choice.recipeId)?.totals.kcal : undefined;
    dishOf.set(slot.dishId, {
      id: slot.dishId,
      name: slot.dishName,
      kcal: typeof kcal === "number" && Number.isFinite(kcal) ? Math.round(kcal) : null,
      allergens: [...(allergens.get(slot.dishId) ?? [])]
        .sort()
        // The codes are read from the ingredients' stored lists: one Mesa no longer knows shows as written.
        .map((code) => ({ code, label: translateDynamic(language, `food.allergens.${code}`, code) })),
    });
  }

  const boardDays: BoardDay[] = dates.map((date) => {
    const day = days.find((d) => d.date === date);
    const daySlots = day ? slots.filter((s) => s.dayId === day.id) : [];
    const serviceIds = [...new Set(daySlots.map((s) => s.serviceId))].sort((a, b) => {
      const wa = windows.get(a) ?? null;
      const wb = windows.get(b) ?? null;
      if (wa !== wb) return wa === null ? 1 : wb === null ? -1 : wa - wb;
      const na = daySlots.find((s) => s.serviceId === a)!.serviceName;
      const nb = daySlots.find((s) => s.serviceId === b)!.serviceName;
      return na.localeCompare(nb) || a - b;
    });
    return {
      date,
      services: serviceIds.map((serviceId) => {
        const ofService = daySlots.filter((s) => s.serviceId === serviceId);
        const order = (s: (typeof ofService)[number]) =>
          structureOrder.get(`${serviceId}:${s.categoryId}`) ?? Number.MAX_SAFE_INTEGER;
        const categoryIds = [...new Set(ofService.map((s) => s.categoryId))];
        const first = (id: number) => ofService.find((s) => s.categoryId === id)!;
        categoryIds.sort(
          (a, b) =>
            order(first(a)) - order(first(b)) ||
            first(a).categoryOrder - first(b).categoryOrder ||
            first(a).categoryName.localeCompare(first(b).categoryName),
        );
        return {
          id: serviceId,
          name: ofService[0].serviceName,
          categories: categoryIds.map((categoryId) => ({
            id: categoryId,
            name: first(categoryId).categoryName,
            dishes: ofService
              .filter((s) => s.categoryId === categoryId)
              .sort((a, b) => a.position - b.position)
              .map((s) => dishOf.get(s.dishId)!),
          })),
        };
      }),
    };
  });
  const published = days.map((d) => d.publishedAt!.getTime());
  return {
    cafe: { id: cafe.id, name: cafe.name, timeZone: cafe.timeZone },
    language,
    today,
    days: boardDays,
    publishedAt: published.length ? new Date(Math.max(...published)).toISOString() : null,
  };
}
