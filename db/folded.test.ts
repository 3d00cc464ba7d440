/**
 * Folded copies (db/schema/folded.ts): the domain writes them, a row written without them is found all the same and
 * gets them on the next start, and a text changed without its copy is never searched by the old text.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { getTableName, sql } from "drizzle-orm";
import { blacklist, dealerships, diners, properties, subdealerships } from "./schema";
import { FOLDED_COPIES } from "./schema/folded";
import { fillFoldedCopies, migrateDatabase, openDatabase, type Db } from "../src/db";
import { addToBlacklist, listBlacklist } from "../src/domain/access/blacklist";
import { ensureCafe, ensureHeadquarters } from "../src/domain/access/places";
import { createDiner, searchDiners } from "../src/domain/sales/diners";
import { EVERYTHING } from "../src/domain/access/scope";
import { CLI_ACTOR } from "../src/domain/audit";
import { createDealership, listDealerships } from "../src/domain/organisation/dealerships";
import { createProperty, listProperties } from "../src/domain/organisation/properties";
import { createSubdealership, listSubdealerships } from "../src/domain/organisation/subdealerships";
import { foldText } from "../src/domain/search";

const RUC = { a: "20100934729", b: "20551673911" };

let db: Db;
let headquartersId: number;
let businessId: number;

beforeEach(() => {
  db = openDatabase(":memory:");
  migrateDatabase(db);
  ({ headquartersId, businessId } = ensureHeadquarters(db, "Servicios Andinos", "Sede Lima"));
});

/** One row of every table with folded copies, written by the domain; the names carry accents. */
function rowsByTheDomain() {
  createDealership(db, CLI_ACTOR, { name: "Minería Ñandú", ruc: RUC.a }, { rucLength: 11 });
  const dealershipId = db.select().from(dealerships).get()!.id;
  createSubdealership(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { name: "Logística Áncash", ruc: RUC.b, dealership_id: dealershipId },
    { rucLength: 11 },
  );
  addToBlacklist(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { document_type: "dni", document_number: "12345678", name: "José Huamán", reason: "Deuda en el almacén" },
    { dniLength: 8 },
  );
  createProperty(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { code: "P-1", name: "Horno eléctrico", category: "Cocción", location: `hq:${headquartersId}`, status: "in_use" },
    "America/Lima",
  );
  const cafeId = ensureCafe(db, "Mina Ñahuín", "Unidad Áncash", "Comedor Piñón", businessId);
  createDiner(
    db,
    CLI_ACTOR,
    EVERYTHING,
    {
      name: "María Ñaupari",
      document_number: "07654321",
      subdealership_id: db.select().from(subdealerships).get()!.id,
      cafe_id: cafeId,
    },
    { dniLength: 8 },
  );
}

/** Every folded copy with the text it was folded from. */
function copies(): { table: string; text: string; folded: string | null }[] {
  return FOLDED_COPIES.flatMap(({ column, folded }) =>
    db.all<{ table: string; text: string; folded: string | null }>(
      sql`SELECT ${getTableName(column.table)} AS "table", ${sql.identifier(column.name)} AS text, ${sql.identifier(folded.name)} AS folded FROM ${column.table}`,
    ),
  );
}

/** What the lists find for `search`: the names of the rows each list shows. */
function found(search: string) {
  return {
    blacklist: listBlacklist(db, EVERYTHING, { search, page: 1, perPage: 15 }).rows.map((r) => r.name),
    dealerships: listDealerships(db, { search }, null).rows.map((r) => r.name),
    subdealerships: listSubdealerships(db, EVERYTHING, { search }, null).rows.map((r) => r.name),
    properties: listProperties(db, EVERYTHING, { search }).rows.map((r) => r.name),
    diners: searchDiners(db, EVERYTHING, search).map((r) => r.name),
  };
}

describe("folded copies", () => {
  test("the domain writes each copy with its text", () => {
    rowsByTheDomain();
    const written = copies();
    expect(written).toHaveLength(FOLDED_COPIES.length);
    for (const row of written) expect(row.folded).toBe(foldText(row.text));
    expect(found("nandu").dealerships).toEqual(["Minería Ñandú"]);
    expect(found("ANCASH").subdealerships).toEqual(["Logística Áncash"]);
    expect(found("huaman").blacklist).toEqual(["José Huamán"]);
    expect(found("almacen").blacklist).toEqual(["José Huamán"]);
    expect(found("coccion").properties).toEqual(["Horno eléctrico"]);
    expect(found("naupari").diners).toEqual(["María Ñaupari"]);
  });

  test("a row written without its copies is found all the same, and filling writes them", () => {
    rowsByTheDomain();
    for (const { column, folded } of FOLDED_COPIES)
      db.run(sql`UPDATE ${column.table} SET ${sql.identifier(folded.name)} = NULL`);
    expect(copies().every((row) => row.folded === null)).toBe(true);
    expect(found("nandu").dealerships).toEqual(["Minería Ñandú"]);
    expect(found("huaman").blacklist).toEqual(["José Huamán"]);
    expect(found("coccion").properties).toEqual(["Horno eléctrico"]);
    expect(found("MARIA").diners).toEqual(["María Ñaupari"]);

    expect(fillFoldedCopies(db)).toBe(FOLDED_COPIES.length);
    for (const row of copies()) expect(row.folded).toBe(foldText(row.text));
    expect(fillFoldedCopies(db)).toBe(0);
  });

  test("a text changed without its copy forgets the copy: the new text is found, the old one no longer", () => {
    rowsByTheDomain();
    db.run(sql`UPDATE ${dealerships} SET name = 'Compañía Perú'`);
    db.run(sql`UPDATE ${subdealerships} SET name = 'Transportes Ñaña'`);
    db.run(sql`UPDATE ${blacklist} SET name = 'Rosa Quispe', reason = 'Daño al comedor'`);
    db.run(sql`UPDATE ${properties} SET name = 'Campana extractora', category = 'Ventilación'`);
    db.run(sql`UPDATE ${diners} SET name = 'Óscar Peña'`);
    expect(copies().every((row) => row.folded === null)).toBe(true);
    expect(found("nandu")).toEqual({ blacklist: [], dealerships: [], subdealerships: [], properties: [], diners: [] });
    expect(found("naupari").diners).toEqual([]);
    expect(found("oscar pena").diners).toEqual(["Óscar Peña"]);
    expect(found("huaman").blacklist).toEqual([]);
    expect(found("peru").dealerships).toEqual(["Compañía Perú"]);
    expect(found("nana").subdealerships).toEqual(["Transportes Ñaña"]);
    expect(found("dano").blacklist).toEqual(["Rosa Quispe"]);
    expect(found("ventilacion").properties).toEqual(["Campana extractora"]);
    fillFoldedCopies(db);
    for (const row of copies()) expect(row.folded).toBe(foldText(row.text));
  });

  test("a change that writes the text with its copy keeps the copy", () => {
    rowsByTheDomain();
    db.run(sql`UPDATE ${dealerships} SET name = 'Compañía Perú', name_folded = 'compania peru'`);
    expect(db.select().from(dealerships).get()!.nameFolded).toBe("compania peru");
  });

  test("every copy has the trigger that forgets it", () => {
    const triggers = db
      .all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'trigger'`)
      .map((t) => t.name);
    for (const { column } of FOLDED_COPIES)
      expect(triggers).toContain(`${getTableName(column.table)}_${column.name}_folded_stale`);
  });
});
