/**
 * Dealerships seed: three mining client companies, each with the contractors (subdealerships) that work for it in
 * the demo units. Idempotent by RUC: an existing dealership or subdealership is left as it is. A unit that does
 * not exist (the place seed did not make it) is skipped.
 */
import { and, eq } from "drizzle-orm";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createDealership, findDealershipByRuc } from "../../src/domain/organisation/dealerships";
import { createSubdealership, findSubdealershipByRuc } from "../../src/domain/organisation/subdealerships";
import type { Db } from "../../src/db";
import { mines, units } from "../schema";
import type { Seeder } from "./index";

interface Company {
  name: string;
  ruc: string;
  fiscal_address: string;
  legal_address: string;
  phone: string;
  email: string;
}

/** The RUCs carry valid check digits (SUNAT's modulo 11). */
export const DEMO_DEALERSHIPS: (Company & {
  subdealerships: (Company & { units: [mine: string, unit: string][] })[];
})[] = [
  {
    name: "Compañía Minera Andina del Sur S.A.A.",
    ruc: "20100934729",
    fiscal_address: "Av. Parra 120, Cercado, Arequipa",
    legal_address: "Av. Javier Prado Este 2465, San Borja, Lima",
    phone: "054 381200",
    email: "contratos@andinadelsur.com.pe",
    subdealerships: [
      {
        name: "Perforaciones Altiplano S.A.C.",
        ruc: "20551673911",
        fiscal_address: "Calle Mercaderes 214, Arequipa",
        legal_address: "Calle Mercaderes 214, Arequipa",
        phone: "054 226781",
        email: "operaciones@perforacionesaltiplano.pe",
        units: [
          ["Mina Cerro Verde", "Unidad Norte"],
          ["Mina Cerro Verde", "Unidad Sur"],
        ],
      },
      {
        name: "Transportes Cordillera E.I.R.L.",
        ruc: "20604382158",
        fiscal_address: "Av. Aviación 1502, Cerro Colorado, Arequipa",
        legal_address: "Av. Aviación 1502, Cerro Colorado, Arequipa",
        phone: "959 412 330",
        email: "despacho@transportescordillera.pe",
        units: [["Mina Cerro Verde", "Unidad Norte"]],
      },
    ],
  },
  {
    name: "Minera Huascarán S.A.",
    ruc: "20511883246",
    fiscal_address: "Jr. San Martín 455, Huaraz, Áncash",
    legal_address: "Av. El Derby 254, Santiago de Surco, Lima",
    phone: "043 421900",
    email: "logistica@minerahuascaran.com.pe",
    subdealerships: [
      {
        name: "Mantenimiento Industrial Chinchay S.A.C.",
        ruc: "20482736191",
        fiscal_address: "Av. Centenario 870, Huaraz, Áncash",
        legal_address: "Av. Centenario 870, Huaraz, Áncash",
        phone: "043 427715",
        email: "servicios@chinchay.com.pe",
        units: [
          ["Mina Antamina", "Unidad Yanacancha"],
          ["Mina Antamina", "Unidad Huarmey"],
        ],
      },
      {
        name: "Servicios de Voladura Andes S.R.L.",
        ruc: "20601128471",
        fiscal_address: "Jr. Sucre 318, Huari, Áncash",
        legal_address: "Jr. Sucre 318, Huari, Áncash",
        phone: "943 118 502",
        email: "seguridad@voladuraandes.pe",
        units: [["Mina Antamina", "Unidad Yanacancha"]],
      },
      {
        name: "Logística Portuaria Huarmey S.A.C.",
        ruc: "20524471303",
        fiscal_address: "Av. Grau 190, Huarmey, Áncash",
        legal_address: "Av. Grau 190, Huarmey, Áncash",
        phone: "043 400281",
        email: "operaciones@lphuarmey.pe",
        units: [["Mina Antamina", "Unidad Huarmey"]],
      },
    ],
  },
  {
    name: "Consorcio Minero Pampa Alta S.A.C.",
    ruc: "20609255731",
    fiscal_address: "Av. Ejército 710, Yanahuara, Arequipa",
    legal_address: "Av. Ejército 710, Yanahuara, Arequipa",
    phone: "054 274400",
    email: "administracion@pampaalta.pe",
    subdealerships: [
      {
        name: "Ingeniería y Montajes Puna S.A.C.",
        ruc: "20543219879",
        fiscal_address: "Calle Jerusalén 402, Arequipa",
        legal_address: "Calle Jerusalén 402, Arequipa",
        phone: "054 205566",
        email: "proyectos@montajespuna.pe",
        units: [
          ["Mina Cerro Verde", "Unidad Sur"],
          ["Mina Antamina", "Unidad Yanacancha"],
        ],
      },
    ],
  },
];

function findUnit(db: Db, mineName: string, unitName: string): number | null {
  const row = db
    .select({ id: units.id })
    .from(units)
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(and(eq(mines.name, mineName), eq(units.name, unitName)))
    .get();
  return row?.id ?? null;
}

export const dealershipsSeeder: Seeder = {
  name: "Dealerships and subdealerships",
  async run(db, config) {
    const settings = { rucLength: config.rucLength };
    let createdDealerships = 0;
    let createdSubdealerships = 0;
    const missingUnits = new Set<string>();
    for (const { subdealerships, ...company } of DEMO_DEALERSHIPS) {
      let dealership = findDealershipByRuc(db, company.ruc);
      if (!dealership) {
        dealership = createDealership(db, CLI_ACTOR, company, settings);
        createdDealerships++;
      }
      for (const { units: places, ...sub } of subdealerships) {
        if (findSubdealershipByRuc(db, sub.ruc)) continue;
        const unitIds: number[] = [];
        for (const [mine, unit] of places) {
          const id = findUnit(db, mine, unit);
          if (id === null) missingUnits.add(`${mine} / ${unit}`);
          else unitIds.push(id);
        }
        createSubdealership(
          db,
          CLI_ACTOR,
          EVERYTHING,
          { ...sub, dealership_id: dealership.id, unit_ids: unitIds },
          settings,
        );
        createdSubdealerships++;
      }
    }
    const lines = [
      `${createdDealerships} dealerships and ${createdSubdealerships} subdealerships created (${DEMO_DEALERSHIPS.length} dealerships in the demo set)`,
    ];
    if (missingUnits.size) lines.push(`units not found, skipped: ${[...missingUnits].join(", ")}`);
    return lines;
  },
};
