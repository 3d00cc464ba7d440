/**
 * The report dialog in a real browser: a cafe manager of "Comedor Principal" opens it from the Dinners page (their
 * cafe already chosen), reads the preview of the totals, generates the workbook (a background job whose progress
 * the dialog follows), downloads it, and the test opens the file with SheetJS: its sheets, a Detail of the manager's
 * cafe only, whose lines add up to the total the preview showed, to the cent. The dates are chosen by a preset
 * (the last 7 days, counted in Lima) and typed (a day that does not exist is refused before anything is asked);
 * "Generar" downloads the workbook by itself once it is ready, and the dialog opened again shows the form (with a
 * link to the last report), not the last result. The dialog is used with the keyboard. (axe checks it, and that it
 * fits a phone, in tests/e2e/accessibility-sales.e2e.ts.)
 *
 * The e2e database is seeded on the server's first start with the demo data: two weeks of sales at the demo cafes,
 * ending yesterday. The manager is made by the worker's fixtures (tests/e2e/fixtures.ts).
 */
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test } from "./fixtures";
import { waitForHydration, watchConsole } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const MANAGER = { name: `Elena Reportes ${RUN}`, email: `reportes.jefa.${RUN}@example.com` };
const CAFE = "Comedor Principal";

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** Today in Lima, moved by `days`, as "YYYY-MM-DD". */
function limaDay(days = 0): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima" }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** "S/ 1,234.50" → 123450. */
function cents(text: string): number {
  return Number(text.replace(/[^\d]/g, ""));
}

test.describe("the report dialog", () => {
  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE });
  });

  test("a cafe manager generates the report from the Dinners page, downloads it, and its sheets add up", async ({
    page,
    mesa,
  }) => {
    test.setTimeout(90_000);
    const problems = watchConsole(page);
    await mesa.signIn(page, MANAGER);
    await open(page, "/dinners");

    await page.getByTestId("sales-report-open").click();
    const dialog = page.getByRole("dialog", { name: "Reporte de ventas" });
    await expect(dialog).toBeVisible();
    // The page's cafe is chosen; the dates are this month up to today; the preview shows the totals.
    await expect(dialog.getByRole("combobox", { name: "Comedor", exact: true })).toHaveText(new RegExp(CAFE));
    await expect(dialog.getByTestId("report-total-total")).toContainText("S/");
    await expect(dialog.getByRole("region", { name: "Vista previa de los totales" })).toHaveAttribute(
      "aria-busy",
      "false",
    );
    // This month up to today (the default) is the first preset; "Últimos 7 días" chooses today and the 6 before.
    const from = dialog.getByTestId("report-from");
    const to = dialog.getByTestId("report-to");
    await expect(from).toHaveAttribute("data-value", `${limaDay().slice(0, 8)}01`);
    await expect(dialog.getByTestId("report-preset-this_month")).toHaveAttribute("aria-pressed", "true");
    await dialog.getByTestId("report-preset-last_7_days").click();
    await expect(from).toHaveAttribute("data-value", limaDay(-6));
    await expect(to).toHaveAttribute("data-value", limaDay());
    await expect(from).toHaveValue(limaDay(-6).split("-").reverse().join("/"));
    await expect(dialog.getByTestId("report-preset-last_7_days")).toHaveAttribute("aria-pressed", "true");

    // A typed date: a day that does not exist is refused before Generate; a real one counts (the preset no longer).
    await from.fill("31/02/2026");
    await expect(dialog.getByText("Escriba una fecha existente, como 31/12/2026.")).toBeVisible();
    await expect(dialog.getByTestId("report-generate")).toBeDisabled();
    const typed = limaDay(-5);
    await from.fill(typed.split("-").reverse().join("/"));
    await expect(from).toHaveAttribute("data-value", typed);
    await expect(dialog.getByTestId("report-preset-last_7_days")).toHaveAttribute("aria-pressed", "false");
    await expect(dialog.getByTestId("report-generate")).toBeEnabled();
    // The preview follows the typed dates.
    await expect(dialog.getByRole("region", { name: "Vista previa de los totales" })).toHaveAttribute(
      "aria-busy",
      "false",
    );
    await page.waitForTimeout(400);
    await expect(dialog.getByRole("region", { name: "Vista previa de los totales" })).toHaveAttribute(
      "aria-busy",
      "false",
    );
    const total = cents(await dialog.getByTestId("report-total-total").innerText());
    const sales = Number((await dialog.getByTestId("report-total-sales").innerText()).replace(/[^\d]/g, ""));
    expect(total).toBeGreaterThan(0);

    // Generate with the keyboard: the button takes focus and Enter presses it; the workbook downloads once ready.
    await dialog.getByTestId("report-generate").focus();
    const downloading = page.waitForEvent("download", { timeout: 60_000 });
    await page.keyboard.press("Enter");
    const file = await downloading;
    await expect(dialog.getByTestId("report-job")).toHaveAttribute("data-state", "ready");
    await expect(dialog.getByTestId("report-downloaded")).toBeVisible();
    expect(file.suggestedFilename()).toBe(`mesa-ventas-${typed}-${limaDay()}.xlsx`);
    const book = XLSX.read(readFileSync((await file.path())!), { type: "buffer" });
    expect(book.SheetNames).toEqual(["Reporte", "Resumen", "Diario", "Valorización", "Detalle"]);
    const detail = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Detalle, { header: 1 }).slice(1);
    expect(detail.length).toBeGreaterThan(0);
    expect(new Set(detail.map((row) => row[2]))).toEqual(new Set([CAFE]));
    expect(detail.reduce((sum: number, row) => sum + Math.round((row[17] as number) * 100), 0)).toBe(total);
    const summary = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Resumen, { header: 1 });
    const last = summary[summary.length - 1];
    expect(Math.round((last[last.length - 1] as number) * 100)).toBe(total);
    const cover = Object.fromEntries(
      XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Reporte, { header: 1 }).map((row) => [row[0], row[1]]),
    );
    expect(cover.Ventas).toBe(sales);
    expect(cover.Comedores).toBe(CAFE);
    // The Billing sheet says above its header that it counts credit sales only.
    const billing = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets["Valorización"], { header: 1 });
    expect(String(billing[0][0])).toMatch(/^Esta hoja cuenta solo las ventas a crédito/);

    // Closed and opened again, the dialog shows the form, not the last result; the last report stays a link.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.getByTestId("sales-report-open").click();
    await expect(dialog.getByTestId("report-generate")).toBeVisible();
    await expect(dialog.getByTestId("report-job")).toHaveCount(0);
    await expect(dialog.getByTestId("report-last-download")).toBeVisible();
    await expect(dialog.getByTestId("report-preset-this_month")).toHaveAttribute("aria-pressed", "true");
    expect(problems).toEqual([]);
  });
});
