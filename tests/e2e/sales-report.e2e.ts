/**
 * The report dialog in a real browser: a cafe manager of "Comedor Principal" opens it from the Dinners page (their
 * cafe already chosen), reads the preview of the totals, generates the workbook (a background job whose progress
 * the dialog follows), downloads it, and the test opens the file with SheetJS: its sheets, a Detail of the manager's
 * cafe only, whose lines add up to the total the preview showed, to the cent. Closing the dialog while the report is
 * made and opening it again shows the report. The dialog is checked with axe in both themes, at a desktop and a phone
 * width, and used with the keyboard.
 *
 * The e2e database is seeded on the server's first start with the demo data: two weeks of sales at the demo cafes,
 * ending yesterday. People come from tests/support/e2e-fixtures.ts.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as XLSX from "xlsx";
import { waitForHydration, watchConsole } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Altiplano-Quinua-2024!";
const MANAGER = { name: `Elena Reportes ${RUN}`, email: `reportes.jefa.${RUN}@example.com` };
const CAFE = "Comedor Principal";

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

async function signIn(page: Page, email: string): Promise<void> {
  await open(page, "/login");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/** "S/ 1,234.50" → 123450. */
function cents(text: string): number {
  return Number(text.replace(/[^\d]/g, ""));
}

/** axe on the open dialog in the light and dark themes: no serious, critical or moderate finding. */
async function checkDialog(page: Page, where: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate(async (value) => {
      const root = document.documentElement;
      root.dataset.appearance = value;
      root.classList.toggle("dark", value === "dark");
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
    }, theme);
    const { violations } = await new AxeBuilder({ page }).include("[role=dialog]").analyze();
    const failing = violations
      .filter((v) => ["serious", "critical", "moderate"].includes(v.impact ?? ""))
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect.soft(failing, `axe: ${where} [${theme}]`).toEqual([]);
  }
}

test.describe("the report dialog", () => {
  test.beforeAll(() => {
    createUser(MANAGER, { role: "cafe manager", area: "Caja", place: CAFE });
  });

  test("a cafe manager generates the report from the Dinners page, downloads it, and its sheets add up", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const problems = watchConsole(page);
    await signIn(page, MANAGER.email);
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
    const total = cents(await dialog.getByTestId("report-total-total").innerText());
    const sales = Number((await dialog.getByTestId("report-total-sales").innerText()).replace(/[^\d]/g, ""));
    expect(total).toBeGreaterThan(0);
    await checkDialog(page, "report dialog, desktop");

    // Generate with the keyboard: the button takes focus and Enter presses it.
    await dialog.getByTestId("report-generate").focus();
    await page.keyboard.press("Enter");
    const download = dialog.getByTestId("report-download");
    await expect(download).toBeVisible({ timeout: 60_000 });
    await expect(dialog.getByTestId("report-job")).toHaveAttribute("data-state", "ready");
    await checkDialog(page, "report dialog, ready");

    // Closed and opened again, the dialog shows the report until "Nuevo reporte".
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.getByTestId("sales-report-open").click();
    await expect(dialog.getByTestId("report-download")).toBeVisible();

    const [file] = await Promise.all([page.waitForEvent("download"), dialog.getByTestId("report-download").click()]);
    expect(file.suggestedFilename()).toMatch(/^mesa-ventas-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/);
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

    // "Nuevo reporte" shows the form again.
    await dialog.getByTestId("report-new").click();
    await expect(dialog.getByTestId("report-generate")).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("on a phone the dialog fits the screen and passes axe in both themes", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, MANAGER.email);
    await open(page, "/dinners");
    await page.getByTestId("sales-report-open").click();
    const dialog = page.getByRole("dialog", { name: "Reporte de ventas" });
    await expect(dialog).toBeVisible();
    // A report from the last test may be shown: start a new one to see the form.
    if (await dialog.getByTestId("report-new").isVisible()) await dialog.getByTestId("report-new").click();
    await expect(dialog.getByTestId("report-total-total")).toContainText("S/");
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await checkDialog(page, "report dialog, phone");
  });
});
