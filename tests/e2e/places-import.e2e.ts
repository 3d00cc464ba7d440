/**
 * The places workbook import on the Management page, in a real browser, as a super-administrator. It shows before
 * it writes: the upload closes the dialog and the workbook is checked in the background; the page then shows what
 * importing would do, and only "Importar estos cambios" writes it. The dialog's template link downloads the
 * template (its sheets, and that uploaded unchanged it imports nothing, are tests/http/places-import.test.ts's). A
 * workbook with bad rows lists each problem with its sheet, row and column and offers nothing to confirm; the same
 * workbook, fixed, shows its new mine, unit, cafes and price — still nothing saved, also after loading the page
 * afresh — and once confirmed they show on the Comedores tab and in the cafe's prices dialog.
 *
 * The workbook is built here with SheetJS. Names carry a per-run suffix so they never collide on a reused
 * database. The seeded demo data provides the business "Mesa Catering S.A.C." and the services DES and ALM.
 */
import type { Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test } from "./fixtures";
import { waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Rosa Importadora ${RUN}`, email: `super.import.${RUN}@example.com` };

const MINE = `Mina Importada ${RUN}`;
const UNIT = `Unidad Importada ${RUN}`;
const CAFE = `Comedor Importado ${RUN}`;
const SECOND_CAFE = `Comedor Anexo ${RUN}`;
const BUSINESS = "Mesa Catering S.A.C.";
const MISSING_BUSINESS = `Catering Fantasma ${RUN} S.A.C.`;

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** An .xlsx file with the given sheets (first row: headers), written where Playwright keeps this test's output. */
function writeWorkbook(fileName: string, sheets: Record<string, (string | number)[][]>): string {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  const path = test.info().outputPath(fileName);
  writeFileSync(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
  return path;
}

/** The workbook: one new mine, unit and cafe with DES and ALM and an ALM price, and a second cafe of `secondBusiness`. */
function placesWorkbook(fileName: string, secondBusiness: string, price: string): string {
  return writeWorkbook(fileName, {
    Minas: [
      ["Nombre", "Servicios"],
      [MINE, "DES, ALM"],
    ],
    Unidades: [
      ["Mina", "Nombre", "Servicios"],
      [MINE, UNIT, "DES, ALM"],
    ],
    Comedores: [
      ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
      [MINE, UNIT, CAFE, BUSINESS, "", "DES, ALM"],
      [MINE, UNIT, SECOND_CAFE, secondBusiness, "", "DES"],
    ],
    Precios: [
      ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
      [MINE, UNIT, CAFE, "ALM", price],
    ],
  });
}

const importJob = (page: Page) => page.getByTestId("import-job");
const table = (page: Page, caption: "Minas" | "Comedores") => page.getByRole("table", { name: caption });
const row = (page: Page, caption: "Minas" | "Comedores", name: string) =>
  table(page, caption)
    .locator("tbody tr")
    .filter({ has: page.locator("td:first-child", { hasText: name }) });

async function openImport(page: Page) {
  await page.getByRole("button", { name: "Importar desde Excel" }).click();
  const dialog = page.getByRole("dialog", { name: "Importar lugares desde Excel" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("the places workbook: the template downloads, bad rows are listed, the fixed workbook is shown, then imported once confirmed", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(90_000);
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  const context = await browser.newContext({ acceptDownloads: true });
  await mesa.signIn(context, ADMIN);
  const page = await context.newPage();
  const problems = watchConsole(page);
  // What the realtime connection hears about jobs (the page also asks again every few seconds, as a backstop).
  const jobUpdates: string[] = [];
  page.on("websocket", (socket) =>
    socket.on(
      "framereceived",
      ({ payload }) => void (String(payload).includes("JobUpdated") && jobUpdates.push(String(payload))),
    ),
  );

  await open(page, "/management");
  await expect(page.getByRole("heading", { level: 1, name: "Gestión" })).toBeVisible();
  let dialog = await openImport(page);
  // Nothing chosen yet: the button waits for a file.
  await expect(dialog.getByRole("button", { name: "Subir y revisar" })).toBeDisabled();

  // The template link downloads the workbook. (Its sheets and example rows, and that uploaded unchanged it imports
  // nothing, are tests/http/places-import.test.ts's "the template" tests.)
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("link", { name: "Descargar la plantilla" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^mesa-plantilla-lugares-\d{4}-\d{2}-\d{2}\.xlsx$/);

  // A workbook with two bad rows: a cafe of a business that does not exist, and a price that is not a number.
  await dialog
    .getByLabel("Libro de Excel (.xlsx, hasta 5 MiB)")
    .setInputFiles(placesWorkbook("lugares-con-errores.xlsx", MISSING_BUSINESS, "abc"));
  await dialog.getByRole("button", { name: "Subir y revisar" }).click();
  await expect(dialog).toBeHidden();
  const badRows = [
    `Comedores, fila 3 (Empresa): No se encontró la empresa «${MISSING_BUSINESS}» (por nombre o RUC).`,
    "Precios, fila 2 (Precio): «abc» no es un precio en soles (por ejemplo 12.50).",
  ];
  await expect(importJob(page)).toHaveAttribute("data-step", "problems");
  await expect(
    importJob(page).getByText("No se puede importar: corrija estas filas y vuelva a subir el libro."),
  ).toBeVisible();
  await expect(importJob(page).getByTestId("import-errors").getByRole("listitem")).toHaveText(badRows);
  await expect(importJob(page).getByRole("button", { name: "Importar estos cambios" })).toHaveCount(0);

  // The fixed workbook, chosen from the result's own button, is shown first: what it would create, nothing saved.
  await importJob(page).getByRole("button", { name: "Importar otro libro" }).click();
  dialog = page.getByRole("dialog", { name: "Importar lugares desde Excel" });
  await expect(dialog).toBeVisible();
  await dialog
    .getByLabel("Libro de Excel (.xlsx, hasta 5 MiB)")
    .setInputFiles(placesWorkbook("lugares.xlsx", BUSINESS, "18.50"));
  await dialog.getByRole("button", { name: "Subir y revisar" }).click();
  await expect(dialog).toBeHidden();
  const counts = ["1 mina nueva", "1 unidad nueva", "2 comedores nuevos", "1 precio nuevo"];
  await expect(importJob(page)).toHaveAttribute("data-step", "preview");
  await expect(importJob(page).getByTestId("import-counts").getByRole("listitem")).toHaveText(counts);
  await importJob(page).getByText("Ver los 5 cambios").click();
  await expect(importJob(page).getByTestId("import-changes").getByRole("listitem")).toHaveText([
    `Mina nueva ${MINE} — servicios ALM, DES`,
    `Unidad nueva ${MINE} › ${UNIT} — servicios ALM, DES`,
    `Comedor nuevo ${MINE} › ${UNIT} › ${CAFE} — empresa: ${BUSINESS}; zona horaria: America/Lima; servicios ALM, DES`,
    `Precio de ALM en ${MINE} › ${UNIT} › ${CAFE}: S/ 18.50`,
    `Comedor nuevo ${MINE} › ${UNIT} › ${SECOND_CAFE} — empresa: ${BUSINESS}; zona horaria: America/Lima; servicios DES`,
  ]);

  // Nothing was saved: loading the page afresh, the new mine is not there, and the preview still waits.
  await open(page, `/management?tab=mines&search=${encodeURIComponent(RUN)}`);
  await expect(page.getByRole("tab", { name: "Minas" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("searchbox", { name: "Buscar minas" })).toHaveValue(RUN);
  await expect(table(page, "Minas")).toContainText("No hay lugares que coincidan.");
  await expect(row(page, "Minas", MINE)).toHaveCount(0);
  await expect(importJob(page).getByTestId("import-counts").getByRole("listitem")).toHaveText(counts);

  // Confirmed, it is imported; the page gives what was written.
  await importJob(page).getByRole("button", { name: "Importar estos cambios" }).click();
  await expect(importJob(page)).toHaveAttribute("data-step", "done");
  await expect(importJob(page).getByRole("status")).toHaveText("Libro importado.");
  await expect(importJob(page).getByTestId("import-counts").getByRole("listitem")).toHaveText(counts);
  // The user's private channel carried the jobs' steps to their end.
  expect(jobUpdates.some((frame) => frame.includes("private-App.Models.User.") && frame.includes("running"))).toBe(
    true,
  );
  expect(jobUpdates.some((frame) => frame.includes("succeeded"))).toBe(true);

  // The result waits on the page loaded afresh, until it is closed.
  await open(page, "/management");
  await expect(importJob(page).getByRole("status")).toHaveText("Libro importado.");
  await importJob(page).getByRole("button", { name: "Cerrar" }).click();
  await expect(importJob(page)).toHaveCount(0);
  await open(page, "/management");
  await expect(importJob(page)).toHaveCount(0);

  // The new mine on the Minas tab, with its unit, its two cafes and its services.
  await page.getByRole("tab", { name: "Minas" }).click();
  await expect(page).toHaveURL(/[?&]tab=mines/);
  await page.getByRole("searchbox", { name: "Buscar minas" }).fill(RUN);
  await expect(page).toHaveURL(/[?&]search=/);
  await expect(table(page, "Minas").locator("tbody tr")).toHaveCount(1);
  await expect(row(page, "Minas", MINE).getByRole("cell")).toHaveText([MINE, "1", "2", "ALMDES", ""]);

  // The new cafes on the Comedores tab, found by searching for them.
  await page.getByRole("tab", { name: "Comedores" }).click();
  await expect(page).toHaveURL(/[?&]tab=cafes/);
  await expect(page.getByRole("searchbox", { name: "Buscar comedores, unidades, minas o empresas" })).toHaveValue("");
  await page.getByRole("searchbox", { name: "Buscar comedores, unidades, minas o empresas" }).fill(RUN);
  await expect(page).toHaveURL(/[?&]search=/);
  await expect(table(page, "Comedores").locator("tbody tr")).toHaveCount(2);
  const cafe = row(page, "Comedores", CAFE);
  await expect(cafe.getByRole("cell").nth(1)).toHaveText(`${UNIT}${MINE}`);
  await expect(cafe.getByRole("cell").nth(2)).toHaveText(BUSINESS);
  // (The time zone column is hidden until chosen in the columns menu.)
  await expect(cafe.getByRole("cell").nth(3)).toHaveText(/^\s*ALM\s*DES\s*$/);
  await expect(cafe.getByRole("cell").nth(4)).toContainText(/^1 de 2 (servicios )?con precio/);
  await expect(row(page, "Comedores", SECOND_CAFE).getByRole("cell").nth(4)).toContainText(
    /^0 de 1 (servicio )?con precio/,
  );

  // The imported price in the cafe's prices dialog, and in its recent changes.
  await cafe.getByRole("button", { name: `Precios de ${CAFE}`, exact: true }).click();
  const prices = page.getByRole("dialog", { name: `Precios de ${CAFE}` });
  await expect(prices).toBeVisible();
  await expect(prices.getByRole("textbox", { name: "Precio (S/) ALM" })).toHaveValue("18.50");
  await expect(prices.getByRole("textbox", { name: "Precio (S/) DES" })).toHaveValue("");
  const history = prices.getByRole("table", { name: "Cambios recientes" }).locator("tbody tr");
  await expect(history).toHaveCount(1);
  await expect(history.getByRole("cell").nth(0)).toContainText("ALM");
  await expect(history.getByRole("cell").nth(1)).toHaveText("Sin precio");
  await expect(history.getByRole("cell").nth(2)).toHaveText(/18[.,]50/);
  await prices.getByRole("button", { name: "Cancelar" }).click();
  await expect(prices).toBeHidden();

  await page.waitForLoadState("networkidle");
  expect(problems, problems.join("\n")).toEqual([]);
  await context.close();
});
