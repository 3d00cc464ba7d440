/**
 * Management through the app: the mines, units and cafes tabs (permission, server-side search, sorting and
 * pagination, data scope, each cafe's prices), the management modal's route and its searches — a new cafe made
 * sellable (services and prices) in the same request — edits and deletes with their refusals, and each table's
 * Excel export.
 *
 * The world is the demo seed: Mesa Catering S.A.C. with Mina Cerro Verde (Unidad Norte: Comedor Principal, Comedor
 * Taller; Unidad Sur: Comedor Campamento, Comedor Chancadora) and Mina Antamina (Unidad Yanacancha: Comedor
 * Yanacancha, Comedor Tajo; Unidad Huarmey: Comedor Puerto, Comedor Mineroducto). People: a super-administrator;
 * a "mine operator" with areas at each Cerro Verde cafe; a cafe manager (places.view, no places.manage) at
 * Comedor Principal; a cashier (no places.view) there too.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import {
  areas,
  auditLog,
  businesses,
  cafes,
  cafeServices,
  dealerships,
  mines,
  mineServices,
  servicePriceHistory,
  services,
  subdealerships,
  subdealershipUnits,
  units,
  unitServices,
} from "../../db/schema";
import { accessSeeder } from "../../db/seeds/access";
import { placesSeeder } from "../../db/seeds/places";
import { servicesSeeder } from "../../db/seeds/services";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createPlace } from "../../src/domain/places/places";
import { createService } from "../../src/domain/places/services";
import { Client, createTestApp, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submitFrom, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);
const DEFAULTS = { timeZone: "America/Lima" };

interface World {
  app: TestApp;
  db: Db;
  businessId: number;
  mine: (name: string) => number;
  unit: (name: string) => number;
  cafe: (name: string) => number;
  people: { root: User; operator: User; manager: User; cashier: User };
}

const CERRO_VERDE_CAFES = ["Comedor Principal", "Comedor Taller", "Comedor Campamento", "Comedor Chancadora"];

async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  await placesSeeder.run(db, app.config);
  await accessSeeder.run(db, app.config);
  const byName = (table: typeof mines | typeof units | typeof cafes) => (name: string) => {
    const row = db.select().from(table).where(eq(table.name, name)).get();
    if (!row) throw new Error(`no place named ${name}`);
    return row.id;
  };
  const cafe = byName(cafes);
  const role = (name: string) => findRoleByName(db, name)!.id;
  const caja = (cafeName: string) =>
    db
      .select()
      .from(areas)
      .where(and(eq(areas.name, "Caja"), eq(areas.cafeId, cafe(cafeName))))
      .get()!.id;

  const operatorRole = makeRole(db, "mine operator", [
    "places.view",
    "places.manage",
    "prices.manage",
    "services.view",
  ]);
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  const operator = await addUser(db, "Olga Operaciones", "operator@mesa.test");
  const manager = await addUser(db, "Jorge Gerente", "manager@mesa.test");
  const cashier = await addUser(db, "Lucía Caja", "cashier@mesa.test");
  const administracion = db.select().from(areas).where(eq(areas.name, "Administración")).get()!.id;
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: administracion, roleId: role(SUPER_ROLE) });
  for (const name of CERRO_VERDE_CAFES) {
    const area = createArea(db, CLI_ACTOR, EVERYTHING, {
      name: "Operaciones de mina",
      cafe_id: cafe(name),
      role_ids: [operatorRole],
    }).id;
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: operator.id, areaId: area, roleId: operatorRole });
  }
  assignRole(db, CLI_ACTOR, EVERYTHING, {
    userId: manager.id,
    areaId: caja("Comedor Principal"),
    roleId: role("cafe manager"),
  });
  assignRole(db, CLI_ACTOR, EVERYTHING, {
    userId: cashier.id,
    areaId: caja("Comedor Principal"),
    roleId: role("cashier"),
  });
  const businessId = db.select().from(businesses).get()!.id;
  return {
    app,
    db,
    businessId,
    mine: byName(mines),
    unit: byName(units),
    cafe,
    people: { root, operator, manager, cashier },
  };
}

/** A form submission from the page, as the page client sends it (errors and flash go back to `from`). */
const submit = submitFrom("/management");
const page = (client: Client, path = "/management", headers: Record<string, string> = {}) =>
  visitPage(client, path, headers);

const partial = (client: Client, path: string, prop: string) =>
  page(client, path, { "x-inertia-partial-component": "management/index", "x-inertia-partial-data": prop });

describe("who may open Management", () => {
  test("management.index and the export need places.view: a cashier gets 403, a cafe manager reads without managing", async () => {
    const w = await buildWorld();
    const cashier = await signedIn(w, w.people.cashier);
    expect((await cashier.visit("/management")).response.status).toBe(403);
    expect((await cashier.get("/management/export/cafes")).status).toBe(403);

    const manager = await signedIn(w, w.people.manager);
    const shown = await page(manager);
    expect(shown.component).toBe("management/index");
    expect(shown.props.can).toEqual({ manage: false, managePrices: true, allPlaces: false });
    expect(shown.props.cafes.data.map((c: any) => c.name)).toEqual(["Comedor Principal"]);
    // Without places.manage every write is refused.
    for (const [method, path, body] of [
      [
        "POST",
        "/management/places",
        {
          mine_id: w.mine("Mina Cerro Verde"),
          unit_id: w.unit("Unidad Norte"),
          cafe_name: "Comedor Nuevo",
          business_id: w.businessId,
        },
      ],
      ["PUT", `/cafes/${w.cafe("Comedor Principal")}`, { name: "Comedor Renombrado", business_id: w.businessId }],
      ["DELETE", `/cafes/${w.cafe("Comedor Principal")}`, {}],
      ["PUT", `/units/${w.unit("Unidad Norte")}`, { name: "Unidad Renombrada" }],
      ["DELETE", `/mines/${w.mine("Mina Cerro Verde")}`, {}],
    ] as const) {
      expect({ path, method, status: (await submitJson(manager, method, path, body)).status }).toEqual({
        path,
        method,
        status: 403,
      });
    }
    expect(w.db.select().from(cafes).all()).toHaveLength(8);
    expect(w.db.select().from(cafes).where(eq(cafes.name, "Comedor Principal")).get()).toBeDefined();
  });

  test("the sidebar offers Management to those with places.view only", async () => {
    const w = await buildWorld();
    const operator = await page(await signedIn(w, w.people.operator));
    expect(operator.props.navigation.some((n: any) => n.route === "management.index")).toBe(true);
    const cashierPage = await page(await signedIn(w, w.people.cashier), "/dashboard");
    expect(cashierPage.props.navigation.some((n: any) => n.route === "management.index")).toBe(false);
  });
});

