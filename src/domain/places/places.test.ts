/**
 * Mines, units and cafes in the domain: names unique within their parent, the management modal's one-go creation
 * (find or create the mine, then the unit, then the cafe), business and time zone rules, the deletion guards with
 * the counts they name, the audit trail, and what an actor limited to some cafes sees and may do.
 *
 * The world: Mina Norte → Unidad A → Comedor A1, Comedor A2; Mina Norte → Unidad B → Comedor B1;
 * Mina Sur → Unidad A → Comedor S1. Cafes A1, A2 and B1 issue for Catering Norte, S1 for Catering Sur.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  auditLog,
  businesses,
  cafes,
  cafeServices,
  dealerships,
  mines,
  properties,
  servicePriceHistory,
  subdealerships,
  subdealershipUnits,
  units,
} from "../../../db/schema";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { createArea } from "../access/areas";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, NotFound } from "../errors";
import { type Message } from "../../shared/message";
import { errorsOf as fieldErrors } from "../../../tests/support/errors";
import {
  createPlace,
  deleteCafe,
  deleteMine,
  deleteUnit,
  exportCafes,
  listCafes,
  listMines,
  listUnits,
  searchMines,
  searchUnits,
  updateCafe,
  updateMine,
  updateUnit,
} from "./places";
import { businessOptions } from "../organisation/businesses";
import { setCafePrices } from "./prices";
import { offerService } from "./service-assignments";
import { createService } from "./services";

const ACTOR: Actor = { userId: null, label: "places-test" };
const DEFAULTS = { timeZone: "America/Lima" };
const PAGE = { page: 1, perPage: 50 };

interface World {
  db: Db;
  norte: number;
  sur: number;
  mineNorte: number;
  mineSur: number;
  unitA: number;
  unitB: number;
  unitSurA: number;
  cafeA1: number;
  cafeA2: number;
  cafeB1: number;
  cafeS1: number;
}

function buildWorld(): World {
  const db = migratedDatabase();
  const norte = db.insert(businesses).values({ name: "Catering Norte" }).returning().get().id;
  const sur = db.insert(businesses).values({ name: "Catering Sur" }).returning().get().id;
  const a1 = createPlace(
    db,
    ACTOR,
    EVERYTHING,
    { mine_name: "Mina Norte", unit_name: "Unidad A", cafe_name: "Comedor A1", business_id: norte },
    DEFAULTS,
  );
  const a2 = createPlace(
    db,
    ACTOR,
    EVERYTHING,
    { mine_id: a1.mine.id, unit_id: a1.unit!.id, cafe_name: "Comedor A2", business_id: norte },
    DEFAULTS,
  );
  const b1 = createPlace(
    db,
    ACTOR,
    EVERYTHING,
    { mine_id: a1.mine.id, unit_name: "Unidad B", cafe_name: "Comedor B1", business_id: norte },
    DEFAULTS,
  );
  const s1 = createPlace(
    db,
    ACTOR,
    EVERYTHING,
    { mine_name: "Mina Sur", unit_name: "Unidad A", cafe_name: "Comedor S1", business_id: sur },
    DEFAULTS,
  );
  return {
    db,
    norte,
    sur,
    mineNorte: a1.mine.id,
    mineSur: s1.mine.id,
    unitA: a1.unit!.id,
    unitB: b1.unit!.id,
    unitSurA: s1.unit!.id,
    cafeA1: a1.cafe!.id,
    cafeA2: a2.cafe!.id,
    cafeB1: b1.cafe!.id,
    cafeS1: s1.cafe!.id,
  };
}

/** An actor reaching only the given cafes, and able to create cafes for the given businesses. */
function limited(cafeIds: number[], businessIds: number[] = []): Scope {
  return { all: false, cafeIds: new Set(cafeIds), headquartersIds: new Set(), businessIds: new Set(businessIds) };
}

/** The message a call is refused with as a Conflict. */
function conflict(run: () => unknown): Message {
  try {
    run();
  } catch (error) {
    if (error instanceof Conflict) return error.detail;
    throw error;
  }
  throw new Error("expected Conflict, the call succeeded");
}

const count = (db: Db, table: typeof mines | typeof units | typeof cafes) => db.select().from(table).all().length;
const auditOf = (db: Db, action: string) => db.select().from(auditLog).where(eq(auditLog.action, action)).all();

