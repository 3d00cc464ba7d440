/**
 * Administering users: browsing them by place and area, creating them with a role in an area (invited by e-mail
 * or with a first password), editing, deactivating and reactivating. Every change is audited; every list and
 * write is limited to the actor's scope.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { areas, assignments, auditLog, permissions, rolePermissions, sessions, users } from "../../../db/schema";
import type { Config } from "../../config";
import { randomToken } from "../../crypto";
import { preparedQuery, type Db } from "../../db";
import { createUser, findUserByEmail, normalizeEmail, type User } from "../accounts/users";
import { placesOfArea, placesOfUser, recordAudit, type Actor } from "../audit";
import { NO_EVENTS, type Publisher } from "../events";
import {
  boundNumber,
  boundText,
  idList,
  inIdList,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
} from "../search";
import { NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { DocumentSettings } from "../../shared/documents";
import { documentFields, field, parseWithDocument, t } from "../validation";
import { areaInScope, areaScopeCondition, requireArea } from "./areas";
import {
  assignmentsOf,
  assignRole,
  ensureMayManage,
  ensureNotLastSuper,
  isSuperAdministrator,
  readOnlyReason,
} from "./assignments";
import { emailLookalike } from "../accounts/email-address";
import { isDocumentBlacklisted } from "./blacklist";
import { accessProfile, bumpAccessVersion } from "./authorization";
import { isCompanyWide } from "../../shared/access/permissions";
import { scopeValues, type Scope } from "./scope";
import type { AdminUserRow } from "../../shared/access/types";
export type { AdminUserRow } from "../../shared/access/types";

const usersInScope = preparedQuery((db) =>
  db
    .selectDistinct({ id: assignments.userId })
    .from(assignments)
    .innerJoin(areas, eq(areas.id, assignments.areaId))
    .where(areaInScope())
    .prepare(),
);

/** Users the actor may see: everyone for a super-administrator, otherwise those holding a role in the actor's areas. */
function visibleUserIds(db: Db, scope: Scope): number[] | "all" {
  if (scope.all) return "all";
  return usersInScope(db)
    .all(scopeValues(scope))
    .map((r) => r.id);
}

/** A user within the actor's scope (outside it looks the same as missing). */
export function requireVisibleUser(db: Db, scope: Scope, id: number): User {
  const visible = visibleUserIds(db, scope);
  if (visible !== "all" && !visible.includes(id)) throw new NotFound();
  const user = db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw new NotFound();
  return user;
}

export function toAdminRow(db: Db, scope: Scope, user: User): AdminUserRow {
  const isSuper = isSuperAdministrator(db, user.id);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    documentType: user.documentType,
    documentNumber: user.documentNumber,
    language: user.language,
    status: user.status,
    emailVerified: user.emailVerifiedAt !== null,
    emailLookalike: emailLookalike(user.email),
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    assignments: assignmentsOf(db, user.id, scope),
    isSuper,
    readOnly: readOnlyReason(db, scope, user.id, isSuper),
  };
}

/**
 * What a user may do within the actor's places: the roles they hold there and the permissions those roles give
 * (a company-wide permission only from a headquarters area). Roles held elsewhere stay out of sight, as on the row.
 */
export function accessWithinScope(
  db: Db,
  scope: Scope,
  userId: number,
): { isSuper: boolean; roles: string[]; permissions: string[] } {
  if (scope.all) {
    const profile = accessProfile(db, userId);
    return { isSuper: profile.isSuper, roles: profile.roles, permissions: [...profile.permissions].sort() };
  }
  const held = assignmentsOf(db, userId, scope);
  const roleIds = [...new Set(held.map((a) => a.roleId))];
  const atHeadquarters = new Set(
    db
      .select({ roleId: assignments.roleId })
      .from(assignments)
      .innerJoin(areas, eq(areas.id, assignments.areaId))
      .where(and(eq(assignments.userId, userId), areaScopeCondition(scope), sql`${areas.headquartersId} IS NOT NULL`))
      .all()
      .map((r) => r.roleId),
  );
  const rows = roleIds.length
    ? db
        .select({ roleId: rolePermissions.roleId, name: permissions.name })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(inArray(rolePermissions.roleId, roleIds))
        .all()
    : [];
  const granted = new Set(
    rows.filter((r) => !isCompanyWide(r.name) || atHeadquarters.has(r.roleId)).map((r) => r.name),
  );
  return {
    isSuper: isSuperAdministrator(db, userId),
    roles: [...new Set(held.map((a) => a.roleName))].sort(),
    permissions: [...granted].sort(),
  };
}

