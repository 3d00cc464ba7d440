/**
 * Access control through the app, the way the screens use it: data scope by place, permission changes reaching
 * the next request (also from another connection, as the CLI makes them), the sidebar, the users page and its
 * modals, password confirmation for sensitive actions, roles, the permission modal, the blacklist, the audit
 * trail, and GET requests that change nothing.
 *
 * The world: business X (headquarters "Sede X", cafes A and A2) and business Y (headquarters "Sede Y", cafe B).
 */
import { describe, expect, test } from "bun:test";
import { desc, eq } from "drizzle-orm";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import {
  areas as areasTable,
  cafes as cafesTable,
  mines as minesTable,
  units as unitsTable,
  auditLog,
  assignments,
  blacklist,
  permissions as permissionsTable,
  rolePermissions,
  sessions,
} from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { sha256 } from "../../src/crypto";
import { migrateDatabase, openDatabase, type Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { bumpAccessVersion, currentAccessVersion } from "../../src/domain/access/authorization";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { findPermission } from "../../src/domain/access/catalogue";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { changeRolePermissions, findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { setUserStatus } from "../../src/domain/access/users-admin";
import { findUserByEmail, findUserById, type User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createApp } from "../../src/http/app";
import { routes as productRoutes } from "../../src/http/routes";
import type { RouteDefinition } from "../../src/http/routing";
import { createServices } from "../../src/http/services";
import { Client, createTestApp, testConfig, type TestApp } from "../support/app";
import { decodeQuotedPrintable, mailFiles } from "../support/mail";
import type { Document } from "../../src/shared/documents";
import { addUser, dni, makeRole, TEST_PASSWORD } from "../support/people";
import { ageConfirmation, isSignedIn, signedIn, signIn, submitFrom, submitJson, visitPage } from "../support/requests";

const PASSWORD = TEST_PASSWORD;
const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

// ——— Fixtures ———

interface World {
  app: TestApp;
  db: Db;
  roles: { super: number; admin: number; staff: number };
  places: {
    businessX: number;
    hqX: number;
    cafeA: number;
    cafeA2: number;
    businessY: number;
    hqY: number;
    cafeB: number;
  };
  areas: { sede: number; adminA: number; cajaA: number; cajaA2: number; cajaB: number; emptyB: number; sedeY: number };
  people: {
    root: User;
    adminA: User;
    adminHQ: User;
    staffA: User;
    staffA2: User;
    staffB: User;
    both: User;
    nobody: User;
  };
}

/** The access seed's catalogue and super role, two businesses with their places and areas, and people in them. */
async function buildWorld(app: TestApp): Promise<World> {
  const db = app.db;
  bootstrapAccess(db);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const admin = makeRole(db, "administrator", ["users.view", "users.manage", "areas.manage"]);
  const staff = makeRole(db, "cashier", []);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeA2 = ensureCafe(db, "Mina Norte", "Unidad A2", "Comedor A2", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  const area = (name: string, place: { cafe_id?: number; headquarters_id?: number }, roleIds: number[]) =>
    createArea(db, CLI_ACTOR, EVERYTHING, { name, ...place, role_ids: roleIds }).id;
  const areas = {
    sede: area("Administración X", { headquarters_id: x.headquartersId }, [superRole, admin, staff]),
    adminA: area("Administración A", { cafe_id: cafeA }, [admin, staff]),
    cajaA: area("Caja A", { cafe_id: cafeA }, [staff]),
    cajaA2: area("Caja A2", { cafe_id: cafeA2 }, [staff]),
    cajaB: area("Caja B", { cafe_id: cafeB }, [admin, staff]),
    emptyB: area("Almacén B", { cafe_id: cafeB }, [staff]),
    sedeY: area("Administración Y", { headquarters_id: y.headquartersId }, [admin]),
  };
  const person = async (name: string, email: string, holds: [number, number][], document: Document | null = null) => {
    const user = await addUser(db, name, email, document);
    for (const [areaId, roleId] of holds) assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    return user;
  };
  const people = {
    root: await person("Raíz Super", "root@mesa.test", [[areas.sede, superRole]], { type: "pas", number: "ROOT0001" }),
    adminA: await person("Ana Admin", "admin.a@mesa.test", [[areas.adminA, admin]]),
    adminHQ: await person("Hugo Sede", "admin.hq@mesa.test", [[areas.sede, admin]]),
    staffA: await person("Sara Caja", "staff.a@mesa.test", [[areas.cajaA, staff]], dni("10000001")),
    staffA2: await person("Tomás Caja", "staff.a2@mesa.test", [[areas.cajaA2, staff]]),
    staffB: await person("Beto Caja", "staff.b@mesa.test", [[areas.cajaB, staff]], dni("20000002")),
    both: await person("Doris Doble", "both@mesa.test", [
      [areas.cajaA, staff],
      [areas.cajaB, staff],
    ]),
    nobody: await person("Nadie Rol", "nobody@mesa.test", []),
  };
  return {
    app,
    db,
    roles: { super: superRole, admin, staff },
    places: {
      businessX: x.businessId,
      hqX: x.headquartersId,
      cafeA,
      cafeA2,
      businessY: y.businessId,
      hqY: y.headquartersId,
      cafeB,
    },
    areas,
    people,
  };
}

async function setup(env: Record<string, string> = {}): Promise<World> {
  return buildWorld(createTestApp({ env }));
}

// ——— Requests ———

/** A form sent by the page client, from /users unless another page is named. */
const submit = submitFrom("/users");

async function props(client: Client, path: string, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  return (await visitPage(client, path, headers)).props;
}

/** The validation errors the page at `path` shows after a form was sent back. */
async function errorsOn(client: Client, path = "/users"): Promise<Record<string, any>> {
  return (await props(client, path)).errors;
}

/** Loads the "view permissions" dialog of a user on /users (a partial reload asking for `inspected`). */
function inspect(client: Client, userId: number): Promise<Response> {
  return client.request(`/users?inspect=${userId}`, {
    inertia: true,
    headers: { "x-inertia-partial-component": "users/index", "x-inertia-partial-data": "inspected" },
  });
}

function navRoutes(p: Record<string, any>): string[] {
  return (p.navigation as { route: string }[]).map((e) => e.route);
}

// ——— Reading the database ———

interface AuditRecord {
  id: number;
  actorId: number | null;
  actorLabel: string;
  action: string;
  subjectType: string;
  subjectId: number | null;
  before: any;
  after: any;
}

function auditRows(db: Db, action?: string): AuditRecord[] {
  return db
    .select()
    .from(auditLog)
    .where(action ? eq(auditLog.action, action) : undefined)
    .orderBy(desc(auditLog.id))
    .all()
    .map((r) => ({
      ...r,
      before: r.before ? JSON.parse(r.before) : null,
      after: r.after ? JSON.parse(r.after) : null,
    }));
}

function lastAudit(db: Db, action: string): AuditRecord {
  const [row] = auditRows(db, action);
  expect(row).toBeDefined();
  return row;
}

function auditCount(db: Db): number {
  return db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM audit_log").get()!.n;
}

function assignmentsOfUser(db: Db, userId: number): { areaId: number; roleId: number }[] {
  return db
    .select({ areaId: assignments.areaId, roleId: assignments.roleId })
    .from(assignments)
    .where(eq(assignments.userId, userId))
    .orderBy(assignments.areaId)
    .all();
}

function sessionCount(db: Db, userId: number): number {
  return db.select().from(sessions).where(eq(sessions.userId, userId)).all().length;
}

/** Every row of the tables access control owns, to compare before and after. */
function snapshot(db: Db): string {
  const tables = [
    "users",
    "roles",
    "permissions",
    "role_permissions",
    "areas",
    "area_roles",
    "assignments",
    "blacklist",
    "audit_log",
    "access_version",
    "password_reset_tokens",
  ];
  return JSON.stringify(
    Object.fromEntries(tables.map((t) => [t, db.$client.query(`SELECT * FROM ${t} ORDER BY rowid`).all()])),
  );
}

// ——— Mail ———

// ——————————————————————————————————————————————————————————————————————————————————————————————

describe("data scope", () => {
  test("an administrator of cafe A sees only cafe A's places, areas and users on /users", async () => {
    const w = await setup();
    const client = await signedIn(w, w.people.adminA);
    const p = await props(client, "/users");
    const cafes = p.places.mines.flatMap((m: any) => m.units.flatMap((u: any) => u.cafes.map((c: any) => c.id)));
    expect(cafes).toEqual([w.places.cafeA]);
    expect(p.places.businesses).toEqual([]);
    expect(p.areas.data.map((a: any) => a.id).sort()).toEqual([w.areas.adminA, w.areas.cajaA].sort());
    expect(p.areas.data.every((a: any) => a.place.kind === "cafe" && a.place.id === w.places.cafeA)).toBe(true);
    expect(p.areaOptions.map((a: any) => a.id).sort()).toEqual([w.areas.adminA, w.areas.cajaA].sort());
    const emails = p.users.data.map((u: any) => u.email).sort();
    expect(emails).toEqual([w.people.adminA.email, w.people.both.email, w.people.staffA.email].sort());
    expect(p.users.total).toBe(3);
    expect(p.can).toEqual({
      manageUsers: true,
      manageAreas: true,
      manageRoles: false,
      viewRoles: false,
      manageSupers: false,
    });
    // Filters for places outside the scope find nothing.
    expect((await props(client, `/users?cafe=${w.places.cafeB}`)).areas.data).toEqual([]);
    expect((await props(client, `/users?headquarters=${w.places.hqX}`)).areas.data).toEqual([]);
    expect((await props(client, `/users?search=Beto`)).users.data).toEqual([]);
  });

  // A user holding roles in both cafes is visible to cafe A's administrator; their row lists only what lies in A.
  test("a user holding roles in both cafes shows cafe A's administrator only their cafe A assignments", async () => {
    const w = await setup();
    const client = await signedIn(w, w.people.adminA);
    const p = await props(client, "/users");
    const row = p.users.data.find((u: any) => u.id === w.people.both.id);
    expect(row.assignments.map((a: any) => a.areaId)).toEqual([w.areas.cajaA]);
  });

  test("an administrator of cafe A cannot read a user of cafe B (inspect=) — 404 — but can read cafe A's", async () => {
    const w = await setup();
    const client = await signedIn(w, w.people.adminA);
    const own = await inspect(client, w.people.staffA.id);
    expect(own.status).toBe(200);
    const inspected = ((await own.json()) as any).props.inspected;
    expect(inspected.user).toMatchObject({ id: w.people.staffA.id, email: w.people.staffA.email });
    expect(inspected.isSuper).toBe(false);
    expect(inspected.roles).toEqual(["cashier"]);
    for (const id of [w.people.staffB.id, w.people.staffA2.id, w.people.root.id, 999999])
      expect({ id, status: (await inspect(client, id)).status }).toEqual({ id, status: 404 });
    // Someone who also works at cafe B: only what they hold in cafe A is shown, not the roles and rights held there.
    grant(w.db, w.roles.admin, ["blacklist.view"]);
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: w.people.both.id, areaId: w.areas.cajaB, roleId: w.roles.admin });
    const both = ((await (await inspect(client, w.people.both.id)).json()) as any).props.inspected;
    expect(both.roles).toEqual(["cashier"]);
    expect(both.permissions).toEqual([]);
  });

  test("an administrator of cafe A cannot change users or areas of cafe B: 404 (or a refused place), and nothing changes", async () => {
    const w = await setup();
    const { people, areas, roles, places } = w;
    const client = await signedIn(w, people.adminA);
    const before = snapshot(w.db);
    const staffB = people.staffB.id;
    const attempts: [string, string, unknown][] = [
      ["PUT", `/users/${staffB}`, { name: "Robado", email: "robado@mesa.test" }],
      ["POST", `/users/${staffB}/deactivate`, {}],
      ["POST", `/users/${staffB}/reactivate`, {}],
      ["PUT", `/users/${staffB}/roles`, { area_id: areas.cajaB, role_id: roles.admin }],
      ["DELETE", `/users/${staffB}/roles/${areas.cajaB}`, {}],
      // A user cafe A's administrator does see, but an area in cafe B: changing the id in the URL reaches nothing.
      ["DELETE", `/users/${people.both.id}/roles/${areas.cajaB}`, {}],
      ["PUT", `/users/${people.both.id}/roles`, { area_id: areas.cajaB, role_id: roles.admin }],
      ["PUT", `/users/${people.staffA.id}/roles`, { area_id: areas.cajaB, role_id: roles.staff }],
      [
        "PUT",
        `/areas/${areas.cajaB}`,
        { name: "Caja B renombrada", cafe_id: places.cafeB, role_ids: [roles.admin, roles.staff] },
      ],
      [
        "PUT",
        `/areas/${areas.cajaB}`,
        { name: "Caja B movida", cafe_id: places.cafeA, role_ids: [roles.admin, roles.staff] },
      ],
      ["DELETE", `/areas/${areas.emptyB}`, {}],
      ["DELETE", `/areas/${areas.sedeY}`, {}],
      [
        "POST",
        "/users",
        {
          name: "Nuevo B",
          email: "nuevo.b@mesa.test",
          area_id: areas.cajaB,
          role_id: roles.staff,
          access: "password",
          password: "another-horse-77",
        },
      ],
    ];
    for (const [method, path, body] of attempts) {
      const response = await submit(client, method, path, body);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      expect({ method, path, json: (await submitJson(client, method, path, body)).status }).toEqual({
        method,
        path,
        json: 404,
      });
    }
    // Creating an area in cafe B, or moving one of A's there, is refused as a place outside the scope.
    expect(
      (await submit(client, "POST", "/areas", { name: "Área intrusa", cafe_id: places.cafeB, role_ids: [] })).status,
    ).toBe(302);
    expect(await errorsOn(client)).toEqual({ cafe_id: es("access.place_not_found") });
    expect(
      (
        await submit(client, "PUT", `/areas/${areas.cajaA}`, {
          name: "Caja A",
          cafe_id: places.cafeB,
          role_ids: [roles.staff],
        })
      ).status,
    ).toBe(303);
    expect(await errorsOn(client)).toEqual({ cafe_id: es("access.place_not_found") });
    expect(
      (await submit(client, "POST", "/areas", { name: "Área sede Y", headquarters_id: places.hqY, role_ids: [] }))
        .status,
    ).toBe(302);
    expect(await errorsOn(client)).toEqual({ headquarters_id: es("access.place_not_found") });
    expect(snapshot(w.db)).toBe(before);
    expect(findUserById(w.db, staffB)).toMatchObject({ name: people.staffB.name, status: "active" });
  });

  test("within its scope the same administrator's changes go through", async () => {
    const w = await setup();
    const client = await signedIn(w, w.people.adminA);
    expect(
      (
        await submit(client, "PUT", `/users/${w.people.staffA.id}`, {
          name: "Sara Caja Cambiada",
          email: w.people.staffA.email,
        })
      ).status,
    ).toBe(303);
    expect(findUserById(w.db, w.people.staffA.id)!.name).toBe("Sara Caja Cambiada");
    expect(
      (
        await submit(client, "PUT", `/users/${w.people.staffA.id}/roles`, {
          area_id: w.areas.adminA,
          role_id: w.roles.staff,
        })
      ).status,
    ).toBe(303);
    expect((await submit(client, "DELETE", `/users/${w.people.staffA.id}/roles/${w.areas.cajaA}`)).status).toBe(303);
    expect(assignmentsOfUser(w.db, w.people.staffA.id)).toEqual([{ areaId: w.areas.adminA, roleId: w.roles.staff }]);
  });

  test("a person who also holds a role outside the administrator's cafe is read-only to them, and the page says why", async () => {
    const w = await setup();
    const client = await signedIn(w, w.people.adminA);
    const row = (await props(client, "/users")).users.data.find((u: any) => u.id === w.people.both.id);
    expect(row.readOnly).toBe("outside_scope");
    expect(
      (await props(client, "/users")).users.data.find((u: any) => u.id === w.people.staffA.id).readOnly,
    ).toBeNull();
    const before = snapshot(w.db);
    const both = w.people.both.id;
    const attempts: [string, string, unknown][] = [
      // The take-over: an e-mail of the manager's, then a reset link to it, then the person's wider scope.
      ["PUT", `/users/${both}`, { name: "Doris Doble", email: "mine@attacker.test" }],
      ["POST", `/users/${both}/deactivate`, {}],
      ["PUT", `/users/${both}/roles`, { area_id: w.areas.adminA, role_id: w.roles.admin }],
      ["DELETE", `/users/${both}/roles/${w.areas.cajaA}`, {}],
    ];
    for (const [method, path, body] of attempts) {
      expect({ method, path, status: (await submit(client, method, path, body)).status }).toEqual({
        method,
        path,
        status: 403,
      });
    }
    expect(snapshot(w.db)).toBe(before);
    expect(findUserById(w.db, both)!.email).toBe("both@mesa.test");
    // An administrator whose scope covers both cafes may.
    const root = await signedIn(w, w.people.root);
    expect(
      (await submit(root, "PUT", `/users/${both}`, { name: "Doris Doble", email: "doris@mesa.test" })).status,
    ).toBe(303);
  });

  test("a role in a headquarters area, or in another business's cafe, also makes a person read-only to a narrower administrator", async () => {
    const w = await setup();
    // Holds the administrator role at headquarters X and a cashier role in cafe A.
    const wide = await addUser(w.db, "Admin Doble", "doble@mesa.test");
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: wide.id, areaId: w.areas.sede, roleId: w.roles.admin });
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: wide.id, areaId: w.areas.cajaA, roleId: w.roles.staff });
    const cafeAdmin = await signedIn(w, w.people.adminA);
    expect((await props(cafeAdmin, "/users")).users.data.find((u: any) => u.id === wide.id).readOnly).toBe(
      "outside_scope",
    );
    expect(
      (await submit(cafeAdmin, "PUT", `/users/${wide.id}`, { name: "Admin Doble", email: "mine@attacker.test" }))
        .status,
    ).toBe(403);
    expect((await submit(cafeAdmin, "POST", `/users/${wide.id}/deactivate`)).status).toBe(403);
    expect(findUserById(w.db, wide.id)).toMatchObject({ email: "doble@mesa.test", status: "active" });
    // staffB's cafe belongs to business Y: headquarters X's administrator may not change someone who also works there.
    const crossed = await addUser(w.db, "Cruzado", "cruzado@mesa.test");
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: crossed.id, areaId: w.areas.cajaA, roleId: w.roles.staff });
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: crossed.id, areaId: w.areas.cajaB, roleId: w.roles.staff });
    const hqAdmin = await signedIn(w, w.people.adminHQ);
    expect((await props(hqAdmin, "/users")).users.data.find((u: any) => u.id === crossed.id).readOnly).toBe(
      "outside_scope",
    );
    expect(
      (await submit(hqAdmin, "PUT", `/users/${crossed.id}`, { name: "Cruzado", email: "mine@attacker.test" })).status,
    ).toBe(403);
    expect(findUserById(w.db, crossed.id)!.email).toBe("cruzado@mesa.test");
  });

  test("an administrator gives only roles whose permissions they hold: no area offering a bigger role widens anyone's rights", async () => {
    const w = await setup();
    const bigger = makeRole(w.db, "supervisor", [
      "users.view",
      "users.manage",
      "areas.manage",
      "audit.view",
      "blacklist.manage",
    ]);
    const client = await signedIn(w, w.people.adminA);
    expect(
      (await submit(client, "POST", "/areas", { name: "Escalera", cafe_id: w.places.cafeA, role_ids: [bigger] }))
        .status,
    ).toBe(302);
    const ladder = w.db.select().from(areasTable).where(eq(areasTable.name, "Escalera")).get()!.id;
    for (const userId of [w.people.adminA.id, w.people.staffA.id]) {
      expect((await submit(client, "PUT", `/users/${userId}/roles`, { area_id: ladder, role_id: bigger })).status).toBe(
        303,
      );
      expect(await errorsOn(client)).toEqual({ role_id: es("access.role_beyond_yours") });
      expect(assignmentsOfUser(w.db, userId).some((a) => a.roleId === bigger)).toBe(false);
    }
    expect((await client.request("/audit", { inertia: true })).status).toBe(403);
    // A role within their own permissions is given as before.
    expect(
      (
        await submit(client, "PUT", `/users/${w.people.staffA.id}/roles`, {
          area_id: w.areas.adminA,
          role_id: w.roles.admin,
        })
      ).status,
    ).toBe(303);
    expect(await errorsOn(client)).toEqual({});
  });

  test("a headquarters area reaches every cafe of its business, and nothing of another business", async () => {
    const w = await setup();
    const client = await signedIn(w, w.people.adminHQ);
    const p = await props(client, "/users");
    const cafes = p.places.mines.flatMap((m: any) => m.units.flatMap((u: any) => u.cafes.map((c: any) => c.id))).sort();
    expect(cafes).toEqual([w.places.cafeA, w.places.cafeA2].sort());
    expect(p.places.businesses).toEqual([
      { id: w.places.businessX, name: "Catering X S.A.C.", headquarters: [{ id: w.places.hqX, name: "Sede X" }] },
    ]);
    expect(p.areas.data.map((a: any) => a.id).sort()).toEqual(
      [w.areas.sede, w.areas.adminA, w.areas.cajaA, w.areas.cajaA2].sort(),
    );
    const emails: string[] = p.users.data.map((u: any) => u.email);
    for (const who of ["root", "adminA", "adminHQ", "staffA", "staffA2", "both"] as const)
      expect(emails).toContain(w.people[who].email);
    expect(emails).not.toContain(w.people.staffB.email);
    expect(emails).not.toContain(w.people.nobody.email);
    expect((await inspect(client, w.people.staffA2.id)).status).toBe(200);
    expect((await inspect(client, w.people.staffB.id)).status).toBe(404);
    // It may change a user of cafe A2, and not one of cafe B.
    expect(
      (
        await submit(client, "PUT", `/users/${w.people.staffA2.id}`, {
          name: "Tomás Renombrado",
          email: w.people.staffA2.email,
        })
      ).status,
    ).toBe(303);
    expect(findUserById(w.db, w.people.staffA2.id)!.name).toBe("Tomás Renombrado");
    expect(
      (
        await submit(client, "PUT", `/users/${w.people.staffB.id}`, {
          name: "Beto Renombrado",
          email: w.people.staffB.email,
        })
      ).status,
    ).toBe(404);
  });
});

