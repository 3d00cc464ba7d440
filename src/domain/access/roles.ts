/**
 * Roles: named bundles of permissions. The built-in super-administrator role holds every permission implicitly;
 * it cannot be renamed, edited or deleted.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { assignments, permissions, rolePermissions, roles } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import {
  foldText,
  idList,
  inIdList,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
  type PageRequest,
} from "../search";
import { roleDescription, roleLabel } from "../../shared/access/built-in-roles";
import type { Locale } from "../../shared/i18n";
import { parseInput, t } from "../validation";
import { bumpAccessVersion } from "./authorization";
import type { RoleSummary } from "../../shared/access/types";
export type { RoleSummary } from "../../shared/access/types";

export type Role = typeof roles.$inferSelect;
export const SUPER_ROLE = "super-administrator";

export function findRoleByName(db: Db, name: string): Role | undefined {
  return db.select().from(roles).where(eq(roles.name, name)).get();
}

export function requireRole(db: Db, id: number): Role {
  const role = db.select().from(roles).where(eq(roles.id, id)).get();
  if (!role) throw new NotFound();
  return role;
}

export function requireRoleByName(db: Db, name: string): Role {
  const role = findRoleByName(db, name);
  if (!role) throw new NotFound(`No role named "${name}"`);
  return role;
}

function permissionNames(db: Db, roleId: number): string[] {
  return db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId))
    .orderBy(asc(permissions.name))
    .all()
    .map((r) => r.name);
}

const countRoles = preparedQuery((db, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(roles)
    .where(searched ? searchMatch([roles.name, roles.description]) : undefined)
    .prepare(),
);

const rolesPage = preparedQuery((db, searched: boolean) =>
  db
    .select({ role: roles, holders: sql<number>`(SELECT COUNT(*) FROM assignments a WHERE a.role_id = ${roles.id})` })
    .from(roles)
    .where(searched ? searchMatch([roles.name, roles.description]) : undefined)
    .orderBy(sql`${roles.isSuper} DESC`, asc(roles.name))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

const permissionsOfRoles = preparedQuery((db) =>
  db
    .select({ roleId: rolePermissions.roleId, name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(inIdList(rolePermissions.roleId, "ids"))
    .orderBy(asc(permissions.name))
    .prepare(),
);

/**
 * Roles with their permissions and how many assignments (person × area) use them, searchable by name; a page of
 * them when `page` is given, all of them otherwise.
 */
export function listRoles(db: Db, search = "", page?: PageRequest): ListResult<RoleSummary> {
  const pattern = searchPattern(search);
  const searched = pattern !== null;
  const found = readList(
    page,
    () => countRoles(db, searched).get({ search: pattern })?.n ?? 0,
    (window) => rolesPage(db, searched).all({ search: pattern, ...window }),
  );
  // Every role's permissions in one statement, grouped here.
  const permissionsOf = new Map<number, string[]>();
  if (found.rows.length)
    for (const { roleId, name } of permissionsOfRoles(db).all({ ids: idList(found.rows.map((r) => r.role.id)) })) {
      const names = permissionsOf.get(roleId);
      if (names) names.push(name);
      else permissionsOf.set(roleId, [name]);
    }
  const summaries = found.rows.map(({ role, holders }) => ({
    id: role.id,
    name: role.name,
    description: role.description,
    isSuper: role.isSuper,
    permissions: permissionsOf.get(role.id) ?? [],
    holders,
  }));
  return { rows: summaries, total: found.total, page: found.page };
}

/**
 * The roles whose name, as stored or as people read it in `locale` ("cashier", "Cajero"), or whose description
 * contains `search`, ignoring case and accents: the super-administrator first, then by the names people read, in
 * that language's order; a page of them when `page` is given, all of them otherwise. Roles are few, so they are read
 * whole and matched here, where the built-in roles' labels are known.
 */
export function rolesMatching(db: Db, search: string, locale: Locale, page?: PageRequest): ListResult<RoleSummary> {
  const wanted = foldText(search.trim());
  const collator = new Intl.Collator(locale);
  const rows = listRoles(db)
    .rows.sort(
      (a, b) =>
        Number(b.isSuper) - Number(a.isSuper) || collator.compare(roleLabel(a.name, locale), roleLabel(b.name, locale)),
    )
    .filter(
      (r) =>
        wanted === "" ||
        [r.name, roleLabel(r.name, locale), r.description, roleDescription(r.name, r.description, locale)].some(
          (text) => foldText(text).includes(wanted),
        ),
    );
  // Without a page, readList asks for every row (a limit of -1).
  return readList(
    page,
    () => rows.length,
    ({ limit, offset }) => (limit < 0 ? rows.slice(offset) : rows.slice(offset, offset + limit)),
  );
}

export const RoleInput = t.Object({
  // Letters (with Spanish accents), digits, spaces and . _ -
  name: t.String({ minLength: 2, maxLength: 60, pattern: "^[A-Za-z\u00C0-\u00FF0-9 ._-]+$" }),
  description: t.Optional(t.String({ maxLength: 500 })),
  permissions: t.Optional(t.Array(t.String({ maxLength: 100 }), { maxItems: 500 })),
});

