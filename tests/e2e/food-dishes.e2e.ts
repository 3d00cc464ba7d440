/**
 * The Food page in a real browser, as the nutritionist of Sede Lima (in Lima):
 *
 * - a dish category is made in the menu table, then the New-dish modal builds a dish with three ingredients (rice in
 *   grams, an egg by the unit, oil in millilitres): the live totals follow as the quantities are typed, a line's
 *   calculation popover shows its gross, wastes, final product and cost; saved, the dishes table shows it costed in
 *   Lima; opened again, the modal shows the same figures;
 * - on a phone the table reads as cards without sideways scrolling;
 * - the dish's name is a link reached and opened from the keyboard; its recipe is copied to another level at a
 *   factor, and copied again onto that level only after the confirmation; the table's flag of levels without a
 *   recipe follows; a recipe line's typeahead lists whole-word matches, the closest first;
 * - a dishes workbook is checked in the background (the dialog shows the job's progress), its rows to fix listed by
 *   row and column; a good one previewed, confirmed, written, and shown again when the dialog is reopened.
 *
 * The e2e database is seeded on the server's first start: the demo cities, ingredients, providers and offers, and the
 * area "Nutrición" at Sede Lima; the nutritionist is made by the worker's fixtures. (axe checks the page, the modal
 * and the popover in tests/e2e/accessibility-food.e2e.ts.)
 */
