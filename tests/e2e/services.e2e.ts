/**
 * The Services page in a real browser, as a super-administrator: the catalogue (seeded services listed, create,
 * edit, search, sort on the server, duplicate code refused, delete an unused service, cards on a phone); the
 * services of each place, edited on Management, where the Services page links (a unit cannot add a service its mine
 * does not offer; add it to the mine, then the unit; removing a service from the mine asks to confirm, listing the
 * units and cafes that would lose it, and then removes it from them); a cafe's prices (saved in soles, listed in the
 * history, invalid prices refused); and clean hydration with every dialog opened.
 *
 * Each test stands alone on the e2e database the server seeds on its first start (services DES, ALM, CEN, REF and
 * DSC offered by "Mina Cerro Verde", its units "Unidad Norte" and "Unidad Sur" and their cafes "Comedor Principal",
 * "Comedor Taller", "Comedor Campamento" and "Comedor Chancadora", with prices; and by "Mina Antamina", whose
 * Huarmey unit and cafes serve no dinner), so the two workers share them, each test on its worker's own database.
 * The super-administrator is made by the worker's fixtures (tests/e2e/fixtures.ts).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test, type Mesa } from "./fixtures";
import { acceptConfirmation, chooseOption, watchConsole, watchServerMarkup, waitForHydration } from "./support";

/** Unique per run, so names, addresses and codes never collide with another run's on a reused database. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
/** Six capitals and digits for service codes (at most 12 characters, [A-Z0-9_-]). */
const TAG = RUN.slice(-6).toUpperCase();
const ADMIN = { name: `Sofía Admin ${RUN}`, email: `super.services.${RUN}@example.com` };

/** Created, renamed, searched for and deleted in the first test. */
const CATALOGUE = { code: `T1-${TAG}`, name: `Lonche especial ${RUN}`, renamed: `Lonche de turno ${RUN}` };
/** Created in the second test and offered by the mine, then by Unidad Norte. */
const EXTRA = { code: `T2-${TAG}`, name: `Caldo nocturno ${RUN}` };

const MINE = "Mina Cerro Verde";
const SEEDED = ["ALM", "CEN", "DES", "DSC", "REF"];

// ---------------------------------------------------------------------------------------------------------------
// Helpers (as in access.e2e.ts)

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** Loads the page afresh, as the browser's reload button does. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await waitForHydration(page);
}

const flash = (page: Page, kind: "success" | "error") => page.locator(`[data-flash="${kind}"]`);

/** The catalogue table and one service's row in it (by its code, the first cell). */
const catalogue = (page: Page) => page.getByRole("table", { name: "Servicios" });
const serviceRow = (page: Page, code: string) =>
  catalogue(page)
    .locator("tbody tr")
    .filter({ has: page.locator("td:first-child", { hasText: new RegExp(`^${code}$`) }) });

type Level = "Minas" | "Unidades" | "Comedores";
const TAB: Record<Level, string> = { Minas: "mines", Unidades: "units", Comedores: "cafes" };

/** A place's row on its Management tab (the row whose first cell is its name). */
const placeRow = (page: Page, level: Level, place: string) =>
  page
    .getByRole("table", { name: level })
    .locator("tbody tr")
    .filter({ has: page.locator("td:first-child", { hasText: new RegExp(`^${place}$`) }) });

/**
 * Opens a place's Management tab, searched for it. Searched for a mine (the mine's name), the Unidades and Comedores
 * tabs list the mine's units or cafes: their rows are then awaited instead.
 */
async function openPlace(page: Page, level: Level, place: string): Promise<void> {
  await open(page, `/management?tab=${TAB[level]}&search=${encodeURIComponent(place)}`);
  if (level !== "Minas" && place === MINE)
    for (const below of level === "Unidades"
      ? ["Unidad Norte", "Unidad Sur"]
      : ["Comedor Principal", "Comedor Campamento"])
      await expect(placeRow(page, level, below)).toHaveCount(1);
  else await expect(placeRow(page, level, place)).toHaveCount(1);
}

