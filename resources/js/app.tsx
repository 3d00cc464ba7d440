/** Browser entry: hydrates the server-rendered page and takes over navigation through the page protocol. */
import { getInitialPageFromDOM, type Page } from "@inertiajs/core";
import { createInertiaApp, http, router } from "@inertiajs/react";
import { encryptHistoryWhereSupported } from "./lib/history";
import { currentSocketId } from "./lib/realtime";
import { installFormChecks } from "./components/ui/form-checks";
import { initializeAppearance } from "./hooks/use-appearance";
import { appTitle, layoutFor, resolvePage } from "./inertia";

initializeAppearance();
// No browser bubble on any form: Mesa's own messages, in the page's language (components/ui/form-checks.ts).
installFormChecks();

// Keep <html lang> in step with the page's language after client-side visits (the server sets it on first load).
// "success" covers visits that stay on the same URL (the language switch); "navigate" covers back and forward.
function followLanguage(page: { props: unknown }): void {
  const locale = (page.props as { locale?: string }).locale;
  if (locale && document.documentElement.lang !== locale) document.documentElement.lang = locale;
}
router.on("success", (event) => followLanguage(event.detail.page));

// Page-protocol requests name this tab's realtime connection, so a broadcast it causes can leave it out.
http.onRequest((config) => {
  const socketId = currentSocketId();
  return socketId ? { ...config, headers: { ...config.headers, "X-Socket-ID": socketId } } : config;
});
router.on("navigate", (event) => followLanguage(event.detail.page));

// Pages that show document numbers are kept encrypted in the tab's history where the browser can (lib/history.ts):
// the first page here, every later one (visits, reloads, prefetches) just before the client stores it.
router.on("beforeUpdate", (event) => encryptHistoryWhereSupported(event.detail.page));
const firstPage = getInitialPageFromDOM<Page>("app");

// With no `setup`, the client hydrates #app when the server rendered it (data-server-rendered) and mounts otherwise.
createInertiaApp({
  title: appTitle,
  resolve: resolvePage,
  layout: (name) => layoutFor(name),
  progress: { color: "#4B5563", delay: 250 },
  ...(firstPage ? { page: encryptHistoryWhereSupported(firstPage) } : {}),
});