describe("names are unique within their parent", () => {
  test("the same unit name in two mines is fine; twice in one mine is refused on the field", () => {
    const w = buildWorld();
    // Unidad A exists in Mina Norte and in Mina Sur.
    expect(listUnits(w.db, EVERYTHING, "Unidad A", PAGE).rows.map((u) => `${u.mineName} › ${u.name}`)).toEqual([
      "Mina Norte › Unidad A",
      "Mina Sur › Unidad A",
    ]);

    const units0 = count(w.db, units);
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, EVERYTHING, { mine_id: w.mineNorte, unit_name: "Unidad A" }, DEFAULTS),
      ),
    ).toEqual({
      unit_name: { key: "places.unit_taken", params: { name: "Unidad A" } },
    });
    expect(fieldErrors(() => updateUnit(w.db, ACTOR, EVERYTHING, w.unitB, { name: "Unidad A" }))).toEqual({
      name: { key: "places.unit_taken", params: { name: "Unidad A" } },
    });
    expect(count(w.db, units)).toBe(units0);
    // Keeping its own name is no clash.
    expect(updateUnit(w.db, ACTOR, EVERYTHING, w.unitB, { name: "Unidad B" }).name).toBe("Unidad B");
  });

  test("a mine name is unique; a cafe name is unique within its unit but may repeat in another unit", () => {
    const w = buildWorld();
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "Mina Sur", unit_name: "Unidad Z" }, DEFAULTS),
      ),
    ).toEqual({
      mine_name: { key: "places.mine_taken", params: { name: "Mina Sur" } },
    });
    expect(fieldErrors(() => updateMine(w.db, ACTOR, EVERYTHING, w.mineNorte, { name: "Mina Sur" }))).toEqual({
      name: { key: "places.mine_taken", params: { name: "Mina Sur" } },
    });
    expect(
      fieldErrors(() =>
        createPlace(
          w.db,
          ACTOR,
          EVERYTHING,
          { mine_id: w.mineNorte, unit_id: w.unitA, cafe_name: "Comedor A2", business_id: w.norte },
          DEFAULTS,
        ),
      ),
    ).toEqual({
      cafe_name: { key: "places.cafe_taken", params: { name: "Comedor A2" } },
    });
    expect(
      fieldErrors(() =>
        updateCafe(w.db, ACTOR, EVERYTHING, w.cafeA1, { name: "Comedor A2", business_id: w.norte }, DEFAULTS),
      ),
    ).toEqual({
      name: { key: "places.cafe_taken", params: { name: "Comedor A2" } },
    });
    // Comedor A2 in Unidad B is another cafe.
    const other = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      { mine_id: w.mineNorte, unit_id: w.unitB, cafe_name: "Comedor A2", business_id: w.norte },
      DEFAULTS,
    );
    expect(other.cafe?.name).toBe("Comedor A2");
    expect(count(w.db, mines)).toBe(2);
    expect(count(w.db, cafes)).toBe(5);
  });

  test("names differing only in case are the same name", () => {
    const w = buildWorld();
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "MINA SUR", unit_name: "Unidad Z" }, DEFAULTS),
      ),
    ).toEqual({
      mine_name: { key: "places.mine_taken", params: { name: "MINA SUR" } },
    });
    expect(fieldErrors(() => updateUnit(w.db, ACTOR, EVERYTHING, w.unitB, { name: "unidad a" }))).toEqual({
      name: { key: "places.unit_taken", params: { name: "unidad a" } },
    });
    expect(
      fieldErrors(() =>
        updateCafe(w.db, ACTOR, EVERYTHING, w.cafeA1, { name: "COMEDOR a2", business_id: w.norte }, DEFAULTS),
      ),
    ).toEqual({
      name: { key: "places.cafe_taken", params: { name: "COMEDOR a2" } },
    });
    // Spacing does not make another name either, and names are stored with single spaces.
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "Mina   Sur", unit_name: "Unidad Z" }, DEFAULTS),
      ),
    ).toHaveProperty("mine_name");
    expect(updateUnit(w.db, ACTOR, EVERYTHING, w.unitB, { name: "Unidad   Bravo" }).name).toBe("Unidad Bravo");
    // A place may change the case of its own name.
    expect(updateMine(w.db, ACTOR, EVERYTHING, w.mineSur, { name: "MINA SUR" }).name).toBe("MINA SUR");
  });

  test("two places saved before names ignored case can still be edited without renaming", () => {
    const w = buildWorld();
    const twin = w.db
      .insert(cafes)
      .values({ unitId: w.unitA, name: "COMEDOR A1", businessId: w.norte, timeZone: "America/Lima" })
      .returning()
      .get();
    expect(
      updateCafe(w.db, ACTOR, EVERYTHING, twin.id, { name: "COMEDOR A1", business_id: w.sur }, DEFAULTS).businessId,
    ).toBe(w.sur);
    expect(
      updateCafe(
        w.db,
        ACTOR,
        EVERYTHING,
        w.cafeA1,
        { name: "Comedor A1", business_id: w.norte, time_zone: "America/Bogota" },
        DEFAULTS,
      ).timeZone,
    ).toBe("America/Bogota");
    // Renaming one apart settles it.
    expect(
      updateCafe(w.db, ACTOR, EVERYTHING, twin.id, { name: "Comedor A1 Anexo", business_id: w.sur }, DEFAULTS).name,
    ).toBe("Comedor A1 Anexo");
  });

  test("names are trimmed and need at least two characters", () => {
    const w = buildWorld();
    const created = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      { mine_name: "  Mina Este  ", unit_name: " Unidad 1 ", cafe_name: " Comedor 1 ", business_id: w.sur },
      DEFAULTS,
    );
    expect([created.mine.name, created.unit?.name, created.cafe?.name]).toEqual(["Mina Este", "Unidad 1", "Comedor 1"]);
    expect(fieldErrors(() => createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "   " }, DEFAULTS))).toEqual({
      mine_name: { key: "validation.required", params: undefined },
    });
    expect(fieldErrors(() => createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "M" }, DEFAULTS))).toEqual({
      mine_name: { key: "validation.min_length", params: { min: 2 } },
    });
    expect(fieldErrors(() => updateMine(w.db, ACTOR, EVERYTHING, w.mineSur, { name: "" }))).toHaveProperty("name");
  });
});

