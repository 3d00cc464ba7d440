/**
 * The Compras page in a real browser. A planner (a super-administrator made by the worker's fixtures) opens Comedor
 * Principal on a day whose published menu holds one dish of 250 g of potato at 30 expected servings
 * (tests/support/menu-requirements-fixtures.ts): 7,500 g → one 10 kg sack, S/ 20.00. They change the day's servings
 * to 50 (12,500 g → two sacks, S/ 40.00), export the workbook in the background and read it back; on a phone the page
 * is no wider than the screen. (axe checks the page and its dialog in tests/e2e/accessibility-food.e2e.ts.)
 */
import { readFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test } from "./fixtures";
import { waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PLANNER = { name: `Compras ${RUN}`, email: `requirements.super.${RUN}@example.com` };
const DAY = "2031-04-07";

test("what to buy follows the servings set for a day, and the workbook is made in the background", async ({
  page,
  mesa,
}) => {
  test.setTimeout(90_000);
  await mesa.user({ ...PLANNER, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  const world = await mesa.run<{ cafeId: number; service: string; provider: string; ingredient: string }>(
    "menu-requirements",
    { cafe: "Comedor Principal", run: RUN, date: DAY },
  );
  await mesa.signIn(page, PLANNER);
  const problems = watchConsole(page);

  await page.goto(`/menu/requirements?cafe=${world.cafeId}&from=${DAY}&to=${DAY}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Compras", level: 1 })).toBeVisible();
  const table = page.getByTestId("requirements-provider").filter({ hasText: world.provider });
  const row = table.getByRole("row").filter({ hasText: world.ingredient });
  await expect(row).toContainText("Saco 10 kg");
  await expect(row.getByRole("cell").nth(2)).toHaveText("1");
  await expect(row).toContainText("20.00");

  // Fifty servings that day: two sacks.
  await page.getByTestId(`servings-edit-${DAY}`).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
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
