/**
 * What the menu pages share (Structures, Schedule, Display, What to buy): the tab bar between them, which shows a page
 * only when its route exists and the viewer may open it, and the cafe a page is about (`?cafe=ID`, else the one last
 * opened on a menu page, else the first of the viewer's cafes). Every menu page and write checks the cafe's scope
 * through the domain as well.
 */
import { can } from "../domain/access/authorization";
import { menuCafes, type MenuCafe } from "../domain/menu/structures";
import type { RequestContext } from "./context";
import type { RouteName } from "./routing";
import type { MenuTab } from "../shared/menu/types";
export type { MenuTab } from "../shared/menu/types";

const TABS: MenuTab[] = [
  { id: "structures", route: "menu.structures", label: "menu.tabs.structures" },
  { id: "schedule", route: "menu.schedule", label: "menu.tabs.schedule" },
  { id: "display", route: "menu.display", label: "menu.tabs.display" },
  { id: "requirements", route: "menu.requirements", label: "menu.tabs.requirements" },
];

/** The menu pages the viewer may open, in order: a page whose route is not in the registry is left out. */
export function menuTabs(ctx: RequestContext): MenuTab[] {
  return TABS.filter((tab) => {
    const route = ctx.services.routes.find((r) => r.name === tab.route && r.methods.includes("GET"));
    if (!route) return false;
    if (route.access.kind === "permission") return can(ctx.access, route.access.permission);
    return route.access.kind === "signed-in" || route.access.kind === "public";
  });
}

/** The session key of the cafe last opened on a menu page: the next menu page opens on it. */
const LAST_MENU_CAFE_KEY = "menu_cafe";

/**
 * The viewer's cafes and the one the page is about: `?cafe=ID` when it is one of them, else the last one opened on a
 * menu page, else the first. `cafe` is null for a viewer without cafes.
 */
export function menuCafeChoice(ctx: RequestContext): { cafes: MenuCafe[]; cafe: MenuCafe | null } {
  const cafes = menuCafes(ctx.db, ctx.scope);
  const asked = Number(ctx.query.cafe);
  const remembered = ctx.session.get<number>(LAST_MENU_CAFE_KEY);
  let cafe: MenuCafe | null = null;
  for (const candidate of [asked, remembered]) {
    if (!Number.isInteger(candidate)) continue;
    cafe = cafes.find((c) => c.id === candidate) ?? null;
    if (cafe) break;
  }
  cafe ??= cafes[0] ?? null;
  if (cafe && remembered !== cafe.id) ctx.session.put(LAST_MENU_CAFE_KEY, cafe.id);
  return { cafes, cafe };
}

/** A route name for a tab, for the compiler where it is known. */
export type MenuRouteName = Extract<RouteName, `menu.${string}`>;
