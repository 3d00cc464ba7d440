import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, businesses } from "../../../db/schema";
import { bootstrapAccess } from "../../../db/seeds/access";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe, ensureHeadquarters } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { NotFound } from "../errors";
import { errorsOf } from "../../../tests/support/errors";
import {
  createProperty,
  deleteProperty,
  findProperty,
  listProperties,
  locationOptions,
  propertyCategories,
  updateProperty,
} from "./properties";

const TZ = "America/Lima";
// 2026-03-01 03:00 UTC is still 28 February in Lima.
const NOW = new Date("2026-03-01T03:00:00Z");

function world() {
  const db = migratedDatabase();
  bootstrapAccess(db);
  const lima = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
  const cafe = ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal", lima.businessId);
  const otherCafe = ensureCafe(db, "Mina Antamina", "Unidad Yanacancha", "Comedor Tajo", null);
  return { db, lima, cafe, otherCafe };
}

const oven = (overrides: Record<string, unknown> = {}) => ({
  code: "hor-01",
  name: "Horno combinado",
  category: "Equipo de cocina",
  serial: "RAT-88231",
  status: "in_use",
  acquired_on: "2024-02-10",
  acquisition_value: "45900.5",
  notes: "",
  ...overrides,
});

const cafeScope = (id: number): Scope => ({
  all: false,
  cafeIds: new Set([id]),
  headquartersIds: new Set(),
  businessIds: new Set(),
});

