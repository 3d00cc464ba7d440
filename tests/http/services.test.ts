/**
 * Places and services through the app: the Services catalogue (CRUD, validation, duplicate codes, the delete
 * guard), services offered down the mine → unit → cafe tree (the containment rule, the confirmation before a
 * removal reaches the children), cafe prices with their history, data scope, audit rows, and the seeder.
 *
 * The world: Mina Norte → Unidad A → Comedor A, Mina Norte → Unidad A2 → Comedor A2, Mina Sur → Unidad B → Comedor B.
 */
import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { and, eq } from "drizzle-orm";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import {
  auditLog,
  cafes,
  cafeServices,
  mineServices,
  servicePriceHistory,
  services,
  units,
  unitServices,
} from "../../db/schema";
import { accessSeeder, bootstrapAccess, STARTING_ROLES } from "../../db/seeds/access";
import { servicesSeeder } from "../../db/seeds/services";
import { placesSeeder } from "../../db/seeds/places";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { PERMISSION_DEFAULTS } from "../../src/domain/access/catalogue";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { offerService } from "../../src/domain/places/service-assignments";
import { createService } from "../../src/domain/places/services";
import { Client, createTestApp, embeddedPage, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submitFrom, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

interface World {
  app: TestApp;
  db: Db;
  places: {
    mineNorte: number;
    mineSur: number;
    unitA: number;
    unitA2: number;
    unitB: number;
    cafeA: number;
    cafeA2: number;
    cafeB: number;
  };
  svc: { DES: number; ALM: number; CEN: number; OLD: number };
  people: { root: User; managerA: User; viewer: User };
}

async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeA2 = ensureCafe(db, "Mina Norte", "Unidad A2", "Comedor A2", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", x.businessId);
  const unitOf = (cafeId: number) => db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.unitId;
  const mineOf = (unitId: number) => db.select().from(units).where(eq(units.id, unitId)).get()!.mineId;
  const places = {
    cafeA,
    cafeA2,
    cafeB,
    unitA: unitOf(cafeA),
    unitA2: unitOf(cafeA2),
    unitB: unitOf(cafeB),
    mineNorte: mineOf(unitOf(cafeA)),
    mineSur: mineOf(unitOf(cafeB)),
  };
  const svc = {
    DES: createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id,
    ALM: createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id,
    CEN: createService(db, CLI_ACTOR, { code: "CEN", name: "Cena", type: "dinner" }).id,
    OLD: createService(db, CLI_ACTOR, { code: "OLD", name: "Antiguo", type: "snack", active: false }).id,
  };
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const manager = makeRole(db, "cafe manager", ["services.view", "places.view", "places.manage", "prices.manage"]);
  const viewerRole = makeRole(db, "viewer", ["services.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: x.headquartersId,
    role_ids: [superRole],
  }).id;
  const cajaA = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Caja A",
    cafe_id: cafeA,
    role_ids: [manager, viewerRole],
  }).id;
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  const managerA = await addUser(db, "Gerente A", "manager.a@mesa.test");
  const viewer = await addUser(db, "Vera Vista", "viewer@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: sede, roleId: superRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: managerA.id, areaId: cajaA, roleId: manager });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: viewer.id, areaId: cajaA, roleId: viewerRole });
  return { app, db, places, svc, people: { root, managerA, viewer } };
}

/** DES and ALM offered everywhere on the Norte side (mine, both units, both cafes) and on the Sur side. */
function offerDesAlm(w: World): void {
  const { places: p, svc } = w;
  for (const s of [svc.DES, svc.ALM]) {
    for (const mine of [p.mineNorte, p.mineSur]) offerService(w.db, "mine", mine, s);
    for (const unit of [p.unitA, p.unitA2, p.unitB]) offerService(w.db, "unit", unit, s);
    for (const cafe of [p.cafeA, p.cafeA2, p.cafeB]) offerService(w.db, "cafe", cafe, s);
  }
}

const submit = submitFrom("/services");
const page = (client: Client, path = "/services", headers: Record<string, string> = {}) =>
  visitPage(client, path, headers);

