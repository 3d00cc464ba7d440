/**
 * A small world for what-to-buy tests, on top of the point-of-sale world (tests/support/pos.ts): Comedor Norte in
 * Lima with Staff as its default level, ingredients, two providers with offers in Lima (and salt only in Arequipa),
 * dishes with recipes (one using a sub-recipe, one only at Master, one with none), a published Monday and Tuesday,
 * a draft Wednesday never published, two stored servings, and the sales the four-week averages come from.
 *
 * The numbers worked by hand (IGV 18 %) are in src/domain/menu/requirements.test.ts.
 */
import {
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
  menuSlots,
  recipeLines,
  recipes,
  cafes,
  saleLines,
  sales,
} from "../../db/schema";
import { eq } from "drizzle-orm";
import type { Db } from "../../src/db";
import { posWorld, type PosWorld } from "./pos";

const NOW = new Date("2026-11-20T12:00:00Z");

export interface RequirementsWorld extends PosWorld {
  lima: number;
  arequipa: number;
  staff: number;
  master: number;
  andina: number;
  mercado: number;
  ingredient: Record<"arroz" | "pollo" | "aceite" | "huevo" | "cebolla" | "sal", number>;
  offer: Record<"arrozSaco" | "arrozBolsa" | "pollo" | "aceite" | "huevo" | "cebolla" | "salArequipa", number>;
  dish: Record<"arrozConPollo" | "salsaCriolla" | "huevoConArroz" | "refresco", number>;
  /** The published Monday and Tuesday, and the unpublished Wednesday. */
  monday: string;
  tuesday: string;
  wednesday: string;
}

let ticket = 0;

/** A sale at a cafe of `quantity` of a service on a service date; voided when asked. */
export function sellMeals(
  db: Db,
  w: PosWorld,
  cafeId: number,
  serviceId: number,
  date: string,
  quantity: number,
  voided = false,
) {
  ticket++;
  const sale = db
    .insert(sales)
    .values({
      cafeId,
      receiptType: "ticket",
      series: "T900",
      number: ticket,
      saleType: "cash",
      serviceDate: date,
      soldAt: new Date(`${date}T12:00:00Z`),
      requestKey: `menu-req-${ticket}-${Math.random()}`,
      requestDigest: "x",
      documentType: "dni",
      documentNumber: "00000000",
      dinerName: "Visita",
      businessId: w.business,
      businessName: "Catering Andino",
      businessRuc: "20100070970",
      cafeName: "Comedor",
      igvRateBasisPoints: 1800,
      baseCents: 100 * quantity,
      igvCents: 18 * quantity,
      totalCents: 118 * quantity,
      cashierName: "Caja",
      voidedAt: voided ? new Date(`${date}T13:00:00Z`) : null,
    })
    .returning()
    .get();
  db.insert(saleLines)
    .values({
      saleId: sale.id,
      serviceId,
      serviceCode: "X",
      serviceName: "X",
      quantity,
      listPriceCents: 118,
      unitPriceCents: 118,
      baseCents: 100 * quantity,
      igvCents: 18 * quantity,
      totalCents: 118 * quantity,
      saleType: "cash",
      serviceDate: date,
      voided,
    })
    .run();
}

/** The point-of-sale world with what to buy added. */
export function requirementsWorld(db: Db): RequirementsWorld {
  return addRequirements(db, posWorld(db));
}