export interface UserListFilter {
  search?: string;
  areaId?: number;
  status?: "active" | "deactivated";
  page: number;
  perPage: number;
}

type UserListShape = [all: boolean, searched: boolean, byStatus: boolean, byArea: boolean];

/** The prepared list's condition; the shape says which parts it has (their values are bound by listUsersForAdmin). */
function userListCondition(...[all, searched, byStatus, byArea]: UserListShape): SQL | undefined {
  return and(
    all ? undefined : inIdList(users.id, "visible"),
    searched ? searchMatch([users.name, users.email, users.documentNumber]) : undefined,
    byStatus ? eq(users.status, boundText("status")) : undefined,
    byArea ? sql`${users.id} IN (SELECT user_id FROM assignments WHERE area_id = ${boundNumber("area")})` : undefined,
  );
}

const countUsers = preparedQuery((db, ...shape: UserListShape) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(userListCondition(...shape))
    .prepare(),
);

const usersPage = preparedQuery((db, ...shape: UserListShape) =>
  db
    .select()
    .from(users)
    .where(userListCondition(...shape))
    .orderBy(users.name)
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

export function listUsersForAdmin(db: Db, scope: Scope, filter: UserListFilter): ListResult<AdminUserRow> {
  const visible = visibleUserIds(db, scope);
  if (visible !== "all" && visible.length === 0) return { rows: [], total: 0, page: 1 };
  // An area outside the scope filters nothing in: its members stay out of sight.
  if (filter.areaId) requireArea(db, scope, filter.areaId);
  const search = searchPattern(filter.search);
  const shape: UserListShape = [visible === "all", search !== null, Boolean(filter.status), Boolean(filter.areaId)];
  const values = {
    visible: visible === "all" ? null : idList(visible),
    search,
    status: filter.status ?? null,
    area: filter.areaId ?? null,
  };
  const found = readList(
    filter,
    () => countUsers(db, ...shape).get(values)?.n ?? 0,
    (window) => usersPage(db, ...shape).all({ ...values, ...window }),
  );
  return { ...found, rows: found.rows.map((u) => toAdminRow(db, scope, u)) };
}

export const AdminUserInput = t.Object({
  name: field.text(1, 120),
  email: field.email(),
  ...documentFields({ optional: true }),
  language: t.Optional(t.Union([t.Literal("es"), t.Literal("en"), t.Null()])),
  area_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  role_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  /** "invite": a link to choose a password is mailed; "password": the administrator sets the first password. */
  access: t.Optional(t.Union([t.Literal("invite"), t.Literal("password")])),
  password: t.Optional(t.String({ maxLength: 200 })),
});

/**
 * Creates a user with a role in an area. Returns the user and whether an invitation must be mailed (the caller
 * sends it, with a token from createInvitationToken).
 */
export async function createUserByAdmin(
  db: Db,
  config: Config,
  actor: Actor,
  scope: Scope,
  input: unknown,
): Promise<{ user: User; invite: boolean }> {
  const { data, document } = parseWithDocument(AdminUserInput, input, config, ["password"]);
  if (!data.area_id) throw new ValidationFailed({ area_id: message("validation.required") });
  if (!data.role_id) throw new ValidationFailed({ role_id: message("validation.required") });
  requireArea(db, scope, data.area_id);
  const invite = (data.access ?? "invite") === "invite";
  if (!invite && !data.password) throw new ValidationFailed({ password: message("validation.required") });
  // An invited user chooses a password through the mailed link; until then the account has an unusable random one.
  const password = invite ? `${randomToken(24)}Aa1!` : data.password!;
  const user = await createUser(
    db,
    config,
    {
      name: data.name,
      email: data.email,
      password,
      language: data.language ?? undefined,
      document_type: document?.type,
      document_number: document?.number,
    },
    { verified: !invite },
  );
  // The account's place is the area it is created in (the role there follows at once).
  recordAudit(db, actor, {
    action: "user.created",
    subjectType: "user",
    subjectId: user.id,
    places: placesOfArea(db, data.area_id),
    after: {
      name: user.name,
      email: user.email,
      documentType: user.documentType,
      documentNumber: user.documentNumber,
      invited: invite,
    },
  });
  try {
    assignRole(db, actor, scope, { userId: user.id, areaId: data.area_id, roleId: data.role_id });
  } catch (error) {
    // No user without the role they were created for (the audit row goes with them).
    db.delete(auditLog)
      .where(and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, user.id)))
      .run();
    db.delete(users).where(eq(users.id, user.id)).run();
    throw error;
  }
  return { user, invite };
}