const offered = (db: Db, table: "mine" | "unit" | "cafe", id: number): number[] => {
  if (table === "mine")
    return db
      .select()
      .from(mineServices)
      .where(eq(mineServices.mineId, id))
      .all()
      .map((r) => r.serviceId)
      .sort();
  if (table === "unit")
    return db
      .select()
      .from(unitServices)
      .where(eq(unitServices.unitId, id))
      .all()
      .map((r) => r.serviceId)
      .sort();
  return db
    .select()
    .from(cafeServices)
    .where(eq(cafeServices.cafeId, id))
    .all()
    .map((r) => r.serviceId)
    .sort();
};

const auditActions = (db: Db) =>
  db
    .select()
    .from(auditLog)
    .all()
    .map((a) => a.action);

describe("the Services catalogue", () => {
  test("a super-administrator creates, edits and deletes a service, each audited", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const created = await submit(client, "POST", "/services", {
      code: "ref-1",
      name: "Refrigerio",
      type: "snack",
      description: "Entre turnos",
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/services");
    const row = w.db.select().from(services).where(eq(services.code, "REF-1")).get()!;
    expect(row).toMatchObject({ name: "Refrigerio", type: "snack", description: "Entre turnos", active: true });
    expect((await page(client)).flash.success).toBe(es("services.saved", { code: "REF-1" }));

    const updated = await submit(client, "PUT", `/services/${row.id}`, {
      code: "REF",
      name: "Refrigerio de tarde",
      type: "snack",
      active: false,
    });
    expect(updated.status).toBe(303);
    expect(w.db.select().from(services).where(eq(services.id, row.id)).get()).toMatchObject({
      code: "REF",
      name: "Refrigerio de tarde",
      active: false,
      description: "Entre turnos",
    });

    const deleted = await submit(client, "DELETE", `/services/${row.id}`);
    expect(deleted.status).toBe(303);
    expect(w.db.select().from(services).where(eq(services.id, row.id)).get()).toBeUndefined();

    const audit = w.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, row.id))
      .all()
      .filter((a) => a.subjectType === "service");
    expect(audit.map((a) => a.action)).toEqual(["service.created", "service.updated", "service.deleted"]);
    expect(audit.every((a) => a.actorId === w.people.root.id)).toBe(true);
    expect(JSON.parse(audit[1].before!)).toMatchObject({ code: "REF-1", active: true });
    expect(JSON.parse(audit[1].after!)).toMatchObject({ code: "REF", active: false });
  });

  test("lists services paginated, searchable by code or name, filtered by type and status", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.viewer);
    const all = (await page(client)).props;
    expect(all.services.data.map((s: any) => s.code)).toEqual(["ALM", "CEN", "DES", "OLD"]);
    expect(all.services.total).toBe(4);
    expect(all.can).toEqual({ manage: false, viewPlaces: false });
    expect((await page(client, "/services?search=desa")).props.services.data.map((s: any) => s.code)).toEqual(["DES"]);
    expect((await page(client, "/services?search=CE")).props.services.data.map((s: any) => s.code)).toEqual(["CEN"]);
    expect((await page(client, "/services?type=lunch")).props.services.data.map((s: any) => s.code)).toEqual(["ALM"]);
    expect((await page(client, "/services?status=inactive")).props.services.data.map((s: any) => s.code)).toEqual([
      "OLD",
    ]);
    expect((await page(client, "/services?status=active&type=snack")).props.services.data).toEqual([]);
    // A viewer cannot write.
    expect((await submitJson(client, "POST", "/services", { code: "X", name: "Equis", type: "lunch" })).status).toBe(
      403,
    );
  });

  test("validation: required fields, code format, type choice; a duplicate code is refused whatever its case", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const empty = await submitJson(client, "POST", "/services", {});
    expect(empty.status).toBe(422);
    expect((await empty.json()).errors).toEqual({
      code: es("validation.required"),
      name: es("validation.required"),
      type: es("validation.required"),
    });
    const bad = await submitJson(client, "POST", "/services", { code: "a b!", name: "X", type: "brunch" });
    expect((await bad.json()).errors).toEqual({
      code: es("services.code_format"),
      name: es("validation.min_length", { min: 2 }),
      type: es("validation.invalid_choice"),
    });
    const duplicate = await submitJson(client, "POST", "/services", {
      code: "des",
      name: "Otro desayuno",
      type: "breakfast",
    });
    expect(duplicate.status).toBe(422);
    expect((await duplicate.json()).errors).toEqual({ code: es("services.code_taken", { code: "DES" }) });
    // Renaming another service to an existing code too; keeping its own code is fine.
    expect(
      (await submitJson(client, "PUT", `/services/${w.svc.ALM}`, { code: "DES", name: "Almuerzo", type: "lunch" }))
        .status,
    ).toBe(422);
    expect(
      (await submit(client, "PUT", `/services/${w.svc.ALM}`, { code: "ALM", name: "Almuerzo criollo", type: "lunch" }))
        .status,
    ).toBe(303);
    // The page client goes back with the errors shown on the page.
    await submit(client, "POST", "/services", { code: "DES", name: "Desayuno 2", type: "breakfast" });
    expect((await page(client)).props.errors).toEqual({ code: es("services.code_taken", { code: "DES" }) });
    expect(w.db.select().from(services).all()).toHaveLength(4);
    // Unknown service: 404.
    expect(
      (await submitJson(client, "PUT", "/services/9999", { code: "ZZZ", name: "Nada", type: "lunch" })).status,
    ).toBe(404);
  });

  test("a service cannot be deleted while any place offers it", async () => {
    const w = await buildWorld();
    offerService(w.db, "mine", w.places.mineNorte, w.svc.CEN);
    const client = await signedIn(w, w.people.root);
    const json = await submitJson(client, "DELETE", `/services/${w.svc.CEN}`);
    expect(json.status).toBe(409);
    expect((await json.json()).message).toBe(
      es("services.in_use", { code: "CEN", mines: 1, units: 0, cafes: 0, businesses: 0 }),
    );
    const form = await submit(client, "DELETE", `/services/${w.svc.CEN}`);
    expect(form.status).toBe(303);
    expect((await page(client)).props.errors.form).toBe(
      es("services.in_use", { code: "CEN", mines: 1, units: 0, cafes: 0, businesses: 0 }),
    );
    expect(w.db.select().from(services).where(eq(services.id, w.svc.CEN)).get()).toBeDefined();
    expect(auditActions(w.db)).not.toContain("service.deleted");
  });
});

