/**
 * The sidebar: the dashboard for every signed-in user, then one entry per area of the product whose permission
 * the user holds (label, icon and order come from the permission catalogue, editable by administrators).
 */
import { can, type AccessProfile } from "../domain/access/authorization";
import { sidebarPermissions } from "../domain/access/catalogue";
import { isPermissionName } from "../shared/access/permissions";
import type { RequestContext } from "./context";
import type { RouteDefinition } from "./routing";

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

/** The names of a route registry, gathered once per registry. */
const registeredNames = new WeakMap<RouteDefinition[], Set<string>>();

/**
 * A user's entries, kept per access profile: a profile is replaced when anything about access changes (the
 * access version, which editing a sidebar entry also bumps), so an entry list kept with it is never stale.
 */
const entriesByProfile = new WeakMap<AccessProfile, { routes: RouteDefinition[]; entries: NavigationEntry[] }>();

export function navigationFor(ctx: RequestContext): NavigationEntry[] {
  if (!ctx.user || !ctx.user.emailVerifiedAt) return [];
  const profile = ctx.access;
  const routes = ctx.services.routes;
  const kept = entriesByProfile.get(profile);
  if (kept && kept.routes === routes) return kept.entries;
  let registered = registeredNames.get(routes);
  if (!registered) registeredNames.set(routes, (registered = new Set(routes.map((r) => r.name))));
  const entries = [DASHBOARD];
  for (const entry of sidebarPermissions(ctx.db)) {
    if (registered.has(entry.route) && isPermissionName(entry.permission) && can(profile, entry.permission))
      entries.push({ route: entry.route, label: entry.label, icon: entry.icon, order: entry.order });
  }
  entries.sort((a, b) => a.order - b.order);
  entriesByProfile.set(profile, { routes, entries });
  return entries;
}
