/** The shapes of access and accounts that pages show: users, roles, areas, places, the blacklist. */
import type { DocumentType } from "../documents";

export interface BlacklistRow {
  id: number;
  documentType: DocumentType;
  documentNumber: string;
  name: string;
  reason: string;
  createdAt: string;
  decidedBy: string | null;
  /** The account it bars; `emailLookalike` flags an address that could pass for another (src/domain/accounts/email-address.ts). */
  user: { id: number; name: string; email: string; emailLookalike: EmailLookalike | null } | null;
  /** Linked to an account the actor may not change (it holds roles outside their places): not named, not removable. */
  outsideScope: boolean;
}

export interface AreaSummary {
  id: number;
  name: string;
  place: { kind: "cafe" | "headquarters"; id: number; name: string; path: string };
  roles: { id: number; name: string }[];
  members: number;
}

export interface UserAssignment {
  areaId: number;
  areaName: string;
  roleId: number;
  roleName: string;
}

export interface PlaceTree {
  mines: { id: number; name: string; units: { id: number; name: string; cafes: { id: number; name: string }[] }[] }[];
  businesses: { id: number; name: string; headquarters: { id: number; name: string }[] }[];
}

export interface RoleSummary {
  id: number;
  name: string;
  description: string;
  isSuper: boolean;
  permissions: string[];
  holders: number;
}

export interface AdminUserRow {
  id: number;
  name: string;
  email: string;
  documentType: DocumentType | null;
  documentNumber: string | null;
  language: "es" | "en" | null;
  status: "active" | "deactivated";
  emailVerified: boolean;
  /** An address stored before Mesa refused look-alikes, that could pass for another (null: it could not). */
  emailLookalike: EmailLookalike | null;
  lastSignInAt: string | null;
  assignments: UserAssignment[];
  /** Holds the super-administrator role: only another super-administrator may change them. */
  isSuper: boolean;
  /** Why the actor may not change this user (null: they may); the page says it instead of offering the actions. */
  readOnly: ReadOnlyReason | null;
}

/** Why an address could pass for another one. */
export type EmailLookalikeProblem = "invisible" | "styled" | "mixed_scripts";

/** A stored address that would be refused today as a lookalike: why, and how it reads with the odd characters shown. */
export interface EmailLookalike {
  problem: EmailLookalikeProblem;
  /** The address with each odd character written as its code point: "⟨U+0430⟩na@mesa.pe". */
  revealed: string;
}

/** Why a user is read-only to an actor: they are a super-administrator, or they hold a role outside the actor's places. */
export type ReadOnlyReason = "super" | "outside_scope";

/** A permission of the catalogue as the database keeps it (the `permissions` table, db/schema/access.ts). */
export interface Permission {
  id: number;
  /** The name routes declare, e.g. "users.manage". */
  name: string;
  /** The product area it belongs to (groups permissions in the role dialog), e.g. "users". */
  area: string;
  /** Sidebar entry of this permission's area, when it opens one: the page (route name), label, icon, order. */
  routeName: string | null;
  sidebarLabel: string | null;
  icon: string | null;
  sortOrder: number;
}