describe("properties", () => {
  test("a property is kept in capitals, in cents, at a headquarters or a cafe; its code is unique", () => {
    const { db, lima, cafe } = world();
    const created = createProperty(db, CLI_ACTOR, EVERYTHING, oven({ location: `cafe:${cafe}` }), TZ, NOW);
    expect(created).toMatchObject({
      code: "HOR-01",
      cafeId: cafe,
      headquartersId: null,
      acquisitionValueCents: 4_590_050,
      acquiredOn: "2024-02-10",
    });
    expect(
      errorsOf(() =>
        createProperty(
          db,
          CLI_ACTOR,
          EVERYTHING,
          oven({ code: "HOR-01 ", location: `hq:${lima.headquartersId}` }),
          TZ,
          NOW,
        ),
      ),
    ).toEqual({
      code: { key: "properties.code_taken", params: { code: "HOR-01" } },
    });
    const moved = updateProperty(
      db,
      CLI_ACTOR,
      EVERYTHING,
      created.id,
      oven({ location: `hq:${lima.headquartersId}`, status: "under_repair", acquisition_value: "", acquired_on: "" }),
      TZ,
      NOW,
    );
    expect(moved).toMatchObject({
      headquartersId: lima.headquartersId,
      cafeId: null,
      status: "under_repair",
      acquisitionValueCents: null,
      acquiredOn: null,
    });
    const audit = db.select().from(auditLog).where(eq(auditLog.subjectType, "property")).orderBy(auditLog.id).all();
    expect(audit.map((a) => a.action)).toEqual(["property.created", "property.updated"]);
    expect(JSON.parse(audit[1].before!)).toMatchObject({
      cafeId: cafe,
      acquisitionValue: "45900.50",
      status: "in_use",
    });
    expect(JSON.parse(audit[1].after!)).toMatchObject({
      headquartersId: lima.headquartersId,
      acquisitionValue: null,
      status: "under_repair",
    });
  });

  test("validation: required fields, code format, status, location, a real date not in the future, an amount in soles", () => {
    const { db, cafe } = world();
    expect(errorsOf(() => createProperty(db, CLI_ACTOR, EVERYTHING, {}, TZ, NOW))).toMatchObject({
      code: { key: "validation.required" },
      name: { key: "validation.required" },
      category: { key: "validation.required" },
      location: { key: "validation.required" },
      status: { key: "validation.required" },
    });
    expect(
      errorsOf(() =>
        createProperty(
          db,
          CLI_ACTOR,
          EVERYTHING,
          oven({
            code: "a b",
            status: "lost",
            location: "cafe:999",
            acquired_on: "2026-03-01",
            acquisition_value: "12.345",
          }),
          TZ,
          NOW,
        ),
      ),
    ).toEqual({
      code: { key: "properties.code_format", params: undefined },
      status: { key: "validation.invalid_choice", params: undefined },
      location: { key: "validation.invalid_choice", params: undefined },
      acquired_on: { key: "properties.date_future", params: undefined },
      acquisition_value: { key: "properties.value_invalid", params: undefined },
    });
    expect(
      errorsOf(() =>
        createProperty(
          db,
          CLI_ACTOR,
          EVERYTHING,
          oven({ location: `cafe:${cafe}`, acquired_on: "2025-02-30" }),
          TZ,
          NOW,
        ),
      ),
    ).toEqual({
      acquired_on: { key: "properties.date_invalid", params: undefined },
    });
    // Today in Lima is accepted even though it is already tomorrow in UTC.
    expect(
      createProperty(db, CLI_ACTOR, EVERYTHING, oven({ location: `cafe:${cafe}`, acquired_on: "2026-02-28" }), TZ, NOW)
        .acquiredOn,
    ).toBe("2026-02-28");
  });

  test("a user reaches only the properties kept at their places, and may only place properties there", () => {
    const { db, lima, cafe, otherCafe } = world();
    createProperty(db, CLI_ACTOR, EVERYTHING, oven({ code: "HOR-01", location: `cafe:${cafe}` }), TZ, NOW);
    const tajo = createProperty(
      db,
      CLI_ACTOR,
      EVERYTHING,
      oven({
        code: "MES-01",
        name: "Mesa de acero",
        category: "Mobiliario",
        serial: "",
        location: `cafe:${otherCafe}`,
      }),
      TZ,
      NOW,
    );
    const truck = createProperty(
      db,
      CLI_ACTOR,
      EVERYTHING,
      oven({
        code: "VEH-01",
        name: "Camioneta",
        category: "Vehículo",
        serial: "8AJHA8",
        status: "in_storage",
        location: `hq:${lima.headquartersId}`,
      }),
      TZ,
      NOW,
    );
    const scope = cafeScope(cafe);
    expect(listProperties(db, scope, {}).rows.map((p) => p.code)).toEqual(["HOR-01"]);
    expect(() => findProperty(db, scope, tajo.id)).toThrow(NotFound);
    expect(() => deleteProperty(db, CLI_ACTOR, scope, truck.id)).toThrow(NotFound);
    expect(
      errorsOf(() =>
        createProperty(db, CLI_ACTOR, scope, oven({ code: "X-1", location: `hq:${lima.headquartersId}` }), TZ, NOW),
      ),
    ).toEqual({
      location: { key: "validation.invalid_choice", params: undefined },
    });
    expect(locationOptions(db, scope)).toEqual({
      headquarters: [],
      cafes: [{ value: `cafe:${cafe}`, label: "Comedor Principal · Unidad Norte / Mina Cerro Verde" }],
    });
    expect(
      listProperties(db, { all: false, cafeIds: new Set(), headquartersIds: new Set(), businessIds: new Set() }, {})
        .total,
    ).toBe(0);

    // Search (code, name, serial, category) and the status filter.
    expect(listProperties(db, EVERYTHING, { search: "8ajha" }).rows.map((p) => p.code)).toEqual(["VEH-01"]);
    expect(listProperties(db, EVERYTHING, { search: "mobil" }).rows.map((p) => p.code)).toEqual(["MES-01"]);
    expect(listProperties(db, EVERYTHING, { status: "in_storage" }).rows.map((p) => p.code)).toEqual(["VEH-01"]);
    expect(propertyCategories(db)).toEqual(["Equipo de cocina", "Mobiliario", "Vehículo"]);

    // The page shows where it is kept and the business behind it.
    expect(findProperty(db, EVERYTHING, truck.id)).toMatchObject({
      location: {
        kind: "headquarters",
        value: `hq:${lima.headquartersId}`,
        name: "Sede Lima",
        detail: "Mesa Catering S.A.C.",
      },
      businessName: "Mesa Catering S.A.C.",
    });
    expect(findProperty(db, EVERYTHING, tajo.id)).toMatchObject({
      location: { kind: "cafe", name: "Comedor Tajo", detail: "Unidad Yanacancha / Mina Antamina" },
      businessName: "",
    });
    db.update(businesses).set({ name: "Mesa Catering Perú S.A.C." }).where(eq(businesses.id, lima.businessId)).run();
    expect(listProperties(db, scope, {}).rows[0].businessName).toBe("Mesa Catering Perú S.A.C.");

    deleteProperty(db, CLI_ACTOR, EVERYTHING, tajo.id);
    expect(listProperties(db, EVERYTHING, {}).rows.map((p) => p.code)).toEqual(["HOR-01", "VEH-01"]);
    expect(db.select().from(auditLog).where(eq(auditLog.action, "property.deleted")).all()).toHaveLength(1);
  });
});
