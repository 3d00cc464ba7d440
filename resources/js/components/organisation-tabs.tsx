/** The tab bar of the Businesses area: one link per page the user may open, the current one marked. */
import { Link } from "@inertiajs/react";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";
import { cn } from "../lib/utils";
import type { RouteName } from "../../../src/http/routing";

export interface OrganisationTab {
  id: "businesses" | "headquarters" | "properties" | "dealerships" | "subdealerships";
  route: RouteName;
  label: string;
}

export function OrganisationTabs({ tabs, current }: { tabs: OrganisationTab[]; current: OrganisationTab["id"] }) {
  const { t } = useI18n();
  const route = useRoute();
  return (
    <nav aria-label={t("organisation.tabs")} className="inline-flex flex-wrap gap-1 rounded-lg bg-muted p-1">
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          href={route(tab.route)}
          aria-current={tab.id === current ? "page" : undefined}
          className={cn(
            "rounded-md px-3 py-1.5 text-sm",
            tab.id === current ? "bg-card shadow-sm" : "text-muted-foreground hover:text-foreground",
          )}
        >
          {t(tab.label)}
        </Link>
      ))}
    </nav>
  );
}
