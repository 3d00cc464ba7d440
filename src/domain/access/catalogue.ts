/**
 * The `permissions` table, kept in step with the permission catalogue (permissions.ts): every declared permission
 * has a row, and a row the catalogue no longer declares is removed. New rows take the catalogue's area and sidebar
 * entry; administrators may then edit label, icon and order.
 */
import { asc, eq, inArray } from "drizzle-orm";
import { permissions } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { CLI_ACTOR, COMPANY_WIDE, recordAudit, type Actor } from "../audit";
import { NotFound } from "../errors";
import { parseInput, t } from "../validation";
import { bumpAccessVersion, currentAccessVersion } from "./authorization";
import { PERMISSION_NAMES, PERMISSIONS, type PermissionSpec } from "../../shared/access/permissions";

export interface PermissionDefaults {
  area: string;
  sidebar?: { route: string; label: string; icon: string; order: number };
}

/** Defaults of each permission's row (its product area, and the sidebar entry it opens), from the catalogue. */
export const PERMISSION_DEFAULTS: Record<string, PermissionDefaults> = Object.fromEntries(
  Object.entries(PERMISSIONS as Record<string, PermissionSpec>).map(([name, spec]) => [
    name,
    spec.sidebar ? { area: spec.area, sidebar: spec.sidebar } : { area: spec.area },
  ]),
);

import type { Permission } from "../../shared/access/types";
export type { Permission };
/** The table's record is the shared shape (a compile-time check). */
const permissionMatchesTheTable: [typeof permissions.$inferSelect] extends [Permission]
  ? [Permission] extends [typeof permissions.$inferSelect]
    ? true
    : false
  : false = true;
void permissionMatchesTheTable;

export function listPermissions(db: Db): Permission[] {
  return listPermissionsQuery(db).all();
}

/** Read on every visit of the Users and Roles pages: prepared once per connection. */
const listPermissionsQuery = preparedQuery((db: Db) =>
  db.select().from(permissions).orderBy(asc(permissions.area), asc(permissions.name)).prepare(),
);

export function findPermission(db: Db, name: string): Permission | undefined {
  return db.select().from(permissions).where(eq(permissions.name, name)).get();
}

/**
 * Brings the `permissions` table in step with the catalogue (permissions.ts): adds what the catalogue declares and
 * removes only rows it no longer declares, so a declared permission is never removed. Returns what changed.
 */
export function syncPermissions(db: Db, actor: Actor = CLI_ACTOR): { added: string[]; removed: string[] } {
  const wanted = new Set<string>(PERMISSION_NAMES);
  return db.transaction((tx) => {
    const existing = tx.select().from(permissions).all();
    const have = new Set(existing.map((p) => p.name));
    const added = [...wanted].filter((name) => !have.has(name)).sort();
    const removed = existing
      .filter((p) => !wanted.has(p.name))
      .map((p) => p.name)
      .sort();
    for (const name of added) {
      const defaults = PERMISSION_DEFAULTS[name] ?? { area: name.split(".")[0] };
      tx.insert(permissions)
        .values({
          name,
          area: defaults.area,
          routeName: defaults.sidebar?.route ?? null,
          sidebarLabel: defaults.sidebar?.label ?? null,
          icon: defaults.sidebar?.icon ?? null,
          sortOrder: defaults.sidebar?.order ?? 100,
        })
        .run();
    }
    if (removed.length) tx.delete(permissions).where(inArray(permissions.name, removed)).run();
    if (added.length || removed.length) {
      bumpAccessVersion(tx);
      recordAudit(tx, actor, {
        action: "permissions.synced",
        subjectType: "permission",
        subjectId: null,
        places: COMPANY_WIDE,
        after: { added, removed },
      });
    }
    return { added, removed };
  });
}

export interface SidebarPermission {
  permission: string;
  route: string;
  label: string;
  icon: string;
  order: number;
}

const sidebarCache = new WeakMap<Db, { version: number; entries: SidebarPermission[] }>();

/** Permissions that open a sidebar entry, in order; cached until access changes. */
export function sidebarPermissions(db: Db): SidebarPermission[] {
  const version = currentAccessVersion(db);
  const cached = sidebarCache.get(db);
  if (cached && cached.version === version) return cached.entries;
  const entries = db
    .select()
    .from(permissions)
    .orderBy(asc(permissions.sortOrder), asc(permissions.name))
    .all()
    .filter((p) => p.routeName && p.sidebarLabel)
    .map((p) => ({
      permission: p.name,
      route: p.routeName!,
      label: p.sidebarLabel!,
      icon: p.icon ?? "square",
      order: p.sortOrder,
    }));
  sidebarCache.set(db, { version, entries });
  return entries;
}

export const PermissionEntryInput = t.Object({
  sidebar_label: t.Optional(t.Union([t.String({ maxLength: 60 }), t.Null()])),
  icon: t.Optional(t.Union([t.String({ maxLength: 40, pattern: "^[a-z0-9-]*$" }), t.Null()])),
  sort_order: t.Integer({ minimum: 0, maximum: 10000 }),
});

/** Edits the sidebar label, icon and order of a permission's entry. */
export function updatePermissionEntry(db: Db, actor: Actor, permissionId: number, input: unknown): Permission {
  const permission = db.select().from(permissions).where(eq(permissions.id, permissionId)).get();
  if (!permission) throw new NotFound();
  const data = parseInput(PermissionEntryInput, input);
  const after = { sidebarLabel: data.sidebar_label || null, icon: data.icon || null, sortOrder: data.sort_order };
  return db.transaction((tx) => {
    const updated = tx.update(permissions).set(after).where(eq(permissions.id, permission.id)).returning().get();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "permission.updated",
      subjectType: "permission",
      subjectId: permission.id,
      places: COMPANY_WIDE,
      before: { sidebarLabel: permission.sidebarLabel, icon: permission.icon, sortOrder: permission.sortOrder },
      after,
    });
    return updated;
  });
}
