/**
 * Dealerships and subdealerships through the app: their one page, the tree (permissions, search, sorting and
 * pagination on the server, units within scope), the Businesses area's former tabs leading there, the writes with
 * their validation messages and the delete guard, the Excel export of what the tree shows (translated headers, the
 * subdealership's dealership and units), and the seeder.
 *
 * The world: Mina Norte → Unidad A → Comedor A (business X) and Mina Sur → Unidad B → Comedor B (business Y). The
 * super-administrator reaches both; "Gerente A" (dealerships.view + dealerships.manage at headquarters X, since
 * dealerships are company-wide data) and "Vera Vista" (dealerships.view in Comedor A) only Comedor A's places.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { auditLog, cafes, dealerships, subdealerships, subdealershipUnits, units } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { dealershipsSeeder, DEMO_DEALERSHIPS } from "../../db/seeds/dealerships";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createDealership } from "../../src/domain/organisation/dealerships";
import { createSubdealership } from "../../src/domain/organisation/subdealerships";
import { Client, createTestApp, embeddedPage, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submitFrom, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);
const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);
const SETTINGS = { rucLength: 11 };
const RUC = { a: "20100934729", b: "20551673911", c: "20604382158", d: "20511883246", e: "20482736191" };

interface World {
  app: TestApp;
  db: Db;
  unitA: number;
  unitB: number;
  people: { root: User; managerA: User; viewer: User; outsider: User };
  roles: { manager: number };
  areas: { cajaA: number };
}

async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  const unitOf = (cafeId: number) => db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.unitId;
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const manager = makeRole(db, "dealership manager", ["dealerships.view", "dealerships.manage"]);
  const viewerRole = makeRole(db, "dealership viewer", ["dealerships.view"]);
  const other = makeRole(db, "services viewer", ["services.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: x.headquartersId,
    role_ids: [superRole, manager],
  }).id;
  const cajaA = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Caja A",
    cafe_id: cafeA,
    role_ids: [manager, viewerRole, other],
  }).id;
  const people = {
    root: await addUser(db, "Raíz Super", "root@mesa.test"),
    managerA: await addUser(db, "Gerente A", "manager.a@mesa.test"),
    viewer: await addUser(db, "Vera Vista", "viewer@mesa.test"),
    outsider: await addUser(db, "Otro Rol", "outsider@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.root.id, areaId: sede, roleId: superRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.managerA.id, areaId: sede, roleId: manager });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.viewer.id, areaId: cajaA, roleId: viewerRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.outsider.id, areaId: cajaA, roleId: other });
  return { app, db, unitA: unitOf(cafeA), unitB: unitOf(cafeB), people, roles: { manager }, areas: { cajaA } };
}

const submit = submitFrom("/dealerships");
const page = (client: Client, path = "/dealerships") => visitPage(client, path);

/** Two dealerships; the first with a subdealership working in Unidad A and Unidad B. */
function seedTwo(w: World) {
  const andina = createDealership(
    w.db,
    CLI_ACTOR,
    { name: "Andina del Sur", ruc: RUC.a, phone: "054 381200", email: "contratos@andina.pe" },
    SETTINGS,
  );
  const huascaran = createDealership(w.db, CLI_ACTOR, { name: "Huascarán", ruc: RUC.b }, SETTINGS);
  const perforaciones = createSubdealership(
    w.db,
    CLI_ACTOR,
    EVERYTHING,
    { name: "Perforaciones Altiplano", ruc: RUC.c, dealership_id: andina.id, unit_ids: [w.unitA, w.unitB] },
    SETTINGS,
  );
  return { andina, huascaran, perforaciones };
}

/** The sheets of an .xlsx answer, each as rows of cells (the header row first), by sheet name. */
async function workbook(response: Response): Promise<Record<string, unknown[][]>> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe(
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  );
  const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array" });
  return Object.fromEntries(
    book.SheetNames.map((name) => [name, XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name], { header: 1 })]),
  );
}

