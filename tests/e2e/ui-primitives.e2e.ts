/**
 * Mesa's UI primitives in a real browser, as a super-administrator: a dialog opens on its first field and gives
 * focus back when Escape closes it; a delete asks in a confirmation dialog that states its consequence (Cancel keeps
 * the row, Delete removes it); on a 390 px phone a table reads as cards without sideways scrolling, and the menu is
 * a sheet that Escape closes.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test, type Mesa } from "./fixtures";
import { confirmation, chooseOption, watchConsole, watchServerMarkup, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const TAG = RUN.slice(-6).toUpperCase();
const ADMIN = { name: `Rosa Primitivas ${RUN}`, email: `super.primitives.${RUN}@example.com` };
const PROPERTY = { code: `BAL-${TAG}`, name: `Balanza de plataforma ${RUN}` };

const flash = (page: Page) => page.locator('[data-flash="success"]');

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

test.describe("ui primitives", () => {
  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  });

  async function signedIn(browser: Browser, mesa: Mesa, viewport?: { width: number; height: number }) {
    const context = await browser.newContext(viewport ? { viewport } : {});
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await watchServerMarkup(page);
    return { context, page, problems };
  }

  test("a dialog opens on its first field, Escape closes it and focus goes back to its button; a delete is confirmed in a dialog that states its consequence", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await signedIn(browser, mesa);
    await open(page, "/businesses/properties");
    const create = page.getByRole("button", { name: "Nuevo bien" });

    // The first field has the focus, not the close button; Escape closes and focus returns to the opener.
    await create.click();
    const dialog = page.getByRole("dialog", { name: "Nuevo bien" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Código")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(create).toBeFocused();

    // A property to delete, made with the same dialog.
    await create.click();
    await dialog.getByLabel("Código").fill(PROPERTY.code);
    await dialog.getByLabel("Nombre").fill(PROPERTY.name);
    await dialog.getByLabel("Categoría").fill("Equipo de cocina");
    await chooseOption(dialog, "Ubicación", /^Sede Lima · /);
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page)).toHaveText(`Bien ${PROPERTY.code} guardado.`);
    const row = page.getByRole("row").filter({ hasText: PROPERTY.code });
    await expect(row).toHaveCount(1);

    // Cancel keeps the row; the dialog said what deleting costs, and Cancel had the focus.
    const remove = row.getByRole("button", { name: `Eliminar ${PROPERTY.code}` });
    await remove.click();
    const confirm = confirmation(page, `¿Eliminar el bien ${PROPERTY.code}?`);
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("Se borra para siempre y su etiqueta QR deja de abrir su ficha");
    await expect(confirm.getByRole("button", { name: "Cancelar" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancelar" }).click();
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();
    await expect(row).toHaveCount(1);
    await page.reload();
    await waitForHydration(page);
    await expect(row).toHaveCount(1);

    // Delete removes it.
    await row.getByRole("button", { name: `Eliminar ${PROPERTY.code}` }).click();
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Eliminar", exact: true }).click();
    await expect(flash(page)).toHaveText(`Bien ${PROPERTY.code} eliminado.`);
    await expect(confirm).toBeHidden();
    await expect(row).toHaveCount(0);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("row").filter({ hasText: PROPERTY.code })).toHaveCount(0);

    expect(await page.evaluate(() => (window as any).__removedFromApp as string[])).toEqual([]);
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("on a 390 px phone a table reads as cards, with no sideways scrolling", async ({ browser, mesa }) => {
    const { context, page, problems } = await signedIn(browser, mesa, { width: 390, height: 844 });
    await open(page, "/management?tab=cafes");
    const table = page.getByRole("table", { name: "Comedores" });
    const card = table.getByRole("row").filter({ hasText: "Comedor Principal" });
    await expect(card).toBeVisible();

    // Nothing is wider than the screen: neither the page nor the table's box scrolls sideways.
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      table: document.querySelector("table")!.parentElement!.scrollWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.table).toBeLessThanOrEqual(390);

    // Each row is a card: its cells stacked as "label: value" lines, the cafe's name its title.
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const lines = await card.getByRole("cell").evaluateAll((cells) =>
      cells.map((cell) => ({
        label: getComputedStyle(cell, "::before").content,
        text: (cell as HTMLElement).innerText.replace(/\s+/g, " ").trim(),
        display: getComputedStyle(cell).display,
      })),
    );
    expect(lines[0]).toMatchObject({ label: "none", text: "Comedor Principal", display: "block" });
    expect(lines.slice(1, 4)).toEqual([
      { label: '"Unidad"', text: "Unidad Norte Mina Cerro Verde", display: "grid" },
      { label: '"Empresa emisora"', text: expect.stringContaining("Mesa Catering"), display: "grid" },
      { label: '"Servicios"', text: expect.stringContaining("ALM"), display: "grid" },
    ]);
    // The row's buttons sit at the card's foot, wholly on screen.
    const remove = card.getByRole("button", { name: "Eliminar Comedor Principal" });
    const button = (await remove.boundingBox())!;
    expect(button.x + button.width).toBeLessThanOrEqual(390);
    expect(button.y).toBeGreaterThan(box.y + box.height / 2);

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("on a phone the menu is a sheet: it opens from the header, Escape closes it, and focus goes back", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await signedIn(browser, mesa, { width: 390, height: 844 });
    await open(page, "/dashboard");
    // The sidebar is not on the page at this width; the header's button opens the menu.
    await expect(page.locator("#sidebar")).toBeHidden();
    const button = page.getByRole("button", { name: "Abrir el menú" });
    await button.click();
    const menu = page.getByRole("dialog", { name: "Menú" });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link", { name: "Panel" })).toBeFocused();
    await expect(menu.getByRole("navigation", { name: "Navegación principal" }).getByRole("link")).not.toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();

    // A link in the menu goes to its page and closes the menu.
    await button.click();
    await menu.getByRole("link", { name: "Gestión" }).click();
    await expect(page).toHaveURL(/\/management/);
    await expect(page.getByRole("heading", { level: 1, name: "Gestión" })).toBeVisible();
    await expect(menu).toBeHidden();

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });
});