describe("permission changes take effect on the next request", () => {
  test("granting and revoking through the domain", async () => {
    const w = await setup();
    makeRole(w.db, "watcher", []);
    const watcher = findRoleByName(w.db, "watcher")!.id;
    const area = createArea(w.db, CLI_ACTOR, EVERYTHING, {
      name: "Vigilancia",
      cafe_id: w.places.cafeA,
      role_ids: [watcher],
    }).id;
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: w.people.nobody.id, areaId: area, roleId: watcher });
    const client = await signedIn(w, w.people.nobody);
    expect((await client.request("/audit", { inertia: true })).status).toBe(403);
    expect(navRoutes(await props(client, "/dashboard"))).toEqual(["dashboard"]);

    changeRolePermissions(w.db, CLI_ACTOR, "watcher", ["audit.view"], "grant");
    expect((await client.request("/audit", { inertia: true })).status).toBe(200);
    expect(navRoutes(await props(client, "/dashboard"))).toEqual(["dashboard", "audit.index"]);

    changeRolePermissions(w.db, CLI_ACTOR, "watcher", ["audit.view"], "revoke");
    expect((await client.request("/audit", { inertia: true })).status).toBe(403);
    expect(navRoutes(await props(client, "/dashboard"))).toEqual(["dashboard"]);
  });

  test("also when the change is made on another connection to the same database file (the CLI)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesa-access-"));
    const file = join(dir, "mesa.sqlite");
    const db = openDatabase(file);
    migrateDatabase(db);
    const config = testConfig();
    const services = createServices(config, db, { routes: productRoutes });
    const app: TestApp = {
      app: createApp(services),
      services,
      mailPath: config.mail.path,
      db,
      config,
      sessions: services.sessions,
      version: services.assets.version,
      routes: productRoutes,
    };
    const w = await buildWorld(app);
    const cli = openDatabase(file);
    try {
      migrateDatabase(cli);
      makeRole(cli, "watcher", []);
      const watcher = findRoleByName(cli, "watcher")!.id;
      const area = createArea(cli, CLI_ACTOR, EVERYTHING, {
        name: "Vigilancia",
        cafe_id: w.places.cafeA,
        role_ids: [watcher],
      }).id;
      assignRole(cli, CLI_ACTOR, EVERYTHING, { userId: w.people.nobody.id, areaId: area, roleId: watcher });
      const client = await signedIn(w, w.people.nobody);
      expect((await client.request("/blacklist", { inertia: true })).status).toBe(403);

      changeRolePermissions(cli, CLI_ACTOR, "watcher", ["blacklist.view"], "grant");
      expect((await client.request("/blacklist", { inertia: true })).status).toBe(200);
      expect(navRoutes(await props(client, "/dashboard"))).toContain("blacklist.index");

      changeRolePermissions(cli, CLI_ACTOR, "watcher", ["blacklist.view"], "revoke");
      expect((await client.request("/blacklist", { inertia: true })).status).toBe(403);
      expect(navRoutes(await props(client, "/dashboard"))).toEqual(["dashboard"]);

      // A deactivation from the command line ends the session on its next request.
      setUserStatus(cli, CLI_ACTOR, EVERYTHING, w.people.nobody.id, "deactivated");
      expect(await isSignedIn(client)).toBe(false);
      expect(lastAudit(db, "user.deactivated")).toMatchObject({
        actorId: null,
        actorLabel: "cli",
        subjectId: w.people.nobody.id,
      });
    } finally {
      cli.$client.close();
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the sidebar", () => {
  test("lists only the entries the user may open", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const rootNav = await props(root, "/dashboard");
    expect(navRoutes(rootNav)).toEqual([
      "dashboard",
      "dinners.index",
      "sales.index",
      "management.index",
      "services.index",
      "businesses.index",
      "dealerships.index",
      "menu.structures",
      "food.index",
      "logistics.index",
      "users.index",
      "roles.index",
      "blacklist.index",
      "audit.index",
    ]);
    expect(rootNav.navigation[10]).toEqual({ route: "users.index", label: "nav.users", icon: "users", order: 80 });
    for (const route of navRoutes(rootNav)) {
      const uri = productRoutes.find((r) => r.name === route)!.uri;
      expect({ route, status: (await root.request(uri, { inertia: true })).status }).toEqual({ route, status: 200 });
    }
    const nobody = await signedIn(w, w.people.nobody);
    expect(navRoutes(await props(nobody, "/dashboard"))).toEqual(["dashboard"]);
    const adminA = await signedIn(w, w.people.adminA);
    expect(navRoutes(await props(adminA, "/dashboard"))).toEqual(["dashboard", "users.index"]);
    // A guest has no sidebar.
    expect((await props(new Client(w.app), "/")).navigation).toEqual([]);
  });
});