describe("the three tables", () => {
  test("the cafes tab is the default; each tab sends only its own table, with the demo places", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const cafesTab = (await page(client)).props;
    expect(cafesTab.filters).toEqual({ tab: "cafes", search: "", sort: null, direction: "asc" });
    expect([cafesTab.mines, cafesTab.units]).toEqual([null, null]);
    expect(cafesTab.cafes.total).toBe(8);
    expect(cafesTab.cafes.data.map((c: any) => c.name)).toEqual([
      "Comedor Mineroducto",
      "Comedor Puerto",
      "Comedor Tajo",
      "Comedor Yanacancha",
      "Comedor Principal",
      "Comedor Taller",
      "Comedor Campamento",
      "Comedor Chancadora",
    ]);
    expect(cafesTab.cafes.data[0]).toMatchObject({
      unitName: "Unidad Huarmey",
      mineName: "Mina Antamina",
      businessName: "Mesa Catering S.A.C.",
      timeZone: "America/Lima",
      areas: 1,
    });
    expect(cafesTab.businesses).toEqual([{ id: w.businessId, name: "Mesa Catering S.A.C." }]);
    expect(cafesTab.defaultTimeZone).toBe("America/Lima");
    expect(cafesTab.timeZones[0]).toBe("America/Lima");
    expect(cafesTab.timeZones).toContain("UTC");
    expect(cafesTab.can).toEqual({ manage: true, managePrices: true, allPlaces: true });

    const unitsTab = (await page(client, "/management?tab=units")).props;
    expect([unitsTab.mines, unitsTab.cafes]).toEqual([null, null]);
    expect(unitsTab.units.data.map((u: any) => `${u.mineName} › ${u.name} (${u.cafes})`)).toEqual([
      "Mina Antamina › Unidad Huarmey (2)",
      "Mina Antamina › Unidad Yanacancha (2)",
      "Mina Cerro Verde › Unidad Norte (2)",
      "Mina Cerro Verde › Unidad Sur (2)",
    ]);

    const minesTab = (await page(client, "/management?tab=mines")).props;
    expect([minesTab.units, minesTab.cafes]).toEqual([null, null]);
    expect(minesTab.mines.data.map((m: any) => [m.name, m.units, m.cafes])).toEqual([
      ["Mina Antamina", 2, 4],
      ["Mina Cerro Verde", 2, 4],
    ]);
    // An unknown tab falls back to the cafes.
    expect((await page(client, "/management?tab=dinners")).props.filters.tab).toBe("cafes");
  });

  test("each tab paginates (15 a page) and searches on the server", async () => {
    const w = await buildWorld();
    // 18 more mines, each with one unit and cafe, all named "Mina Lote NN".
    const business = w.businessId;
    for (let i = 1; i <= 18; i++) {
      const n = String(i).padStart(2, "0");
      createPlace(
        w.db,
        CLI_ACTOR,
        EVERYTHING,
        {
          mine_name: `Mina Lote ${n}`,
          unit_name: `Unidad Lote ${n}`,
          cafe_name: `Comedor Lote ${n}`,
          business_id: business,
        },
        DEFAULTS,
      );
    }
    const client = await signedIn(w, w.people.root);

    const cafes1 = (await page(client, "/management?tab=cafes&search=Lote")).props.cafes;
    expect(cafes1).toMatchObject({ total: 18, page: 1, perPage: 15, lastPage: 2 });
    expect(cafes1.data).toHaveLength(15);
    const cafes2 = (await page(client, "/management?tab=cafes&search=Lote&page=2")).props.cafes;
    expect(cafes2.data.map((c: any) => c.name)).toEqual(["Comedor Lote 16", "Comedor Lote 17", "Comedor Lote 18"]);
    // Cafes are found by their unit, mine or business too.
    expect((await page(client, "/management?search=Yanacancha")).props.cafes.data.map((c: any) => c.name)).toEqual([
      "Comedor Tajo",
      "Comedor Yanacancha",
    ]);
    expect(
      (await page(client, "/management?search=Mina%20Lote%2007")).props.cafes.data.map((c: any) => c.name),
    ).toEqual(["Comedor Lote 07"]);
    expect((await page(client, "/management?search=Mesa%20Catering")).props.cafes.total).toBe(26);
    expect((await page(client, "/management?search=zzz")).props.cafes).toMatchObject({
      total: 0,
      data: [],
      lastPage: 1,
    });

    const units2 = (await page(client, "/management?tab=units&search=lote&page=2")).props.units;
    expect(units2).toMatchObject({ total: 18, page: 2, lastPage: 2 });
    expect(units2.data.map((u: any) => u.name)).toEqual(["Unidad Lote 16", "Unidad Lote 17", "Unidad Lote 18"]);
    expect((await page(client, "/management?tab=units&search=Cerro")).props.units.data.map((u: any) => u.name)).toEqual(
      ["Unidad Norte", "Unidad Sur"],
    );

    const mines1 = (await page(client, "/management?tab=mines")).props.mines;
    expect(mines1).toMatchObject({ total: 20, lastPage: 2 });
    expect(mines1.data.map((m: any) => m.name).slice(0, 3)).toEqual([
      "Mina Antamina",
      "Mina Cerro Verde",
      "Mina Lote 01",
    ]);
    const mines2 = (await page(client, "/management?tab=mines&page=2")).props.mines;
    expect(mines2.data.map((m: any) => m.name)).toEqual([
      "Mina Lote 14",
      "Mina Lote 15",
      "Mina Lote 16",
      "Mina Lote 17",
      "Mina Lote 18",
    ]);
    expect((await page(client, "/management?tab=mines&search=anta")).props.mines.data.map((m: any) => m.name)).toEqual([
      "Mina Antamina",
    ]);
  });
});

