/**
 * Diners in the domain: what reads as a document, the point of sale's search (a document across every cafe, a name
 * within the scope, accents ignored, at most 8), the levels, registering and editing with the scope before and after
 * a move, the unique document, and the delete guard for a diner with sales.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, blacklist, diners, levels, users } from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { errorsOf } from "../../../tests/support/errors";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, NotFound } from "../errors";
import {
  createDiner,
  deleteDiner,
  findDinerByDocument,
  getDiner,
  listLevels,
  looksLikeDocument,
  searchDiners,
  SEARCH_LIMIT,
  updateDiner,
} from "./diners";
import { recordSale, voidSale } from "./sell";
import { dateIn } from "../../shared/calendar";

const SETTINGS = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const NOW = new Date("2026-11-24T15:00:00Z");
const ACTOR: Actor = { userId: 1, label: "caja@mesa.test" };

function setup() {
  const db = migratedDatabase();
  const w = posWorld(db);
  db.insert(users)
    .values({ id: 1, name: "Cajera", email: "caja@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW })
    .run();
  const only = (...cafeIds: number[]): Scope => ({
    all: false,
    cafeIds: new Set(cafeIds),
    headquartersIds: new Set(),
    businessIds: new Set(),
  });
  const input = (extra: Record<string, unknown> = {}) => ({
    name: "Teodoro Ccama",
    document_number: "45000001",
    subdealership_id: w.contrata,
    cafe_id: w.norte,
    ...extra,
  });
  return { db, w, only, input };
}

describe("what reads as a document", () => {
  test("letters and digits with at least five digits, spaces and dashes dropped", () => {
    for (const yes of ["40000001", "0400 0001", "4000-0001", "AB123456", "x12345", "001234567890"])
      expect({ yes, ok: looksLikeDocument(yes) }).toEqual({ yes, ok: true });
    for (const no of ["Ana", "Ana Quispe", "1234", "A1B2C3D4", "", "40000001!", "a".repeat(30), "1".repeat(21)])
      expect({ no, ok: looksLikeDocument(no) }).toEqual({ no, ok: false });
  });
});

describe("searching diners", () => {
  test("a document number is looked up in the unique index by type and number, not by scanning the diners", () => {
    const { db, w, only } = setup();
    const client = db.$client;
    const prepare = client.prepare.bind(client);
    const plans: string[] = [];
    (client as { prepare: unknown }).prepare = (text: string) => {
      const statement = prepare(text);
      if (/"visible_diners"\."document_number" = \?/.test(text))
        plans.push(
          client
            .query(`EXPLAIN QUERY PLAN ${text}`)
            .values(...(Array(statement.paramsCount).fill(null) as null[]))
            .map((row) => String(row.at(-1)))
            .join("; "),
        );
      return statement;
    };
    try {
      expect(searchDiners(db, only(w.norte), "40000003").map((d) => d.id)).toEqual([w.carla]);
    } finally {
      (client as { prepare: unknown }).prepare = prepare;
    }
    expect(plans).toHaveLength(1);
    expect(plans[0]).toContain(
      "SEARCH diners USING INDEX diners_document_unique (document_type=? AND document_number=?)",
    );
  });

  test("a document finds the diner in any cafe, whatever the scope", () => {
    const { db, w, only } = setup();
    expect(searchDiners(db, only(w.norte), "40000003").map((d) => d.id)).toEqual([w.carla]);
    expect(searchDiners(db, only(), "40000003").map((d) => d.id)).toEqual([w.carla]);
    expect(searchDiners(db, only(w.norte), " 4000-0003 ").map((d) => d.id)).toEqual([w.carla]);
    const carla = searchDiners(db, only(w.norte), "40000003")[0];
    expect(carla).toEqual({
      id: w.carla,
      name: "Carla Ñahui",
      documentType: "dni",
      documentNumber: "40000003",
      phone: "",
      active: true,
      cafeId: w.sur,
      cafeName: "Comedor Sur",
      cafePath: "Mina Toquepala › Unidad Central › Comedor Sur",
      subdealershipId: w.contrata,
      subdealershipName: "Contrata Uno",
      dealershipName: "Minera del Sur",
      levelId: null,
      levelName: null,
      barredReason: null,
    });
  });

  test("a name is searched within the scope, accents and case ignored; everywhere for an all-places scope", () => {
    const { db, w, only } = setup();
    expect(searchDiners(db, only(w.norte), "carla")).toEqual([]);
    expect(searchDiners(db, only(w.sur), "CARLA NAHUI").map((d) => d.id)).toEqual([w.carla]);
    expect(searchDiners(db, only(w.norte), "beto huaman").map((d) => d.id)).toEqual([w.beto]);
    expect(searchDiners(db, only(w.norte), "Huamán").map((d) => d.id)).toEqual([w.beto]);
    expect(searchDiners(db, EVERYTHING, "carla").map((d) => d.id)).toEqual([w.carla]);
    expect(searchDiners(db, only(w.norte, w.sur), "a").length).toBe(0);
    expect(searchDiners(db, only(w.norte), "").length).toBe(0);
    // A document nobody has falls back to the names (none match digits).
    expect(searchDiners(db, EVERYTHING, "49999999")).toEqual([]);
  });

  test("at most SEARCH_LIMIT, ordered by name", () => {
    const { db, w, input } = setup();
    for (let i = 11; i >= 0; i--)
      createDiner(
        db,
        ACTOR,
        EVERYTHING,
        input({ name: `Prueba ${i}`, document_number: String(47_000_000 + i) }),
        SETTINGS,
      );
    const found = searchDiners(db, EVERYTHING, "prueba");
    expect(SEARCH_LIMIT).toBe(8);
    expect(found.map((d) => d.name)).toEqual([
      "Prueba 0",
      "Prueba 1",
      "Prueba 10",
      "Prueba 11",
      "Prueba 2",
      "Prueba 3",
      "Prueba 4",
      "Prueba 5",
    ]);
    expect(searchDiners(db, { ...EVERYTHING, all: false, cafeIds: new Set([w.norte]) }, "prueba")).toHaveLength(8);
  });

  test("a barred document comes with the blacklist's reason", () => {
    const { db, w } = setup();
    db.insert(blacklist)
      .values({ documentType: "dni", documentNumber: "40000001", name: "Ana", reason: "Deuda", createdAt: NOW })
      .run();
    expect(searchDiners(db, EVERYTHING, "40000001")[0]).toMatchObject({ id: w.ana, barredReason: "Deuda" });
    expect(findDinerByDocument(db, { type: "dni", number: "40000001" })).toMatchObject({ barredReason: "Deuda" });
    expect(findDinerByDocument(db, { type: "ce", number: "40000001" })).toBeNull();
  });

  test("getDiner reaches only diners whose home cafe is in the scope", () => {
    const { db, w, only } = setup();
    expect(getDiner(db, only(w.norte), w.ana).name).toBe("Ana Quispe Mamani");
    expect(() => getDiner(db, only(w.norte), w.carla)).toThrow(NotFound);
    expect(() => getDiner(db, EVERYTHING, 999_999)).toThrow(NotFound);
  });

  test("the levels come in their order", () => {
    const { db } = setup();
    expect(listLevels(db).map((l) => l.name)).toEqual(["Master", "Staff", "Employee", "Laborer"]);
  });
});

describe("registering and editing diners", () => {
  test("a diner is registered with a normalized document and audited", () => {
    const { db, w, only, input } = setup();
    const level = db.select().from(levels).where(eq(levels.name, "Staff")).get()!.id;
    const diner = createDiner(
      db,
      ACTOR,
      only(w.norte),
      input({ name: "  Lía Ramos ", document_number: "4500-0001", level_id: level, phone: "987 654 321" }),
      SETTINGS,
      NOW,
    );
    expect(diner).toMatchObject({
      name: "Lía Ramos",
      documentNumber: "45000001",
      levelName: "Staff",
      phone: "987 654 321",
      active: true,
    });
    expect(db.select().from(diners).where(eq(diners.id, diner.id)).get()!.nameFolded).toBe("lia ramos");
    const audit = db.select().from(auditLog).where(eq(auditLog.subjectId, diner.id)).all();
    expect(audit.map((a) => [a.action, a.subjectType, a.actorId])).toEqual([["diner.created", "diner", 1]]);
  });

  test("every problem is reported at once", () => {
    const { db, w, only, input } = setup();
    expect(
      errorsOf(() =>
        createDiner(
          db,
          ACTOR,
          only(w.norte),
          input({ document_number: "40000001", cafe_id: w.sur, subdealership_id: 999, level_id: 999 }),
          SETTINGS,
        ),
      ),
    ).toEqual({
      cafe_id: expect.objectContaining({ key: "diners.cafe_outside_scope" }),
      subdealership_id: expect.objectContaining({ key: "diners.subdealership_unknown" }),
      level_id: expect.objectContaining({ key: "diners.level_unknown" }),
      document_number: expect.objectContaining({ key: "diners.document_taken", params: { name: "Ana Quispe Mamani" } }),
    });
    expect(
      Object.keys(errorsOf(() => createDiner(db, ACTOR, EVERYTHING, input({ document_number: "123" }), SETTINGS))),
    ).toEqual(["document_number"]);
    // A foreigner's card and a passport have their own lengths, letters allowed.
    expect(
      createDiner(db, ACTOR, EVERYTHING, input({ document_type: "ce", document_number: "cx1234567" }), SETTINGS)
        .documentNumber,
    ).toBe("CX1234567");
    expect(
      Object.keys(
        errorsOf(() =>
          createDiner(db, ACTOR, EVERYTHING, input({ document_type: "ce", document_number: "12" }), SETTINGS),
        ),
      ),
    ).toEqual(["document_number"]);
  });

  test("an edit needs the diner's home cafe in the scope, before and after; only changes are audited", () => {
    const { db, w, only, input } = setup();
    const norte = only(w.norte);
    expect(() => updateDiner(db, ACTOR, norte, w.carla, input({ document_number: "40000003" }), SETTINGS)).toThrow(
      NotFound,
    );
    expect(
      errorsOf(() =>
        updateDiner(
          db,
          ACTOR,
          norte,
          w.ana,
          input({ name: "Ana Quispe Mamani", document_number: "40000001", cafe_id: w.sur }),
          SETTINGS,
        ),
      ),
    ).toEqual({ cafe_id: expect.objectContaining({ key: "diners.cafe_outside_scope" }) });
    const same = input({ name: "Ana Quispe Mamani", document_number: "40000001" });
    updateDiner(db, ACTOR, norte, w.ana, same, SETTINGS);
    expect(db.select().from(auditLog).where(eq(auditLog.action, "diner.updated")).all()).toHaveLength(0);
    // Keeping their own document is not "taken"; another's is.
    expect(
      errorsOf(() => updateDiner(db, ACTOR, norte, w.ana, { ...same, document_number: "40000002" }, SETTINGS)),
    ).toEqual({ document_number: expect.objectContaining({ key: "diners.document_taken" }) });
    const moved = updateDiner(db, ACTOR, EVERYTHING, w.ana, { ...same, cafe_id: w.sur, active: false }, SETTINGS);
    expect(moved).toMatchObject({ cafeId: w.sur, active: false });
    const audit = db.select().from(auditLog).where(eq(auditLog.action, "diner.updated")).get()!;
    expect(JSON.parse(audit.before!)).toEqual({ cafeId: w.norte, active: true });
    expect(JSON.parse(audit.after!)).toEqual({ cafeId: w.sur, active: false });
    // Leaving out `active` keeps it as it is.
    expect(updateDiner(db, ACTOR, EVERYTHING, w.ana, { ...same, cafe_id: w.sur }, SETTINGS).active).toBe(false);
  });
});

describe("deleting diners", () => {
  test("a diner without sales is deleted; with sales (even voided) it is refused; outside the scope not found", () => {
    const { db, w, only } = setup();
    expect(() => deleteDiner(db, ACTOR, only(w.norte), w.carla)).toThrow(NotFound);
    expect(deleteDiner(db, ACTOR, only(w.sur), w.carla)).toEqual({ name: "Carla Ñahui" });
    expect(db.select().from(diners).where(eq(diners.id, w.carla)).get()).toBeUndefined();
    expect(
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "diner.deleted"), eq(auditLog.subjectId, w.carla)))
        .all(),
    ).toHaveLength(1);

    const { sale } = recordSale(
      db,
      ACTOR,
      EVERYTHING,
      {
        key: "delete-guard-0001",
        cafe_id: w.norte,
        document_number: "40000002",
        service_date: dateIn("America/Lima", NOW),
        sale_type: "credit",
        lines: [{ service_id: w.alm, quantity: 1 }],
      },
      SETTINGS,
      { backdate: false },
      undefined,
      NOW,
    );
    let refusal: unknown = null;
    try {
      deleteDiner(db, ACTOR, EVERYTHING, w.beto);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(Conflict);
    expect((refusal as Conflict).detail).toMatchObject({ key: "diners.has_sales", params: { name: "Béto Huamán" } });
    voidSale(db, ACTOR, EVERYTHING, sale.id, { reason: "Prueba" }, { voidAny: true }, undefined, NOW);
    expect(() => deleteDiner(db, ACTOR, EVERYTHING, w.beto)).toThrow(Conflict);
    expect(db.select().from(diners).where(eq(diners.id, w.beto)).get()).toBeDefined();
  });
});
