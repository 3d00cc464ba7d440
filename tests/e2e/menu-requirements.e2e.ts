/**
 * The Compras page in a real browser (port 3308). A planner (the super-administrator of tests/support/e2e-fixtures.ts)
 * opens Comedor Principal on a day whose published menu holds one dish of 250 g of potato at 30 expected servings
 * (tests/support/menu-requirements-fixtures.ts): 7,500 g → one 10 kg sack, S/ 20.00. They change the day's servings
 * to 50 (12,500 g → two sacks, S/ 40.00), export the workbook in the background and read it back.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as XLSX from "xlsx";
import { waitForHydration, watchConsole } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUN = join(ROOT, "node_modules/.bin/bun");
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Altiplano-Quinua-2024!";
const PLANNER = { name: `Compras ${RUN}`, email: `requirements.super.${RUN}@example.com` };
const DAY = "2031-04-07";

const baseURL = () => String(test.info().project.use.baseURL);

function fixture(script: string, args: string[]): string {
  return execFileSync(BUN, [script, ...args], {
    cwd: ROOT,
    env: { ...process.env, DB_PATH: process.env.MESA_E2E_DB },
    stdio: "pipe",
  })
    .toString()
    .trim()
    .split("\n")
    .pop()!;
}

/** axe on the page (or its open dialog) in the light and dark themes: no serious, critical or moderate finding. */
async function checkAxe(page: Page, where: string, include = "#app"): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate(async (value) => {
      const root = document.documentElement;
      root.dataset.appearance = value;
      root.classList.toggle("dark", value === "dark");
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
    }, theme);
    const { violations } = await new AxeBuilder({ page }).include(include).analyze();
    const failing = violations
      .filter((v) => ["serious", "critical", "moderate"].includes(v.impact ?? ""))
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect.soft(failing, `axe: ${where} [${theme}]`).toEqual([]);
  }
}

test("what to buy follows the servings set for a day, and the workbook is made in the background", async ({ page }) => {
  test.setTimeout(90_000);
  fixture("tests/support/e2e-fixtures.ts", [
    "user",
    "--name",
    PLANNER.name,
    "--email",
    PLANNER.email,
    "--password",
    PASSWORD,
    "--role",
    "super-administrator",
    "--area",
    "Administración",
    "--place",
    "Sede Lima",
    "--wait",
    baseURL(),
  ]);
  const world = JSON.parse(
    fixture("tests/support/menu-requirements-fixtures.ts", [
      "setup",
      "--cafe",
      "Comedor Principal",
      "--run",
      RUN,
      "--date",
      DAY,
    ]),
  ) as { cafeId: number; service: string; provider: string; ingredient: string };
  const problems = watchConsole(page);

  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Correo electrónico").fill(PLANNER.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`/menu/requirements?cafe=${world.cafeId}&from=${DAY}&to=${DAY}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Compras", level: 1 })).toBeVisible();
  const table = page.getByTestId("requirements-provider").filter({ hasText: world.provider });
  const row = table.getByRole("row").filter({ hasText: world.ingredient });
  await expect(row).toContainText("Saco 10 kg");
  await expect(row.getByRole("cell").nth(2)).toHaveText("1");
  await expect(row).toContainText("20.00");
  await checkAxe(page, "the Compras page");

  // Fifty servings that day: two sacks.
  await page.getByTestId(`servings-edit-${DAY}`).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await checkAxe(page, "the servings dialog", "[role=dialog]");
  await dialog.getByLabel(world.service, { exact: true }).fill("50");
  await dialog.getByTestId("servings-save").click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await expect(row).toContainText("40.00");
  await expect(page.getByTestId(`servings-${DAY}`)).toContainText("50");

  await page.getByTestId("requirements-export-start").click();
  const link = page.getByTestId("requirements-export-download");
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const book = XLSX.read(readFileSync(await download.path()), { type: "buffer" });
  expect(book.SheetNames).toContain(world.provider.slice(0, 31));
  const sheet = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[world.provider.slice(0, 31)], { header: 1, raw: true });
  expect(sheet[1].slice(1, 4)).toEqual([world.ingredient, "g", 12_500]);
  expect(sheet[1].at(-1)).toBe(40);
  // On a phone the page still reads: nothing wider than the screen but the tables' own scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await checkAxe(page, "the Compras page on a phone");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("#app *")]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 8)
      .map((e) => `${e.tagName}.${String(e.className).slice(0, 60)} ${Math.round(e.getBoundingClientRect().right)}`),
  );
  expect(overflow, wide.join("\n")).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
