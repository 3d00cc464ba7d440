/**
 * `./mesa role:*`, `permission:*`, `area:create`, `user:assign` and `blacklist:add`, run as a person would run
 * them. `db:migrate` and `db:seed` run once into a template database (demo places, areas, roles and people);
 * each test works on its own copy (tests/support/cli.ts), so tests stay independent without running the seed
 * every time. Messages are checked in English (APP_LOCALE=en) against the dictionaries.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { STARTING_ROLES } from "../db/seeds/access";
import { RoleInput } from "../src/domain/access/roles";
import { createUser } from "../src/domain/accounts/users";
import { parseInput } from "../src/domain/validation";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db";
import { declaredPermissions, routes } from "../src/http/routes";
import { CliError } from "./bootstrap";
import { assignAfterCreate, checkAssignment } from "./commands/access";
import { routeRows } from "./commands/routes";
import { buildProgram } from "./main";
import { mesaInProcess, seededTemplate, sql, workspaceFrom, type Workspace } from "../tests/support/cli";

const PASSWORD = "correct-horse-42";

let template = "";

beforeAll(async () => {
  template = await seededTemplate("mesa-access-cli-template-");
});

/** A fresh copy of the seeded template database. */
const workspace = (): Workspace => workspaceFrom(template, "mesa-access-cli-");

function count(ws: Workspace, query: string, ...params: (string | number | null)[]): number {
  return sql<{ n: number }>(ws, `SELECT COUNT(*) AS n FROM (${query})`, ...params)[0].n;
}

interface AuditRow {
  actor_label: string;
  actor_id: number | null;
  action: string;
  subject_id: number | null;
  before: string | null;
  after: string | null;
}

/** Audit entries of an action, oldest first. */
function audited(ws: Workspace, action: string): AuditRow[] {
  return sql<AuditRow>(
    ws,
    "SELECT actor_label, actor_id, action, subject_id, before, after FROM audit_log WHERE action = ? ORDER BY id",
    action,
  );
}

/** Every audit entry except the catalogue sync that db:migrate and db:seed make. */
function auditCount(ws: Workspace): number {
  return count(ws, "SELECT id FROM audit_log WHERE action <> 'permissions.synced'");
}

function roleId(ws: Workspace, name: string): number {
  return sql<{ id: number }>(ws, "SELECT id FROM roles WHERE name = ?", name)[0].id;
}

function rolePermissions(ws: Workspace, role: string): string[] {
  return sql<{ name: string }>(
    ws,
    "SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id JOIN roles r ON r.id = rp.role_id WHERE r.name = ? ORDER BY p.name",
    role,
  ).map((r) => r.name);
}

function userId(ws: Workspace, email: string): number {
  return sql<{ id: number }>(ws, "SELECT id FROM users WHERE email = ?", email)[0].id;
}

/** "area name@place name" → role name, for the user's assignments. */
function assignmentsOf(ws: Workspace, email: string): Record<string, string> {
  const rows = sql<{ area: string; place: string; role: string }>(
    ws,
    `SELECT ar.name AS area, COALESCE(c.name, h.name) AS place, r.name AS role FROM assignments a
     JOIN users u ON u.id = a.user_id JOIN areas ar ON ar.id = a.area_id JOIN roles r ON r.id = a.role_id
     LEFT JOIN cafes c ON c.id = ar.cafe_id LEFT JOIN headquarters h ON h.id = ar.headquarters_id
     WHERE u.email = ?`,
    email,
  );
  return Object.fromEntries(rows.map((r) => [`${r.area}@${r.place}`, r.role]));
}

/** How a validation failure prints: the heading, then "  field: message". */
function invalid(field: string, key: TranslationKey, params?: TranslationParams): string {
  return `${translate("en", "validation.failed")}\n  ${field}: ${translate("en", key, params)}`;
}

/**
 * Role names: RoleInput's name rule uses \p{L} without the regular expression's u flag, so today it refuses
 * every ordinary name (reported; see authorization-matrix.test.ts). The role:create tests use an ordinary name
 * once that is fixed, and until then one the rule accepts, so the command is covered either way.
 */
const ORDINARY_ROLE_NAMES = (() => {
  try {
    parseInput(RoleInput, { name: "jefe de cocina" });
    return true;
  } catch {
    return false;
  }
})();
const NEW_ROLE = ORDINARY_ROLE_NAMES ? "jefe de cocina" : "pL";
const OTHER_ROLE = ORDINARY_ROLE_NAMES ? "ayudante de cocina" : "pN";

