/**
 * Services seed: the five kinds of service a cafe sells (codes DES, ALM, CEN, REF, DSC), offered by the demo mine,
 * its units and cafes, with demo prices. Idempotent: existing services, assignments and prices are kept as they are.
 */
import { eq } from "drizzle-orm";
import { ensureCafe } from "../../src/domain/access/places";
import { seedPrice } from "../../src/domain/places/prices";
import { offerService } from "../../src/domain/places/service-assignments";
import { findServiceByCode, type ServiceType } from "../../src/domain/places/services";
import { cafes, services, units } from "../schema";
import type { Db } from "../../src/db";
import type { Seeder } from "./index";

export const STARTING_SERVICES: { code: string; name: string; type: ServiceType; description: string; priceCents: number }[] = [
  { code: "DES", name: "Desayuno", type: "breakfast", description: "Desayuno completo del comedor.", priceCents: 1250 },
  { code: "ALM", name: "Almuerzo", type: "lunch", description: "Menú del día: entrada, fondo, postre y refresco.", priceCents: 1800 },
  { code: "CEN", name: "Cena", type: "dinner", description: "Cena del turno de noche.", priceCents: 1650 },
  { code: "REF", name: "Refrigerio", type: "snack", description: "Refrigerio entre turnos.", priceCents: 650 },
  { code: "DSC", name: "Descartables", type: "disposables", description: "Envases y cubiertos descartables para llevar.", priceCents: 150 },
];

function ensureService(db: Db, spec: (typeof STARTING_SERVICES)[number]): number {
  const existing = findServiceByCode(db, spec.code);
  if (existing) return existing.id;
  const now = new Date();
  return db.insert(services).values({ code: spec.code, name: spec.name, description: spec.description, type: spec.type, active: true, createdAt: now, updatedAt: now }).returning().get().id;
}

export const servicesSeeder: Seeder = {
  name: "Services and cafe prices",
  async run(db) {
    const ids = STARTING_SERVICES.map((spec) => ({ spec, id: ensureService(db, spec) }));
    const cafeIds = [ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal"), ensureCafe(db, "Mina Cerro Verde", "Unidad Sur", "Comedor Campamento")];
    db.transaction((tx) => {
      for (const cafeId of cafeIds) {
        const cafe = tx.select().from(cafes).where(eq(cafes.id, cafeId)).get()!;
        const unit = tx.select().from(units).where(eq(units.id, cafe.unitId)).get()!;
        for (const { spec, id } of ids) {
          offerService(tx, "mine", unit.mineId, id);
          offerService(tx, "unit", unit.id, id);
          offerService(tx, "cafe", cafeId, id);
          seedPrice(tx, cafeId, id, spec.priceCents);
        }
      }
    });
    return [`${STARTING_SERVICES.length} services (${STARTING_SERVICES.map((s) => s.code).join(", ")}), offered and priced in ${cafeIds.length} cafes`];
  },
};
