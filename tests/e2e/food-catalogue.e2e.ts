/**
 * The Food page's catalogue tabs in a real browser, as the nutritionist of Sede Lima:
 *
 * - the menu table: a dish category added with the keyboard alone (the button, the dialog's fields, the unit's radio
 *   buttons, Enter to save), seen in the table with its unit; moved up with its button from the keyboard, the focus
 *   staying on it and the order saved; refused when a dish uses it, saying how many; on a phone the table is cards;
 * - the levels: the four default levels with their counts;
 * - the price changes: after the person (also the buyer) changes the price of Lima's only mandarin offer on the
 *   Providers page, today's changes in Lima list "Fruta de estación" (a mandarin) with the offer under it, and the
 *   dish's cost over time opens as a chart with its table.
 *
 * The e2e database is seeded on the server's first start: the demo ingredients, offers, dishes and recipes, and the
 * area "Nutrición" at Sede Lima; the person is made by the worker's fixtures. (axe checks these tabs and dialogs in
 * tests/e2e/accessibility-food.e2e.ts.)
 */
import type { Page } from "@playwright/test";
import { expect, test, type Mesa } from "./fixtures";
import { acceptConfirmation, waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PERSON = { name: `Nadia Menú ${RUN}`, email: `catalogue.${RUN}@example.com` };
const CATEGORY = `Ensalada ${RUN}`;

/** The person, holding `role` in `area` at Sede Lima (and any role given before). */
async function giveRole(mesa: Mesa, role: string, area: string): Promise<void> {
  await mesa.user({ ...PERSON, role, area, place: "Sede Lima" });
}

/** Presses Tab until `name` (a button) has the focus, at most `limit` times. */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  const target = page.getByRole("button", { name, exact: true });
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

const rowNames = (page: Page) =>
  page.getByTestId("dish-category-row").evaluateAll((rows) => rows.map((r) => r.querySelector("td")?.textContent));

test.describe.configure({ mode: "serial" });

test("the menu table: a dish category added and moved with the keyboard, refused while a dish uses it", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(90_000);
  await giveRole(mesa, "nutritionist", "Nutrición");
  const context = await browser.newContext();
  await mesa.signIn(context, PERSON);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto("/food?tab=menu_table");
  await waitForHydration(page);
  const table = page.getByRole("table", { name: "Tabla de menú" });
  await expect(table.getByRole("row", { name: /^Sopa/ })).toContainText("Mililitros (ml)");

  // Added with the keyboard alone.
  await page.getByRole("heading", { name: "Tabla de menú", level: 2 }).click();
  await tabTo(page, "Nueva categoría de plato");
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Nueva categoría de plato" });
  await expect(dialog.getByLabel("Nombre")).toBeFocused();
  await page.keyboard.type(CATEGORY);
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Descripción")).toBeFocused();
  await page.keyboard.type("Ensaladas frías de la casa");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("radio", { name: "Gramos (g)" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("radio", { name: "Mililitros (ml)" })).toBeChecked();
  await page.keyboard.press("ArrowLeft");
  await expect(dialog.getByRole("radio", { name: "Gramos (g)" })).toBeChecked();
  await dialog.getByLabel("Nombre").focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const added = table.getByRole("row", { name: new RegExp(`^${CATEGORY}`) });
  await expect(added).toContainText("Ensaladas frías de la casa");
  await expect(added).toContainText("Gramos (g)");
  // New categories go last.
  expect((await rowNames(page)).at(-1)).toContain(CATEGORY);

  // Moved up with its button from the keyboard: the focus stays on it, the order is saved.
  const before = await rowNames(page);
  const up = added.getByRole("button", { name: `Subir ${CATEGORY}` });
  await up.focus();
  await page.keyboard.press("Enter");
  await expect(
    page.getByText(new RegExp(`${CATEGORY} quedó en el lugar ${before.length - 1} de ${before.length}`)),
  ).toBeAttached();
  await expect(up).toBeFocused();
  await page.reload();
  await waitForHydration(page);
  expect((await rowNames(page)).at(-2)).toContain(CATEGORY);

  // A category a demo dish uses is not deleted: the table says how many use it.
  const soup = table.getByRole("row", { name: /^Sopa/ });
  await soup.getByRole("button", { name: "Eliminar Sopa" }).click();
  await acceptConfirmation(page, "¿Eliminar la categoría de plato Sopa?");
  await expect(page.getByRole("alert").filter({ hasText: "No se puede eliminar Sopa" })).toContainText(
    /la usan \d+ platos/,
  );
  await expect(soup).toBeVisible();

  // On a phone each category is a card, nothing scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(table.getByRole("row", { name: new RegExp(`^${CATEGORY}`) })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1366, height: 850 });

  // The levels: the four defaults with what uses them, by their Spanish names.
  await page.getByRole("tab", { name: "Niveles" }).click();
  await expect(page).toHaveURL(/[?&]tab=levels/);
  const levels = page.getByRole("table", { name: "Niveles" });
  for (const name of ["Máster", "Staff", "Empleado", "Obrero"])
    await expect(levels.getByRole("row", { name: new RegExp(`^${name}`) })).toBeVisible();

  expect(problems).toEqual([]);
  await context.close();
});

test("the price changes: an offer's new price moves the dishes that use it, and a dish's cost opens over time", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(90_000);
  await giveRole(mesa, "nutritionist", "Nutrición");
  await giveRole(mesa, "buyer", "Logística");
  const context = await browser.newContext();
  await mesa.signIn(context, PERSON);
  const page = await context.newPage();
  const problems = watchConsole(page);

  // Lima's mandarin offer gets a new price, on the Providers page.
  await page.goto("/providers");
  await waitForHydration(page);
  await page.getByRole("searchbox", { name: "Buscar insumo, proveedor o ciudad" }).fill("Mandarina");
  await expect(page).toHaveURL(/[?&]search=Mandarina/);
  const lima = page.getByRole("region", { name: /^Lima/ });
  await lima.getByRole("button", { name: "Editar Mandarina · Kilo" }).click();
  const edit = page.getByRole("dialog", { name: "Editar oferta" });
  await edit.getByLabel("Precio (S/)").fill("9.87");
  await edit.getByRole("button", { name: "Guardar" }).click();
  await expect(edit).toBeHidden();

  // Today's changes in Lima, every level.
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima" }).format(new Date());
  await page.goto(`/food?tab=price_changes&from=${today}&to=${today}`);
  await waitForHydration(page);
  // The tab opens in the city the dishes table costs for: the nutritionist's headquarters', Lima.
  await expect(page.getByRole("combobox", { name: "Ciudad" })).toHaveText("Lima");
  await expect(page.getByTestId("price-changes-summary")).toContainText("Cambió 1 oferta");
  const rows = page.getByTestId("price-change-row");
  await expect(rows).toHaveCount(4);
  const laborer = rows.filter({ hasText: "Obrero" });
  await expect(laborer).toContainText("Fruta de estación");
  await expect(laborer).toContainText("Mandarina · Agrícola Santa Rosa S.A.C., Kilo");
  await expect(laborer).toContainText(/\+S\/\s?\d+\.\d\d/);

  // The Laborer's cost over time: the day's start and the change.
  await laborer.getByRole("button", { name: "Ver la evolución del costo de Fruta de estación (Obrero)" }).click();
  const history = page.getByRole("dialog", { name: "Costo de Fruta de estación (Obrero) en el tiempo" });
  await expect(history.getByTestId("price-history-chart")).toBeVisible();
  await expect(history.getByTestId("price-history-table").getByRole("row")).toHaveCount(3);
  await history.getByRole("button", { name: "Ver como tabla" }).click();
  await expect(history.getByTestId("price-history-table")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();

  // Outside the period (yesterday alone) nothing moved.
  const yesterday = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima" }).format(
    new Date(Date.now() - 86_400_000),
  );
  await page.goto(`/food?tab=price_changes&from=${yesterday}&to=${yesterday}`);
  await waitForHydration(page);
  await expect(page.getByText("Ningún plato cambió de costo en este periodo.")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  expect(problems).toEqual([]);
  await context.close();
});
