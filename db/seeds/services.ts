/**
 * Services seeds. Reference data: the five kinds of service a cafe sells (codes DES, ALM, CEN, REF, DSC). Demo
 * data: those services offered down the demo mines, units and cafes, with demo prices (the coastal Huarmey unit
 * serves no dinner, and its prices are a little lower); the demo business offers all five. Idempotent: existing
 * services, assignments and prices are kept as they are.
 */
import { ensureCafe } from "../../src/domain/access/places";
import { seedPrice } from "../../src/domain/places/prices";
import { offerService } from "../../src/domain/places/service-assignments";
import { findServiceByCode, type ServiceType } from "../../src/domain/places/services";
import { eq } from "drizzle-orm";
import { businesses, businessServices, cafes, services, units } from "../schema";
import type { Db } from "../../src/db";
import type { Seeder } from "./index";
import { DEMO_BUSINESS, DEMO_PLACES } from "./places";

export const STARTING_SERVICES: {
  code: string;
  name: string;
  type: ServiceType;
  description: string;
  priceCents: number;
}[] = [
  { code: "DES", name: "Desayuno", type: "breakfast", description: "Desayuno completo del comedor.", priceCents: 1250 },
  {
    code: "ALM",
    name: "Almuerzo",
    type: "lunch",
    description: "Menú del día: entrada, fondo, postre y refresco.",
    priceCents: 1800,
  },
  { code: "CEN", name: "Cena", type: "dinner", description: "Cena del turno de noche.", priceCents: 1650 },
  { code: "REF", name: "Refrigerio", type: "snack", description: "Refrigerio entre turnos.", priceCents: 650 },
  {
    code: "DSC",
    name: "Descartables",
    type: "disposables",
    description: "Envases y cubiertos descartables para llevar.",
    priceCents: 150,
  },
];

function ensureService(db: Db, spec: (typeof STARTING_SERVICES)[number]): number {
  const existing = findServiceByCode(db, spec.code);
  if (existing) return existing.id;
  const now = new Date();
  return db
    .insert(services)
    .values({
      code: spec.code,
      name: spec.name,
      description: spec.description,
      type: spec.type,
      active: true,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get().id;
}

/** Reference data: the services catalogue. */
export const serviceCatalogueSeeder: Seeder = {
  name: "Services",
  async run(db) {
    for (const spec of STARTING_SERVICES) ensureService(db, spec);
    return [`${STARTING_SERVICES.length} services (${STARTING_SERVICES.map((s) => s.code).join(", ")})`];
  },
};

/** Demo data: the services (made first when missing) offered and priced in the demo places. */
export const servicesSeeder: Seeder = {
  name: "Demo services and cafe prices",
  async run(db) {
    const ids = STARTING_SERVICES.map((spec) => ({ spec, id: ensureService(db, spec) }));
    // The demo business offers every starting service.
    const business = db
      .select({ id: businesses.id })
      .from(businesses)
      .where(eq(businesses.name, DEMO_BUSINESS.name))
      .get();
    if (business)
      for (const { id } of ids)
        db.insert(businessServices).values({ businessId: business.id, serviceId: id }).onConflictDoNothing().run();
    let priced = 0;
    for (const mine of DEMO_PLACES) {
      for (const unit of mine.units) {
        const coastal = unit.name === "Unidad Huarmey";
        const offered = ids.filter(({ spec }) => !(coastal && spec.code === "CEN"));
        const cafeIds = unit.cafes.map((cafe) => ensureCafe(db, mine.mine, unit.name, cafe));
        const mineId = db
          .select({ mineId: units.mineId })
          .from(units)
          .innerJoin(cafes, eq(cafes.unitId, units.id))
          .where(eq(cafes.id, cafeIds[0]))
          .get()!.mineId;
        const unitId = db.select({ unitId: cafes.unitId }).from(cafes).where(eq(cafes.id, cafeIds[0])).get()!.unitId;
        db.transaction((tx) => {
          for (const { id } of ids) offerService(tx, "mine", mineId, id);
          for (const { id } of offered) offerService(tx, "unit", unitId, id);
          for (const cafeId of cafeIds) {
            for (const { spec, id } of offered) {
              offerService(tx, "cafe", cafeId, id);
              seedPrice(tx, cafeId, id, coastal ? spec.priceCents - 50 : spec.priceCents);
              priced++;
            }
          }
        });
      }
    }
    return [`${STARTING_SERVICES.length} services offered down the demo places, ${priced} cafe prices`];
  },
};
