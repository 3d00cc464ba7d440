/**
 * The accessibility suite's walk through Mesa's screens (tests/e2e/accessibility-*.e2e.ts; not a test file itself).
 * A screen is a page and the steps taken on it: each step opens an overlay (a dialog, a confirmation, a popover, a
 * menu, a select's list, the date picker, a tooltip), which is checked on its own and closed with Escape, or changes
 * the page (a tab, a form with its errors, a tree opened), which is then checked as a whole and stays so for the
 * next steps. Every check is axe's in both themes (tests/e2e/axe.ts); a step that cannot be taken (a button renamed,
 * a dialog that did not open) is reported like a finding and the page starts afresh, so one run lists everything.
 *
 * Each screen and state is checked once: pages and the states of a page at both widths (a phone gets other layouts:
 * cards for tables, the menu folded into a button), overlays at the desktop width only, since a dialog, a menu or a
 * list is the same markup in the same colours on a phone (a step names the phone when its control is the phone's).
 * Every screen at every width is a test of its own, so the two workers share them.
 */
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { checkThemes } from "./axe";
import { expect, test, type Mesa, type Who } from "./fixtures";
import { waitForHydration } from "./support";

export const VIEWPORTS = { desktop: { width: 1366, height: 850 }, phone: { width: 390, height: 844 } } as const;
export type Width = keyof typeof VIEWPORTS;
export const WIDTHS = Object.keys(VIEWPORTS) as Width[];

export interface Step {
  /** What the check is called in a report: the button pressed, the state reached. */
  name: string;
  /** Opens the overlay (or changes the page). */
  open: (page: Page) => Promise<void>;
  /**
   * "overlay" (default): the overlays open after `open` are checked, then closed with Escape.
   * "page": the page as `open` left it is checked, and stays so for the next steps.
   */
  scope?: "overlay" | "page";
  /**
   * Where the control exists (the "+2" chips' tooltip is desktop-only; the phone menu, phone-only). An overlay step
   * without it is taken at the desktop width only; a page step at both.
   */
  only?: Width;
  /** A check of its own, after axe's (the layout at the width, say). */
  also?: (page: Page, width: Width) => Promise<void>;
}

export interface Screen {
  name: string;
  /** The page's address (a function when it is known only once the test's world is made). */
  path: string | (() => string);
  /** Checked at one width only (where only that width was ever asked of it). */
  only?: Width;
  /** Before the page is opened (a route held, say). */
  before?: (page: Page) => Promise<void>;
  /** Once the page has hydrated, before it is checked (its data arrived, say). */
  ready?: (page: Page) => Promise<void>;
  /** A check of its own, after axe's check of the page. */
  also?: (page: Page, width: Width) => Promise<void>;
  steps?: Step[];
}

/**
 * Where the open overlays live: modal dialogs and sheets (role dialog/alertdialog, in Radix's portal), and popovers,
 * menus, select lists and tooltips (in Radix's positioned wrapper). A check of an overlay covers these only, so a
 * page's own findings are not reported again for each of its dialogs.
 */
const OVERLAYS = [
  "[role=dialog]",
  "[role=alertdialog]",
  "[data-radix-popper-content-wrapper]",
  "[data-sonner-toaster]",
];
const OPEN_OVERLAY = "[role=dialog], [role=alertdialog], [data-radix-popper-content-wrapper]";

/** The page's own content (not the header's or the menu's controls). */
export const content = (page: Page) => page.locator("#content");

/** Clicks the first button in the page content whose accessible name matches. */
export const press =
  (name: string | RegExp, within: (page: Page) => Locator = content) =>
  async (page: Page) => {
    await within(page)
      .getByRole("button", { name, exact: typeof name === "string" })
      .first()
      .click();
  };

/** The row (of the table captioned `caption`) whose cells include `text`, and the button `name` in it. */
export const pressInRow = (caption: string, rowText: string | RegExp, name: string | RegExp) => async (page: Page) => {
  const row = page.getByRole("table", { name: caption }).getByRole("row").filter({ hasText: rowText }).first();
  await row.getByRole("button", { name }).first().click();
};

export const tab = (name: string) => async (page: Page) => {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
};

export const columns: Step = { name: "columns menu", open: press(/^Mostrar u ocultar columnas de /) };

/** A row's Edit and Delete (the delete confirmation is cancelled by the check's Escape). */
export const editAndDelete = (label: string, edit: RegExp, remove: RegExp): Step[] => [
  { name: `edit ${label}`, open: press(edit) },
  { name: `delete ${label} (confirmation)`, open: press(remove) },
];