describe("createPlace: the management modal", () => {
  test("reports every field's problem at once, and creates nothing", () => {
    const w = buildWorld();
    const before = count(w.db, mines);
    expect(
      fieldErrors(() =>
        createPlace(
          w.db,
          ACTOR,
          EVERYTHING,
          { mine_name: "M", unit_name: "Unidad Pampa", cafe_name: "Comedor Pampa", time_zone: "Mars/Olympus" },
          DEFAULTS,
        ),
      ),
    ).toEqual({
      mine_name: { key: "validation.min_length", params: { min: 2 } },
      business_id: { key: "validation.required", params: undefined },
      time_zone: { key: "places.time_zone_invalid", params: { zone: "Mars/Olympus" } },
    });
    expect(count(w.db, mines)).toBe(before);
  });

  test("creates mine, unit and cafe in one go, each audited, with the time zone given", () => {
    const w = buildWorld();
    const before = count(w.db, mines);
    const created = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      {
        mine_name: "Mina Oeste",
        unit_name: "Unidad Pampa",
        cafe_name: "Comedor Pampa",
        business_id: w.sur,
        time_zone: "America/Bogota",
      },
      DEFAULTS,
    );
    expect(created).toMatchObject({
      mine: { name: "Mina Oeste", created: true },
      unit: { name: "Unidad Pampa", created: true },
      cafe: { name: "Comedor Pampa" },
    });
    expect(count(w.db, mines)).toBe(before + 1);
    const cafe = w.db.select().from(cafes).where(eq(cafes.id, created.cafe!.id)).get()!;
    expect(cafe).toMatchObject({ unitId: created.unit!.id, businessId: w.sur, timeZone: "America/Bogota" });
    expect(w.db.select().from(units).where(eq(units.id, created.unit!.id)).get()!.mineId).toBe(created.mine.id);

    const [mineAudit] = auditOf(w.db, "mine.created").filter((a) => a.subjectId === created.mine.id);
    const [unitAudit] = auditOf(w.db, "unit.created").filter((a) => a.subjectId === created.unit!.id);
    const [cafeAudit] = auditOf(w.db, "cafe.created").filter((a) => a.subjectId === created.cafe!.id);
    expect(mineAudit).toMatchObject({ actorLabel: "places-test", subjectType: "mine" });
    expect(JSON.parse(unitAudit.after!)).toEqual({ mine: "Mina Oeste", name: "Unidad Pampa" });
    expect(JSON.parse(cafeAudit.after!)).toEqual({
      mine: "Mina Oeste",
      unit: "Unidad Pampa",
      name: "Comedor Pampa",
      business: "Catering Sur",
      timeZone: "America/Bogota",
    });
  });

  test("reuses an existing mine and unit instead of creating new ones", () => {
    const w = buildWorld();
    const [minesBefore, unitsBefore] = [count(w.db, mines), count(w.db, units)];
    const inUnit = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      { mine_id: w.mineSur, unit_id: w.unitSurA, cafe_name: "Comedor S2", business_id: w.sur },
      DEFAULTS,
    );
    expect(inUnit).toMatchObject({
      mine: { id: w.mineSur, name: "Mina Sur", created: false },
      unit: { id: w.unitSurA, name: "Unidad A", created: false },
    });
    const inMine = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      { mine_id: w.mineSur, unit_name: "Unidad C", cafe_name: "Comedor C1", business_id: w.sur },
      DEFAULTS,
    );
    expect(inMine).toMatchObject({
      mine: { id: w.mineSur, created: false },
      unit: { name: "Unidad C", created: true },
    });
    expect(count(w.db, mines)).toBe(minesBefore);
    expect(count(w.db, units)).toBe(unitsBefore + 1);
    expect(listCafes(w.db, EVERYTHING, "Mina Sur", PAGE).rows.map((c) => `${c.unitName} › ${c.name}`)).toEqual([
      "Unidad A › Comedor S1",
      "Unidad A › Comedor S2",
      "Unidad C › Comedor C1",
    ]);
    // No mine.created for Mina Sur a second time.
    expect(auditOf(w.db, "mine.created").filter((a) => a.subjectId === w.mineSur)).toHaveLength(1);
  });

  test("a super-administrator may create just a mine, or a mine and a unit, without a cafe", () => {
    const w = buildWorld();
    const mine = createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "Mina Vacía" }, DEFAULTS);
    expect(mine).toMatchObject({ mine: { name: "Mina Vacía", created: true }, unit: null, cafe: null });
    const unit = createPlace(w.db, ACTOR, EVERYTHING, { mine_id: mine.mine.id, unit_name: "Unidad Vacía" }, DEFAULTS);
    expect(unit).toMatchObject({ unit: { name: "Unidad Vacía", created: true }, cafe: null });
    expect(listUnits(w.db, EVERYTHING, "Vacía", PAGE).rows.map((u) => [u.mineName, u.name, u.cafes])).toEqual([
      ["Mina Vacía", "Unidad Vacía", 0],
    ]);
    expect(listCafes(w.db, EVERYTHING, "Vacía", PAGE).total).toBe(0);
  });

  test("refuses a cafe without a business, a bad time zone, a business outside the scope, a unit of another mine; nothing is created", () => {
    const w = buildWorld();
    const snapshot = () => [
      count(w.db, mines),
      count(w.db, units),
      count(w.db, cafes),
      w.db.select().from(auditLog).all().length,
    ];
    const before = snapshot();
    const place = { mine_name: "Mina Nueva", unit_name: "Unidad Nueva", cafe_name: "Comedor Nuevo" };
    expect(fieldErrors(() => createPlace(w.db, ACTOR, EVERYTHING, place, DEFAULTS))).toEqual({
      business_id: { key: "validation.required", params: undefined },
    });
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, EVERYTHING, { ...place, business_id: w.norte, time_zone: "Mars/Olympus" }, DEFAULTS),
      ),
    ).toEqual({
      time_zone: { key: "places.time_zone_invalid", params: { zone: "Mars/Olympus" } },
    });
    expect(fieldErrors(() => createPlace(w.db, ACTOR, EVERYTHING, { ...place, business_id: 9999 }, DEFAULTS))).toEqual({
      business_id: { key: "places.business_unknown", params: undefined },
    });
    // A limited actor reaching cafe A1 and able to create for Catering Norte only: Catering Sur is outside.
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, limited([w.cafeA1], [w.norte]), { ...place, business_id: w.sur }, DEFAULTS),
      ),
    ).toEqual({
      business_id: { key: "places.business_unknown", params: undefined },
    });
    expect(
      fieldErrors(() =>
        createPlace(
          w.db,
          ACTOR,
          EVERYTHING,
          { mine_id: w.mineSur, unit_id: w.unitA, cafe_name: "Comedor X", business_id: w.norte },
          DEFAULTS,
        ),
      ),
    ).toEqual({
      unit_id: { key: "places.unit_not_in_mine", params: undefined },
    });
    // Choosing an existing mine and unit without naming a cafe would create nothing.
    expect(
      fieldErrors(() => createPlace(w.db, ACTOR, EVERYTHING, { mine_id: w.mineNorte, unit_id: w.unitA }, DEFAULTS)),
    ).toEqual({
      cafe_name: { key: "validation.required", params: undefined },
    });
    // A cafe needs a unit.
    expect(
      fieldErrors(() =>
        createPlace(
          w.db,
          ACTOR,
          EVERYTHING,
          { mine_name: "Mina Nueva", cafe_name: "Comedor Nuevo", business_id: w.norte },
          DEFAULTS,
        ),
      ),
    ).toEqual({
      unit_name: { key: "validation.required", params: undefined },
    });
    expect(snapshot()).toEqual(before);
  });

  test("the cafe's time zone defaults to the given default when none or a blank one is chosen", () => {
    const w = buildWorld();
    const none = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      { mine_id: w.mineSur, unit_id: w.unitSurA, cafe_name: "Comedor TZ1", business_id: w.sur },
      { timeZone: "America/Santiago" },
    );
    const blank = createPlace(
      w.db,
      ACTOR,
      EVERYTHING,
      { mine_id: w.mineSur, unit_id: w.unitSurA, cafe_name: "Comedor TZ2", business_id: w.sur, time_zone: "  " },
      { timeZone: "America/La_Paz" },
    );
    const zone = (id: number) => w.db.select().from(cafes).where(eq(cafes.id, id)).get()!.timeZone;
    expect(zone(none.cafe!.id)).toBe("America/Santiago");
    expect(zone(blank.cafe!.id)).toBe("America/La_Paz");
    // Editing sets the zone; a bad one is refused.
    updateCafe(
      w.db,
      ACTOR,
      EVERYTHING,
      none.cafe!.id,
      { name: "Comedor TZ1", business_id: w.sur, time_zone: "America/Bogota" },
      DEFAULTS,
    );
    expect(zone(none.cafe!.id)).toBe("America/Bogota");
    // Leaving the zone out keeps it; a blank one goes back to the default.
    updateCafe(w.db, ACTOR, EVERYTHING, none.cafe!.id, { name: "Comedor TZ1", business_id: w.sur }, DEFAULTS);
    expect(zone(none.cafe!.id)).toBe("America/Bogota");
    updateCafe(
      w.db,
      ACTOR,
      EVERYTHING,
      none.cafe!.id,
      { name: "Comedor TZ1", business_id: w.sur, time_zone: "" },
      DEFAULTS,
    );
    expect(zone(none.cafe!.id)).toBe("America/Lima");
    expect(
      fieldErrors(() =>
        updateCafe(
          w.db,
          ACTOR,
          EVERYTHING,
          none.cafe!.id,
          { name: "Comedor TZ1", business_id: w.sur, time_zone: "Lima" },
          DEFAULTS,
        ),
      ),
    ).toEqual({
      time_zone: { key: "places.time_zone_invalid", params: { zone: "Lima" } },
    });
  });
});

