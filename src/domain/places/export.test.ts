/**
 * The places export is the places workbook: written as the Management page writes it (xlsx bytes), read back as an
 * upload is read, and imported, it changes nothing — for everything, for one tab's search, in both languages, and
 * for a person who reaches only some cafes and may manage only places. Imported into an empty database, it
 * recreates the places, services and prices it holds.
 *
 * The world: the demo places and services (2 mines, 4 units, 8 cafes, five services with prices), plus a cafe
 * whose name looks like a formula, an inactive service a cafe still offers, and a cafe price removed.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { cafes, cafeServices, mines, services, units } from "../../../db/schema";
import { placesSeeder } from "../../../db/seeds/places";
import { servicesSeeder } from "../../../db/seeds/services";
import { loadConfig } from "../../config";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { readWorkbook, type WorkbookRows } from "../spreadsheets/read";
import { buildWorkbook } from "../spreadsheets/write";
import { placesExport, type PlacesTable } from "./export";
import {
  ALL_ABILITIES,
  IMPORT_KINDS,
  importPlaces,
  previewPlacesImport,
  previewWrites,
  type ImportAbilities,
  type ImportPreview,
} from "./import";
import { offerService } from "./service-assignments";

const config = loadConfig({ NODE_ENV: "test", DB_PATH: ":memory:", LOG_REQUESTS: "false" });

async function world(): Promise<Db> {
  const db = migratedDatabase();
  await placesSeeder.run(db, config);
  await servicesSeeder.run(db, config);
  const business = db.select().from(cafes).get()!.businessId!;
  const formula = ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "=SUM(A1)", business);
  const unit = db.select().from(units).where(eq(units.name, "Unidad Norte")).get()!;
  const ref = db.select().from(services).where(eq(services.code, "REF")).get()!;
  offerService(db, "mine", unit.mineId, ref.id);
  offerService(db, "unit", unit.id, ref.id);
  offerService(db, "cafe", formula, ref.id);
  db.update(services).set({ active: false }).where(eq(services.id, ref.id)).run();
  const principal = db.select().from(cafes).where(eq(cafes.name, "Comedor Principal")).get()!;
  const alm = db.select().from(services).where(eq(services.code, "ALM")).get()!;
  db.update(cafeServices)
    .set({ priceCents: null })
    .where(and(eq(cafeServices.cafeId, principal.id), eq(cafeServices.serviceId, alm.id)))
    .run();
  return db;
}

/** The export as the browser downloads it, read back as an upload is read. */
async function exported(
  db: Db,
  scope: Scope,
  language: "es" | "en",
  table: PlacesTable,
  search?: string,
): Promise<WorkbookRows> {
  return readWorkbook(buildWorkbook(placesExport(db, scope, language, table, search)));
}

const preview = (db: Db, rows: WorkbookRows, scope: Scope = EVERYTHING, abilities: ImportAbilities = ALL_ABILITIES) =>
  previewPlacesImport(db, scope, abilities, rows, { timeZone: "America/Lima" });

const rowsOf = (rows: WorkbookRows, sheet: string) => rows.find((s) => s.name === sheet)!.rows;

/** Every kind left unchanged, nothing to write, no problem. */
function expectUnchanged(shown: ImportPreview) {
  expect(shown.problems).toEqual([]);
  expect(previewWrites(shown)).toBe(false);
  for (const kind of IMPORT_KINDS)
    expect({ kind, ...shown.counts[kind] }).toMatchObject({ kind, created: 0, updated: 0 });
}

let db: Db;
beforeAll(async () => {
  db = await world();
});

