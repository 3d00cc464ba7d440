/**
 * Server-side rendering in the same Bun process: the page's React tree is rendered to a string with the same
 * createInertiaApp options the browser uses (resources/js/ssr.tsx), so hydration finds identical markup.
 */
import { renderToString } from "react-dom/server";
import type { Page } from "./page";

type SsrRender = (page: Page, render: typeof renderToString) => Promise<{ head: string[]; body: string }>;

let renderer: Promise<SsrRender> | null = null;

export async function renderPageHtml(page: Page): Promise<{ head: string[]; body: string }> {
  renderer ??= import("../../../resources/js/ssr").then((m) => m.createSsrRenderer() as Promise<SsrRender>);
  const render = await renderer;
  return render(page, renderToString);
}
