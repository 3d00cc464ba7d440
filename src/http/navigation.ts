/**
 * The sidebar: one entry per area of the product that exists, shown only to those who may open it.
 * An area appears here when its index route is registered; entries are added as areas are built.
 */
import type { RequestContext } from "./context";
import { isAllowed } from "./middleware/access";

export interface NavigationEntry {
  /** Route name the entry opens. */
  route: string;
  /** Translation key of its label. */
  label: string;
  /** lucide icon name. */
  icon: string;
  order: number;
}

/** Areas of the sidebar, in order; an entry whose route is not registered is skipped. */
export const NAVIGATION: NavigationEntry[] = [{ route: "dashboard", label: "nav.dashboard", icon: "layout-grid", order: 0 }];

export function navigationFor(ctx: RequestContext): NavigationEntry[] {
  const byName = new Map(ctx.services.routes.map((r) => [r.name, r]));
  return NAVIGATION.filter((entry) => {
    const route = byName.get(entry.route);
    return route !== undefined && isAllowed(route.access, ctx);
  }).sort((a, b) => a.order - b.order);
}
