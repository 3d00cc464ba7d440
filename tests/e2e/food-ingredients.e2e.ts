/**
 * Ingredients, providers and logistics in a real browser, as someone who is the nutritionist ("Nutrición") and the
 * buyer ("Logística") at Sede Lima:
 *
 * - the New-ingredient dialog creates an ingredient with its figures and its first offer, the cost per unit worked
 *   out as the price is typed; the Ingredients page then shows it under its provider, found by the search, and the
 *   ingredients tab shows its figures;
 * - the New-provider dialog refuses a RUC with a wrong check digit, then saves; an offer's price is changed from the
 *   Providers page (grouped by city) and its history shows both prices;
 * - the Logistics page shows Sede Lima as the logistics centre of Lima, stocking the new ingredient from its
 *   cheapest offer, with the area's tabs and the keyboard.
 *
 * axe checks the three pages and their dialogs, light and dark, at 1366 and 390 px, with the pages no wider than the
 * screen and the offers read as cards on a phone, in tests/e2e/accessibility-food.e2e.ts.
 *
 * The e2e database is seeded on the server's first start: the demo cities (Sede Lima in Lima), ingredients,
 * providers and offers, and the areas "Nutrición" and "Logística" at Sede Lima. The person is made by the worker's
 * fixtures (tests/e2e/fixtures.ts).
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test, type Mesa } from "./fixtures";
import { acceptConfirmation, chooseOption, waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PERSON = { name: `Rosa Compras ${RUN}`, email: `food.${RUN}@example.com` };
const INGREDIENT = `Cushuro ${RUN}`;
const PROVIDER = `Acopio Andino ${RUN}`;

/** A company RUC ("20" + eight digits) with its SUNAT check digit. */
function ruc(): string {
  const base = `20${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(base[i]), 0);
  return base + String((11 - (sum % 11)) % 10);
}
const RUC = ruc();
const BAD_RUC = RUC.slice(0, 10) + String((Number(RUC[10]) + 1) % 10);

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

const flash = (page: Page) => page.locator('[data-flash="success"]');

test.describe.configure({ mode: "serial" });

test.describe("ingredients, providers and logistics", () => {
  const signedIn = async (browser: Browser, mesa: Mesa) => {
    const context = await browser.newContext();
    await mesa.signIn(context, PERSON);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  test.beforeAll(async ({ mesa }) => {
    for (const [role, area] of [
      ["nutritionist", "Nutrición"],
      ["buyer", "Logística"],
    ])
      await mesa.user({ ...PERSON, role, area, place: "Sede Lima" });
  });

  test("the New-ingredient dialog creates an ingredient with its first offer; the page lists it under its provider", async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(40_000);
    const { context, page, problems } = await signedIn(browser, mesa);
    // The Food page's tabs lead to the Ingredients page. (The sidebar's Comida entry, which opens the Food page, is
    // tests/e2e/food-dishes.e2e.ts's.)
    await open(page, "/food");
    await expect(page.getByRole("heading", { level: 1, name: "Comida" })).toBeVisible();
    await page.getByRole("link", { name: "Insumos", exact: true }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Insumos" })).toBeVisible();
    await waitForHydration(page);

    await page.getByRole("button", { name: "Nuevo insumo" }).click();
    const dialog = page.getByRole("dialog", { name: "Nuevo insumo" });
    // The first field has the focus.
    await expect(dialog.getByLabel("Nombre")).toBeFocused();
    await dialog.getByLabel("Nombre").fill(INGREDIENT);
    await chooseOption(dialog, "Categoría", "Verduras y hortalizas");
    await chooseOption(dialog, "Unidad base", "Unidades");
    await dialog.getByLabel("Kcal por 100 g").fill("45");
    await dialog.getByLabel("Merma sólida (%)").fill("10");
    await dialog.getByLabel("Proteínas (g)").fill("2,5");
    await dialog.getByRole("checkbox", { name: "Apio" }).check();
    await dialog.getByRole("checkbox", { name: "Registrar ya lo que cobra un proveedor por este insumo" }).check();
    await chooseOption(dialog, "Proveedor", "Agrícola Santa Rosa S.A.C.");
    await chooseOption(dialog, "Ciudad", "Lima");
    await dialog.getByLabel("Presentación").fill("Atado de 12");
    await dialog.getByLabel("Cantidad (u)").fill("12");
    await dialog.getByLabel("Precio (S/)").fill("14.16");
    // 14.16 with IGV for 12 units: S/ 12.00 net, S/ 1.00 a unit.
    await expect(dialog.getByText("Costo: S/ 1.00 por unidad sin IGV")).toBeVisible();
    // A unit ingredient needs the weight of one unit: refused on that field first.
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog.getByLabel("Peso de una unidad (g)")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByText("Este campo es obligatorio.")).toBeVisible();
    await dialog.getByLabel("Peso de una unidad (g)").fill("80");
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page)).toHaveText(`Insumo ${INGREDIENT} guardado con su primera oferta.`);
    await expect(dialog).toBeHidden();

    // Under its provider, found by the search.
    await page.getByRole("searchbox", { name: "Buscar insumo, proveedor o ciudad" }).fill(RUN);
    await expect(page).toHaveURL(/[?&]search=/);
    const group = page.getByRole("region", { name: /Agrícola Santa Rosa S\.A\.C\./ });
    const row = group.getByRole("row").filter({ hasText: INGREDIENT });
    await expect(row.getByRole("cell")).toHaveText([
      INGREDIENT,
      "Lima",
      "Atado de 1212 u",
      "S/ 14.16con IGV",
      "S/ 1.00 por unidad",
      /\d/,
      "",
    ]);

    // The ingredients tab shows its figures.
    await page.getByRole("tab", { name: "Insumos y composición" }).click();
    await expect(page).toHaveURL(/[?&]tab=ingredients/);
    await page.getByRole("searchbox", { name: "Buscar por nombre o categoría" }).fill(RUN);
    const figures = page.getByRole("row").filter({ hasText: INGREDIENT });
    await expect(figures.getByRole("cell").nth(2)).toHaveText("Unidad (80 g)");
    await expect(figures.getByRole("cell").nth(5)).toHaveText("10 % + 0 %");
    await expect(figures.getByRole("listitem")).toHaveText(["Apio"]);

    expect(problems).toEqual([]);
    await context.close();
  });

  test("the New-provider dialog checks the RUC; an offer's new price is kept in its history", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await signedIn(browser, mesa);
    await open(page, "/providers");
    await expect(page.getByRole("heading", { level: 1, name: "Proveedores" })).toBeVisible();
    await page.getByRole("button", { name: "Nuevo proveedor" }).click();
    const dialog = page.getByRole("dialog", { name: "Nuevo proveedor" });
    await dialog.getByLabel("Razón social").fill(PROVIDER);
    await dialog.getByLabel("RUC").fill(BAD_RUC);
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog.getByText("El RUC no es válido: su dígito verificador no coincide.")).toBeVisible();
    await dialog.getByLabel("RUC").fill(RUC);
    await dialog.getByLabel("Contacto").fill("Hilario Condori");
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page)).toHaveText(`Proveedor ${PROVIDER} guardado.`);

    // The offer made with the ingredient, in Lima's group: a new price, then its history.
    await page.getByRole("searchbox", { name: "Buscar insumo, proveedor o ciudad" }).fill(RUN);
    await expect(page).toHaveURL(/[?&]search=/);
    const lima = page.getByRole("region", { name: /^Lima/ });
    const row = lima.getByRole("row").filter({ hasText: INGREDIENT });
    await row.getByRole("button", { name: `Editar ${INGREDIENT} · Atado de 12` }).click();
    const edit = page.getByRole("dialog", { name: "Editar oferta" });
    await edit.getByLabel("Precio (S/)").fill("15.34");
    await expect(edit.getByText("Costo: S/ 1.08 por unidad sin IGV")).toBeVisible();
    await edit.getByRole("button", { name: "Guardar" }).click();
    await expect(flash(page)).toHaveText("Oferta «Atado de 12» guardada.");
    await expect(row.getByRole("cell").nth(3)).toHaveText("S/ 15.34con IGV");

    await row.getByRole("button", { name: `Historial de precios de ${INGREDIENT} · Atado de 12` }).click();
    const history = page.getByRole("dialog", { name: `Precios de ${INGREDIENT} · Atado de 12` });
    await expect(history.getByRole("row")).toHaveCount(3);
    await expect(history.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText("S/ 15.34 con IGV");
    await expect(history.getByRole("row").nth(2).getByRole("cell").nth(1)).toHaveText("S/ 14.16 con IGV");
    await expect(history.getByRole("row").nth(1).getByRole("cell").nth(4)).toHaveText(PERSON.name);
    await page.keyboard.press("Escape");
    await expect(history).toBeHidden();

    // The provider, in the providers tab, then deleted after a confirmation (it has no offers).
    await page.getByRole("tab", { name: "Proveedores" }).click();
    await page.getByRole("searchbox", { name: "Buscar por nombre, RUC o contacto" }).fill(RUC);
    const provider = page.getByRole("row").filter({ hasText: PROVIDER });
    await expect(provider.getByRole("cell").nth(1)).toHaveText(RUC);
    await provider.getByRole("button", { name: `Eliminar ${PROVIDER}` }).click();
    await acceptConfirmation(page, `¿Eliminar el proveedor ${PROVIDER}?`);
    await expect(flash(page)).toHaveText(`Proveedor ${PROVIDER} eliminado.`);

    expect(problems).toEqual([]);
    await context.close();
  });

  test("Logistics shows Sede Lima stocking each ingredient from the cheapest current offer in Lima", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await signedIn(browser, mesa);
    await open(page, "/ingredients");
    // The area's tabs, by the keyboard.
    const tabs = page.getByRole("navigation", { name: "Insumos y logística" });
    await tabs.getByRole("link", { name: "Logística" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/logistics$/);
    await expect(page.getByRole("heading", { level: 1, name: "Logística" })).toBeVisible();
    // Both headquarters of the business are centres (Arequipa first, by name); Sede Lima is chosen.
    await expect(page.getByRole("link", { name: /Sede Arequipa/ })).toHaveAttribute("aria-current", "page");
    await waitForHydration(page);
    const centre = page.getByRole("link", { name: /Sede Lima/ });
    await centre.click();
    await expect(page).toHaveURL(/[?&]centre=\d+/);
    await expect(centre).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 2, name: "Lo que abastece Sede Lima en Lima" })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole("searchbox", { name: "Buscar insumo, categoría o proveedor" }).fill(RUN);
    await expect(page).toHaveURL(/[?&]search=/);
    const row = page.getByRole("row").filter({ hasText: INGREDIENT });
    await expect(row.getByRole("cell").nth(2)).toHaveText("Agrícola Santa Rosa S.A.C.");
    await expect(row.getByRole("cell").nth(5)).toHaveText("S/ 1.08 por unidad");
    await expect(row.getByRole("cell").nth(6)).toHaveText("1");
    // The demo rice in Lima: the cheapest of its offers there.
    await page.getByRole("searchbox", { name: "Buscar insumo, categoría o proveedor" }).fill("Arroz pilado");
    await expect(page.getByRole("row").filter({ hasText: "Arroz pilado" }).getByRole("cell").nth(6)).toHaveText(
      /^[1-9]/,
    );

    expect(problems).toEqual([]);
    await context.close();
  });
});
