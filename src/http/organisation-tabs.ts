/**
 * The tabs of the Businesses area (businesses, headquarters, properties): each tab is its own page and route; a tab
 * shows only when the user may open its page. Dealerships and subdealerships have their own page (the sidebar's
 * Dealerships entry), so they are not tabs here.
 */
import { can } from "../domain/access/authorization";
import type { PermissionName } from "../shared/access/permissions";
import type { RequestContext } from "./context";
import type { RouteName } from "./routing";
import type { TranslationKey } from "../shared/i18n";

export interface OrganisationTab {
  id: "businesses" | "headquarters" | "properties";
  route: RouteName;
  label: TranslationKey;
}

const TABS: (OrganisationTab & { permission: PermissionName })[] = [
  { id: "businesses", route: "businesses.index", label: "organisation.tab_businesses", permission: "businesses.view" },
  {
    id: "headquarters",
    route: "headquarters.index",
    label: "organisation.tab_headquarters",
    permission: "businesses.view",
  },
  { id: "properties", route: "properties.index", label: "organisation.tab_properties", permission: "properties.view" },
];

/** The tabs the signed-in user may open, in order (a page prop of every Businesses-area page). */
export function organisationTabs(ctx: RequestContext): OrganisationTab[] {
  return TABS.filter((tab) => can(ctx.access, tab.permission)).map(({ id, route, label }) => ({ id, route, label }));
}