describe("data scope", () => {
  test("an operator with areas at the cafes of one mine sees only that mine's places in all three tabs", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.operator);
    const cafesTab = (await page(client)).props;
    expect(cafesTab.cafes.data.map((c: any) => c.name).sort()).toEqual([...CERRO_VERDE_CAFES].sort());
    expect(cafesTab.can.allPlaces).toBe(false);
    // No searching their way out of the scope.
    expect((await page(client, "/management?search=Antamina")).props.cafes.total).toBe(0);
    expect((await page(client, "/management?tab=units")).props.units.data.map((u: any) => u.name)).toEqual([
      "Unidad Norte",
      "Unidad Sur",
    ]);
    expect((await page(client, "/management?tab=units&search=Huarmey")).props.units.total).toBe(0);
    expect((await page(client, "/management?tab=mines")).props.mines.data.map((m: any) => m.name)).toEqual([
      "Mina Cerro Verde",
    ]);
  });

  test("the operator gets 404 editing or deleting another mine's places, and nothing changes", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.operator);
    const auditBefore = w.db.select().from(auditLog).all().length;
    for (const [method, path, body] of [
      ["PUT", `/cafes/${w.cafe("Comedor Tajo")}`, { name: "Comedor Tomado", business_id: w.businessId }],
      ["DELETE", `/cafes/${w.cafe("Comedor Tajo")}`, {}],
      ["PUT", `/units/${w.unit("Unidad Huarmey")}`, { name: "Unidad Tomada" }],
      ["DELETE", `/units/${w.unit("Unidad Huarmey")}`, {}],
      ["PUT", `/mines/${w.mine("Mina Antamina")}`, { name: "Mina Tomada" }],
      ["DELETE", `/mines/${w.mine("Mina Antamina")}`, {}],
      [
        "POST",
        "/management/places",
        {
          mine_id: w.mine("Mina Antamina"),
          unit_id: w.unit("Unidad Huarmey"),
          cafe_name: "Comedor Intruso",
          business_id: w.businessId,
        },
      ],
    ] as const) {
      expect({ path, method, status: (await submitJson(client, method, path, body)).status }).toEqual({
        path,
        method,
        status: 404,
      });
      expect({ path, method, status: (await submit(client, method, path, body)).status }).toEqual({
        path,
        method,
        status: 404,
      });
    }
    expect(
      w.db
        .select()
        .from(cafes)
        .where(eq(cafes.id, w.cafe("Comedor Tajo")))
        .get()!.name,
    ).toBe("Comedor Tajo");
    expect(
      w.db
        .select()
        .from(mines)
        .all()
        .map((m) => m.name)
        .sort(),
    ).toEqual(["Mina Antamina", "Mina Cerro Verde"]);
    expect(w.db.select().from(auditLog).all().length).toBe(auditBefore);
    // Their own cafe is theirs to rename.
    expect(
      (
        await submit(client, "PUT", `/cafes/${w.cafe("Comedor Taller")}`, {
          name: "Comedor Taller Central",
          business_id: w.businessId,
        })
      ).status,
    ).toBe(303);
    expect((await page(client)).flash.success).toBe(es("management.saved", { name: "Comedor Taller Central" }));
  });

  test("the operator cannot open the prices of another mine's cafe through the page", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.operator);
    const outside = await client.visit(`/management?prices=${w.cafe("Comedor Tajo")}`, {
      "x-inertia-partial-component": "management/index",
      "x-inertia-partial-data": "cafePrices",
    });
    expect(outside.response.status).toBe(404);
    const own = await partial(client, `/management?prices=${w.cafe("Comedor Principal")}`, "cafePrices");
    expect(own.props.cafePrices.cafe).toEqual({
      id: w.cafe("Comedor Principal"),
      name: "Comedor Principal",
      path: "Mina Cerro Verde › Unidad Norte › Comedor Principal",
      timeZone: "America/Lima",
    });
    // Not sent on a normal visit.
    expect("cafePrices" in (await page(client)).props).toBe(false);
  });
});