describe("permissions", () => {
  test("without dealerships.view every page and export is refused; without dealerships.manage every write", async () => {
    const w = await buildWorld();
    const { andina, perforaciones } = seedTwo(w);
    const outsider = await signedIn(w, w.people.outsider);
    for (const path of [
      "/dealerships",
      "/businesses/dealerships",
      "/businesses/subdealerships",
      "/dealerships/export",
    ]) {
      expect({ path, status: (await outsider.get(path)).status }).toEqual({ path, status: 403 });
    }
    const viewer = await signedIn(w, w.people.viewer);
    expect((await page(viewer)).props.can).toEqual({ manage: false });
    const writes: [string, string][] = [
      ["POST", "/dealerships"],
      ["PUT", `/dealerships/${andina.id}`],
      ["DELETE", `/dealerships/${andina.id}`],
      ["POST", "/subdealerships"],
      ["PUT", `/subdealerships/${perforaciones.id}`],
      ["DELETE", `/subdealerships/${perforaciones.id}`],
    ];
    for (const [method, path] of writes)
      expect({
        method,
        path,
        status: (await submitJson(viewer, method, path, { name: "X", ruc: RUC.e })).status,
      }).toEqual({ method, path, status: 403 });
    expect(w.db.select().from(dealerships).all()).toHaveLength(2);
    expect(w.db.select().from(subdealerships).all()).toHaveLength(1);
  });
});