describe("the users page", () => {
  test("creating a user with a first password: verified, holding the role, able to sign in", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const form = {
      name: "Nora Nueva",
      email: "Nora@Mesa.test",
      document_type: "dni",
      document_number: " 3000-0003 ",
      language: "en",
      area_id: w.areas.cajaA,
      role_id: w.roles.staff,
      access: "password",
      password: "another-horse-77",
    };
    const response = await submit(root, "POST", "/users", form);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/users");
    const p = await props(root, "/users");
    expect(p.errors).toEqual({});
    const created = findUserByEmail(w.db, "nora@mesa.test")!;
    expect(created).toMatchObject({
      name: "Nora Nueva",
      documentType: "dni",
      documentNumber: "30000003",
      language: "en",
      status: "active",
    });
    expect(created.emailVerifiedAt).not.toBeNull();
    expect(assignmentsOfUser(w.db, created.id)).toEqual([{ areaId: w.areas.cajaA, roleId: w.roles.staff }]);
    expect(p.users.data.map((u: any) => u.email)).toContain("nora@mesa.test");
    expect(mailFiles(w.app)).toEqual([]);
    expect(lastAudit(w.db, "user.created")).toMatchObject({
      actorId: w.people.root.id,
      actorLabel: w.people.root.email,
      subjectId: created.id,
      after: { email: "nora@mesa.test", invited: false },
    });
    expect(lastAudit(w.db, "user.role_assigned")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: created.id,
      before: null,
      after: { areaId: w.areas.cajaA, roleId: w.roles.staff },
    });
    const nora = new Client(w.app);
    expect((await signIn(nora, "nora@mesa.test", "another-horse-77")).headers.get("location")).toBe("/dashboard");
    expect(await isSignedIn(nora)).toBe(true);
  });

  test("creating a user with an invitation: a mailed link lets them choose a password and sign in", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const form = {
      name: "Iris Invitada",
      email: "iris@mesa.test",
      area_id: w.areas.cajaA,
      role_id: w.roles.staff,
      access: "invite",
    };
    expect((await submit(root, "POST", "/users", form)).status).toBe(302);
    const invited = findUserByEmail(w.db, "iris@mesa.test")!;
    expect(invited.emailVerifiedAt).toBeNull();
    expect(lastAudit(w.db, "user.created").after).toMatchObject({ email: "iris@mesa.test", invited: true });

    const files = mailFiles(w.app);
    expect(files).toHaveLength(1);
    const mail = decodeQuotedPrintable(readFileSync(join(w.app.mailPath, files[0]), "utf8"));
    expect(mail).toContain("iris@mesa.test");
    const link = mail.match(/http:\/\/mesa\.test(\/reset-password\/([A-Za-z0-9_-]+)\?email=([^\s"<&]+))/);
    expect(link).not.toBeNull();
    const [, path, token] = link!;

    const iris = new Client(w.app);
    // Until the link is used no password works.
    expect((await signIn(iris, "iris@mesa.test", PASSWORD)).headers.get("location")).toBe("/login");
    const { response, page } = await iris.visit(path);
    expect(response.status).toBe(200);
    expect(page.component).toBe("auth/reset-password");
    expect(page.props).toMatchObject({ token, email: "iris@mesa.test" });
    const reset = await submit(
      iris,
      "POST",
      "/reset-password",
      { token, email: "iris@mesa.test", password: "violet-sunrise-58", password_confirmation: "violet-sunrise-58" },
      path,
    );
    expect(reset.status).toBe(302);
    expect(reset.headers.get("location")).toBe("/login");
    expect((await signIn(iris, "iris@mesa.test", "violet-sunrise-58")).headers.get("location")).toBe("/dashboard");
    const { response: dashboard, page: dashboardPage } = await iris.visit("/dashboard");
    expect(dashboard.status).toBe(200);
    expect(dashboardPage.props.auth.user).toMatchObject({ email: "iris@mesa.test", emailVerified: true });
  });

  test("editing a user", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const id = w.people.staffA.id;
    const response = await submit(root, "PUT", `/users/${id}`, {
      name: "Sara Caja Editada",
      email: "sara@mesa.test",
      document_type: "ce",
      document_number: "ce-001-000-009",
      language: "en",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/users");
    expect(findUserById(w.db, id)).toMatchObject({
      name: "Sara Caja Editada",
      email: "sara@mesa.test",
      documentType: "ce",
      documentNumber: "CE001000009",
      language: "en",
    });
    expect(lastAudit(w.db, "user.updated")).toMatchObject({
      actorId: w.people.root.id,
      subjectType: "user",
      subjectId: id,
      before: {
        name: "Sara Caja",
        email: "staff.a@mesa.test",
        documentType: "dni",
        documentNumber: "10000001",
        language: null,
      },
      after: {
        name: "Sara Caja Editada",
        email: "sara@mesa.test",
        documentType: "ce",
        documentNumber: "CE001000009",
        language: "en",
      },
    });
    // Someone else's address is refused.
    await submit(root, "PUT", `/users/${id}`, { name: "Sara", email: w.people.staffB.email });
    expect(await errorsOn(root)).toEqual({ email: es("validation.email_taken") });
  });

  test("deactivating ends the user's sessions (next request lands on /login); reactivating lets them back", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const sara = await signedIn(w, w.people.staffA);
    expect(sessionCount(w.db, w.people.staffA.id)).toBe(1);
    const response = await submit(root, "POST", `/users/${w.people.staffA.id}/deactivate`);
    expect(response.status).toBe(302);
    expect((await root.visit("/users")).page.flash).toEqual({
      success: es("access.user_deactivated", { email: w.people.staffA.email }),
    });
    expect(findUserById(w.db, w.people.staffA.id)!.status).toBe("deactivated");
    expect(sessionCount(w.db, w.people.staffA.id)).toBe(0);
    const next = await sara.request("/dashboard", { inertia: true });
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toBe("/login");
    const again = await signIn(sara, w.people.staffA.email);
    expect(again.headers.get("location")).toBe("/login");
    expect(await errorsOn(sara, "/login")).toEqual({ email: es("auth.deactivated") });
    expect(lastAudit(w.db, "user.deactivated")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: w.people.staffA.id,
      before: { status: "active" },
      after: { status: "deactivated" },
    });

    // One cannot deactivate oneself.
    await submit(root, "POST", `/users/${w.people.root.id}/deactivate`);
    expect(await errorsOn(root)).toEqual({ user: es("access.not_yourself") });

    expect((await submit(root, "POST", `/users/${w.people.staffA.id}/reactivate`)).status).toBe(302);
    expect(findUserById(w.db, w.people.staffA.id)!.status).toBe("active");
    expect(lastAudit(w.db, "user.reactivated")).toMatchObject({
      actorId: w.people.root.id,
      before: { status: "deactivated" },
      after: { status: "active" },
    });
    expect((await signIn(sara, w.people.staffA.email)).headers.get("location")).toBe("/dashboard");
  });

  test("the last super-administrator cannot be deactivated, lose the role, or be blacklisted", async () => {
    const w = await setup();
    const admin = await signedIn(w, w.people.adminHQ);
    const root = await signedIn(w, w.people.root);
    const before = snapshot(w.db);
    const lastSuper = es("access.last_super");

    // A non-super administrator may not touch a super-administrator at all.
    expect((await submit(admin, "POST", `/users/${w.people.root.id}/deactivate`)).status).toBe(403);
    expect((await submit(admin, "DELETE", `/users/${w.people.root.id}/roles/${w.areas.sede}`)).status).toBe(403);
    expect(
      (
        await submit(admin, "PUT", `/users/${w.people.root.id}/roles`, {
          area_id: w.areas.sede,
          role_id: w.roles.admin,
        })
      ).status,
    ).toBe(403);
    // The last super-administrator may not demote themselves either.
    await submit(root, "DELETE", `/users/${w.people.root.id}/roles/${w.areas.sede}`);
    expect(await errorsOn(root)).toEqual({ form: lastSuper });
    await submit(root, "PUT", `/users/${w.people.root.id}/roles`, { area_id: w.areas.sede, role_id: w.roles.admin });
    expect(await errorsOn(root)).toEqual({ form: lastSuper });
    await submit(
      root,
      "POST",
      "/blacklist",
      { document_type: "pas", document_number: "root-0001", name: "Raíz Super", reason: "Prueba de bloqueo" },
      "/blacklist",
    );
    expect(await errorsOn(root, "/blacklist")).toEqual({ form: lastSuper });
    await submit(
      root,
      "POST",
      "/blacklist",
      {
        document_type: "pas",
        document_number: "ROOT0001",
        name: "Raíz Super",
        reason: "Prueba de bloqueo",
        user_id: w.people.root.id,
      },
      "/blacklist",
    );
    expect(await errorsOn(root, "/blacklist")).toEqual({ form: lastSuper });
    // A JSON client gets 409 with the message.
    const json = await submitJson(root, "PUT", `/users/${w.people.root.id}/roles`, {
      area_id: w.areas.sede,
      role_id: w.roles.admin,
    });
    expect(json.status).toBe(409);
    expect((await json.json()).message).toBe(lastSuper);

    expect(snapshot(w.db)).toBe(before);
    expect(await isSignedIn(root)).toBe(true);

    // With a second super-administrator the first may go.
    assignRole(w.db, CLI_ACTOR, EVERYTHING, {
      userId: w.people.adminHQ.id,
      areaId: w.areas.sede,
      roleId: w.roles.super,
    });
    expect(
      (
        await submit(admin, "PUT", `/users/${w.people.root.id}/roles`, {
          area_id: w.areas.sede,
          role_id: w.roles.admin,
        })
      ).status,
    ).toBe(303);
    expect(await errorsOn(admin)).toEqual({});
    expect(assignmentsOfUser(w.db, w.people.root.id)).toEqual([{ areaId: w.areas.sede, roleId: w.roles.admin }]);
  });

  test("the last super-administrator cannot delete their own account either", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    await submit(root, "DELETE", "/settings/profile", { password: PASSWORD }, "/settings/profile");
    expect(findUserById(w.db, w.people.root.id)).toBeDefined();
    expect(await errorsOn(root, "/settings/profile")).toEqual({ form: es("access.last_super") });
  });

  test("the last super-administrator cannot be barred by giving them a blacklisted document number", async () => {
    const w = await setup();
    addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: "90000001", name: "Barred Person", reason: "Fixture entry" },
      w.app.config,
    );
    const admin = await signedIn(w, w.people.adminHQ);
    const root = await signedIn(w, w.people.root);
    // Another administrator may not edit a super-administrator; the super-administrator may not bar themselves.
    expect(
      (
        await submit(admin, "PUT", `/users/${w.people.root.id}`, {
          name: w.people.root.name,
          email: w.people.root.email,
          document_type: "dni",
          document_number: "90000001",
        })
      ).status,
    ).toBe(403);
    await submit(root, "PUT", `/users/${w.people.root.id}`, {
      name: w.people.root.name,
      email: w.people.root.email,
      document_type: "dni",
      document_number: "90000001",
    });
    expect(await errorsOn(root)).toEqual({ form: es("access.last_super") });
    expect(await isSignedIn(root)).toBe(true);
  });

  test("a non-super administrator can neither assign the super-administrator role nor offer it in an area", async () => {
    const w = await setup();
    const admin = await signedIn(w, w.people.adminHQ);
    const before = snapshot(w.db);
    // The headquarters area offers the role (a super-administrator set it up), yet the administrator may not give it.
    expect(
      (
        await submit(admin, "PUT", `/users/${w.people.staffA.id}/roles`, {
          area_id: w.areas.sede,
          role_id: w.roles.super,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await submitJson(admin, "PUT", `/users/${w.people.staffA.id}/roles`, {
          area_id: w.areas.sede,
          role_id: w.roles.super,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await submit(admin, "POST", "/users", {
          name: "Falso Super",
          email: "falso@mesa.test",
          area_id: w.areas.sede,
          role_id: w.roles.super,
          access: "password",
          password: "another-horse-77",
        })
      ).status,
    ).toBe(403);
    expect(findUserByEmail(w.db, "falso@mesa.test")).toBeUndefined();
    await submit(admin, "POST", "/areas", { name: "Área super", cafe_id: w.places.cafeA, role_ids: [w.roles.super] });
    expect(await errorsOn(admin)).toEqual({ role_ids: es("access.super_role_reserved") });
    await submit(admin, "PUT", `/areas/${w.areas.adminA}`, {
      name: "Administración A",
      cafe_id: w.places.cafeA,
      role_ids: [w.roles.admin, w.roles.staff, w.roles.super],
    });
    expect(await errorsOn(admin)).toEqual({ role_ids: es("access.super_role_reserved") });
    expect(snapshot(w.db)).toBe(before);

    // A super-administrator may do both.
    const root = await signedIn(w, w.people.root);
    await submit(root, "POST", "/areas", { name: "Área super", cafe_id: w.places.cafeA, role_ids: [w.roles.super] });
    expect(await errorsOn(root)).toEqual({});
    expect(lastAudit(w.db, "area.created")).toMatchObject({
      actorId: w.people.root.id,
      after: { name: "Área super", cafeId: w.places.cafeA, roleIds: [w.roles.super] },
    });
    expect(
      (
        await submit(root, "PUT", `/users/${w.people.staffA.id}/roles`, {
          area_id: w.areas.sede,
          role_id: w.roles.super,
        })
      ).status,
    ).toBe(303);
    expect(assignmentsOfUser(w.db, w.people.staffA.id)).toContainEqual({ areaId: w.areas.sede, roleId: w.roles.super });
  });

  test("areas: create, update and delete in scope, each audited; an area with members cannot be deleted", async () => {
    const w = await setup();
    const admin = await signedIn(w, w.people.adminA);
    await submit(admin, "POST", "/areas", { name: "Cocina A", cafe_id: w.places.cafeA, role_ids: [w.roles.staff] });
    expect(await errorsOn(admin)).toEqual({});
    const created = lastAudit(w.db, "area.created");
    expect(created).toMatchObject({
      actorId: w.people.adminA.id,
      after: { name: "Cocina A", cafeId: w.places.cafeA, headquartersId: null, roleIds: [w.roles.staff] },
    });
    const id = created.subjectId!;
    expect(
      (await submit(admin, "PUT", `/areas/${id}`, { name: "Cocina A1", cafe_id: w.places.cafeA, role_ids: [] })).status,
    ).toBe(303);
    expect(lastAudit(w.db, "area.updated")).toMatchObject({
      before: { name: "Cocina A", roleIds: [w.roles.staff] },
      after: { name: "Cocina A1", roleIds: [] },
    });
    expect((await submit(admin, "DELETE", `/areas/${id}`)).status).toBe(303);
    expect(lastAudit(w.db, "area.deleted")).toMatchObject({ subjectId: id, before: { name: "Cocina A1" } });
    await submit(admin, "DELETE", `/areas/${w.areas.cajaA}`);
    expect(await errorsOn(admin)).toEqual({ form: es("access.area_in_use", { count: 2 }) });
  });
});

describe("sensitive actions need a recent password confirmation", () => {
  const SENSITIVE = [
    "users.deactivate",
    "users.reactivate",
    "users.roles.update",
    "users.roles.destroy",
    "areas.update",
    "areas.destroy",
    "roles.store",
    "roles.update",
    "roles.destroy",
    "permissions.update",
    "blacklist.store",
    "blacklist.destroy",
  ];

  test("the registry marks them", () => {
    for (const name of SENSITIVE)
      expect({ name, confirmPassword: productRoutes.find((r) => r.name === name)?.confirmPassword }).toEqual({
        name,
        confirmPassword: true,
      });
  });

  test("without a recent confirmation they redirect to /confirm-password and change nothing; after confirming they go through", async () => {
    const w = await setup({ PASSWORD_CONFIRM_TIMEOUT: "60" });
    const entry = addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: "90000001", name: "Barred Person", reason: "Fixture entry" },
      w.app.config,
    );
    const spare = makeRole(w.db, "spare", []);
    const usersView = findPermission(w.db, "users.view")!.id;
    const root = await signedIn(w, w.people.root);
    ageConfirmation(w.app, root, 120);
    const before = snapshot(w.db);
    const requests: Record<string, [string, string, unknown]> = {
      "users.deactivate": ["POST", `/users/${w.people.staffA.id}/deactivate`, {}],
      "users.reactivate": ["POST", `/users/${w.people.staffA.id}/reactivate`, {}],
      "users.roles.update": [
        "PUT",
        `/users/${w.people.staffA.id}/roles`,
        { area_id: w.areas.cajaA, role_id: w.roles.staff },
      ],
      "users.roles.destroy": ["DELETE", `/users/${w.people.staffA.id}/roles/${w.areas.cajaA}`, {}],
      "areas.update": [
        "PUT",
        `/areas/${w.areas.cajaA}`,
        { name: "Caja A", cafe_id: w.places.cafeA, role_ids: [w.roles.staff] },
      ],
      "areas.destroy": ["DELETE", `/areas/${w.areas.emptyB}`, {}],
      "roles.store": ["POST", "/roles", { name: "jefe de turno", permissions: [] }],
      "roles.update": ["PUT", `/roles/${spare}`, { name: "jefe de turno", permissions: [] }],
      "roles.destroy": ["DELETE", `/roles/${spare}`, {}],
      "permissions.update": [
        "PUT",
        `/permissions/${usersView}`,
        { sidebar_label: "Gente", icon: "users", sort_order: 3 },
      ],
      "blacklist.store": [
        "POST",
        "/blacklist",
        { document_type: "dni", document_number: "90000002", name: "Otra Persona", reason: "Motivo de prueba" },
      ],
      "blacklist.destroy": ["DELETE", `/blacklist/${entry.id}`, {}],
    };
    expect(Object.keys(requests).sort()).toEqual([...SENSITIVE].sort());
    for (const [name, [method, path, body]] of Object.entries(requests)) {
      const page = await submit(root, method, path, body);
      expect({ name, status: page.status, location: page.headers.get("location") }).toEqual({
        name,
        status: method === "POST" ? 302 : 303,
        location: "/confirm-password",
      });
      const json = await submitJson(root, method, path, body);
      expect({ name, json: json.status }).toEqual({ name, json: 423 });
    }
    expect(snapshot(w.db)).toBe(before);

    // Confirming returns to the page the form was sent from; the action then goes through.
    const { page } = await root.visit("/confirm-password");
    expect(page.component).toBe("auth/confirm-password");
    const confirmed = await submit(root, "POST", "/confirm-password", { password: PASSWORD }, "/confirm-password");
    expect(confirmed.headers.get("location")).toBe("/users");
    expect((await submit(root, "POST", `/users/${w.people.staffA.id}/deactivate`)).headers.get("location")).toBe(
      "/users",
    );
    expect(findUserById(w.db, w.people.staffA.id)!.status).toBe("deactivated");
  });
});

