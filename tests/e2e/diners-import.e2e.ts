/**
 * The Dinners page's Excel dialog in a real browser, as the cafe manager of "Comedor Principal": a workbook made
 * here with SheetJS is uploaded, checked in the background (the dialog follows the job on the person's private
 * realtime channel) and shown first — the new diners, the column Mesa ignores, the leavers with their checkbox off —
 * with nothing saved, also after closing the dialog and opening it again; once confirmed the dialog gives what was
 * written and the new diners are found by the point of sale's search. A file that is not a spreadsheet is refused
 * on the dialog's file field. (axe checks the dialog in each of its states, and that it never scrolls sideways and
 * gives the focus back, in tests/e2e/accessibility-sales.e2e.ts.)
 *
 * Names and documents carry a per-run suffix so they never collide on a reused database. The seeded demo data
 * provides the cafe, its subdealerships and the areas; the manager is made by the worker's fixtures.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test, type Mesa } from "./fixtures";
import { waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const MANAGER = { name: `Nora Importa ${RUN}`, email: `diners.import.${RUN}@example.com` };
const CAFE = "Comedor Principal";

/** A DNI (8 digits) no demo diner has: 8 then seven random digits. */
const newDni = () => `8${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
const FIRST = { name: `Mamani Coaquira Rut ${RUN}`, dni: newDni() };
const SECOND = { name: `Huanca Poma Saúl ${RUN}`, dni: newDni() };

const DIALOG = "Importar comensales desde una hoja de cálculo";
const FILE_LABEL = "Archivo (.xlsx, .xls, .ods o .csv, hasta 20 MiB)";

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** The props the server rendered the current page with. */
async function pageProps<T>(page: Page): Promise<T> {
  const text = await page.locator('script[data-page="app"]').textContent();
  return JSON.parse(text!).props as T;
}

/** An .xlsx workbook with one sheet of `rows` (first row: headers), written where Playwright keeps this test's output. */
function workbook(fileName: string, rows: (string | number)[][]): string {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Trabajadores");
  const path = test.info().outputPath(fileName);
  writeFileSync(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
  return path;
}

/** A file that is no spreadsheet, whatever its name says. */
function notASpreadsheet(fileName: string): string {
  const path = test.info().outputPath(fileName);
  writeFileSync(
    path,
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(512, 7)]),
  );
  return path;
}

async function signIn(
  browser: Browser,
  mesa: Mesa,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext();
  await mesa.signIn(context, MANAGER);
  const page = await context.newPage();
  const problems = watchConsole(page);
  return { context, page, problems };
}

const openButton = (page: Page) => page.getByRole("button", { name: "Importar comensales" });
const dialogOf = (page: Page) => page.getByRole("dialog", { name: DIALOG });
const job = (page: Page) => dialogOf(page).getByTestId("diner-import");

async function openDialog(page: Page) {
  await openButton(page).click();
  await expect(dialogOf(page)).toBeVisible();
  return dialogOf(page);
}

/** The workbook: the two new diners of `subdealership`, their cafe left blank, and a column Mesa does not use. */
function dinersWorkbook(fileName: string, subdealership: string, dnis = [FIRST.dni, SECOND.dni]): string {
  return workbook(fileName, [
    ["Apellidos y nombres", "DNI", "Celular", "Subcontrata", "Comedor", "Observaciones"],
    [FIRST.name, dnis[0], "987 654 321", subdealership, "", "turno día"],
    [SECOND.name, dnis[1], "", subdealership, "", "turno noche"],
  ]);
}

test.describe("the diner import of the Dinners page", () => {
  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE });
  });

  test("upload a workbook, see its preview, confirm it, see the result, and find the new diners at the point of sale", async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(90_000);
    const { context, page, problems } = await signIn(browser, mesa);
    // What the realtime connection hears about jobs (the dialog also asks again every few seconds, as a backstop).
    const jobUpdates: string[] = [];
    page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (String(payload).includes("JobUpdated")) jobUpdates.push(String(payload));
      }),
    );
    await open(page, "/dinners");
    await expect(page.getByRole("heading", { level: 1, name: "Punto de venta" })).toBeVisible();
    const { subdealerships, pos } = await pageProps<{
      subdealerships: { name: string }[];
      pos: { cafe: { path: string } };
    }>(page);

    let dialog = await openDialog(page);
    // The page's cafe stands for the blank cafe cells; nothing is chosen yet, so nothing can be sent.
    await expect(dialog.getByRole("combobox", { name: "Comedor de las filas sin comedor" })).toHaveText(pos.cafe.path);
    await expect(dialog.getByRole("button", { name: "Subir y revisar" })).toBeDisabled();
    // The first field has the focus.
    await expect(dialog.getByLabel(FILE_LABEL)).toBeFocused();

    const file = dinersWorkbook(`comensales-${RUN}.xlsx`, subdealerships[0].name);
    await dialog.getByLabel(FILE_LABEL).setInputFiles(file);
    await expect(dialog.getByTestId("diner-import-chosen")).toHaveText(`comensales-${RUN}.xlsx`);
    await dialog.getByRole("button", { name: "Subir y revisar" }).click();

    // The dialog stays open and follows the job to its preview: nothing saved yet.
    await expect(job(page)).toHaveAttribute("data-step", "preview", { timeout: 30_000 });
    await expect(job(page).getByRole("heading", { name: `Vista previa de comensales-${RUN}.xlsx` })).toBeFocused();
    await expect(job(page).getByText("Aún no se ha guardado nada. Al importar:")).toBeVisible();
    await expect(job(page).getByTestId("diner-import-counts").getByRole("listitem")).toHaveText([
      "2 comensales nuevos",
    ]);
    await expect(job(page).getByTestId("diner-import-sheet")).toHaveText(
      "Hoja leída: «Trabajadores», con los encabezados en la fila 1.",
    );
    await expect(job(page).getByTestId("diner-import-unknown-columns")).toHaveText(
      "Se ignora la columna «Observaciones»: Mesa no la usa.",
    );
    await job(page).getByText("Primeros cambios").click();
    await expect(job(page).getByTestId("diner-import-changes").getByRole("listitem")).toHaveText([
      `Nuevo: ${FIRST.name} (${FIRST.dni})`,
      `Nuevo: ${SECOND.name} (${SECOND.dni})`,
    ]);
    // The demo diners of that subdealership at this cafe are not in the file: listed, and left alone by default.
    const leavers = job(page).getByTestId("diner-import-leavers");
    if ((await leavers.count()) > 0) {
      await expect(job(page).getByRole("checkbox", { name: /^Desactivar a est/ })).not.toBeChecked();
    }

    // Closed, the preview waits beside the button, and the dialog shows it again.
    await page.keyboard.press("Escape");
    await expect(dialogOf(page)).toBeHidden();
    await expect(openButton(page)).toBeFocused();
    await expect(page.getByTestId("diner-import-status")).toHaveText(
      `Vista previa de comensales-${RUN}.xlsx lista para revisar`,
    );
    await open(page, "/dinners");
    dialog = await openDialog(page);
    await expect(job(page)).toHaveAttribute("data-step", "preview");
    await expect(job(page).getByTestId("diner-import-counts").getByRole("listitem")).toHaveText([
      "2 comensales nuevos",
    ]);

    // Confirmed, it is written; the dialog gives what was.
    await job(page).getByRole("button", { name: "Importar", exact: true }).click();
    await expect(job(page)).toHaveAttribute("data-step", "done");
    await expect(job(page).getByTestId("diner-import-notice")).toHaveText("Comensales importados.");
    await expect(job(page).getByTestId("diner-import-counts").getByRole("listitem")).toHaveText([
      "2 comensales nuevos",
    ]);
    // The person's private channel carried the jobs' steps to their end.
    expect(jobUpdates.some((frame) => frame.includes("private-App.Models.User.") && frame.includes("running"))).toBe(
      true,
    );
    expect(jobUpdates.some((frame) => frame.includes("succeeded"))).toBe(true);
    await job(page).getByRole("button", { name: "Listo" }).click();
    await expect(dialogOf(page)).toBeHidden();
    await expect(page.getByTestId("diner-import-status")).toHaveCount(0);

    // The point of sale finds the new diners by name and by document.
    const search = page.getByRole("combobox", { name: "DNI o nombre del comensal" });
    await search.fill(FIRST.name.slice(0, 18));
    const found = page.getByRole("listbox", { name: "Comensales encontrados" });
    await expect(found).toBeVisible();
    await expect(found.getByRole("option").filter({ hasText: FIRST.name })).toHaveCount(1);
    await search.fill("");
    await search.fill(SECOND.name.split(" ").slice(0, 2).join(" "));
    await expect(found.getByRole("option").filter({ hasText: SECOND.name })).toHaveCount(1);
    await page.keyboard.press("Escape");

    // A file that is not a spreadsheet is refused as a whole, on the file field.
    dialog = await openDialog(page);
    await dialog.getByLabel(FILE_LABEL).setInputFiles(notASpreadsheet(`lista-${RUN}.xlsx`));
    await dialog.getByRole("button", { name: "Subir y revisar" }).click();
    const refusal = dialog.getByTestId("diner-import-file-error");
    // The refusal is the job's outcome: on a busy machine the job may start a few seconds late.
    await expect(refusal).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByLabel(FILE_LABEL)).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByTestId("diner-import-chosen")).toHaveText(`lista-${RUN}.xlsx`);
    // Cancelling closes the refusal for good.
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialogOf(page)).toBeHidden();
    await expect(page.getByTestId("diner-import-status")).toHaveCount(0);

    await page.waitForLoadState("networkidle");
    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });
});
