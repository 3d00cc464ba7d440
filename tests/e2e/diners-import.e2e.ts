/**
 * The Dinners page's Excel dialog in a real browser, as the cafe manager of "Comedor Principal": a workbook made
 * here with SheetJS is uploaded, checked in the background (the dialog follows the job on the person's private
 * realtime channel) and shown first — the new diners, the column Mesa ignores, the leavers with their checkbox off —
 * with nothing saved, also after closing the dialog and opening it again; once confirmed the dialog gives what was
 * written and the new diners are found by the point of sale's search. A file that is not a spreadsheet is refused
 * on the dialog's file field. Then axe checks the dialog in each of its states, light and dark, at desktop and
 * phone widths, and the dialog never scrolls sideways on a phone.
 *
 * Names and documents carry a per-run suffix so they never collide on a reused database. The seeded demo data
 * provides the cafe, its subdealerships and the areas; people come from tests/support/e2e-fixtures.ts.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as XLSX from "xlsx";
import { waitForHydration, watchConsole } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Altiplano-Quinua-2024!";
const MANAGER = { name: `Nora Importa ${RUN}`, email: `diners.import.${RUN}@example.com` };
const CAFE = "Comedor Principal";

/** A DNI (8 digits) no demo diner has: 8 then seven random digits. */
const newDni = () => `8${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
const FIRST = { name: `Mamani Coaquira Rut ${RUN}`, dni: newDni() };
const SECOND = { name: `Huanca Poma Saúl ${RUN}`, dni: newDni() };

const DIALOG = "Importar comensales desde una hoja de cálculo";
const FILE_LABEL = "Archivo (.xlsx, .xls, .ods o .csv, hasta 20 MiB)";

function createUser(person: { name: string; email: string }, role: { role: string; area: string; place: string }) {
  execFileSync(
    join(ROOT, "node_modules/.bin/bun"),
    [
      "tests/support/e2e-fixtures.ts",
      "user",
      "--name",
      person.name,
      "--email",
      person.email,
      "--password",
      PASSWORD,
      "--role",
      role.role,
      "--area",
      role.area,
      "--place",
      role.place,
      "--wait",
      String(test.info().project.use.baseURL),
    ],
    { cwd: ROOT, env: { ...process.env, DB_PATH: process.env.MESA_E2E_DB }, stdio: "pipe" },
  );
}

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

async function signIn(browser: Browser): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, "/login");
  await page.getByLabel("Correo electrónico").fill(MANAGER.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
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
  test.beforeAll(() => {
    createUser(MANAGER, { role: "cafe manager", area: "Caja", place: CAFE });
  });

  test("upload a workbook, see its preview, confirm it, see the result, and find the new diners at the point of sale", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const { context, page, problems } = await signIn(browser);
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

  for (const [width, viewport] of Object.entries({
    desktop: { width: 1366, height: 850 },
    phone: { width: 390, height: 844 },
  }))
    test(`the dialog is accessible, light and dark, ${width}: choosing a file, rows with problems, a result, a preview with leavers`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const { context, page, problems } = await signIn(browser);
      await page.setViewportSize(viewport);
      const check = async (where: string) => {
        for (const dark of [false, true]) {
          await page.evaluate((on) => {
            document.documentElement.classList.toggle("dark", on);
            for (const animation of document.getAnimations()) animation.finish();
          }, dark);
          const { violations } = await new AxeBuilder({ page }).include("[role=dialog]").analyze();
          const serious = violations
            .filter((v) => ["critical", "serious", "moderate"].includes(v.impact ?? ""))
            .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
          expect.soft(serious, `${where} ${dark ? "dark" : "light"}`).toEqual([]);
        }
        // Nothing in the dialog scrolls sideways or runs past the screen's edge (the elements past it are named
        // in the message; some of them may only be clipped by their box).
        const sideways = await page.evaluate(() => {
          const dialog = document.querySelector<HTMLElement>("[role=dialog]")!;
          const past = [...dialog.querySelectorAll("*")]
            .filter((e) => !e.closest(".sr-only"))
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 60)}`);
          return {
            scrolls: dialog.scrollWidth > dialog.clientWidth + 1,
            right: Math.round(dialog.getBoundingClientRect().right),
            page: document.documentElement.scrollWidth,
            past,
          };
        });
        expect.soft(sideways.scrolls, `${where}: ${JSON.stringify(sideways.past)}`).toBe(false);
        expect.soft(sideways.right, where).toBeLessThanOrEqual(viewport.width);
        expect.soft(sideways.page, where).toBeLessThanOrEqual(viewport.width);
      };
      await open(page, "/dinners");
      const dialog = await openDialog(page);
      await check("choosing a file");

      // Rows with problems: a subdealership that does not exist, on both rows.
      await dialog.getByLabel(FILE_LABEL).setInputFiles(
        workbook(`con-errores-${RUN}-${width}.xlsx`, [
          ["Nombre", "DNI", "Subconcesionaria", "Comedor"],
          [`Persona Uno ${RUN}`, "70000001", `Contrata Fantasma ${RUN}`, ""],
          [`Persona Dos ${RUN}`, "70000002", `Contrata Fantasma ${RUN}`, ""],
        ]),
      );
      await dialog.getByRole("button", { name: "Subir y revisar" }).click();
      await expect(job(page)).toHaveAttribute("data-step", "problems");
      await expect(job(page).getByTestId("diner-import-problems").getByRole("listitem")).toHaveCount(2);
      await expect(job(page).getByRole("button", { name: "Importar", exact: true })).toHaveCount(0);
      await check("rows with problems");

      // What was written: one diner of a real subdealership at this cafe, imported here.
      const { subdealerships } = await pageProps<{ subdealerships: { name: string }[] }>(page);
      const leaver = { name: `Condori Cesado ${RUN} ${width}`, dni: newDni() };
      const oneDiner = (fileName: string, diner: { name: string; dni: string }) =>
        workbook(fileName, [
          ["Nombre", "DNI", "Subconcesionaria", "Comedor", "Observaciones"],
          [diner.name, diner.dni, subdealerships[0].name, "", "—"],
        ]);
      await job(page).getByRole("button", { name: "Importar otro archivo" }).click();
      await dialog.getByLabel(FILE_LABEL).setInputFiles(oneDiner(`uno-${RUN}-${width}.xlsx`, leaver));
      await dialog.getByRole("button", { name: "Subir y revisar" }).click();
      await expect(job(page)).toHaveAttribute("data-step", "preview");
      await job(page).getByRole("button", { name: "Importar", exact: true }).click();
      await expect(job(page)).toHaveAttribute("data-step", "done");
      await check("done");

      // A preview with another diner: the one just imported is now a leaver, with the checkbox to deactivate.
      await job(page).getByRole("button", { name: "Importar otro archivo" }).click();
      await dialog
        .getByLabel(FILE_LABEL)
        .setInputFiles(oneDiner(`otro-${RUN}-${width}.xlsx`, { name: `Nuevo Ticona ${RUN} ${width}`, dni: newDni() }));
      await dialog.getByRole("button", { name: "Subir y revisar" }).click();
      await expect(job(page)).toHaveAttribute("data-step", "preview");
      await expect(job(page).getByTestId("diner-import-leavers")).toContainText(`${leaver.name} (DNI ${leaver.dni})`);
      await expect(job(page).getByRole("checkbox", { name: /^Desactivar a est/ })).not.toBeChecked();
      await job(page).getByText("Primeros cambios").click();
      await check("preview");
      await job(page).getByRole("button", { name: "Descartar" }).click();
      await expect(dialogOf(page)).toBeHidden();
      await expect(openButton(page)).toBeFocused();
      await openDialog(page);
      await expect(dialog.getByLabel(FILE_LABEL)).toBeFocused();
      await dialog.getByRole("button", { name: "Cancelar" }).click();
      await expect(dialogOf(page)).toBeHidden();
      await expect(openButton(page)).toBeFocused();
      expect(problems, problems.join("\n")).toEqual([]);
      await context.close();
    });
});
