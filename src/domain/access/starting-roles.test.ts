import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { permissions, rolePermissions, roles, startingRoleGrants } from "../../../db/schema";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { applyStartingGrants, bootstrapAccess, ensureStartingRole, STARTING_ROLES } from "./starting-roles";

function freshDatabase(): Db {
  const db = migratedDatabase();
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  return db;
}

function holds(db: Db, roleName: string, permission: string): boolean {
  return (
    db
      .select({ id: rolePermissions.roleId })
      .from(rolePermissions)
      .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(and(eq(roles.name, roleName), eq(permissions.name, permission)))
      .get() !== undefined
  );
}

function revoke(db: Db, roleName: string, permission: string): void {
  const roleId = db.select().from(roles).where(eq(roles.name, roleName)).get()!.id;
  const permissionId = db.select().from(permissions).where(eq(permissions.name, permission)).get()!.id;
  db.delete(rolePermissions)
    .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, permissionId)))
    .run();
}

describe("starting roles", () => {
  test("a new database gets every starting role with its permissions, all recorded, and nothing more to grant", () => {
    const db = freshDatabase();
    for (const spec of STARTING_ROLES)
      for (const permission of spec.permissions) expect(holds(db, spec.name, permission)).toBe(true);
    expect(db.select().from(startingRoleGrants).all()).toHaveLength(
      STARTING_ROLES.reduce((n, spec) => n + spec.permissions.length, 0),
    );
    expect(applyStartingGrants(db)).toEqual({});
  });

  test("a permission a later version adds to a starting role is granted once; taken away afterwards, it stays away", () => {
    const db = freshDatabase();
    // As if this version added blacklist.view to the cashier: the database neither holds nor recorded it.
    revoke(db, "cashier", "blacklist.view");
    db.delete(startingRoleGrants)
      .where(and(eq(startingRoleGrants.roleName, "cashier"), eq(startingRoleGrants.permission, "blacklist.view")))
      .run();
    expect(applyStartingGrants(db)).toEqual({ cashier: ["blacklist.view"] });
    expect(holds(db, "cashier", "blacklist.view")).toBe(true);
    // An administrator takes it away: the next start does not bring it back.
    revoke(db, "cashier", "blacklist.view");
    expect(applyStartingGrants(db)).toEqual({});
    expect(holds(db, "cashier", "blacklist.view")).toBe(false);
  });

  test("a database from before the record is taken as it is: what an administrator removed stays removed", () => {
    const db = freshDatabase();
    revoke(db, "cafe manager", "prices.manage");
    db.delete(startingRoleGrants).run();
    expect(applyStartingGrants(db)).toEqual({});
    expect(holds(db, "cafe manager", "prices.manage")).toBe(false);
    expect(
      db.select().from(startingRoleGrants).where(eq(startingRoleGrants.roleName, "cafe manager")).all().length,
    ).toBeGreaterThan(0);
  });

  test("permission:sync never removes a permission of the catalogue, and removes one it no longer declares", () => {
    const db = freshDatabase();
    db.insert(permissions).values({ name: "obsolete.view", area: "obsolete" }).run();
    bootstrapAccess(db);
    const names = db
      .select({ name: permissions.name })
      .from(permissions)
      .all()
      .map((p) => p.name);
    expect(names).not.toContain("obsolete.view");
    for (const spec of STARTING_ROLES) for (const permission of spec.permissions) expect(names).toContain(permission);
  });
});