describe("the catalogue's Excel export", () => {
  test("lists the services matching the filters, in the user's language, with how many places offer each", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const viewer = await signedIn(w, w.people.viewer);
    const response = await viewer.get("/services/export?status=active&search=a");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="mesa-services-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    // "Antiguo" matches the search but is inactive. ALM and DES are offered by 2 mines, 3 units and 3 cafes.
    expect(rows).toEqual([
      ["Código", "Nombre", "Tipo", "Descripción", "Estado", "Lugares"],
      ["ALM", "Almuerzo", "Almuerzo", "", "Activo", 8],
      ["CEN", "Cena", "Cena", "", "Activo", 0],
      ["DES", "Desayuno", "Desayuno", "", "Activo", 8],
    ]);
    // A guest is sent to sign in.
    expect((await new Client(w.app).get("/services/export")).headers.get("location")).toBe("/login");
  });
});

describe("services down the place tree", () => {
  test("a unit may only offer its mine's services and a cafe only its unit's, with one message per service", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const { places: p, svc } = w;
    // A mine may offer any active service, not an inactive one.
    const inactive = await submitJson(client, "PUT", `/places/mine/${p.mineNorte}/services`, {
      service_ids: [svc.DES, svc.OLD],
    });
    expect(inactive.status).toBe(422);
    expect((await inactive.json()).errors).toEqual({
      [`service_ids.${svc.OLD}`]: es("services.inactive_service", { service: "OLD · Antiguo" }),
    });
    expect(
      (await submit(client, "PUT", `/places/mine/${p.mineNorte}/services`, { service_ids: [svc.DES, svc.ALM] })).status,
    ).toBe(303);
    expect(offered(w.db, "mine", p.mineNorte)).toEqual([svc.DES, svc.ALM].sort());

    const unit = await submitJson(client, "PUT", `/places/unit/${p.unitA}/services`, {
      service_ids: [svc.DES, svc.CEN],
    });
    expect(unit.status).toBe(422);
    expect((await unit.json()).errors).toEqual({
      [`service_ids.${svc.CEN}`]: es("services.parent_lacks_mine", { service: "CEN · Cena", parent: "Mina Norte" }),
    });
    expect(offered(w.db, "unit", p.unitA)).toEqual([]);
    expect((await submit(client, "PUT", `/places/unit/${p.unitA}/services`, { service_ids: [svc.DES] })).status).toBe(
      303,
    );

    const cafe = await submitJson(client, "PUT", `/places/cafe/${p.cafeA}/services`, {
      service_ids: [svc.DES, svc.ALM, svc.CEN],
    });
    expect((await cafe.json()).errors).toEqual({
      [`service_ids.${svc.ALM}`]: es("services.parent_lacks_unit", { service: "ALM · Almuerzo", parent: "Unidad A" }),
      [`service_ids.${svc.CEN}`]: es("services.parent_lacks_unit", { service: "CEN · Cena", parent: "Unidad A" }),
    });
    // The page client sees the same messages.
    await submit(client, "PUT", `/places/cafe/${p.cafeA}/services`, { service_ids: [svc.ALM] });
    expect((await page(client)).props.errors).toEqual({
      [`service_ids.${svc.ALM}`]: es("services.parent_lacks_unit", { service: "ALM · Almuerzo", parent: "Unidad A" }),
    });
    expect((await submit(client, "PUT", `/places/cafe/${p.cafeA}/services`, { service_ids: [svc.DES] })).status).toBe(
      303,
    );
    expect(offered(w.db, "cafe", p.cafeA)).toEqual([svc.DES]);

    // Unknown services, a missing body, unknown kinds and places.
    expect(
      (await (await submitJson(client, "PUT", `/places/cafe/${p.cafeA}/services`, { service_ids: [9999] })).json())
        .errors,
    ).toEqual({ service_ids: es("services.unknown_services") });
    expect((await (await submitJson(client, "PUT", `/places/cafe/${p.cafeA}/services`, {})).json()).errors).toEqual({
      service_ids: es("validation.required"),
    });
    expect((await submitJson(client, "PUT", `/places/area/${p.cafeA}/services`, { service_ids: [] })).status).toBe(404);
    expect((await submitJson(client, "PUT", `/places/unit/9999/services`, { service_ids: [] })).status).toBe(404);

    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "place.services.updated")).all();
    expect(audit.map((a) => [a.subjectType, a.subjectId])).toEqual([
      ["mine", p.mineNorte],
      ["unit", p.unitA],
      ["cafe", p.cafeA],
    ]);
    expect(JSON.parse(audit[0].after!)).toEqual({ services: ["ALM", "DES"] });
  });

  test("removing a service from a parent first lists the children that would lose it, then removes it from all of them on confirmation", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const { places: p, svc } = w;
    const client = await signedIn(w, w.people.root);
    const setMine = (confirm?: boolean) =>
      submit(client, "PUT", `/places/mine/${p.mineNorte}/services`, {
        service_ids: [svc.DES],
        ...(confirm === undefined ? {} : { confirm }),
      });
    const auditBefore = w.db.select().from(auditLog).all().length;

    const first = await setMine();
    expect(first.status).toBe(303);
    const shown = await page(client);
    expect(shown.flash.serviceRemoval).toEqual({
      kind: "mine",
      id: p.mineNorte,
      name: "Mina Norte",
      removed: ["ALM"],
      affected: [
        { kind: "unit", id: p.unitA, name: "Unidad A", path: "Mina Norte › Unidad A", services: ["ALM"] },
        { kind: "unit", id: p.unitA2, name: "Unidad A2", path: "Mina Norte › Unidad A2", services: ["ALM"] },
        { kind: "cafe", id: p.cafeA, name: "Comedor A", path: "Mina Norte › Unidad A › Comedor A", services: ["ALM"] },
        {
          kind: "cafe",
          id: p.cafeA2,
          name: "Comedor A2",
          path: "Mina Norte › Unidad A2 › Comedor A2",
          services: ["ALM"],
        },
      ],
    });
    // Nothing changed.
    expect(offered(w.db, "mine", p.mineNorte)).toEqual([svc.DES, svc.ALM].sort());
    expect(offered(w.db, "cafe", p.cafeA)).toEqual([svc.DES, svc.ALM].sort());
    expect(w.db.select().from(auditLog).all().length).toBe(auditBefore);
    // `confirm: false` is the same as no confirmation; JSON clients get the list in the body.
    expect((await setMine(false)).status).toBe(303);
    expect(offered(w.db, "mine", p.mineNorte)).toEqual([svc.DES, svc.ALM].sort());
    const json = await submitJson(client, "PUT", `/places/mine/${p.mineNorte}/services`, { service_ids: [svc.DES] });
    expect(json.status).toBe(200);
    expect((await json.json()).confirmation.affected).toHaveLength(4);

    const confirmed = await setMine(true);
    expect(confirmed.status).toBe(303);
    for (const [kind, id] of [
      ["mine", p.mineNorte],
      ["unit", p.unitA],
      ["unit", p.unitA2],
      ["cafe", p.cafeA],
      ["cafe", p.cafeA2],
    ] as const)
      expect({ kind, id, offered: offered(w.db, kind, id) }).toEqual({ kind, id, offered: [svc.DES] });
    // The other mine is untouched.
    expect(offered(w.db, "cafe", p.cafeB)).toEqual([svc.DES, svc.ALM].sort());
    const cascade = w.db.select().from(auditLog).where(eq(auditLog.action, "place.services.removed_by_parent")).all();
    expect(cascade.map((a) => [a.subjectType, a.subjectId]).sort()).toEqual(
      [
        ["cafe", p.cafeA],
        ["cafe", p.cafeA2],
        ["unit", p.unitA],
        ["unit", p.unitA2],
      ].sort(),
    );
    expect(JSON.parse(cascade.find((a) => a.subjectId === p.cafeA && a.subjectType === "cafe")!.after!)).toEqual({
      services: ["DES"],
      parent: { kind: "mine", id: p.mineNorte },
    });
    expect(w.db.select().from(auditLog).where(eq(auditLog.action, "place.services.updated")).all()).toHaveLength(1);
    expect((await page(client)).flash.success).toBe(
      es("services.place_saved_cascade", { place: "Mina Norte", count: 4 }),
    );

    // Removing from a unit reaches only its cafes; a removal without children needs no confirmation.
    expect((await submit(client, "PUT", `/places/unit/${p.unitB}/services`, { service_ids: [] })).status).toBe(303);
    expect((await page(client)).flash.serviceRemoval.affected.map((a: any) => a.path)).toEqual([
      "Unidad B › Comedor B",
    ]);
    expect((await submit(client, "PUT", `/places/cafe/${p.cafeB}/services`, { service_ids: [svc.DES] })).status).toBe(
      303,
    );
    expect(offered(w.db, "cafe", p.cafeB)).toEqual([svc.DES]);
  });

  test("a place's services are edited on Management: the former Lugares tab leads there, the Services page links there", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const rootClient = await signedIn(w, w.people.root);
    const shown = await page(rootClient);
    expect(shown.props.can).toEqual({ manage: true, viewPlaces: true });
    expect("tree" in shown.props).toBe(false);
    // The old tab's address (and its search) opens the cafes of Management.
    const moved = await rootClient.get("/services?tab=places&places_search=Comedor%20A2");
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("/management?tab=cafes&search=Comedor+A2");
    expect((await rootClient.get("/services?tab=places")).headers.get("location")).toBe("/management?tab=cafes");
    const management = await page(rootClient, "/management?tab=cafes&search=Comedor%20A2");
    expect(management.props.cafes.data.map((c: any) => [c.name, c.serviceIds.sort()])).toEqual([
      ["Comedor A2", [w.svc.DES, w.svc.ALM].sort()],
    ]);
    // Someone who may not open Management keeps the catalogue.
    const viewer = await signedIn(w, w.people.viewer);
    const kept = await viewer.visit("/services?tab=places");
    expect(kept.response.status).toBe(200);
    expect(kept.page.component).toBe("services/index");
    expect(kept.page.props.can.viewPlaces).toBe(false);
    // Saving a place's services or a cafe's prices from nowhere in particular goes back to Management.
    const saved = await rootClient.request(`/places/cafe/${w.places.cafeA}/services`, {
      method: "PUT",
      json: { service_ids: [w.svc.DES] },
    });
    expect(saved.headers.get("location")).toBe("/management");
    const priced = await rootClient.request(`/cafes/${w.places.cafeA}/prices`, {
      method: "PUT",
      json: { prices: [{ service_id: w.svc.DES, price: "12.00" }] },
    });
    expect(priced.headers.get("location")).toBe("/management?tab=cafes");
  });
});