describe("roles", () => {
  test("creating a role with permissions, then updating it", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    await submit(
      root,
      "POST",
      "/roles",
      { name: "supervisor", description: "Supervisa cajas", permissions: ["users.view", "audit.view"] },
      "/roles",
    );
    expect(await errorsOn(root, "/roles")).toEqual({});
    const role = findRoleByName(w.db, "supervisor")!;
    expect(role).toMatchObject({ name: "supervisor", description: "Supervisa cajas", isSuper: false });
    expect(lastAudit(w.db, "role.created")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: role.id,
      after: { name: "supervisor", permissions: ["audit.view", "users.view"] },
    });
    await submit(
      root,
      "PUT",
      `/roles/${role.id}`,
      { name: "supervisor de caja", description: "", permissions: ["users.view", "blacklist.view"] },
      "/roles",
    );
    expect(await errorsOn(root, "/roles")).toEqual({});
    const row = (await props(root, "/roles")).roles.find((r: any) => r.id === role.id);
    expect(row).toMatchObject({ name: "supervisor de caja", permissions: ["blacklist.view", "users.view"] });
    expect(lastAudit(w.db, "role.updated")).toMatchObject({
      before: { name: "supervisor", permissions: ["audit.view", "users.view"] },
      after: { name: "supervisor de caja", permissions: ["blacklist.view", "users.view"] },
    });
  });

  test("a role's permissions are replaced by an update; unknown permissions and taken names are refused", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    await submit(
      root,
      "POST",
      "/roles",
      { name: "jefe de turno", description: "Supervisa", permissions: ["users.view", "audit.view"] },
      "/roles",
    );
    expect(await errorsOn(root, "/roles")).toEqual({});
    const role = findRoleByName(w.db, "jefe de turno")!;
    expect(lastAudit(w.db, "role.created")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: role.id,
      after: { name: "jefe de turno", permissions: ["audit.view", "users.view"] },
    });
    await submit(
      root,
      "PUT",
      `/roles/${role.id}`,
      { name: "jefe de turno", permissions: ["blacklist.view"] },
      "/roles",
    );
    expect(await errorsOn(root, "/roles")).toEqual({});
    expect((await props(root, "/roles")).roles.find((r: any) => r.id === role.id).permissions).toEqual([
      "blacklist.view",
    ]);
    expect(lastAudit(w.db, "role.updated")).toMatchObject({
      before: { permissions: ["audit.view", "users.view"] },
      after: { permissions: ["blacklist.view"] },
    });
    // Unknown permissions and a taken name are refused.
    await submit(root, "PUT", `/roles/${role.id}`, { name: "jefe de turno", permissions: ["no.such"] }, "/roles");
    expect(await errorsOn(root, "/roles")).toEqual({
      permissions: es("access.unknown_permissions", { names: "no.such" }),
    });
    await submit(root, "POST", "/roles", { name: "jefe de turno" }, "/roles");
    expect(await errorsOn(root, "/roles")).toEqual({ name: es("access.role_name_taken") });
  });

  test("the super-administrator role cannot be edited or deleted; a role in use cannot be deleted; an unused one can", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const before = snapshot(w.db);
    await submit(root, "PUT", `/roles/${w.roles.super}`, { name: "jefe de turno", permissions: [] }, "/roles");
    expect(await errorsOn(root, "/roles")).toEqual({ form: es("access.super_role_fixed") });
    await submit(root, "DELETE", `/roles/${w.roles.super}`, {}, "/roles");
    expect(await errorsOn(root, "/roles")).toEqual({ form: es("access.super_role_fixed") });
    // The cashier role is held by staffA, staffA2, staffB and twice by "both".
    await submit(root, "DELETE", `/roles/${w.roles.staff}`, {}, "/roles");
    expect(await errorsOn(root, "/roles")).toEqual({ form: es("access.role_in_use", { count: 5 }) });
    expect(snapshot(w.db)).toBe(before);

    const spare = makeRole(w.db, "spare", ["audit.view"]);
    expect((await submit(root, "DELETE", `/roles/${spare}`, {}, "/roles")).status).toBe(303);
    expect(findRoleByName(w.db, "spare")).toBeUndefined();
    expect(lastAudit(w.db, "role.deleted")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: spare,
      before: { name: "spare" },
    });
  });

  test("/roles carries the role × permission data", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const p = await props(root, "/roles");
    expect(p.permissions.map((x: any) => x.name).sort()).toEqual(
      w.db
        .select()
        .from(permissionsTable)
        .all()
        .map((x) => x.name)
        .sort(),
    );
    const byName = Object.fromEntries(p.roles.map((r: any) => [r.name, r]));
    expect(p.roles[0]).toMatchObject({ name: SUPER_ROLE, isSuper: true });
    expect(byName.administrator).toMatchObject({
      isSuper: false,
      permissions: ["areas.manage", "users.manage", "users.view"],
      holders: 2,
    });
    expect(byName.cashier).toMatchObject({ permissions: [], holders: 5 });
    expect(p.can).toMatchObject({ manageRoles: true, viewRoles: true });
    expect((await props(root, "/roles?search=cash")).roles.map((r: any) => r.name)).toEqual(["cashier"]);
    // A holder of roles.view alone sees the same data but may not manage.
    const viewer = makeRole(w.db, "viewer", ["roles.view"]);
    const area = createArea(w.db, CLI_ACTOR, EVERYTHING, {
      name: "Consulta",
      cafe_id: w.places.cafeB,
      role_ids: [viewer],
    }).id;
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: w.people.nobody.id, areaId: area, roleId: viewer });
    const nobody = await signedIn(w, w.people.nobody);
    expect((await props(nobody, "/roles")).can).toMatchObject({ manageRoles: false, viewRoles: true });
    expect((await submit(nobody, "DELETE", `/roles/${viewer}`, {}, "/roles")).status).toBe(403);
  });
});