describe("the Dealerships page", () => {
  test("shows the tree paginated and searchable; a subdealership match expands its dealership; units outside the scope are hidden", async () => {
    const w = await buildWorld();
    const { andina } = seedTwo(w);
    const root = await signedIn(w, w.people.root);
    const all = (await page(root)).props;
    expect(all.tree.data.map((d: any) => [d.name, d.ruc, d.subdealershipCount, d.expanded])).toEqual([
      ["Andina del Sur", RUC.a, 1, false],
      ["Huascarán", RUC.b, 0, false],
    ]);
    expect(all.tree.data[0].subdealerships[0].units.map((u: any) => u.name)).toEqual(["Unidad A", "Unidad B"]);
    expect(all.dealershipOptions).toEqual([
      { id: andina.id, name: "Andina del Sur" },
      { id: expect.any(Number), name: "Huascarán" },
    ]);
    expect(all.unitChoices.map((m: any) => [m.name, m.units.map((u: any) => u.name)])).toEqual([
      ["Mina Norte", ["Unidad A"]],
      ["Mina Sur", ["Unidad B"]],
    ]);
    expect(all.rucLength).toBe(11);
    expect(all.can).toEqual({ manage: true });

    const found = (await page(root, "/dealerships?search=altiplano")).props.tree;
    expect(found.data.map((d: any) => [d.name, d.expanded])).toEqual([["Andina del Sur", true]]);
    expect((await page(root, `/dealerships?search=${RUC.b}`)).props.tree.data.map((d: any) => d.name)).toEqual([
      "Huascarán",
    ]);

    // Ten dealerships a page.
    for (let i = 0; i < 11; i++)
      w.db
        .insert(dealerships)
        .values({
          name: `Minera ${String(i).padStart(2, "0")}`,
          ruc: `100000000${String(i).padStart(2, "0")}`,
          createdAt: new Date(),
          updatedAt: new Date(),
        })
        .run();
    const second = (await page(root, "/dealerships?page=2")).props.tree;
    expect([second.total, second.lastPage, second.data.length]).toEqual([13, 2, 3]);

    // A manager of Comedor A sees every dealership but only Unidad A.
    const manager = await signedIn(w, w.people.managerA);
    const scoped = (await page(manager, "/dealerships?search=Andina")).props;
    expect(scoped.tree.data[0].subdealerships[0]).toMatchObject({
      units: [{ name: "Unidad A", mineName: "Mina Norte" }],
      hiddenUnits: 1,
    });
    expect(scoped.unitChoices.map((m: any) => m.name)).toEqual(["Mina Norte"]);
  });

  test("the server renders the tree in the page itself; the Businesses area's former tabs lead to it with their search", async () => {
    const w = await buildWorld();
    seedTwo(w);
    const root = await signedIn(w, w.people.root);
    const response = await root.get("/dealerships?search=andina");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Perforaciones Altiplano");
    expect(embeddedPage(html).url).toBe("/dealerships?search=andina");
    for (const [path, to] of [
      ["/businesses/dealerships", "/dealerships"],
      ["/businesses/dealerships?search=hua", "/dealerships?search=hua"],
      ["/businesses/subdealerships?search=perfo&page=2", "/dealerships?search=perfo"],
    ] as const) {
      const moved = await root.get(path);
      expect({ path, status: moved.status, location: moved.headers.get("location") }).toEqual({
        path,
        status: 302,
        location: to,
      });
    }
  });

  test("dealerships have one entry: the sidebar's Dealerships page, no Businesses tab", async () => {
    const w = await buildWorld();
    seedTwo(w);
    const root = await signedIn(w, w.people.root);
    const shown = await page(root);
    const entries = shown.props.navigation.map((n: any) => n.route);
    expect(entries.filter((route: string) => route.includes("dealership"))).toEqual(["dealerships.index"]);
    const businesses = await page(root, "/businesses");
    expect(businesses.props.tabs.map((t: any) => t.id)).toEqual(["businesses", "headquarters", "properties"]);
    // What the subdealership table found, the tree finds: by a subdealership's name or RUC, within the scope.
    const viewer = await signedIn(w, w.people.viewer);
    for (const search of ["perfo", RUC.c]) {
      const tree = (await page(viewer, `/dealerships?search=${search}`)).props.tree;
      expect(
        tree.data.map((d: any) => [
          d.name,
          d.expanded,
          d.subdealerships.map((s: any) => [s.name, s.matched, s.units.map((u: any) => u.name), s.hiddenUnits]),
        ]),
      ).toEqual([["Andina del Sur", true, [["Perforaciones Altiplano", true, ["Unidad A"], 1]]]]);
    }
    expect((await page(viewer, "/dealerships?search=nada")).props.tree.data).toEqual([]);
  });

  test("the tree sorts its dealerships on the server by name, RUC or number of subdealerships, then pages", async () => {
    const w = await buildWorld();
    seedTwo(w);
    for (let i = 0; i < 11; i++)
      w.db
        .insert(dealerships)
        .values({
          name: `Minera ${String(i).padStart(2, "0")}`,
          ruc: `100000000${String(i).padStart(2, "0")}`,
          createdAt: new Date(),
          updatedAt: new Date(),
        })
        .run();
    const root = await signedIn(w, w.people.root);
    const names = async (query: string) =>
      (await page(root, `/dealerships?${query}`)).props.tree.data.map((d: any) => d.name);
    const byName = await names("");
    expect(byName.slice(0, 3)).toEqual(["Andina del Sur", "Huascarán", "Minera 00"]);
    const desc = [...(await names("sort=name&direction=desc")), ...(await names("sort=name&direction=desc&page=2"))];
    expect(desc.slice(0, 3)).toEqual(["Minera 10", "Minera 09", "Minera 08"]);
    expect(desc.slice(-2)).toEqual(["Huascarán", "Andina del Sur"]);
    expect(new Set(desc).size).toBe(13);
    // By RUC: the "100…" ones before the "20…" ones.
    expect((await names("sort=ruc")).slice(0, 2)).toEqual(["Minera 00", "Minera 01"]);
    expect((await names("sort=ruc&direction=desc")).slice(0, 2)).toEqual(["Huascarán", "Andina del Sur"]);
    // Andina del Sur is the only one with a subdealership.
    expect((await names("sort=subdealerships&direction=desc"))[0]).toBe("Andina del Sur");
    expect((await page(root, "/dealerships?sort=subdealerships&direction=desc")).props.filters).toEqual({
      search: "",
      sort: "subdealerships",
      direction: "desc",
    });
    for (const sort of ["email", "created_at", "name desc"])
      expect(await names(`sort=${encodeURIComponent(sort)}`)).toEqual(byName);
  });
});

