/**
 * The Management page in a real browser, as a super-administrator: the management modal creates a new mine, a new
 * unit and a cafe in one go; the new mine and unit then offer services through their rows' services popovers on the
 * Minas and Unidades tabs, the cafe takes them on the Comedores tab and gets a price in its prices dialog; the
 * Comedores table exports to Excel; a new cafe in an existing unit is made sellable (services and prices) in the
 * modal alone; at 1366 px no cafe row takes more than two lines and prices show in soles, and on a 390 px phone the
 * cafes read as cards; the table sorts on the server; and deleting a unit that still has a cafe is refused.
 *
 * Each test stands alone on the e2e database the server seeds on its first start (Mina Cerro Verde and Mina
 * Antamina with the demo services; Unidad Huarmey has two cafes). The super-administrator is made by the worker's
 * fixtures (tests/e2e/fixtures.ts).
 */
import type { Browser, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test, type Mesa } from "./fixtures";
import { acceptConfirmation, chooseOption, waitForHydration, watchConsole, watchServerMarkup } from "./support";

/** Unique per run, so names never collide with another run's on a reused database. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Sofía Admin ${RUN}`, email: `super.management.${RUN}@example.com` };

/** The place the modal creates: all three new. */
const MINE = `Mina Prueba ${RUN}`;
const UNIT = `Unidad Prueba ${RUN}`;
const CAFE = `Comedor Prueba ${RUN}`;
const BUSINESS = "Mesa Catering S.A.C.";

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

const flash = (page: Page, kind: "success" | "error") => page.locator(`[data-flash="${kind}"]`);

/** A tab's table (named by its caption) and the row whose first cell is `name`. */
const table = (page: Page, caption: "Minas" | "Unidades" | "Comedores") => page.getByRole("table", { name: caption });
const row = (page: Page, caption: "Minas" | "Unidades" | "Comedores", name: string) =>
  table(page, caption)
    .locator("tbody tr")
    .filter({ has: page.locator("td:first-child", { hasText: name }) });

