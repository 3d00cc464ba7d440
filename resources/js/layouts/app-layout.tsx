/**
 * The signed-in frame: the sidebar with the areas the user may open (a sheet opened from the header on a phone), a
 * header, and the page content. Notices (flash messages) float over the page, and confirmations are asked here
 * for every page (ConfirmProvider).
 */
import { Link, router, usePage } from "@inertiajs/react";
import { LogOut, Menu, Settings } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { RealtimeStatus } from "../components/realtime-status";
import { disconnectRealtime, listenFor } from "../lib/realtime";
import { userChannel } from "../../../src/shared/realtime-events";
import { useRealtime } from "../hooks/use-realtime";
import { AppearanceToggle } from "../components/appearance-toggle";
import { FlashMessages } from "../components/flash-messages";
import { LanguageSwitcher } from "../components/language-switcher";
import { NavIcon } from "../components/nav-icon";
import { ConfirmProvider } from "../components/ui/alert-dialog";
import { Sheet } from "../components/ui/sheet";
import { useI18n } from "../hooks/use-i18n";
import { useRoute, useRouteByName } from "../hooks/use-route";
import { cn } from "../lib/utils";
import { InsideMain } from "./main-landmark";
import type { SharedProps } from "../types";

/** The app's name and the navigation: the sidebar's content, and the phone menu's. */
function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const { app, navigation, auth } = usePage<SharedProps>().props;
  const { url } = usePage();
  const { t, tDynamic } = useI18n();
  const route = useRoute();
  const routeByName = useRouteByName();
  const isCurrent = (href: string) => url === href || url.startsWith(`${href}/`) || url.startsWith(`${href}?`);
  const item = (href: string, current: boolean) =>
    cn("flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-accent", current && "bg-accent font-medium");
  return (
    <div className="flex h-full flex-col">
      <Link
        href={route(auth.user ? "dashboard" : "home")}
        className="mb-6 flex items-center gap-2 self-start text-lg font-semibold"
        onClick={onNavigate}
      >
        <img src="/favicon.svg" alt="" className="size-7" />
        {app.name}
      </Link>
      <nav aria-label={t("app.main_navigation")} className="flex flex-1 flex-col justify-between gap-4">
        {navigation.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-areas">
            {t("app.no_areas")}
          </p>
        ) : (
          <ul className="space-y-1">
            {navigation.map((entry) => {
              const href = routeByName(entry.route);
              return (
                <li key={entry.route}>
                  <Link
                    href={href}
                    prefetch
                    aria-current={isCurrent(href) ? "page" : undefined}
                    className={item(href, isCurrent(href))}
                    onClick={onNavigate}
                  >
                    <NavIcon name={entry.icon} className="size-4" />
                    {/* The catalogue's label (editable by administrators): a key, or the label itself. */}
                    {tDynamic(entry.label, entry.label)}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        <Link
          href={route("appearance")}
          prefetch
          aria-current={url.startsWith("/settings") ? "page" : undefined}
          className={item("/settings", url.startsWith("/settings"))}
          onClick={onNavigate}
        >
          <Settings className="size-4" aria-hidden="true" />
          {t("nav.settings")}
        </Link>
      </nav>
    </div>
  );
}

export default function AppLayout({ children }: { children: ReactNode }) {
  const { auth } = usePage<SharedProps>().props;
  const realtime = useRealtime();
  const { t } = useI18n();
  const route = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  const userId = auth.user?.id ?? null;

  // One realtime connection per tab while signed in. When the account is deactivated or blacklisted, the server
  // says so on the user's private channel and every open tab leaves at once.
  useEffect(() => {
    if (userId === null) return;
    const echo = realtime();
    echo.connector.pusher.signin();
    const channel = userChannel(userId);
    listenFor(echo.private(channel), "SessionEnded", () => {
      router.flushAll();
      window.location.assign(route("login"));
    }).error((error: unknown) => console.error(`Realtime: could not join ${channel}`, error));
    // Disconnecting ends every subscription; leaving first would queue an unsubscribe on a closing socket.
    return () => disconnectRealtime();
  }, [userId]);

  // A visit started from anywhere (the back button, a link in the page) closes the phone menu.
  useEffect(() => router.on("start", () => setMenuOpen(false)), []);

  return (
    <ConfirmProvider>
      <div className="flex min-h-screen">
        <a
          href="#content"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-card focus:px-3 focus:py-2"
        >
          {t("app.skip_to_content")}
        </a>
        <aside id="sidebar" className="hidden w-64 shrink-0 border-r bg-sidebar p-4 md:block print:hidden">
          <div className="sticky top-4 h-[calc(100vh-2rem)]">
            <Navigation />
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 items-center justify-between gap-2 border-b px-4 sm:gap-4 print:hidden">
            <div className="md:hidden">
              <Sheet
                open={menuOpen}
                onOpenChange={setMenuOpen}
                title={t("ui.menu")}
                closeLabel={t("ui.close_menu")}
                trigger={
                  <button
                    type="button"
                    className="rounded-md p-2 hover:bg-accent"
                    aria-label={t("ui.open_menu")}
                    data-testid="menu-button"
                  >
                    <Menu className="size-5" aria-hidden="true" />
                  </button>
                }
              >
                <div className="flex h-full flex-col gap-6">
                  <div className="flex-1">
                    <Navigation onNavigate={() => setMenuOpen(false)} />
                  </div>
                  <AppearanceToggle compact />
                </div>
              </Sheet>
            </div>
            <div className="ml-auto flex items-center gap-2 sm:gap-3">
              {auth.user && <RealtimeStatus />}
              <LanguageSwitcher />
              {/* On a phone the theme is chosen in the menu or Settings → Appearance, so the header fits. */}
              <div className={auth.user ? "hidden sm:block" : undefined}>
                <AppearanceToggle compact />
              </div>
              {auth.user ? (
                <div className="flex items-center gap-2 border-l pl-2 sm:pl-3">
                  <span className="hidden max-w-48 truncate text-sm sm:inline" data-testid="user-name">
                    {auth.user.name}
                  </span>
                  <Link
                    href={route("logout")}
                    method="post"
                    as="button"
                    className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm hover:bg-accent"
                  >
                    <LogOut className="size-4" aria-hidden="true" />
                    <span className="sr-only sm:not-sr-only">{t("auth.logout")}</span>
                  </Link>
                </div>
              ) : (
                <Link href={route("login")} className="rounded-md px-2 py-1.5 text-sm text-primary hover:bg-accent">
                  {t("welcome.login")}
                </Link>
              )}
            </div>
          </header>
          <main id="content" className="min-w-0 flex-1 p-4 md:p-8">
            <InsideMain.Provider value={true}>{children}</InsideMain.Provider>
          </main>
        </div>
        <FlashMessages />
      </div>
    </ConfirmProvider>
  );
}
