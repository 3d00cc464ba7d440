/**
 * The Businesses area through the app: businesses (create, edit, delete guard, services, RUC and uniqueness
 * messages, all-places scope for creating and deleting), headquarters (scope from headquarters areas, delete
 * guard), properties (validation, scope, the page, the QR label, sign-in and back from a scanned label), each
 * table's sorting on the server, and the Excel exports read back.
 *
 * The world: "Mesa Catering S.A.C." with "Sede Lima" and "Sede Arequipa", operating "Comedor Principal" (Mina
 * Cerro Verde / Unidad Norte); "Andes Catering S.A.C." with "Sede Cusco", operating "Comedor Tajo".
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { auditLog, businesses, businessServices, headquarters, properties } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createProperty } from "../../src/domain/organisation/properties";
import { createService } from "../../src/domain/places/services";
import { BASE, Client, createTestApp, embeddedPage, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, signInAs, submitFrom, submitJson, visitPage as page } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);
const RUC_MESA = "20100079705";
const RUC_ANDES = "20601234565";

interface World {
  app: TestApp;
  db: Db;
  mesa: { businessId: number; lima: number; arequipa: number; cafe: number };
  andes: { businessId: number; cusco: number; cafe: number };
  people: { root: User; limaManager: User; cashier: User; viewer: User };
}

async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const lima = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
  const arequipa = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Arequipa");
  const cusco = ensureHeadquarters(db, "Andes Catering S.A.C.", "Sede Cusco");
  db.update(businesses)
    .set({ ruc: RUC_MESA, email: "facturacion@mesa.pe" })
    .where(eq(businesses.id, lima.businessId))
    .run();
  db.update(businesses)
    .set({ ruc: RUC_ANDES, email: "contacto@andes.pe" })
    .where(eq(businesses.id, cusco.businessId))
    .run();
  const mesaCafe = ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal", lima.businessId);
  const andesCafe = ensureCafe(db, "Mina Antamina", "Unidad Yanacancha", "Comedor Tajo", cusco.businessId);

  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const manager = makeRole(db, "gerente de sede", [
    "businesses.view",
    "businesses.manage",
    "properties.view",
    "properties.manage",
  ]);
  const cashierRole = makeRole(db, "cajero", ["properties.view", "properties.manage"]);
  const viewerRole = makeRole(db, "consulta", ["businesses.view"]);
  const admin = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: cusco.headquartersId,
    role_ids: [superRole],
  }).id;
  const office = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Operaciones",
    headquarters_id: lima.headquartersId,
    role_ids: [manager, viewerRole],
  }).id;
  const till = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Caja", cafe_id: mesaCafe, role_ids: [cashierRole] }).id;
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  const limaManager = await addUser(db, "Lía Gerente", "lima@mesa.test");
  const cashier = await addUser(db, "Carlos Caja", "caja@mesa.test");
  const viewer = await addUser(db, "Vera Vista", "vista@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: admin, roleId: superRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: limaManager.id, areaId: office, roleId: manager });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: cashier.id, areaId: till, roleId: cashierRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: viewer.id, areaId: office, roleId: viewerRole });
  return {
    app,
    db,
    mesa: { businessId: lima.businessId, lima: lima.headquartersId, arequipa: arequipa.headquartersId, cafe: mesaCafe },
    andes: { businessId: cusco.businessId, cusco: cusco.headquartersId, cafe: andesCafe },
    people: { root, limaManager, cashier, viewer },
  };
}

const submit = submitFrom("/businesses");

/** Downloads an export and reads its first sheet back as rows of cells. */
async function workbook(
  client: Client,
  path: string,
): Promise<{ response: Response; rows: unknown[][]; sheet: XLSX.WorkSheet }> {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe(
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  );
  const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array", cellNF: true });
  const sheet = book.Sheets[book.SheetNames[0]];
  return { response, rows: XLSX.utils.sheet_to_json(sheet, { header: 1 }), sheet };
}