describe("the management modal", () => {
  test("store creates mine, unit and cafe, redirects to the cafes tab with a flash, and is audited", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const response = await submit(client, "POST", "/management/places", {
      mine_name: "Mina Toquepala",
      unit_name: "Unidad Tacna",
      cafe_name: "Comedor Tacna",
      business_id: w.businessId,
      time_zone: "America/Bogota",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/management?tab=cafes");
    const shown = await page(client, "/management?tab=cafes&search=Tacna");
    expect(shown.flash.success).toBe(
      es("management.created", { path: "Mina Toquepala › Unidad Tacna › Comedor Tacna" }),
    );
    expect(shown.props.cafes.data).toEqual([
      expect.objectContaining({
        name: "Comedor Tacna",
        unitName: "Unidad Tacna",
        mineName: "Mina Toquepala",
        businessName: "Mesa Catering S.A.C.",
        timeZone: "America/Bogota",
      }),
    ]);
    const audit = w.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ["mine.created", "unit.created", "cafe.created"]))
      .all();
    expect(audit.map((a) => a.action)).toEqual(["mine.created", "unit.created", "cafe.created"]);
    expect(audit.every((a) => a.actorId === w.people.root.id)).toBe(true);
  });

  test("store of only a mine, or a unit in an existing mine, lands on that tab", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const mineOnly = await submit(client, "POST", "/management/places", { mine_name: "Mina Quellaveco" });
    expect(mineOnly.headers.get("location")).toBe("/management?tab=mines");
    expect((await page(client, "/management?tab=units")).flash.success).toBe(
      es("management.created", { path: "Mina Quellaveco" }),
    );
    const unitOnly = await submit(client, "POST", "/management/places", {
      mine_id: w.mine("Mina Quellaveco"),
      unit_name: "Unidad Moquegua",
    });
    expect(unitOnly.headers.get("location")).toBe("/management?tab=units");
    expect(
      w.db
        .select()
        .from(units)
        .where(eq(units.mineId, w.mine("Mina Quellaveco")))
        .all()
        .map((u) => u.name),
    ).toEqual(["Unidad Moquegua"]);
  });

  test("validation errors come back per field, translated, and nothing is created", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const cases: [unknown, Record<string, string>][] = [
      [{}, { mine_name: es("validation.required") }],
      [
        { mine_name: "Mina Cerro Verde", unit_name: "Unidad X" },
        { mine_name: es("places.mine_taken", { name: "Mina Cerro Verde" }) },
      ],
      [
        { mine_id: w.mine("Mina Cerro Verde"), unit_name: "Unidad Norte" },
        { unit_name: es("places.unit_taken", { name: "Unidad Norte" }) },
      ],
      [
        {
          mine_id: w.mine("Mina Cerro Verde"),
          unit_id: w.unit("Unidad Norte"),
          cafe_name: "Comedor Principal",
          business_id: w.businessId,
        },
        { cafe_name: es("places.cafe_taken", { name: "Comedor Principal" }) },
      ],
      [
        { mine_name: "Mina Nueva", unit_name: "Unidad Nueva", cafe_name: "Comedor Nuevo" },
        { business_id: es("validation.required") },
      ],
      [
        {
          mine_name: "Mina Nueva",
          unit_name: "Unidad Nueva",
          cafe_name: "Comedor Nuevo",
          business_id: w.businessId,
          time_zone: "Lima/Peru",
        },
        { time_zone: es("places.time_zone_invalid", { zone: "Lima/Peru" }) },
      ],
      [
        {
          mine_id: w.mine("Mina Antamina"),
          unit_id: w.unit("Unidad Norte"),
          cafe_name: "Comedor Nuevo",
          business_id: w.businessId,
        },
        { unit_id: es("places.unit_not_in_mine") },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await submitJson(client, "POST", "/management/places", body);
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
      expect({ body, errors: (await response.json()).errors }).toEqual({ body, errors });
    }
    // The page client goes back with the errors on the page.
    const back = await submit(
      client,
      "POST",
      "/management/places",
      { mine_name: "Mina Nueva", unit_name: "Unidad Nueva", cafe_name: "Comedor Nuevo" },
      "/management?tab=cafes",
    );
    expect(back.headers.get("location")).toBe("/management?tab=cafes");
    expect((await page(client, "/management?tab=cafes")).props.errors).toEqual({
      business_id: es("validation.required"),
    });
    expect(w.db.select().from(mines).all()).toHaveLength(2);
    expect(w.db.select().from(cafes).all()).toHaveLength(8);
  });

  test("a limited operator must create a cafe, and only for a business they may choose", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.operator);
    // The operator's areas are at cafes, not at a headquarters: no business is theirs to choose.
    expect((await page(client)).props.businesses).toEqual([]);
    const noCafe = await submitJson(client, "POST", "/management/places", {
      mine_name: "Mina Propia",
      unit_name: "Unidad Propia",
    });
    expect(noCafe.status).toBe(422);
    expect((await noCafe.json()).errors).toEqual({ cafe_name: es("places.cafe_required") });
    const withCafe = await submitJson(client, "POST", "/management/places", {
      mine_id: w.mine("Mina Cerro Verde"),
      unit_id: w.unit("Unidad Norte"),
      cafe_name: "Comedor Nuevo",
      business_id: w.businessId,
    });
    expect(withCafe.status).toBe(422);
    expect((await withCafe.json()).errors).toEqual({ business_id: es("places.business_unknown") });
    expect(w.db.select().from(mines).all()).toHaveLength(2);
    expect(w.db.select().from(cafes).all()).toHaveLength(8);
  });

  test("an operations manager (headquarters area) creates a cafe for their business, and then sees it", async () => {
    const w = await buildWorld();
    const ops = await addUser(w.db, "Diego Operaciones", "ops@mesa.test");
    const operaciones = w.db.select().from(areas).where(eq(areas.name, "Operaciones")).get()!.id;
    assignRole(w.db, CLI_ACTOR, EVERYTHING, {
      userId: ops.id,
      areaId: operaciones,
      roleId: findRoleByName(w.db, "operations manager")!.id,
    });
    const client = await signedIn(w, ops);
    expect((await page(client)).props.businesses).toEqual([{ id: w.businessId, name: "Mesa Catering S.A.C." }]);
    const created = await submit(client, "POST", "/management/places", {
      mine_name: "Mina Las Bambas",
      unit_name: "Unidad Apurímac",
      cafe_name: "Comedor Challhuahuacho",
      business_id: w.businessId,
    });
    expect(created.headers.get("location")).toBe("/management?tab=cafes");
    const shown = await page(client, "/management?search=Bambas");
    expect(shown.props.cafes.data.map((c: any) => c.name)).toEqual(["Comedor Challhuahuacho"]);
    expect(
      (await page(client, "/management?tab=mines&search=Bambas")).props.mines.data.map((m: any) => m.name),
    ).toEqual(["Mina Las Bambas"]);
  });

  test("placeSearch: a partial reload returns the matching mines, and the units of a chosen mine, within the scope", async () => {
    const w = await buildWorld();
    const root = await signedIn(w, w.people.root);
    const all = await partial(root, "/management?mine_search=mina", "placeSearch");
    expect(all.props.placeSearch).toEqual({
      mines: [
        { id: w.mine("Mina Antamina"), name: "Mina Antamina", serviceIds: [] },
        { id: w.mine("Mina Cerro Verde"), name: "Mina Cerro Verde", serviceIds: [] },
      ],
      units: [],
    });
    expect(all.props.cafes).toBeUndefined();
    const units = await partial(
      root,
      `/management?mine_search=&mine=${w.mine("Mina Antamina")}&unit_search=hua`,
      "placeSearch",
    );
    expect(units.props.placeSearch.units).toEqual([
      { id: w.unit("Unidad Huarmey"), name: "Unidad Huarmey", serviceIds: [] },
    ]);
    // Not sent on a normal visit.
    expect("placeSearch" in (await page(root)).props).toBe(false);

    const operator = await signedIn(w, w.people.operator);
    const scoped = await partial(operator, "/management?mine_search=mina", "placeSearch");
    expect(scoped.props.placeSearch.mines).toEqual([
      { id: w.mine("Mina Cerro Verde"), name: "Mina Cerro Verde", serviceIds: [] },
    ]);
    const otherMine = await partial(
      operator,
      `/management?mine=${w.mine("Mina Antamina")}&unit_search=`,
      "placeSearch",
    );
    expect(otherMine.props.placeSearch.units).toEqual([]);
    const ownMine = await partial(
      operator,
      `/management?mine=${w.mine("Mina Cerro Verde")}&unit_search=`,
      "placeSearch",
    );
    expect(ownMine.props.placeSearch.units.map((u: any) => u.name)).toEqual(["Unidad Norte", "Unidad Sur"]);
  });
});