describe("the permission modal", () => {
  test("PUT /permissions/{id} changes the sidebar label, icon and order, seen in the navigation on the next request", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const audit = findPermission(w.db, "audit.view")!;
    expect((await props(root, "/dashboard")).navigation.at(-1)).toEqual({
      route: "audit.index",
      label: "nav.audit",
      icon: "history",
      order: 95,
    });
    const response = await submit(
      root,
      "PUT",
      `/permissions/${audit.id}`,
      { sidebar_label: "Bitácora", icon: "scroll-text", sort_order: 1 },
      "/roles",
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/roles");
    const nav = (await props(root, "/roles")).navigation;
    expect(nav.map((e: any) => e.route)).toEqual([
      "dashboard",
      "audit.index",
      "dinners.index",
      "sales.index",
      "management.index",
      "services.index",
      "businesses.index",
      "dealerships.index",
      "menu.structures",
      "food.index",
      "logistics.index",
      "users.index",
      "roles.index",
      "blacklist.index",
    ]);
    expect(nav[1]).toEqual({ route: "audit.index", label: "Bitácora", icon: "scroll-text", order: 1 });
    expect(lastAudit(w.db, "permission.updated")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: audit.id,
      before: { sidebarLabel: "nav.audit", icon: "history", sortOrder: 95 },
      after: { sidebarLabel: "Bitácora", icon: "scroll-text", sortOrder: 1 },
    });
    // Invalid input is refused.
    await submit(
      root,
      "PUT",
      `/permissions/${audit.id}`,
      { sidebar_label: "x", icon: "Not An Icon", sort_order: 1 },
      "/roles",
    );
    expect(Object.keys(await errorsOn(root, "/roles"))).toEqual(["icon"]);
    expect((await submit(root, "PUT", `/permissions/999999`, { sort_order: 1 }, "/roles")).status).toBe(404);
  });
});

