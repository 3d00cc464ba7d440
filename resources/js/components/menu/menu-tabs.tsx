/**
 * The tab bar of the menu area (Structures, Schedule, Display, What to buy): one link per page whose route exists and
 * the user may open (the server sends only those, src/http/menu-pages.ts). A tab whose route the browser's route list
 * lacks is left out too. The cafe being looked at travels with the links.
 */
import { Link, usePage } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { useRouteByName } from "../../hooks/use-route";
import type { SharedProps } from "../../types";
import { tabLinkClasses } from "../ui/tabs";
import type { MenuTab } from "./structure-types";

export function MenuTabs({
  tabs,
  current,
  cafeId,
}: {
  tabs: MenuTab[];
  current: MenuTab["id"];
  cafeId?: number | null;
}) {
  const { t } = useI18n();
  const routeByName = useRouteByName();
  const { ziggy } = usePage<SharedProps>().props;
  const shown = tabs.filter((tab) => Object.hasOwn(ziggy.routes, tab.route));
  if (shown.length < 2) return null;
  return (
    <nav aria-label={t("menu.tabs.label")} className={tabLinkClasses.list}>
      {shown.map((tab) => (
        <Link
          key={tab.id}
          href={routeByName(tab.route, cafeId ? { cafe: cafeId } : undefined)}
          aria-current={tab.id === current ? "page" : undefined}
          className={tabLinkClasses.link}
        >
          {t(tab.label)}
        </Link>
      ))}
    </nav>
  );
}