/** A styled select (Radix Select) named `label`: its list of options. */
export const selectList =
  (label: string, within: (page: Page) => Locator = content): Step["open"] =>
  async (page: Page) => {
    await within(page).getByRole("combobox", { name: label, exact: true }).click();
    await expect(page.getByRole("listbox")).toBeVisible();
  };

/** Nothing on the page is wider than the screen (the page does not scroll sideways). */
export async function noSidewaysScroll(page: Page, width: Width): Promise<void> {
  expect
    .soft(await page.evaluate(() => document.documentElement.scrollWidth), `${page.url()} scrolls sideways`)
    .toBeLessThanOrEqual(VIEWPORTS[width].width);
}

/** Whether `step` is taken at `width`: where its control exists; an overlay, once (at the desktop width). */
function stepAt(step: Step, width: Width): boolean {
  if (step.only) return step.only === width;
  return (step.scope ?? "overlay") === "page" || width === "desktop";
}

/** Opens a page and checks it, then each of its steps. */
export async function checkScreen(page: Page, screen: Screen, width: Width): Promise<void> {
  if (screen.only && screen.only !== width) return;
  const label = `[${width}]`;
  const path = typeof screen.path === "function" ? screen.path() : screen.path;
  const load = async () => {
    await screen.before?.(page);
    await page.goto(path);
    await waitForHydration(page);
    await screen.ready?.(page);
  };
  await load();
  await checkThemes(page, `${label} ${screen.name} (${path})`);
  await screen.also?.(page, width);
  for (const step of screen.steps ?? []) {
    if (!stepAt(step, width)) continue;
    const where = `${label} ${screen.name} → ${step.name}`;
    const open = page.locator(OPEN_OVERLAY);
    try {
      await step.open(page);
      if (step.scope === "page") {
        await checkThemes(page, where);
        await step.also?.(page, width);
        continue;
      }
      await expect(open.first(), "nothing opened").toBeVisible();
      const present = [];
      for (const selector of OVERLAYS) if ((await page.locator(selector).count()) > 0) present.push(selector);
      await checkThemes(page, where, present);
      await step.also?.(page, width);
      // Escape closes the innermost overlay; a list inside a dialog needs a second one.
      for (let i = 0; i < 3 && (await open.count()) > 0; i++) await page.keyboard.press("Escape");
      await expect(open).toHaveCount(0);
    } catch (error) {
      // A step that cannot be taken is reported like a violation, and the page starts afresh for the next step.
      expect.soft(String(error).split("\n").slice(0, 6).join("\n"), `${where} could not be checked`).toBe("");
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await load();
    }
  }
}

/** A browser context at `width`, with reduced motion (no transition is caught half-way), signed in as `who`. */
export async function contextAt(
  browser: Browser,
  width: Width,
  mesa: Mesa,
  who?: Who,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORTS[width], reducedMotion: "reduce", ...options });
  if (who) await mesa.signIn(context, who);
  return context;
}

/**
 * One test per screen and width of `screens` (those a screen is checked at), each in a context of its own that `who`
 * is signed in to (with `options(width)`), so the two workers share them; `title` begins each test's name.
 */
export function checkEachScreen(
  title: string,
  who: Who,
  screens: Screen[],
  options: (width: Width) => Parameters<Browser["newContext"]>[0] = () => ({}),
): void {
  for (const screen of screens)
    for (const width of WIDTHS) {
      if (screen.only && screen.only !== width) continue;
      const { width: w, height: h } = VIEWPORTS[width];
      test(`${title}, ${screen.name}: no serious or critical violation, light and dark, ${width} (${w}×${h})`, async ({
        browser,
        mesa,
      }) => {
        // Under a minute on a machine of its own; more when other browsers share its two cores.
        test.setTimeout(180_000);
        const context = await contextAt(browser, width, mesa, who, options(width));
        await checkScreen(await context.newPage(), screen, width);
        await context.close();
      });
    }
}

/** One test per width of `check`, on a page in a context of its own that `who` is signed in to. */
export function checkAtEachWidth(title: string, who: Who, check: (page: Page, width: Width) => Promise<void>): void {
  for (const width of WIDTHS) {
    const { width: w, height: h } = VIEWPORTS[width];
    test(`${title}: no serious or critical violation, light and dark, ${width} (${w}×${h})`, async ({
      browser,
      mesa,
    }) => {
      test.setTimeout(180_000);
      const context = await contextAt(browser, width, mesa, who);
      await check(await context.newPage(), width);
      await context.close();
    });
  }
}