describe("the blacklist", () => {
  test("an entry matching a user's document ends their sessions and blocks sign-in; removing it restores sign-in", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const beto = await signedIn(w, w.people.staffB);
    const response = await submit(
      root,
      "POST",
      "/blacklist",
      { document_type: "dni", document_number: "20-000-002", name: "Beto Caja", reason: "Consumo no autorizado" },
      "/blacklist",
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/blacklist");
    expect(sessionCount(w.db, w.people.staffB.id)).toBe(0);
    const next = await beto.request("/dashboard", { inertia: true });
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toBe("/login");
    expect((await signIn(beto, w.people.staffB.email)).headers.get("location")).toBe("/login");
    expect(await errorsOn(beto, "/login")).toEqual({ email: es("auth.blacklisted") });
    const entry = w.db.select().from(blacklist).where(eq(blacklist.documentNumber, "20000002")).get()!;
    expect(entry).toMatchObject({ documentType: "dni", userId: w.people.staffB.id, decidedBy: w.people.root.id });
    expect(lastAudit(w.db, "blacklist.added")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: entry.id,
      after: { documentType: "dni", documentNumber: "20000002", userId: w.people.staffB.id },
    });
    const row = (await props(root, "/blacklist")).entries.data[0];
    expect(row).toMatchObject({
      documentType: "dni",
      documentNumber: "20000002",
      decidedBy: "Raíz Super",
      user: { id: w.people.staffB.id, email: w.people.staffB.email },
    });
    // The same document twice is refused.
    await submit(
      root,
      "POST",
      "/blacklist",
      { document_number: "20000002", name: "Beto", reason: "Otra vez" },
      "/blacklist",
    );
    expect(await errorsOn(root, "/blacklist")).toEqual({ document_number: es("access.already_blacklisted") });

    expect((await submit(root, "DELETE", `/blacklist/${entry.id}`, {}, "/blacklist")).status).toBe(303);
    expect(lastAudit(w.db, "blacklist.removed")).toMatchObject({
      actorId: w.people.root.id,
      subjectId: entry.id,
      before: { documentType: "dni", documentNumber: "20000002", userId: w.people.staffB.id },
    });
    expect((await signIn(beto, w.people.staffB.email)).headers.get("location")).toBe("/dashboard");
    expect(await isSignedIn(beto)).toBe(true);
  });

  test("a document number given to a user later bars them too", async () => {
    const w = await setup();
    addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: "77777777", name: "Alguien", reason: "Motivo de prueba" },
      w.app.config,
    );
    const tomas = await signedIn(w, w.people.staffA2);
    const root = await signedIn(w, w.people.root);
    await submit(root, "PUT", `/users/${w.people.staffA2.id}`, {
      name: "Tomás Caja",
      email: w.people.staffA2.email,
      document_type: "dni",
      document_number: "7777-7777",
    });
    expect(await isSignedIn(tomas)).toBe(false);
  });

  test("the list is paginated and searchable", async () => {
    const w = await setup();
    // Passports DOC0001 … DOC0017.
    for (let i = 1; i <= 17; i++)
      addToBlacklist(
        w.db,
        CLI_ACTOR,
        EVERYTHING,
        {
          document_type: "pas",
          document_number: `DOC${String(i).padStart(4, "0")}`,
          name: i === 7 ? "Ramos Quispe" : `Persona ${i}`,
          reason: "Motivo de prueba",
        },
        w.app.config,
      );
    const root = await signedIn(w, w.people.root);
    const first = (await props(root, "/blacklist")).entries;
    expect(first).toMatchObject({ total: 17, page: 1, perPage: 15, lastPage: 2 });
    expect(first.data).toHaveLength(15);
    expect(first.data[0].documentNumber).toBe("DOC0017");
    const second = (await props(root, "/blacklist?page=2")).entries;
    expect(second).toMatchObject({ total: 17, page: 2 });
    expect(second.data.map((r: any) => r.documentNumber)).toEqual(["DOC0002", "DOC0001"]);
    const found = await props(root, "/blacklist?search=ramos");
    expect(found.filters).toEqual({ search: "ramos" });
    expect(found.entries).toMatchObject({ total: 1, lastPage: 1 });
    expect(found.entries.data.map((r: any) => r.documentNumber)).toEqual(["DOC0007"]);
    expect((await props(root, "/blacklist?search=DOC001")).entries.total).toBe(8);
    expect((await props(root, "/blacklist?search=nadie")).entries).toMatchObject({ total: 0, data: [] });
  });
});

