import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DOCUMENT_TYPES } from "../../src/shared/documents";
import { cafes, headquarters } from "./places";
import { users } from "./users";

/**
 * Access control. Permissions are the rights routes declare; roles bundle permissions; an area belongs to
 * exactly one cafe or one headquarters and offers some roles; a user holds one role in an area.
 */
export const permissions = sqliteTable("permissions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The name routes declare, e.g. "users.manage". */
  name: text("name").notNull().unique(),
  /** The product area it belongs to (groups permissions in the role modal), e.g. "users". */
  area: text("area").notNull(),
  /** Sidebar entry of this permission's area, when it opens one: the page (route name), label, icon, order. */
  routeName: text("route_name"),
  sidebarLabel: text("sidebar_label"),
  icon: text("icon"),
  sortOrder: integer("sort_order").notNull().default(100),
});

export const roles = sqliteTable("roles", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  description: text("description").notNull().default(""),
  /** The built-in super-administrator: every permission, everywhere. */
  isSuper: integer("is_super", { mode: "boolean" }).notNull().default(false),
});

export const rolePermissions = sqliteTable(
  "role_permissions",
  {
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    permissionId: integer("permission_id")
      .notNull()
      .references(() => permissions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

export const areas = sqliteTable(
  "areas",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    cafeId: integer("cafe_id").references(() => cafes.id, { onDelete: "restrict" }),
    headquartersId: integer("headquarters_id").references(() => headquarters.id, { onDelete: "restrict" }),
  },
  (t) => [
    check("areas_one_place", sql`(${t.cafeId} IS NULL) <> (${t.headquartersId} IS NULL)`),
    uniqueIndex("areas_cafe_name_unique").on(t.cafeId, t.name),
    uniqueIndex("areas_headquarters_name_unique").on(t.headquartersId, t.name),
  ],
);

/** The roles an area offers. */
export const areaRoles = sqliteTable(
  "area_roles",
  {
    areaId: integer("area_id")
      .notNull()
      .references(() => areas.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.areaId, t.roleId] })],
);

/** User U holds role R in area A (one role per user and area). */
export const assignments = sqliteTable(
  "assignments",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    areaId: integer("area_id")
      .notNull()
      .references(() => areas.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "restrict" }),
  },
  // By area too: members per area, and people of the areas in a scope (bench:pages found area lists scanning the table).
  (t) => [
    primaryKey({ columns: [t.userId, t.areaId] }),
    index("assignments_role_index").on(t.roleId),
    index("assignments_area_index").on(t.areaId),
  ],
);

/**
 * People barred by document (type and number, one entry per document): they cannot be sold meals, and a linked
 * user cannot sign in.
 */
export const blacklist = sqliteTable(
  "blacklist",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentType: text("document_type", { enum: DOCUMENT_TYPES }).notNull(),
    documentNumber: text("document_number").notNull(),
    name: text("name").notNull(),
    reason: text("reason").notNull(),
    /** Folded copies of name and reason that searches compare (see db/schema/folded.ts). */
    nameFolded: text("name_folded"),
    reasonFolded: text("reason_folded"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("blacklist_document_unique").on(t.documentType, t.documentNumber),
    check("blacklist_document_type_check", sql`${t.documentType} IN ('dni', 'ce', 'pas')`),
  ],
);

/** Who changed what and when, with the values before and after. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** "cli" when the change came from the command line. */
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id"),
    before: text("before"),
    after: text("after"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("audit_subject_index").on(t.subjectType, t.subjectId), index("audit_created_index").on(t.createdAt)],
);

export const AUDIT_PLACE_KINDS = ["cafe", "headquarters", "unit", "mine", "business"] as const;
export type AuditPlaceKind = (typeof AUDIT_PLACE_KINDS)[number];

/**
 * The places an audit entry is about, written with the entry: the audit shows it only to viewers whose scope holds
 * every one of them. An entry without places is about company-wide data. No foreign key to the places: the entry
 * keeps the place of something deleted since. The table is WITHOUT ROWID (migration 0020; drizzle has no word for
 * it): it is its primary key.
 */
export const auditPlaces = sqliteTable(
  "audit_places",
  {
    auditId: integer("audit_id")
      .notNull()
      .references(() => auditLog.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: AUDIT_PLACE_KINDS }).notNull(),
    placeId: integer("place_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.auditId, t.kind, t.placeId] }),
    index("audit_places_place_index").on(t.kind, t.placeId),
    check("audit_places_kind_check", sql`${t.kind} IN ('cafe', 'headquarters', 'unit', 'mine', 'business')`),
  ],
);

/** A counter bumped on every change to roles, permissions, areas or assignments, so cached access is refreshed. */
export const accessVersion = sqliteTable("access_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * Which permission each starting role was given by Mesa itself (src/domain/access/starting-roles.ts), so a permission
 * a later version adds to a starting role is granted to an existing database once, and one an administrator took
 * away is never brought back.
 */
export const startingRoleGrants = sqliteTable(
  "starting_role_grants",
  {
    roleName: text("role_name").notNull(),
    permission: text("permission").notNull(),
    recordedAt: integer("recorded_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleName, t.permission] })],
);
