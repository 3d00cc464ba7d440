/**
 * Demo data: a menu structure for the lunch (ALM) and breakfast (DES) of every demo cafe that offers them, built from
 * the demo dish categories of the menu table (Entrada, Sopa, Segundo, Guarnición, Postre, Refresco; db/seeds/dishes.ts)
 * looked up by name. A category that is missing is left out, and a structure with none of its categories is not made;
 * a cafe that already has a structure for the service keeps it. Written without audit, as seeds are.
 */
import { and, eq, inArray } from "drizzle-orm";
import {
  cafes,
  cafeServices,
  dishCategories,
  menuStructureItems,
  menuStructures,
  mines,
  services,
  units,
} from "../../db/schema";
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
  name: "Demo menu structures",
  async run(db) {
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
    return [`${made} menu structures (lunch and breakfast of the demo cafes)`];
  },
};