describe("blacklist documents", () => {
  const entry = (extra: Record<string, unknown>) => ({
    document_type: "dni",
    document_number: "55500001",
    name: "Persona Bloqueada",
    reason: "Motivo de prueba",
    ...extra,
  });

  test("an account linked by id or e-mail must be the same person's: its document is the entry's or, without one, its name is (accents and case aside)", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const before = snapshot(w.db);
    const otherDocument = es("access.blacklist_other_document");
    const otherName = es("access.blacklist_other_name");
    const attempts: [Record<string, unknown>, Record<string, string>][] = [
      // Beto has the DNI 20000002: another number, or the same digits as a passport, is someone else's, whatever the name.
      [entry({ name: "Beto Caja", user_id: w.people.staffB.id }), { user_id: otherDocument }],
      [entry({ name: "Beto Caja", user_email: w.people.staffB.email }), { user_email: otherDocument }],
      [
        entry({
          document_type: "pas",
          document_number: "20000002",
          name: "Beto Caja",
          user_email: w.people.staffB.email,
        }),
        { user_email: otherDocument },
      ],
      // Tomás has no document: the entry must bear his name.
      [entry({ name: "Tomás Cajas", user_email: w.people.staffA2.email }), { user_email: otherName }],
      [entry({ name: "Tomás", user_id: w.people.staffA2.id }), { user_id: otherName }],
    ];
    for (const [body, errors] of attempts) {
      expect((await submit(root, "POST", "/blacklist", body, "/blacklist")).status).toBe(302);
      expect({ body, errors: await errorsOn(root, "/blacklist") }).toEqual({ body, errors });
    }
    expect(snapshot(w.db)).toBe(before);

    const tomas = await signedIn(w, w.people.staffA2);
    await submit(
      root,
      "POST",
      "/blacklist",
      entry({ name: "  TOMAS   caja ", user_email: w.people.staffA2.email }),
      "/blacklist",
    );
    expect(await errorsOn(root, "/blacklist")).toEqual({});
    expect(await isSignedIn(tomas)).toBe(false);
    await submit(
      root,
      "POST",
      "/blacklist",
      entry({ document_number: "20-000-002", name: "Alberto Caja", user_id: w.people.staffB.id }),
      "/blacklist",
    );
    expect(await errorsOn(root, "/blacklist")).toEqual({});
    expect(
      w.db
        .select({ type: blacklist.documentType, number: blacklist.documentNumber, userId: blacklist.userId })
        .from(blacklist)
        .orderBy(blacklist.id)
        .all(),
    ).toEqual([
      { type: "dni", number: "55500001", userId: w.people.staffA2.id },
      { type: "dni", number: "20000002", userId: w.people.staffB.id },
    ]);
  });

  test("an entry has a type: one number is barred once per type, and bars only the accounts with that type and number", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    const beto = await signedIn(w, w.people.staffB);
    // A passport with the digits of Beto's DNI is another person's document.
    await submit(
      root,
      "POST",
      "/blacklist",
      entry({ document_type: "pas", document_number: "20000002", name: "John Smith" }),
      "/blacklist",
    );
    expect(await errorsOn(root, "/blacklist")).toEqual({});
    expect(await isSignedIn(beto)).toBe(true);
    await submit(root, "POST", "/blacklist", entry({ document_number: "20000002", name: "Beto Caja" }), "/blacklist");
    expect(await errorsOn(root, "/blacklist")).toEqual({});
    expect(await isSignedIn(beto)).toBe(false);
    await submit(root, "POST", "/blacklist", entry({ document_number: "20 000 002", name: "Beto Caja" }), "/blacklist");
    expect(await errorsOn(root, "/blacklist")).toEqual({ document_number: es("access.already_blacklisted") });
    const rows = (await props(root, "/blacklist")).entries.data.map((r: any) => ({
      type: r.documentType,
      number: r.documentNumber,
      user: r.user?.email ?? null,
    }));
    expect(rows).toEqual([
      { type: "dni", number: "20000002", user: w.people.staffB.email },
      { type: "pas", number: "20000002", user: null },
    ]);
    // Lifting the DNI entry lets Beto back in; the passport entry does not bar him.
    const dniEntry = w.db.select().from(blacklist).where(eq(blacklist.documentType, "dni")).get()!;
    await submit(root, "DELETE", `/blacklist/${dniEntry.id}`, {}, "/blacklist");
    expect((await signIn(beto, w.people.staffB.email)).headers.get("location")).toBe("/dashboard");
  });

  test("the number is checked by its type, with DNI_LENGTH from the settings, on the Blacklist and Users forms", async () => {
    const w = await setup({ DNI_LENGTH: "10" });
    const root = await signedIn(w, w.people.root);
    expect((await props(root, "/blacklist")).dniLength).toBe(10);
    expect((await props(root, "/users")).dniLength).toBe(10);
    const before = snapshot(w.db);
    const refused: [Record<string, unknown>, Record<string, string>][] = [
      [entry({ document_number: "12345678" }), { document_number: es("validation.document.dni", { length: 10 }) }],
      [
        entry({ document_type: "ce", document_number: "12345678" }),
        { document_number: es("validation.document.ce", { min: 9, max: 12 }) },
      ],
      [
        entry({ document_type: "pas", document_number: "A-1" }),
        { document_number: es("validation.document.pas", { min: 6, max: 12 }) },
      ],
      [
        entry({ document_type: "ruc", document_number: "20100934729" }),
        { document_type: es("validation.document.type") },
      ],
      [
        entry({ document_number: " - ", name: "X" }),
        { document_number: es("validation.required"), name: es("validation.min_length", { min: 2 }) },
      ],
    ];
    for (const [body, errors] of refused) {
      await submit(root, "POST", "/blacklist", body, "/blacklist");
      expect({ body, errors: await errorsOn(root, "/blacklist") }).toEqual({ body, errors });
    }
    await submit(root, "PUT", `/users/${w.people.staffA2.id}`, {
      name: "Tomás Caja",
      email: w.people.staffA2.email,
      document_type: "dni",
      document_number: "12345678",
    });
    expect(await errorsOn(root)).toEqual({ document_number: es("validation.document.dni", { length: 10 }) });
    await submit(root, "POST", "/users", {
      name: "Nora Nueva",
      email: "nora@mesa.test",
      document_type: "ce",
      document_number: "123",
      area_id: w.areas.cajaA,
      role_id: w.roles.staff,
      access: "invite",
    });
    expect(await errorsOn(root)).toEqual({ document_number: es("validation.document.ce", { min: 9, max: 12 }) });
    expect(snapshot(w.db)).toBe(before);

    // A 10-digit DNI keeps its leading zeros; a user's document is removed by leaving the number blank.
    await submit(root, "POST", "/blacklist", entry({ document_number: "0012345678" }), "/blacklist");
    expect(
      w.db.select({ type: blacklist.documentType, number: blacklist.documentNumber }).from(blacklist).all(),
    ).toEqual([{ type: "dni", number: "0012345678" }]);
    await submit(root, "PUT", `/users/${w.people.staffA.id}`, {
      name: "Sara Caja",
      email: w.people.staffA.email,
      document_type: "dni",
      document_number: null,
    });
    expect(await errorsOn(root)).toEqual({});
    expect(findUserById(w.db, w.people.staffA.id)).toMatchObject({ documentType: null, documentNumber: null });
    const row = (await props(root, `/users?search=${encodeURIComponent(w.people.root.email)}`)).users.data[0];
    expect(row).toMatchObject({ documentType: "pas", documentNumber: "ROOT0001" });
  });
});

describe("the audit trail", () => {
  test("/audit shows the changes, with actor and before/after, to a holder of audit.view; others get 403", async () => {
    const w = await setup();
    const root = await signedIn(w, w.people.root);
    await submit(root, "POST", `/users/${w.people.staffA.id}/deactivate`);
    await submit(root, "PUT", `/users/${w.people.staffA2.id}`, { name: "Tomás Nuevo", email: w.people.staffA2.email });
    const auditor = makeRole(w.db, "auditor", ["audit.view"]);
    const area = createArea(w.db, CLI_ACTOR, EVERYTHING, {
      name: "Auditoría",
      headquarters_id: w.places.hqX,
      role_ids: [auditor],
    }).id;
    assignRole(w.db, CLI_ACTOR, EVERYTHING, { userId: w.people.nobody.id, areaId: area, roleId: auditor });

    const reader = await signedIn(w, w.people.nobody);
    const p = await props(reader, "/audit");
    // Business X's entries and company-wide ones; business Y's stay out (tests/http/audit-scope.test.ts).
    expect(p.entries.total).toBe(p.entries.data.length);
    expect(p.entries.total).toBeLessThan(auditCount(w.db));
    const [latest, previous] = p.entries.data;
    expect(latest).toMatchObject({
      actor: { name: "Línea de comandos", kind: "cli" },
      action: "user.role_assigned",
      subjectId: w.people.nobody.id,
    });
    expect(previous).toMatchObject({ actor: { name: "Línea de comandos", kind: "cli" }, action: "area.created" });
    const deactivated = p.entries.data.find((e: any) => e.action === "user.deactivated");
    expect(deactivated).toMatchObject({
      actor: { name: "Raíz Super", kind: "user" },
      subjectType: "user",
      subjectId: w.people.staffA.id,
      changes: [{ field: "Estado", before: "Activo", after: "Desactivado" }],
    });
    const updated = p.entries.data.find((e: any) => e.action === "user.updated");
    expect(updated.actor).toEqual({ name: "Raíz Super", kind: "user" });
    expect(updated.changes).toContainEqual({ field: "Nombre", before: "Tomás Caja", after: "Tomás Nuevo" });
    const searched = await props(reader, "/audit?search=user.deactivated");
    expect(searched.entries.data.map((e: any) => e.action)).toEqual(["user.deactivated"]);

    for (const who of [w.people.adminA, w.people.staffB]) {
      const client = await signedIn(w, who);
      expect((await client.request("/audit", { inertia: true })).status).toBe(403);
      expect((await client.get("/audit", { headers: { accept: "application/json" } })).status).toBe(403);
    }
  });
});

describe("GET requests change nothing", () => {
  /** Fills every parameter of a GET route from the world. */
  function pathOf(route: RouteDefinition, w: World, entryId: number): string {
    const values: Record<string, string | number> = {
      user: w.people.staffA.id,
      area: w.areas.cajaA,
      role: w.roles.staff,
      permission: findPermission(w.db, "users.view")!.id,
      entry: entryId,
      token: "some-token-0123456789",
      id: w.people.root.id,
      hash: sha256(w.people.root.email),
      // Places and organisation: ids that may or may not exist; either way a GET must change nothing.
      table: "cafes",
      mine: 1,
      unit: 1,
      cafe: w.places.cafeA,
      business: 1,
      headquarters: 1,
      property: 1,
      dealership: 1,
      subdealership: 1,
      job: 1,
      diner: 1,
      sale: 1,
      city: 1,
      category: 1,
      ingredient: 1,
      provider: 1,
      offer: 1,
      dish: 1,
      level: 1,
      link: 1,
      shift: 1,
      till: 1,
      method: 1,
      date: "2026-12-07",
    };
    return route.uri.replace(/\{(\w+)(\?)?\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`no value for parameter "${name}" of ${route.name}`);
      return encodeURIComponent(String(values[name]));
    });
  }

  test("every GET route of the registry leaves audit_log (and the access tables) as they were", async () => {
    const w = await setup();
    const entry = addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: "90000001", name: "Barred Person", reason: "Fixture entry" },
      w.app.config,
    );
    const clients = {
      guest: new Client(w.app),
      nobody: await signedIn(w, w.people.nobody),
      admin: await signedIn(w, w.people.adminA),
      root: await signedIn(w, w.people.root),
    };
    const gets = productRoutes.filter((r) => r.methods.includes("GET"));
    expect(gets.length).toBeGreaterThan(5);
    const count = auditCount(w.db);
    const version = currentAccessVersion(w.db);
    const before = snapshot(w.db);
    for (const client of Object.values(clients)) {
      for (const route of gets) {
        const path = pathOf(route, w, entry.id);
        await client.get(path);
        await client.request(path, { inertia: true });
        await client.get(path, { headers: { accept: "application/json" } });
        // With every optional prop and query filter the pages know.
        await client.request(
          `${path}?inspect=${w.people.staffA.id}&search=a&page=2&status=active&cafe=${w.places.cafeA}&area=${w.areas.cajaA}`,
          {
            inertia: true,
            headers: {
              "x-inertia-partial-component": "users/index",
              "x-inertia-partial-data": "inspected,users,areas,places,roles,permissions",
            },
          },
        );
      }
    }
    expect(auditCount(w.db)).toBe(count);
    expect(currentAccessVersion(w.db)).toBe(version);
    expect(snapshot(w.db)).toBe(before);
    for (const [who, client] of Object.entries(clients))
      expect({ who, signedIn: await isSignedIn(client) }).toEqual({ who, signedIn: who !== "guest" });
  });
});