const newBusiness = (overrides: Record<string, unknown> = {}) => ({
  name: "Sierra Alimentos S.A.C.",
  ruc: "20555123451",
  fiscal_address: "Jr. Junín 450, Huancayo",
  legal_address: "Jr. Junín 450, Huancayo",
  email: "admin@sierra.pe",
  phone: "064 211 000",
  ...overrides,
});

describe("businesses", () => {
  test("a super-administrator creates, edits and deletes a business through the forms, each audited", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const created = await submit(client, "POST", "/businesses", newBusiness());
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/businesses");
    const row = w.db.select().from(businesses).where(eq(businesses.ruc, "20555123451")).get()!;
    expect(row).toMatchObject({
      name: "Sierra Alimentos S.A.C.",
      fiscalAddress: "Jr. Junín 450, Huancayo",
      email: "admin@sierra.pe",
    });
    const listed = await page(client, "/businesses");
    expect(listed.flash.success).toBe(es("businesses.saved", { name: "Sierra Alimentos S.A.C." }));
    expect(listed.props.businesses.data.map((b: any) => [b.name, b.headquarters, b.cafes])).toEqual([
      ["Andes Catering S.A.C.", 1, 1],
      ["Mesa Catering S.A.C.", 2, 1],
      ["Sierra Alimentos S.A.C.", 0, 0],
    ]);
    expect(listed.props.businesses.data[1].operatedCafes).toEqual([
      { id: w.mesa.cafe, name: "Comedor Principal", unit: "Unidad Norte", mine: "Mina Cerro Verde" },
    ]);
    // Dealerships have their own page (the sidebar's), not a tab here.
    expect(listed.props.tabs.map((t: any) => t.id)).toEqual(["businesses", "headquarters", "properties"]);
    expect(listed.props.can).toEqual({ manage: true, createAndDelete: true });

    expect((await submit(client, "PUT", `/businesses/${row.id}`, newBusiness({ phone: "064 999 999" }))).status).toBe(
      303,
    );
    expect(w.db.select().from(businesses).where(eq(businesses.id, row.id)).get()!.phone).toBe("064 999 999");
    expect((await submit(client, "DELETE", `/businesses/${row.id}`)).status).toBe(303);
    expect(w.db.select().from(businesses).where(eq(businesses.id, row.id)).get()).toBeUndefined();
    const audit = w.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, row.id))
      .orderBy(auditLog.id)
      .all()
      .filter((a) => a.subjectType === "business");
    expect(audit.map((a) => a.action)).toEqual(["business.created", "business.updated", "business.deleted"]);
    expect(audit.every((a) => a.actorId === w.people.root.id)).toBe(true);
  });

  test("validation messages: required fields, RUC length and check digit, e-mail, duplicate name and RUC", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const empty = await submitJson(client, "POST", "/businesses", {});
    expect(empty.status).toBe(422);
    expect((await empty.json()).errors).toEqual({
      name: es("validation.required"),
      ruc: es("validation.required"),
      fiscal_address: es("validation.required"),
      legal_address: es("validation.required"),
      email: es("validation.required"),
    });
    const bad = await submitJson(client, "POST", "/businesses", newBusiness({ ruc: "2055512345", email: "sierra" }));
    expect((await bad.json()).errors).toEqual({
      ruc: es("validation.ruc_format", { length: 11 }),
      email: es("validation.email"),
    });
    const check = await submitJson(client, "POST", "/businesses", newBusiness({ ruc: "20555123452" }));
    expect((await check.json()).errors).toEqual({ ruc: es("validation.ruc_check_digit") });
    const duplicate = await submitJson(
      client,
      "POST",
      "/businesses",
      newBusiness({ name: "mesa catering s.a.c.", ruc: RUC_MESA }),
    );
    expect((await duplicate.json()).errors).toEqual({
      name: es("businesses.name_taken", { name: "mesa catering s.a.c." }),
      ruc: es("businesses.ruc_taken", { ruc: RUC_MESA }),
    });
    // The page client goes back with the errors.
    await submit(
      client,
      "PUT",
      `/businesses/${w.mesa.businessId}`,
      newBusiness({ name: "Mesa Catering S.A.C.", ruc: RUC_ANDES }),
    );
    expect((await page(client, "/businesses")).props.errors).toEqual({
      ruc: es("businesses.ruc_taken", { ruc: RUC_ANDES }),
    });
    expect(w.db.select().from(businesses).all()).toHaveLength(2);
  });

  test("a business with headquarters or cafes cannot be deleted: the message names both counts", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const json = await submitJson(client, "DELETE", `/businesses/${w.mesa.businessId}`);
    expect(json.status).toBe(409);
    expect((await json.json()).message).toBe(
      es("businesses.in_use", { name: "Mesa Catering S.A.C.", headquarters: 2, cafes: 1 }),
    );
    await submit(client, "DELETE", `/businesses/${w.mesa.businessId}`);
    expect((await page(client, "/businesses")).props.errors.form).toBe(
      es("businesses.in_use", { name: "Mesa Catering S.A.C.", headquarters: 2, cafes: 1 }),
    );
    expect(w.db.select().from(businesses).where(eq(businesses.id, w.mesa.businessId)).get()).toBeDefined();
  });

  test("a headquarters manager sees and edits only their business and cannot create or delete one; a viewer cannot write", async () => {
    const w = await buildWorld();
    const manager = await signedIn(w, w.people.limaManager);
    const shown = await page(manager, "/businesses");
    expect(shown.props.businesses.data.map((b: any) => b.name)).toEqual(["Mesa Catering S.A.C."]);
    expect(shown.props.can).toEqual({ manage: true, createAndDelete: false });
    expect((await submitJson(manager, "POST", "/businesses", newBusiness())).status).toBe(403);
    expect(
      (
        await submitJson(
          manager,
          "PUT",
          `/businesses/${w.andes.businessId}`,
          newBusiness({ name: "Andes Catering S.A.C.", ruc: RUC_ANDES }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await submitJson(
          manager,
          "PUT",
          `/businesses/${w.mesa.businessId}`,
          newBusiness({ name: "Mesa Catering S.A.C.", ruc: RUC_MESA }),
        )
      ).status,
    ).toBe(303);
    expect(w.db.select().from(businesses).where(eq(businesses.id, w.mesa.businessId)).get()!.fiscalAddress).toBe(
      "Jr. Junín 450, Huancayo",
    );
    expect(w.db.select().from(businesses).all()).toHaveLength(2);

    const viewer = await signedIn(w, w.people.viewer);
    expect((await page(viewer, "/businesses")).props.can).toEqual({ manage: false, createAndDelete: false });
    expect((await submitJson(viewer, "PUT", `/businesses/${w.mesa.businessId}`, newBusiness())).status).toBe(403);
    // Without businesses.view: no page.
    const cashier = await signedIn(w, w.people.cashier);
    expect((await cashier.visit("/businesses")).response.status).toBe(403);
  });

  test("the services a business offers are saved from the services dialog", async () => {
    const w = await buildWorld();
    const des = createService(w.db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
    const alm = createService(w.db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
    const client = await signedIn(w, w.people.limaManager);
    expect(
      (await submit(client, "PUT", `/businesses/${w.mesa.businessId}/services`, { service_ids: [des, alm] })).status,
    ).toBe(303);
    const shown = await page(client, "/businesses");
    expect(shown.flash.success).toBe(es("businesses.services_saved", { name: "Mesa Catering S.A.C.", count: 2 }));
    expect(shown.props.businesses.data[0].serviceIds.sort()).toEqual([des, alm].sort());
    expect(shown.props.serviceOptions.map((s: any) => s.code)).toEqual(["ALM", "DES"]);
    expect(
      (
        await (
          await submitJson(client, "PUT", `/businesses/${w.mesa.businessId}/services`, { service_ids: [9999] })
        ).json()
      ).errors,
    ).toEqual({ service_ids: es("businesses.unknown_services") });
    expect(
      (await submitJson(client, "PUT", `/businesses/${w.andes.businessId}/services`, { service_ids: [des] })).status,
    ).toBe(404);
    expect(w.db.select().from(businessServices).all()).toHaveLength(2);
  });

  test("the export holds the businesses in the scope matching the search, with translated headers", async () => {
    const w = await buildWorld();
    const root = await signedIn(w, w.people.root);
    const all = await workbook(root, "/businesses/export");
    expect(all.response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="mesa-businesses-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    expect(all.rows[0]).toEqual([
      es("businesses.name"),
      "RUC",
      es("businesses.fiscal_address"),
      es("businesses.legal_address"),
      es("businesses.email"),
      es("businesses.phone"),
      "Sedes",
      "Comedores",
    ]);
    expect(all.rows.slice(1).map((r) => [r[0], r[1], r[6], r[7]])).toEqual([
      ["Andes Catering S.A.C.", RUC_ANDES, 1, 1],
      ["Mesa Catering S.A.C.", RUC_MESA, 2, 1],
    ]);
    expect((await workbook(root, "/businesses/export?search=andes")).rows.slice(1).map((r) => r[0])).toEqual([
      "Andes Catering S.A.C.",
    ]);
    const manager = await signedIn(w, w.people.limaManager);
    expect((await workbook(manager, "/businesses/export")).rows.slice(1).map((r) => r[0])).toEqual([
      "Mesa Catering S.A.C.",
    ]);
  });
});

describe("sorting on the server", () => {
  test("businesses, headquarters and properties sort by their main columns either way; other names keep the default order", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.root);
    const column = async (path: string, prop: string, pick: (row: any) => unknown) =>
      (await page(client, path)).props[prop].data.map(pick);

    const businessNames = (query: string) => column(`/businesses?${query}`, "businesses", (b) => b.name);
    expect(await businessNames("")).toEqual(["Andes Catering S.A.C.", "Mesa Catering S.A.C."]);
    expect(await businessNames("sort=name&direction=desc")).toEqual(["Mesa Catering S.A.C.", "Andes Catering S.A.C."]);
    // RUC_MESA (20100…) before RUC_ANDES (20601…); Mesa has two headquarters, Andes one.
    expect(await businessNames("sort=ruc")).toEqual(["Mesa Catering S.A.C.", "Andes Catering S.A.C."]);
    expect(await businessNames("sort=headquarters&direction=desc")).toEqual([
      "Mesa Catering S.A.C.",
      "Andes Catering S.A.C.",
    ]);
    expect(await businessNames("sort=email")).toEqual(await businessNames(""));
    expect((await page(client, "/businesses?sort=ruc&direction=desc")).props.filters).toEqual({
      search: "",
      sort: "ruc",
      direction: "desc",
    });

    const hqNames = (query: string) => column(`/businesses/headquarters?${query}`, "headquarters", (hq) => hq.name);
    expect(await hqNames("")).toEqual(["Sede Cusco", "Sede Arequipa", "Sede Lima"]);
    expect(await hqNames("sort=name")).toEqual(["Sede Arequipa", "Sede Cusco", "Sede Lima"]);
    expect(await hqNames("sort=business&direction=desc")).toEqual(["Sede Arequipa", "Sede Lima", "Sede Cusco"]);
    expect(await hqNames("sort=phone")).toEqual(await hqNames(""));

    for (const [code, name, value] of [
      ["BN-0003", "Horno", 450000],
      ["BN-0001", "Cocina", null],
      ["BN-0002", "Balanza", 12000],
    ] as const)
      createProperty(
        w.db,
        CLI_ACTOR,
        EVERYTHING,
        {
          code,
          name,
          category: "Equipos",
          location: `cafe:${w.mesa.cafe}`,
          status: "in_use",
          ...(value === null ? {} : { acquisition_value: (value / 100).toFixed(2) }),
        },
        "America/Lima",
      );
    const codes = (query: string) => column(`/businesses/properties?${query}`, "properties", (p) => p.code);
    expect(await codes("")).toEqual(["BN-0001", "BN-0002", "BN-0003"]);
    expect(await codes("sort=code&direction=desc")).toEqual(["BN-0003", "BN-0002", "BN-0001"]);
    expect(await codes("sort=name")).toEqual(["BN-0002", "BN-0001", "BN-0003"]);
    expect(await codes("sort=acquisition_value&direction=desc")).toEqual(["BN-0003", "BN-0002", "BN-0001"]);
    expect(await codes("status=in_use&sort=name&direction=desc")).toEqual(["BN-0003", "BN-0001", "BN-0002"]);
    expect(await codes("sort=notes")).toEqual(await codes(""));
    // The export keeps the order asked for.
    const { rows } = await workbook(client, "/businesses/properties/export?sort=name");
    expect(rows.slice(1).map((r) => r[0])).toEqual(["BN-0002", "BN-0001", "BN-0003"]);
  });
});

