/** Browser entry: hydrates the server-rendered page and takes over navigation through the page protocol. */
import { createInertiaApp } from "@inertiajs/react";
import { initializeAppearance } from "./hooks/use-appearance";
import { appTitle, layoutFor, resolvePage } from "./inertia";

initializeAppearance();

// With no `setup`, the client hydrates #app when the server rendered it (data-server-rendered) and mounts otherwise.
createInertiaApp({
  title: appTitle,
  resolve: resolvePage,
  layout: (name) => layoutFor(name),
  progress: { color: "#4B5563", delay: 250 },
});