export const AdminUserUpdate = t.Object({
  name: field.text(1, 120),
  email: field.email(),
  ...documentFields({ optional: true }),
  language: t.Optional(t.Union([t.Literal("es"), t.Literal("en"), t.Null()])),
});

/** Changes a user's name, e-mail, document (checked by its type, the DNI length from `settings`) and language. */
export function updateUserByAdmin(
  db: Db,
  actor: Actor,
  scope: Scope,
  userId: number,
  input: unknown,
  settings: DocumentSettings,
): User {
  const user = requireVisibleUser(db, scope, userId);
  ensureMayManage(db, scope, user.id);
  const { data, document } = parseWithDocument(AdminUserUpdate, input, settings);
  const email = normalizeEmail(data.email);
  const other = findUserByEmail(db, email);
  if (other && other.id !== user.id) throw new ValidationFailed({ email: message("validation.email_taken") });
  const before = {
    name: user.name,
    email: user.email,
    documentType: user.documentType,
    documentNumber: user.documentNumber,
    language: user.language,
  };
  const after = {
    name: data.name,
    email,
    documentType: document?.type ?? null,
    documentNumber: document?.number ?? null,
    language: data.language ?? null,
  };
  const documentChanged = after.documentType !== user.documentType || after.documentNumber !== user.documentNumber;
  const barred = document !== null && documentChanged && isDocumentBlacklisted(db, document) !== undefined;
  return db.transaction((tx) => {
    // A document on the blacklist bars the account: the same rules as adding it to the blacklist.
    if (barred) {
      ensureNotLastSuper(tx, user.id);
      tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
    }
    const updated = tx
      .update(users)
      .set({ ...after, emailVerifiedAt: email === user.email ? user.emailVerifiedAt : null, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning()
      .get();
    // The document decides blacklist matches.
    if (documentChanged) bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "user.updated",
      subjectType: "user",
      subjectId: user.id,
      places: placesOfUser(tx, user.id),
      before,
      after,
    });
    return updated;
  });
}

/**
 * Deactivates or reactivates a user. Deactivation ends their sessions and remember-me sign-in in the same
 * transaction, then publishes UserDeactivated to `events` (the web's or the command line's publisher), whose
 * subscribers sign the person out in their open tabs and close their realtime connections. Nothing is published
 * when nothing changed or the transaction failed.
 */
export function setUserStatus(
  db: Db,
  actor: Actor,
  scope: Scope,
  userId: number,
  status: "active" | "deactivated",
  events: Publisher = NO_EVENTS,
): User {
  const user = requireVisibleUser(db, scope, userId);
  ensureMayManage(db, scope, user.id);
  if (user.status === status) return user;
  const changed = db.transaction((tx) => {
    if (status === "deactivated") ensureNotLastSuper(tx, user.id);
    const updated = tx
      .update(users)
      .set({
        status,
        rememberTokenHash: status === "deactivated" ? null : user.rememberTokenHash,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning()
      .get();
    if (status === "deactivated") tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: status === "deactivated" ? "user.deactivated" : "user.reactivated",
      subjectType: "user",
      subjectId: user.id,
      places: placesOfUser(tx, user.id),
      before: { status: user.status },
      after: { status },
    });
    return updated;
  });
  // Committed.
  if (status === "deactivated") events.publish({ name: "UserDeactivated", userId: user.id });
  return changed;
}