describe("writes", () => {
  test("a manager creates, edits and deletes a dealership and a subdealership, each audited, back to the page they came from", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.people.managerA);
    const created = await submit(
      client,
      "POST",
      "/dealerships",
      {
        name: "Minera Pampa Alta",
        ruc: RUC.a,
        fiscal_address: "Av. Ejército 710",
        legal_address: "Av. Ejército 710",
        phone: "054 274400",
        email: "admin@pampaalta.pe",
      },
      "/dealerships?search=pampa",
    );
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/dealerships?search=pampa");
    const dealership = w.db.select().from(dealerships).where(eq(dealerships.ruc, RUC.a)).get()!;
    expect(dealership).toMatchObject({
      name: "Minera Pampa Alta",
      email: "admin@pampaalta.pe",
      fiscalAddress: "Av. Ejército 710",
    });
    expect((await page(client, "/dealerships?search=pampa")).flash.success).toBe(
      es("dealerships.saved", { name: "Minera Pampa Alta" }),
    );

    expect(
      (
        await submit(client, "POST", "/subdealerships", {
          name: "Montajes Puna",
          ruc: RUC.b,
          dealership_id: String(dealership.id),
          unit_ids: [w.unitA],
        })
      ).status,
    ).toBe(302);
    const sub = w.db.select().from(subdealerships).where(eq(subdealerships.ruc, RUC.b)).get()!;
    expect(
      w.db
        .select()
        .from(subdealershipUnits)
        .where(eq(subdealershipUnits.subdealershipId, sub.id))
        .all()
        .map((u) => u.unitId),
    ).toEqual([w.unitA]);
    expect((await page(client)).flash.success).toBe(es("dealerships.subdealership_saved", { name: "Montajes Puna" }));

    expect(
      (await submit(client, "PUT", `/dealerships/${dealership.id}`, { name: "Consorcio Pampa Alta", ruc: RUC.a }))
        .status,
    ).toBe(303);
    expect(
      (
        await submit(client, "PUT", `/subdealerships/${sub.id}`, {
          name: "Montajes Puna S.A.C.",
          ruc: RUC.b,
          dealership_id: dealership.id,
          unit_ids: [],
        })
      ).status,
    ).toBe(303);
    expect(w.db.select().from(subdealershipUnits).all()).toEqual([]);

    // Not while it has a subdealership: the page shows why.
    expect((await submit(client, "DELETE", `/dealerships/${dealership.id}`)).status).toBe(303);
    expect((await page(client)).props.errors.form).toBe(
      es("dealerships.has_subdealerships", { name: "Consorcio Pampa Alta", count: 1 }),
    );
    const conflict = await submitJson(client, "DELETE", `/dealerships/${dealership.id}`);
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).message).toBe(
      es("dealerships.has_subdealerships", { name: "Consorcio Pampa Alta", count: 1 }),
    );

    expect((await submit(client, "DELETE", `/subdealerships/${sub.id}`)).status).toBe(303);
    expect((await submit(client, "DELETE", `/dealerships/${dealership.id}`)).status).toBe(303);
    expect(w.db.select().from(dealerships).all()).toEqual([]);
    const audit = w.db
      .select()
      .from(auditLog)
      .all()
      .filter((a) => a.subjectType === "dealership" || a.subjectType === "subdealership");
    expect(audit.map((a) => a.action)).toEqual([
      "dealership.created",
      "subdealership.created",
      "dealership.updated",
      "subdealership.updated",
      "subdealership.deleted",
      "dealership.deleted",
    ]);
    expect(audit.every((a) => a.actorId === w.people.managerA.id)).toBe(true);
  });

  test("validation messages: required fields, RUC check digit, RUC taken (naming who has it), e-mail, names, units outside the scope", async () => {
    const w = await buildWorld();
    const { andina } = seedTwo(w);
    const client = await signedIn(w, w.people.managerA);
    const errorsOf = async (method: string, path: string, json: unknown) => {
      const response = await submitJson(client, method, path, json);
      expect(response.status).toBe(422);
      return (await response.json()).errors;
    };
    expect(await errorsOf("POST", "/dealerships", {})).toEqual({
      name: es("validation.required"),
      ruc: es("validation.required"),
    });
    expect(
      await errorsOf("POST", "/dealerships", { name: "Nueva Minera", ruc: "20100934720", email: "sin-arroba" }),
    ).toEqual({ ruc: es("validation.ruc_check_digit"), email: es("validation.email") });
    expect(await errorsOf("POST", "/dealerships", { name: "Nueva Minera", ruc: "2010" })).toEqual({
      ruc: es("validation.ruc_format", { length: 11 }),
    });
    expect(await errorsOf("POST", "/dealerships", { name: "Nueva Minera", ruc: RUC.c })).toEqual({
      ruc: es("dealerships.ruc_taken_by_subdealership", { ruc: RUC.c, name: "Perforaciones Altiplano" }),
    });
    expect(await errorsOf("POST", "/dealerships", { name: "huascarán", ruc: RUC.e })).toEqual({
      name: es("dealerships.name_taken", { name: "huascarán" }),
    });
    expect(await errorsOf("POST", "/subdealerships", { name: "Otra", ruc: RUC.a, dealership_id: andina.id })).toEqual({
      ruc: es("dealerships.ruc_taken_by_dealership", { ruc: RUC.a, name: "Andina del Sur" }),
    });
    expect(
      await errorsOf("POST", "/subdealerships", {
        name: "Perforaciones Altiplano",
        ruc: RUC.e,
        dealership_id: andina.id,
      }),
    ).toEqual({ name: es("dealerships.subdealership_name_taken", { name: "Perforaciones Altiplano" }) });
    expect(await errorsOf("POST", "/subdealerships", { name: "Otra", ruc: RUC.e })).toEqual({
      dealership_id: es("validation.required"),
    });
    // Manager A reaches Unidad A only.
    expect(
      await errorsOf("POST", "/subdealerships", {
        name: "Otra",
        ruc: RUC.e,
        dealership_id: andina.id,
        unit_ids: [w.unitA, w.unitB],
      }),
    ).toEqual({ unit_ids: es("dealerships.unit_out_of_scope") });
    // The page client sees the message on the page, in English for an English reader.
    client.cookies.set("locale", "en");
    await submit(client, "POST", "/dealerships", { name: "Nueva Minera", ruc: "20100934720" });
    expect((await page(client)).props.errors).toEqual({ ruc: en("validation.ruc_check_digit") });
    expect(w.db.select().from(dealerships).all()).toHaveLength(2);
    expect((await submitJson(client, "PUT", "/dealerships/9999", { name: "X", ruc: RUC.e })).status).toBe(404);
    expect((await submitJson(client, "DELETE", "/subdealerships/9999")).status).toBe(404);
  });

  test("a scoped manager's save keeps the units outside their scope", async () => {
    const w = await buildWorld();
    const { andina, perforaciones } = seedTwo(w);
    const client = await signedIn(w, w.people.managerA);
    expect(
      (
        await submit(client, "PUT", `/subdealerships/${perforaciones.id}`, {
          name: "Perforaciones Altiplano",
          ruc: RUC.c,
          dealership_id: andina.id,
          unit_ids: [],
        })
      ).status,
    ).toBe(303);
    expect(
      w.db
        .select()
        .from(subdealershipUnits)
        .all()
        .map((u) => u.unitId),
    ).toEqual([w.unitB]);
  });

  test("dealerships are company-wide: dealerships.manage held in a cafe area changes nothing", async () => {
    const w = await buildWorld();
    const { andina, perforaciones } = seedTwo(w);
    const cafeManager = await addUser(w.db, "Gerente de Comedor", "cafe.manager@mesa.test");
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: cafeManager.id, areaId: w.areas.cajaA, roleId: w.roles.manager });
    const client = await signedIn(w, cafeManager);
    // Reading follows the role; changing does not.
    expect((await page(client)).props.tree.data.length).toBe(2);
    expect(
      (await submit(client, "PUT", `/dealerships/${andina.id}`, { name: "Renombrada desde un comedor", ruc: RUC.a }))
        .status,
    ).toBe(403);
    expect(
      (
        await submit(client, "PUT", `/subdealerships/${perforaciones.id}`, {
          name: "Renombrada",
          ruc: RUC.c,
          dealership_id: andina.id,
          unit_ids: [w.unitA],
        })
      ).status,
    ).toBe(403);
    expect((await submit(client, "POST", "/dealerships", { name: "Nueva", ruc: RUC.e })).status).toBe(403);
    expect(
      w.db
        .select()
        .from(dealerships)
        .all()
        .map((d) => d.name)
        .sort(),
    ).toEqual(["Andina del Sur", "Huascarán"]);
  });
});

