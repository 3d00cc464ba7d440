/**
 * Demo data: a menu structure for the lunch (ALM) and breakfast (DES) of every demo cafe that offers them, built from
 * the demo dish categories of the menu table (Entrada, Sopa, Segundo, Guarnición, Postre, Refresco; db/seeds/dishes.ts)
 * looked up by name. A category that is missing is left out, and a structure with none of its categories is not made;
 * a cafe that already has a structure for the service keeps it. Written without audit, as seeds are.
 *
 * Then a published week: from the cafe's today, each day's lunch and breakfast slots get a demo dish of their
 * category (a different one each day), saved and published through the meal schedule and publishing themselves
 * (so audited as the command line's), so the board, the schedule and what to buy have something to show. A day that
 * already has a schedule is left as it is.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import {
  cafes,
  cafeServices,
  dishCategories,
  dishCategoryLinks,
  dishes,
  menuDays,
  menuStructureItems,
  menuStructures,
  mines,
  services,
  units,
} from "../../db/schema";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { publishRange } from "../../src/domain/menu/publish";
import { addDays, saveDay } from "../../src/domain/menu/schedule";
import { dateIn } from "../../src/shared/calendar";
import type { Db } from "../../src/db";
import type { Seeder } from "./index";
import { DEMO_PLACES } from "./places";

interface SeedItem {
  category: string;
  serving: number;
  share: number;
  /** Soles, as a nutritionist would type them. */
  min: number;
  max: number;
}

/** Lunch at S/ 18.00 (S/ 15.25 without IGV): the highest costs add up to S/ 10.20, 67 % of it. */
const LUNCH: SeedItem[] = [
  { category: "Entrada", serving: 120, share: 15, min: 0.6, max: 1.2 },
  { category: "Sopa", serving: 250, share: 25, min: 0.8, max: 1.6 },
  { category: "Segundo", serving: 250, share: 35, min: 2.8, max: 5.2 },
  { category: "Guarnición", serving: 100, share: 10, min: 0.3, max: 0.8 },
  { category: "Postre", serving: 80, share: 10, min: 0.4, max: 0.9 },
  { category: "Refresco", serving: 250, share: 5, min: 0.2, max: 0.5 },
];

/** Breakfast at S/ 12.50 (S/ 10.59 without IGV): the highest costs add up to S/ 5.50, 52 % of it. */
const BREAKFAST: SeedItem[] = [
  { category: "Refresco", serving: 250, share: 40, min: 0.3, max: 0.9 },
  { category: "Segundo", serving: 180, share: 45, min: 1.6, max: 3.6 },
  { category: "Postre", serving: 80, share: 15, min: 0.4, max: 1.0 },
];

const PLANS: { code: string; items: SeedItem[] }[] = [
  { code: "ALM", items: LUNCH },
  { code: "DES", items: BREAKFAST },
];

const cents = (soles: number) => Math.round(soles * 100);

export const menusSeeder: Seeder = {
  name: "Demo menu structures and a published week",
  async run(db, config) {
    const names = [...new Set(PLANS.flatMap((p) => p.items.map((i) => i.category)))];
    const categoryIds = new Map(
      db
        .select({ id: dishCategories.id, name: dishCategories.name })
        .from(dishCategories)
        .where(inArray(dishCategories.name, names))
        .all()
        .map((c) => [c.name, c.id]),
    );
    if (categoryIds.size === 0) return ["no demo dish categories yet: no menu structures"];
    const serviceIds = new Map(
      db
        .select({ id: services.id, code: services.code })
        .from(services)
        .where(
          inArray(
            services.code,
            PLANS.map((p) => p.code),
          ),
        )
        .all()
        .map((s) => [s.code, s.id]),
    );
    let made = 0;
    const now = new Date();
    db.transaction((tx) => {
      for (const mine of DEMO_PLACES)
        for (const unit of mine.units)
          for (const cafeName of unit.cafes) {
            const cafe = tx
              .select({ id: cafes.id })
              .from(cafes)
              .innerJoin(units, eq(units.id, cafes.unitId))
              .innerJoin(mines, eq(mines.id, units.mineId))
              .where(and(eq(mines.name, mine.mine), eq(units.name, unit.name), eq(cafes.name, cafeName)))
              .get();
            if (!cafe) continue;
            for (const plan of PLANS) {
              const serviceId = serviceIds.get(plan.code);
              if (serviceId === undefined) continue;
              const offered = tx
                .select({ serviceId: cafeServices.serviceId })
                .from(cafeServices)
                .where(and(eq(cafeServices.cafeId, cafe.id), eq(cafeServices.serviceId, serviceId)))
                .get();
              const existing = tx
                .select({ id: menuStructures.id })
                .from(menuStructures)
                .where(and(eq(menuStructures.cafeId, cafe.id), eq(menuStructures.serviceId, serviceId)))
                .get();
              const items = plan.items.filter((i) => categoryIds.has(i.category));
              if (!offered || existing || items.length === 0) continue;
              const structure = tx
                .insert(menuStructures)
                .values({ cafeId: cafe.id, serviceId, updatedAt: now })
                .returning({ id: menuStructures.id })
                .get();
              tx.insert(menuStructureItems)
                .values(
                  items.map((i, position) => ({
                    structureId: structure.id,
                    position,
                    dishCategoryId: categoryIds.get(i.category)!,
                    servingAmount: i.serving,
                    sharePercent: i.share,
                    minCostCents: cents(i.min),
                    maxCostCents: cents(i.max),
                  })),
                )
                .run();
              made++;
            }
          }
    });
    const week = publishDemoWeek(db, config.igvRateBasisPoints);
    return [
      `${made} menu structures (lunch and breakfast of the demo cafes)`,
      `${week.days} menu days planned and published from today at ${week.cafes} cafes`,
    ];
  },
};

