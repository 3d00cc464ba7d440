/**
 * Dealerships and subdealerships in the domain: the RUC check digit, the RUC unique across both tables, the name
 * unique per dealership, the delete guard, the unit scope rule, the tree search and the audit trail.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, cafes, subdealershipUnits } from "../../../db/schema";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { Conflict } from "../errors";
import { errorsOf as failure } from "../../../tests/support/errors";
import { createDealership, deleteDealership, listDealerships, updateDealership } from "./dealerships";
import {
  createSubdealership,
  dealershipTree,
  deleteSubdealership,
  listSubdealerships,
  unitChoices,
  updateSubdealership,
} from "./subdealerships";

const SETTINGS = { rucLength: 11 };
// Valid check digits (SUNAT modulo 11).
const RUC = { a: "20100934729", b: "20551673911", c: "20604382158", d: "20511883246" };

let db: Db;
let unitNorte: number;
let unitSur: number;
let unitOtra: number;
let scopeNorte: Scope;

function unitOf(cafeId: number): number {
  return db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.unitId;
}

function unitsOf(subdealershipId: number): number[] {
  return db
    .select()
    .from(subdealershipUnits)
    .where(eq(subdealershipUnits.subdealershipId, subdealershipId))
    .all()
    .map((r) => r.unitId)
    .sort((a, b) => a - b);
}

beforeEach(() => {
  db = migratedDatabase();
  const norte = ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal");
  unitNorte = unitOf(norte);
  unitSur = unitOf(ensureCafe(db, "Mina Cerro Verde", "Unidad Sur", "Comedor Campamento"));
  unitOtra = unitOf(ensureCafe(db, "Mina Antamina", "Unidad Yanacancha", "Comedor Yanacancha"));
  scopeNorte = { all: false, cafeIds: new Set([norte]), headquartersIds: new Set(), businessIds: new Set() };
});

const dealership = (name: string, ruc: string, extra: Record<string, unknown> = {}) =>
  createDealership(db, CLI_ACTOR, { name, ruc, ...extra }, SETTINGS);

describe("dealerships", () => {
  test("a RUC with a wrong check digit, or the wrong length, is refused", () => {
    expect(failure(() => dealership("Minera Uno", "20100934720"))).toEqual({
      ruc: { key: "validation.ruc_check_digit", params: undefined },
    });
    expect(failure(() => dealership("Minera Uno", "2010093472"))).toEqual({
      ruc: { key: "validation.ruc_format", params: { length: 11 } },
    });
    expect(listDealerships(db, {}, null).total).toBe(0);
  });

  test("the e-mail is optional but must look like one; fields are trimmed", () => {
    expect(failure(() => dealership("Minera Uno", RUC.a, { email: "no-es-correo" }))).toEqual({
      email: { key: "validation.email", params: undefined },
    });
    const saved = dealership("  Minera Uno ", RUC.a, { phone: " 054 381200 ", fiscal_address: "Av. Parra 120" });
    expect(saved).toMatchObject({ name: "Minera Uno", phone: "054 381200", fiscalAddress: "Av. Parra 120", email: "" });
  });

  test("names are unique (whatever the case) and RUCs unique across dealerships and subdealerships, naming who has it", () => {
    const uno = dealership("Minera Uno", RUC.a);
    expect(failure(() => dealership("MINERA UNO", RUC.b)).name).toMatchObject({ key: "dealerships.name_taken" });
    expect(failure(() => dealership("Minera Dos", RUC.a)).ruc).toEqual({
      key: "dealerships.ruc_taken_by_dealership",
      params: { ruc: RUC.a, name: "Minera Uno" },
    });
    createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones Sur", ruc: RUC.b, dealership_id: uno.id },
      SETTINGS,
    );
    expect(failure(() => dealership("Minera Dos", RUC.b)).ruc).toEqual({
      key: "dealerships.ruc_taken_by_subdealership",
      params: { ruc: RUC.b, name: "Perforaciones Sur" },
    });
    expect(
      failure(() =>
        createSubdealership(db, CLI_ACTOR, EVERYTHING, { name: "Otra", ruc: RUC.a, dealership_id: uno.id }, SETTINGS),
      ).ruc,
    ).toMatchObject({ key: "dealerships.ruc_taken_by_dealership" });
    // Saving a dealership with its own RUC is fine.
    expect(updateDealership(db, CLI_ACTOR, uno.id, { name: "Minera Uno S.A.", ruc: RUC.a }, SETTINGS).name).toBe(
      "Minera Uno S.A.",
    );
  });

  test("a dealership with subdealerships cannot be deleted; the message counts them", () => {
    const uno = dealership("Minera Uno", RUC.a);
    const sub = createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones Sur", ruc: RUC.b, dealership_id: uno.id },
      SETTINGS,
    );
    createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Transportes Sur", ruc: RUC.c, dealership_id: uno.id },
      SETTINGS,
    );
    let error: unknown;
    try {
      deleteDealership(db, CLI_ACTOR, uno.id);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Conflict);
    expect((error as Conflict).detail).toEqual({
      key: "dealerships.has_subdealerships",
      params: { name: "Minera Uno", count: 2 },
    });
    deleteSubdealership(db, CLI_ACTOR, EVERYTHING, sub.id);
    expect(() => deleteDealership(db, CLI_ACTOR, uno.id)).toThrow(Conflict);
  });

  test("every write is audited", () => {
    const uno = dealership("Minera Uno", RUC.a);
    updateDealership(db, CLI_ACTOR, uno.id, { name: "Minera Uno S.A.", ruc: RUC.a }, SETTINGS);
    const sub = createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones Sur", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte] },
      SETTINGS,
    );
    updateSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      sub.id,
      { name: "Perforaciones del Sur", ruc: RUC.b, dealership_id: uno.id, unit_ids: [] },
      SETTINGS,
    );
    deleteSubdealership(db, CLI_ACTOR, EVERYTHING, sub.id);
    deleteDealership(db, CLI_ACTOR, uno.id);
    const actions = db
      .select()
      .from(auditLog)
      .all()
      .map((e) => e.action);
    expect(actions).toEqual([
      "dealership.created",
      "dealership.updated",
      "subdealership.created",
      "subdealership.updated",
      "subdealership.deleted",
      "dealership.deleted",
    ]);
    const created = db.select().from(auditLog).where(eq(auditLog.action, "subdealership.created")).get()!;
    expect(JSON.parse(created.after!)).toMatchObject({ name: "Perforaciones Sur", unitIds: [unitNorte] });
  });
});

describe("subdealerships", () => {
  test("the name is unique within its dealership, not across dealerships", () => {
    const uno = dealership("Minera Uno", RUC.a);
    const dos = dealership("Minera Dos", RUC.b);
    createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Transportes Sur", ruc: RUC.c, dealership_id: uno.id },
      SETTINGS,
    );
    expect(
      failure(() =>
        createSubdealership(
          db,
          CLI_ACTOR,
          EVERYTHING,
          { name: "transportes sur", ruc: RUC.d, dealership_id: uno.id },
          SETTINGS,
        ),
      ).name,
    ).toMatchObject({
      key: "dealerships.subdealership_name_taken",
    });
    expect(
      createSubdealership(
        db,
        CLI_ACTOR,
        EVERYTHING,
        { name: "Transportes Sur", ruc: RUC.d, dealership_id: dos.id },
        SETTINGS,
      ).dealershipId,
    ).toBe(dos.id);
  });

  test("the dealership must exist", () => {
    expect(
      failure(() =>
        createSubdealership(db, CLI_ACTOR, EVERYTHING, { name: "Huérfana", ruc: RUC.c, dealership_id: 999 }, SETTINGS),
      ),
    ).toEqual({ dealership_id: { key: "dealerships.dealership_missing", params: undefined } });
  });

  test("a scoped actor is offered only reachable units and cannot choose one outside the scope", () => {
    const uno = dealership("Minera Uno", RUC.a);
    expect(unitChoices(db, scopeNorte)).toEqual([
      { id: expect.any(Number), name: "Mina Cerro Verde", units: [{ id: unitNorte, name: "Unidad Norte" }] },
    ]);
    expect(unitChoices(db, EVERYTHING).flatMap((m) => m.units.map((u) => u.name))).toEqual([
      "Unidad Yanacancha",
      "Unidad Norte",
      "Unidad Sur",
    ]);
    expect(
      failure(() =>
        createSubdealership(
          db,
          CLI_ACTOR,
          scopeNorte,
          { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte, unitSur] },
          SETTINGS,
        ),
      ),
    ).toEqual({
      unit_ids: { key: "dealerships.unit_out_of_scope", params: undefined },
    });
    expect(
      failure(() =>
        createSubdealership(
          db,
          CLI_ACTOR,
          EVERYTHING,
          { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [9999] },
          SETTINGS,
        ),
      ).unit_ids,
    ).toMatchObject({
      key: "dealerships.unit_missing",
    });
    const sub = createSubdealership(
      db,
      CLI_ACTOR,
      scopeNorte,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte] },
      SETTINGS,
    );
    expect(unitsOf(sub.id)).toEqual([unitNorte]);
  });

  test("units outside a scoped actor's scope are kept when they save, and hidden from what they see", () => {
    const uno = dealership("Minera Uno", RUC.a);
    const sub = createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte, unitSur, unitOtra] },
      SETTINGS,
    );
    const seen = listSubdealerships(db, scopeNorte, {}, null).rows[0];
    expect(seen.units.map((u) => u.name)).toEqual(["Unidad Norte"]);
    expect(seen.hiddenUnits).toBe(2);
    // The scoped actor unticks Unidad Norte: Sur and Yanacancha stay.
    updateSubdealership(
      db,
      CLI_ACTOR,
      scopeNorte,
      sub.id,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [] },
      SETTINGS,
    );
    expect(unitsOf(sub.id)).toEqual([unitSur, unitOtra].sort((a, b) => a - b));
    // Sending back a unit outside the scope it already works in is no change, so it is accepted.
    updateSubdealership(
      db,
      CLI_ACTOR,
      scopeNorte,
      sub.id,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte, unitSur] },
      SETTINGS,
    );
    expect(unitsOf(sub.id)).toEqual([unitNorte, unitSur, unitOtra].sort((a, b) => a - b));
    // A super-administrator replaces the whole list.
    updateSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      sub.id,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitOtra] },
      SETTINGS,
    );
    expect(unitsOf(sub.id)).toEqual([unitOtra]);
  });

  test("a scoped actor cannot delete a subdealership that also works in units outside their scope", () => {
    const uno = dealership("Minera Uno", RUC.a);
    const wide = createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte, unitSur] },
      SETTINGS,
    );
    expect(() => deleteSubdealership(db, CLI_ACTOR, scopeNorte, wide.id)).toThrow(Conflict);
    expect(unitsOf(wide.id)).toEqual([unitNorte, unitSur].sort((a, b) => a - b));
    const local = createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Limpieza", ruc: RUC.c, dealership_id: uno.id, unit_ids: [unitNorte] },
      SETTINGS,
    );
    deleteSubdealership(db, CLI_ACTOR, scopeNorte, local.id);
    expect(unitsOf(local.id)).toEqual([]);
  });

  test("deleting a subdealership removes its unit links", () => {
    const uno = dealership("Minera Uno", RUC.a);
    const sub = createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones", ruc: RUC.b, dealership_id: uno.id, unit_ids: [unitNorte, unitSur] },
      SETTINGS,
    );
    deleteSubdealership(db, CLI_ACTOR, EVERYTHING, sub.id);
    expect(db.select().from(subdealershipUnits).all()).toEqual([]);
  });
});

describe("the tree", () => {
  test("is paginated by dealership; a search matching a subdealership brings its dealership expanded", () => {
    const uno = dealership("Andina del Sur", RUC.a);
    dealership("Huascarán", RUC.b);
    createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones Altiplano", ruc: RUC.c, dealership_id: uno.id, unit_ids: [unitNorte] },
      SETTINGS,
    );
    createSubdealership(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Transportes Cordillera", ruc: RUC.d, dealership_id: uno.id },
      SETTINGS,
    );

    const all = dealershipTree(db, EVERYTHING, {}, { page: 1, perPage: 1 });
    expect(all.total).toBe(2);
    expect(
      all.rows.map((r) => [r.name, r.subdealershipCount, r.expanded, r.subdealerships.map((s) => s.name)]),
    ).toEqual([["Andina del Sur", 2, false, ["Perforaciones Altiplano", "Transportes Cordillera"]]]);
    expect(dealershipTree(db, EVERYTHING, {}, { page: 2, perPage: 1 }).rows.map((r) => r.name)).toEqual(["Huascarán"]);

    const bySub = dealershipTree(db, EVERYTHING, { search: "altiplano" }, { page: 1, perPage: 10 });
    expect(
      bySub.rows.map((r) => [r.name, r.expanded, r.subdealerships.filter((s) => s.matched).map((s) => s.name)]),
    ).toEqual([["Andina del Sur", true, ["Perforaciones Altiplano"]]]);
    expect(dealershipTree(db, EVERYTHING, { search: RUC.d }, { page: 1, perPage: 10 }).rows.map((r) => r.name)).toEqual(
      ["Andina del Sur"],
    );
    const byName = dealershipTree(db, EVERYTHING, { search: "Huasc" }, { page: 1, perPage: 10 });
    expect(byName.rows.map((r) => [r.name, r.expanded])).toEqual([["Huascarán", false]]);
    // LIKE wildcards in the search are taken literally.
    expect(dealershipTree(db, EVERYTHING, { search: "%" }, { page: 1, perPage: 10 }).total).toBe(0);
  });
});