describe("exports", () => {
  test("the tree as .xlsx: its dealerships and their subdealerships, translated headers, the search and sort, units within scope", async () => {
    const w = await buildWorld();
    seedTwo(w);
    const viewer = await signedIn(w, w.people.viewer);
    const response = await viewer.get("/dealerships/export");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="mesa-dealerships-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const sheets = await workbook(response);
    expect(Object.keys(sheets)).toEqual([es("dealerships.title"), es("dealerships.subdealerships_title")]);
    const rows = sheets[es("dealerships.title")];
    expect(rows[0]).toEqual([
      es("dealerships.name"),
      "RUC",
      es("dealerships.fiscal_address"),
      es("dealerships.legal_address"),
      es("dealerships.phone"),
      es("dealerships.email"),
      es("dealerships.subdealership_count"),
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[6]])).toEqual([
      ["Andina del Sur", RUC.a, 1],
      ["Huascarán", RUC.b, 0],
    ]);
    // The viewer reaches Unidad A only.
    expect(sheets[es("dealerships.subdealerships_title")].slice(1).map((r) => r.slice(0, 4))).toEqual([
      ["Perforaciones Altiplano", RUC.c, "Andina del Sur", "Mina Norte / Unidad A"],
    ]);
    // The search and the order of the tree.
    const found = await workbook(await viewer.get("/dealerships/export?search=hua"));
    expect(found[es("dealerships.title")].slice(1).map((r) => r[0])).toEqual(["Huascarán"]);
    expect(found[es("dealerships.subdealerships_title")]).toHaveLength(1);
    const sorted = await workbook(await viewer.get("/dealerships/export?sort=name&direction=desc"));
    expect(sorted[es("dealerships.title")].slice(1).map((r) => r[0])).toEqual(["Huascarán", "Andina del Sur"]);

    viewer.cookies.set("locale", "en");
    const english = await workbook(await viewer.get("/dealerships/export?search=perfo"));
    expect(Object.keys(english)).toEqual([en("dealerships.title"), en("dealerships.subdealerships_title")]);
    expect(english[en("dealerships.subdealerships_title")][0].slice(0, 4)).toEqual([
      "Name",
      "RUC",
      "Dealership",
      "Units",
    ]);
    const root = await signedIn(w, w.people.root);
    const all = await workbook(await root.get("/dealerships/export?search=perfo"));
    expect(all[es("dealerships.subdealerships_title")][1][3]).toBe("Mina Norte / Unidad A, Mina Sur / Unidad B");
  });
});