describe("headquarters", () => {
  test("a headquarters-area user sees every headquarters of their business; creating one puts it in their scope at once", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.limaManager);
    const shown = await page(client, "/businesses/headquarters");
    expect(shown.props.headquarters.data.map((h: any) => [h.name, h.businessName, h.areas])).toEqual([
      ["Sede Arequipa", "Mesa Catering S.A.C.", 0],
      ["Sede Lima", "Mesa Catering S.A.C.", 1],
    ]);
    expect(shown.props.businesses).toEqual([{ id: w.mesa.businessId, name: "Mesa Catering S.A.C." }]);

    const refused = await submitJson(client, "POST", "/headquarters", {
      business_id: w.andes.businessId,
      name: "Sede Puno",
      address: "Jr. Lima 1, Puno",
    });
    expect((await refused.json()).errors).toEqual({ business_id: es("validation.invalid_choice") });
    expect(
      (
        await submit(
          client,
          "POST",
          "/headquarters",
          {
            business_id: w.mesa.businessId,
            name: "Sede Moquegua",
            address: "Calle Ayacucho 500, Moquegua",
            phone: "053 461 000",
          },
          "/businesses/headquarters",
        )
      ).status,
    ).toBe(302);
    const after = await page(client, "/businesses/headquarters");
    expect(after.flash.success).toBe(es("headquarters.saved", { name: "Sede Moquegua" }));
    expect(after.props.headquarters.data.map((h: any) => h.name)).toEqual([
      "Sede Arequipa",
      "Sede Lima",
      "Sede Moquegua",
    ]);
    const moquegua = w.db.select().from(headquarters).where(eq(headquarters.name, "Sede Moquegua")).get()!;
    // It can hold properties right away: the location select offers it.
    expect(
      (await page(client, "/businesses/properties")).props.locations.headquarters.map((o: any) => o.value),
    ).toContain(`hq:${moquegua.id}`);

    const duplicate = await submitJson(client, "POST", "/headquarters", {
      business_id: w.mesa.businessId,
      name: "SEDE LIMA",
      address: "Otra calle 1",
    });
    expect((await duplicate.json()).errors).toEqual({ name: es("headquarters.name_taken", { name: "SEDE LIMA" }) });
    expect(
      (
        await submitJson(client, "PUT", `/headquarters/${w.andes.cusco}`, {
          business_id: w.andes.businessId,
          name: "Sede Cusco",
          address: "Av. Sol 1",
        })
      ).status,
    ).toBe(404);
    expect(
      (await submit(client, "DELETE", `/headquarters/${moquegua.id}`, {}, "/businesses/headquarters")).status,
    ).toBe(303);
    expect(w.db.select().from(headquarters).where(eq(headquarters.id, moquegua.id)).get()).toBeUndefined();

    // A cafe-only user has no headquarters (and no businesses.view here).
    const cashier = await signedIn(w, w.people.cashier);
    expect((await cashier.visit("/businesses/headquarters")).response.status).toBe(403);
  });

  test("a headquarters with areas or properties cannot be deleted; the export follows the search", async () => {
    const w = await buildWorld();
    createProperty(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { code: "VEH-1", name: "Camioneta", category: "Vehículo", location: `hq:${w.mesa.lima}`, status: "in_use" },
      "America/Lima",
    );
    const client = await signedIn(w, w.people.root);
    const json = await submitJson(client, "DELETE", `/headquarters/${w.mesa.lima}`);
    expect(json.status).toBe(409);
    expect((await json.json()).message).toBe(es("headquarters.in_use", { name: "Sede Lima", areas: 1, properties: 1 }));

    const all = await workbook(client, "/businesses/headquarters/export");
    expect(all.rows[0]).toEqual(["Empresa", "Nombre", "Dirección", "Teléfono", "Áreas", "Bienes"]);
    expect(all.rows.slice(1).map((r) => [r[0], r[1], r[4], r[5]])).toEqual([
      ["Andes Catering S.A.C.", "Sede Cusco", 1, 0],
      ["Mesa Catering S.A.C.", "Sede Arequipa", 0, 0],
      ["Mesa Catering S.A.C.", "Sede Lima", 1, 1],
    ]);
    expect(
      (await workbook(client, "/businesses/headquarters/export?search=arequipa")).rows.slice(1).map((r) => r[1]),
    ).toEqual(["Sede Arequipa"]);
  });
});

