/**
 * A meal-schedule world for tests, written straight to the database on top of the point-of-sale world
 * (tests/support/pos.ts: Comedor Norte and Comedor Sur, services DES, ALM, CEN): Norte is in Lima, Sur in no city
 * yet; Norte's lunch (ALM) has a structure of Entrada (S/ 0.30 – 1.00) and Segundo (S/ 2.00 – 4.00), Sur's lunch one
 * of Segundo alone. Prices are net of IGV so the arithmetic is plain:
 *
 * - Arroz: 1 kg for S/ 4.00 → 0.4 cents a gram, 360 kcal per 100 g. Pollo: 1 kg for S/ 10.00 → 1 cent a gram,
 *   200 kcal per 100 g. Lechuga: no offer in Lima. No waste anywhere.
 * - Arroz con pollo (Segundo), Master: 150 g arroz + 200 g pollo = 60 + 200 = 260 cents, 540 + 400 = 940 kcal.
 * - Pollo a la brasa (Segundo), Master: 450 g pollo = 450 cents (above S/ 4.00), 900 kcal.
 * - Causa (Entrada), Master: 100 g arroz = 40 cents, 360 kcal. Ensalada (Entrada): 100 g lechuga, unpriced.
 * - Chicha (Entrada): no recipe. Sopa vieja (Entrada): inactive.
 */
import { eq } from "drizzle-orm";
import {
  cafes,
  cities,
  dishCategories,
  dishCategoryLinks,
  dishes,
  ingredientCategories,
  ingredients,
  levels,
  menuStructureItems,
  menuStructures,
  offers,
  providers,
  recipeLines,
  recipes,
} from "../../db/schema";
import type { Db } from "../../src/db";
import type { PosWorld } from "./pos";

const NOW = new Date("2026-11-02T12:00:00Z");

export interface ScheduleWorld {
  lima: number;
  master: number;
  entrada: number;
  segundo: number;
  refresco: number;
  arrozConPollo: number;
  polloBrasa: number;
  causa: number;
  ensalada: number;
  chicha: number;
  sopaVieja: number;
}

export function scheduleWorld(db: Db, w: PosWorld): ScheduleWorld {
  const lima = db.insert(cities).values({ name: "Lima" }).returning().get().id;
  db.update(cafes).set({ cityId: lima }).where(eq(cafes.id, w.norte)).run();
  const master = db.select().from(levels).where(eq(levels.name, "Master")).get()!.id;
  const category = (name: string, unit: "g" | "ml", sortOrder: number) =>
    db.insert(dishCategories).values({ name, unit, sortOrder }).returning().get().id;
  const entrada = category("Entrada", "g", 1);
  const segundo = category("Segundo", "g", 2);
  const refresco = category("Refresco", "ml", 3);

  const group = db.insert(ingredientCategories).values({ name: "Abarrotes" }).returning().get().id;
  const ingredient = (name: string, kcal: number) =>
    db
      .insert(ingredients)
      .values({ name, categoryId: group, baseUnit: "g", kcalPer100g: kcal, createdAt: NOW, updatedAt: NOW })
      .returning()
      .get().id;
  const arroz = ingredient("Arroz", 360);
  const pollo = ingredient("Pollo", 200);
  const lechuga = ingredient("Lechuga", 15);
  const provider = db
    .insert(providers)
    .values({ name: "Distribuidora Lima", ruc: "20100070970", createdAt: NOW, updatedAt: NOW })
    .returning()
    .get().id;
  const offer = (ingredientId: number, priceCents: number) =>
    db
      .insert(offers)
      .values({
        providerId: provider,
        ingredientId,
        cityId: lima,
        presentation: "1 kg",
        quantity: 1000,
        priceCents,
        priceIncludesIgv: false,
        priceChangedAt: NOW,
        createdAt: NOW,
        updatedAt: NOW,
      })
      .run();
  offer(arroz, 400);
  offer(pollo, 1000);

  const dish = (name: string, categoryIds: number[], lines: [number, number][] | null, active = true) => {
    const id = db.insert(dishes).values({ name, active, createdAt: NOW, updatedAt: NOW }).returning().get().id;
    for (const categoryId of categoryIds) db.insert(dishCategoryLinks).values({ dishId: id, categoryId }).run();
    if (lines) {
      const recipe = db.insert(recipes).values({ dishId: id, levelId: master, updatedAt: NOW }).returning().get().id;
      lines.forEach(([ingredientId, quantity], position) =>
        db.insert(recipeLines).values({ recipeId: recipe, position, ingredientId, quantity }).run(),
      );
    }
    return id;
  };
  const world: ScheduleWorld = {
    lima,
    master,
    entrada,
    segundo,
    refresco,
    arrozConPollo: dish(
      "Arroz con pollo",
      [segundo],
      [
        [arroz, 150],
        [pollo, 200],
      ],
    ),
    polloBrasa: dish("Pollo a la brasa", [segundo], [[pollo, 450]]),
    causa: dish("Causa", [entrada], [[arroz, 100]]),
    ensalada: dish("Ensalada", [entrada], [[lechuga, 100]]),
    chicha: dish("Chicha", [entrada], null),
    sopaVieja: dish("Sopa vieja", [entrada], [[arroz, 50]], false),
  };

  const structure = (cafeId: number, serviceId: number, items: [number, number, number][]) => {
    const id = db.insert(menuStructures).values({ cafeId, serviceId, updatedAt: NOW }).returning().get().id;
    items.forEach(([dishCategoryId, minCostCents, maxCostCents], position) =>
      db
        .insert(menuStructureItems)
        .values({ structureId: id, position, dishCategoryId, servingAmount: 200, minCostCents, maxCostCents })
        .run(),
    );
  };
  structure(w.norte, w.alm, [
    [entrada, 30, 100],
    [segundo, 200, 400],
  ]);
  structure(w.sur, w.alm, [[segundo, 200, 400]]);
  return world;
}