describe("./mesa role:create", () => {
  test("creates a role with its description and permissions (repeated or comma-separated), audited as the command line", async () => {
    const ws = workspace();
    const { code, out, err } = await mesaInProcess(ws, [
      "role:create",
      NEW_ROLE,
      "--description",
      "Runs the kitchen",
      "--permission",
      "users.view,roles.view",
      "--permission",
      "audit.view",
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out.trim()).toBe(`Created role "${NEW_ROLE}" with 3 permissions: audit.view, roles.view, users.view`);
    expect(sql(ws, "SELECT name, description, is_super FROM roles WHERE name = ?", NEW_ROLE)).toEqual([
      { name: NEW_ROLE, description: "Runs the kitchen", is_super: 0 },
    ]);
    expect(rolePermissions(ws, NEW_ROLE)).toEqual(["audit.view", "roles.view", "users.view"]);
    const [entry] = audited(ws, "role.created");
    expect(entry).toMatchObject({ actor_label: "cli", actor_id: null, subject_id: roleId(ws, NEW_ROLE) });
    expect(JSON.parse(entry.after!)).toMatchObject({
      name: NEW_ROLE,
      permissions: ["audit.view", "roles.view", "users.view"],
    });

    // Without permissions or description.
    const bare = await mesaInProcess(ws, ["role:create", OTHER_ROLE]);
    expect(bare.code).toBe(0);
    expect(bare.out.trim()).toBe(`Created role "${OTHER_ROLE}" with 0 permissions: (none)`);
    expect(audited(ws, "role.created")).toHaveLength(2);
  });

  test("a taken name, an unknown permission or a bad name exits 1 naming the argument; nothing is created", async () => {
    const ws = workspace();
    expect((await mesaInProcess(ws, ["role:create", NEW_ROLE])).code).toBe(0);
    const roles = count(ws, "SELECT id FROM roles");
    const audits = auditCount(ws);

    const taken = await mesaInProcess(ws, ["role:create", NEW_ROLE]);
    expect(taken.code).toBe(1);
    expect(taken.out).toBe("");
    expect(taken.err.trim()).toBe(invalid("NAME", "access.role_name_taken"));

    const unknown = await mesaInProcess(ws, ["role:create", OTHER_ROLE, "--permission", "users.view,sales.void"]);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toBe(invalid("--permission", "access.unknown_permissions", { names: "sales.void" }));

    const short = await mesaInProcess(ws, ["role:create", "x"]);
    expect(short.code).toBe(1);
    expect(short.err.trim()).toBe(invalid("NAME", "validation.min_length", { min: 2 }));

    // In the configured language.
    const spanish = await mesaInProcess(ws, ["role:create", NEW_ROLE], { env: { APP_LOCALE: "es" } });
    expect(spanish.code).toBe(1);
    expect(spanish.err).toContain(`NAME: ${translate("es", "access.role_name_taken")}`);

    // A missing name is a usage error: commander's exit code 2.
    const missing = await mesaInProcess(ws, ["role:create"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("missing required argument 'name'");

    expect(count(ws, "SELECT id FROM roles")).toBe(roles);
    expect(auditCount(ws)).toBe(audits);
  });
});

describe("./mesa role:grant and role:revoke", () => {
  test("change the role's permissions, print them, and are audited", async () => {
    const ws = workspace();
    // The cashier starts with the point of sale's permissions, their cash shift's and blacklist.view.
    const start = ["blacklist.view", "diners.manage", "diners.view", "sales.create", "sales.view", "shifts.open"];
    const grant = await mesaInProcess(ws, ["role:grant", "cashier", "users.view,audit.view", "blacklist.view"]);
    expect(grant.err).toBe("");
    expect(grant.code).toBe(0);
    expect(grant.out).toContain("Already granted before: blacklist.view");
    const granted8 = ["audit.view", ...start, "users.view"];
    expect(grant.out).toContain(`Role "cashier" now has 8 permissions: ${granted8.join(", ")}`);
    expect(rolePermissions(ws, "cashier")).toEqual(granted8);

    const revoke = await mesaInProcess(ws, ["role:revoke", "cashier", "audit.view", "users.view", "roles.view"]);
    expect(revoke.code).toBe(0);
    expect(revoke.out).toContain("Not granted before: roles.view");
    expect(revoke.out).toContain(`Role "cashier" now has 6 permissions: ${start.join(", ")}`);
    expect(rolePermissions(ws, "cashier")).toEqual(start);

    const one = await mesaInProcess(ws, ["role:revoke", "cashier", ...start.slice(1)]);
    expect(one.out).toContain('Role "cashier" now has 1 permission: blacklist.view');
    const empty = await mesaInProcess(ws, ["role:revoke", "cashier", "blacklist.view"]);
    expect(empty.out).toContain('Role "cashier" now has 0 permissions: (none)');
    expect(rolePermissions(ws, "cashier")).toEqual([]);

    const cashier = roleId(ws, "cashier");
    const granted = audited(ws, "role.granted");
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ actor_label: "cli", actor_id: null, subject_id: cashier });
    expect(JSON.parse(granted[0].before!)).toEqual({ permissions: start });
    expect(JSON.parse(granted[0].after!)).toEqual({ permissions: granted8 });
    const revoked = audited(ws, "role.revoked");
    expect(revoked.map((r) => [r.actor_label, r.subject_id, JSON.parse(r.after!).permissions])).toEqual([
      ["cli", cashier, start],
      ["cli", cashier, ["blacklist.view"]],
      ["cli", cashier, []],
    ]);
  });

  test("an unknown role or permission, or the super-administrator role, exits 1 and changes nothing", async () => {
    const ws = workspace();
    const audits = auditCount(ws);
    const grants = count(ws, "SELECT * FROM role_permissions");

    const role = await mesaInProcess(ws, ["role:grant", "chef", "users.view"]);
    expect(role.code).toBe(1);
    expect(role.out).toBe("");
    expect(role.err).toContain('No role named "chef". Roles: "super-administrator", "administrator"');
    expect(role.err).toContain('"cashier"');

    const permission = await mesaInProcess(ws, ["role:revoke", "cashier", "sales.void"]);
    expect(permission.code).toBe(1);
    expect(permission.err.trim()).toBe(invalid("--permission", "access.unknown_permissions", { names: "sales.void" }));

    const fixed = await mesaInProcess(ws, ["role:grant", "super-administrator", "users.view"]);
    expect(fixed.code).toBe(1);
    expect(fixed.err.trim()).toBe(translate("en", "access.super_role_fixed"));

    const missing = await mesaInProcess(ws, ["role:grant", "cashier"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("missing required argument 'permissions'");

    expect(count(ws, "SELECT * FROM role_permissions")).toBe(grants);
    expect(auditCount(ws)).toBe(audits);
  });
});

describe("./mesa role:list", () => {
  test("shows each role: built in or not, holders and permissions; --json too", async () => {
    const ws = workspace();
    const { code, out, err } = await mesaInProcess(ws, ["role:list"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ROLE\s+BUILT-IN\s+HOLDERS\s+PERMISSIONS$/);
    expect(lines).toHaveLength(2 + STARTING_ROLES.length + 1);
    expect(lines[2]).toMatch(/^super-administrator\s+yes\s+1\s+all\s+every permission, everywhere$/);
    expect(out).toMatch(
      /^cashier\s+no\s+1\s+6\s+blacklist\.view, diners\.manage, diners\.view, sales\.create, sales\.view, shifts\.open$/m,
    );
    expect(out).toMatch(
      /^cafe manager\s+no\s+1\s+20\s+blacklist\.view, dealerships\.view, diners\.import, diners\.manage, diners\.view, menu\.display_links, menu\.view, places\.view, prices\.manage, properties\.view, sales\.backdate, sales\.create, sales\.view, sales\.void_any, services\.view, shifts\.close_any, shifts\.open, shifts\.reopen, tills\.manage, users\.view$/m,
    );
    expect(out).toMatch(/^buyer\s+no\s+1\s+4\s+food\.view, logistics\.manage, logistics\.view, menu\.view$/m);

    const json = await mesaInProcess(ws, ["role:list", "--json"]);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.out) as {
      name: string;
      builtIn: boolean;
      allPermissions: boolean;
      permissions: string[];
      holders: number;
      description: string;
    }[];
    expect(rows.map((r) => r.name).sort()).toEqual(
      ["super-administrator", ...STARTING_ROLES.map((r) => r.name)].sort(),
    );
    const superRole = rows.find((r) => r.name === "super-administrator")!;
    expect(superRole).toMatchObject({
      builtIn: true,
      allPermissions: true,
      holders: 1,
      permissions: declaredPermissions,
    });
    const admin = rows.find((r) => r.name === "administrator")!;
    expect(admin).toMatchObject({
      builtIn: false,
      allPermissions: false,
      holders: 1,
      description: STARTING_ROLES[0].description,
    });
    expect(admin.permissions).toEqual([...STARTING_ROLES[0].permissions].sort());
  });
});

describe("./mesa permission:list", () => {
  test("shows each permission with its area and the routes that require it, from the route registry", async () => {
    const ws = workspace();
    const { code, out, err } = await mesaInProcess(ws, ["permission:list"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toMatch(/^PERMISSION\s+AREA\s+METHOD\s+URI\s+ROUTE$/);
    const guarded = routes.filter((r) => r.access.kind === "permission");
    expect(guarded.length).toBeGreaterThan(0);
    for (const row of routeRows(guarded)) {
      expect(out).toMatch(
        new RegExp(
          `${row.method.replace(/\|/g, "\\|")}\\s+${row.uri.replace(/[{}?]/g, "\\$&")}\\s+${row.name.replace(/\./g, "\\.")}$`,
          "m",
        ),
      );
    }
    expect(out).toMatch(/^users\.view\s+users\s+GET\|HEAD\s+\/users\s+users\.index$/m);
    expect(out).toMatch(/^roles\.manage\s+roles\s+PUT\s+\/permissions\/\{permission\}\s+permissions\.update$/m);
    expect(out).toContain(`Showing [${declaredPermissions.length}] permissions guarding [${guarded.length}] routes`);

    const json = await mesaInProcess(ws, ["permission:list", "--json"]);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.out) as {
      name: string;
      area: string;
      sidebar: unknown;
      routes: { method: string; uri: string; name: string }[];
    }[];
    expect(rows.map((r) => r.name).sort()).toEqual(declaredPermissions);
    for (const row of rows) {
      const expected = guarded
        .filter((r) => r.access.kind === "permission" && r.access.permission === row.name)
        .map((r) => r.name)
        .sort();
      expect(row.routes.map((r) => r.name).sort()).toEqual(expected);
    }
    expect(rows.find((r) => r.name === "users.view")).toMatchObject({
      area: "users",
      sidebar: { route: "users.index", label: "nav.users" },
      routes: [{ method: "GET|HEAD", uri: "/users", name: "users.index" }],
    });
    expect(rows.find((r) => r.name === "users.manage")!.sidebar).toBeNull();
  });
});

describe("./mesa permission:sync", () => {
  test("says when the catalogue is in step; otherwise adds and removes, prints both, and is audited", async () => {
    const ws = workspace();
    const same = await mesaInProcess(ws, ["permission:sync"]);
    expect(same.err).toBe("");
    expect(same.code).toBe(0);
    expect(same.out.trim()).toBe(
      `The permissions are already in step with the catalogue (${declaredPermissions.length} permissions).`,
    );
    const syncs = audited(ws, "permissions.synced").length;

    // A permission no route declares any more, granted to a role, and one a route declares that is missing.
    sql(ws, "INSERT INTO permissions (name, area, sort_order) VALUES ('ghost.view', 'ghost', 100)");
    sql(
      ws,
      "INSERT INTO role_permissions (role_id, permission_id) SELECT r.id, p.id FROM roles r, permissions p WHERE r.name = 'cashier' AND p.name = 'ghost.view'",
    );
    sql(ws, "DELETE FROM permissions WHERE name = 'audit.view'");

    const listed = await mesaInProcess(ws, ["permission:list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      /^ghost\.view\s+ghost\s+\(no route requires it; \.\/mesa permission:sync removes it\)$/m,
    );
    expect(listed.err.trim()).toBe(
      "Permissions of the catalogue missing from the database: audit.view. Run ./mesa permission:sync.",
    );

    const synced = await mesaInProcess(ws, ["permission:sync"]);
    expect(synced.err).toBe("");
    expect(synced.code).toBe(0);
    expect(synced.out).toContain("Added 1 permission: audit.view");
    expect(synced.out).toContain("Removed 1 permission (and their grants): ghost.view");
    expect(sql(ws, "SELECT name FROM permissions ORDER BY name").map((r) => r.name)).toEqual(declaredPermissions);
    expect(rolePermissions(ws, "cashier")).toEqual([
      "blacklist.view",
      "diners.manage",
      "diners.view",
      "sales.create",
      "sales.view",
      "shifts.open",
    ]);
    const entries = audited(ws, "permissions.synced");
    expect(entries).toHaveLength(syncs + 1);
    expect(entries.at(-1)).toMatchObject({ actor_label: "cli", actor_id: null });
    expect(JSON.parse(entries.at(-1)!.after!)).toEqual({ added: ["audit.view"], removed: ["ghost.view"] });

    expect((await mesaInProcess(ws, ["permission:sync"])).out).toContain("already in step");
    expect(audited(ws, "permissions.synced")).toHaveLength(syncs + 1);
  });
});

describe("./mesa area:create", () => {
  test("creates areas at a cafe (by name or Unit/Cafe) or a headquarters, offering the named roles, audited", async () => {
    const ws = workspace();
    const cafe = await mesaInProcess(ws, [
      "area:create",
      "Cocina",
      "--cafe",
      "Comedor Principal",
      "--role",
      "cashier",
      "--role",
      "cafe manager",
    ]);
    expect(cafe.err).toBe("");
    expect(cafe.code).toBe(0);
    expect(cafe.out.trim()).toBe(
      "Created area Cocina@Comedor Principal at cafe Mina Cerro Verde › Unidad Norte › Comedor Principal, offering: cafe manager, cashier",
    );

    const unit = await mesaInProcess(ws, ["area:create", "Cocina", "--cafe", "Unidad Sur/Comedor Campamento"]);
    expect(unit.code).toBe(0);
    expect(unit.out.trim()).toBe(
      "Created area Cocina@Comedor Campamento at cafe Mina Cerro Verde › Unidad Sur › Comedor Campamento, offering: (none)",
    );

    const hq = await mesaInProcess(ws, [
      "area:create",
      "Finanzas",
      "--headquarters",
      "Sede Lima",
      "--role",
      "administrator,buyer",
    ]);
    expect(hq.code).toBe(0);
    expect(hq.out.trim()).toBe(
      "Created area Finanzas@Sede Lima at headquarters Mesa Catering S.A.C. › Sede Lima, offering: administrator, buyer",
    );

    const rows = sql<{ name: string; cafe: string | null; hq: string | null; roles: string | null }>(
      ws,
      `SELECT a.name, c.name AS cafe, h.name AS hq, (SELECT group_concat(r.name, ',') FROM (SELECT r.name FROM area_roles x JOIN roles r ON r.id = x.role_id WHERE x.area_id = a.id ORDER BY r.name) r) AS roles
       FROM areas a LEFT JOIN cafes c ON c.id = a.cafe_id LEFT JOIN headquarters h ON h.id = a.headquarters_id WHERE a.name IN ('Cocina', 'Finanzas') ORDER BY a.id`,
    );
    expect(rows).toEqual([
      { name: "Cocina", cafe: "Comedor Principal", hq: null, roles: "cafe manager,cashier" },
      { name: "Cocina", cafe: "Comedor Campamento", hq: null, roles: null },
      { name: "Finanzas", cafe: null, hq: "Sede Lima", roles: "administrator,buyer" },
    ]);
    const entries = audited(ws, "area.created");
    expect(entries.map((e) => e.actor_label)).toEqual(["cli", "cli", "cli"]);
    expect(JSON.parse(entries[2].after!)).toMatchObject({
      name: "Finanzas",
      cafeId: null,
      roleIds: [roleId(ws, "administrator"), roleId(ws, "buyer")],
    });
  });

  test("an unknown or ambiguous place, an unknown role, no place, a taken or bad name exits 1; both places exits 2", async () => {
    const ws = workspace();
    // A second "Comedor Principal", in another unit.
    sql(ws, "INSERT INTO cafes (unit_id, name) SELECT id, 'Comedor Principal' FROM units WHERE name = 'Unidad Sur'");
    const areas = count(ws, "SELECT id FROM areas");
    const audits = auditCount(ws);
    const fail = async (args: string[]) => {
      const result = await mesaInProcess(ws, ["area:create", ...args]);
      expect(result.out).toBe("");
      return result;
    };

    const cafe = await fail(["Cocina", "--cafe", "Comedor Central"]);
    expect(cafe.code).toBe(1);
    // Every cafe is listed, as Unit/Cafe, so the right name can be copied.
    expect(cafe.err.trim()).toStartWith(
      'No cafe named "Comedor Central". Cafes: "Unidad Huarmey/Comedor Mineroducto", ',
    );
    expect(cafe.err).toContain(
      '"Unidad Norte/Comedor Principal", "Unidad Norte/Comedor Taller", "Unidad Sur/Comedor Campamento", "Unidad Sur/Comedor Chancadora", "Unidad Sur/Comedor Principal".',
    );

    const ambiguous = await fail(["Cocina", "--cafe", "Comedor Principal"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err.trim()).toBe(
      'More than one cafe is named "Comedor Principal"; write it as Unit/Cafe: "Unidad Norte/Comedor Principal", "Unidad Sur/Comedor Principal".',
    );

    const hq = await fail(["Cocina", "--headquarters", "Sede Cusco"]);
    expect(hq.code).toBe(1);
    expect(hq.err.trim()).toBe('No headquarters named "Sede Cusco". Headquarters: "Sede Arequipa", "Sede Lima".');

    const role = await fail(["Cocina", "--headquarters", "Sede Lima", "--role", "cashier,chef"]);
    expect(role.code).toBe(1);
    expect(role.err).toContain('No role named "chef". Roles: ');

    const nowhere = await fail(["Cocina", "--role", "cashier"]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.err.trim()).toBe(invalid("--cafe/--headquarters", "access.area_one_place"));

    const taken = await fail(["Caja", "--cafe", "Unidad Norte/Comedor Principal"]);
    expect(taken.code).toBe(1);
    expect(taken.err.trim()).toBe(invalid("NAME", "access.area_name_taken"));

    const short = await fail(["C", "--headquarters", "Sede Lima"]);
    expect(short.code).toBe(1);
    expect(short.err.trim()).toBe(invalid("NAME", "validation.min_length", { min: 2 }));

    const both = await fail(["Cocina", "--cafe", "Comedor Campamento", "--headquarters", "Sede Lima"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("option '--cafe <cafe>' cannot be used with option '--headquarters <name>'");

    expect(count(ws, "SELECT id FROM areas")).toBe(areas);
    expect(auditCount(ws)).toBe(audits);
  });
});

describe("./mesa user:assign", () => {
  test("gives a role in an area named alone, as Area@Place or with --cafe/--headquarters; audited", async () => {
    const ws = workspace();
    const first = await mesaInProcess(ws, [
      "user:assign",
      "Nutricion@Mesa.test",
      "--role",
      "cashier",
      "--area",
      "Caja@Comedor Campamento",
    ]);
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out.trim()).toBe(
      'nutricion@mesa.test now holds "cashier" in Caja@Comedor Campamento (Mina Cerro Verde › Unidad Sur › Comedor Campamento).',
    );

    // The same again changes nothing and records nothing.
    const again = await mesaInProcess(ws, [
      "user:assign",
      "nutricion@mesa.test",
      "--role",
      "cashier",
      "--area",
      "Caja",
      "--cafe",
      "Comedor Campamento",
    ]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('already holds "cashier" in Caja@Comedor Campamento');
    expect(again.out).toContain("nothing changed");

    // Another role in the same area replaces it.
    const replace = await mesaInProcess(ws, [
      "user:assign",
      "nutricion@mesa.test",
      "--role",
      "cafe manager",
      "--area",
      "Caja@Unidad Sur/Comedor Campamento",
    ]);
    expect(replace.code).toBe(0);
    expect(replace.out).toContain(
      'now holds "cafe manager" in Caja@Comedor Campamento (Mina Cerro Verde › Unidad Sur › Comedor Campamento), instead of "cashier".',
    );

    // An area whose name is unique needs no place; --headquarters is accepted too.
    expect(
      (
        await mesaInProcess(ws, [
          "user:assign",
          "compras@mesa.test",
          "--role",
          "administrator",
          "--area",
          "Administración",
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await mesaInProcess(ws, [
          "user:assign",
          "gerente@mesa.test",
          "--role",
          "nutritionist",
          "--area",
          "Nutrición",
          "--headquarters",
          "Sede Lima",
        ])
      ).code,
    ).toBe(0);

    expect(assignmentsOf(ws, "nutricion@mesa.test")).toEqual({
      "Nutrición@Sede Lima": "nutritionist",
      "Caja@Comedor Campamento": "cafe manager",
    });
    expect(assignmentsOf(ws, "compras@mesa.test")).toEqual({
      "Logística@Sede Lima": "buyer",
      "Administración@Sede Lima": "administrator",
    });
    expect(assignmentsOf(ws, "gerente@mesa.test")).toEqual({
      "Caja@Comedor Principal": "cafe manager",
      "Nutrición@Sede Lima": "nutritionist",
    });

    const entries = audited(ws, "user.role_assigned");
    expect(entries).toHaveLength(4);
    expect(entries.every((e) => e.actor_label === "cli" && e.actor_id === null)).toBe(true);
    expect(entries[1].subject_id).toBe(userId(ws, "nutricion@mesa.test"));
    expect(JSON.parse(entries[1].before!).roleId).toBe(roleId(ws, "cashier"));
    expect(JSON.parse(entries[1].after!).roleId).toBe(roleId(ws, "cafe manager"));
  });

  test("an ambiguous, unknown or misplaced area, an unknown user, place or role, a role not offered, or the last super-administrator exits 1", async () => {
    const ws = workspace();
    const before = assignmentsOf(ws, "compras@mesa.test");
    const audits = auditCount(ws);
    const fail = async (args: string[]) => {
      const result = await mesaInProcess(ws, ["user:assign", ...args]);
      expect(result.out).toBe("");
      expect(result.code).toBe(1);
      return result.err.trim();
    };

    const ambiguous = await fail(["compras@mesa.test", "--role", "cashier", "--area", "Caja"]);
    expect(ambiguous).toStartWith(
      'More than one area is named "Caja": Caja@Comedor Principal (cafe Mina Cerro Verde › Unidad Norte › Comedor Principal), ',
    );
    expect(ambiguous).toContain("Caja@Comedor Campamento (cafe Mina Cerro Verde › Unidad Sur › Comedor Campamento), ");
    expect(ambiguous).toEndWith('Pick one with --cafe or --headquarters, or write it as "Area@Place".');
    const unknown = await fail(["compras@mesa.test", "--role", "cashier", "--area", "Cocina"]);
    expect(unknown).toStartWith(
      'No area named "Cocina". Areas: "Administración@Sede Lima", "Caja@Comedor Principal", "Caja@Comedor Taller", ',
    );
    expect(unknown).toEndWith('"Logística@Sede Lima", "Nutrición@Sede Lima", "Operaciones@Sede Lima".');
    expect(
      await fail(["compras@mesa.test", "--role", "cashier", "--area", "Caja", "--headquarters", "Sede Lima"]),
    ).toStartWith('There is no area "Caja" at headquarters "Sede Lima". "Caja" is at: Caja@Comedor Principal');
    expect(await fail(["compras@mesa.test", "--role", "cashier", "--area", "Caja@Comedor Central"])).toStartWith(
      'No cafe or headquarters named "Comedor Central". Cafes: "Unidad Huarmey/Comedor Mineroducto"',
    );
    expect(await fail(["nadie@mesa.test", "--role", "cashier", "--area", "Caja@Comedor Principal"])).toBe(
      "No user with e-mail nadie@mesa.test",
    );
    expect(await fail(["compras@mesa.test", "--role", "chef", "--area", "Caja@Comedor Principal"])).toStartWith(
      'No role named "chef". Roles: ',
    );
    expect(await fail(["compras@mesa.test", "--role", "buyer", "--area", "Administración"])).toBe(
      'Area Administración@Sede Lima does not offer the role "buyer"; it offers "administrator", "super-administrator".',
    );
    // The only super-administrator would lose the role.
    expect(await fail(["demo@mesa.test", "--role", "administrator", "--area", "Administración"])).toBe(
      translate("en", "access.last_super"),
    );
    expect(assignmentsOf(ws, "demo@mesa.test")).toEqual({ "Administración@Sede Lima": "super-administrator" });

    const noRole = await mesaInProcess(ws, ["user:assign", "compras@mesa.test", "--area", "Caja@Comedor Principal"]);
    expect(noRole.code).toBe(2);
    expect(noRole.err).toContain("required option '--role <name>' not specified");
    const twoPlaces = await mesaInProcess(ws, [
      "user:assign",
      "compras@mesa.test",
      "--role",
      "cashier",
      "--area",
      "Caja",
      "--cafe",
      "Comedor Principal",
      "--headquarters",
      "Sede Lima",
    ]);
    expect(twoPlaces.code).toBe(2);

    expect(assignmentsOf(ws, "compras@mesa.test")).toEqual(before);
    expect(auditCount(ws)).toBe(audits);
  });

  test("--help explains how to name an area", async () => {
    const ws = workspace();
    const { code, out } = await mesaInProcess(ws, ["user:assign", "--help"]);
    expect(code).toBe(0);
    expect(out).toContain('"Area@Place"');
    expect(out).toContain('--area "Caja@Comedor Principal"');
    expect(out).toContain("--cafe <cafe>");
  });
});

describe("assignAfterCreate (for user:create --role --area)", () => {
  test("checks the role and area before the user exists, then assigns and audits", async () => {
    const ws = workspace();
    const db = openDatabase(ws.dbPath);
    try {
      // Nothing to do without --role and --area.
      expect(() => checkAssignment(db, undefined, undefined)).not.toThrow();
      expect(assignAfterCreate(db, "demo@mesa.test", undefined, undefined, "en")).toBeNull();
      const check = (role: string | undefined, area: string | undefined) => {
        try {
          checkAssignment(db, role, area);
        } catch (error) {
          expect(error).toBeInstanceOf(CliError);
          return (error as CliError).message;
        }
        return "passed";
      };
      expect(check("cashier", undefined)).toBe("Give both --role and --area, or neither.");
      expect(check(undefined, "Caja@Comedor Principal")).toBe("Give both --role and --area, or neither.");
      expect(check("chef", "Caja@Comedor Principal")).toStartWith('No role named "chef"');
      expect(check("buyer", "Caja@Comedor Principal")).toBe(
        'Area Caja@Comedor Principal does not offer the role "buyer"; it offers "cafe manager", "cashier".',
      );
      // user:create has no --cafe option: only "Area@Place" is suggested.
      expect(check("cashier", "Caja")).toEndWith('Write it as "Area@Place".');
      expect(check("cashier", "Caja@Comedor Principal")).toBe("passed");

      const config = loadConfig({ NODE_ENV: "test", DB_PATH: ws.dbPath, APP_LOCALE: "en" });
      const user = await createUser(
        db,
        config,
        { name: "Ana Quispe", email: "ana@mesa.test", password: PASSWORD },
        { verified: true },
      );
      expect(assignAfterCreate(db, "ana@mesa.test", "cashier", "Caja@Comedor Principal", "en")).toBe(
        'ana@mesa.test now holds "cashier" in Caja@Comedor Principal (Mina Cerro Verde › Unidad Norte › Comedor Principal).',
      );
      expect(() => assignAfterCreate(db, "ana@mesa.test", "buyer", "Logística")).not.toThrow();
      expect(assignmentsOf(ws, "ana@mesa.test")).toEqual({
        "Caja@Comedor Principal": "cashier",
        "Logística@Sede Lima": "buyer",
      });
      const entries = audited(ws, "user.role_assigned");
      expect(entries.map((e) => [e.actor_label, e.subject_id])).toEqual([
        ["cli", user.id],
        ["cli", user.id],
      ]);
    } finally {
      db.$client.close();
    }
  });
});

describe("./mesa user:create --role --area", () => {
  // This used to skip itself when user:create lacked the options; a missing option is a failure, never a skip.
  test("user:create takes --role and --area", () => {
    const userCreate = buildProgram().commands.find((c) => c.name() === "user:create");
    expect(userCreate?.options.map((o) => o.long)).toEqual(expect.arrayContaining(["--role", "--area"]));
  });

  test("creates the user holding the role; a role or area that does not fit creates nobody", async () => {
    const ws = workspace();
    const created = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Ana Quispe",
      "--email",
      "ana@mesa.test",
      "--password",
      PASSWORD,
      "--role",
      "cashier",
      "--area",
      "Caja@Comedor Principal",
    ]);
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    expect(created.out).toContain("Created user #8 ana@mesa.test");
    expect(created.out).toContain('ana@mesa.test now holds "cashier" in Caja@Comedor Principal');
    expect(assignmentsOf(ws, "ana@mesa.test")).toEqual({ "Caja@Comedor Principal": "cashier" });
    expect(audited(ws, "user.role_assigned").map((e) => [e.actor_label, e.subject_id])).toEqual([
      ["cli", userId(ws, "ana@mesa.test")],
    ]);

    const users = count(ws, "SELECT id FROM users");
    for (const [args, message] of [
      [["--role", "buyer", "--area", "Caja@Comedor Principal"], 'does not offer the role "buyer"'],
      [["--role", "cashier", "--area", "Caja"], 'Write it as "Area@Place".'],
      [["--role", "cashier"], "Give both --role and --area, or neither."],
    ] as const) {
      const refused = await mesaInProcess(ws, [
        "user:create",
        "--name",
        "Luis Rojas",
        "--email",
        "luis@mesa.test",
        "--password",
        PASSWORD,
        ...args,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.out).toBe("");
      expect(refused.err).toContain(message);
    }
    expect(count(ws, "SELECT id FROM users")).toBe(users);
  });
});

describe("./mesa blacklist:add", () => {
  test("bars a document: the name comes from --name, the linked user, or the document; a linked user's sessions end; audited", async () => {
    const ws = workspace();
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Ana Quispe",
          "--email",
          "ana@mesa.test",
          "--password",
          PASSWORD,
          "--document",
          "12345678",
        ])
      ).code,
    ).toBe(0);
    const ana = userId(ws, "ana@mesa.test");
    const miguel = userId(ws, "compras@mesa.test");
    sql(
      ws,
      "INSERT INTO sessions (id, user_id, data, last_activity) VALUES ('s-ana', ?, '{}', 0), ('s-miguel', ?, '{}', 0), ('s-demo', ?, '{}', 0)",
      ana,
      miguel,
      userId(ws, "demo@mesa.test"),
    );

    // Linked by the document (a DNI by default).
    const byDocument = await mesaInProcess(ws, ["blacklist:add", "12345678", "--reason", "Robo de vales"]);
    expect(byDocument.err).toBe("");
    expect(byDocument.code).toBe(0);
    expect(byDocument.out).toContain("Added DNI 12345678 (Ana Quispe) to the blacklist: Robo de vales");
    expect(byDocument.out).toContain("ana@mesa.test can no longer sign in; their sessions have ended.");

    // Linked with --user: Miguel has no document, and the name is his.
    const byUser = await mesaInProcess(ws, [
      "blacklist:add",
      "x-99887766",
      "--type",
      "pas",
      "--reason",
      "Suplantación",
      "--user",
      "Compras@Mesa.test",
    ]);
    expect(byUser.code).toBe(0);
    expect(byUser.out).toContain("Added PAS X99887766 (Miguel Torres) to the blacklist: Suplantación");
    expect(byUser.out).toContain("compras@mesa.test can no longer sign in");

    // No user: the name is --name, or else the document number.
    const named = await mesaInProcess(ws, [
      "blacklist:add",
      "44556677",
      "--reason",
      "Agresión",
      "--name",
      "Pedro Salas",
    ]);
    expect(named.code).toBe(0);
    expect(named.out.trim()).toBe("Added DNI 44556677 (Pedro Salas) to the blacklist: Agresión");
    const anonymous = await mesaInProcess(ws, ["blacklist:add", "11223344", "--reason", "Agresión"]);
    expect(anonymous.out.trim()).toBe("Added DNI 11223344 (11223344) to the blacklist: Agresión");

    expect(
      sql(
        ws,
        "SELECT document_type AS type, document_number AS document, name, reason, user_id AS userId, decided_by AS decidedBy FROM blacklist ORDER BY id",
      ),
    ).toEqual([
      { type: "dni", document: "12345678", name: "Ana Quispe", reason: "Robo de vales", userId: ana, decidedBy: null },
      {
        type: "pas",
        document: "X99887766",
        name: "Miguel Torres",
        reason: "Suplantación",
        userId: miguel,
        decidedBy: null,
      },
      { type: "dni", document: "44556677", name: "Pedro Salas", reason: "Agresión", userId: null, decidedBy: null },
      { type: "dni", document: "11223344", name: "11223344", reason: "Agresión", userId: null, decidedBy: null },
    ]);
    expect(sql(ws, "SELECT id FROM sessions WHERE id LIKE 's-%' ORDER BY id").map((r) => r.id)).toEqual(["s-demo"]);
    const entries = audited(ws, "blacklist.added");
    expect(entries.map((e) => e.actor_label)).toEqual(["cli", "cli", "cli", "cli"]);
    expect(JSON.parse(entries[0].after!)).toEqual({
      documentType: "dni",
      documentNumber: "12345678",
      name: "Ana Quispe",
      reason: "Robo de vales",
      userId: ana,
    });
  });

  test("--type dni|ce|pas: each number is checked by its type and kept as text with its leading zeros; one number may be barred once per type", async () => {
    const ws = workspace();
    const ce = await mesaInProcess(ws, [
      "blacklist:add",
      "001-234 567",
      "--type",
      "ce",
      "--reason",
      "Robo de vales",
      "--name",
      "Jean Dupont",
    ]);
    expect(ce.err).toBe("");
    expect(ce.code).toBe(0);
    expect(ce.out.trim()).toBe("Added CE 001234567 (Jean Dupont) to the blacklist: Robo de vales");
    const dniEntry = await mesaInProcess(ws, [
      "blacklist:add",
      "01234567",
      "--type",
      "dni",
      "--reason",
      "Robo de vales",
      "--name",
      "Rosa Mamani",
    ]);
    expect(dniEntry.out.trim()).toBe("Added DNI 01234567 (Rosa Mamani) to the blacklist: Robo de vales");
    // The same digits as a passport are another document.
    const passport = await mesaInProcess(ws, [
      "blacklist:add",
      "01234567",
      "--type",
      "pas",
      "--reason",
      "Robo de vales",
      "--name",
      "John Smith",
    ]);
    expect(passport.out.trim()).toBe("Added PAS 01234567 (John Smith) to the blacklist: Robo de vales");
    expect(sql(ws, "SELECT document_type AS type, document_number AS number FROM blacklist ORDER BY id")).toEqual([
      { type: "ce", number: "001234567" },
      { type: "dni", number: "01234567" },
      { type: "pas", number: "01234567" },
    ]);

    const fail = async (args: string[]) => {
      const result = await mesaInProcess(ws, [
        "blacklist:add",
        ...args,
        "--reason",
        "Robo de vales",
        "--name",
        "Otra Persona",
      ]);
      expect(result.out).toBe("");
      expect(result.code).toBe(1);
      return result.err.trim();
    };
    expect(await fail(["1234567"])).toBe(invalid("DOCUMENT", "validation.document.dni", { length: 8 }));
    expect(await fail(["12345678", "--type", "ce"])).toBe(
      invalid("DOCUMENT", "validation.document.ce", { min: 9, max: 12 }),
    );
    expect(await fail(["AB12", "--type", "pas"])).toBe(
      invalid("DOCUMENT", "validation.document.pas", { min: 6, max: 12 }),
    );
    expect(await fail(["0012-34567", "--type", "ce"])).toBe(invalid("DOCUMENT", "access.already_blacklisted"));
    // An unknown type is a usage mistake.
    const unknown = await mesaInProcess(ws, [
      "blacklist:add",
      "12345678",
      "--type",
      "ruc",
      "--reason",
      "Robo de vales",
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("Allowed choices are dni, ce, pas");
    expect(count(ws, "SELECT id FROM blacklist")).toBe(3);
  });

  test("--user must be the same person: the account's document is the entry's or, without one, its name is", async () => {
    const ws = workspace();
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Ana Quispe",
          "--email",
          "ana@mesa.test",
          "--password",
          PASSWORD,
          "--document",
          "12345678",
        ])
      ).code,
    ).toBe(0);
    const fail = async (args: string[]) => {
      const result = await mesaInProcess(ws, ["blacklist:add", ...args, "--reason", "Robo de vales"]);
      expect(result.out).toBe("");
      expect(result.code).toBe(1);
      return result.err.trim();
    };
    // Ana has a DNI: another number, or the same number as another type, is someone else's.
    expect(await fail(["87654321", "--user", "ana@mesa.test"])).toBe(
      invalid("--user", "access.blacklist_other_document"),
    );
    expect(await fail(["12345678", "--type", "pas", "--user", "ana@mesa.test"])).toBe(
      invalid("--user", "access.blacklist_other_document"),
    );
    // Miguel has none: the entry must bear his name (accents and case aside).
    expect(await fail(["87654321", "--user", "compras@mesa.test", "--name", "Pedro Salas"])).toBe(
      invalid("--user", "access.blacklist_other_name"),
    );
    expect(count(ws, "SELECT id FROM blacklist")).toBe(0);

    const ana = await mesaInProcess(ws, [
      "blacklist:add",
      "12-345-678",
      "--reason",
      "Robo de vales",
      "--user",
      "ana@mesa.test",
      "--name",
      "Ana Quispe",
    ]);
    expect(ana.code).toBe(0);
    const miguel = await mesaInProcess(ws, [
      "blacklist:add",
      "87654321",
      "--reason",
      "Robo de vales",
      "--user",
      "compras@mesa.test",
      "--name",
      "MIGUEL  TÓRRES",
    ]);
    expect(miguel.err).toBe("");
    expect(miguel.out).toContain("Added DNI 87654321 (MIGUEL  TÓRRES) to the blacklist: Robo de vales");
    expect(sql(ws, "SELECT document_number AS number, user_id AS userId FROM blacklist ORDER BY id")).toEqual([
      { number: "12345678", userId: userId(ws, "ana@mesa.test") },
      { number: "87654321", userId: userId(ws, "compras@mesa.test") },
    ]);
  });

  test("a listed or bad document, a short reason, an unknown user or the last super-administrator exits 1; no reason exits 2", async () => {
    const ws = workspace();
    expect((await mesaInProcess(ws, ["blacklist:add", "12345678", "--reason", "Robo de vales"])).code).toBe(0);
    const entries = count(ws, "SELECT id FROM blacklist");
    const audits = auditCount(ws);
    const fail = async (args: string[]) => {
      const result = await mesaInProcess(ws, ["blacklist:add", ...args]);
      expect(result.out).toBe("");
      expect(result.code).toBe(1);
      return result.err.trim();
    };

    expect(await fail(["12345678", "--reason", "Otra vez"])).toBe(invalid("DOCUMENT", "access.already_blacklisted"));
    // The name defaults to the document: only the document is reported.
    expect(await fail(["123", "--reason", "Robo de vales"])).toBe(
      invalid("DOCUMENT", "validation.document.dni", { length: 8 }),
    );
    expect(await fail(["87654321", "--reason", "No"])).toBe(invalid("--reason", "validation.min_length", { min: 3 }));
    expect(await fail(["87654321", "--reason", "Robo de vales", "--user", "nadie@mesa.test"])).toBe(
      "No user with e-mail nadie@mesa.test",
    );
    expect(await fail(["87654321", "--reason", "Robo de vales", "--user", "demo@mesa.test"])).toBe(
      translate("en", "access.last_super"),
    );

    const noReason = await mesaInProcess(ws, ["blacklist:add", "87654321"]);
    expect(noReason.code).toBe(2);
    expect(noReason.err).toContain("required option '--reason <text>' not specified");

    expect(count(ws, "SELECT id FROM blacklist")).toBe(entries);
    expect(auditCount(ws)).toBe(audits);
  });
});
