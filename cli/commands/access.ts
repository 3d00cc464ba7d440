/**
 * Access control from the command line: `role:create`, `role:grant`, `role:revoke`, `role:list`,
 * `permission:list`, `permission:sync`, `area:create`, `user:assign` and `blacklist:add`.
 *
 * A person at the command line is a system administrator: every command calls the same domain functions as the
 * web app with the `cli` actor (so each change lands in the audit trail) and the whole scope. Roles, permissions,
 * areas, places and users are named, never numbered; a name that matches nothing, or more than one thing, is an
 * error (exit code 1) that says what exists. Usage mistakes (an unknown option, a missing argument) stay
 * commander's, with exit code 2.
 */
import { Option, type Command } from "commander";
import { translate, type Locale } from "../../src/shared/i18n";
import { createArea, listAreas, type AreaSummary } from "../../src/domain/access/areas";
import { assignmentsOf, assignRole } from "../../src/domain/access/assignments";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { listPermissions, syncPermissions } from "../../src/domain/access/catalogue";
import { findCafeByName, findHeadquartersByName, placeTree } from "../../src/domain/access/places";
import {
  changeRolePermissions,
  createRole,
  listRoles,
  requireRoleByName,
  type Role,
} from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { findUserByDocument, findUserById, requireUserByEmail, type User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { DEFAULT_DOCUMENT_TYPE, DOCUMENT_TYPES, type DocumentType } from "../../src/shared/documents";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../../src/domain/errors";
import type { Db } from "../../src/db";
import { PERMISSION_NAMES } from "../../src/shared/access/permissions";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { cliEvents } from "../events";
import { explainValidation, say, table } from "../output";
import type { RouteDefinition } from "../../src/http/routing";
import { loadRoutes, routeRows } from "./routes";

// ---------------------------------------------------------------------------------------------------------------
// Errors

/** How the domain's input fields are called on the command line, per command. */
type FieldNames = Record<string, string>;
const ROLE_FIELDS: FieldNames = { name: "NAME", description: "--description", permissions: "--permission" };
const AREA_FIELDS: FieldNames = {
  name: "NAME",
  place: "--cafe/--headquarters",
  cafe_id: "--cafe",
  headquarters_id: "--headquarters",
  role_ids: "--role",
};
const ASSIGN_FIELDS: FieldNames = { role_id: "--role", area_id: "--area", user_id: "EMAIL" };
const BLACKLIST_FIELDS: FieldNames = {
  document_type: "--type",
  document_number: "DOCUMENT",
  name: "--name",
  reason: "--reason",
  user_id: "--user",
};

/** Turns a domain error into a command line error (exit code 1) in the configured language; rethrows anything else. */
function explain(error: unknown, locale: Locale, fields: FieldNames = {}): never {
  if (error instanceof ValidationFailed) {
    // "role_ids.0" → "--role"
    const renamed = Object.fromEntries(
      Object.entries(error.errors).map(([field, m]) => [fields[field.split(".")[0]] ?? field, m]),
    );
    explainValidation(new ValidationFailed(renamed), locale);
  }
  if (error instanceof Conflict) throw new CliError(say(locale, error.detail));
  if (error instanceof NotFound || error instanceof Forbidden) throw new CliError(error.message);
  throw error;
}

function attempt<T>(locale: Locale, fields: FieldNames, work: () => T): T {
  try {
    return work();
  } catch (error) {
    explain(error, locale, fields);
  }
}

/** Names for an error message: all of them when there are few, else the first few and how many more. */
function some(names: string[], max = 12): string {
  if (names.length === 0) return "none";
  const shown = names
    .slice(0, max)
    .map((n) => `"${n}"`)
    .join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

function open(): { db: Db; locale: Locale } {
  const config = cliConfig();
  return { db: cliDatabase(config), locale: config.locale };
}

/** Option values given several times or as comma-separated lists: `--role a --role "b, c"` → a, b, c. */
function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

function flatten(values: string[]): string[] {
  return values.reduce<string[]>((all, value) => collect(value, all), []);
}

// ---------------------------------------------------------------------------------------------------------------
// Names → records

function requireRole(db: Db, name: string): Role {
  try {
    return requireRoleByName(db, name.trim());
  } catch (error) {
    if (error instanceof NotFound)
      throw new CliError(`${error.message}. Roles: ${some(listRoles(db).rows.map((r) => r.name))}.`);
    throw error;
  }
}

function requireUser(db: Db, email: string): User {
  try {
    return requireUserByEmail(db, email);
  } catch (error) {
    if (error instanceof NotFound) throw new CliError(error.message);
    throw error;
  }
}

/** Every cafe as "Unit/Cafe" and every headquarters as "Business/Headquarters". */
function placeNames(db: Db): {
  cafes: { id: number; name: string; path: string }[];
  headquarters: { id: number; name: string; path: string }[];
} {
  const tree = placeTree(db, EVERYTHING);
  return {
    cafes: tree.mines.flatMap((m) =>
      m.units.flatMap((u) => u.cafes.map((c) => ({ id: c.id, name: c.name, path: `${u.name}/${c.name}` }))),
    ),
    headquarters: tree.businesses.flatMap((b) =>
      b.headquarters.map((h) => ({ id: h.id, name: h.name, path: `${b.name}/${h.name}` })),
    ),
  };
}

/** A cafe given as "Cafe" or, when several units have a cafe of that name, "Unit/Cafe". */
function resolveCafe(db: Db, name: string): number {
  const found = findCafeByName(db, name);
  if (found) return found.id;
  const { cafes } = placeNames(db);
  const same = cafes.filter((c) => c.name === name.trim());
  if (same.length > 1)
    throw new CliError(
      `More than one cafe is named "${name.trim()}"; write it as Unit/Cafe: ${some(same.map((c) => c.path))}.`,
    );
  throw new CliError(`No cafe named "${name.trim()}". Cafes: ${some(cafes.map((c) => c.path))}.`);
}

/** A headquarters given by name or, when several businesses have one of that name, "Business/Headquarters". */
function resolveHeadquarters(db: Db, name: string): number {
  const found = findHeadquartersByName(db, name);
  if (found) return found.id;
  const { headquarters } = placeNames(db);
  const byPath = headquarters.filter((h) => h.path === name.trim());
  if (byPath.length === 1) return byPath[0].id;
  const same = headquarters.filter((h) => h.name === name.trim());
  if (same.length > 1)
    throw new CliError(
      `More than one headquarters is named "${name.trim()}"; write it as Business/Headquarters: ${some(same.map((h) => h.path))}.`,
    );
  throw new CliError(`No headquarters named "${name.trim()}". Headquarters: ${some(headquarters.map((h) => h.name))}.`);
}

/** The place after "@" in "Area@Place": a cafe or a headquarters, whichever has that name. */
function resolvePlace(db: Db, name: string): { kind: "cafe" | "headquarters"; id: number } {
  const cafe = findCafeByName(db, name);
  const hq = findHeadquartersByName(db, name);
  if (cafe && hq)
    throw new CliError(
      `Both a cafe and a headquarters are named "${name.trim()}"; pick with --cafe or --headquarters instead of "@".`,
    );
  if (cafe) return { kind: "cafe", id: cafe.id };
  if (hq) return { kind: "headquarters", id: hq.id };
  const { cafes, headquarters } = placeNames(db);
  if (cafes.some((c) => c.name === name.trim())) return { kind: "cafe", id: resolveCafe(db, name) };
  if (headquarters.some((h) => h.name === name.trim() || h.path === name.trim()))
    return { kind: "headquarters", id: resolveHeadquarters(db, name) };
  throw new CliError(
    `No cafe or headquarters named "${name.trim()}". Cafes: ${some(cafes.map((c) => c.path))}. Headquarters: ${some(headquarters.map((h) => h.name))}.`,
  );
}

/** How an area is written on the command line: "Area@Place". */
export function areaLabel(area: AreaSummary): string {
  return `${area.name}@${area.place.name}`;
}

export interface AreaChoice {
  cafe?: string;
  headquarters?: string;
}

/**
 * An area by name. Area names repeat across places ("Caja" at every cafe), so the place can be given with
 * `--cafe`/`--headquarters` or after an "@": "Caja@Comedor Principal", "Caja@Unidad Norte/Comedor Principal".
 */
export function resolveArea(db: Db, spec: string, choice: AreaChoice = {}, placeOptions = true): AreaSummary {
  const all = listAreas(db, EVERYTHING).rows;
  let name = spec.trim();
  let at: string | undefined;
  // An "@" separates the place, unless an area is really called that.
  if (!all.some((a) => a.name === name) && name.includes("@")) {
    const i = name.lastIndexOf("@");
    at = name.slice(i + 1).trim();
    name = name.slice(0, i).trim();
  }
  const named = all.filter((a) => a.name === name);
  if (named.length === 0)
    throw new CliError(`No area named "${name}". Areas: ${some([...new Set(all.map(areaLabel))])}.`);
  const wanted: { kind: "cafe" | "headquarters"; id: number; said: string }[] = [];
  if (choice.cafe !== undefined)
    wanted.push({ kind: "cafe", id: resolveCafe(db, choice.cafe), said: `cafe "${choice.cafe.trim()}"` });
  if (choice.headquarters !== undefined)
    wanted.push({
      kind: "headquarters",
      id: resolveHeadquarters(db, choice.headquarters),
      said: `headquarters "${choice.headquarters.trim()}"`,
    });
  if (at !== undefined) wanted.push({ ...resolvePlace(db, at), said: `"${at}"` });
  const matches = named.filter((a) => wanted.every((w) => a.place.kind === w.kind && a.place.id === w.id));
  if (matches.length === 1) return matches[0];
  const where = named.map((a) => `${areaLabel(a)} (${a.place.kind} ${a.place.path})`).join(", ");
  if (matches.length === 0)
    throw new CliError(
      `There is no area "${name}" at ${wanted.map((w) => w.said).join(" and ")}. "${name}" is at: ${where}.`,
    );
  throw new CliError(
    `More than one area is named "${name}": ${where}. ${placeOptions ? "Pick one with --cafe or --headquarters, or write" : "Write"} it as "Area@Place".`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Assigning roles (user:assign, and user:create --role --area)

interface PlannedAssignment {
  role: Role;
  area: AreaSummary;
}

/** Checks a role and an area by name, and that the area offers the role, before anything is changed. */
function planAssignment(db: Db, roleName: string, areaSpec: string, choice?: AreaChoice): PlannedAssignment {
  const role = requireRole(db, roleName);
  // Without a choice object the command has no --cafe/--headquarters (user:create): only "Area@Place" can pick.
  const area = resolveArea(db, areaSpec, choice, choice !== undefined);
  if (!area.roles.some((r) => r.id === role.id)) {
    throw new CliError(
      `Area ${areaLabel(area)} does not offer the role "${role.name}"; it offers ${some(area.roles.map((r) => r.name))}.`,
    );
  }
  return { role, area };
}

function applyAssignment(db: Db, locale: Locale, user: User, plan: PlannedAssignment): string {
  const { role, area } = plan;
  const where = `${areaLabel(area)} (${area.place.path})`;
  const current = assignmentsOf(db, user.id, EVERYTHING).find((a) => a.areaId === area.id);
  if (current?.roleId === role.id) return `${user.email} already holds "${role.name}" in ${where}; nothing changed.`;
  attempt(locale, ASSIGN_FIELDS, () =>
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId: area.id, roleId: role.id }),
  );
  return `${user.email} now holds "${role.name}" in ${where}${current ? `, instead of "${current.roleName}"` : ""}.`;
}

function bothOrNeither(role: string | undefined, area: string | undefined): boolean {
  if ((role === undefined) !== (area === undefined)) throw new CliError("Give both --role and --area, or neither.");
  return role !== undefined;
}

/**
 * For `user:create --role R --area A`: checks both before the user is created, so a misspelt role or area creates
 * nobody. Returns the area's id, or null when neither is given.
 */
export function checkAssignment(db: Db, role: string | undefined, area: string | undefined): number | null {
  return bothOrNeither(role, area) ? planAssignment(db, role!, area!).area.id : null;
}

/**
 * For `user:create --role R --area A`: gives the user just created role R in area A (A as in `user:assign`,
 * "Area@Place" when the name repeats) and returns the line to print; null when neither is given.
 */
export function assignAfterCreate(
  db: Db,
  email: string,
  role: string | undefined,
  area: string | undefined,
  locale?: Locale,
): string | null {
  if (!bothOrNeither(role, area)) return null;
  const plan = planAssignment(db, role!, area!);
  return applyAssignment(db, locale ?? cliConfig().locale, requireUser(db, email), plan);
}

// ---------------------------------------------------------------------------------------------------------------
// Listings

export interface RoleListRow {
  name: string;
  description: string;
  builtIn: boolean;
  /** The built-in super-administrator role holds every permission without being granted any. */
  allPermissions: boolean;
  permissions: string[];
  holders: number;
}

export function roleListRows(db: Db): RoleListRow[] {
  const everything = listPermissions(db)
    .map((p) => p.name)
    .sort();
  return listRoles(db).rows.map((r) => ({
    name: r.name,
    description: r.description,
    builtIn: r.isSuper,
    allPermissions: r.isSuper,
    permissions: r.isSuper ? everything : r.permissions,
    holders: r.holders,
  }));
}

export interface PermissionListRow {
  name: string;
  area: string;
  sidebar: { route: string; label: string; icon: string | null; order: number } | null;
  routes: { method: string; uri: string; name: string }[];
}

/** Each permission of the catalogue with the routes that require it (from the route registry). */
export function permissionListRows(db: Db, routes: RouteDefinition[]): PermissionListRow[] {
  return listPermissions(db).map((p) => ({
    name: p.name,
    area: p.area,
    sidebar:
      p.routeName && p.sidebarLabel
        ? { route: p.routeName, label: p.sidebarLabel, icon: p.icon, order: p.sortOrder }
        : null,
    routes: routeRows(routes.filter((r) => r.access.kind === "permission" && r.access.permission === p.name)).map(
      ({ method, uri, name }) => ({ method, uri, name }),
    ),
  }));
}

function formatPermissionTable(rows: PermissionListRow[], locale: Locale): string {
  if (rows.length === 0) return "The permission catalogue is empty. Run ./mesa permission:sync.";
  const lines: string[][] = [];
  for (const p of rows) {
    if (p.routes.length === 0)
      lines.push([p.name, p.area, "", "(no route requires it; ./mesa permission:sync removes it)", ""]);
    p.routes.forEach((r, i) => lines.push([i === 0 ? p.name : "", i === 0 ? p.area : "", r.method, r.uri, r.name]));
  }
  const routeCount = rows.reduce((n, p) => n + p.routes.length, 0);
  const summary = translate(locale, "access.cli.permission_table", { permissions: rows.length, routes: routeCount });
  return `${table(["PERMISSION", "AREA", "METHOD", "URI", "ROUTE"], lines)}\n\n${summary}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

const AREA_HELP = `
An area is named as it is shown in the web app. Names repeat across places ("Caja" at every cafe); pick the
place with --cafe or --headquarters, or write the area as "Area@Place":
  --area Caja --cafe "Comedor Principal"
  --area "Caja@Comedor Principal"
  --area "Caja@Unidad Norte/Comedor Principal"   (when two units have a cafe of that name)
  --area "Administración@Sede Lima"`;

function listText(names: string[], locale: Locale = "en"): string {
  return names.length ? names.join(", ") : translate(locale, "access.cli.none");
}

export function registerAccessCommands(program: Command): void {
  program
    .command("role:create")
    .description("Create a role with the given permissions (see ./mesa permission:list)")
    .argument("<name>", "the role's name: letters, digits, spaces, . _ -")
    .option("--description <text>", "what the role is for")
    .option("--permission <name>", "a permission to grant; repeat the option or separate names with commas", collect)
    .action((name: string, opts: { description?: string; permission?: string[] }) => {
      const { db, locale } = open();
      const permissions = [...new Set(opts.permission ?? [])];
      const input = { name, permissions, ...(opts.description === undefined ? {} : { description: opts.description }) };
      const role = attempt(locale, ROLE_FIELDS, () => createRole(db, CLI_ACTOR, input));
      const granted = [...permissions].sort();
      console.log(
        translate(locale, "access.cli.role_created", {
          name: role.name,
          count: granted.length,
          list: listText(granted, locale),
        }),
      );
    });

  for (const mode of ["grant", "revoke"] as const) {
    program
      .command(`role:${mode}`)
      .description(mode === "grant" ? "Give a role more permissions" : "Take permissions away from a role")
      .argument("<role>", "the role's name")
      .argument("<permissions...>", "permission names (spaces or commas between them)")
      .action((roleName: string, names: string[]) => {
        const { db, locale } = open();
        const role = requireRole(db, roleName);
        const wanted = [...new Set(flatten(names))];
        const before = new Set(listRoles(db).rows.find((r) => r.id === role.id)?.permissions ?? []);
        const after = attempt(locale, ROLE_FIELDS, () => changeRolePermissions(db, CLI_ACTOR, role.name, wanted, mode));
        const unchanged = wanted.filter((n) => (mode === "grant" ? before.has(n) : !before.has(n)));
        if (unchanged.length)
          console.log(`${mode === "grant" ? "Already granted" : "Not granted"} before: ${unchanged.join(", ")}`);
        console.log(
          translate(locale, "access.cli.role_now_has", {
            name: role.name,
            count: after.length,
            list: listText(after, locale),
          }),
        );
      });
  }

  program
    .command("role:list")
    .description("List roles: built-in or not, how many assignments hold each, and their permissions")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      const { db } = open();
      const rows = roleListRows(db);
      if (opts.json) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      console.log(
        table(
          ["ROLE", "BUILT-IN", "HOLDERS", "PERMISSIONS", ""],
          rows.map((r) => [
            r.name,
            r.builtIn ? "yes" : "no",
            String(r.holders),
            r.allPermissions ? "all" : String(r.permissions.length),
            r.allPermissions ? "every permission, everywhere" : r.permissions.join(", "),
          ]),
        ),
      );
    });

  program
    .command("permission:list")
    .description("List the permission catalogue: each permission, its area and the routes that require it")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { db, locale } = open();
      const rows = permissionListRows(db, await loadRoutes());
      const missing = PERMISSION_NAMES.filter((name) => !rows.some((r) => r.name === name));
      if (opts.json) {
        console.log(JSON.stringify(rows, null, 2));
      } else {
        console.log(formatPermissionTable(rows, locale));
      }
      if (missing.length)
        console.error(
          `Permissions of the catalogue missing from the database: ${missing.join(", ")}. Run ./mesa permission:sync.`,
        );
    });

  program
    .command("permission:sync")
    .description(
      "Bring the permissions table in step with the catalogue: add what it declares, remove what it no longer declares",
    )
    .action(() => {
      const { db, locale } = open();
      const { added, removed } = syncPermissions(db, CLI_ACTOR);
      if (added.length === 0 && removed.length === 0) {
        console.log(translate(locale, "access.cli.permissions_in_step", { count: PERMISSION_NAMES.length }));
        return;
      }
      if (added.length)
        console.log(translate(locale, "access.cli.permissions_added", { count: added.length, list: added.join(", ") }));
      if (removed.length)
        console.log(
          translate(locale, "access.cli.permissions_removed", { count: removed.length, list: removed.join(", ") }),
        );
    });

  program
    .command("area:create")
    .description("Create an area at a cafe or a headquarters, offering some roles")
    .argument("<name>", "the area's name (unique at its place)")
    .addOption(
      new Option(
        "--cafe <cafe>",
        'the cafe: "Cafe", or "Unit/Cafe" when several units have a cafe of that name',
      ).conflicts("headquarters"),
    )
    .addOption(new Option("--headquarters <name>", 'the headquarters: "Name", or "Business/Name"'))
    .option("--role <name>", "a role the area offers; repeat the option or separate names with commas", collect)
    .addHelpText(
      "after",
      '\nGive exactly one of --cafe and --headquarters. Example:\n  ./mesa area:create Cocina --cafe "Comedor Principal" --role cashier --role "cafe manager"',
    )
    .action((name: string, opts: { cafe?: string; headquarters?: string; role?: string[] }) => {
      const { db, locale } = open();
      const input = {
        name,
        cafe_id: opts.cafe === undefined ? null : resolveCafe(db, opts.cafe),
        headquarters_id: opts.headquarters === undefined ? null : resolveHeadquarters(db, opts.headquarters),
        role_ids: [...new Set(opts.role ?? [])].map((r) => requireRole(db, r).id),
      };
      const area = attempt(locale, AREA_FIELDS, () => createArea(db, CLI_ACTOR, EVERYTHING, input));
      const summary = listAreas(db, EVERYTHING).rows.find((a) => a.id === area.id)!;
      console.log(
        `Created area ${areaLabel(summary)} at ${summary.place.kind} ${summary.place.path}, offering: ${listText(summary.roles.map((r) => r.name))}`,
      );
    });

  program
    .command("user:assign")
    .description("Give a user a role in an area (replacing the role they held in that area)")
    .argument("<email>", "the user's e-mail address")
    .requiredOption("--role <name>", "the role's name; the area must offer it")
    .requiredOption("--area <area>", 'the area\'s name, or "Area@Place" (see below)')
    .addOption(
      new Option("--cafe <cafe>", "the cafe of the area, when the area's name repeats").conflicts("headquarters"),
    )
    .addOption(new Option("--headquarters <name>", "the headquarters of the area, when the area's name repeats"))
    .addHelpText("after", AREA_HELP)
    .action((email: string, opts: { role: string; area: string; cafe?: string; headquarters?: string }) => {
      const { db, locale } = open();
      const user = requireUser(db, email);
      const plan = planAssignment(db, opts.role, opts.area, { cafe: opts.cafe, headquarters: opts.headquarters });
      console.log(applyAssignment(db, locale, user, plan));
    });

  program
    .command("blacklist:add")
    .description(
      "Bar a person by document; a linked user account can no longer sign in, and its sessions, open tabs and realtime connections end",
    )
    .argument("<document>", "the document number, checked by its type (spaces and dashes are dropped)")
    .addOption(
      new Option("--type <type>", "the document's type: dni, ce (carné de extranjería) or pas (passport)")
        .choices(DOCUMENT_TYPES)
        .default(DEFAULT_DOCUMENT_TYPE),
    )
    .requiredOption("--reason <text>", "why the person is barred")
    .option("--name <name>", "the person's name (default: the linked user's name, else the document number)")
    .option(
      "--user <email>",
      "link the entry to this user account, which must have the same document or, without one, the same name (by default, the user with that document)",
    )
    .action(async (document: string, opts: { type: DocumentType; reason: string; name?: string; user?: string }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const events = cliEvents(config);
      const linked =
        opts.user === undefined
          ? findUserByDocument(db, { type: opts.type, number: document })
          : requireUser(db, opts.user);
      const input = {
        document_type: opts.type,
        document_number: document,
        reason: opts.reason,
        name: opts.name ?? linked?.name ?? document.trim(),
        user_id: opts.user === undefined ? null : linked!.id,
      };
      const entry = attempt(config.locale, BLACKLIST_FIELDS, () => {
        try {
          return addToBlacklist(db, CLI_ACTOR, EVERYTHING, input, config, events.publisher);
        } catch (error) {
          // A name taken from a bad document number fails with it: only the document is worth mentioning.
          if (
            error instanceof ValidationFailed &&
            opts.name === undefined &&
            error.errors.document_number &&
            error.errors.name
          ) {
            const { name: _, ...rest } = error.errors;
            throw new ValidationFailed(rest);
          }
          throw error;
        }
      });
      console.log(
        `Added ${entry.documentType.toUpperCase()} ${entry.documentNumber} (${entry.name}) to the blacklist: ${entry.reason}`,
      );
      const user = entry.userId === null ? undefined : findUserById(db, entry.userId);
      if (user) console.log(`${user.email} can no longer sign in; their sessions have ended.`);
      // Their open tabs and realtime connections, as the Blacklist page ends them; the running Mesa is reached over HTTP.
      const outcome = await events.outcome();
      if (outcome) console.log(outcome);
    });
}