describe("sorting the catalogue on the server", () => {
  test("by code, name, type, status or places, either way; a name it does not allow keeps the order by code", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const client = await signedIn(w, w.people.root);
    const codes = async (query: string) =>
      (await page(client, `/services?${query}`)).props.services.data.map((s: any) => s.code);
    expect(await codes("")).toEqual(["ALM", "CEN", "DES", "OLD"]);
    expect(await codes("sort=code&direction=desc")).toEqual(["OLD", "DES", "CEN", "ALM"]);
    // Names: Almuerzo, Antiguo, Cena, Desayuno.
    expect(await codes("sort=name")).toEqual(["ALM", "OLD", "CEN", "DES"]);
    // Types as stored: breakfast, dinner, lunch, snack.
    expect(await codes("sort=type")).toEqual(["DES", "CEN", "ALM", "OLD"]);
    // Inactive first when ascending; then by code.
    expect(await codes("sort=status")).toEqual(["OLD", "ALM", "CEN", "DES"]);
    // DES and ALM are offered by 8 places each (2 mines, 3 units, 3 cafes); the rest by none.
    expect(await codes("sort=places&direction=desc")).toEqual(["ALM", "DES", "CEN", "OLD"]);
    expect((await page(client, "/services?sort=places&direction=desc")).props.filters).toMatchObject({
      sort: "places",
      direction: "desc",
    });
    for (const sort of ["description", "updated_at", "1"]) expect(await codes(`sort=${sort}`)).toEqual(await codes(""));
    // With a filter and a search too.
    expect(await codes("status=active&sort=code&direction=desc")).toEqual(["DES", "CEN", "ALM"]);
    expect(await codes("search=a&type=lunch&sort=name")).toEqual(["ALM"]);
    // The export keeps the order asked for.
    const workbook = XLSX.read(await (await client.get("/services/export?sort=code&direction=desc")).arrayBuffer());
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(workbook.Sheets[workbook.SheetNames[0]]);
    expect(rows.map((r) => r[es("services.code")])).toEqual(["OLD", "DES", "CEN", "ALM"]);
  });
});

