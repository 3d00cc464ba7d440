/** Settings pages: a heading and a side menu of the settings sections, inside the app layout. */
import { Link, usePage } from "@inertiajs/react";
import type { ReactNode } from "react";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";
import { cn } from "../lib/utils";
import type { SharedProps } from "../types";
import type { RouteName } from "../../../src/shared/routes.generated";
import { PageHeader } from "../components/ui/page-header";
import type { TranslationKey } from "../../../src/shared/i18n";

const ACCOUNT_SECTIONS: { route: RouteName; label: TranslationKey }[] = [
  { route: "profile.edit", label: "settings.nav.profile" },
  { route: "password.edit", label: "settings.nav.password" },
];
const BROWSER_SECTIONS: { route: RouteName; label: TranslationKey }[] = [
  { route: "appearance", label: "settings.nav.appearance" },
  { route: "language.edit", label: "settings.nav.language" },
];

export default function SettingsLayout({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const route = useRoute();
  const { url, props } = usePage<SharedProps>();
  const sections = props.auth.user ? [...ACCOUNT_SECTIONS, ...BROWSER_SECTIONS] : BROWSER_SECTIONS;
  return (
    <div className="space-y-6">
      <PageHeader title={t("settings.title")} description={t("settings.description")} />
      <div className="flex flex-col gap-8 lg:flex-row">
        <nav aria-label={t("settings.title")} className="lg:w-48">
          <ul className="flex flex-wrap gap-1 lg:flex-col">
            {sections.map((section) => {
              const href = route(section.route);
              const current = url === href;
              return (
                <li key={section.route}>
                  <Link
                    href={href}
                    prefetch
                    aria-current={current ? "page" : undefined}
                    className={cn(
                      "block rounded-md px-3 py-2 text-sm hover:bg-accent",
                      current && "bg-accent font-medium",
                    )}
                  >
                    {t(section.label)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <section className="max-w-xl flex-1">{children}</section>
      </div>
    </div>
  );
}
