/**
 * What a user may do and where (and whether they are barred): the union of the permissions of the roles they hold, and the cafes of their
 * areas (a headquarters area reaches every cafe its business operates). Computed once per user and cached
 * until anything about access changes anywhere (the `access_version` counter, bumped in the same transaction
 * as the change, so a change made from the command line reaches the running server on its next request).
 */
import { preparedQuery, type Db } from "../../db";
import type { Tx } from "../audit";
import { sql } from "drizzle-orm";
import { isCompanyWide, type PermissionName } from "../../shared/access/permissions";

export interface AccessProfile {
  /** Holds the built-in super-administrator role: every permission, every cafe. */
  isSuper: boolean;
  /**
   * The permissions in effect: those of every role held, except that a permission over company-wide data counts
   * only when a role grants it in a headquarters area (`data: "company"` in permissions.ts).
   */
  permissions: ReadonlySet<string>;
  /** Permissions granted through headquarters areas (company-wide audit entries need `audit.view` here). */
  headquartersPermissions: ReadonlySet<string>;
  /** The cafes in the user's scope; empty for a user with no areas. Ignored for a super-administrator. */
  cafeIds: ReadonlySet<number>;
  /** The headquarters in the user's scope (all headquarters of the businesses of their headquarters areas). */
  headquartersIds: ReadonlySet<number>;
  /** The businesses of the user's headquarters areas: a cafe they create for one of these stays in their scope. */
  businessIds: ReadonlySet<number>;
  /** The user's account or document is on the blacklist: they may not be signed in. */
  blacklisted: boolean;
  /** Names of the roles held, for display. */
  roles: string[];
}

/** Per database (tests open many), per user. */
const caches = new WeakMap<Db, Map<number, { version: number; profile: AccessProfile }>>();

// Asked on every signed-in request: prepared once per connection.
const accessVersion = preparedQuery((db) =>
  db.$client.prepare<{ version: number }, []>("SELECT version FROM access_version WHERE id = 1"),
);

export function currentAccessVersion(db: Db): number {
  return accessVersion(db).get()?.version ?? 0;
}

/** Marks every cached profile stale; call inside the transaction that changes roles, permissions, areas or assignments. */
export function bumpAccessVersion(tx: Tx): void {
  tx.run(
    sql`INSERT INTO access_version (id, version) VALUES (1, 1) ON CONFLICT(id) DO UPDATE SET version = version + 1`,
  );
}

function computeProfile(db: Db, userId: number): AccessProfile {
  const client = db.$client;
  const roleRows = client
    .query<{ name: string; is_super: number }, [number]>(
      "SELECT DISTINCT r.name, r.is_super FROM assignments a JOIN roles r ON r.id = a.role_id WHERE a.user_id = ? ORDER BY r.name",
    )
    .all(userId);
  const permissionRows = client
    .query<{ name: string; at_headquarters: number }, [number]>(
      `SELECT DISTINCT p.name, ar.headquarters_id IS NOT NULL AS at_headquarters FROM assignments a
       JOIN areas ar ON ar.id = a.area_id
       JOIN role_permissions rp ON rp.role_id = a.role_id
       JOIN permissions p ON p.id = rp.permission_id
       WHERE a.user_id = ?`,
    )
    .all(userId);
  const headquartersPermissions = new Set(permissionRows.filter((r) => r.at_headquarters === 1).map((r) => r.name));
  const permissions = new Set(
    permissionRows.filter((r) => !isCompanyWide(r.name) || headquartersPermissions.has(r.name)).map((r) => r.name),
  );
  const cafeRows = client
    .query<{ id: number }, [number, number]>(
      `SELECT ar.cafe_id AS id FROM assignments a JOIN areas ar ON ar.id = a.area_id WHERE a.user_id = ? AND ar.cafe_id IS NOT NULL
       UNION
       SELECT c.id FROM assignments a
       JOIN areas ar ON ar.id = a.area_id
       JOIN headquarters h ON h.id = ar.headquarters_id
       JOIN cafes c ON c.business_id = h.business_id
       WHERE a.user_id = ?`,
    )
    .all(userId, userId);
  const headquartersRows = client
    .query<{ id: number }, [number]>(
      `SELECT DISTINCT h2.id FROM assignments a
       JOIN areas ar ON ar.id = a.area_id
       JOIN headquarters h ON h.id = ar.headquarters_id
       JOIN headquarters h2 ON h2.business_id = h.business_id
       WHERE a.user_id = ?`,
    )
    .all(userId);
  const businessRows = client
    .query<{ id: number }, [number]>(
      `SELECT DISTINCT h.business_id AS id FROM assignments a
       JOIN areas ar ON ar.id = a.area_id
       JOIN headquarters h ON h.id = ar.headquarters_id
       WHERE a.user_id = ?`,
    )
    .all(userId);
  const blacklisted = client
    .query<{ n: number }, [number, number]>(
      `SELECT COUNT(*) AS n FROM blacklist b WHERE b.user_id = ?
       OR EXISTS (SELECT 1 FROM users u WHERE u.id = ? AND u.document_type = b.document_type AND u.document_number = b.document_number)`,
    )
    .get(userId, userId);
  return {
    isSuper: roleRows.some((r) => r.is_super === 1),
    permissions,
    headquartersPermissions,
    cafeIds: new Set(cafeRows.map((r) => r.id)),
    headquartersIds: new Set(headquartersRows.map((r) => r.id)),
    businessIds: new Set(businessRows.map((r) => r.id)),
    blacklisted: (blacklisted?.n ?? 0) > 0,
    roles: roleRows.map((r) => r.name),
  };
}

/** The user's access, from the cache when nothing changed since it was computed. */
export function accessProfile(db: Db, userId: number): AccessProfile {
  const version = currentAccessVersion(db);
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const cached = cache.get(userId);
  if (cached && cached.version === version) return cached.profile;
  const profile = computeProfile(db, userId);
  cache.set(userId, { version, profile });
  return profile;
}

export function can(profile: AccessProfile, permission: PermissionName): boolean {
  return profile.isSuper || profile.permissions.has(permission);
}