describe("sorting on the server", () => {
  test("each tab sorts by its main columns, ascending or descending, then by its default order; other names are ignored", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const names = async (path: string, prop: string) =>
      ((await page(client, path)).props[prop].data as { name: string }[]).map((r) => r.name);
    const defaultCafes = await names("/management", "cafes");

    expect(await names("/management?sort=name", "cafes")).toEqual([...defaultCafes].sort());
    expect(await names("/management?sort=name&direction=desc", "cafes")).toEqual([...defaultCafes].sort().reverse());
    // By unit: Huarmey, Norte, Sur, Yanacancha; within a unit, the default order (the cafe's name).
    expect(await names("/management?sort=unit", "cafes")).toEqual([
      "Comedor Mineroducto",
      "Comedor Puerto",
      "Comedor Principal",
      "Comedor Taller",
      "Comedor Campamento",
      "Comedor Chancadora",
      "Comedor Tajo",
      "Comedor Yanacancha",
    ]);
    const sorted = (await page(client, "/management?sort=unit&direction=desc")).props;
    expect(sorted.filters).toEqual({ tab: "cafes", search: "", sort: "unit", direction: "desc" });
    expect(sorted.cafes.data[0].unitName).toBe("Unidad Yanacancha");
    // A name the list does not allow (or a column that is not sortable) keeps the default order.
    for (const sort of ["price", "id; DROP TABLE cafes", "areas"])
      expect(await names(`/management?sort=${encodeURIComponent(sort)}`, "cafes")).toEqual(defaultCafes);

    createPlace(w.db, CLI_ACTOR, EVERYTHING, { mine_name: "Mina Zeta", unit_name: "Unidad Zeta" }, DEFAULTS);
    expect(await names("/management?tab=mines&sort=name&direction=desc", "mines")).toEqual([
      "Mina Zeta",
      "Mina Cerro Verde",
      "Mina Antamina",
    ]);
    // By number of cafes: Mina Zeta has none; the two demo mines tie and keep their default order.
    expect(await names("/management?tab=mines&sort=cafes", "mines")).toEqual([
      "Mina Zeta",
      "Mina Antamina",
      "Mina Cerro Verde",
    ]);
    expect(await names("/management?tab=units&sort=cafes&direction=desc", "units")).toEqual([
      "Unidad Huarmey",
      "Unidad Yanacancha",
      "Unidad Norte",
      "Unidad Sur",
      "Unidad Zeta",
    ]);
    expect(await names("/management?tab=units&sort=mine&direction=desc", "units")).toEqual([
      "Unidad Zeta",
      "Unidad Norte",
      "Unidad Sur",
      "Unidad Huarmey",
      "Unidad Yanacancha",
    ]);
  });

  test("a sorted list still pages and stays within the scope", async () => {
    const w = await buildWorld();
    for (let i = 1; i <= 16; i++)
      createPlace(
        w.db,
        CLI_ACTOR,
        EVERYTHING,
        {
          mine_id: w.mine("Mina Antamina"),
          unit_id: w.unit("Unidad Yanacancha"),
          cafe_name: `Comedor Extra ${String(i).padStart(2, "0")}`,
          business_id: w.businessId,
        },
        DEFAULTS,
      );
    const root = await signedIn(w, w.people.root);
    const first = (await page(root, "/management?sort=name&direction=desc")).props.cafes;
    const second = (await page(root, "/management?sort=name&direction=desc&page=2")).props.cafes;
    expect(first).toMatchObject({ total: 24, page: 1, lastPage: 2 });
    const all = [...first.data, ...second.data].map((c: any) => c.name);
    expect(all).toEqual([...all].sort().reverse());
    expect(new Set(all).size).toBe(24);

    const operator = await signedIn(w, w.people.operator);
    const scoped = (await page(operator, "/management?sort=name&direction=desc")).props.cafes;
    expect(scoped.data.map((c: any) => c.name)).toEqual([...CERRO_VERDE_CAFES].sort().reverse());
  });
});

describe("a cafe's prices in the list", () => {
  test("each cafe row carries the price of every service it offers, in cents, none for an unpriced one", async () => {
    const w = await buildWorld();
    await servicesSeeder.run(w.db, w.app.config);
    const idOf = (code: string) => w.db.select().from(services).where(eq(services.code, code)).get()!.id;
    w.db
      .update(cafeServices)
      .set({ priceCents: null })
      .where(and(eq(cafeServices.cafeId, w.cafe("Comedor Puerto")), eq(cafeServices.serviceId, idOf("REF"))))
      .run();
    const client = await signedIn(w, w.people.root);
    const rows = (await page(client, "/management?search=Huarmey")).props.cafes.data;
    const puerto = rows.find((c: any) => c.name === "Comedor Puerto");
    const byCode = Object.fromEntries(
      puerto.prices.map((p: any) => [
        w.db.select().from(services).where(eq(services.id, p.serviceId)).get()!.code,
        p.priceCents,
      ]),
    );
    // Huarmey's prices are 50 cents lower and it serves no dinner.
    expect(byCode).toEqual({ DES: 1200, ALM: 1750, REF: null, DSC: 100 });
    expect(puerto).toMatchObject({ priced: 3 });
    expect([...puerto.serviceIds].sort()).toEqual(puerto.prices.map((p: any) => p.serviceId).sort());
  });
});