describe("the places export", () => {
  test("writes the five sheets the import reads, with its columns, in the reader's language", async () => {
    const es = await exported(db, EVERYTHING, "es", "cafes");
    expect(es.map((s) => [s.name, s.rows[0]])).toEqual([
      ["Servicios", ["Código", "Nombre", "Tipo", "Descripción", "Activo"]],
      ["Minas", ["Nombre", "Servicios"]],
      ["Unidades", ["Mina", "Nombre", "Servicios"]],
      ["Comedores", ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"]],
      ["Precios", ["Mina", "Unidad", "Comedor", "Servicio", "Precio"]],
    ]);
    expect(rowsOf(es, "Comedores")).toHaveLength(1 + 9);
    expect(rowsOf(es, "Comedores")[1]).toEqual([
      "Mina Antamina",
      "Unidad Huarmey",
      "Comedor Mineroducto",
      "Mesa Catering S.A.C.",
      "America/Lima",
      "ALM, DES, DSC, REF",
    ]);
    expect(rowsOf(es, "Servicios").find((r) => r[0] === "REF")).toEqual([
      "REF",
      "Refrigerio",
      "refrigerio",
      "Refrigerio entre turnos.",
      "no",
    ]);
    // A formula-looking name is written as text, and the price as a number of soles.
    expect(rowsOf(es, "Comedores").map((r) => r[2])).toContain("'=SUM(A1)");
    expect(rowsOf(es, "Precios")[1]).toEqual(["Mina Antamina", "Unidad Huarmey", "Comedor Mineroducto", "ALM", 17.5]);
    const en = await exported(db, EVERYTHING, "en", "mines");
    expect(en.map((s) => s.name)).toEqual(["Services", "Mines", "Units", "Cafes", "Prices"]);
    expect(rowsOf(en, "Services").find((r) => r[0] === "DES")).toEqual([
      "DES",
      "Desayuno",
      "breakfast",
      "Desayuno completo del comedor.",
      "yes",
    ]);
  });

  test("imported back unchanged, every tab's export changes nothing, and nothing is asked to confirm", async () => {
    for (const table of ["mines", "units", "cafes"] as const)
      for (const language of ["es", "en"] as const)
        expectUnchanged(preview(db, await exported(db, EVERYTHING, language, table)));
    const shown = preview(db, await exported(db, EVERYTHING, "es", "cafes"));
    expect(shown.counts).toEqual({
      mines: { created: 0, updated: 0, unchanged: 2 },
      units: { created: 0, updated: 0, unchanged: 4 },
      cafes: { created: 0, updated: 0, unchanged: 9 },
      services: { created: 0, updated: 0, unchanged: 5 },
      // 8 demo cafes with their prices, less the one removed.
      prices: { created: 0, updated: 0, unchanged: shown.counts.prices.unchanged },
    });
    const priced = db
      .select()
      .from(cafeServices)
      .all()
      .filter((r) => r.priceCents !== null).length;
    expect(shown.counts.prices.unchanged).toBe(priced);
  });

  test("a tab's search exports its rows with what they stand on and what they hold", async () => {
    const byUnit = await exported(db, EVERYTHING, "es", "units", "Norte");
    expect(
      rowsOf(byUnit, "Minas")
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(["Mina Cerro Verde"]);
    expect(
      rowsOf(byUnit, "Unidades")
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(["Unidad Norte"]);
    expect(
      rowsOf(byUnit, "Comedores")
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(["'=SUM(A1)", "Comedor Principal", "Comedor Taller"]);
    const byCafe = await exported(db, EVERYTHING, "es", "cafes", "Puerto");
    expect(byCafe.slice(1, 4).map((s) => s.rows.slice(1).map((r) => r.slice(0, 3)))).toEqual([
      [["Mina Antamina", "ALM, CEN, DES, DSC, REF"]],
      [["Mina Antamina", "Unidad Huarmey", "ALM, DES, DSC, REF"]],
      [["Mina Antamina", "Unidad Huarmey", "Comedor Puerto"]],
    ]);
    for (const rows of [byUnit, byCafe, await exported(db, EVERYTHING, "en", "mines", "Antamina")])
      expectUnchanged(preview(db, rows));
  });

  test("a person who reaches one cafe and manages only places exports only what they reach, and it imports back unchanged", async () => {
    const principal = db.select().from(cafes).where(eq(cafes.name, "Comedor Principal")).get()!;
    const scope: Scope = {
      all: false,
      cafeIds: new Set([principal.id]),
      headquartersIds: new Set(),
      businessIds: new Set(),
    };
    const rows = await exported(db, scope, "es", "mines");
    expect(
      rowsOf(rows, "Minas")
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(["Mina Cerro Verde"]);
    expect(
      rowsOf(rows, "Unidades")
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(["Unidad Norte"]);
    expect(
      rowsOf(rows, "Comedores")
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(["Comedor Principal"]);
    expectUnchanged(preview(db, rows, scope, { places: true, services: false, prices: false }));
  });

  test("imported into an empty database, the export recreates the places, services and prices", async () => {
    const rows = await exported(db, EVERYTHING, "en", "cafes");
    const fresh = migratedDatabase();
    await placesSeeder.run(fresh, config);
    // The demo business exists there, but no mine.
    for (const table of [cafes, units, mines]) fresh.delete(table).run();
    // An inactive service cannot be added to a place: the export's REF is active while it is imported, then not.
    const shown = preview(fresh, rows);
    expect(shown.problems.map((p) => p.message)).toContainEqual({
      key: "import.service_inactive",
      params: { code: "REF" },
    });
    const active = rows.map((s) =>
      s.name === "Services" ? { ...s, rows: s.rows.map((r) => (r[0] === "REF" ? [...r.slice(0, 4), "yes"] : r)) } : s,
    );
    const counts = importPlaces(fresh, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, active, { timeZone: "America/Lima" });
    expect(counts.cafes.created).toBe(9);
    expect(counts.mines.created).toBe(2);
    fresh.update(services).set({ active: false }).where(eq(services.code, "REF")).run();
    expectUnchanged(preview(fresh, rows));
  });
});
