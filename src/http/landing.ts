/**
 * The first page after sign-in: the page of the one job a person's permissions say they do, else the dashboard.
 * Decided by permissions, never by role names, so a role an administrator makes lands somewhere sensible too.
 *
 * Each permission that lets one do something (not only see it) belongs to a desk:
 * - the till: selling, registering diners and one's cash shift at the point of sale (`sales.create`,
 *   `diners.manage`, `shifts.open`) → Dinners;
 * - the kitchen: dishes, recipes and the menu (`food.manage`, `menu.manage`, `menu.publish`) → the meal schedule
 *   for someone who plans menus, else the Food page;
 * - buying: providers and offers (`logistics.manage`) → What to buy for someone who may see the menus, else the
 *   Providers page;
 * - the office: every other permission that does something (users, roles, places, prices, voiding any sale,
 *   closing a month, importing diners, display links…), and the audit.
 *
 * Someone at one desk only (a cashier, a nutritionist, a buyer) lands on its page; someone at the office or at
 * several desks (a cafe manager sells, fixes prices and imports diners; an administrator does everything), or at
 * none (a new account, someone who only reads), lands on the dashboard. A page whose route is missing or closed to
 * the person falls back to the dashboard. The page someone asked for before being sent to sign in always wins
 * (routes/auth.ts).
 */
import { can } from "../domain/access/authorization";
import { PERMISSION_NAMES, type PermissionName } from "../shared/access/permissions";
import type { RequestContext } from "./context";
import { isAllowed } from "./middleware/access";
import type { RouteName } from "./routing";

type Desk = "till" | "kitchen" | "buying" | "office";

const DESK_OF: Partial<Record<PermissionName, Desk>> = {
  "sales.create": "till",
  "diners.manage": "till",
  "shifts.open": "till",
  "food.manage": "kitchen",
  "menu.manage": "kitchen",
  "menu.publish": "kitchen",
  "logistics.manage": "buying",
};

/** Permissions that only let one see: they say nothing about one's desk (the audit is the office's). */
function onlyReads(permission: PermissionName): boolean {
  return permission.endsWith(".view") && permission !== "audit.view";
}

/** Where each desk works, best first: the first page the person may open is theirs. */
const PAGES: Record<Exclude<Desk, "office">, (ctx: RequestContext) => RouteName[]> = {
  till: () => ["dinners.index"],
  kitchen: (ctx) =>
    can(ctx.access, "menu.manage") ? ["menu.schedule", "food.index"] : ["food.index", "menu.schedule"],
  buying: () => ["menu.requirements", "providers.index"],
};

/** The desks of the signed-in person's permissions. */
export function desksOf(ctx: RequestContext): Set<Desk> {
  const desks = new Set<Desk>();
  for (const permission of PERMISSION_NAMES)
    if (!onlyReads(permission) && can(ctx.access, permission)) desks.add(DESK_OF[permission] ?? "office");
  return desks;
}

/** The path the signed-in person lands on after signing in (see the top of this file). */
export function landingPath(ctx: RequestContext): string {
  const dashboard = ctx.urlFor("dashboard");
  if (!ctx.user) return dashboard;
  const desks = desksOf(ctx);
  if (desks.size !== 1 || desks.has("office")) return dashboard;
  const [desk] = desks as Set<Exclude<Desk, "office">>;
  for (const name of PAGES[desk](ctx)) {
    const route = ctx.services.routes.find((r) => r.name === name && r.methods.includes("GET"));
    if (route && isAllowed(route.access, ctx)) return ctx.urlFor(name);
  }
  return dashboard;
}
