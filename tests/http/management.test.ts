/**
 * Management through the app: the mines, units and cafes tabs (permission, server-side search and pagination,
 * data scope), the management modal's route and its searches, edits and deletes with their refusals, and each
 * table's Excel export.
 *
 * The world is the demo seed: Mesa Catering S.A.C. with Mina Cerro Verde (Unidad Norte: Comedor Principal, Comedor
 * Taller; Unidad Sur: Comedor Campamento, Comedor Chancadora) and Mina Antamina (Unidad Yanacancha: Comedor
 * Yanacancha, Comedor Tajo; Unidad Huarmey: Comedor Puerto, Comedor Mineroducto). People: a super-administrator;
 * a "mine operator" with areas at each Cerro Verde cafe; a cafe manager (places.view, no places.manage) at
 * Comedor Principal; a cashier (no places.view) there too.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { translate } from "../../src/i18n";
import {
  areas,
  auditLog,
  businesses,
  cafes,
  dealerships,
  mines,
  subdealerships,
  subdealershipUnits,
  units,
} from "../../db/schema";
import { accessSeeder } from "../../db/seeds/access";
import { placesSeeder } from "../../db/seeds/places";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createPlace } from "../../src/domain/places/places";
import { Client, createTestApp, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submitFrom, submitJson, visitPage } from "../support/requests";

const es = (key: string, params?: Record<string, string | number>) => translate("es", key, params);
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
    expect(cafesTab.filters).toEqual({ tab: "cafes", search: "" });
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
        { id: w.mine("Mina Antamina"), name: "Mina Antamina" },
        { id: w.mine("Mina Cerro Verde"), name: "Mina Cerro Verde" },
      ],
      units: [],
    });
    expect(all.props.cafes).toBeUndefined();
    const units = await partial(
      root,
      `/management?mine_search=&mine=${w.mine("Mina Antamina")}&unit_search=hua`,
      "placeSearch",
    );
    expect(units.props.placeSearch.units).toEqual([{ id: w.unit("Unidad Huarmey"), name: "Unidad Huarmey" }]);
    // Not sent on a normal visit.
    expect("placeSearch" in (await page(root)).props).toBe(false);

    const operator = await signedIn(w, w.people.operator);
    const scoped = await partial(operator, "/management?mine_search=mina", "placeSearch");
    expect(scoped.props.placeSearch.mines).toEqual([{ id: w.mine("Mina Cerro Verde"), name: "Mina Cerro Verde" }]);
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