describe("tables on the users page", () => {
  test("areas and roles are searched and paginated on the server", async () => {
    const w = await setup();
    for (let i = 1; i <= 17; i++)
      createArea(w.db, CLI_ACTOR, EVERYTHING, { name: `Turno ${String(i).padStart(2, "0")}`, cafe_id: w.places.cafeA });
    const root = await signedIn(w, w.people.root);
    const first = await props(root, "/users?areas_search=Turno");
    expect(first.areas.total).toBe(17);
    expect(first.areas.data).toHaveLength(15);
    expect(first.areas.lastPage).toBe(2);
    const second = await props(root, "/users?areas_search=Turno&areas_page=2");
    expect(second.areas.data.map((a: any) => a.name)).toEqual(["Turno 16", "Turno 17"]);
    // The modals still get every area of the place to choose from.
    expect(first.areaOptions.length).toBeGreaterThanOrEqual(17);
    const roles = await props(root, `/users?roles_search=${encodeURIComponent(SUPER_ROLE)}`);
    expect(roles.roles.data.map((r: any) => r.name)).toEqual([SUPER_ROLE]);
  });
});

describe("super-administrators on the users page", () => {
  test("their rows say so, and the page tells a non-super administrator they may not change them", async () => {
    const w = await setup();
    const admin = await signedIn(w, w.people.adminHQ);
    const p = await props(admin, "/users");
    const root = p.users.data.find((u: any) => u.email === w.people.root.email);
    expect(root.isSuper).toBe(true);
    expect(p.users.data.find((u: any) => u.email === w.people.adminHQ.email).isSuper).toBe(false);
    expect(p.can.manageSupers).toBe(false);
    expect((await props(await signedIn(w, w.people.root), "/users")).can.manageSupers).toBe(true);
  });
});

// ——— The scope rule: wholly inside, and company-wide data only from headquarters ———

/** Adds permissions to a role, as an administrator would on the Roles page. */
function grant(db: Db, roleId: number, names: string[]): void {
  db.transaction((tx) => {
    for (const name of names)
      tx.insert(rolePermissions)
        .values({ roleId, permissionId: findPermission(db, name)!.id })
        .run();
    bumpAccessVersion(tx);
  });
}

describe("blacklist and scope", () => {
  const entry = (extra: Record<string, unknown>) => ({
    document_number: "55500001",
    name: "Persona Bloqueada",
    reason: "Motivo de prueba",
    ...extra,
  });

  test("a one-cafe manager cannot bar an account they may not change, by id, e-mail or document, and the e-mail lookup tells nothing", async () => {
    const w = await setup();
    grant(w.db, w.roles.admin, ["blacklist.view", "blacklist.manage"]);
    const root = await signedIn(w, w.people.root);
    const client = await signedIn(w, w.people.adminA);
    const notFound = es("access.user_not_found");
    const attempts: [Record<string, unknown>, Record<string, string>][] = [
      // The super-administrator at headquarters: out of sight.
      [entry({ user_id: w.people.root.id }), { user_id: notFound }],
      [entry({ user_email: w.people.root.email }), { user_email: notFound }],
      // Someone of cafe B only, and someone of cafes A and B (visible, but not wholly inside A).
      [entry({ user_email: w.people.staffB.email }), { user_email: notFound }],
      [entry({ user_id: w.people.both.id }), { user_id: notFound }],
      // An address nobody has answers exactly like one outside the scope.
      [entry({ user_email: "nadie@mesa.test" }), { user_email: notFound }],
      // A document that bars an account outside the scope (staffB's, and the super-administrator's).
      [entry({ document_number: "20000002" }), { document_number: es("access.blacklist_document_outside_scope") }],
      [
        entry({ document_type: "pas", document_number: "ROOT-0001" }),
        { document_number: es("access.blacklist_document_outside_scope") },
      ],
    ];
    for (const [body, errors] of attempts) {
      expect((await submit(client, "POST", "/blacklist", body, "/blacklist")).status).toBe(302);
      expect(await errorsOn(client, "/blacklist")).toEqual(errors);
    }
    expect(w.db.select().from(blacklist).all()).toEqual([]);
    expect(await isSignedIn(root)).toBe(true);
    // Someone wholly inside cafe A is barred, and their sessions end.
    const sara = await signedIn(w, w.people.staffA);
    expect(
      (
        await submit(
          client,
          "POST",
          "/blacklist",
          entry({ document_number: "10000001", name: "Sara Caja", user_email: w.people.staffA.email }),
          "/blacklist",
        )
      ).status,
    ).toBe(302);
    expect(await errorsOn(client, "/blacklist")).toEqual({});
    expect(w.db.select().from(blacklist).get()?.userId).toBe(w.people.staffA.id);
    expect(await isSignedIn(sara)).toBe(false);
  });

  test("a bar that reaches an account outside the manager's places is not named to them, and only a wider administrator lifts it", async () => {
    const w = await setup();
    grant(w.db, w.roles.admin, ["blacklist.view", "blacklist.manage"]);
    const barred = addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      entry({ name: "Doris Doble", user_id: w.people.both.id }),
      w.app.config,
    );
    const client = await signedIn(w, w.people.adminA);
    const row = (await props(client, "/blacklist")).entries.data[0];
    expect(row).toMatchObject({ id: barred.id, user: null, outsideScope: true });
    expect(JSON.stringify(row)).not.toContain(w.people.both.email);
    expect((await submit(client, "DELETE", `/blacklist/${barred.id}`, {}, "/blacklist")).status).toBe(403);
    expect(w.db.select().from(blacklist).all()).toHaveLength(1);
    const root = await signedIn(w, w.people.root);
    expect((await props(root, "/blacklist")).entries.data[0].user.email).toBe(w.people.both.email);
    expect((await submit(root, "DELETE", `/blacklist/${barred.id}`, {}, "/blacklist")).status).toBe(303);
  });
});

describe("company-wide bars", () => {
  test("a bar that reaches no account is lifted from headquarters only, not by a one-cafe manager", async () => {
    const w = await setup();
    grant(w.db, w.roles.admin, ["blacklist.view", "blacklist.manage"]);
    const diner = addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_type: "ce", document_number: "000123456", name: "Comensal Vetado", reason: "Motivo de prueba" },
      w.app.config,
    );
    const cafe = await signedIn(w, w.people.adminA);
    expect((await props(cafe, "/blacklist")).can).toEqual({ manage: true, liftUnlinked: false });
    expect((await submit(cafe, "DELETE", `/blacklist/${diner.id}`, {}, "/blacklist")).status).toBe(403);
    expect(w.db.select().from(blacklist).all()).toHaveLength(1);
    const hq = await signedIn(w, w.people.adminHQ);
    expect((await props(hq, "/blacklist")).can).toEqual({ manage: true, liftUnlinked: true });
    expect((await submit(hq, "DELETE", `/blacklist/${diner.id}`, {}, "/blacklist")).status).toBe(303);
    expect(w.db.select().from(blacklist).all()).toHaveLength(0);
  });
});

describe("shared places", () => {
  test("a one-cafe manager renames their own unit, not a mine shared with cafes outside their places", async () => {
    const w = await setup();
    grant(w.db, w.roles.admin, ["places.view", "places.manage"]);
    const client = await signedIn(w, w.people.adminA);
    const unitA = w.db.select().from(cafesTable).where(eq(cafesTable.id, w.places.cafeA)).get()!.unitId;
    const mine = w.db.select().from(unitsTable).where(eq(unitsTable.id, unitA)).get()!.mineId;
    expect((await submit(client, "PUT", `/mines/${mine}`, { name: "Mina Norte Cambiada" }, "/management")).status).toBe(
      303,
    );
    expect(await errorsOn(client, "/management")).toEqual({ form: es("places.mine_shared_outside_scope") });
    expect(w.db.select().from(minesTable).where(eq(minesTable.id, mine)).get()!.name).toBe("Mina Norte");
    expect((await submit(client, "PUT", `/units/${unitA}`, { name: "Unidad A Cambiada" }, "/management")).status).toBe(
      303,
    );
    expect(await errorsOn(client, "/management")).toEqual({});
    expect(w.db.select().from(unitsTable).where(eq(unitsTable.id, unitA)).get()!.name).toBe("Unidad A Cambiada");
  });
});

describe("company-wide data", () => {
  test("roles.manage, services.manage and dealerships.manage held in a cafe area grant nothing; held at headquarters they do", async () => {
    const w = await setup();
    const companyWide = [
      "roles.view",
      "roles.manage",
      "services.view",
      "services.manage",
      "dealerships.view",
      "dealerships.manage",
    ];
    grant(w.db, w.roles.admin, companyWide);
    const cafe = await signedIn(w, w.people.adminA);
    const cashier = findRoleByName(w.db, "cashier")!;
    const attempts: [string, string, unknown][] = [
      [
        "PUT",
        `/roles/${cashier.id}`,
        { name: "cashier", description: "Cambiado desde un comedor", permissions: ["users.view"] },
      ],
      ["POST", "/roles", { name: "rol intruso", permissions: [] }],
      ["POST", "/services", { code: "INT", name: "Servicio intruso", type: "lunch" }],
      ["POST", "/dealerships", { name: "Concesionaria intrusa", ruc: "20100079704" }],
    ];
    const before = snapshot(w.db);
    for (const [method, path, body] of attempts) {
      expect({ path, status: (await submit(cafe, method, path, body, "/roles")).status }).toEqual({
        path,
        status: 403,
      });
    }
    expect(snapshot(w.db)).toBe(before);
    // Reading the catalogue follows the role wherever it is held; the page offers no changes.
    expect((await props(cafe, "/roles")).can).toMatchObject({ viewRoles: true, manageRoles: false });
    // The same role at headquarters changes the catalogue.
    const hq = await signedIn(w, w.people.adminHQ);
    expect(
      (
        await submit(
          hq,
          "PUT",
          `/roles/${cashier.id}`,
          { name: "cashier", description: "Cajeros de todos los comedores", permissions: [] },
          "/roles",
        )
      ).status,
    ).toBe(303);
    expect(findRoleByName(w.db, "cashier")!.description).toBe("Cajeros de todos los comedores");
  });
});
