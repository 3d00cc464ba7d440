/**
 * Demo properties: kitchen equipment, furniture, vehicles and IT kept at the demo headquarters and cafes. Each is
 * found by its code and created when missing, never changed afterwards; a property whose place does not exist
 * (the places seed did not run, say) is skipped.
 */
import { and, eq } from "drizzle-orm";
import { cafes, headquarters, properties, units, type PropertyStatus } from "../schema";
import type { Tx } from "../../src/domain/audit";
import type { Seeder } from "./index";

interface DemoProperty {
  code: string;
  name: string;
  category: string;
  serial: string;
  /** A headquarters by name, or a cafe by unit and name. */
  place: { headquarters: string } | { unit: string; cafe: string };
  status: PropertyStatus;
  acquiredOn: string | null;
  valueCents: number | null;
  notes: string;
}

export const DEMO_PROPERTIES: DemoProperty[] = [
  {
    code: "COC-001",
    name: "Cocina industrial de 6 hornillas",
    category: "Equipo de cocina",
    serial: "SRV-6H-20417",
    place: { unit: "Unidad Norte", cafe: "Comedor Principal" },
    status: "in_use",
    acquiredOn: "2023-03-14",
    valueCents: 1_280_000,
    notes: "Mantenimiento de quemadores cada seis meses.",
  },
  {
    code: "HOR-001",
    name: "Horno combinado 10 bandejas",
    category: "Equipo de cocina",
    serial: "RAT-iC10-88231",
    place: { unit: "Unidad Norte", cafe: "Comedor Principal" },
    status: "under_repair",
    acquiredOn: "2022-08-02",
    valueCents: 4_590_000,
    notes: "Falla en el generador de vapor; en servicio técnico.",
  },
  {
    code: "REF-001",
    name: "Cámara de refrigeración 12 m³",
    category: "Refrigeración",
    serial: "FRI-CR12-5540",
    place: { unit: "Unidad Sur", cafe: "Comedor Campamento" },
    status: "in_use",
    acquiredOn: "2021-11-20",
    valueCents: 3_850_000,
    notes: "",
  },
  {
    code: "MES-001",
    name: "Mesa de acero inoxidable 1.80 m",
    category: "Mobiliario",
    serial: "",
    place: { unit: "Unidad Sur", cafe: "Comedor Campamento" },
    status: "in_use",
    acquiredOn: "2023-01-09",
    valueCents: 185_000,
    notes: "",
  },
  {
    code: "VEH-001",
    name: "Camioneta Toyota Hilux 4x4",
    category: "Vehículo",
    serial: "8AJHA8CD1P2601234",
    place: { headquarters: "Sede Arequipa" },
    status: "in_use",
    acquiredOn: "2023-06-30",
    valueCents: 16_500_000,
    notes: "Placa V4R-218. Traslado de insumos a la mina.",
  },
  {
    code: "VEH-002",
    name: "Camión refrigerado Hino 300",
    category: "Vehículo",
    serial: "JHHAFJ4H5MK004512",
    place: { headquarters: "Sede Lima" },
    status: "in_storage",
    acquiredOn: "2020-02-17",
    valueCents: 21_000_000,
    notes: "Reserva para temporada alta.",
  },
  {
    code: "TI-001",
    name: "Laptop de administración",
    category: "Equipo informático",
    serial: "PF3K9ZQW",
    place: { headquarters: "Sede Lima" },
    status: "in_use",
    acquiredOn: "2024-04-05",
    valueCents: 420_000,
    notes: "",
  },
  {
    code: "BAL-001",
    name: "Balanza electrónica 150 kg",
    category: "Equipo de cocina",
    serial: "OHS-D52-77012",
    place: { headquarters: "Sede Arequipa" },
    status: "retired",
    acquiredOn: "2018-05-22",
    valueCents: 98_000,
    notes: "Dada de baja: celda de carga dañada.",
  },
];

function placeOf(
  db: Tx,
  place: DemoProperty["place"],
): { headquartersId: number | null; cafeId: number | null } | null {
  if ("headquarters" in place) {
    const rows = db
      .select({ id: headquarters.id })
      .from(headquarters)
      .where(eq(headquarters.name, place.headquarters))
      .all();
    return rows.length === 1 ? { headquartersId: rows[0].id, cafeId: null } : null;
  }
  const cafe = db
    .select({ id: cafes.id })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .where(and(eq(units.name, place.unit), eq(cafes.name, place.cafe)))
    .get();
  return cafe ? { headquartersId: null, cafeId: cafe.id } : null;
}

export const propertiesSeeder: Seeder = {
  name: "Properties",
  async run(db) {
    let created = 0;
    let skipped = 0;
    const now = new Date();
    db.transaction((tx) => {
      for (const spec of DEMO_PROPERTIES) {
        if (tx.select({ id: properties.id }).from(properties).where(eq(properties.code, spec.code)).get()) continue;
        const location = placeOf(tx, spec.place);
        if (!location) {
          skipped++;
          continue;
        }
        tx.insert(properties)
          .values({
            code: spec.code,
            name: spec.name,
            category: spec.category,
            serial: spec.serial,
            ...location,
            status: spec.status,
            acquiredOn: spec.acquiredOn,
            acquisitionValueCents: spec.valueCents,
            notes: spec.notes,
            createdAt: now,
            updatedAt: now,
          })
          .run();
        created++;
      }
    });
    const lines = [`${created} properties created (${DEMO_PROPERTIES.length} in the demo set)`];
    if (skipped) lines.push(`${skipped} skipped: their headquarters or cafe does not exist`);
    return lines;
  },
};
