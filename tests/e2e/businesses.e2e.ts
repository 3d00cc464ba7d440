/**
 * The Businesses area in a real browser, as a super-administrator: a business is created with the insert-business
 * dialog (a bad RUC is refused first), a headquarters is added to it, a property is registered there and its
 * label page shows the QR code; the properties table is exported to Excel. The area's tabs are businesses,
 * headquarters and properties (dealerships have their own page); the headquarters table sorts on the server; on a
 * 390 px phone the properties read as cards.
 *
 * Runs on the e2e database the server seeds on its first start; the super-administrators are made by the worker's
 * fixtures (tests/e2e/fixtures.ts; "Administración" at "Sede Lima").
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { chooseOption, pickDate, watchConsole, watchServerMarkup, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const TAG = RUN.slice(-6).toUpperCase();
const ADMIN = { name: `Sofía Empresas ${RUN}`, email: `super.businesses.${RUN}@example.com` };
const BUSINESS = { name: `Sierra Alimentos ${RUN} S.A.C.`, ruc: "20555123451" };
const HEADQUARTERS = `Sede Huancayo ${RUN}`;
const PROPERTY = { code: `HOR-${TAG}`, name: `Horno combinado ${RUN}` };

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

const flash = (page: Page) => page.locator('[data-flash="success"]');

// Each test makes its own super-administrator and reads only the seeded rows besides its own: the two workers share
// them.
test.describe.configure({ mode: "parallel" });

test("a business is created with the insert-business dialog, gets a headquarters and a property whose label shows a QR code; the table exports", async ({
  page,
  mesa,
}) => {
  test.setTimeout(45_000);
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  await mesa.signIn(page, ADMIN);
  const problems = watchConsole(page);
  await watchServerMarkup(page);

  // Businesses: the seeded business is listed; the dialog refuses a bad RUC, then creates the business.
  await open(page, "/businesses");
  await expect(page.getByRole("heading", { level: 1, name: "Empresas" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Secciones de empresas" }).getByRole("link", { name: "Empresas" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("cell", { name: /^Mesa Catering S\.A\.C\. / })).toBeVisible();
  await page.getByRole("button", { name: "Nueva empresa" }).click();
  const dialog = page.getByRole("dialog", { name: "Nueva empresa" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Razón social").fill(BUSINESS.name);
  await dialog.getByLabel("RUC").fill("20555123452");
  await dialog.getByLabel("Domicilio fiscal").fill("Jr. Junín 450, Huancayo");
  await dialog.getByLabel("Domicilio legal").fill("Jr. Junín 450, Huancayo");
  await dialog.getByLabel("Correo electrónico").fill("admin@sierra.pe");
  await dialog.getByLabel("Teléfono").fill("064 211 000");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog.getByText("El RUC no es válido: su dígito verificador no coincide.")).toBeVisible();
  await expect(dialog.getByLabel("RUC")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("RUC").fill(BUSINESS.ruc);
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(flash(page)).toHaveText(`Empresa ${BUSINESS.name} guardada.`);
  await expect(dialog).toBeHidden();
  const row = page.getByRole("row").filter({ hasText: BUSINESS.name });
  await expect(row.getByRole("cell").nth(2)).toHaveText(BUSINESS.ruc);
  // The seeded business shows the cafes it operates under its row.
  await page.getByRole("button", { name: "Ver los comedores que opera Mesa Catering S.A.C." }).click();
  await expect(page.getByText("Comedor Principal", { exact: true })).toBeVisible();

  // Headquarters: add one to the new business.
  await page.getByRole("navigation", { name: "Secciones de empresas" }).getByRole("link", { name: "Sedes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sedes" })).toBeVisible();
  await page.getByRole("button", { name: "Nueva sede" }).click();
  const hqDialog = page.getByRole("dialog", { name: "Nueva sede" });
  await chooseOption(hqDialog, "Empresa", BUSINESS.name);
  await hqDialog.getByLabel("Nombre").fill(HEADQUARTERS);
  await hqDialog.getByLabel("Dirección").fill("Calle Real 800, Huancayo");
  await hqDialog.getByRole("button", { name: "Guardar" }).click();
  await expect(flash(page)).toHaveText(`Sede ${HEADQUARTERS} guardada.`);
  await expect(page.getByRole("row").filter({ hasText: HEADQUARTERS }).getByRole("cell").nth(1)).toHaveText(
    BUSINESS.name,
  );

  // Properties: register one at the new headquarters.
  await page.getByRole("navigation", { name: "Secciones de empresas" }).getByRole("link", { name: "Bienes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Bienes" })).toBeVisible();
  await page.getByRole("button", { name: "Nuevo bien" }).click();
  const propertyDialog = page.getByRole("dialog", { name: "Nuevo bien" });
  await propertyDialog.getByLabel("Código").fill(PROPERTY.code.toLowerCase());
  await expect(propertyDialog.getByLabel("Código")).toHaveValue(PROPERTY.code);
  await propertyDialog.getByLabel("Nombre").fill(PROPERTY.name);
  await propertyDialog.getByLabel("Categoría").fill("Equipo de cocina");
  await chooseOption(propertyDialog, "Ubicación", `${HEADQUARTERS} · ${BUSINESS.name}`);
  await chooseOption(propertyDialog, "Estado", "En uso");
  await pickDate(propertyDialog, "Fecha de adquisición", "2024-02-10");
  await expect(propertyDialog.getByLabel("Fecha de adquisición")).toHaveText("10 de febrero de 2024");
  await propertyDialog.getByLabel("Valor de adquisición (S/)").fill("45900.50");
  await propertyDialog.getByRole("button", { name: "Guardar" }).click();
  await expect(flash(page)).toHaveText(`Bien ${PROPERTY.code} guardado.`);
  const propertyRow = page.getByRole("row").filter({ hasText: PROPERTY.code });
  await expect(propertyRow).toContainText(HEADQUARTERS);
  await expect(propertyRow).toContainText("S/ 45,900.50");

  // Export the table: a workbook download.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar a Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^mesa-properties-\d{4}-\d{2}-\d{2}\.xlsx$/);

  // The property's page, then its label with the QR code.
  await propertyRow.getByRole("link", { name: `Ver ${PROPERTY.code}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: PROPERTY.name })).toBeVisible();
  await expect(page.getByText(BUSINESS.name, { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Imprimir etiqueta" }).click();
  const label = page.getByRole("article", { name: `Etiqueta de ${PROPERTY.code}` });
  await expect(label).toBeVisible();
  await expect(label.locator("svg")).toHaveCount(1);
  await expect(label).toContainText(PROPERTY.code);
  await expect(label).toContainText(PROPERTY.name);
  await expect(label).toContainText(HEADQUARTERS);
  await expect(label).toContainText(BUSINESS.name);
  const url = page.url().replace(/\/label$/, "");
  await expect(label.getByRole("img", { name: `Código QR que abre ${url}`, exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Imprimir" })).toBeVisible();
  // Printed, only the label shows.
  await page.emulateMedia({ media: "print" });
  await expect(label).toBeVisible();
  await expect(label.locator("svg")).toBeVisible();
  await expect(page.getByRole("button", { name: "Imprimir" })).toBeHidden();
  await expect(page.locator("#sidebar")).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  // The label page loaded directly hydrates without throwing the server markup away.
  await open(page, new URL(page.url()).pathname);
  expect(await page.evaluate(() => (window as any).__removedFromApp as string[])).toEqual([]);
  expect(problems, problems.join("\n")).toEqual([]);
});

test("the area's tabs leave dealerships to their own page; headquarters sort on the server; properties read as cards on a phone", async ({
  browser,
  mesa,
}) => {
  const person = { name: `Tomás Empresas ${RUN}`, email: `super.businesses.tabs.${RUN}@example.com` };
  await mesa.user({ ...person, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  const context = await browser.newContext();
  await mesa.signIn(context, person);
  const page = await context.newPage();
  const problems = watchConsole(page);

  await open(page, "/businesses/headquarters");
  await expect(page.getByRole("navigation", { name: "Secciones de empresas" }).getByRole("link")).toHaveText([
    "Empresas",
    "Sedes",
    "Bienes",
  ]);
  // Sorting by name asks the server, both ways.
  const table = page.getByRole("table", { name: "Sedes" });
  const header = table.getByRole("columnheader", { name: "Nombre" });
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (let click = 0; click < 2; click++) {
    await header.getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=name/);
    await expect(header).toHaveAttribute("aria-sort", /ascending|descending/);
    const order = (await header.getAttribute("aria-sort"))!;
    await expect(page).toHaveURL(order === "descending" ? /[?&]direction=desc/ : /^(?!.*direction=desc)/);
    const names = (await table.locator("tbody tr td:first-child").allInnerTexts()).map((n) => n.trim());
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort(order === "descending" ? (a, b) => byName(b, a) : byName));
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, "/businesses/properties");
  const card = page.getByRole("table", { name: "Bienes" }).locator("tbody tr").first();
  expect(await card.evaluate((tr) => getComputedStyle(tr).display)).toBe("block");
  await expect(card.locator("td[data-label='Estado']")).toBeVisible();
  const box = (await card.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(problems, problems.join("\n")).toEqual([]);
  await context.close();
});
