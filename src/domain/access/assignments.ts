/**
 * Who holds which role in which area. A role can only be held in an area that offers it, and the last holder
 * of the super-administrator role can neither lose it nor be deactivated or barred.
 */
import { and, eq, sql } from "drizzle-orm";
import { areaRoles, areas, assignments, permissions, rolePermissions, roles, users } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { boundNumber } from "../search";
import { cafeOrHeadquarters, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { areaInScope, requireArea } from "./areas";
import { accessProfile, bumpAccessVersion } from "./authorization";
import { scopeValues, type Scope } from "./scope";
import type { UserAssignment } from "../../shared/access/types";
import type { ReadOnlyReason } from "../../shared/access/types";
export type { ReadOnlyReason } from "../../shared/access/types";
export type { UserAssignment } from "../../shared/access/types";

// Asked for every row of the Users page and of the blacklist: prepared once, per scope shape.

const assignmentsOfUser = preparedQuery((db, all: boolean) =>
  db
    .select({ areaId: assignments.areaId, areaName: areas.name, roleId: assignments.roleId, roleName: roles.name })
    .from(assignments)
    .innerJoin(areas, eq(areas.id, assignments.areaId))
    .innerJoin(roles, eq(roles.id, assignments.roleId))
    .where(and(eq(assignments.userId, boundNumber("user")), all ? undefined : areaInScope()))
    .orderBy(areas.name)
    .prepare(),
);

/** The roles a user holds, in the areas within `scope` (another cafe's assignments stay out of sight). */
export function assignmentsOf(db: Db, userId: number, scope: Scope): UserAssignment[] {
  return assignmentsOfUser(db, scope.all).all({ user: userId, ...scopeValues(scope) });
}

const superRoleOf = preparedQuery((db) =>
  db
    .select({ id: roles.id })
    .from(assignments)
    .innerJoin(roles, eq(roles.id, assignments.roleId))
    .where(and(eq(assignments.userId, boundNumber("user")), eq(roles.isSuper, true)))
    .limit(1)
    .prepare(),
);

/** Whether the user holds the super-administrator role anywhere. */
export function isSuperAdministrator(db: Db, userId: number): boolean {
  return superRoleOf(db).get({ user: userId }) !== undefined;
}

// COALESCE: a headquarters area has no cafe_id, and `NOT (NULL IN (…))` is NULL, which would count it as inside.
const areaOutsideScope = preparedQuery((db) =>
  db
    .select({ id: assignments.areaId })
    .from(assignments)
    .innerJoin(areas, eq(areas.id, assignments.areaId))
    .where(and(eq(assignments.userId, boundNumber("user")), sql`NOT COALESCE(${areaInScope()}, 0)`))
    .limit(1)
    .prepare(),
);

const areaInsideScope = preparedQuery((db) =>
  db
    .select({ id: assignments.areaId })
    .from(assignments)
    .innerJoin(areas, eq(areas.id, assignments.areaId))
    .where(and(eq(assignments.userId, boundNumber("user")), areaInScope()))
    .limit(1)
    .prepare(),
);

/** Whether the user holds any role in an area outside `scope`. */
function holdsRoleOutside(db: Db, scope: Scope, userId: number): boolean {
  if (scope.all) return false;
  return areaOutsideScope(db).get({ user: userId, ...scopeValues(scope) }) !== undefined;
}

/**
 * A limited actor changes only people who lie wholly inside their scope: someone who also holds a role elsewhere
 * (or is a super-administrator) is read-only to them, since changing their account, e-mail, password or status
 * would reach places the actor cannot see. Null when the actor may change the user.
 */
export function readOnlyReason(db: Db, scope: Scope, userId: number, isSuper?: boolean): ReadOnlyReason | null {
  if (scope.all) return null;
  if (isSuper ?? isSuperAdministrator(db, userId)) return "super";
  return holdsRoleOutside(db, scope, userId) ? "outside_scope" : null;
}

/** Whether the actor sees the user and may change them: a role inside the actor's places, and none outside (see readOnlyReason). */
export function mayChangeUser(db: Db, scope: Scope, userId: number): boolean {
  if (scope.all) return true;
  const holdsRoleInside = areaInsideScope(db).get({ user: userId, ...scopeValues(scope) }) !== undefined;
  return holdsRoleInside && readOnlyReason(db, scope, userId) === null;
}

/** Throws Forbidden unless the actor may change the user (see readOnlyReason). */
export function ensureMayManage(db: Db, scope: Scope, userId: number): void {
  if (readOnlyReason(db, scope, userId) !== null) throw new Forbidden();
}

function superHolders(db: Tx): number[] {
  return (db as Db)
    .select({ userId: assignments.userId })
    .from(assignments)
    .innerJoin(roles, eq(roles.id, assignments.roleId))
    .innerJoin(users, eq(users.id, assignments.userId))
    .where(and(eq(roles.isSuper, true), eq(users.status, "active")))
    .all()
    .map((r) => r.userId);
}

/** Throws when `userId` is the last active super-administrator (they would lock everyone out). */
export function ensureNotLastSuper(db: Tx, userId: number): void {
  const holders = [...new Set(superHolders(db))];
  if (holders.length === 1 && holders[0] === userId) throw new Conflict(message("access.last_super"));
}

function holdsSuperOnlyIn(db: Db, userId: number, areaId: number): boolean {
  const rows = db
    .select({ areaId: assignments.areaId, isSuper: roles.isSuper })
    .from(assignments)
    .innerJoin(roles, eq(roles.id, assignments.roleId))
    .where(eq(assignments.userId, userId))
    .all();
  const superAreas = rows.filter((r) => r.isSuper).map((r) => r.areaId);
  return superAreas.length === 1 && superAreas[0] === areaId;
}

/**
 * A limited actor gives only roles whose every permission they hold themselves (in effect, see accessProfile), so
 * no one widens their own or anyone's rights by creating an area that offers a bigger role and assigning it.
 */
function ensureMayGrant(db: Db, actor: Actor, scope: Scope, roleId: number): void {
  if (scope.all || actor.userId === null) return;
  const held = accessProfile(db, actor.userId).permissions;
  const granted = db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId))
    .all();
  if (granted.some((p) => !held.has(p.name)))
    throw new ValidationFailed({ role_id: message("access.role_beyond_yours") });
}