/** The days of the demo week: today and the six after it, in each cafe's time zone. */
const DEMO_WEEK_DAYS = 7;

function publishDemoWeek(db: Db, igvRate: number): { days: number; cafes: number } {
  // Each category's active dishes, in name order: a day takes the next one.
  const byCategory = new Map<number, number[]>();
  for (const row of db
    .select({ categoryId: dishCategoryLinks.categoryId, dishId: dishes.id })
    .from(dishCategoryLinks)
    .innerJoin(dishes, eq(dishes.id, dishCategoryLinks.dishId))
    .where(eq(dishes.active, true))
    .orderBy(asc(dishes.name))
    .all())
    byCategory.set(row.categoryId, [...(byCategory.get(row.categoryId) ?? []), row.dishId]);
  const planned = db
    .select({
      cafeId: menuStructures.cafeId,
      serviceId: menuStructures.serviceId,
      categoryId: menuStructureItems.dishCategoryId,
    })
    .from(menuStructures)
    .innerJoin(menuStructureItems, eq(menuStructureItems.structureId, menuStructures.id))
    .orderBy(asc(menuStructures.cafeId), asc(menuStructureItems.position))
    .all();
  const cafeIds = [...new Set(planned.map((p) => p.cafeId))];
  let days = 0;
  let cafesDone = 0;
  for (const cafeId of cafeIds) {
    const cafe = db.select({ timeZone: cafes.timeZone }).from(cafes).where(eq(cafes.id, cafeId)).get()!;
    const from = dateIn(cafe.timeZone);
    // Only the days planned here are published: a person's drafts in the week stay drafts.
    let plannedHere = 0;
    for (let day = 0; day < DEMO_WEEK_DAYS; day++) {
      const date = addDays(from, day);
      if (
        db
          .select({ id: menuDays.id })
          .from(menuDays)
          .where(and(eq(menuDays.cafeId, cafeId), eq(menuDays.date, date)))
          .get()
      )
        continue;
      const slots = planned
        .filter((p) => p.cafeId === cafeId)
        .map((p) => {
          const choices = byCategory.get(p.categoryId) ?? [];
          // Lunch and breakfast share categories (a drink, a main course): they take different dishes of them.
          const dish = choices[(day * 2 + p.serviceId + cafeId) % Math.max(choices.length, 1)];
          return { service_id: p.serviceId, category_id: p.categoryId, dish_ids: dish === undefined ? [] : [dish] };
        })
        .filter((slot) => slot.dish_ids.length > 0);
      if (slots.length === 0) continue;
      saveDay(db, CLI_ACTOR, EVERYTHING, cafeId, date, { version: 0, slots }, { igvRate });
      publishRange(db, CLI_ACTOR, cafeId, date, date, { scope: EVERYTHING });
      plannedHere++;
    }
    if (plannedHere === 0) continue;
    days += plannedHere;
    cafesDone++;
  }
  return { days, cafes: cafesDone };
}