function resolvePermissionIds(db: Db, names: string[]): number[] {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  const found = db.select().from(permissions).where(inArray(permissions.name, unique)).all();
  const missing = unique.filter((n) => !found.some((p) => p.name === n));
  if (missing.length)
    throw new ValidationFailed({ permissions: message("access.unknown_permissions", { names: missing.join(", ") }) });
  return found.map((p) => p.id);
}

function ensureNameFree(db: Db, name: string, exceptId?: number): void {
  const existing = findRoleByName(db, name);
  if (existing && existing.id !== exceptId) throw new ValidationFailed({ name: message("access.role_name_taken") });
}

export function createRole(db: Db, actor: Actor, input: unknown): Role {
  const data = parseInput(RoleInput, input);
  ensureNameFree(db, data.name);
  const permissionIds = resolvePermissionIds(db, data.permissions ?? []);
  return db.transaction((tx) => {
    const role = tx
      .insert(roles)
      .values({ name: data.name, description: data.description ?? "" })
      .returning()
      .get();
    for (const permissionId of permissionIds)
      tx.insert(rolePermissions).values({ roleId: role.id, permissionId }).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "role.created",
      subjectType: "role",
      subjectId: role.id,
      places: COMPANY_WIDE,
      after: { ...data, permissions: [...new Set(data.permissions ?? [])].sort() },
    });
    return role;
  });
}

/** Renames, re-describes and sets exactly the given permissions. */
export function updateRole(db: Db, actor: Actor, roleId: number, input: unknown): Role {
  const role = requireRole(db, roleId);
  if (role.isSuper) throw new Conflict(message("access.super_role_fixed"));
  const data = parseInput(RoleInput, input);
  ensureNameFree(db, data.name, role.id);
  const permissionIds = resolvePermissionIds(db, data.permissions ?? []);
  const before = { name: role.name, description: role.description, permissions: permissionNames(db, role.id) };
  return db.transaction((tx) => {
    const updated = tx
      .update(roles)
      .set({ name: data.name, description: data.description ?? "" })
      .where(eq(roles.id, role.id))
      .returning()
      .get();
    tx.delete(rolePermissions).where(eq(rolePermissions.roleId, role.id)).run();
    for (const permissionId of permissionIds)
      tx.insert(rolePermissions).values({ roleId: role.id, permissionId }).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "role.updated",
      subjectType: "role",
      subjectId: role.id,
      places: COMPANY_WIDE,
      before,
      after: {
        name: data.name,
        description: data.description ?? "",
        permissions: [...new Set(data.permissions ?? [])].sort(),
      },
    });
    return updated;
  });
}

/** Adds (grant) or removes (revoke) permissions of a role by name. */
export function changeRolePermissions(
  db: Db,
  actor: Actor,
  roleName: string,
  names: string[],
  mode: "grant" | "revoke",
): string[] {
  const role = requireRoleByName(db, roleName);
  if (role.isSuper) throw new Conflict(message("access.super_role_fixed"));
  const ids = resolvePermissionIds(db, names);
  const before = permissionNames(db, role.id);
  const changed = new Set(names);
  const after = mode === "grant" ? [...new Set([...before, ...names])].sort() : before.filter((n) => !changed.has(n));
  if (after.length === before.length && after.every((n, i) => n === before[i])) return after;
  db.transaction((tx) => {
    for (const permissionId of ids) {
      if (mode === "grant")
        tx.insert(rolePermissions).values({ roleId: role.id, permissionId }).onConflictDoNothing().run();
      else
        tx.delete(rolePermissions)
          .where(and(eq(rolePermissions.roleId, role.id), eq(rolePermissions.permissionId, permissionId)))
          .run();
    }
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: `role.${mode === "grant" ? "granted" : "revoked"}`,
      subjectType: "role",
      subjectId: role.id,
      places: COMPANY_WIDE,
      before: { permissions: before },
      after: { permissions: after },
    });
  });
  return after;
}

/** Deletes a role nobody holds. */
export function deleteRole(db: Db, actor: Actor, roleId: number): void {
  const role = requireRole(db, roleId);
  if (role.isSuper) throw new Conflict(message("access.super_role_fixed"));
  const held =
    db
      .select({ n: sql<number>`count(*)` })
      .from(assignments)
      .where(eq(assignments.roleId, role.id))
      .get()?.n ?? 0;
  if (held > 0) throw new Conflict(message("access.role_in_use", { count: held }));
  db.transaction((tx) => {
    tx.delete(roles).where(eq(roles.id, role.id)).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "role.deleted",
      subjectType: "role",
      subjectId: role.id,
      places: COMPANY_WIDE,
      before: { name: role.name, permissions: permissionNames(db, role.id) },
    });
  });
}

/** Creates the built-in super-administrator role when missing. */
export function ensureSuperRole(db: Db): Role {
  const existing = db.select().from(roles).where(eq(roles.isSuper, true)).get();
  if (existing) return existing;
  return db.transaction((tx) => {
    const role = tx
      .insert(roles)
      .values({ name: SUPER_ROLE, description: "Every permission, everywhere.", isSuper: true })
      .returning()
      .get();
    bumpAccessVersion(tx);
    return role;
  });
}
