/**
 * Menu structures in a real browser, as the nutritionist ("Nutrición" at Sede Lima, whose business runs the demo
 * cafes): pick Comedor Principal and its dinner (Cena, S/ 16.50, so S/ 13.98 without IGV; the demo seed gives lunch
 * and breakfast a structure, not dinner), add the Entrada, Sopa
 * and Segundo categories from the menu table, type their servings, shares and bounds, see the totals follow the
 * typing and the warning say by how much the highest costs exceed the price, move a category up with the keyboard
 * alone, save, and find it all after a reload, on a desktop (1366×850), where each figure is typed into an input that
 * must be wholly on screen; then on a phone, in English and dark, the page fits the screen.
 *
 * The e2e database is seeded by the server on its first start; the dish categories come from
 * tests/support/menu-structures-fixtures.ts (the catalogue's demo names), the nutritionist from the worker's fixtures.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test, type Mesa } from "./fixtures";
import { chooseOption, watchConsole, watchServerMarkup, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PLANNER = { name: `Carmen Menú ${RUN}`, email: `menu.structures.${RUN}@example.com` };
const CAFE = "Comedor Principal";

test.describe.configure({ timeout: 60_000 });

test.beforeAll(async ({ mesa }) => {
  await mesa.user({ ...PLANNER, role: "nutritionist", area: "Nutrición", place: "Sede Lima" });
  await mesa.run("menu-structures");
});

/** Signs the nutritionist in and opens the meal schedule, the menu page they work on. */
async function signIn(page: Page, mesa: Mesa): Promise<void> {
  await mesa.signIn(page, PLANNER);
  await page.goto("/menu/schedule");
  await waitForHydration(page);
}

const editor = (page: Page) => page.getByTestId("structure-editor");
const items = (page: Page) => editor(page).getByTestId("structure-item");

async function addCategory(page: Page, name: string): Promise<void> {
  await chooseOption(editor(page), "Elija una categoría…", new RegExp(`^${name} \\(`));
  await editor(page).getByRole("button", { name: "Añadir categoría" }).click();
  await expect(items(page).last()).toContainText(name);
}

async function fillItem(
  page: Page,
  name: string,
  unit: "g" | "ml",
  values: { serving: string; share: string; min: string; max: string },
): Promise<void> {
  await typeInto(page.getByLabel(`${name}: Porción (${unit})`), values.serving);
  await typeInto(page.getByLabel(`${name}: Parte del plato (%)`), values.share);
  await typeInto(page.getByLabel(`${name}: Costo mínimo (S/)`), values.min);
  await typeInto(page.getByLabel(`${name}: Costo máximo (S/)`), values.max);
}

/**
 * Types into a field as a person does: it must be wholly on screen (not clipped by a visually hidden ancestor, which
 * Playwright's own fill would not notice), take a real click at its centre, and receive the keys.
 */
async function typeInto(field: Locator, value: string): Promise<void> {
  await field.scrollIntoViewIfNeeded();
  await expect(field).toBeInViewport({ ratio: 1 });
  await field.click({ timeout: 5_000 });
  await expect(field).toBeFocused();
  await field.press("ControlOrMeta+a");
  await field.pressSequentially(value);
  await expect(field).toHaveValue(value);
}

test("on a desktop, the nutritionist builds the dinner structure of a cafe against its price, reorders it by keyboard and saves it", async ({
  page,
  mesa,
}) => {
  // A computer's screen (issue 26): the figures are typed in the table's columns, under their headers.
  await page.setViewportSize({ width: 1366, height: 850 });
  const problems = watchConsole(page);
  await watchServerMarkup(page);
  await signIn(page, mesa);
  await page.getByRole("link", { name: "Menú", exact: true }).first().click();
  await page.waitForURL(/\/menu\/structures/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Estructuras del menú" })).toBeVisible();

  await chooseOption(page, "Comedor", new RegExp(`${CAFE}$`));
  await expect(page.getByTestId("cafe-picker").or(page.getByRole("combobox", { name: "Comedor" }))).toContainText(CAFE);
  await page.getByTestId("service-picker").getByRole("link", { name: /Cena/ }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Cena" })).toBeVisible();
  await expect(page.getByTestId("net-price")).toHaveText(/13\.98/);

  for (const name of ["Entrada", "Sopa", "Segundo"]) await addCategory(page, name);
  await expect(items(page)).toHaveCount(3);
  await fillItem(page, "Entrada", "g", { serving: "150", share: "20", min: "0.80", max: "2.00" });
  await fillItem(page, "Sopa", "ml", { serving: "250", share: "30", min: "1.00", max: "3.00" });
  await fillItem(page, "Segundo", "g", { serving: "350", share: "50", min: "4.00", max: "11.00" });

  // S/ 16.00 of highest costs against S/ 13.98: over by S/ 2.02, said at once.
  await expect(page.getByTestId("max-total")).toHaveText(/16\.00/);
  await expect(page.getByTestId("structure-verdict")).toHaveText(/superan el precio sin IGV en S\/\s?2\.02/);
  await typeInto(page.getByLabel("Segundo: Costo máximo (S/)"), "8.50");
  await expect(page.getByTestId("structure-verdict")).toHaveText(/caben en el precio sin IGV: quedan S\/\s?0\.48/);
  await expect(page.getByTestId("max-percent")).toHaveText(/96[.,]6\s?%/);

  // The keyboard alone moves Segundo to the top: focus its "Subir" button, press Enter twice.
  await page.getByRole("button", { name: "Subir Segundo" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Subir Segundo" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(items(page).first()).toContainText("Segundo");

  await page.getByRole("button", { name: "Guardar estructura" }).click();
  await expect(page.locator('[data-flash="success"]')).toContainText("Estructura de Cena guardada");
  await page.reload();
  await waitForHydration(page);
  await expect(items(page)).toHaveCount(3);
  await expect(items(page).nth(0)).toContainText("Segundo");
  await expect(items(page).nth(1)).toContainText("Entrada");
  await expect(items(page).nth(2)).toContainText("Sopa");
  await expect(page.getByLabel("Segundo: Costo máximo (S/)")).toHaveValue("8.50");
  await expect(editor(page).getByRole("columnheader", { name: "Costo máximo (S/)" })).toBeVisible();
  await page.getByLabel("Segundo: Costo máximo (S/)").scrollIntoViewIfNeeded();
  await expect(page.getByLabel("Segundo: Costo máximo (S/)")).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("service-picker").getByRole("link", { name: /Cena/ })).toContainText("3 categorías");
  expect(problems).toEqual([]);
  expect(await page.evaluate(() => (window as any).__removedFromApp)).toEqual([]);
});

test("on a phone, in English and dark, the structure reads as cards that fit the screen", async ({ page, mesa }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  // Straight to the structures page: the way there from the menu is the desktop test's.
  await mesa.signIn(page, PLANNER);
  await page.context().addCookies([
    { name: "locale", value: "en", url: mesa.baseURL },
    { name: "appearance", value: "dark", url: mesa.baseURL },
  ]);
  await page.goto("/menu/structures");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Menu structures" })).toBeVisible();
  await chooseOption(page, "Cafe", new RegExp(`${CAFE}$`));
  await page.getByTestId("service-picker").getByRole("link", { name: /Cena/ }).click();
  await expect(items(page)).toHaveCount(3);
  await expect(page.getByTestId("structure-verdict")).toHaveText(/fit the price without IGV/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByLabel("Segundo: Highest cost (S/)")).toBeInViewport({ ratio: 0 });
  expect(problems).toEqual([]);
});