describe("a new cafe made sellable in one flow", () => {
  const ids = (db: Db) => {
    const of = (code: string) => db.select().from(services).where(eq(services.code, code)).get()!.id;
    return { DES: of("DES"), ALM: of("ALM"), CEN: of("CEN"), REF: of("REF"), DSC: of("DSC") };
  };
  const offeredBy = (db: Db, kind: "mine" | "unit" | "cafe", id: number) => {
    const rows =
      kind === "mine"
        ? db.select({ s: mineServices.serviceId }).from(mineServices).where(eq(mineServices.mineId, id)).all()
        : kind === "unit"
          ? db.select({ s: unitServices.serviceId }).from(unitServices).where(eq(unitServices.unitId, id)).all()
          : db.select({ s: cafeServices.serviceId }).from(cafeServices).where(eq(cafeServices.cafeId, id)).all();
    return rows.map((r) => r.s).sort((a, b) => a - b);
  };
  const pricesOf = (db: Db, cafeId: number) =>
    Object.fromEntries(
      db
        .select({ code: services.code, cents: cafeServices.priceCents })
        .from(cafeServices)
        .innerJoin(services, eq(services.id, cafeServices.serviceId))
        .where(eq(cafeServices.cafeId, cafeId))
        .all()
        .map((r) => [r.code, r.cents]),
    );
  const counts = (db: Db) => ({
    mines: db.select().from(mines).all().length,
    units: db.select().from(units).all().length,
    cafes: db.select().from(cafes).all().length,
    cafeServices: db.select().from(cafeServices).all().length,
    history: db.select().from(servicePriceHistory).all().length,
    audit: db.select().from(auditLog).all().length,
  });

  test("in an existing unit: the cafe gets the chosen services with their prices, history and audit, in one request", async () => {
    const w = await buildWorld();
    await servicesSeeder.run(w.db, w.app.config);
    const s = ids(w.db);
    const client = await signedIn(w, w.people.root);
    // The modal's search tells what the chosen mine and unit offer.
    const search = await partial(
      client,
      `/management?mine_search=cerro&mine=${w.mine("Mina Cerro Verde")}`,
      "placeSearch",
    );
    expect(search.props.placeSearch.mines[0].serviceIds.sort()).toEqual(Object.values(s).sort());
    expect(search.props.placeSearch.units.find((u: any) => u.name === "Unidad Norte").serviceIds.sort()).toEqual(
      Object.values(s).sort(),
    );
    const auditBefore = w.db.select().from(auditLog).all().length;
    const response = await submit(client, "POST", "/management/places", {
      mine_id: w.mine("Mina Cerro Verde"),
      unit_id: w.unit("Unidad Norte"),
      cafe_name: "Comedor Nuevo",
      business_id: w.businessId,
      services: [
        { service_id: s.ALM, price: "18.50" },
        { service_id: s.DES, price: "12" },
        { service_id: s.REF, price: "" },
      ],
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/management?tab=cafes");
    const cafeId = w.cafe("Comedor Nuevo");
    expect(pricesOf(w.db, cafeId)).toEqual({ ALM: 1850, DES: 1200, REF: null });
    const history = w.db.select().from(servicePriceHistory).where(eq(servicePriceHistory.cafeId, cafeId)).all();
    expect(history.map((h) => [h.serviceId, h.oldPriceCents, h.newPriceCents, h.changedBy]).sort()).toEqual(
      [
        [s.ALM, null, 1850, w.people.root.id],
        [s.DES, null, 1200, w.people.root.id],
      ].sort(),
    );
    const audit = w.db.select().from(auditLog).all().slice(auditBefore);
    expect(audit.map((a) => [a.action, a.subjectType, a.subjectId])).toEqual([
      ["cafe.created", "cafe", cafeId],
      ["place.services.updated", "cafe", cafeId],
      ["cafe.prices.updated", "cafe", cafeId],
    ]);
    expect(JSON.parse(audit[1].after!)).toEqual({ services: ["ALM", "DES", "REF"] });
    expect(JSON.parse(audit[2].after!)).toEqual({ ALM: 1850, DES: 1200 });
    expect(audit.every((a) => a.actorId === w.people.root.id)).toBe(true);
    // The unit already offered them all: it is not touched.
    expect(offeredBy(w.db, "unit", w.unit("Unidad Norte"))).toEqual(Object.values(s).sort((a, b) => a - b));

    const shown = await page(client, "/management?search=Comedor%20Nuevo");
    expect(shown.flash.success).toBe(
      es("management.created_sellable", {
        path: "Mina Cerro Verde › Unidad Norte › Comedor Nuevo",
        count: 3,
        priced: 2,
      }),
    );
    expect(shown.props.cafes.data[0]).toMatchObject({ name: "Comedor Nuevo", priced: 2 });
    expect(shown.props.cafes.data[0].serviceIds.sort()).toEqual([s.DES, s.ALM, s.REF].sort());
  });

  test("a mine's service the unit lacks is added to the unit; a new mine and unit get the chosen services too", async () => {
    const w = await buildWorld();
    await servicesSeeder.run(w.db, w.app.config);
    const s = ids(w.db);
    const client = await signedIn(w, w.people.root);
    // Huarmey serves no dinner, but its mine does: choosing it adds it to the unit as well.
    expect(offeredBy(w.db, "unit", w.unit("Unidad Huarmey"))).not.toContain(s.CEN);
    const coastal = await submitJson(client, "POST", "/management/places", {
      mine_id: w.mine("Mina Antamina"),
      unit_id: w.unit("Unidad Huarmey"),
      cafe_name: "Comedor Caleta",
      business_id: w.businessId,
      services: [{ service_id: s.CEN, price: "16.00" }],
    });
    expect(coastal.status).toBe(302);
    expect(offeredBy(w.db, "unit", w.unit("Unidad Huarmey"))).toContain(s.CEN);
    expect(pricesOf(w.db, w.cafe("Comedor Caleta"))).toEqual({ CEN: 1600 });
    const unitAudit = w.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "place.services.updated"), eq(auditLog.subjectType, "unit")))
      .all();
    expect(unitAudit.map((a) => [a.subjectId, JSON.parse(a.before!), JSON.parse(a.after!)])).toEqual([
      [
        w.unit("Unidad Huarmey"),
        { services: ["ALM", "DES", "DSC", "REF"] },
        { services: ["ALM", "CEN", "DES", "DSC", "REF"] },
      ],
    ]);

    // A new mine offers nothing yet: any active service may be chosen, and it goes down mine → unit → cafe.
    const fresh = await submitJson(client, "POST", "/management/places", {
      mine_name: "Mina Toquepala",
      unit_name: "Unidad Tacna",
      cafe_name: "Comedor Tacna",
      business_id: w.businessId,
      services: [
        { service_id: s.DES, price: "11.00" },
        { service_id: s.ALM, price: "17.90" },
      ],
    });
    expect(fresh.status).toBe(302);
    expect(offeredBy(w.db, "mine", w.mine("Mina Toquepala"))).toEqual([s.DES, s.ALM].sort((a, b) => a - b));
    expect(offeredBy(w.db, "unit", w.unit("Unidad Tacna"))).toEqual([s.DES, s.ALM].sort((a, b) => a - b));
    expect(pricesOf(w.db, w.cafe("Comedor Tacna"))).toEqual({ DES: 1100, ALM: 1790 });
    const actions = w.db
      .select()
      .from(auditLog)
      .all()
      .filter((a) => a.action !== "cafe.prices.updated" || a.subjectId === w.cafe("Comedor Tacna"))
      .slice(-7)
      .map((a) => `${a.action} ${a.subjectType}`);
    expect(actions).toEqual([
      "mine.created mine",
      "unit.created unit",
      "cafe.created cafe",
      "place.services.updated mine",
      "place.services.updated unit",
      "place.services.updated cafe",
      "cafe.prices.updated cafe",
    ]);
  });

  test("a service the mine does not offer, an inactive one, a price that is not soles, or services without a cafe: refused, nothing written", async () => {
    const w = await buildWorld();
    await servicesSeeder.run(w.db, w.app.config);
    const s = ids(w.db);
    const extra = createService(w.db, CLI_ACTOR, { code: "EXT", name: "Extra", type: "snack" }).id;
    const retired = createService(w.db, CLI_ACTOR, { code: "RET", name: "Retirado", type: "snack", active: false }).id;
    const client = await signedIn(w, w.people.root);
    const before = counts(w.db);
    const existing = {
      mine_id: w.mine("Mina Cerro Verde"),
      unit_id: w.unit("Unidad Norte"),
      cafe_name: "Comedor Nuevo",
      business_id: w.businessId,
    };
    const cases: [unknown, Record<string, string>][] = [
      [
        { ...existing, services: [{ service_id: extra, price: "5.00" }] },
        { [`services.${extra}`]: es("places.service_not_in_mine", { service: "EXT · Extra" }) },
      ],
      [
        {
          mine_name: "Mina Nueva",
          unit_name: "Unidad Nueva",
          cafe_name: "Comedor Nuevo",
          business_id: w.businessId,
          services: [{ service_id: retired }],
        },
        { [`services.${retired}`]: es("services.inactive_service", { service: "RET · Retirado" }) },
      ],
      [
        {
          ...existing,
          services: [
            { service_id: s.ALM, price: "18,505" },
            { service_id: s.DES, price: "-3" },
          ],
        },
        { [`prices.${s.ALM}`]: es("services.price_invalid"), [`prices.${s.DES}`]: es("services.price_invalid") },
      ],
      [
        {
          ...existing,
          services: [
            { service_id: s.ALM, price: "18" },
            { service_id: s.ALM, price: "19" },
          ],
        },
        { [`prices.${s.ALM}`]: es("services.price_repeated") },
      ],
      [{ ...existing, services: [{ service_id: 9999 }] }, { services: es("services.unknown_services") }],
      [
        { mine_name: "Mina Nueva", unit_name: "Unidad Nueva", services: [{ service_id: s.ALM, price: "18" }] },
        { services: es("places.services_need_cafe") },
      ],
      // The place's own problems come back together with the services'.
      [
        { ...existing, cafe_name: "Comedor Principal", services: [{ service_id: s.ALM, price: "abc" }] },
        {
          cafe_name: es("places.cafe_taken", { name: "Comedor Principal" }),
          [`prices.${s.ALM}`]: es("services.price_invalid"),
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await submitJson(client, "POST", "/management/places", body);
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
      expect({ body, errors: (await response.json()).errors }).toEqual({ body, errors });
    }
    expect(counts(w.db)).toEqual(before);
  });

  test("scope and permission: a limited operator only inside their places, and prices only with prices.manage", async () => {
    const w = await buildWorld();
    await servicesSeeder.run(w.db, w.app.config);
    const s = ids(w.db);
    const before = counts(w.db);
    // Another mine's unit is out of the operator's sight: 404 before any service is looked at.
    const operator = await signedIn(w, w.people.operator);
    const outside = await submitJson(operator, "POST", "/management/places", {
      mine_id: w.mine("Mina Antamina"),
      unit_id: w.unit("Unidad Huarmey"),
      cafe_name: "Comedor Intruso",
      business_id: w.businessId,
      services: [{ service_id: s.CEN, price: "1" }],
    });
    expect(outside.status).toBe(404);
    // Inside their mine they still need a business of theirs.
    const inside = await submitJson(operator, "POST", "/management/places", {
      mine_id: w.mine("Mina Cerro Verde"),
      unit_id: w.unit("Unidad Norte"),
      cafe_name: "Comedor Propio",
      business_id: w.businessId,
      services: [{ service_id: s.ALM, price: "18" }],
    });
    expect(inside.status).toBe(422);
    expect((await inside.json()).errors).toEqual({ business_id: es("places.business_unknown") });
    expect(counts(w.db)).toEqual(before);

    // At headquarters with places.manage but not prices.manage: services yes, prices no.
    const keeper = await addUser(w.db, "Pía Lugares", "places@mesa.test");
    const keeperRole = makeRole(w.db, "places keeper", ["places.view", "places.manage"]);
    const operaciones = w.db.select().from(areas).where(eq(areas.name, "Operaciones")).get()!;
    createArea(w.db, CLI_ACTOR, EVERYTHING, {
      name: "Lugares",
      headquarters_id: operaciones.headquartersId!,
      role_ids: [keeperRole],
    });
    const lugares = w.db.select().from(areas).where(eq(areas.name, "Lugares")).get()!.id;
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: keeper.id, areaId: lugares, roleId: keeperRole });
    const client = await signedIn(w, keeper);
    const body = {
      mine_id: w.mine("Mina Cerro Verde"),
      unit_id: w.unit("Unidad Sur"),
      cafe_name: "Comedor Sin Precios",
      business_id: w.businessId,
    };
    const priced = await submitJson(client, "POST", "/management/places", {
      ...body,
      services: [{ service_id: s.ALM, price: "18" }],
    });
    expect(priced.status).toBe(403);
    expect(w.db.select().from(cafes).where(eq(cafes.name, "Comedor Sin Precios")).get()).toBeUndefined();
    const unpriced = await submitJson(client, "POST", "/management/places", {
      ...body,
      services: [{ service_id: s.ALM }, { service_id: s.DES, price: "" }],
    });
    expect(unpriced.status).toBe(302);
    expect(pricesOf(w.db, w.cafe("Comedor Sin Precios"))).toEqual({ ALM: null, DES: null });
  });
});