describe("cafe prices", () => {
  test("prices typed in soles are kept exactly in cents, each change in the history and the audit", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const { places: p, svc } = w;
    const client = await signedIn(w, w.people.managerA);
    const put = (prices: { service_id: number; price: string | null }[]) =>
      submit(client, "PUT", `/cafes/${p.cafeA}/prices`, { prices });
    const price = (serviceId: number) =>
      w.db
        .select()
        .from(cafeServices)
        .where(and(eq(cafeServices.cafeId, p.cafeA), eq(cafeServices.serviceId, serviceId)))
        .get()!.priceCents;

    expect(
      (
        await put([
          { service_id: svc.DES, price: "12.50" },
          { service_id: svc.ALM, price: "1.15" },
        ])
      ).status,
    ).toBe(303);
    expect([price(svc.DES), price(svc.ALM)]).toEqual([1250, 115]);
    expect((await page(client)).flash.success).toBe(es("services.prices_saved", { count: 2 }));
    // The same amount written differently is no change.
    expect((await put([{ service_id: svc.DES, price: "12,5" }])).status).toBe(303);
    expect(w.db.select().from(servicePriceHistory).all()).toHaveLength(2);
    expect(
      (
        await put([
          { service_id: svc.DES, price: "13" },
          { service_id: svc.ALM, price: "" },
        ])
      ).status,
    ).toBe(303);
    expect([price(svc.DES), price(svc.ALM)]).toEqual([1300, null]);

    const history = w.db.select().from(servicePriceHistory).all();
    expect(history.map((h) => [h.serviceId, h.oldPriceCents, h.newPriceCents, h.changedBy])).toEqual([
      [svc.DES, null, 1250, w.people.managerA.id],
      [svc.ALM, null, 115, w.people.managerA.id],
      [svc.DES, 1250, 1300, w.people.managerA.id],
      [svc.ALM, 115, null, w.people.managerA.id],
    ]);
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "cafe.prices.updated")).all();
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ subjectType: "cafe", subjectId: p.cafeA, actorId: w.people.managerA.id });
    expect(JSON.parse(audit[1].before!)).toEqual({ DES: 1250, ALM: 115 });
    expect(JSON.parse(audit[1].after!)).toEqual({ DES: 1300, ALM: null });

    // The prices dialog's data: a partial reload of the Management page, where prices are edited.
    const partial = await page(client, `/management?prices=${p.cafeA}`, {
      "x-inertia-partial-component": "management/index",
      "x-inertia-partial-data": "cafePrices",
    });
    const data = partial.props.cafePrices;
    expect(data.cafe).toEqual({
      id: p.cafeA,
      name: "Comedor A",
      path: "Mina Norte › Unidad A › Comedor A",
      timeZone: "America/Lima",
    });
    expect(data.services.map((s: any) => [s.code, s.priceCents, s.price])).toEqual([
      ["ALM", null, ""],
      ["DES", 1300, "13.00"],
    ]);
    expect(data.history.map((h: any) => [h.serviceCode, h.oldPriceCents, h.newPriceCents, h.by])).toEqual([
      ["ALM", 115, null, "Gerente A"],
      ["DES", 1250, 1300, "Gerente A"],
      ["ALM", null, 115, "Gerente A"],
      ["DES", null, 1250, "Gerente A"],
    ]);
    // Not sent on a normal visit.
    expect("cafePrices" in (await page(client, "/management")).props).toBe(false);
  });

  test("invalid prices and services the cafe does not offer are refused, nothing is written", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const { places: p, svc } = w;
    const client = await signedIn(w, w.people.managerA);
    const response = await submitJson(client, "PUT", `/cafes/${p.cafeA}/prices`, {
      prices: [
        { service_id: svc.DES, price: "12.345" },
        { service_id: svc.ALM, price: "10.00" },
        { service_id: svc.CEN, price: "5" },
      ],
    });
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual({
      [`prices.${svc.DES}`]: es("services.price_invalid"),
      [`prices.${svc.CEN}`]: es("services.not_offered"),
    });
    for (const bad of ["-1", "abc", "1e3", "10000000"]) {
      const r = await submitJson(client, "PUT", `/cafes/${p.cafeA}/prices`, {
        prices: [{ service_id: svc.DES, price: bad }],
      });
      expect({ bad, status: r.status }).toEqual({ bad, status: 422 });
    }
    expect((await (await submitJson(client, "PUT", `/cafes/${p.cafeA}/prices`, {})).json()).errors).toEqual({
      prices: es("validation.required"),
    });
    expect(w.db.select().from(servicePriceHistory).all()).toEqual([]);
    expect(
      w.db
        .select()
        .from(cafeServices)
        .where(eq(cafeServices.cafeId, p.cafeA))
        .all()
        .every((r) => r.priceCents === null),
    ).toBe(true);
  });

  test("removing a service from a cafe removes its price", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const client = await signedIn(w, w.people.root);
    await submit(client, "PUT", `/cafes/${w.places.cafeA}/prices`, {
      prices: [{ service_id: w.svc.ALM, price: "18.00" }],
    });
    await submit(client, "PUT", `/places/cafe/${w.places.cafeA}/services`, { service_ids: [w.svc.DES] });
    await submit(client, "PUT", `/places/cafe/${w.places.cafeA}/services`, { service_ids: [w.svc.DES, w.svc.ALM] });
    expect(
      w.db
        .select()
        .from(cafeServices)
        .where(and(eq(cafeServices.cafeId, w.places.cafeA), eq(cafeServices.serviceId, w.svc.ALM)))
        .get()!.priceCents,
    ).toBeNull();
  });
});