import type { Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test } from "./fixtures";
import { chooseOption, confirmation, waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PERSON = { name: `Nora Cocina ${RUN}`, email: `dishes.${RUN}@example.com` };
const CATEGORY = `Segundo ${RUN}`;
const DISH = `Arroz a la cubana ${RUN}`;

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

const flash = (page: Page) => page.locator('[data-flash="success"]');

test.describe.configure({ mode: "serial" });

test("the New-dish modal builds a dish with three ingredients, live totals and a line's calculation, and reopens with the same figures", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(150_000);
  await mesa.user({ ...PERSON, role: "nutritionist", area: "Nutrición", place: "Sede Lima" });
  const context = await browser.newContext();
  await mesa.signIn(context, PERSON);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, "/dashboard");

  // The sidebar's Food entry opens the page, costed in Lima (Sede Lima's city).
  await page.getByRole("link", { name: "Comida", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Comida" })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByRole("combobox", { name: "Ciudad de los precios" })).toHaveText(/Lima/);

  // A dish category, in the menu table.
  await page.getByRole("tab", { name: "Tabla de menú" }).click();
  await expect(page).toHaveURL(/[?&]tab=menu_table/);
  await page.getByRole("button", { name: "Nueva categoría de plato" }).click();
  const categoryDialog = page.getByRole("dialog", { name: "Nueva categoría de plato" });
  await categoryDialog.getByLabel("Nombre").fill(CATEGORY);
  await categoryDialog.getByRole("button", { name: "Guardar" }).click();
  await expect(categoryDialog).toBeHidden();
  await page.getByRole("tab", { name: "Platos" }).click();
  await expect(page).not.toHaveURL(/tab=menu_table/);

  await page.getByRole("button", { name: "Nuevo plato" }).click();
  const dialog = page.getByRole("dialog", { name: "Nuevo plato" });
  await expect(dialog.getByLabel("Nombre")).toBeFocused();
  await dialog.getByLabel("Nombre").fill(DISH);
  await dialog.getByRole("checkbox", { name: CATEGORY }).check();
  const totals = dialog.getByTestId("recipe-totals");
  await expect(totals).toContainText("Los totales aparecen al elegir insumos y cantidades.");

  const line = async (number: number, ingredient: string, quantity: string) => {
    await dialog.getByRole("button", { name: "Añadir ingrediente" }).click();
    const row = dialog.getByTestId(`recipe-line-${number}`);
    await chooseOption(row, `Insumo o plato · Línea ${number}`, ingredient);
    await row.getByLabel(/^Cantidad/).fill(quantity);
  };
  await line(1, "Arroz pilado", "150");
  await expect(dialog.getByTestId("total-gross")).toHaveText("150 g");
  await line(2, "Huevo de gallina", "1");
  await expect(dialog.getByTestId("recipe-line-2").getByLabel("Cantidad (u)")).toBeVisible();
  // 150 g of rice and an egg of 50 g.
  await expect(dialog.getByTestId("total-gross")).toHaveText("200 g");
  await line(3, "Aceite vegetal", "10");
  // 10 ml of oil at 0.92 g/ml.
  await expect(dialog.getByTestId("total-gross")).toHaveText("209.2 g");
  await expect(dialog.getByTestId("total-cost")).toHaveText(/^S\/\s?\d+\.\d\d$/);
  const figures = {
    gross: await dialog.getByTestId("total-gross").textContent(),
    final: await dialog.getByTestId("total-final").textContent(),
    kcal: await dialog.getByTestId("total-kcal").textContent(),
    cost: await dialog.getByTestId("total-cost").textContent(),
  };

  // The egg's calculation: gross 50 g, its solid waste, the final product, its share.
  await dialog.getByRole("button", { name: "Cálculo de la línea 2" }).click();
  const popover = page.getByRole("dialog", { name: /^Cálculo: Huevo de gallina/ });
  await expect(popover).toBeVisible();
  await expect(popover.getByRole("row", { name: /^Bruto/ })).toContainText("50 g");
  await expect(popover.getByRole("row", { name: /^Merma sólida/ })).toContainText(/\d g/);
  await expect(popover.getByRole("row", { name: /^Producto final/ })).toContainText(/\d g/);
  await expect(popover.getByRole("row", { name: /^Costo/ })).toContainText("S/");
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();

  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(flash(page)).toHaveText(`Plato ${DISH} guardado.`);
  await expect(dialog).toBeHidden();

  // In the table, costed in Lima for the first level.
  await page.getByRole("searchbox", { name: "Buscar platos por nombre" }).fill(RUN);
  await expect(page).toHaveURL(/[?&]search=/);
  const row = page.getByRole("row").filter({ hasText: DISH });
  await expect(row).toContainText(figures.cost!);

  // Opened again: the same figures.
  await row.getByRole("button", { name: `Editar ${DISH}` }).click();
  const again = page.getByRole("dialog", { name: `Editar ${DISH}` });
  await expect(again.getByTestId("recipe-line-3")).toBeVisible();
  await expect(again.getByTestId("total-gross")).toHaveText(figures.gross!);
  await expect(again.getByTestId("total-final")).toHaveText(figures.final!);
  await expect(again.getByTestId("total-kcal")).toHaveText(figures.kcal!);
  await expect(again.getByTestId("total-cost")).toHaveText(figures.cost!);
  await again.getByRole("button", { name: "Cálculo de la línea 2" }).click();
  await expect(
    page.getByRole("dialog", { name: /^Cálculo: Huevo de gallina/ }).getByRole("row", { name: /^Bruto/ }),
  ).toContainText("50 g");
  await page.keyboard.press("Escape");
  await again.getByRole("button", { name: "Cancelar" }).click();
  await expect(again).toBeHidden();

  // The other tabs hold the catalogue's views: the price changes load after the tab opens.
  await page.getByRole("tab", { name: "Cambios de precio" }).click();
  await expect(page).toHaveURL(/[?&]tab=price_changes/);
  await expect(page.getByRole("heading", { level: 2, name: "Cambios de precio" })).toBeVisible();
  await page.getByRole("tab", { name: "Platos" }).click();
  await expect(page.getByRole("row").filter({ hasText: DISH })).toBeVisible();

  // On a phone the table reads as cards, nothing scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("row").filter({ hasText: DISH })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  expect(problems).toEqual([]);
  await context.close();
});

test("a dish's name opens it from the keyboard, its recipe is copied to another level, and the typeahead ranks whole words", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  await mesa.signIn(context, PERSON);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, `/food?search=${RUN}`);

  // The new dish has a recipe for its first level only: three of the four levels lack one.
  const row = page.getByRole("row").filter({ hasText: DISH });
  await expect(row.getByTestId("levels-without-recipe")).toContainText("3 de 4 niveles sin receta");

  // The name is a link: focused from the keyboard and opened with Enter, it opens the dish here and in the address.
  const link = row.getByRole("link", { name: DISH });
  await expect(link).toHaveAttribute("href", /[?&]dish=\d+/);
  await link.focus();
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Editar ${DISH}` });
  await expect(dialog.getByTestId("recipe-line-3")).toBeVisible();
  await expect(page).toHaveURL(/[?&]dish=\d+/);

  // Copied to Staff at 1.25: 150 g of rice become 187.5 g, the egg 1.25.
  await dialog.getByRole("button", { name: "Copiar a otro nivel" }).click();
  const copy = page.getByRole("dialog", { name: "Copiar la receta de Máster" });
  await expect(copy.getByRole("combobox", { name: "Nivel de destino" })).toHaveText(/Staff/);
  await copy.getByLabel("Factor").fill("1.25");
  await copy.getByRole("button", { name: "Copiar", exact: true }).click();
  await expect(copy).toBeHidden();
  const copied = page.getByRole("dialog", { name: `Editar ${DISH}` });
  await expect(copied.getByRole("tab", { name: "Staff", exact: true })).toHaveAttribute("aria-selected", "true");
  await expect(copied.getByTestId("recipe-line-1").getByLabel(/^Cantidad/)).toHaveValue("187.5");
  await expect(copied.getByTestId("recipe-line-2").getByLabel(/^Cantidad/)).toHaveValue("1.25");

  // Copying onto a level that has a recipe asks first; cancelled, nothing changes.
  await copied.getByRole("tab", { name: "Máster", exact: true }).click();
  await copied.getByRole("button", { name: "Copiar a otro nivel" }).click();
  const again = page.getByRole("dialog", { name: "Copiar la receta de Máster" });
  await chooseOption(again, "Nivel de destino", "Staff");
  await expect(again).toContainText("Staff ya tiene receta");
  await again.getByLabel("Factor").fill("2");
  await again.getByRole("button", { name: "Copiar", exact: true }).click();
  const ask = confirmation(page, "¿Reemplazar la receta de Staff?");
  await expect(ask).toContainText("Sus 3 líneas se cambian por la copia de Máster.");
  await ask.getByRole("button", { name: "Cancelar" }).click();
  await expect(ask).toBeHidden();
  await again.getByRole("button", { name: "Cancelar" }).click();

  // A recipe line's typeahead: whole words only, the dish that starts with the word first.
  await copied.getByRole("button", { name: "Añadir ingrediente" }).click();
  await copied.getByTestId("recipe-line-4").getByRole("combobox", { name: "Insumo o plato · Línea 4" }).click();
  await page.getByRole("combobox").and(page.locator("[cmdk-input]")).fill("pollo");
  const options = page.getByRole("option");
  await expect(options.first()).toHaveText("Pollo entero");
  const names = await options.allTextContents();
  expect(names).toContain("Hígado de pollo");
  expect(names.filter((name) => !/(^|[^\p{L}])pollo/iu.test(name))).toEqual([]);
  await page.keyboard.press("Escape");

  // Closed, the address forgets the dish and the table's flag counts Staff's copy.
  await copied.getByRole("button", { name: "Cancelar" }).click();
  await expect(copied).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]dish=/);
  await expect(row.getByTestId("levels-without-recipe")).toContainText("2 de 4 niveles sin receta");
  expect(problems).toEqual([]);
  await context.close();
});

/** A workbook of the dishes import's columns (Spanish headers) written where the test keeps its files. */
function dishesWorkbook(name: string, rows: (string | number | null)[][]): string {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([["Plato", "Categorías", "Nivel", "Insumo", "Cantidad"], ...rows]),
    "Recetas",
  );
  const file = test.info().outputPath(name);
  writeFileSync(file, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
  return file;
}

test("a dishes workbook is checked in the background with its progress shown, then written once confirmed", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(120_000);
  const person = { name: `Ines Importa ${RUN}`, email: `dishes.import.${RUN}@example.com` };
  await mesa.user({ ...person, role: "nutritionist", area: "Nutrición", place: "Sede Lima" });
  const context = await browser.newContext();
  await mesa.signIn(context, person);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, "/food");
  const dialog = page.getByRole("dialog", { name: "Importar platos y recetas desde una hoja de cálculo" });
  const check = async (file: string) => {
    await dialog.getByLabel("Hoja de cálculo (.xlsx, .xls, .ods o .csv)").setInputFiles(file);
    await dialog.getByRole("button", { name: "Revisar", exact: true }).click();
  };
  await page.getByRole("button", { name: "Importar", exact: true }).click();

  // A large file: the check runs as a job, and the dialog shows its step while it runs. Only previewed.
  const large: (string | number)[][] = [];
  for (let d = 0; d < 2000; d++)
    for (const [ingredient, quantity] of [
      ["Arroz pilado", 100],
      ["Pierna de pollo", 150],
      ["Aceite vegetal", 5],
    ] as const)
      large.push([`Grande ${RUN} ${d}`, "Segundo", "Staff", ingredient, quantity]);
  const progress = page.waitForSelector('[data-testid="dishes-import-job"]', { state: "attached", timeout: 30_000 });
  await check(dishesWorkbook(`grande-${RUN}.xlsx`, large));
  await progress;
  const result = dialog.getByTestId("dishes-import-result");
  await expect(result).toContainText(/2\D?000 platos nuevos/, { timeout: 30_000 });
  await expect(dialog.getByRole("button", { name: /^Escribir 4\D?000 cambios$/ })).toBeEnabled();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();

  // Opened again: the preview waits there; another file is checked instead.
  await page.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(result).toContainText(/2\D?000 platos nuevos/);
  await dialog.getByRole("button", { name: "Revisar otro archivo" }).click();
  const dish = `Importado ${RUN}`;
  await check(
    dishesWorkbook(`malo-${RUN}.xlsx`, [
      [dish, "Segundo", "Staff", "Arroz pilado", 110],
      [dish, "Segundo", "Staff", `Nada ${RUN}`, 10],
    ]),
  );
  await expect(result.getByRole("heading", { name: "Filas por corregir" })).toBeVisible({ timeout: 30_000 });
  await expect(result).toContainText(`Fila 3 (Insumo): Insumo desconocido: Nada ${RUN}.`);

  await dialog.getByRole("button", { name: "Revisar otro archivo" }).click();
  await check(
    dishesWorkbook(`bueno-${RUN}.xlsx`, [
      [dish, "Segundo", "Staff", "Arroz pilado", 110],
      [dish, "Segundo", "Staff", "Pierna de pollo", 150],
    ]),
  );
  await expect(result).toContainText("1 plato nuevo", { timeout: 30_000 });
  await expect(result).toContainText("1 receta nueva");
  await dialog.getByRole("button", { name: "Escribir 2 cambios" }).click();
  await expect(result.getByRole("heading", { name: "Importación terminada" })).toBeVisible({ timeout: 30_000 });
  await expect(result).toContainText("Se escribieron 2 cambios.");
  await dialog.getByRole("button", { name: "Cerrar" }).last().click();
  await expect(dialog).toBeHidden();

  await page.getByRole("searchbox", { name: "Buscar platos por nombre" }).fill(RUN);
  await expect(page.getByRole("row").filter({ hasText: dish })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `Grande ${RUN}` })).toHaveCount(0);
  expect(problems).toEqual([]);
  await context.close();
});
