/**
 * The createInertiaApp options shared by the browser (app.tsx) and the server renderer (ssr.tsx), so both
 * resolve the same components with the same layouts and titles and hydration finds identical markup.
 */
import type { ComponentType, ReactNode } from "react";
import { pages } from "./pages.generated";
import AppLayout from "./layouts/app-layout";
import AuthLayout from "./layouts/auth-layout";
import SettingsLayout from "./layouts/settings-layout";
import NotFoundPage from "./components/not-found-page";
import ChunkErrorPage from "./components/chunk-error-page";

import type { Page } from "@inertiajs/core";

/** "<page title> - <APP_NAME>", or the app name alone for a page without a title. */
export function appTitle(title: string, page?: Page): string {
  const appName = (page?.props as { app?: { name?: string } } | undefined)?.app?.name ?? "Mesa";
  return title ? `${title} - ${appName}` : appName;
}

/** Resolves a page by name; a missing page shows "Page not found", a chunk that fails to load a recoverable message. */
export async function resolvePage(name: string): Promise<ComponentType<any>> {
  const load = pages[name];
  if (!load) return NotFoundPage;
  try {
    const module = await load();
    return module.default;
  } catch (error) {
    console.error(`The screen "${name}" could not be loaded`, error);
    return ChunkErrorPage;
  }
}

type Layout = ComponentType<{ children: ReactNode }>;

/** Layouts are chosen by the page's name: settings pages sit inside the app layout, auth pages in the auth card. */
export function layoutFor(name: string): Layout[] {
  if (name.startsWith("settings/")) return [AppLayout, SettingsLayout];
  if (name.startsWith("auth/")) return [AuthLayout];
  if (name === "welcome" || name === "error") return [];
  return [AppLayout];
}
