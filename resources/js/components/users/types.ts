/** The shapes the access-control pages receive: the domain's own types (type-only imports, erased from the bundle). */
export type { UserAssignment as Assignment } from "../../../../src/shared/access/types";
export type { AdminUserRow as AdminUser } from "../../../../src/shared/access/types";
export type { AreaSummary as AreaRow } from "../../../../src/shared/access/types";
export type { RoleSummary as RoleRow } from "../../../../src/shared/access/types";
export type { Permission as PermissionRow } from "../../../../src/shared/access/types";
export type { PlaceTree } from "../../../../src/shared/access/types";
import type { Permission as PermissionRow } from "../../../../src/shared/access/types";

export interface Abilities {
  manageUsers: boolean;
  manageAreas: boolean;
  manageRoles: boolean;
  viewRoles: boolean;
  manageSupers: boolean;
}

/** Groups permissions by their product area, ordered by the groups' headers as people read them (`header`). */
export function byArea(
  permissions: PermissionRow[],
  header: (area: string) => string = (area) => area,
): [string, PermissionRow[]][] {
  const groups = new Map<string, PermissionRow[]>();
  for (const p of permissions) groups.set(p.area, [...(groups.get(p.area) ?? []), p]);
  return [...groups.entries()].sort(([a], [b]) => header(a).localeCompare(header(b)));
}