/** Switches tab; the new tab starts without a search, and its search box says so. */
async function chooseTab(
  page: Page,
  tab: "Minas" | "Unidades" | "Comedores",
  param: string,
  searchLabel: string,
): Promise<void> {
  await page.getByRole("tab", { name: tab }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tab=${param}`));
  await expect(page).not.toHaveURL(/[?&]search=/);
  await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("searchbox", { name: searchLabel })).toHaveValue("");
}

/** Opens a row's services popover, ticks the given services, saves, and waits for the flash. */
async function offer(
  page: Page,
  caption: "Minas" | "Unidades" | "Comedores",
  place: string,
  codes: string[],
): Promise<void> {
  await row(page, caption, place)
    .getByRole("button", { name: `Servicios de ${place}`, exact: true })
    .click();
  const dialog = page.getByRole("dialog", { name: `Servicios de ${place}` });
  await expect(dialog).toBeVisible();
  for (const code of codes) await dialog.getByRole("checkbox", { name: new RegExp(`^${code} `) }).check();
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(flash(page, "success")).toHaveText(`Servicios de ${place} guardados.`);
  await expect(dialog).toBeHidden();
  await expect(row(page, caption, place).getByRole("listitem")).toHaveText([...codes].sort());
}

// The tests stand alone (see above): the two workers share them, each test on its worker's own database.
test.describe.configure({ mode: "parallel" });

test.describe("management", () => {
  const admin = async (browser: Browser, mesa: Mesa) => {
    const context = await browser.newContext({ acceptDownloads: true });
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  });

  test("the management modal creates a new mine, unit and cafe; the cafe gets services and a price; the table exports", async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(45_000);
    const { context, page, problems } = await admin(browser, mesa);
    // Opened at its own address (its link in the navigation, which the sidebar and the phone's menu share, is
    // followed in tests/e2e/ui-primitives.e2e.ts): the Comedores tab is the default.
    await open(page, "/management");
    await expect(page.getByRole("heading", { level: 1, name: "Gestión" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Comedores" })).toHaveAttribute("aria-selected", "true");
    await expect(row(page, "Comedores", "Comedor Principal")).toHaveCount(1);

    // The modal: a new mine, a new unit, then the cafe.
    await page.getByRole("button", { name: "Nuevo lugar" }).click();
    const modal = page.getByRole("dialog", { name: "Nuevo lugar" });
    await expect(modal).toBeVisible();
    await expect(modal.getByText("Primero elija o cree la mina.")).toBeVisible();
    // Existing mines are offered while typing.
    const mineSearch = modal.getByRole("searchbox", { name: "Buscar o escribir el nombre de una mina" });
    await mineSearch.fill("Cerro");
    await expect(modal.getByRole("button", { name: "Mina Cerro Verde", exact: true })).toBeVisible();
    await mineSearch.fill(MINE);
    await modal.getByRole("button", { name: `Crear la mina «${MINE}»` }).click();
    await expect(modal.getByText(MINE, { exact: true })).toBeVisible();
    await expect(modal.getByText("nueva", { exact: true })).toBeVisible();

    await modal.getByRole("searchbox", { name: "Buscar o escribir el nombre de una unidad" }).fill(UNIT);
    await modal.getByRole("button", { name: `Crear la unidad «${UNIT}»` }).click();
    await expect(modal.getByText(UNIT, { exact: true })).toBeVisible();

    await modal.getByLabel("Nombre del comedor").fill(CAFE);
    await chooseOption(modal, "Empresa emisora", BUSINESS);
    await expect(modal.getByLabel("Zona horaria")).toHaveAttribute("data-value", "America/Lima");
    await modal.getByRole("button", { name: "Crear" }).click();
    await expect(flash(page, "success")).toHaveText(`Se creó ${MINE} › ${UNIT} › ${CAFE}.`);
    await expect(modal).toBeHidden();

    // The new cafe is in the Comedores table (found by searching for it).
    await page.getByRole("searchbox", { name: "Buscar comedores, unidades, minas o empresas" }).fill(RUN);
    await expect(page).toHaveURL(/[?&]search=/);
    await expect(table(page, "Comedores").locator("tbody tr")).toHaveCount(1);
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(1)).toHaveText(`${UNIT}${MINE}`);
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(2)).toHaveText(BUSINESS);
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(3)).toHaveText("Sin servicios");
    // The time zone is a column to show when needed (nearly every cafe keeps the default).
    await expect(table(page, "Comedores").getByRole("columnheader", { name: "Zona horaria" })).toHaveCount(0);
    await page.getByRole("button", { name: "Columnas de Comedores" }).click();
    await page.getByRole("menuitemcheckbox", { name: "Zona horaria" }).click();
    await page.keyboard.press("Escape");
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(3)).toHaveText("America/Lima");
    await page.getByRole("button", { name: "Columnas de Comedores" }).click();
    await page.getByRole("menuitemcheckbox", { name: "Zona horaria" }).click();
    await page.keyboard.press("Escape");
    await expect(table(page, "Comedores").getByRole("columnheader", { name: "Zona horaria" })).toHaveCount(0);

    // Its unit offers nothing yet, so the cafe's services dialog has no choice.
    await row(page, "Comedores", CAFE)
      .getByRole("button", { name: `Servicios de ${CAFE}`, exact: true })
      .click();
    let dialog = page.getByRole("dialog", { name: `Servicios de ${CAFE}` });
    await expect(dialog.getByRole("checkbox")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();

    // The mine offers DES and ALM (Minas tab), then the unit (Unidades tab), then the cafe (Comedores tab).
    await chooseTab(page, "Minas", "mines", "Buscar minas");
    await page.getByRole("searchbox", { name: "Buscar minas" }).fill(RUN);
    await expect(table(page, "Minas").locator("tbody tr")).toHaveCount(1);
    await expect(row(page, "Minas", MINE).getByRole("cell")).toHaveText([MINE, "1", "1", "Sin servicios", ""]);
    await offer(page, "Minas", MINE, ["DES", "ALM"]);

    await chooseTab(page, "Unidades", "units", "Buscar unidades o minas");
    await page.getByRole("searchbox", { name: "Buscar unidades o minas" }).fill(RUN);
    await expect(table(page, "Unidades").locator("tbody tr")).toHaveCount(1);
    await offer(page, "Unidades", UNIT, ["DES", "ALM"]);

    await chooseTab(page, "Comedores", "cafes", "Buscar comedores, unidades, minas o empresas");
    await page.getByRole("searchbox", { name: "Buscar comedores, unidades, minas o empresas" }).fill(RUN);
    await expect(table(page, "Comedores").locator("tbody tr")).toHaveCount(1);
    await row(page, "Comedores", CAFE)
      .getByRole("button", { name: `Servicios de ${CAFE}`, exact: true })
      .click();
    dialog = page.getByRole("dialog", { name: `Servicios de ${CAFE}` });
    await expect(dialog.getByRole("checkbox")).toHaveCount(2);
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await offer(page, "Comedores", CAFE, ["DES", "ALM"]);
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(4)).toContainText(
      /^0 de 2 (servicios )?con precio/,
    );

    // A price for ALM in the cafe's prices dialog.
    await row(page, "Comedores", CAFE)
      .getByRole("button", { name: `Precios de ${CAFE}`, exact: true })
      .click();
    const prices = page.getByRole("dialog", { name: `Precios de ${CAFE}` });
    await expect(prices).toBeVisible();
    await expect(prices.getByText(`${MINE} › ${UNIT} › ${CAFE}`)).toBeVisible();
    await prices.getByRole("textbox", { name: "Precio (S/) ALM" }).fill("18.50");
    await prices.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page, "success")).toHaveText("Precios guardados: 1 cambio.");
    await expect(prices).toBeHidden();
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(4)).toContainText(
      /^1 de 2 (servicios )?con precio/,
    );
    // The price in soles, in the row itself.
    await expect(row(page, "Comedores", CAFE).getByRole("cell").nth(4)).toContainText("ALM S/ 18.50");

    // Export the (searched) Comedores table: one row, the new cafe with its services.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Exportar a Excel" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^mesa-cafes-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = XLSX.read(readFileSync((await download.path())!), { type: "buffer" });
    // The export is the places workbook; its Comedores sheet holds the searched cafe.
    expect(book.SheetNames).toContain("Comedores");
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Comedores, { header: 1 });
    expect(rows[0].slice(0, 4)).toEqual(["Mina", "Unidad", "Nombre", "Empresa"]);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([[MINE, UNIT, CAFE, BUSINESS]]);

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("a new cafe becomes sellable in the modal alone: its unit's services, their prices in soles, one request", async ({
    browser,
    mesa,
  }) => {
    // A long journey through several dialogs and pages: on a loaded 2-core machine it nears the default 20 s.
    test.setTimeout(45_000);
    const { context, page, problems } = await admin(browser, mesa);
    const cafe = `Comedor ${RUN} de la Planta Concentradora y del Campamento Norte`;
    await page.setViewportSize({ width: 1366, height: 850 });
    await open(page, "/management");
    await page.getByRole("button", { name: "Nuevo lugar" }).click();
    const modal = page.getByRole("dialog", { name: "Nuevo lugar" });
    await modal.getByRole("searchbox", { name: "Buscar o escribir el nombre de una mina" }).fill("Cerro");
    await modal.getByRole("button", { name: "Mina Cerro Verde", exact: true }).click();
    await modal.getByRole("button", { name: "Unidad Norte", exact: true }).click();
    await modal.getByLabel("Nombre del comedor").fill(cafe);
    await chooseOption(modal, "Empresa emisora", BUSINESS);

    // The unit's services are offered, ticked: the cafe will sell what its unit offers unless told otherwise.
    const services = modal.getByRole("group", { name: "Servicios y precios del comedor" });
    const box = (code: string) => services.getByRole("checkbox", { name: new RegExp(`^${code} `) });
    for (const code of ["ALM", "CEN", "DES", "DSC", "REF"]) await expect(box(code)).toBeChecked();
    await box("DSC").uncheck();
    await box("REF").uncheck();
    await expect(services.getByText("3 servicios sin precio: no se podrán vender hasta que tengan uno.")).toBeVisible();
    await services.getByRole("textbox", { name: "Precio de ALM en soles" }).fill("18.50");
    await services.getByRole("textbox", { name: "Precio de DES en soles" }).fill("12");
    // A price that is not soles comes back on its field; nothing is created.
    await services.getByRole("textbox", { name: "Precio de CEN en soles" }).fill("16,505");
    await modal.getByRole("button", { name: "Crear" }).click();
    await expect(services.getByText("Escriba un precio en soles con hasta 2 decimales, p. ej. 12.50.")).toBeVisible();
    await expect(services.getByRole("textbox", { name: "Precio de CEN en soles" })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await services.getByRole("textbox", { name: "Precio de CEN en soles" }).fill("16.50");
    await expect(services.getByText("3 servicios elegidos.")).toBeVisible();
    await modal.getByRole("button", { name: "Crear" }).click();
    await expect(flash(page, "success")).toHaveText(
      `Se creó Mina Cerro Verde › Unidad Norte › ${cafe} con 3 servicios (3 con precio).`,
    );
    await expect(modal).toBeHidden();

    // The row: services as chips, prices in soles on one line ("ALM S/ 18.50 · +2"), every price on hover.
    await page.getByRole("searchbox", { name: "Buscar comedores, unidades, minas o empresas" }).fill(RUN);
    await expect(page).toHaveURL(/[?&]search=/);
    const created = row(page, "Comedores", cafe.slice(0, 20));
    await expect(created).toHaveCount(1);
    await expect(created.getByRole("cell").nth(3).getByRole("listitem")).toHaveText(["ALM", "CEN", "DES"]);
    const prices = created.getByRole("cell").nth(4);
    await expect(prices.locator("[aria-hidden=true]")).toHaveText("ALM S/ 18.50 · +2");
    // (Intl writes "S/" and the amount with a no-break space between them.)
    await expect(prices.locator("[title]")).toHaveAttribute(
      "title",
      /^3 de 3 servicios con precio: ALM S\/\s18\.50, CEN S\/\s16\.50, DES S\/\s12\.00$/,
    );
    // The long name is cut to one line, whole on hover.
    await expect(created.getByRole("cell").first().locator("[title]")).toHaveAttribute("title", cafe);

    // Its prices dialog agrees: priced already, no other dialog was needed.
    await created.getByRole("button", { name: `Precios de ${cafe}`, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Precios de ${cafe}` });
    await expect(dialog.getByRole("textbox", { name: "Precio (S/) ALM" })).toHaveValue("18.50");
    await expect(dialog.getByRole("textbox", { name: "Precio (S/) DES" })).toHaveValue("12.00");
    await dialog.getByRole("button", { name: "Cancelar" }).click();

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("at 1366 px no cafe row is taller than two lines; the table sorts on the server; on a 390 px phone the cafes read as cards", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await admin(browser, mesa);
    await page.setViewportSize({ width: 1366, height: 850 });
    await open(page, "/management?tab=cafes");
    const cafes = table(page, "Comedores");
    await expect(cafes.locator("tbody tr").first()).toBeVisible();
    // Every row (a long name made by the other tests included): its height, less the cells' padding, holds at most
    // two lines of the table's text.
    const measure = () =>
      cafes.locator("tbody tr").evaluateAll((rows) =>
        rows.map((tr) => {
          const td = tr.querySelector("td")!;
          const style = getComputedStyle(td);
          const content =
            td.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
          return { text: (tr.textContent ?? "").slice(0, 40), lines: content / parseFloat(style.lineHeight) };
        }),
      );
    const rows = await measure();
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) expect(r.lines, r.text).toBeLessThanOrEqual(2.25);
    // The table fits the page: nothing scrolls sideways.
    expect(await cafes.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth + 1)).toBe(true);

    // Sorting by the cafe's name asks the server, which answers in that order.
    const header = cafes.getByRole("columnheader", { name: "Comedor" });
    await header.getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=name/);
    const order = (await header.getAttribute("aria-sort"))!;
    const names = (await cafes.locator("tbody tr td:first-child").allInnerTexts()).map((n) => n.trim());
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(names).toEqual(order === "descending" ? sorted.reverse() : sorted);
    for (const r of await measure()) expect(r.lines, r.text).toBeLessThanOrEqual(2.25);

    // A phone: each cafe is a card, its prices listed; nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("searchbox", { name: "Buscar comedores, unidades, minas o empresas" }).fill("Huarmey");
    await expect(page).toHaveURL(/[?&]search=Huarmey/);
    const card = row(page, "Comedores", "Comedor Puerto");
    expect(await card.evaluate((tr) => getComputedStyle(tr).display)).toBe("block");
    await expect(card.locator("td[data-label='Unidad']")).toContainText("Unidad Huarmey");
    await expect(card.locator("td[data-label='Precios']")).toContainText("ALM S/ 17.50 · DES S/ 12.00");
    const cardBox = (await card.boundingBox())!;
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("deleting a unit that still has cafes is refused, and the page says why", async ({ browser, mesa }) => {
    const { context, page, problems } = await admin(browser, mesa);
    const unit = "Unidad Huarmey";
    await open(page, "/management?tab=units");
    await expect(row(page, "Unidades", unit)).toHaveCount(1);
    await row(page, "Unidades", unit)
      .getByRole("button", { name: `Eliminar ${unit}`, exact: true })
      .click();
    await acceptConfirmation(page, `Eliminar ${unit}`);
    // (The seeded client companies may work there too; the cafes are what this checks.)
    const refusal = new RegExp(`^No se puede eliminar la unidad ${unit}: tiene 2 comedor`);
    await expect(page.getByRole("alert").filter({ hasText: refusal })).toBeVisible();
    await expect(flash(page, "success")).toHaveCount(0);
    // Still listed, with its two cafes. (That nothing is deleted, on a fresh load too, is tests/http/management.test.ts's
    // "a refused delete shows the message as a form error and deletes nothing".)
    await expect(row(page, "Unidades", unit)).toHaveCount(1);
    await expect(row(page, "Unidades", unit).getByRole("cell").nth(2)).toHaveText("2");
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("a row's services popover opens beside its button, keeps the keyboard, and closes with Escape, a click outside or its button", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await admin(browser, mesa);
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, "/management?tab=cafes");
    const cafe = "Comedor Mineroducto";
    const button = row(page, "Comedores", cafe).getByRole("button", { name: `Servicios de ${cafe}`, exact: true });
    const popover = page.getByRole("dialog", { name: `Servicios de ${cafe}` });

    await button.click();
    await expect(popover).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    // Next to its button, wholly on screen.
    const [b, p] = [(await button.boundingBox())!, (await popover.boundingBox())!];
    expect(
      Math.abs(p.y - (b.y + b.height)) <= 12 || Math.abs(p.y + p.height - b.y) <= 12,
      `popover at ${p.y}, button at ${b.y}`,
    ).toBe(true);
    expect(p.x).toBeGreaterThanOrEqual(0);
    expect(p.x + p.width).toBeLessThanOrEqual(390);
    // Focus is inside, on the first choice; Escape closes and gives it back to the button.
    await expect(popover.getByRole("checkbox").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(popover).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // A click outside closes it, and so does its button.
    await button.click();
    await expect(popover).toBeVisible();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(popover).toBeHidden();
    await button.click();
    await expect(popover).toBeVisible();
    await button.click();
    await expect(popover).toBeHidden();
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("each tab is rendered on the server and hydrates without replacing its markup", async ({ browser, mesa }) => {
    const { context } = await admin(browser, mesa);
    // The tabs load side by side, each in a tab of its own, so their waits for a quiet network overlap.
    const tabs = [
      ["mines", "Minas", "Mina Antamina"],
      ["units", "Unidades", "Unidad Huarmey"],
      ["cafes", "Comedores", "Comedor Mineroducto"],
    ] as const;
    await Promise.all(
      tabs.map(async ([tab, caption, first]) => {
        const page = await context.newPage();
        const problems = watchConsole(page);
        await watchServerMarkup(page);
        const response = await page.goto(`/management?tab=${tab}`);
        expect(response!.status(), tab).toBe(200);
        await waitForHydration(page);
        await page.waitForLoadState("networkidle");
        await expect(page.locator("#app")).toHaveAttribute("data-server-rendered", "true");
        await expect(row(page, caption, first)).toHaveCount(1);
        const removed: string[] = await page.evaluate(() => [...(window as any).__removedFromApp]);
        expect(removed, `${tab}: markup React replaced`).toEqual([]);
        // The management modal opens and closes: on one tab, as every tab sends it the same props.
        if (tab === "cafes") {
          await page.getByRole("button", { name: "Nuevo lugar" }).click();
          const modal = page.getByRole("dialog", { name: "Nuevo lugar" });
          await expect(modal).toBeVisible();
          await modal.getByRole("button", { name: "Cancelar" }).click();
          await expect(modal).toBeHidden();
          await page.waitForLoadState("networkidle");
        }
        expect(problems, `${tab}: ${problems.join("\n")}`).toEqual([]);
        await page.close();
      }),
    );
    await context.close();
  });
});
