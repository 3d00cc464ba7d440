/** The shapes the access-control pages receive (see src/http/routes/access.ts). */
export interface Assignment {
  areaId: number;
  areaName: string;
  roleId: number;
  roleName: string;
}

export interface AdminUser {
  id: number;
  name: string;
  email: string;
  documentNumber: string | null;
  language: "es" | "en" | null;
  status: "active" | "deactivated";
  emailVerified: boolean;
  lastSignInAt: string | null;
  assignments: Assignment[];
}

export interface AreaRow {
  id: number;
  name: string;
  place: { kind: "cafe" | "headquarters"; id: number; name: string; path: string };
  roles: { id: number; name: string }[];
  members: number;
}

export interface RoleRow {
  id: number;
  name: string;
  description: string;
  isSuper: boolean;
  permissions: string[];
  holders: number;
}

export interface PermissionRow {
  id: number;
  name: string;
  area: string;
  routeName: string | null;
  sidebarLabel: string | null;
  icon: string | null;
  sortOrder: number;
}

export interface PlaceTree {
  mines: { id: number; name: string; units: { id: number; name: string; cafes: { id: number; name: string }[] }[] }[];
  businesses: { id: number; name: string; headquarters: { id: number; name: string }[] }[];
}

export interface Abilities {
  manageUsers: boolean;
  manageAreas: boolean;
  manageRoles: boolean;
  viewRoles: boolean;
}

/** Groups permissions by their product area, for the role modal and the matrix. */
export function byArea(permissions: PermissionRow[]): [string, PermissionRow[]][] {
  const groups = new Map<string, PermissionRow[]>();
  for (const p of permissions) groups.set(p.area, [...(groups.get(p.area) ?? []), p]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}
