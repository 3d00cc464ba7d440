/**
 * The Dealerships page in a real browser, as a super-administrator: a dealership is created with its dialog (a RUC
 * with a wrong check digit is refused first), a subdealership is added to it with the subdealership dialog working
 * in "Unidad Norte", the tree is collapsed and expanded with the mouse and the keyboard and shows the subdealership
 * with its unit, sorted by a column on the server; the Businesses area's old "Subconcesionarias" tab opens the
 * same page, which exports the tree as .xlsx; on a 390 px phone the tree reads as cards, without sideways scrolling.
 *
 * The e2e database is seeded on the server's first start ("Mina Cerro Verde" with "Unidad Norte" and "Unidad Sur").
 * The super-administrator is made by the worker's fixtures (tests/e2e/fixtures.ts).
 */
import type { Browser, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test, type Mesa } from "./fixtures";
import { waitForHydration, watchConsole } from "./support";

/** Unique per run, so names and RUCs never collide with another run's on a reused database. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Sofía Admin ${RUN}`, email: `super.dealerships.${RUN}@example.com` };

/** A company RUC ("20" + eight digits) with its SUNAT check digit. */
function ruc(): string {
  const base = `20${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(base[i]), 0);
  return base + String((11 - (sum % 11)) % 10);
}

const DEALERSHIP = { name: `Minera Pampa Alta ${RUN}`, ruc: ruc() };
const SUB = { name: `Perforaciones Puna ${RUN}`, ruc: ruc() };
/** The same RUC with a different last digit: a wrong check digit. */
const BAD_RUC = DEALERSHIP.ruc.slice(0, 10) + String((Number(DEALERSHIP.ruc[10]) + 1) % 10);

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

const flash = (page: Page) => page.locator('[data-flash="success"]');

test.describe.configure({ mode: "serial" });

test.describe("dealerships", () => {
  const admin = async (browser: Browser, mesa: Mesa) => {
    const context = await browser.newContext();
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  });

  test("a dealership and a subdealership are created with the dialogs and shown in the expandable tree", async ({
    browser,
    mesa,
  }) => {
    // A long journey through several dialogs and pages: on a loaded 2-core machine it nears the default 20 s.
    test.setTimeout(45_000);
    const { context, page, problems } = await admin(browser, mesa);
    await open(page, "/dealerships");
    await expect(page.getByRole("heading", { level: 1, name: "Concesionarias" })).toBeVisible();

    // The dealership dialog: a wrong check digit is refused on the RUC field, then the dealership is saved.
    await page.getByRole("button", { name: "Nueva concesionaria" }).click();
    const create = page.getByRole("dialog", { name: "Nueva concesionaria" });
    await create.getByLabel("Nombre").fill(DEALERSHIP.name);
    await create.getByLabel("RUC").fill(BAD_RUC);
    await create.getByLabel("Domicilio fiscal").fill("Av. Ejército 710, Yanahuara, Arequipa");
    await create.getByLabel("Teléfono").fill("054 274400");
    await create.getByLabel("Correo electrónico").fill("administracion@pampaalta.pe");
    await create.getByRole("button", { name: "Guardar" }).click();
    await expect(create.getByText("El RUC no es válido: su dígito verificador no coincide.")).toBeVisible();
    await expect(create.getByLabel("RUC")).toHaveAttribute("aria-invalid", "true");
    await create.getByLabel("RUC").fill(DEALERSHIP.ruc);
    await create.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page)).toHaveText(`Concesionaria ${DEALERSHIP.name} guardada.`);
    await expect(create).toBeHidden();

    // Find it (the tree is paginated), then add a subdealership from its row.
    await page.getByRole("searchbox", { name: "Buscar por nombre o RUC" }).fill(RUN);
    await expect(page).toHaveURL(/[?&]search=/);
    const tree = page.getByRole("table", { name: "Concesionarias y sus subconcesionarias" });
    const row = tree.getByRole("row").filter({ hasText: DEALERSHIP.name });
    await expect(row.getByRole("cell")).toHaveText([
      DEALERSHIP.name,
      DEALERSHIP.ruc,
      "054 274400",
      "administracion@pampaalta.pe",
      "0",
      "",
    ]);
    await row.getByRole("button", { name: `Agregar subconcesionaria a ${DEALERSHIP.name}` }).click();
    const sub = page.getByRole("dialog", { name: "Nueva subconcesionaria" });
    await expect(sub.getByLabel("Concesionaria")).toHaveAttribute("data-value", /^\d+$/);
    await expect(sub.getByLabel("Concesionaria")).toHaveText(DEALERSHIP.name);
    await sub.getByLabel("Nombre").fill(SUB.name);
    await sub.getByLabel("RUC").fill(SUB.ruc);
    await sub.getByRole("group", { name: "Mina Cerro Verde" }).getByRole("checkbox", { name: "Unidad Norte" }).check();
    await sub.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page)).toHaveText(`Subconcesionaria ${SUB.name} guardada.`);
    await expect(sub).toBeHidden();

    // The dealership now counts one subdealership and shows it expanded; collapse and expand again.
    await expect(row.getByRole("cell").nth(4)).toHaveText("1");
    const subTable = page.getByRole("table", { name: `Subconcesionarias de ${DEALERSHIP.name}` });
    const subRow = subTable.getByRole("row").filter({ hasText: SUB.name });
    await expect(subRow).toBeVisible();
    await expect(subRow.getByRole("cell").nth(1)).toHaveText(SUB.ruc);
    await expect(subRow.getByRole("listitem")).toHaveText(["Unidad Norte · Mina Cerro Verde"]);
    await expect(subRow.getByRole("listitem")).toHaveAttribute("title", "Mina Cerro Verde / Unidad Norte");

    await row.getByRole("button", { name: `Ocultar las subconcesionarias de ${DEALERSHIP.name}` }).click();
    const toggle = row.getByRole("button", { name: `Mostrar las subconcesionarias de ${DEALERSHIP.name}` });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(subRow).toBeHidden();
    // Keyboard: Enter opens, the left arrow closes, the right arrow opens.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(
      row.getByRole("button", { name: `Ocultar las subconcesionarias de ${DEALERSHIP.name}` }),
    ).toHaveAttribute("aria-expanded", "true");
    await expect(subRow).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(subRow).toBeHidden();
    await page.keyboard.press("ArrowRight");
    await expect(subRow).toBeVisible();

    // A search on the subdealership's RUC brings its dealership already expanded (a fresh load of the page).
    await open(page, `/dealerships?search=${SUB.ruc}`);
    await expect(
      page.getByRole("button", { name: `Ocultar las subconcesionarias de ${DEALERSHIP.name}` }),
    ).toHaveAttribute("aria-expanded", "true");
    await expect(
      page
        .getByRole("table", { name: `Subconcesionarias de ${DEALERSHIP.name}` })
        .getByRole("row")
        .filter({ hasText: SUB.name }),
    ).toBeVisible();

    expect(problems).toEqual([]);
    await context.close();
  });

  test("the tree sorts on the server; the old Subconcesionarias tab opens it, and it exports the tree as .xlsx", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await admin(browser, mesa);
    // Sorting by name, descending, reloads the page sorted by the server.
    await open(page, "/dealerships");
    const tree = page.getByRole("table", { name: "Concesionarias y sus subconcesionarias" });
    const names = async () =>
      (await tree.locator(":scope > tbody > tr[data-testid^='dealership-'] > td:first-child").allInnerTexts()).map(
        (text) => text.trim(),
      );
    // Each click on the header sorts the other way; the rows come back in the order the header says.
    const header = tree.getByRole("columnheader", { name: "Nombre" });
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const orders: string[] = [];
    for (let click = 0; click < 2; click++) {
      await header.getByRole("button").click();
      await expect(page).toHaveURL(/[?&]sort=name/);
      await expect(header).toHaveAttribute(
        "aria-sort",
        click === 0 ? /ascending|descending/ : orders[0] === "ascending" ? "descending" : "ascending",
      );
      const order = (await header.getAttribute("aria-sort"))!;
      orders.push(order);
      await expect(page).toHaveURL(order === "descending" ? /[?&]direction=desc/ : /^(?!.*direction=desc)/);
      const shown = await names();
      expect(shown.length).toBeGreaterThan(1);
      expect(shown).toEqual([...shown].sort(order === "descending" ? (a, b) => byName(b, a) : byName));
    }

    await open(page, `/businesses/subdealerships?search=${encodeURIComponent(RUN)}`);
    await expect(page).toHaveURL(new RegExp(`/dealerships\\?search=${RUN}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Concesionarias" })).toBeVisible();
    // No Businesses tab for them any more: the one entry is the sidebar's.
    await expect(page.getByRole("navigation", { name: "Secciones de empresas" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Concesionarias", exact: true })).toHaveCount(1);
    await expect(
      page
        .getByRole("table", { name: `Subconcesionarias de ${DEALERSHIP.name}` })
        .getByRole("row")
        .filter({ hasText: SUB.name }),
    ).toBeVisible();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Exportar a Excel" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^mesa-dealerships-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = XLSX.read(readFileSync(await download.path()), { type: "buffer" });
    expect(book.SheetNames).toEqual(["Concesionarias", "Subconcesionarias"]);
    const sheet = (name: string) => XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name], { header: 1 });
    expect(
      sheet("Concesionarias")
        .slice(1)
        .map((r) => r.slice(0, 2)),
    ).toEqual([[DEALERSHIP.name, DEALERSHIP.ruc]]);
    const rows = sheet("Subconcesionarias");
    expect(rows[0].slice(0, 4)).toEqual(["Nombre", "RUC", "Concesionaria", "Unidades"]);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      [SUB.name, SUB.ruc, DEALERSHIP.name, "Mina Cerro Verde / Unidad Norte"],
    ]);

    expect(problems).toEqual([]);
    await context.close();
  });

  test("on a 390 px phone the tree reads as cards: the dealership and its subdealerships, no sideways scrolling", async ({
    browser,
    mesa,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await open(page, `/dealerships?search=${SUB.ruc}`);
    const tree = page.getByRole("table", { name: "Concesionarias y sus subconcesionarias" });
    const card = tree.getByTestId(/^dealership-\d+$/).filter({ hasText: DEALERSHIP.name });
    await expect(card).toBeVisible();
    // A card: the name as its title, each other column a "label: value" line, the buttons at its foot.
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe("block");
    await expect(card.locator("td[data-label='RUC']")).toHaveText(DEALERSHIP.ruc);
    await expect(card.getByRole("button", { name: `Editar ${DEALERSHIP.name}` })).toBeVisible();
    // Its subdealerships, expanded by the search, are cards too.
    const subCard = page
      .getByRole("table", { name: `Subconcesionarias de ${DEALERSHIP.name}` })
      .getByRole("row")
      .filter({ hasText: SUB.name });
    await expect(subCard).toBeVisible();
    expect(await subCard.evaluate((row) => getComputedStyle(row).display)).toBe("block");
    await expect(subCard.locator("td[data-label='Unidades']")).toContainText("Unidad Norte · Mina Cerro Verde");
    const subBox = (await subCard.boundingBox())!;
    expect(subBox.x + subBox.width).toBeLessThanOrEqual(390);
    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    expect(problems).toEqual([]);
    await context.close();
  });
});