describe("properties", () => {
  const oven = (location: string, overrides: Record<string, unknown> = {}) => ({
    code: "hor-01",
    name: "Horno combinado",
    category: "Equipo de cocina",
    serial: "RAT-88231",
    location,
    status: "under_repair",
    acquired_on: "2024-02-10",
    acquisition_value: "45900.50",
    notes: "En servicio técnico",
    ...overrides,
  });

  test("a cashier registers a property at their cafe; validation messages; other places are out of reach", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.cashier);
    const listed = await page(client, "/businesses/properties");
    expect(listed.props.tabs.map((t: any) => t.id)).toEqual(["properties"]);
    expect(listed.props.locations).toEqual({
      headquarters: [],
      cafes: [{ value: `cafe:${w.mesa.cafe}`, label: "Comedor Principal · Unidad Norte / Mina Cerro Verde" }],
    });

    const empty = await submitJson(client, "POST", "/properties", {});
    expect((await empty.json()).errors).toEqual({
      code: es("validation.required"),
      name: es("validation.required"),
      category: es("validation.required"),
      location: es("validation.required"),
      status: es("validation.required"),
    });
    const bad = await submitJson(
      client,
      "POST",
      "/properties",
      oven(`cafe:${w.andes.cafe}`, {
        code: "h 1",
        acquired_on: "2999-01-01",
        acquisition_value: "abc",
        status: "lost",
      }),
    );
    expect((await bad.json()).errors).toEqual({
      code: es("properties.code_format"),
      location: es("validation.invalid_choice"),
      status: es("validation.invalid_choice"),
      acquired_on: es("properties.date_future"),
      acquisition_value: es("properties.value_invalid"),
    });

    expect(
      (await submit(client, "POST", "/properties", oven(`cafe:${w.mesa.cafe}`), "/businesses/properties")).status,
    ).toBe(302);
    const saved = w.db.select().from(properties).where(eq(properties.code, "HOR-01")).get()!;
    expect(saved).toMatchObject({ cafeId: w.mesa.cafe, acquisitionValueCents: 4_590_050, status: "under_repair" });
    const after = await page(client, "/businesses/properties");
    expect(after.flash.success).toBe(es("properties.saved", { code: "HOR-01" }));
    expect(after.props.properties.data.map((p: any) => [p.code, p.location.name, p.businessName])).toEqual([
      ["HOR-01", "Comedor Principal", "Mesa Catering S.A.C."],
    ]);
    expect(after.props.categories).toEqual(["Equipo de cocina"]);
    const duplicate = await submitJson(client, "POST", "/properties", oven(`cafe:${w.mesa.cafe}`));
    expect((await duplicate.json()).errors).toEqual({ code: es("properties.code_taken", { code: "HOR-01" }) });

    // A property kept elsewhere: 404 on its page, its label, its edit and its delete.
    const tajo = createProperty(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      oven(`cafe:${w.andes.cafe}`, { code: "MES-1", name: "Mesa" }),
      "America/Lima",
    );
    expect((await client.visit(`/properties/${tajo.id}`)).response.status).toBe(404);
    expect((await client.visit(`/properties/${tajo.id}/label`)).response.status).toBe(404);
    expect(
      (await submitJson(client, "PUT", `/properties/${tajo.id}`, oven(`cafe:${w.mesa.cafe}`, { code: "MES-1" })))
        .status,
    ).toBe(404);
    expect((await submitJson(client, "DELETE", `/properties/${tajo.id}`)).status).toBe(404);
    expect((await page(client, "/businesses/properties")).props.properties.total).toBe(1);

    expect((await submit(client, "DELETE", `/properties/${saved.id}`, {}, "/businesses/properties")).status).toBe(303);
    expect(w.db.select().from(properties).where(eq(properties.id, saved.id)).get()).toBeUndefined();
    const audit = w.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, saved.id))
      .orderBy(auditLog.id)
      .all()
      .filter((a) => a.subjectType === "property");
    expect(audit.map((a) => a.action)).toEqual(["property.created", "property.deleted"]);
  });

  test("the label page carries an SVG QR code of the property page's absolute address, with code, name, place and business", async () => {
    const w = await buildWorld();
    const property = createProperty(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      oven(`hq:${w.mesa.arequipa}`, { code: "VEH-01", name: "Camioneta Hilux" }),
      "America/Lima",
    );
    const client = await signedIn(w, w.people.limaManager);
    const label = await page(client, `/properties/${property.id}/label`);
    expect(label.component).toBe("properties/label");
    expect(label.props.url).toBe(`${BASE}/properties/${property.id}`);
    expect(label.props.qr).toStartWith("<svg");
    expect(label.props.property).toMatchObject({
      code: "VEH-01",
      name: "Camioneta Hilux",
      businessName: "Mesa Catering S.A.C.",
      location: { name: "Sede Arequipa" },
    });
    // The server-rendered document shows the QR code and the label's text.
    const html = await (await client.get(`/properties/${property.id}/label`)).text();
    expect(html).toContain("<svg");
    expect(html).toContain("VEH-01");
    expect(html).toContain("Camioneta Hilux");
    expect(embeddedPage(html).props.url).toBe(`${BASE}/properties/${property.id}`);

    const shown = await page(client, `/properties/${property.id}`);
    expect(shown.component).toBe("properties/show");
    expect(shown.props.property).toMatchObject({
      code: "VEH-01",
      status: "under_repair",
      acquiredOn: "2024-02-10",
      acquisitionValueCents: 4_590_050,
      notes: "En servicio técnico",
    });
    // The page's edit dialog gets what it needs, and saving from it comes back to the page.
    expect(shown.props.editor.locations.headquarters.map((o: any) => o.value)).toContain(`hq:${w.mesa.arequipa}`);
    expect(shown.props.editor.categories).toEqual(["Equipo de cocina"]);
    const saved = await submit(
      client,
      "PUT",
      `/properties/${property.id}`,
      oven(`hq:${w.mesa.arequipa}`, { code: "VEH-01", name: "Camioneta Hilux 4x4" }),
      `/properties/${property.id}`,
    );
    expect(saved.headers.get("location")).toBe(`/properties/${property.id}`);
    expect((await page(client, `/properties/${property.id}`)).props.property.name).toBe("Camioneta Hilux 4x4");
  });

  test("a guest scanning a label is sent to sign in and then to the property; without properties.view it is refused", async () => {
    const w = await buildWorld();
    const property = createProperty(w.db, CLI_ACTOR, EVERYTHING, oven(`cafe:${w.mesa.cafe}`), "America/Lima");
    const guest = new Client(w.app);
    const scanned = await guest.get(`/properties/${property.id}`);
    expect(scanned.status).toBe(302);
    expect(scanned.headers.get("location")).toBe("/login");
    await signInAs(guest, w.people.cashier, `/properties/${property.id}`);
    expect((await page(guest, `/properties/${property.id}`)).props.property.code).toBe("HOR-01");

    const viewer = await signedIn(w, w.people.viewer);
    expect((await viewer.visit(`/properties/${property.id}`)).response.status).toBe(403);
    expect((await viewer.visit(`/properties/${property.id}/label`)).response.status).toBe(403);
  });

  test("the export holds the properties in the scope matching search and status, the value as a number in soles", async () => {
    const w = await buildWorld();
    createProperty(w.db, CLI_ACTOR, EVERYTHING, oven(`cafe:${w.mesa.cafe}`), "America/Lima");
    createProperty(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      oven(`hq:${w.mesa.lima}`, {
        code: "VEH-01",
        name: "Camioneta",
        category: "Vehículo",
        status: "in_use",
        acquisition_value: "",
        acquired_on: "",
      }),
      "America/Lima",
    );
    createProperty(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      oven(`cafe:${w.andes.cafe}`, { code: "MES-01", name: "Mesa", category: "Mobiliario", status: "in_use" }),
      "America/Lima",
    );
    const root = await signedIn(w, w.people.root);
    const all = await workbook(root, "/businesses/properties/export");
    expect(all.response.headers.get("content-disposition")).toMatch(
      /filename="mesa-properties-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    expect(all.rows[0]).toEqual([
      "Código",
      "Nombre",
      "Categoría",
      "Número de serie",
      "Ubicación",
      "Empresa",
      "Estado",
      "Fecha de adquisición",
      "Valor de adquisición (S/)",
      "Notas",
    ]);
    expect(all.rows.slice(1).map((r) => [r[0], r[4], r[5], r[6], r[7], r[8]])).toEqual([
      [
        "HOR-01",
        "Comedor Principal (Unidad Norte / Mina Cerro Verde)",
        "Mesa Catering S.A.C.",
        "En reparación",
        "2024-02-10",
        45900.5,
      ],
      [
        "MES-01",
        "Comedor Tajo (Unidad Yanacancha / Mina Antamina)",
        "Andes Catering S.A.C.",
        "En uso",
        "2024-02-10",
        45900.5,
      ],
      ["VEH-01", "Sede Lima (Mesa Catering S.A.C.)", "Mesa Catering S.A.C.", "En uso", undefined, undefined],
    ]);
    expect(all.sheet["I2"].z).toBe("0.00");
    expect(all.sheet["H2"].t).toBe("s");
    expect(
      (await workbook(root, "/businesses/properties/export?status=in_use&search=mesa")).rows.slice(1).map((r) => r[0]),
    ).toEqual(["MES-01"]);
    const cashier = await signedIn(w, w.people.cashier);
    expect((await workbook(cashier, "/businesses/properties/export")).rows.slice(1).map((r) => r[0])).toEqual([
      "HOR-01",
    ]);
  });
});