describe("data scope", () => {
  test("a manager of cafe A cannot see or change cafe B's services or prices: 404", async () => {
    const w = await buildWorld();
    offerDesAlm(w);
    const { places: p, svc } = w;
    const client = await signedIn(w, w.people.managerA);
    const before = w.db.select().from(auditLog).all().length;
    for (const [method, path, body] of [
      ["PUT", `/places/cafe/${p.cafeB}/services`, { service_ids: [svc.DES] }],
      ["PUT", `/places/unit/${p.unitB}/services`, { service_ids: [svc.DES] }],
      ["PUT", `/places/mine/${p.mineSur}/services`, { service_ids: [svc.DES] }],
      ["PUT", `/places/cafe/${p.cafeA2}/services`, { service_ids: [svc.DES] }],
      ["PUT", `/cafes/${p.cafeB}/prices`, { prices: [{ service_id: svc.DES, price: "1.00" }] }],
    ] as const) {
      expect({ path, status: (await submitJson(client, method, path, body)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await submit(client, method, path, body)).status }).toEqual({ path, status: 404 });
    }
    const partial = await client.visit(`/management?prices=${p.cafeB}`, {
      "x-inertia-partial-component": "management/index",
      "x-inertia-partial-data": "cafePrices",
    });
    expect(partial.response.status).toBe(404);
    expect(offered(w.db, "cafe", p.cafeB)).toEqual([svc.DES, svc.ALM].sort());
    expect(w.db.select().from(servicePriceHistory).all()).toEqual([]);
    expect(w.db.select().from(auditLog).all().length).toBe(before);

    // Their own cafe, unit and mine are within reach; a removal that would reach cafe A2 (outside) is refused.
    expect((await submit(client, "PUT", `/places/cafe/${p.cafeA}/services`, { service_ids: [svc.DES] })).status).toBe(
      303,
    );
    expect(offered(w.db, "cafe", p.cafeA)).toEqual([svc.DES]);
    const outside = await submitJson(client, "PUT", `/places/mine/${p.mineNorte}/services`, {
      service_ids: [svc.ALM],
      confirm: true,
    });
    expect(outside.status).toBe(409);
    expect((await outside.json()).message).toBe(
      es("services.children_out_of_scope", { places: "Mina Norte › Unidad A2, Mina Norte › Unidad A2 › Comedor A2" }),
    );
    expect(offered(w.db, "mine", p.mineNorte)).toEqual([svc.DES, svc.ALM].sort());
    // Adding to their mine is fine.
    expect(
      (
        await submit(client, "PUT", `/places/mine/${p.mineNorte}/services`, {
          service_ids: [svc.DES, svc.ALM, svc.CEN],
        })
      ).status,
    ).toBe(303);
    expect(offered(w.db, "mine", p.mineNorte)).toEqual([svc.DES, svc.ALM, svc.CEN].sort());
  });
});