/** Adds cities, ingredients, offers, dishes, recipes, a published menu, servings and past sales to a point-of-sale world. */
export function addRequirements(db: Db, w: PosWorld): RequirementsWorld {
  const lima = db.insert(cities).values({ name: "Lima", region: "Lima" }).returning().get().id;
  const arequipa = db.insert(cities).values({ name: "Arequipa", region: "Arequipa" }).returning().get().id;
  const levelId = (name: string) => db.select().from(levels).where(eq(levels.name, name)).get()!.id;
  const master = levelId("Master");
  const staff = levelId("Staff");
  db.update(cafes).set({ cityId: lima, defaultLevelId: staff }).where(eq(cafes.id, w.norte)).run();
  db.update(cafes).set({ cityId: lima }).where(eq(cafes.id, w.sur)).run();

  const category = (name: string) => db.insert(ingredientCategories).values({ name }).returning().get().id;
  const cereals = category("Cereales");
  const meat = category("Carnes");
  const oils = category("Aceites");
  const veg = category("Verduras");
  const ingredient = (
    name: string,
    categoryId: number,
    baseUnit: "g" | "ml" | "unit",
    extra: { densityGramsPerMl?: number; unitWeightGrams?: number; solidWastePercent?: number } = {},
  ) =>
    db
      .insert(ingredients)
      .values({ name, categoryId, baseUnit, kcalPer100g: 100, ...extra, createdAt: NOW, updatedAt: NOW })
      .returning()
      .get().id;
  const arroz = ingredient("Arroz pilado", cereals, "g");
  const pollo = ingredient("Pollo entero", meat, "g", { solidWastePercent: 20 });
  const aceite = ingredient("Aceite vegetal", oils, "ml", { densityGramsPerMl: 0.92 });
  const huevo = ingredient("Huevo de gallina", meat, "unit", { unitWeightGrams: 50 });
  const cebolla = ingredient("Cebolla roja", veg, "g");
  const sal = ingredient("Sal yodada", veg, "g");

  const provider = (name: string, ruc: string) =>
    db
      .insert(providers)
      .values({ name, ruc, contact: "Rosa", phone: "999", createdAt: NOW, updatedAt: NOW })
      .returning()
      .get().id;
  const andina = provider("Distribuidora Andina", "20100934729");
  const mercado = provider("Mercado Mayorista Sur", "20551673911");
  const offer = (
    providerId: number,
    ingredientId: number,
    cityId: number,
    presentation: string,
    quantity: number,
    priceCents: number,
    priceIncludesIgv: boolean,
  ) =>
    db
      .insert(offers)
      .values({
        providerId,
        ingredientId,
        cityId,
        presentation,
        quantity,
        priceCents,
        priceIncludesIgv,
        priceChangedAt: NOW,
        createdAt: NOW,
        updatedAt: NOW,
      })
      .returning()
      .get().id;
  const offerIds = {
    // 17,700 with IGV: 15,000 net for 50 kg, 0.3 cents a gram (the cheapest rice).
    arrozSaco: offer(andina, arroz, lima, "Saco 50 kg", 50_000, 17_700, true),
    // 0.4 cents a gram: only bought where a recipe pins it.
    arrozBolsa: offer(mercado, arroz, lima, "Bolsa 5 kg", 5_000, 2_000, false),
    pollo: offer(mercado, pollo, lima, "Caja 10 kg", 10_000, 8_000, false),
    // 1,190 with IGV: 1,008.47… net a litre.
    aceite: offer(andina, aceite, lima, "Botella 1 L", 1_000, 1_190, true),
    huevo: offer(mercado, huevo, lima, "Bandeja 30 u", 30, 1_200, false),
    cebolla: offer(mercado, cebolla, lima, "Saco 20 kg", 20_000, 3_000, false),
    salArequipa: offer(andina, sal, arequipa, "Bolsa 1 kg", 1_000, 150, false),
  };
  // A withdrawn cheaper chicken offer is not current: never bought.
  db.update(offers)
    .set({ active: false })
    .where(eq(offers.id, offer(andina, pollo, lima, "Caja 10 kg (retirada)", 10_000, 10, false)))
    .run();

  const dishCategory = (name: string, sortOrder: number) =>
    db.insert(dishCategories).values({ name, sortOrder }).returning().get().id;
  const segundo = dishCategory("Segundo", 1);
  const refrescoCat = dishCategory("Refresco", 2);
  const dish = (name: string) =>
    db.insert(dishes).values({ name, createdAt: NOW, updatedAt: NOW }).returning().get().id;
  const arrozConPollo = dish("Arroz con pollo");
  const salsaCriolla = dish("Salsa criolla");
  const huevoConArroz = dish("Huevo frito con arroz");
  const refresco = dish("Chicha morada");
  const recipe = (
    dishId: number,
    levelId: number,
    lines: { ingredientId?: number; subDishId?: number; quantity: number; offerId?: number }[],
    yieldGrams: number | null = null,
  ) => {
    const id = db.insert(recipes).values({ dishId, levelId, yieldGrams, updatedAt: NOW }).returning().get().id;
    lines.forEach((line, position) =>
      db
        .insert(recipeLines)
        .values({
          recipeId: id,
          position,
          ingredientId: line.ingredientId ?? null,
          subDishId: line.subDishId ?? null,
          quantity: line.quantity,
          offerId: line.offerId ?? null,
        })
        .run(),
    );
    return id;
  };
  // The sub-recipe: 200 g of salsa from 180 g of onion and 20 ml of oil (only at Master).
  recipe(
    salsaCriolla,
    master,
    [
      { ingredientId: cebolla, quantity: 180 },
      { ingredientId: aceite, quantity: 20 },
    ],
    200,
  );
  // A larger Master plate, never used at Norte (its level is Staff).
  recipe(arrozConPollo, master, [
    { ingredientId: arroz, quantity: 200 },
    { ingredientId: pollo, quantity: 250 },
  ]);
  recipe(arrozConPollo, staff, [
    { ingredientId: arroz, quantity: 150 },
    { ingredientId: pollo, quantity: 200 },
    { ingredientId: aceite, quantity: 10 },
    { subDishId: salsaCriolla, quantity: 40 },
    { ingredientId: sal, quantity: 2 },
  ]);
  // Only a Master recipe: used for want of a Staff one; its rice pinned to the 5 kg bag.
  recipe(huevoConArroz, master, [
    { ingredientId: huevo, quantity: 1 },
    { ingredientId: arroz, quantity: 100, offerId: offerIds.arrozBolsa },
    { ingredientId: aceite, quantity: 5 },
  ]);

  const monday = "2026-12-07";
  const tuesday = "2026-12-08";
  const wednesday = "2026-12-09";
  const day = (
    date: string,
    published: boolean,
    slots: { serviceId: number; categoryId: number; dishId: number }[],
  ) => {
    const id = db
      .insert(menuDays)
      .values({
        cafeId: w.norte,
        date,
        version: 2,
        updatedAt: NOW,
        publishedVersion: published ? 2 : null,
        publishedAt: published ? NOW : null,
      })
      .returning()
      .get().id;
    for (const slot of slots) {
      db.insert(menuSlots)
        .values({ dayId: id, ...slot, dishCategoryId: slot.categoryId })
        .run();
      if (published)
        db.insert(publishedMenuSlots)
          .values({ dayId: id, ...slot, dishCategoryId: slot.categoryId })
          .run();
    }
  };
  day(monday, true, [
    { serviceId: w.alm, categoryId: segundo, dishId: arrozConPollo },
    { serviceId: w.alm, categoryId: refrescoCat, dishId: refresco },
    { serviceId: w.des, categoryId: segundo, dishId: huevoConArroz },
  ]);
  day(tuesday, true, [
    { serviceId: w.alm, categoryId: segundo, dishId: arrozConPollo },
    { serviceId: w.cen, categoryId: segundo, dishId: huevoConArroz },
  ]);
  day(wednesday, false, [{ serviceId: w.alm, categoryId: segundo, dishId: arrozConPollo }]);

  // Set by a person: Monday's lunch and Tuesday's dinner.
  db.insert(menuExpectedServings).values({ cafeId: w.norte, date: monday, serviceId: w.alm, servings: 100 }).run();
  db.insert(menuExpectedServings).values({ cafeId: w.norte, date: tuesday, serviceId: w.cen, servings: 40 }).run();

  // Mondays' breakfasts in the four weeks before: 20 + 22 + 0 + 21 (a voided 5 left out) = 63 → 15.75 → 16.
  sellMeals(db, w, w.norte, w.des, "2026-11-09", 20);
  sellMeals(db, w, w.norte, w.des, "2026-11-16", 22);
  sellMeals(db, w, w.norte, w.des, "2026-11-30", 21);
  sellMeals(db, w, w.norte, w.des, "2026-11-30", 5, true);
  // Outside the four weeks, or at another cafe: not counted.
  sellMeals(db, w, w.norte, w.des, "2026-11-02", 50);
  sellMeals(db, w, w.norte, w.des, "2026-12-07", 50);
  sellMeals(db, w, w.sur, w.alm, "2026-11-10", 70);
  // Tuesdays' lunches: 80 + 90 + 85 + 86 = 341 → 85.25 → 86.
  sellMeals(db, w, w.norte, w.alm, "2026-11-10", 80);
  sellMeals(db, w, w.norte, w.alm, "2026-11-17", 90);
  sellMeals(db, w, w.norte, w.alm, "2026-11-24", 85);
  sellMeals(db, w, w.norte, w.alm, "2026-12-01", 86);

  return {
    ...w,
    lima,
    arequipa,
    staff,
    master,
    andina,
    mercado,
    ingredient: { arroz, pollo, aceite, huevo, cebolla, sal },
    offer: offerIds,
    dish: { arrozConPollo, salsaCriolla, huevoConArroz, refresco },
    monday,
    tuesday,
    wednesday,
  };
}