describe("edits", () => {
  test("renaming a mine, a unit and a cafe (with another business) is saved and audited with before and after", () => {
    const w = buildWorld();
    updateMine(w.db, ACTOR, EVERYTHING, w.mineNorte, { name: "Mina Norte Alta" });
    updateUnit(w.db, ACTOR, EVERYTHING, w.unitB, { name: "Unidad Bravo" });
    updateCafe(w.db, ACTOR, EVERYTHING, w.cafeB1, { name: "Comedor Bravo", business_id: w.sur }, DEFAULTS);
    const row = listCafes(w.db, EVERYTHING, "Bravo", PAGE).rows;
    expect(row.map((c) => [c.mineName, c.unitName, c.name, c.businessName])).toEqual([
      ["Mina Norte Alta", "Unidad Bravo", "Comedor Bravo", "Catering Sur"],
    ]);
    const [mine] = auditOf(w.db, "mine.updated");
    expect([JSON.parse(mine.before!), JSON.parse(mine.after!)]).toEqual([
      { name: "Mina Norte" },
      { name: "Mina Norte Alta" },
    ]);
    const [cafe] = auditOf(w.db, "cafe.updated");
    expect(JSON.parse(cafe.before!)).toEqual({ name: "Comedor B1", businessId: w.norte, timeZone: "America/Lima" });
    expect(JSON.parse(cafe.after!)).toEqual({ name: "Comedor Bravo", businessId: w.sur, timeZone: "America/Lima" });
    expect(auditOf(w.db, "unit.updated")).toHaveLength(1);
  });
});