/** Gives `userId` role `roleId` in area `areaId` (replacing the role they held there). */
export function assignRole(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: { userId: number; areaId: number; roleId: number },
): void {
  const area = requireArea(db, scope, input.areaId);
  const user = db.select().from(users).where(eq(users.id, input.userId)).get();
  if (!user) throw new NotFound();
  ensureMayManage(db, scope, user.id);
  const offered = db
    .select()
    .from(areaRoles)
    .where(and(eq(areaRoles.areaId, area.id), eq(areaRoles.roleId, input.roleId)))
    .get();
  if (!offered) throw new ValidationFailed({ role_id: message("access.role_not_offered") });
  const role = db.select().from(roles).where(eq(roles.id, input.roleId)).get();
  // Only a super-administrator may make another one.
  if (role?.isSuper && !scope.all) throw new Forbidden();
  ensureMayGrant(db, actor, scope, input.roleId);
  const current = db
    .select()
    .from(assignments)
    .where(and(eq(assignments.userId, user.id), eq(assignments.areaId, area.id)))
    .get();
  if (current?.roleId === input.roleId) return;
  db.transaction((tx) => {
    if (current && holdsSuperOnlyIn(db, user.id, area.id)) {
      const newRole = tx.select().from(roles).where(eq(roles.id, input.roleId)).get();
      if (!newRole?.isSuper) ensureNotLastSuper(tx, user.id);
    }
    tx.insert(assignments)
      .values({ userId: user.id, areaId: area.id, roleId: input.roleId })
      .onConflictDoUpdate({ target: [assignments.userId, assignments.areaId], set: { roleId: input.roleId } })
      .run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "user.role_assigned",
      subjectType: "user",
      subjectId: user.id,
      places: [cafeOrHeadquarters(area)],
      before: current ? { areaId: area.id, roleId: current.roleId } : null,
      after: { areaId: area.id, roleId: input.roleId },
    });
  });
}

/** Takes away the role a user holds in an area. */
export function removeAssignment(db: Db, actor: Actor, scope: Scope, userId: number, areaId: number): void {
  const area = requireArea(db, scope, areaId);
  const current = db
    .select()
    .from(assignments)
    .where(and(eq(assignments.userId, userId), eq(assignments.areaId, area.id)))
    .get();
  if (!current) throw new NotFound();
  ensureMayManage(db, scope, userId);
  db.transaction((tx) => {
    if (holdsSuperOnlyIn(db, userId, area.id)) ensureNotLastSuper(tx, userId);
    tx.delete(assignments)
      .where(and(eq(assignments.userId, userId), eq(assignments.areaId, area.id)))
      .run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "user.role_removed",
      subjectType: "user",
      subjectId: userId,
      places: [cafeOrHeadquarters(area)],
      before: { areaId: area.id, roleId: current.roleId },
    });
  });
}
