/**
 * A small point-of-sale world for tests, written straight to the database: a business with a RUC, one mine with a
 * unit and two cafes (Norte sells breakfast, lunch and dinner; Sur sells lunch), a dealership with two
 * subdealerships, and diners of both cafes. Prices: Norte DES 8.00, ALM 15.00, CEN 12.00; Sur ALM 14.00.
 */
import {
  businesses,
  cafes,
  cafeServices,
  dealerships,
  diners,
  mineServices,
  mines,
  services,
  subdealerships,
  units,
  unitServices,
} from "../../db/schema";
import type { Db } from "../../src/db";
import { foldText } from "../../src/shared/fold";

export interface PosWorld {
  business: number;
  norte: number;
  sur: number;
  /** Service ids by code. */
  des: number;
  alm: number;
  cen: number;
  dealership: number;
  contrata: number;
  otraContrata: number;
  /** Diners: two of Norte, one of Sur, one inactive of Norte. Their DNIs: 40000001, 40000002, 40000003, 40000004. */
  ana: number;
  beto: number;
  carla: number;
  dario: number;
}

/** Times written by these fixtures. */
const NOW = new Date("2026-11-02T12:00:00Z");

export function posWorld(db: Db, suffix = ""): PosWorld {
  const business = db
    .insert(businesses)
    .values({ name: `Catering Andino${suffix}`, ruc: "20100070970", fiscalAddress: "Av. Arequipa 123, Lima" })
    .returning()
    .get().id;
  const mine = db
    .insert(mines)
    .values({ name: `Mina Toquepala${suffix}` })
    .returning()
    .get().id;
  const unit = db.insert(units).values({ mineId: mine, name: "Unidad Central" }).returning().get().id;
  const norte = db
    .insert(cafes)
    .values({ unitId: unit, businessId: business, name: "Comedor Norte", timeZone: "America/Lima" })
    .returning()
    .get().id;
  const sur = db
    .insert(cafes)
    .values({ unitId: unit, businessId: business, name: "Comedor Sur", timeZone: "America/Lima" })
    .returning()
    .get().id;
  const service = (code: string, name: string, type: "breakfast" | "lunch" | "dinner") =>
    db
      .insert(services)
      .values({ code: `${code}${suffix}`, name, type, createdAt: NOW, updatedAt: NOW })
      .returning()
      .get().id;
  const des = service("DES", "Desayuno", "breakfast");
  const alm = service("ALM", "Almuerzo", "lunch");
  const cen = service("CEN", "Cena", "dinner");
  for (const serviceId of [des, alm, cen]) {
    db.insert(mineServices).values({ mineId: mine, serviceId }).run();
    db.insert(unitServices).values({ unitId: unit, serviceId }).run();
  }
  const price = (cafeId: number, serviceId: number, priceCents: number, window: [number, number] | null = null) =>
    db
      .insert(cafeServices)
      .values({
        cafeId,
        serviceId,
        priceCents,
        windowStart: window?.[0] ?? null,
        windowEnd: window?.[1] ?? null,
        updatedAt: NOW,
      })
      .run();
  price(norte, des, 800, [270, 570]);
  price(norte, alm, 1500, [660, 900]);
  price(norte, cen, 1200, [1080, 120]);
  price(sur, alm, 1400);
  const dealership = db
    .insert(dealerships)
    .values({ name: `Minera del Sur${suffix}`, ruc: "20330262428", createdAt: NOW, updatedAt: NOW })
    .returning()
    .get().id;
  const sub = (name: string, ruc: string) =>
    db
      .insert(subdealerships)
      .values({ dealershipId: dealership, name, ruc, createdAt: NOW, updatedAt: NOW })
      .returning()
      .get().id;
  const contrata = sub(`Contrata Uno${suffix}`, "20512345671");
  const otraContrata = sub(`Contrata Dos${suffix}`, "20512345682");
  const diner = (name: string, number: string, cafeId: number, subdealershipId: number, active = true) =>
    db
      .insert(diners)
      .values({
        documentType: "dni",
        documentNumber: number,
        name,
        nameFolded: foldText(name),
        subdealershipId,
        cafeId,
        active,
        createdAt: NOW,
        updatedAt: NOW,
      })
      .returning()
      .get().id;
  return {
    business,
    norte,
    sur,
    des,
    alm,
    cen,
    dealership,
    contrata,
    otraContrata,
    ana: diner("Ana Quispe Mamani", "40000001", norte, contrata),
    beto: diner("Béto Huamán", "40000002", norte, otraContrata),
    carla: diner("Carla Ñahui", "40000003", sur, contrata),
    dario: diner("Darío Inactivo", "40000004", norte, contrata, false),
  };
}
