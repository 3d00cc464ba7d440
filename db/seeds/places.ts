/**
 * Demo places: the caterer's business with its two headquarters, and two mines with two units each and two cafes
 * per unit, issued by that business. Idempotent: found by name, created when missing, never changed afterwards
 * (except a business still without a RUC, which gets the demo details).
 */
import { eq } from "drizzle-orm";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { businesses, headquarters } from "../schema";
import type { Seeder } from "./index";

export const DEMO_BUSINESS = {
  name: "Mesa Catering S.A.C.",
  ruc: "20100079705",
  fiscalAddress: "Av. Javier Prado Este 1234, San Isidro, Lima",
  legalAddress: "Av. Javier Prado Este 1234, San Isidro, Lima",
  email: "facturacion@mesacatering.pe",
  phone: "+51 1 415 2000",
};

export const DEMO_HEADQUARTERS = [
  { name: "Sede Lima", address: "Av. Javier Prado Este 1234, San Isidro, Lima", phone: "+51 1 415 2000" },
  { name: "Sede Arequipa", address: "Calle Mercaderes 210, Cercado, Arequipa", phone: "+51 54 281 300" },
];

/** Mine → unit → cafes. The first cafe of each of the first mine's units is where the demo people work. */
export const DEMO_PLACES: { mine: string; units: { name: string; cafes: string[] }[] }[] = [
  {
    mine: "Mina Cerro Verde",
    units: [
      { name: "Unidad Norte", cafes: ["Comedor Principal", "Comedor Taller"] },
      { name: "Unidad Sur", cafes: ["Comedor Campamento", "Comedor Chancadora"] },
    ],
  },
  {
    mine: "Mina Antamina",
    units: [
      { name: "Unidad Yanacancha", cafes: ["Comedor Yanacancha", "Comedor Tajo"] },
      { name: "Unidad Huarmey", cafes: ["Comedor Puerto", "Comedor Mineroducto"] },
    ],
  },
];

export const placesSeeder: Seeder = {
  name: "Business, headquarters, mines, units and cafes",
  async run(db) {
    let businessId = 0;
    for (const hq of DEMO_HEADQUARTERS) {
      const ids = ensureHeadquarters(db, DEMO_BUSINESS.name, hq.name);
      businessId = ids.businessId;
      db.update(headquarters)
        .set({ address: hq.address, phone: hq.phone })
        .where(eq(headquarters.id, ids.headquartersId))
        .run();
    }
    const business = db.select().from(businesses).where(eq(businesses.id, businessId)).get()!;
    if (!business.ruc) {
      const { name: _name, ...details } = DEMO_BUSINESS;
      db.update(businesses).set(details).where(eq(businesses.id, businessId)).run();
    }
    let cafeCount = 0;
    for (const mine of DEMO_PLACES) {
      for (const unit of mine.units) {
        for (const cafe of unit.cafes) {
          ensureCafe(db, mine.mine, unit.name, cafe, businessId);
          cafeCount++;
        }
      }
    }
    return [
      `1 business with ${DEMO_HEADQUARTERS.length} headquarters; ${DEMO_PLACES.length} mines, ${DEMO_PLACES.flatMap((m) => m.units).length} units, ${cafeCount} cafes`,
    ];
  },
};
