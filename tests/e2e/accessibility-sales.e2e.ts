/**
 * Accessibility of the sales screens, as the cafe manager of "Comedor Principal": the point of sale (the page with
 * its list, the diner typeahead, every dialog, a ticket), the Sales pages (sales, duplicates, periods), the sales
 * report dialog (its form with a preview, a report ready to download), and the diner import dialog in each of its
 * states (choosing a file, rows with problems, a result, a preview with leavers), which never scrolls sideways and
 * gives the focus back to its button. Each state is checked with axe in the light and the dark theme (tests/e2e/axe.ts):
 * the pages at a desktop and a phone width where the screen has both, the typeahead and the dialogs at the desktop one
 * (the same markup in the same colours on a phone, where the dialogs' layout is still checked). Moderate findings fail
 * the test too; minor ones are listed in its annotations.
 *
 * The diners and sales they show are made before the checks by a super-administrator, through the same requests the
 * screens send.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { checkScreen, contextAt, VIEWPORTS, WIDTHS, type Screen } from "./accessibility";
import { checkThemes } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const MANAGER = { name: `Raúl Jefe Accesible ${RUN}`, email: `a11y.jefe.${RUN}@example.com` };
/** Registers the diners and makes the sales (a diner of another cafe is outside the manager's scope). */
const ADMIN = { name: `Sofía Admin Accesible ${RUN}`, email: `a11y.ventas.super.${RUN}@example.com` };
const CAFE = "Comedor Principal";
const OTHER_CAFE = "Comedor Taller";
/** A DNI (8 digits) no demo diner has: 9 then seven random digits. */
const newDni = () => `9${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
/** A diner of the cafe, served lunch twice today (on credit and cash): a duplicate. */
const HOME = { name: `Quispe Mamani Ana ${RUN}`, dni: newDni() };
/** A diner of another cafe, sold to at this one as another unit. */
const VISITING = { name: `Condori Huamán Luis ${RUN}`, dni: newDni() };
const TODAY = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima" }).format(new Date());

const DIALOG = "Importar comensales desde una hoja de cálculo";
const FILE_LABEL = "Archivo (.xlsx, .xls, .ods o .csv, hasta 20 MiB)";

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

async function pageProps<T>(page: Page): Promise<T> {
  const text = await page.locator('script[data-page="app"]').textContent();
  return JSON.parse(text!).props as T;
}

/** A JSON write with the session's CSRF token, as the page itself sends one. */
async function postJson(context: BrowserContext, path: string, data: unknown) {
  const token = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
  const response = await context.request.post(path, {
    data,
    headers: { Accept: "application/json", "X-XSRF-TOKEN": decodeURIComponent(token) },
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(201);
  return response.json();
}

const saleRow = (page: Page, name: string) =>
  page
    .getByRole("table", { name: /^(Ventas del día|Sales of the day)$/ })
    .locator("tbody tr")
    .filter({ hasText: name });

/** Every priced service to 0 but `service`, which gets 1 (the point of sale's quantity boxes, with the keyboard). */
async function onlyService(page: Page, service: string): Promise<void> {
  const boxes = page.getByRole("spinbutton", { name: /^Cantidad de / });
  for (let i = 0; i < (await boxes.count()); i++) {
    const box = boxes.nth(i);
    if (await box.isDisabled()) continue;
    await box.focus();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("0");
  }
  const box = page.getByRole("spinbutton", { name: `Cantidad de ${service}` });
  await box.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("1");
  await expect(box).toHaveValue("1");
}

// Generous for a busy machine (a page hydrates late when the CPU is shared); a missing button still fails in seconds.
test.use({ actionTimeout: 10_000, navigationTimeout: 30_000 });
test.describe.configure({ mode: "parallel" });

/** Whether this worker has made the diners and sales on its database (the worker's Mesa outlives a visit to this file). */
let made = false;

test.beforeAll(async ({ browser, mesa }) => {
  // Once per worker: a worker that comes back to this file for more of its tests finds them there already.
  if (made) return;
  test.setTimeout(60_000);
  await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE });
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  const context = await browser.newContext();
  await mesa.signIn(context, ADMIN);
  const page = await context.newPage();
  await open(page, "/dinners");
  const { cafes } = await pageProps<{ cafes: { id: number; name: string }[] }>(page);
  await open(page, `/dinners?cafe=${cafes.find((c) => c.name === CAFE)!.id}`);
  const props = await pageProps<{
    cafes: { id: number; name: string }[];
    subdealerships: { id: number }[];
    pos: { services: { id: number; code: string }[] };
  }>(page);
  const cafeId = (name: string) => props.cafes.find((c) => c.name === name)!.id;
  const lunch = props.pos.services.find((s) => s.code === "ALM")!.id;
  for (const [diner, cafe] of [
    [HOME, CAFE],
    [VISITING, OTHER_CAFE],
  ] as const) {
    await postJson(context, "/diners", {
      name: diner.name,
      document_type: "dni",
      document_number: diner.dni,
      subdealership_id: props.subdealerships[0].id,
      cafe_id: cafeId(cafe),
      active: true,
    });
  }
  const sell = (diner: { dni: string }, saleType: "credit" | "cash", otherUnit = false) =>
    postJson(context, "/sales", {
      key: `a11y-${RUN}-${diner.dni}-${saleType}`,
      cafe_id: cafeId(CAFE),
      document_type: "dni",
      document_number: diner.dni,
      service_date: TODAY,
      sale_type: saleType,
      lines: [{ service_id: lunch, quantity: 1 }],
      ...(otherUnit ? { other_unit_confirmed: true } : {}),
    });
  await sell(HOME, "credit");
  await sell(HOME, "cash");
  await sell(VISITING, "credit", true);
  await context.close();
  made = true;
});

/** The point of sale's typeahead and each of its dialogs, opened and checked one by one. */
async function checkOverlays(page: Page, where: (name: string) => string): Promise<void> {
  await page.keyboard.press("F2");
  await page.keyboard.type(HOME.name.slice(0, 12));
  await expect(page.getByRole("listbox", { name: "Comensales encontrados" })).toBeVisible();
  await checkThemes(page, where("typeahead"), ["[role=listbox]"]);
  await page.keyboard.press("Escape");

  const dialogs: [string, string, () => Promise<void>][] = [
    ["new diner", "Nuevo comensal", () => page.getByRole("button", { name: "Nuevo comensal" }).click()],
    [
      "prices and windows",
      `Precios y horarios de ${CAFE}`,
      () => page.getByRole("button", { name: "Precios y horarios" }).click(),
    ],
    [
      "void a sale",
      "¿Anular el ticket",
      () =>
        saleRow(page, HOME.name)
          .first()
          .getByRole("button", { name: /^Anular ticket / })
          .click(),
    ],
    [
      "a visitor",
      "Venta al contado a un visitante",
      async () => {
        await page.getByRole("radio", { name: "Crédito" }).focus();
        await page.keyboard.press("ArrowRight");
        await page.getByRole("button", { name: "Visitante" }).click();
      },
    ],
    [
      "a diner of another unit",
      "Comensal de otra unidad",
      async () => {
        await onlyService(page, "Almuerzo");
        await page.keyboard.press("F2");
        await page.keyboard.type(VISITING.dni, { delay: 8 });
        await page.keyboard.press("Enter");
      },
    ],
  ];
  for (const [name, title, openIt] of dialogs) {
    await openIt();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog).toBeVisible();
    await checkThemes(page, where(name), ["[role=dialog]"]);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
}

for (const width of WIDTHS) {
  const { width: w, height: h } = VIEWPORTS[width];
  const size = `${width} (${w}×${h})`;

  test(`the point of sale, its list, every dialog and a ticket: no serious or critical violation, light and dark, ${size}`, async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(300_000);
    const context = await contextAt(browser, width, mesa, MANAGER);
    // Printing is the browser's dialog: a ticket opened here must not wait on it.
    await context.addInitScript(() => (window.print = () => {}));
    const page = await context.newPage();
    const where = (name: string) => `[${width}] point of sale → ${name}`;
    await open(page, "/dinners");
    await expect(saleRow(page, HOME.name).first()).toBeVisible();
    await checkThemes(page, `[${width}] point of sale (/dinners)`);

    // The typeahead and the dialogs once, at the desktop width; on a phone, the page and its ticket.
    if (width === "desktop") await checkOverlays(page, where);

    const href = (await saleRow(page, VISITING.name).first().getByRole("link").getAttribute("href"))!;
    await open(page, href);
    await checkThemes(page, `[${width}] a ticket (${href})`);
    await context.close();
  });

  test(`the Sales pages: no serious or critical violation, light and dark, ${size}`, async ({ browser, mesa }) => {
    test.setTimeout(300_000);
    const context = await contextAt(browser, width, mesa, MANAGER);
    const page = await context.newPage();
    const screens: Screen[] = [
      { name: "sales", path: `/sales?from=${TODAY}&to=${TODAY}` },
      { name: "duplicates", path: `/sales/duplicates?from=${TODAY}&to=${TODAY}` },
      { name: "periods", path: "/sales/periods" },
    ];
    for (const screen of screens) await checkScreen(page, screen, width);
    await context.close();
  });

  test(`the sales report dialog: no serious or critical violation, light and dark, ${size}`, async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(300_000);
    const context = await contextAt(browser, width, mesa, MANAGER, { acceptDownloads: true });
    const page = await context.newPage();
    await open(page, "/dinners");
    await page.getByTestId("sales-report-open").click();
    const dialog = page.getByRole("dialog", { name: "Reporte de ventas" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("report-total-total")).toContainText("S/");
    await expect(dialog.getByRole("region", { name: "Vista previa de los totales" })).toHaveAttribute(
      "aria-busy",
      "false",
    );
    if (width === "desktop")
      await checkThemes(page, `[${width}] sales report, its form and preview`, ["[role=dialog]"]);
    if (width === "phone") {
      // On a phone the dialog fits the screen.
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(w);
    } else {
      const downloading = page.waitForEvent("download", { timeout: 60_000 });
      await dialog.getByTestId("report-generate").click();
      await downloading;
      await expect(dialog.getByTestId("report-job")).toHaveAttribute("data-state", "ready");
      await expect(dialog.getByTestId("report-downloaded")).toBeVisible();
      await checkThemes(page, `[${width}] sales report, ready`, ["[role=dialog]"]);
    }
    await context.close();
  });

  test(`the diner import dialog in each of its states: no serious or critical violation, light and dark, and no sideways scrolling, ${size}`, async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(300_000);
    const context = await contextAt(browser, width, mesa, MANAGER);
    const page = await context.newPage();
    const openButton = page.getByRole("button", { name: "Importar comensales" });
    const dialog = page.getByRole("dialog", { name: DIALOG });
    const job = dialog.getByTestId("diner-import");
    const workbook = (fileName: string, rows: (string | number)[][]) => {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Trabajadores");
      const path = test.info().outputPath(fileName);
      writeFileSync(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
      return path;
    };
    const check = async (state: string) => {
      const where = `[${width}] diner import, ${state}`;
      // axe once, at the desktop width; the layout at both.
      if (width === "desktop") await checkThemes(page, where, ["[role=dialog]"]);
      // Nothing in the dialog scrolls sideways or runs past the screen's edge (the elements past it are named in
      // the message; some of them may only be clipped by their box).
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
      expect.soft(sideways.right, where).toBeLessThanOrEqual(w);
      expect.soft(sideways.page, where).toBeLessThanOrEqual(w);
    };
    await open(page, "/dinners");
    await openButton.click();
    await expect(dialog).toBeVisible();
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
    await expect(job).toHaveAttribute("data-step", "problems", { timeout: 30_000 });
    await expect(job.getByTestId("diner-import-problems").getByRole("listitem")).toHaveCount(2);
    await expect(job.getByRole("button", { name: "Importar", exact: true })).toHaveCount(0);
    await check("rows with problems");

    // What was written: one diner of a real subdealership at this cafe, imported here.
    const { subdealerships } = await pageProps<{ subdealerships: { name: string }[] }>(page);
    const leaver = { name: `Condori Cesado ${RUN} ${width}`, dni: newDni() };
    const oneDiner = (fileName: string, diner: { name: string; dni: string }) =>
      workbook(fileName, [
        ["Nombre", "DNI", "Subconcesionaria", "Comedor", "Observaciones"],
        [diner.name, diner.dni, subdealerships[0].name, "", "—"],
      ]);
    await job.getByRole("button", { name: "Importar otro archivo" }).click();
    await dialog.getByLabel(FILE_LABEL).setInputFiles(oneDiner(`uno-${RUN}-${width}.xlsx`, leaver));
    await dialog.getByRole("button", { name: "Subir y revisar" }).click();
    await expect(job).toHaveAttribute("data-step", "preview", { timeout: 30_000 });
    await job.getByRole("button", { name: "Importar", exact: true }).click();
    await expect(job).toHaveAttribute("data-step", "done", { timeout: 30_000 });
    await check("done");

    // A preview with another diner: the one just imported is now a leaver, with the checkbox to deactivate.
    await job.getByRole("button", { name: "Importar otro archivo" }).click();
    await dialog
      .getByLabel(FILE_LABEL)
      .setInputFiles(oneDiner(`otro-${RUN}-${width}.xlsx`, { name: `Nuevo Ticona ${RUN} ${width}`, dni: newDni() }));
    await dialog.getByRole("button", { name: "Subir y revisar" }).click();
    await expect(job).toHaveAttribute("data-step", "preview", { timeout: 30_000 });
    await expect(job.getByTestId("diner-import-leavers")).toContainText(`${leaver.name} (DNI ${leaver.dni})`);
    await expect(job.getByRole("checkbox", { name: /^Desactivar a est/ })).not.toBeChecked();
    await job.getByText("Primeros cambios").click();
    await check("preview");

    // Discarded or cancelled, the focus goes back to the button; opened again, it is on the file field.
    await job.getByRole("button", { name: "Descartar" }).click();
    await expect(dialog).toBeHidden();
    await expect(openButton).toBeFocused();
    await openButton.click();
    await expect(dialog.getByLabel(FILE_LABEL)).toBeFocused();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();
    await expect(openButton).toBeFocused();
    await context.close();
  });
}