describe("deletion guards", () => {
  test("a mine with units is refused, naming the count; once empty it is deleted with its services", () => {
    const w = buildWorld();
    expect(conflict(() => deleteMine(w.db, ACTOR, EVERYTHING, w.mineNorte))).toEqual({
      key: "places.mine_in_use",
      params: { name: "Mina Norte", units: 2 },
    });
    expect(count(w.db, mines)).toBe(2);

    const lone = createPlace(w.db, ACTOR, EVERYTHING, { mine_name: "Mina Sola", unit_name: "Unidad Sola" }, DEFAULTS);
    const service = createService(w.db, ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
    offerService(w.db, "mine", lone.mine.id, service);
    offerService(w.db, "unit", lone.unit!.id, service);
    expect(conflict(() => deleteMine(w.db, ACTOR, EVERYTHING, lone.mine.id))).toEqual({
      key: "places.mine_in_use",
      params: { name: "Mina Sola", units: 1 },
    });
    deleteUnit(w.db, ACTOR, EVERYTHING, lone.unit!.id);
    deleteMine(w.db, ACTOR, EVERYTHING, lone.mine.id);
    expect(w.db.select().from(mines).where(eq(mines.id, lone.mine.id)).get()).toBeUndefined();
    const [audit] = auditOf(w.db, "mine.deleted");
    expect(audit).toMatchObject({ subjectType: "mine", subjectId: lone.mine.id, actorLabel: "places-test" });
    expect(JSON.parse(audit.before!)).toEqual({ name: "Mina Sola" });
    expect(auditOf(w.db, "unit.deleted")).toHaveLength(1);
  });

  test("a unit with cafes or a subdealership working there is refused, naming both counts", () => {
    const w = buildWorld();
    expect(conflict(() => deleteUnit(w.db, ACTOR, EVERYTHING, w.unitA))).toEqual({
      key: "places.unit_in_use",
      params: { name: "Unidad A", cafes: 2, subdealerships: 0 },
    });

    const now = new Date();
    const dealership = w.db
      .insert(dealerships)
      .values({ name: "Transportes Andinos S.A.", ruc: "20123456789", createdAt: now, updatedAt: now })
      .returning()
      .get().id;
    const sub = (name: string, ruc: string) =>
      w.db
        .insert(subdealerships)
        .values({ dealershipId: dealership, name, ruc, createdAt: now, updatedAt: now })
        .returning()
        .get().id;
    const empty = createPlace(w.db, ACTOR, EVERYTHING, { mine_id: w.mineSur, unit_name: "Unidad Taller" }, DEFAULTS)
      .unit!.id;
    const s1 = sub("Volquetes Sur", "20111111111");
    const s2 = sub("Grúas Sur", "20222222222");
    w.db
      .insert(subdealershipUnits)
      .values([
        { subdealershipId: s1, unitId: empty },
        { subdealershipId: s2, unitId: empty },
        { subdealershipId: s1, unitId: w.unitA },
      ])
      .run();

    expect(conflict(() => deleteUnit(w.db, ACTOR, EVERYTHING, empty))).toEqual({
      key: "places.unit_in_use",
      params: { name: "Unidad Taller", cafes: 0, subdealerships: 2 },
    });
    expect(conflict(() => deleteUnit(w.db, ACTOR, EVERYTHING, w.unitA))).toEqual({
      key: "places.unit_in_use",
      params: { name: "Unidad A", cafes: 2, subdealerships: 1 },
    });
    expect(listUnits(w.db, EVERYTHING, "Taller", PAGE).rows[0]).toMatchObject({
      name: "Unidad Taller",
      cafes: 0,
      subdealerships: 2,
    });
    expect(auditOf(w.db, "unit.deleted")).toEqual([]);

    w.db.delete(subdealershipUnits).where(eq(subdealershipUnits.unitId, empty)).run();
    deleteUnit(w.db, ACTOR, EVERYTHING, empty);
    expect(w.db.select().from(units).where(eq(units.id, empty)).get()).toBeUndefined();
    expect(auditOf(w.db, "unit.deleted").map((a) => a.subjectId)).toEqual([empty]);
  });

  test("a cafe with an area or a property is refused, naming both counts; once empty its services and prices go with it", () => {
    const w = buildWorld();
    const area = createArea(w.db, ACTOR, EVERYTHING, { name: "Caja", cafe_id: w.cafeA1 });
    const now = new Date();
    w.db
      .insert(properties)
      .values([
        {
          code: "PR-1",
          name: "Cocina industrial",
          category: "Cocina",
          cafeId: w.cafeA1,
          status: "in_use",
          createdAt: now,
          updatedAt: now,
        },
        {
          code: "PR-2",
          name: "Congeladora",
          category: "Frío",
          cafeId: w.cafeA1,
          status: "in_use",
          createdAt: now,
          updatedAt: now,
        },
      ])
      .run();
    expect(conflict(() => deleteCafe(w.db, ACTOR, EVERYTHING, w.cafeA1))).toEqual({
      key: "places.cafe_in_use",
      params: { name: "Comedor A1", areas: 1, properties: 2 },
    });

    // A property alone blocks too.
    w.db
      .insert(properties)
      .values({
        code: "PR-3",
        name: "Balanza",
        category: "Pesaje",
        cafeId: w.cafeA2,
        status: "in_storage",
        createdAt: now,
        updatedAt: now,
      })
      .run();
    expect(conflict(() => deleteCafe(w.db, ACTOR, EVERYTHING, w.cafeA2))).toEqual({
      key: "places.cafe_in_use",
      params: { name: "Comedor A2", areas: 0, properties: 1 },
    });
    expect(listCafes(w.db, EVERYTHING, "Comedor A1", PAGE).rows[0].areas).toBe(1);
    expect(count(w.db, cafes)).toBe(4);

    // Cafe B1 offers a service with a price and a price history: deleting it takes them along.
    const service = createService(w.db, ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
    offerService(w.db, "mine", w.mineNorte, service);
    offerService(w.db, "unit", w.unitB, service);
    offerService(w.db, "cafe", w.cafeB1, service);
    setCafePrices(w.db, ACTOR, EVERYTHING, w.cafeB1, { prices: [{ service_id: service, price: "18.00" }] });
    expect(w.db.select().from(servicePriceHistory).where(eq(servicePriceHistory.cafeId, w.cafeB1)).all()).toHaveLength(
      1,
    );
    deleteCafe(w.db, ACTOR, EVERYTHING, w.cafeB1);
    expect(w.db.select().from(cafes).where(eq(cafes.id, w.cafeB1)).get()).toBeUndefined();
    expect(w.db.select().from(cafeServices).where(eq(cafeServices.cafeId, w.cafeB1)).all()).toEqual([]);
    expect(w.db.select().from(servicePriceHistory).where(eq(servicePriceHistory.cafeId, w.cafeB1)).all()).toEqual([]);
    const [audit] = auditOf(w.db, "cafe.deleted");
    expect(JSON.parse(audit.before!)).toEqual({
      name: "Comedor B1",
      unitId: w.unitB,
      businessId: w.norte,
      timeZone: "America/Lima",
    });
    // Its unit now holds no cafe and may go.
    deleteUnit(w.db, ACTOR, EVERYTHING, w.unitB);
    expect(listUnits(w.db, EVERYTHING, "", PAGE).rows.map((u) => u.name)).toEqual(["Unidad A", "Unidad A"]);
    expect(area.cafeId).toBe(w.cafeA1);
  });

  test("an unknown place is NotFound", () => {
    const w = buildWorld();
    expect(() => deleteMine(w.db, ACTOR, EVERYTHING, 9999)).toThrow(NotFound);
    expect(() => deleteUnit(w.db, ACTOR, EVERYTHING, 9999)).toThrow(NotFound);
    expect(() => deleteCafe(w.db, ACTOR, EVERYTHING, 9999)).toThrow(NotFound);
    expect(() => updateCafe(w.db, ACTOR, EVERYTHING, 9999, { name: "Nada", business_id: w.norte }, DEFAULTS)).toThrow(
      NotFound,
    );
  });
});

describe("lists", () => {
  test("tables are ordered, searched and paginated on the server, with their counts", () => {
    const w = buildWorld();
    expect(listMines(w.db, EVERYTHING, "", PAGE).rows.map((m) => [m.name, m.units, m.cafes])).toEqual([
      ["Mina Norte", 2, 3],
      ["Mina Sur", 1, 1],
    ]);
    // A unit is found by its mine's name; a cafe by its business's.
    expect(listUnits(w.db, EVERYTHING, "sur", PAGE).rows.map((u) => u.id)).toEqual([w.unitSurA]);
    expect(listCafes(w.db, EVERYTHING, "Catering Sur", PAGE).rows.map((c) => c.name)).toEqual(["Comedor S1"]);
    expect(listCafes(w.db, EVERYTHING, "unidad b", PAGE).rows.map((c) => c.name)).toEqual(["Comedor B1"]);
    const first = listCafes(w.db, EVERYTHING, "", { page: 1, perPage: 3 });
    const second = listCafes(w.db, EVERYTHING, "", { page: 2, perPage: 3 });
    expect(first.total).toBe(4);
    expect(first.rows.map((c) => c.name)).toEqual(["Comedor A1", "Comedor A2", "Comedor B1"]);
    expect(second.rows.map((c) => c.name)).toEqual(["Comedor S1"]);
    expect(exportCafes(w.db, EVERYTHING, "Comedor A").map((c) => c.name)).toEqual(["Comedor A1", "Comedor A2"]);
  });

  test("a mine's row counts its own units and cafes; a cafe's row counts its own areas", () => {
    const w = buildWorld();
    // Areas at cafes B1 and S1 (ids that differ from the areas' own ids), two at S1.
    createArea(w.db, ACTOR, EVERYTHING, { name: "Caja", cafe_id: w.cafeB1 });
    createArea(w.db, ACTOR, EVERYTHING, { name: "Caja", cafe_id: w.cafeS1 });
    createArea(w.db, ACTOR, EVERYTHING, { name: "Cocina", cafe_id: w.cafeS1 });
    expect(listCafes(w.db, EVERYTHING, "", PAGE).rows.map((c) => [c.name, c.areas])).toEqual([
      ["Comedor A1", 0],
      ["Comedor A2", 0],
      ["Comedor B1", 1],
      ["Comedor S1", 2],
    ]);
    createPlace(w.db, ACTOR, EVERYTHING, { mine_id: w.mineSur, unit_name: "Unidad Sin Comedor" }, DEFAULTS);
    expect(listMines(w.db, EVERYTHING, "", PAGE).rows.map((m) => [m.name, m.units, m.cafes])).toEqual([
      ["Mina Norte", 2, 3],
      ["Mina Sur", 2, 1],
    ]);
  });

  test("a unit's and a cafe's row carry the services their parent offers, and the priced count", () => {
    const w = buildWorld();
    const des = createService(w.db, ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
    const alm = createService(w.db, ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
    for (const s of [des, alm]) offerService(w.db, "mine", w.mineNorte, s);
    offerService(w.db, "unit", w.unitA, des);
    offerService(w.db, "cafe", w.cafeA1, des);
    setCafePrices(w.db, ACTOR, EVERYTHING, w.cafeA1, { prices: [{ service_id: des, price: "12.50" }] });
    const unit = listUnits(w.db, EVERYTHING, "Mina Norte", PAGE).rows.find((u) => u.id === w.unitA)!;
    expect([unit.serviceIds, [...unit.parentServiceIds].sort()]).toEqual([[des], [des, alm].sort()]);
    const cafe = listCafes(w.db, EVERYTHING, "Comedor A1", PAGE).rows[0];
    expect(cafe).toMatchObject({ serviceIds: [des], parentServiceIds: [des], priced: 1 });
  });
});

describe("an actor limited to some cafes", () => {
  test("a manager of one mine sees only its places, and the modal's searches stay within it", () => {
    const w = buildWorld();
    const scope = limited([w.cafeA1, w.cafeA2, w.cafeB1]);
    expect(listMines(w.db, scope, "", PAGE).rows.map((m) => m.name)).toEqual(["Mina Norte"]);
    expect(listUnits(w.db, scope, "", PAGE).rows.map((u) => u.id)).toEqual([w.unitA, w.unitB]);
    expect(listUnits(w.db, scope, "Unidad A", PAGE).total).toBe(1);
    expect(listCafes(w.db, scope, "", PAGE).rows.map((c) => c.name)).toEqual([
      "Comedor A1",
      "Comedor A2",
      "Comedor B1",
    ]);
    expect(listCafes(w.db, scope, "Comedor S1", PAGE).total).toBe(0);
    expect(exportCafes(w.db, scope, "").map((c) => c.id)).not.toContain(w.cafeS1);
    const named = (options: { id: number; name: string }[]) => options.map(({ id, name }) => ({ id, name }));
    expect(named(searchMines(w.db, scope, "Mina"))).toEqual([{ id: w.mineNorte, name: "Mina Norte" }]);
    expect(searchUnits(w.db, scope, w.mineSur, "")).toEqual([]);
    expect(named(searchUnits(w.db, scope, w.mineNorte, ""))).toEqual([
      { id: w.unitA, name: "Unidad A" },
      { id: w.unitB, name: "Unidad B" },
    ]);

    // A manager of cafe A1 alone: only Unidad A of Mina Norte.
    const one = limited([w.cafeA1]);
    expect(listUnits(w.db, one, "", PAGE).rows.map((u) => u.id)).toEqual([w.unitA]);
    expect(listCafes(w.db, one, "", PAGE).rows.map((c) => c.id)).toEqual([w.cafeA1]);
    // Its counts are of what it reaches: the mine shows 1 unit and 1 cafe, the unit 1 cafe.
    expect(listMines(w.db, one, "", PAGE).rows.map(({ units, cafes }) => ({ units, cafes }))).toEqual([
      { units: 1, cafes: 1 },
    ]);
    expect(listUnits(w.db, one, "", PAGE).rows[0].cafes).toBe(1);
    // Nothing at all for an actor without cafes.
    expect(listMines(w.db, limited([]), "", PAGE).total).toBe(0);
    expect(listUnits(w.db, limited([]), "", PAGE).total).toBe(0);
    expect(listCafes(w.db, limited([]), "", PAGE).total).toBe(0);
  });

  test("places outside the scope look missing: NotFound for edits, deletes and the modal, nothing changes", () => {
    const w = buildWorld();
    const scope = limited([w.cafeA1, w.cafeA2, w.cafeB1], [w.norte]);
    const auditBefore = w.db.select().from(auditLog).all().length;
    expect(() => updateMine(w.db, ACTOR, scope, w.mineSur, { name: "Mina Sur 2" })).toThrow(NotFound);
    expect(() => updateUnit(w.db, ACTOR, scope, w.unitSurA, { name: "Unidad Z" })).toThrow(NotFound);
    expect(() =>
      updateCafe(w.db, ACTOR, scope, w.cafeS1, { name: "Comedor Z", business_id: w.norte }, DEFAULTS),
    ).toThrow(NotFound);
    expect(() => deleteMine(w.db, ACTOR, scope, w.mineSur)).toThrow(NotFound);
    expect(() => deleteUnit(w.db, ACTOR, scope, w.unitSurA)).toThrow(NotFound);
    expect(() => deleteCafe(w.db, ACTOR, scope, w.cafeS1)).toThrow(NotFound);
    expect(() =>
      createPlace(
        w.db,
        ACTOR,
        scope,
        { mine_id: w.mineSur, unit_id: w.unitSurA, cafe_name: "Comedor Intruso", business_id: w.norte },
        DEFAULTS,
      ),
    ).toThrow(NotFound);
    // A cafe of their own mine in a unit they do not reach: also missing.
    const a1Only = limited([w.cafeA1], [w.norte]);
    expect(() =>
      createPlace(
        w.db,
        ACTOR,
        a1Only,
        { mine_id: w.mineNorte, unit_id: w.unitB, cafe_name: "Comedor Intruso", business_id: w.norte },
        DEFAULTS,
      ),
    ).toThrow(NotFound);
    expect(w.db.select().from(mines).where(eq(mines.id, w.mineSur)).get()!.name).toBe("Mina Sur");
    expect(listCafes(w.db, EVERYTHING, "Intruso", PAGE).total).toBe(0);
    expect(w.db.select().from(auditLog).all().length).toBe(auditBefore);
  });

  test("cannot create a mine or unit without a cafe; can create a cafe for a business of theirs", () => {
    const w = buildWorld();
    const scope = limited([w.cafeA1, w.cafeA2, w.cafeB1], [w.norte]);
    const before = [count(w.db, mines), count(w.db, units)];
    expect(fieldErrors(() => createPlace(w.db, ACTOR, scope, { mine_name: "Mina Propia" }, DEFAULTS))).toEqual({
      cafe_name: { key: "places.cafe_required", params: undefined },
    });
    expect(
      fieldErrors(() =>
        createPlace(w.db, ACTOR, scope, { mine_name: "Mina Propia", unit_name: "Unidad Propia" }, DEFAULTS),
      ),
    ).toEqual({
      cafe_name: { key: "places.cafe_required", params: undefined },
    });
    expect(
      fieldErrors(() =>
        createPlace(
          w.db,
          ACTOR,
          scope,
          { mine_id: w.mineNorte, unit_name: "Unidad Propia", cafe_name: "  " },
          DEFAULTS,
        ),
      ),
    ).toEqual({
      cafe_name: { key: "places.cafe_required", params: undefined },
    });
    expect([count(w.db, mines), count(w.db, units)]).toEqual(before);

    // With a cafe of Catering Norte: a new mine, unit and cafe, and a new unit in their mine.
    const created = createPlace(
      w.db,
      ACTOR,
      scope,
      { mine_name: "Mina Propia", unit_name: "Unidad Propia", cafe_name: "Comedor Propio", business_id: w.norte },
      DEFAULTS,
    );
    expect(created).toMatchObject({
      mine: { created: true },
      unit: { created: true },
      cafe: { name: "Comedor Propio" },
    });
    const inTheirMine = createPlace(
      w.db,
      ACTOR,
      scope,
      { mine_id: w.mineNorte, unit_name: "Unidad C", cafe_name: "Comedor C1", business_id: w.norte },
      DEFAULTS,
    );
    expect(inTheirMine).toMatchObject({
      mine: { id: w.mineNorte, created: false },
      unit: { name: "Unidad C", created: true },
    });
    expect(w.db.select().from(cafes).where(eq(cafes.id, inTheirMine.cafe!.id)).get()!.businessId).toBe(w.norte);
    // Only their businesses are offered as issuers.
    expect(businessOptions(w.db, scope)).toEqual([{ id: w.norte, name: "Catering Norte" }]);
    expect(businessOptions(w.db, EVERYTHING).map((b) => b.name)).toEqual(["Catering Norte", "Catering Sur"]);
  });

  test("keeping a cafe's business outside their businesses is allowed; choosing one outside is refused", () => {
    const w = buildWorld();
    // Reaches cafe B1 (Catering Norte) but may only create for Catering Sur.
    const scope = limited([w.cafeB1], [w.sur]);
    expect(
      updateCafe(w.db, ACTOR, scope, w.cafeB1, { name: "Comedor B1 bis", business_id: w.norte }, DEFAULTS).name,
    ).toBe("Comedor B1 bis");
    const onlyA1 = limited([w.cafeA1], []);
    expect(
      fieldErrors(() =>
        updateCafe(w.db, ACTOR, onlyA1, w.cafeA1, { name: "Comedor A1", business_id: w.sur }, DEFAULTS),
      ),
    ).toEqual({
      business_id: { key: "places.business_unknown", params: undefined },
    });
    expect(w.db.select().from(cafes).where(eq(cafes.id, w.cafeA1)).get()!.businessId).toBe(w.norte);
  });
});