describe("the seeder", () => {
  test("creates three dealerships with their subdealerships in the named units, skips missing units, and runs twice without change", async () => {
    const app = createTestApp();
    ensureCafe(app.db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal");
    ensureCafe(app.db, "Mina Cerro Verde", "Unidad Sur", "Comedor Campamento");
    const first = await dealershipsSeeder.run(app.db, app.config);
    expect(first[1]).toContain("Mina Antamina / Unidad Yanacancha");
    expect(app.db.select().from(dealerships).all()).toHaveLength(3);
    expect(app.db.select().from(subdealerships).all()).toHaveLength(
      DEMO_DEALERSHIPS.flatMap((d) => d.subdealerships).length,
    );
    const perforaciones = app.db
      .select()
      .from(subdealerships)
      .where(eq(subdealerships.name, "Perforaciones Altiplano S.A.C."))
      .get()!;
    const linked = app.db
      .select({ name: units.name })
      .from(subdealershipUnits)
      .innerJoin(units, eq(units.id, subdealershipUnits.unitId))
      .where(eq(subdealershipUnits.subdealershipId, perforaciones.id))
      .all();
    expect(linked.map((u) => u.name).sort()).toEqual(["Unidad Norte", "Unidad Sur"]);
    const counts = [
      app.db.select().from(dealerships).all().length,
      app.db.select().from(subdealerships).all().length,
      app.db.select().from(subdealershipUnits).all().length,
    ];
    await dealershipsSeeder.run(app.db, app.config);
    expect([
      app.db.select().from(dealerships).all().length,
      app.db.select().from(subdealerships).all().length,
      app.db.select().from(subdealershipUnits).all().length,
    ]).toEqual(counts);
  });
});
