/**
 * Helpers shared by the browser tests: catching console problems and hydration mismatches, and waiting until
 * React owns the server-rendered page. (Not a test file: Playwright only runs *.e2e.ts.)
 */
import type { ConsoleMessage, Page } from "@playwright/test";

/** Console errors, hydration warnings and uncaught exceptions seen by a page. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    const text = message.text();
    if (message.type() === "error" || message.type() === "warning" || /hydrat/i.test(text)) {
      const where = message.location();
      problems.push(`console.${message.type()}: ${text}${where.url ? ` (${where.url}:${where.lineNumber})` : ""}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/**
 * Records, from before the first byte is parsed, every element React removes from the server-rendered #app.
 * A hydration mismatch makes React throw the server markup away and render on the client, which shows up here
 * even in the minified production build (where React does not log attribute mismatches).
 */
export async function watchServerMarkup(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const removed: string[] = [];
    (window as any).__removedFromApp = removed;
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        const target = mutation.target as Element;
        if (!(target instanceof Element) || !target.closest("#app")) continue;
        for (const node of mutation.removedNodes) {
          if (node instanceof Element) removed.push(node.outerHTML.slice(0, 120));
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Waits until React owns the server-rendered page (the page's root element carries React's fiber). */
export async function waitForHydration(page: Page): Promise<void> {
  // `#app > link` is the image preload React's renderer puts first; the page itself is the next element.
  await page.waitForFunction(() => {
    const root = document.querySelector("#app > :not(link)");
    return !!root && Object.keys(root).some((key) => key.startsWith("__reactFiber$"));
  });
}
