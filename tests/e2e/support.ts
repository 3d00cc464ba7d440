/**
 * Helpers shared by the browser tests: catching console problems and hydration mismatches, and waiting until
 * React owns the server-rendered page. (Not a test file: Playwright only runs *.e2e.ts.)
 */
import type { ConsoleMessage, Locator, Page, Request } from "@playwright/test";
import { expect } from "./fixtures";

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
          // Radix's Select renders a hidden native <select> for forms on the server and drops or re-keys it once
          // it knows where its trigger is: an update after hydration, not markup React threw away.
          if (node instanceof HTMLSelectElement && node.getAttribute("aria-hidden") === "true") continue;
          // The place a deferred prop fills once it arrives (a list's rows below the fold): replaced by design.
          if (node instanceof Element && node.hasAttribute("data-deferred-placeholder")) continue;
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

/**
 * Chooses `option` in Mesa's styled select (or searchable combobox) named `label` within `scope`: opens it, and
 * clicks the option in the list it opens (in a portal, so looked up on the page). A combobox is searched first.
 */
export async function chooseOption(
  scope: Page | Locator,
  label: string | RegExp,
  option: string | RegExp,
  { exact = true }: { exact?: boolean } = {},
): Promise<void> {
  const page = "page" in scope ? scope.page() : scope;
  const trigger = scope.getByRole("combobox", { name: label, exact });
  await trigger.click();
  const search = page.getByRole("combobox").and(page.locator("[cmdk-input]"));
  if ((await search.count()) > 0 && typeof option === "string") await search.fill(option);
  await page
    .getByRole("option", { name: option, exact: typeof option === "string" })
    .first()
    .click();
}

/** The confirmation dialog (an alertdialog) named `title`. */
export function confirmation(page: Page, title: string | RegExp): Locator {
  return page.getByRole("alertdialog", { name: title });
}

/** Picks the date `iso` ("YYYY-MM-DD") in Mesa's date picker labelled `label`: its year and month lists, then the day. */
export async function pickDate(scope: Page | Locator, label: string, iso: string): Promise<void> {
  const page = "page" in scope ? scope.page() : scope;
  const [year, month] = iso.split("-").map(Number);
  await scope.getByLabel(label, { exact: true }).click();
  const calendar = page.locator(".rdp-root");
  await calendar.locator("select.rdp-years_dropdown").selectOption(String(year));
  await calendar.locator("select.rdp-months_dropdown").selectOption(String(month - 1));
  await calendar.locator(`[data-day="${iso}"] button`).click();
  await calendar.waitFor({ state: "detached" });
}

/** Confirms the open confirmation dialog named `title` with its `button` (Eliminar) and waits for it to close. */
export async function acceptConfirmation(page: Page, title: string | RegExp, button = "Eliminar"): Promise<void> {
  const dialog = confirmation(page, title);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Opens `path` with a full page load and waits until React owns it and every deferred prop its first answer named
 * (`deferredProps`) has come: the client asks for each group in a page-protocol request of its own right after.
 */
export async function openSettled(page: Page, path: string) {
  let finished = 0;
  const count = (request: Request) => {
    if (request.headers()["x-inertia-partial-data"]) finished++;
  };
  page.on("requestfinished", count);
  try {
    const response = await page.goto(path);
    await waitForHydration(page);
    const groups = await page
      .locator('script[data-page="app"]')
      .evaluate((script) => Object.keys(JSON.parse(script.textContent!).deferredProps ?? {}).length);
    await expect.poll(() => finished, { message: `${path}: the deferred props` }).toBeGreaterThanOrEqual(groups);
    await expect(page.locator("[data-deferred-placeholder]")).toHaveCount(0);
    return response;
  } finally {
    page.off("requestfinished", count);
  }
}
