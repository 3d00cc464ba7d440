/** Server renderer: the same options as the browser entry, rendered to a string inside the Mesa process. */
import { createInertiaApp } from "@inertiajs/react";
import { appTitle, layoutFor, resolvePage } from "./inertia";

export function createSsrRenderer() {
  return createInertiaApp({ title: appTitle, resolve: resolvePage, layout: (name) => layoutFor(name) });
}
