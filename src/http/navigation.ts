/**
 * The sidebar: the dashboard for every signed-in user, then one entry per area of the product whose permission
 * the user holds (label, icon and order come from the permission catalogue, editable by administrators).
 */
import { can } from "../domain/access/authorization";
import { sidebarPermissions } from "../domain/access/catalogue";
import { isPermissionName } from "../domain/access/permissions";
import type { RequestContext } from "./context";

export interface NavigationEntry {
  /** Route name the entry opens. */
  route: string;
  /** Translation key of its label, or the label itself. */
  label: string;
  /** lucide icon name. */
  icon: string;
  order: number;
}

const DASHBOARD: NavigationEntry = { route: "dashboard", label: "nav.dashboard", icon: "layout-grid", order: 0 };

export function navigationFor(ctx: RequestContext): NavigationEntry[] {
  if (!ctx.user || !ctx.user.emailVerifiedAt) return [];
  const registered = new Set(ctx.services.routes.map((r) => r.name));
  const entries = [DASHBOARD];
  for (const entry of sidebarPermissions(ctx.db)) {
    if (registered.has(entry.route) && isPermissionName(entry.permission) && can(ctx.access, entry.permission))
      entries.push({ route: entry.route, label: entry.label, icon: entry.icon, order: entry.order });
  }
  return entries.sort((a, b) => a.order - b.order);
}