describe("the page, the catalogue and the seeds", () => {
  test("the Services page renders on the server, with its sidebar entry", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const response = await client.get("/services");
    expect(response.status).toBe(200);
    const html = await response.text();
    const embedded = embeddedPage(html);
    expect(embedded.component).toBe("services/index");
    expect(html).toContain("Desayuno");
    expect(embedded.props.navigation.some((n: any) => n.route === "services.index")).toBe(true);
  });

  test("the catalogue defaults and the starting roles name the new permissions", () => {
    expect(PERMISSION_DEFAULTS["services.view"]).toEqual({
      area: "services",
      sidebar: { route: "services.index", label: "nav.services", icon: "utensils", order: 40 },
    });
    for (const name of ["services.manage", "places.manage", "prices.manage"])
      expect(PERMISSION_DEFAULTS[name]).toBeDefined();
    const admin = STARTING_ROLES.find((r) => r.name === "administrator")!;
    expect(admin.permissions).toEqual(
      expect.arrayContaining(["services.view", "services.manage", "places.manage", "prices.manage"]),
    );
    expect(STARTING_ROLES.find((r) => r.name === "cafe manager")!.permissions).toEqual(
      expect.arrayContaining(["services.view", "prices.manage"]),
    );
  });

  test("the services seeder creates the five services, offered and priced in the demo cafes, and is idempotent", async () => {
    const app = createTestApp();
    await placesSeeder.run(app.db, app.config);
    await accessSeeder.run(app.db, app.config);
    await servicesSeeder.run(app.db, app.config);
    const snapshot = () => ({
      services: app.db.select({ code: services.code, type: services.type }).from(services).all(),
      mines: app.db.select().from(mineServices).all().length,
      units: app.db.select().from(unitServices).all().length,
      cafes: app.db
        .select({ cafeId: cafeServices.cafeId, serviceId: cafeServices.serviceId, priceCents: cafeServices.priceCents })
        .from(cafeServices)
        .all(),
    });
    const first = snapshot();
    expect(first.services.map((s) => s.code).sort()).toEqual(["ALM", "CEN", "DES", "DSC", "REF"]);
    // 2 mines offer all five; 4 units and 8 cafes too, except that the Huarmey unit and its 2 cafes serve no dinner.
    expect(first.mines).toBe(10);
    expect(first.units).toBe(19);
    expect(first.cafes).toHaveLength(38);
    expect(first.cafes.every((c) => c.priceCents !== null && c.priceCents > 0)).toBe(true);
    await servicesSeeder.run(app.db, app.config);
    await accessSeeder.run(app.db, app.config);
    expect(snapshot()).toEqual(first);
  });
});