/** The service codes a place's row shows as chips (those folded behind "+2" included). */
const chips = (page: Page, level: Level, place: string) => placeRow(page, level, place).locator("li.font-mono");

/** Opens the services popover of a mine, unit or cafe from its row on Management. */
async function placeDialog(page: Page, level: Level, place: string) {
  await placeRow(page, level, place)
    .getByRole("button", { name: `Servicios de ${place}`, exact: true })
    .click();
  const dialog = page.getByRole("dialog", { name: `Servicios de ${place}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A service's checkbox in a place's popover (its label reads "CODE Name · Type"). */
const serviceChoice = (dialog: ReturnType<Page["getByRole"]>, code: string) =>
  dialog.getByRole("checkbox", { name: new RegExp(`^${code} `) });

/** Opens a cafe's prices dialog from its row on Management. */
async function pricesDialog(page: Page, cafe: string) {
  await placeRow(page, "Comedores", cafe)
    .getByRole("button", { name: `Precios de ${cafe}`, exact: true })
    .click();
  const dialog = page.getByRole("dialog", { name: `Precios de ${cafe}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Creates a service with the "Nuevo servicio" dialog. */
async function createService(page: Page, service: { code: string; name: string }, type = "Refrigerio"): Promise<void> {
  await page.getByRole("button", { name: "Nuevo servicio" }).click();
  const dialog = page.getByRole("dialog", { name: "Nuevo servicio" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Código").fill(service.code);
  await dialog.getByLabel("Nombre").fill(service.name);
  await chooseOption(dialog, "Tipo", type);
  await dialog.getByLabel("Descripción").fill("Servicio de prueba del navegador.");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(flash(page, "success")).toHaveText(`Servicio ${service.code} guardado.`);
  await expect(dialog).toBeHidden();
}

// ---------------------------------------------------------------------------------------------------------------

// The tests stand alone (see above): the two workers share them.
test.describe.configure({ mode: "parallel" });

test.describe("services", () => {
  const admin = async (browser: Browser, mesa: Mesa) => {
    const context = await browser.newContext();
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  });

  test("the catalogue: the seeded services are listed; a service is created, renamed, found, refused with a taken code and deleted", async ({
    browser,
    mesa,
  }) => {
    // A long journey through several dialogs and pages: on a loaded 2-core machine it nears the default 20 s.
    test.setTimeout(45_000);
    const { context, page, problems } = await admin(browser, mesa);
    await open(page, "/services");
    await expect(page.getByRole("heading", { level: 1, name: "Servicios" })).toBeVisible();
    // No tabs: the places' services and prices are on Management, one link away.
    await expect(page.getByRole("tab")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Servicios y precios por lugar" })).toHaveAttribute(
      "href",
      "/management?tab=cafes",
    );

    // The five seeded services: ALM is offered by 2 mines, 4 units and 8 cafes (14 places), CEN by 11 (not on the
    // Huarmey side); browser tests of other pages that ran earlier on this database may have added places.
    for (const code of SEEDED) await expect(serviceRow(page, code)).toHaveCount(1);
    await expect(serviceRow(page, "ALM").getByRole("cell")).toHaveText([
      "ALM",
      /^Almuerzo/,
      "Almuerzo",
      "Activo",
      /^\d+$/,
      "",
    ]);
    const placesOf = async (code: string) =>
      Number(await serviceRow(page, code).getByRole("cell").nth(4).textContent());
    expect(await placesOf("ALM")).toBeGreaterThanOrEqual(14);
    expect((await placesOf("ALM")) - (await placesOf("CEN"))).toBeGreaterThanOrEqual(3);

    // Create.
    await createService(page, CATALOGUE);
    await expect(serviceRow(page, CATALOGUE.code).getByRole("cell")).toHaveText([
      CATALOGUE.code,
      `${CATALOGUE.name}Servicio de prueba del navegador.`,
      "Refrigerio",
      "Activo",
      "0",
      "",
    ]);

    // Edit its name (the dialog starts with its current values).
    await serviceRow(page, CATALOGUE.code)
      .getByRole("button", { name: `Editar ${CATALOGUE.code}` })
      .click();
    const edit = page.getByRole("dialog", { name: "Editar servicio" });
    await expect(edit.getByLabel("Código")).toHaveValue(CATALOGUE.code);
    await expect(edit.getByLabel("Nombre")).toHaveValue(CATALOGUE.name);
    await expect(edit.getByLabel("Tipo")).toHaveAttribute("data-value", "snack");
    await edit.getByLabel("Nombre").fill(CATALOGUE.renamed);
    await edit.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page, "success")).toHaveText(`Servicio ${CATALOGUE.code} guardado.`);
    await expect(edit).toBeHidden();
    await expect(serviceRow(page, CATALOGUE.code).getByRole("cell").nth(1)).toContainText(CATALOGUE.renamed);

    // Search by part of the new name: only that service is listed.
    await page.getByRole("searchbox", { name: "Buscar por código o nombre" }).fill(`de turno ${RUN}`);
    await expect(page).toHaveURL(/[?&]search=/);
    await expect(catalogue(page).locator("tbody tr")).toHaveCount(1);
    await expect(serviceRow(page, CATALOGUE.code)).toHaveCount(1);
    await page.getByRole("searchbox", { name: "Buscar por código o nombre" }).fill("");
    await expect(serviceRow(page, "DES")).toHaveCount(1);

    // A taken code (typed in lower case: codes are kept in capitals) is refused on the code field.
    await page.getByRole("button", { name: "Nuevo servicio" }).click();
    const create = page.getByRole("dialog", { name: "Nuevo servicio" });
    await create.getByLabel("Código").fill("des");
    await expect(create.getByLabel("Código")).toHaveValue("DES");
    await create.getByLabel("Nombre").fill("Otro desayuno");
    await chooseOption(create, "Tipo", "Desayuno");
    await create.getByRole("button", { name: "Guardar" }).click();
    await expect(create.getByText("Ya existe un servicio con el código DES.")).toBeVisible();
    await expect(create.getByLabel("Código")).toHaveAttribute("aria-invalid", "true");
    await expect(create).toBeVisible();
    await create.getByRole("button", { name: "Cancelar" }).click();
    await expect(create).toBeHidden();
    await expect(catalogue(page).locator("tbody tr").filter({ hasText: "Otro desayuno" })).toHaveCount(0);

    // Delete the new service (no place offers it).
    await serviceRow(page, CATALOGUE.code)
      .getByRole("button", { name: `Eliminar ${CATALOGUE.code}` })
      .click();
    await acceptConfirmation(page, `¿Eliminar el servicio ${CATALOGUE.code}?`);
    await expect(flash(page, "success")).toHaveText(`Servicio ${CATALOGUE.code} eliminado.`);
    await expect(serviceRow(page, CATALOGUE.code)).toHaveCount(0);
    for (const code of SEEDED) await expect(serviceRow(page, code)).toHaveCount(1);

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("deleting a service that places offer is refused, and the page says why", async ({ browser, mesa }) => {
    const { context, page, problems } = await admin(browser, mesa);
    await open(page, "/services");
    await serviceRow(page, "DES").getByRole("button", { name: "Eliminar DES" }).click();
    await acceptConfirmation(page, "¿Eliminar el servicio DES?");
    await expect(
      page.getByText(
        /^No se puede eliminar DES: lo ofrecen minas \(\d+\), unidades \(\d+\), comedores \(\d+\) y empresas \(\d+\)\. Quítelo de ellos o desactívelo\.$/,
      ),
    ).toBeVisible();
    await expect(serviceRow(page, "DES")).toHaveCount(1);
    await expect(flash(page, "success")).toHaveCount(0);
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("the catalogue sorts on the server and reads as cards on a 390 px phone", async ({ browser, mesa }) => {
    const { context, page, problems } = await admin(browser, mesa);
    await open(page, "/services");
    const codes = async () =>
      (await catalogue(page).locator("tbody tr td:first-child").allInnerTexts()).map((c) => c.trim());
    const header = catalogue(page).getByRole("columnheader", { name: "Código" });
    for (let click = 0; click < 2; click++) {
      await header.getByRole("button").click();
      await expect(page).toHaveURL(/[?&]sort=code/);
      await expect(header).toHaveAttribute("aria-sort", /ascending|descending/);
      const order = (await header.getAttribute("aria-sort"))!;
      await expect(page).toHaveURL(order === "descending" ? /[?&]direction=desc/ : /^(?!.*direction=desc)/);
      const shown = await codes();
      const sorted = [...shown].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(shown).toEqual(order === "descending" ? sorted.reverse() : sorted);
    }

    // A phone: the same page, narrowed to ALM by its search box.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("searchbox", { name: "Buscar por código o nombre" }).fill("ALM");
    await expect(page).toHaveURL(/[?&]search=ALM/);
    const card = serviceRow(page, "ALM");
    expect(await card.evaluate((tr) => getComputedStyle(tr).display)).toBe("block");
    await expect(card.locator("td[data-label='Tipo']")).toHaveText("Almuerzo");
    await expect(card.locator("td[data-label='Estado']")).toHaveText("Activo");
    const box = (await card.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("a place's services, on Management: a unit cannot take a service its mine lacks; offered by the mine, then the unit; removing one from the mine confirms and cascades", async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(45_000);
    const { context, page, problems } = await admin(browser, mesa);
    await open(page, "/services");
    await createService(page, EXTRA, "Cena");

    // The Services page leads to Management for the places' services (its old tab's address does too: see the last
    // test).
    await page.getByRole("link", { name: "Servicios y precios por lugar" }).click();
    await expect(page).toHaveURL(/\/management\?tab=cafes$/);
    await expect(page.getByRole("heading", { level: 1, name: "Gestión" })).toBeVisible();

    // This tab keeps the mine's units (both found by the mine's name); a second tab keeps the mine.
    await openPlace(page, "Unidades", MINE);
    await expect(chips(page, "Unidades", "Unidad Norte")).toHaveText(SEEDED);
    const other = await context.newPage();
    const otherProblems = watchConsole(other);
    await openPlace(other, "Minas", MINE);
    await expect(chips(other, "Minas", MINE)).toHaveText(SEEDED);

    // The unit's dialog offers only what the mine offers: the new service is not a choice.
    let dialog = await placeDialog(page, "Unidades", "Unidad Norte");
    await expect(dialog.getByText(`Solo puede elegir servicios que ofrece ${MINE}.`)).toBeVisible();
    await expect(dialog.getByRole("checkbox")).toHaveCount(SEEDED.length);
    await expect(serviceChoice(dialog, EXTRA.code)).toHaveCount(0);
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();

    // The server refuses it too: the second tab has the mine offer it, this tab loads that, the second tab takes it
    // back, and this (now stale) tab asks Unidad Norte for it.
    const setMine = async (p: Page, on: boolean) => {
      const d = await placeDialog(p, "Minas", MINE);
      await expect(d.getByText("Una mina puede ofrecer cualquier servicio activo.")).toBeVisible();
      await serviceChoice(d, EXTRA.code).setChecked(on);
      await d.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(p, "success")).toHaveText(`Servicios de ${MINE} guardados.`);
      await expect(d).toBeHidden();
      await expect(chips(p, "Minas", MINE)).toHaveText(on ? [...SEEDED, EXTRA.code].sort() : SEEDED);
    };
    await setMine(other, true);
    await reload(page);
    await setMine(other, false);

    dialog = await placeDialog(page, "Unidades", "Unidad Norte");
    await serviceChoice(dialog, EXTRA.code).check();
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog.getByText(`${EXTRA.code} · ${EXTRA.name} no lo ofrece la mina ${MINE}.`)).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();
    await expect(chips(page, "Unidades", "Unidad Norte")).toHaveText(SEEDED);

    // The mine offers it, then the unit; its sister unit is left as it was.
    await setMine(other, true);
    await reload(page);
    dialog = await placeDialog(page, "Unidades", "Unidad Norte");
    await serviceChoice(dialog, EXTRA.code).check();
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page, "success")).toHaveText("Servicios de Unidad Norte guardados.");
    await expect(dialog).toBeHidden();
    await expect(chips(page, "Unidades", "Unidad Norte")).toHaveText([...SEEDED, EXTRA.code].sort());
    await expect(chips(page, "Unidades", "Unidad Sur")).toHaveText(SEEDED);

    // Removing REF from the mine: the dialog lists the units and cafes that offer it and asks to confirm.
    dialog = await placeDialog(other, "Minas", MINE);
    await serviceChoice(dialog, "REF").uncheck();
    await dialog.getByRole("button", { name: "Guardar" }).click();
    const confirmation = other.getByRole("alertdialog", {
      name: "¿Quitar servicios también de los lugares dependientes?",
    });
    await expect(confirmation).toBeVisible();
    await expect(confirmation.getByText(`Quitar REF de ${MINE} también lo quitará de:`)).toBeVisible();
    await expect(confirmation.getByRole("listitem")).toHaveText([
      `Unidad ${MINE} › Unidad Norte: REF`,
      `Unidad ${MINE} › Unidad Sur: REF`,
      `Comedor ${MINE} › Unidad Norte › Comedor Principal: REF`,
      `Comedor ${MINE} › Unidad Norte › Comedor Taller: REF`,
      `Comedor ${MINE} › Unidad Sur › Comedor Campamento: REF`,
      `Comedor ${MINE} › Unidad Sur › Comedor Chancadora: REF`,
    ]);
    await confirmation.getByRole("button", { name: "Quitar también de ellos" }).click();
    await expect(flash(other, "success")).toHaveText(
      `Servicios de ${MINE} guardados; también se quitaron de 6 lugares dependientes.`,
    );
    await expect(confirmation).toBeHidden();
    const withoutRef = SEEDED.filter((c) => c !== "REF");
    await expect(chips(other, "Minas", MINE)).toHaveText([...withoutRef, EXTRA.code].sort());
    await other.close();
    // Below it, after a fresh load of the units and of the mine's cafes.
    await reload(page);
    await expect(chips(page, "Unidades", "Unidad Norte")).toHaveText([...withoutRef, EXTRA.code].sort());
    await expect(chips(page, "Unidades", "Unidad Sur")).toHaveText(withoutRef);
    await openPlace(page, "Comedores", MINE);
    for (const cafe of ["Comedor Principal", "Comedor Campamento"])
      await expect(chips(page, "Comedores", cafe), cafe).toHaveText(withoutRef);

    const all = [...problems, ...otherProblems];
    expect(all, all.join("\n")).toEqual([]);
    await context.close();
  });

  test("prices: Comedor Principal's ALM set to 12.50 shows in soles in the history; 12.345 is refused on the price field, and the dialog stays open", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await admin(browser, mesa);
    await openPlace(page, "Comedores", "Comedor Principal");

    let dialog = await pricesDialog(page, "Comedor Principal");
    await expect(dialog.getByText(`${MINE} › Unidad Norte › Comedor Principal`)).toBeVisible();
    let alm = dialog.getByRole("textbox", { name: "Precio (S/) ALM" });
    await expect(alm).toHaveValue("18.00");

    await alm.fill("12.50");
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page, "success")).toHaveText("Precios guardados: 1 cambio.");
    await expect(dialog).toBeHidden();

    // Reopened: the new price, and the change in the history in soles (S/ with a no-break space).
    dialog = await pricesDialog(page, "Comedor Principal");
    alm = dialog.getByRole("textbox", { name: "Precio (S/) ALM" });
    await expect(alm).toHaveValue("12.50");
    await expect(dialog.getByRole("textbox", { name: "Precio (S/) DES" })).toHaveValue("12.50");
    // Newest first: this change heads the history.
    const history = dialog.getByRole("table", { name: "Cambios recientes" }).locator("tbody tr");
    await expect(history.first().getByRole("cell")).toHaveText([
      "ALM Almuerzo",
      /^S\/\s18\.00$/,
      /^S\/\s12\.50$/,
      ADMIN.name,
      /\d/,
    ]);
    const changes = await history.count();

    // A price with three decimals comes back on its field, as typed, and the dialog stays open. (What else the
    // server refuses, "abc" among it, is tests/http/services.test.ts's "invalid prices and services the cafe does
    // not offer are refused, nothing is written".)
    await alm.fill("12.345");
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog.getByText("Escriba un precio en soles con hasta 2 decimales, p. ej. 12.50.")).toBeVisible();
    await expect(alm).toHaveAttribute("aria-invalid", "true");
    await expect(alm).toHaveValue("12.345");
    // Nothing was saved: the history is as it was.
    await expect(history).toHaveCount(changes);
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  /**
   * Loads `path` in a fresh tab, checks it was server-rendered and hydrated with the heading `heading`, runs `then`,
   * and returns what React removed from the server markup right after hydration along with the console problems seen
   * until the end.
   */
  const load = async (context: BrowserContext, path: string, heading: string, then: (page: Page) => Promise<void>) => {
    const page = await context.newPage();
    const problems = watchConsole(page);
    await watchServerMarkup(page);
    const response = await page.goto(path);
    expect(response!.status(), path).toBe(200);
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    await expect(page.locator("#app")).toHaveAttribute("data-server-rendered", "true");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    const removed: string[] = await page.evaluate(() => [...(window as any).__removedFromApp]);
    await then(page);
    await page.waitForLoadState("networkidle");
    await page.close();
    return { removed, problems };
  };

  test("/services hydrates cleanly and its dialogs open without console errors", async ({ browser, mesa }) => {
    const { context } = await admin(browser, mesa);
    const { removed, problems } = await load(context, "/services", "Servicios", async (page) => {
      await page.getByRole("button", { name: "Nuevo servicio" }).click();
      await page.getByRole("dialog", { name: "Nuevo servicio" }).getByRole("button", { name: "Cerrar" }).click();
      await serviceRow(page, "DES").getByRole("button", { name: "Editar DES" }).click();
      await page.getByRole("dialog", { name: "Editar servicio" }).getByRole("button", { name: "Cancelar" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });
    expect(removed, "markup React replaced").toEqual([]);
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });

  test("the old Lugares tab's address opens Management, which hydrates cleanly with a mine's, unit's and cafe's dialogs", async ({
    browser,
    mesa,
  }) => {
    const { context } = await admin(browser, mesa);
    const { removed, problems } = await load(context, "/services?tab=places", "Gestión", async (page) => {
      await expect(page).toHaveURL(/\/management\?tab=cafes$/);
      // Each place found on its tab through the page's own tab list and search box.
      for (const [level, place, searchLabel] of [
        ["Comedores", "Comedor Campamento", "Buscar comedores, unidades, minas o empresas"],
        ["Unidades", "Unidad Sur", "Buscar unidades o minas"],
        ["Minas", MINE, "Buscar minas"],
      ] as const) {
        if (level !== "Comedores") {
          await page.getByRole("tab", { name: level }).click();
          await expect(page).toHaveURL(new RegExp(`[?&]tab=${TAB[level]}`));
        }
        await page.getByRole("searchbox", { name: searchLabel }).fill(place);
        await expect(page).toHaveURL(/[?&]search=/);
        await expect(placeRow(page, level, place)).toHaveCount(1);
        const dialog = await placeDialog(page, level, place);
        await dialog.getByRole("button", { name: "Cerrar" }).click();
        await expect(dialog).toBeHidden();
        if (level !== "Comedores") continue;
        const prices = await pricesDialog(page, place);
        await prices.getByRole("button", { name: "Cerrar" }).click();
        await expect(prices).toBeHidden();
      }
    });
    expect(problems, problems.join("\n")).toEqual([]);
    expect(removed, "markup React replaced").toEqual([]);
    await context.close();
  });
});
