/**
 * The audit page and the role lists speak to people: the audit names the actor, the action and the subject in the
 * viewer's language and lists each changed field before → after (no JSON, no ids, no e-mails); built-in roles are
 * found and shown by their labels; permissions by theirs.
 */
import { describe, expect, test } from "bun:test";
import { bootstrapAccess, ensureStartingRole, STARTING_ROLES } from "../../src/domain/access/starting-roles";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createDealership } from "../../src/domain/organisation/dealerships";
import { BASE, createTestApp, type Client } from "../support/app";
import { addUser } from "../support/people";
import { signedIn } from "../support/requests";

async function world() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafe = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const cashier = findRoleByName(db, "cashier")!.id;
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: x.headquartersId,
    role_ids: [superRole],
  });
  const caja = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Caja", cafe_id: cafe, role_ids: [cashier] });
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: sede.id, roleId: superRole });
  const sara = await addUser(db, "Sara Caja", "sara@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: sara.id, areaId: caja.id, roleId: cashier });
  createDealership(db, CLI_ACTOR, { name: "Andina del Sur", ruc: "20100934729" }, { rucLength: 11 });
  return { app, db, root, sara };
}

const inEnglish = (client: Client) => client.cookies.set("locale", "en");

async function props(client: Client, path: string): Promise<Record<string, any>> {
  const { response, page } = await client.visit(path);
  expect(response.status).toBe(200);
  return page.props;
}

describe("the audit page in words", () => {
  test("each entry names its actor, action and subject, and lists what changed field by field, in the viewer's language", async () => {
    const w = await world();
    const root = await signedIn(w, w.root);
    // A role made on the Roles page by the super-administrator.
    const created = await root.request("/roles", {
      method: "POST",
      inertia: true,
      json: { name: "supervisor de turno", description: "Ve personas", permissions: ["users.view", "audit.view"] },
      headers: { referer: `${BASE}/roles` },
    });
    expect(created.headers.get("location")).toBe("/roles");

    const entries = (await props(root, "/audit")).entries;
    const role = entries.data.find((e: any) => e.action === "role.created");
    expect(role.actor).toEqual({ name: "Raíz Super", kind: "user" });
    expect(role.actionLabel).toBe("Rol creado");
    expect(role.subject).toEqual({ type: "Rol", name: "supervisor de turno", deleted: false });
    expect(role.changes).toEqual([
      { field: "Nombre", after: "supervisor de turno" },
      { field: "Descripción", after: "Ve personas" },
      { field: "Permisos", after: "Ver la auditoría, Ver usuarios" },
    ]);
    const dealership = entries.data.find((e: any) => e.action === "dealership.created");
    expect(dealership.actor).toEqual({ name: "Línea de comandos", kind: "cli" });
    expect(dealership.subject).toEqual({ type: "Concesionaria", name: "Andina del Sur", deleted: false });
    const assigned = entries.data.find((e: any) => e.action === "user.role_assigned" && e.subject.name === "Sara Caja");
    expect(assigned.changes).toEqual([
      { field: "Área", after: "Caja · Comedor A" },
      { field: "Rol", after: "Cajero" },
    ]);
    // No raw values: no JSON of the change, no "#id" of a thing that exists, no actor's e-mail.
    for (const entry of entries.data) {
      expect(Object.keys(entry)).not.toContain("before");
      expect(Object.keys(entry)).not.toContain("after");
    }
    expect(JSON.stringify(entries)).not.toContain("root@mesa.test");
    expect(JSON.stringify(entries)).not.toMatch(/#\d/);

    inEnglish(root);
    const english = (await props(root, "/audit")).entries.data;
    expect(english.find((e: any) => e.action === "role.created")).toMatchObject({
      actionLabel: "Role created",
      subject: { type: "Role", name: "supervisor de turno" },
      changes: [
        { field: "Name", after: "supervisor de turno" },
        { field: "Description", after: "Ve personas" },
        { field: "Permissions", after: "View the audit trail, View users" },
      ],
    });
    expect(english.find((e: any) => e.action === "dealership.created").actor.name).toBe("Command line");
    expect(
      english.find((e: any) => e.action === "user.role_assigned" && e.subject.name === "Sara Caja").changes[1],
    ).toEqual({ field: "Role", after: "Cashier" });
  });

  test("the search finds entries by the words shown, in the viewer's language", async () => {
    const w = await world();
    const root = await signedIn(w, w.root);
    const actions = async (search: string) =>
      (await props(root, `/audit?search=${encodeURIComponent(search)}`)).entries.data.map((e: any) => e.action);
    expect(await actions("concesionaria creada")).toEqual(["dealership.created"]);
    expect(await actions("Sara Caja")).toEqual(["user.role_assigned"]);
    expect(await actions("root@mesa.test")).toEqual([]);
    inEnglish(root);
    expect(await actions("dealership created")).toEqual(["dealership.created"]);
    expect(await actions("concesionaria creada")).toEqual([]);
  });
});

describe("roles for people", () => {
  test("built-in roles are found by their labels in the viewer's language on the Roles page and the Users page's roles tab", async () => {
    const w = await world();
    const root = await signedIn(w, w.root);
    const names = (rows: { name: string }[]) => rows.map((r) => r.name);
    expect(names((await props(root, "/roles?search=cajero")).roles)).toEqual(["cashier"]);
    expect(names((await props(root, "/roles?search=jefe")).roles).sort()).toEqual([
      "cafe manager",
      "operations manager",
    ]);
    expect(names((await props(root, "/users?roles_search=cajero")).roles.data)).toEqual(["cashier"]);
    inEnglish(root);
    expect(names((await props(root, "/roles?search=cajero")).roles)).toEqual([]);
    expect(names((await props(root, "/roles?search=buyer")).roles)).toEqual(["buyer"]);
    expect(names((await props(root, "/roles?search=cashier")).roles)).toEqual(["cashier"]);
  });
});
