/**
 * axe-core in the browser tests: the accessibility suite (tests/e2e/accessibility-*.e2e.ts) checks what is on screen
 * with it and fails on every critical, serious or moderate finding, listing each rule and the elements it found;
 * minor findings are listed in the test's annotations. (Not a test file: Playwright only runs *.e2e.ts.)
 *
 * axe-core's script is put into a document the first time that document is checked. Mesa's pages allow scripts by
 * nonce only, so it is evaluated through the browser's debugging protocol (as a Playwright evaluation is) rather
 * than added as a <script> element, which the page's CSP would refuse.
 */
import type { Page } from "@playwright/test";
import type { AxeResults, Result, RunOptions } from "axe-core";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "./fixtures";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The rules whose outcome depends on the theme's colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
const FAILING_IMPACTS = new Set(["critical", "serious", "moderate"]);

/**
 * The violations axe finds in the page (only within the `include` selectors, when given), with every rule or only
 * `rules`. Only the violations come back in full (the passes of a long table would be most of the time spent).
 */
async function violations(page: Page, include?: string[], rules?: string[]): Promise<Result[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = { resultTypes: ["violations"] };
  if (rules) options.runOnly = { type: "rule", values: rules };
  const results = await page.evaluate(
    ({ include, options }) => {
      const { axe } = window as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> };
      };
      return axe.run(include.length ? { include: include.map((selector) => [selector]) } : document, options);
    },
    { include: include ?? [], options },
  );
  return results.violations;
}

/** Turns axe's findings into lines a failure report can show: impact, rule, what to do, and where. */
function describe(found: Result[]): string[] {
  return found.map((violation) => {
    const where = violation.nodes
      .map((node) => {
        const summary = (node.failureSummary ?? "").split("\n").slice(1).join(" ").trim();
        return `    ${node.target.join(" ")}${summary ? ` — ${summary}` : ""}`;
      })
      .join("\n");
    return `${violation.impact} ${violation.id}: ${violation.help} (${violation.helpUrl})\n${where}`;
  });
}

/**
 * Checks the page (or what `include` selects) and fails, softly so one run lists every finding, on each critical,
 * serious or moderate one; minor findings go to the test's annotations. `where` names the check in the report.
 */
export async function analyze(page: Page, where: string, include?: string[], rules?: string[]): Promise<void> {
  const found = await violations(page, include, rules);
  const failing = found.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""));
  expect.soft(describe(failing), `axe: ${where}`).toEqual([]);
  for (const minor of describe(found.filter((violation) => !failing.includes(violation))))
    test.info().annotations.push({ type: `axe: ${where}`, description: minor });
}

/**
 * Puts the page in a theme as choosing it does (use-appearance.ts: the `dark` class on <html>), with the document's
 * transitions turned off first, so axe reads the theme's colours at once rather than a mix of both. (Animations,
 * a skeleton's pulse, are left as they are.)
 */
async function setTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate(async (value) => {
    if (!document.querySelector("style[data-axe-still]")) {
      const still = document.createElement("style");
      still.dataset.axeStill = "";
      still.textContent = "*, *::before, *::after { transition: none !important; }";
      document.head.append(still);
    }
    const root = document.documentElement;
    root.dataset.appearance = value;
    root.classList.toggle("dark", value === "dark");
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, theme);
}

/** The theme the page is shown in now. */
function themeOf(page: Page): Promise<"light" | "dark"> {
  return page.evaluate(() => (document.documentElement.classList.contains("dark") ? "dark" : "light"));
}

/**
 * Checks what is on screen in both themes: every rule in the light one, and the rules that read colours in the
 * dark one (the rest see the same markup twice). The theme the page is in is checked first, so each check changes
 * the theme once (changing it restyles the whole page, which takes longer than axe).
 */
export async function checkThemes(page: Page, where: string, include?: string[]): Promise<void> {
  const themes = (await themeOf(page)) === "dark" ? (["dark", "light"] as const) : (["light", "dark"] as const);
  for (const theme of themes) {
    await setTheme(page, theme);
    if (theme === "light") await analyze(page, `${where} [light]`, include);
    else await analyze(page, `${where} [dark]`, include, COLOUR_RULES);
  }
}
