/** The public landing page. */
import { Head, Link, usePage } from "@inertiajs/react";
import { ChefHat, MapPinned, ReceiptText, ShieldCheck } from "lucide-react";
import { AppearanceToggle } from "../components/appearance-toggle";
import { LanguageSwitcher } from "../components/language-switcher";
import { buttonClasses } from "../components/ui/button";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";
import type { SharedProps } from "../types";
import { PageHeader } from "../components/ui/page-header";
import { FlashMessages } from "../components/flash-messages";

const FEATURES = [
  { icon: ReceiptText, key: "welcome.features.sales" },
  { icon: MapPinned, key: "welcome.features.places" },
  { icon: ChefHat, key: "welcome.features.food" },
  { icon: ShieldCheck, key: "welcome.features.access" },
] as const;

export default function Welcome({ canRegister }: { canRegister: boolean }) {
  const { t } = useI18n();
  const route = useRoute();
  const { app, auth } = usePage<SharedProps>().props;
  return (
    <div className="min-h-screen">
      <Head title={t("welcome.title")} />
      <header className="mx-auto flex max-w-5xl items-center justify-between gap-4 p-4">
        <span className="flex items-center gap-2 text-lg font-semibold">
          <img src="/favicon.svg" alt="" className="size-7" />
          {app.name}
        </span>
        <div className="flex items-center gap-3">
          <LanguageSwitcher />
          <AppearanceToggle compact />
        </div>
      </header>
      <main id="content" className="mx-auto max-w-5xl px-4 py-16">
        <PageHeader size="large" title={app.name} description={t("app.tagline")} />
        <p className="mt-6 max-w-2xl text-lg">{t("welcome.lead")}</p>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2">
          {FEATURES.map(({ icon: Icon, key }) => (
            <li key={key} className="flex gap-3 rounded-xl border bg-card p-4 text-card-foreground">
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>{t(key)}</span>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-wrap gap-3">
          {auth.user ? (
            <Link href={route("dashboard")} className={buttonClasses("primary")}>
              {t("welcome.dashboard")}
            </Link>
          ) : (
            <>
              <Link href={route("login")} className={buttonClasses("primary")}>
                {t("welcome.login")}
              </Link>
              {canRegister && (
                <Link href={route("register")} className={buttonClasses("outline")}>
                  {t("welcome.register")}
                </Link>
              )}
            </>
          )}
          <Link href={route("appearance")} prefetch className={buttonClasses("ghost")}>
            {t("welcome.open_settings")}
          </Link>
        </div>
      </main>
      <FlashMessages />
    </div>
  );
}
