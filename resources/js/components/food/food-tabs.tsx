/** The tab bar of the food and logistics area (Ingredients, Providers, Logistics): one link per page the user may open. */
import { Link } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { tabLinkClasses } from "../ui/tabs";
import type { FoodTab } from "./types";

export function FoodTabs({ tabs, current }: { tabs: FoodTab[]; current: FoodTab["id"] }) {
  const { t } = useI18n();
  const route = useRoute();
  if (tabs.length < 2) return null;
  return (
    <nav aria-label={t("food.tabs.label")} className={tabLinkClasses.list}>
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
