/** The tab bar of the Businesses area: one link per page the user may open, the current one marked. */
import { Link } from "@inertiajs/react";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";
import { tabLinkClasses } from "./ui/tabs";
import type { RouteName } from "../../../src/shared/routes.generated";
import type { TranslationKey } from "../../../src/shared/i18n";

export interface OrganisationTab {
  id: "businesses" | "headquarters" | "properties";
  route: RouteName;
  label: TranslationKey;
}

export function OrganisationTabs({ tabs, current }: { tabs: OrganisationTab[]; current: OrganisationTab["id"] }) {
  const { t } = useI18n();
  const route = useRoute();
  return (
    <nav aria-label={t("organisation.tabs")} className={tabLinkClasses.list}>
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          href={route(tab.route)}
          aria-current={tab.id === current ? "page" : undefined}
          className={tabLinkClasses.link}
        >
          {t(tab.label)}
        </Link>
      ))}
    </nav>
  );
}