describe("edits and deletes", () => {
  test("renaming a unit to a name its mine already has is refused on the name field; a good rename is saved", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const clash = await submitJson(client, "PUT", `/units/${w.unit("Unidad Sur")}`, { name: "Unidad Norte" });
    expect(clash.status).toBe(422);
    expect((await clash.json()).errors).toEqual({ name: es("places.unit_taken", { name: "Unidad Norte" }) });
    const saved = await submit(
      client,
      "PUT",
      `/units/${w.unit("Unidad Sur")}`,
      { name: "Unidad Sur Alta" },
      "/management?tab=units",
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/management?tab=units");
    expect((await page(client, "/management?tab=units")).flash.success).toBe(
      es("management.saved", { name: "Unidad Sur Alta" }),
    );
    const cafeClash = await submitJson(client, "PUT", `/cafes/${w.cafe("Comedor Taller")}`, {
      name: "Comedor Principal",
      business_id: w.businessId,
    });
    expect((await cafeClash.json()).errors).toEqual({ name: es("places.cafe_taken", { name: "Comedor Principal" }) });
    const noBusiness = await submitJson(client, "PUT", `/cafes/${w.cafe("Comedor Taller")}`, {
      name: "Comedor Taller",
    });
    expect((await noBusiness.json()).errors).toEqual({ business_id: es("validation.required") });
  });

  test("a refused delete shows the message as a form error and deletes nothing", async () => {
    const w = await buildWorld();
    const now = new Date();
    const dealership = w.db
      .insert(dealerships)
      .values({ name: "Transportes Andinos S.A.", ruc: "20123456789", createdAt: now, updatedAt: now })
      .returning()
      .get().id;
    const sub = w.db
      .insert(subdealerships)
      .values({ dealershipId: dealership, name: "Volquetes Sur", ruc: "20111111111", createdAt: now, updatedAt: now })
      .returning()
      .get().id;
    w.db
      .insert(subdealershipUnits)
      .values({ subdealershipId: sub, unitId: w.unit("Unidad Sur") })
      .run();
    const client = await signedIn(w, w.people.root);
    const before = {
      mines: w.db.select().from(mines).all().length,
      units: w.db.select().from(units).all().length,
      cafes: w.db.select().from(cafes).all().length,
    };

    const refusals: [string, string, string][] = [
      [
        `/mines/${w.mine("Mina Cerro Verde")}`,
        "mines",
        es("places.mine_in_use", { name: "Mina Cerro Verde", units: 2 }),
      ],
      [
        `/units/${w.unit("Unidad Sur")}`,
        "units",
        es("places.unit_in_use", { name: "Unidad Sur", cafes: 2, subdealerships: 1 }),
      ],
      [
        `/cafes/${w.cafe("Comedor Taller")}`,
        "cafes",
        es("places.cafe_in_use", { name: "Comedor Taller", areas: 2, properties: 0 }),
      ],
    ];
    for (const [path, tab, text] of refusals) {
      const response = await submit(client, "DELETE", path, {}, `/management?tab=${tab}`);
      expect({ path, status: response.status }).toEqual({ path, status: 303 });
      expect(response.headers.get("location")).toBe(`/management?tab=${tab}`);
      // (Read on the cafes tab, so that this checks the refusal whatever the tab's table shows.)
      const shown = await page(client, "/management?tab=cafes");
      expect(shown.props.errors).toEqual({ form: text });
      expect(shown.flash.success).toBeUndefined();
      // A JSON client gets a 409 with the same message.
      const json = await submitJson(client, "DELETE", path);
      expect(json.status).toBe(409);
      expect((await json.json()).message).toBe(text);
    }
    expect({
      mines: w.db.select().from(mines).all().length,
      units: w.db.select().from(units).all().length,
      cafes: w.db.select().from(cafes).all().length,
    }).toEqual(before);
    expect(
      w.db
        .select()
        .from(auditLog)
        .all()
        .filter((a) => a.action.endsWith(".deleted")),
    ).toEqual([]);
  });

  test("an empty cafe, then its unit, then its mine are deleted with a flash each, and audited", async () => {
    const w = await buildWorld();
    const made = createPlace(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      {
        mine_name: "Mina Efímera",
        unit_name: "Unidad Efímera",
        cafe_name: "Comedor Efímero",
        business_id: w.businessId,
      },
      DEFAULTS,
    );
    const client = await signedIn(w, w.people.root);
    for (const [path, tab, name] of [
      [`/cafes/${made.cafe!.id}`, "cafes", "Comedor Efímero"],
      [`/units/${made.unit!.id}`, "units", "Unidad Efímera"],
      [`/mines/${made.mine.id}`, "mines", "Mina Efímera"],
    ]) {
      const response = await submit(client, "DELETE", path, {}, `/management?tab=${tab}`);
      expect({ path, status: response.status }).toEqual({ path, status: 303 });
      const shown = await page(client, `/management?tab=cafes`);
      expect(shown.flash.success).toBe(es("management.deleted", { name }));
    }
    expect(w.db.select().from(mines).where(eq(mines.id, made.mine.id)).get()).toBeUndefined();
    const deleted = w.db
      .select()
      .from(auditLog)
      .all()
      .filter((a) => a.action.endsWith(".deleted"));
    expect(deleted.map((a) => [a.action, a.subjectId, a.actorId])).toEqual([
      ["cafe.deleted", made.cafe!.id, w.people.root.id],
      ["unit.deleted", made.unit!.id, w.people.root.id],
      ["mine.deleted", made.mine.id, w.people.root.id],
    ]);
  });
});
