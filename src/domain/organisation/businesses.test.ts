import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, businesses, businessServices } from "../../../db/schema";
import { bootstrapAccess } from "../../../db/seeds/access";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe, ensureHeadquarters } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { Conflict, Forbidden, NotFound } from "../errors";
import { errorsOf } from "../../../tests/support/errors";
import { createService } from "../places/services";
import {
  businessOptions,
  createBusiness,
  deleteBusiness,
  listBusinesses,
  setBusinessServices,
  updateBusiness,
} from "./businesses";

const RUC_A = "20100079705";
const RUC_B = "20601234565";
const valid = (overrides: Record<string, unknown> = {}) => ({
  name: "Andes Catering S.A.C.",
  ruc: RUC_B,
  fiscal_address: "Av. Ejército 101, Arequipa",
  legal_address: "Av. Ejército 101, Arequipa",
  email: "contacto@andes.pe",
  phone: "054 200 300",
  ...overrides,
});

function world(): Db {
  const db = migratedDatabase();
  bootstrapAccess(db);
  return db;
}

const scopeOfBusinesses = (...ids: number[]): Scope => ({
  all: false,
  cafeIds: new Set(),
  headquartersIds: new Set(),
  businessIds: new Set(ids),
});

describe("businesses", () => {
  test("the RUC is required, must have the configured length and a valid check digit; every bad field is reported at once", () => {
    const db = world();
    expect(errorsOf(() => createBusiness(db, CLI_ACTOR, EVERYTHING, {}, 11))).toEqual({
      name: { key: "validation.required", params: undefined },
      ruc: { key: "validation.required", params: undefined },
      fiscal_address: { key: "validation.required", params: undefined },
      legal_address: { key: "validation.required", params: undefined },
      email: { key: "validation.required", params: undefined },
    });
    expect(
      errorsOf(() => createBusiness(db, CLI_ACTOR, EVERYTHING, valid({ ruc: "2010007970", email: "no-mail" }), 11)),
    ).toEqual({
      ruc: { key: "validation.ruc_format", params: { length: 11 } },
      email: { key: "validation.email", params: undefined },
    });
    expect(errorsOf(() => createBusiness(db, CLI_ACTOR, EVERYTHING, valid({ ruc: "20100079706" }), 11))).toEqual({
      ruc: { key: "validation.ruc_check_digit", params: undefined },
    });
    // Another configured length checks only the digits.
    expect(createBusiness(db, CLI_ACTOR, EVERYTHING, valid({ ruc: "12345678" }), 8).ruc).toBe("12345678");
  });

  test("name (whatever its case) and RUC are unique; editing keeps its own", () => {
    const db = world();
    const a = createBusiness(db, CLI_ACTOR, EVERYTHING, valid({ name: "Mesa Catering S.A.C.", ruc: RUC_A }), 11);
    expect(
      errorsOf(() =>
        createBusiness(db, CLI_ACTOR, EVERYTHING, valid({ name: "MESA CATERING S.A.C.", ruc: RUC_A }), 11),
      ),
    ).toEqual({
      name: { key: "businesses.name_taken", params: { name: "MESA CATERING S.A.C." } },
      ruc: { key: "businesses.ruc_taken", params: { ruc: RUC_A } },
    });
    const b = createBusiness(db, CLI_ACTOR, EVERYTHING, valid(), 11);
    expect(errorsOf(() => updateBusiness(db, CLI_ACTOR, EVERYTHING, b.id, valid({ ruc: RUC_A }), 11))).toEqual({
      ruc: { key: "businesses.ruc_taken", params: { ruc: RUC_A } },
    });
    expect(
      updateBusiness(
        db,
        CLI_ACTOR,
        EVERYTHING,
        a.id,
        valid({ name: "Mesa Catering S.A.C.", ruc: RUC_A, phone: "01 415 2000" }),
        11,
      ).phone,
    ).toBe("01 415 2000");
    const audit = db.select().from(auditLog).where(eq(auditLog.subjectType, "business")).orderBy(auditLog.id).all();
    expect(audit.map((a) => a.action)).toEqual(["business.created", "business.created", "business.updated"]);
    expect(JSON.parse(audit[2].before!).phone).toBe("054 200 300");
    expect(JSON.parse(audit[2].after!).phone).toBe("01 415 2000");
  });

  test("creating and deleting need an all-places scope; a business outside the scope is not found", () => {
    const db = world();
    const { businessId } = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
    const other = createBusiness(db, CLI_ACTOR, EVERYTHING, valid(), 11);
    const mine = scopeOfBusinesses(businessId);
    expect(() => createBusiness(db, CLI_ACTOR, mine, valid({ name: "Nueva S.A.C.", ruc: "20555123451" }), 11)).toThrow(
      Forbidden,
    );
    // Visible, editable, but not deletable without an all-places scope.
    expect(listBusinesses(db, mine, {}).rows.map((b) => b.name)).toEqual(["Mesa Catering S.A.C."]);
    expect(businessOptions(db, mine)).toEqual([{ id: businessId, name: "Mesa Catering S.A.C." }]);
    expect(
      updateBusiness(db, CLI_ACTOR, mine, businessId, valid({ name: "Mesa Catering S.A.C.", ruc: RUC_A }), 11).ruc,
    ).toBe(RUC_A);
    expect(() => updateBusiness(db, CLI_ACTOR, mine, other.id, valid(), 11)).toThrow(NotFound);
    expect(() => deleteBusiness(db, CLI_ACTOR, mine, other.id)).toThrow(NotFound);
    const lonely = createBusiness(db, CLI_ACTOR, EVERYTHING, valid({ name: "Sola S.A.C.", ruc: "20487654320" }), 11);
    expect(() => deleteBusiness(db, CLI_ACTOR, scopeOfBusinesses(lonely.id), lonely.id)).toThrow(Forbidden);
    deleteBusiness(db, CLI_ACTOR, EVERYTHING, lonely.id);
    expect(db.select().from(businesses).where(eq(businesses.id, lonely.id)).get()).toBeUndefined();
    // Nobody's scope: nothing.
    expect(listBusinesses(db, scopeOfBusinesses(), {}).total).toBe(0);
  });

  test("a business with headquarters or cafes cannot be deleted, and the message names both counts", () => {
    const db = world();
    const { businessId } = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
    ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Arequipa");
    ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal", businessId);
    try {
      deleteBusiness(db, CLI_ACTOR, EVERYTHING, businessId);
      throw new Error("expected a conflict");
    } catch (error) {
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).detail).toEqual({
        key: "businesses.in_use",
        params: { name: "Mesa Catering S.A.C.", headquarters: 2, cafes: 1 },
      });
    }
    expect(db.select().from(businesses).all()).toHaveLength(1);
  });

  test("the list is searched by name or RUC and counts headquarters and operated cafes, with the cafes and services", () => {
    const db = world();
    const { businessId } = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
    db.update(businesses).set({ ruc: RUC_A }).where(eq(businesses.id, businessId)).run();
    ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal", businessId);
    ensureCafe(db, "Mina Cerro Verde", "Unidad Sur", "Comedor Campamento", businessId);
    createBusiness(db, CLI_ACTOR, EVERYTHING, valid(), 11);
    const lunch = createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
    setBusinessServices(db, CLI_ACTOR, EVERYTHING, businessId, { service_ids: [lunch, lunch] });

    const all = listBusinesses(db, EVERYTHING, {}, { page: 1, perPage: 15 });
    expect(all.rows.map((b) => [b.name, b.headquarters, b.cafes])).toEqual([
      ["Andes Catering S.A.C.", 0, 0],
      ["Mesa Catering S.A.C.", 1, 2],
    ]);
    expect(all.rows[1].operatedCafes.map((c) => `${c.name} (${c.unit} / ${c.mine})`)).toEqual([
      "Comedor Principal (Unidad Norte / Mina Cerro Verde)",
      "Comedor Campamento (Unidad Sur / Mina Cerro Verde)",
    ]);
    expect(all.rows[1].serviceIds).toEqual([lunch]);
    expect(listBusinesses(db, EVERYTHING, { search: "20100" }).rows.map((b) => b.name)).toEqual([
      "Mesa Catering S.A.C.",
    ]);
    expect(listBusinesses(db, EVERYTHING, { search: "andes" }).rows.map((b) => b.name)).toEqual([
      "Andes Catering S.A.C.",
    ]);
    expect(listBusinesses(db, EVERYTHING, {}, { page: 2, perPage: 1 }).rows.map((b) => b.name)).toEqual([
      "Mesa Catering S.A.C.",
    ]);
  });

  test("the services of a business are replaced as chosen; unknown services are refused", () => {
    const db = world();
    const { businessId } = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
    const des = createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
    const alm = createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
    setBusinessServices(db, CLI_ACTOR, EVERYTHING, businessId, { service_ids: [des, alm] });
    setBusinessServices(db, CLI_ACTOR, EVERYTHING, businessId, { service_ids: [alm] });
    expect(
      db
        .select()
        .from(businessServices)
        .all()
        .map((r) => r.serviceId),
    ).toEqual([alm]);
    expect(
      errorsOf(() => setBusinessServices(db, CLI_ACTOR, EVERYTHING, businessId, { service_ids: [alm, 999] })),
    ).toEqual({ service_ids: { key: "businesses.unknown_services", params: undefined } });
    const audit = db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "business.services.updated"))
      .orderBy(auditLog.id)
      .all();
    expect(audit.map((a) => [JSON.parse(a.before!).services, JSON.parse(a.after!).services])).toEqual([
      [[], ["ALM", "DES"]],
      [["ALM", "DES"], ["ALM"]],
    ]);
  });
});
