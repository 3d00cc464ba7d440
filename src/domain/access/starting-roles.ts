/**
 * The roles a catering company starts with, declared once (built-in-roles.ts). A new database gets them with these permissions; a
 * database from an earlier version of Mesa gets, once, each permission a later version adds to a starting role —
 * recorded in `starting_role_grants`, so a permission an administrator took away is never brought back. Run on every
 * start and by `./mesa db:migrate` through `bootstrapAccess`.
 */
import { eq, inArray } from "drizzle-orm";
import { permissions, rolePermissions, roles, startingRoleGrants } from "../../../db/schema";
import type { Db } from "../../db";
import { CLI_ACTOR, COMPANY_WIDE, recordAudit, type Tx } from "../audit";
import { bumpAccessVersion } from "./authorization";
import { syncPermissions } from "./catalogue";
import { STARTING_ROLES, type StartingRole } from "../../shared/access/built-in-roles";
import { ensureSuperRole } from "./roles";

// Declared with their names for people in both languages in built-in-roles.ts, which the browser shares.
export { STARTING_ROLES, type StartingRole };

function record(tx: Tx, roleName: string, names: string[], now: Date): void {
  for (const permission of names)
    tx.insert(startingRoleGrants).values({ roleName, permission, recordedAt: now }).onConflictDoNothing().run();
}

function permissionIds(tx: Tx, names: string[]): number[] {
  return names.length
    ? tx
        .select({ id: permissions.id })
        .from(permissions)
        .where(inArray(permissions.name, names))
        .all()
        .map((p) => p.id)
    : [];
}

/** Creates a starting role with its permissions when it is missing; returns its id. */
export function ensureStartingRole(db: Db, spec: StartingRole, now = new Date()): number {
  const existing = db.select().from(roles).where(eq(roles.name, spec.name)).get();
  if (existing) return existing.id;
  return db.transaction((tx) => {
    const role = tx.insert(roles).values({ name: spec.name, description: spec.description }).returning().get();
    for (const id of permissionIds(tx, spec.permissions))
      tx.insert(rolePermissions).values({ roleId: role.id, permissionId: id }).run();
    record(tx, spec.name, spec.permissions, now);
    bumpAccessVersion(tx);
    return role.id;
  });
}

/**
 * Grants each starting role, once, the permissions of STARTING_ROLES it was never given by Mesa (a later version's
 * additions). A database that predates the record is taken as up to date: what it holds now is recorded, nothing is
 * granted, so an earlier removal stays removed. Returns what was granted, by role.
 */
export function applyStartingGrants(db: Db, now = new Date()): Record<string, string[]> {
  return db.transaction((tx) => {
    const granted: Record<string, string[]> = {};
    const firstTime =
      tx.select({ roleName: startingRoleGrants.roleName }).from(startingRoleGrants).limit(1).get() === undefined;
    for (const spec of STARTING_ROLES) {
      const role = tx.select().from(roles).where(eq(roles.name, spec.name)).get();
      if (!role) continue;
      const recorded = new Set(
        tx
          .select({ permission: startingRoleGrants.permission })
          .from(startingRoleGrants)
          .where(eq(startingRoleGrants.roleName, spec.name))
          .all()
          .map((r) => r.permission),
      );
      const missing = spec.permissions.filter((name) => !recorded.has(name));
      if (missing.length === 0) continue;
      if (!firstTime) {
        for (const id of permissionIds(tx, missing))
          tx.insert(rolePermissions).values({ roleId: role.id, permissionId: id }).onConflictDoNothing().run();
        granted[spec.name] = missing;
      }
      record(tx, spec.name, missing, now);
    }
    if (Object.keys(granted).length) {
      bumpAccessVersion(tx);
      recordAudit(
        tx,
        CLI_ACTOR,
        { action: "roles.starting_grants", subjectType: "role", subjectId: null, places: COMPANY_WIDE, after: granted },
        now,
      );
    }
    return granted;
  });
}

/** Brings the permission catalogue in step, makes sure the super-administrator role exists, and applies new starting grants. */
export function bootstrapAccess(db: Db): void {
  syncPermissions(db);
  ensureSuperRole(db);
  applyStartingGrants(db);
}
