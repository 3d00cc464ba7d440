/**
 * The Sales page in a real browser, against the real server: a cafe manager of "Comedor Principal" filters the sale
 * lines (the filters land in the URL and the totals follow), sees only their cafe's sales, opens a ticket from its
 * row and with the keyboard, exports what the filter shows and reads the workbook back with SheetJS, and finds a
 * diner served lunch twice in the Duplicates tab. The pages hydrate as rendered (the markup is the same at every
 * width: nothing in it asks the screen's size), nothing in them scrolls sideways at a phone's width, and they read in
 * English. (axe checks them in tests/e2e/accessibility-sales.e2e.ts.)
 *
 * The e2e database is seeded on the server's first start (demo cafes, prices, diners and two weeks of sales). The
 * sales these tests look for are made here through sales.store as the super-administrator, with the requests the
 * point of sale sends: a diner of their own with a credit and a cash lunch today at Comedor Principal (a duplicate),
 * and a sale at Comedor Taller, which the manager must not see. People are made by the worker's fixtures
 * (tests/e2e/fixtures.ts). The tests stand alone on what beforeAll makes, so the two workers share them; each
 * worker's beforeAll makes its own diners and sales on its own database.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { expect, test, type Mesa } from "./fixtures";
import { chooseOption, watchConsole, watchServerMarkup, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Sofía Admin Ventas ${RUN}`, email: `sales.super.${RUN}@example.com` };
const MANAGER = { name: `Raúl Jefe Ventas ${RUN}`, email: `sales.jefe.${RUN}@example.com` };
const CAFE = "Comedor Principal";
const OTHER_CAFE = "Comedor Taller";

function newDni(): string {
  return `8${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
}
const TWICE = { name: `Mamani Ccahua Elsa ${RUN}`, dni: newDni() };
const ELSEWHERE = { name: `Huarachi Poma Iván ${RUN}`, dni: newDni() };
/** Today in Lima (the demo cafes' clock), YYYY-MM-DD. */
const TODAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Lima",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
}).format(new Date());

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

async function pageProps<T>(page: Page): Promise<T> {
  const text = await page.locator('script[data-page="app"]').textContent();
  return JSON.parse(text!).props as T;
}

/**
 * The page object of `path` as the page protocol answers it (the JSON a client-side visit gets), fetched with the
 * browser's cookies and no page to render: the asset version comes from a first answer's HTML.
 */
async function pageObject<T>(
  context: BrowserContext,
  path: string,
  version?: string,
): Promise<{ props: T; version: string }> {
  if (version === undefined) {
    const html = await (await context.request.get(path)).text();
    const json = /<script[^>]*\bdata-page="app"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(json, `${path}: the page object in the HTML`).toBeTruthy();
    return JSON.parse(json!);
  }
  const response = await context.request.get(path, { headers: { "X-Inertia": "true", "X-Inertia-Version": version } });
  expect(response.status(), path).toBe(200);
  return response.json();
}

async function postJson(context: BrowserContext, path: string, data: unknown) {
  const token = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
  return context.request.post(path, {
    data,
    headers: { Accept: "application/json", "X-XSRF-TOKEN": decodeURIComponent(token) },
  });
}

const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

const table = (page: Page) => page.getByRole("table", { name: /^(Líneas de venta|Sale lines)$/ });
const rowsOf = (page: Page, text: string) => table(page).locator("tbody tr").filter({ hasText: text });

test.describe.configure({ mode: "parallel" });

test.describe("the Sales page", () => {
  test.setTimeout(90_000);
  const tickets: { cash: string; credit: string; elsewhere: string } = { cash: "", credit: "", elsewhere: "" };

  const as = async (browser: Browser, mesa: Mesa) => {
    const context = await browser.newContext({ acceptDownloads: true });
    await mesa.signIn(context, MANAGER);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  /** Whether this worker has made the people, diners and sales on its database. */
  let made = false;

  test.beforeAll(async ({ browser, mesa }) => {
    // Once per worker: a worker that comes back to this file for more of its tests finds them there already.
    if (made) return;
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
    await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE });

    // The point of sale's props, read as the page protocol sends them: no page is drawn.
    const context = await browser.newContext();
    await mesa.signIn(context, ADMIN);
    const { props, version } = await pageObject<{
      cafes: { id: number; name: string }[];
      subdealerships: { id: number }[];
    }>(context, "/dinners");
    const cafeId = (name: string) => props.cafes.find((c) => c.name === name)!.id;
    const lunches = new Map<string, number>();
    const lunchAt = async (cafe: string) => {
      if (!lunches.has(cafe)) {
        const { pos } = (
          await pageObject<{ pos: { services: { id: number; code: string }[] } }>(
            context,
            `/dinners?cafe=${cafeId(cafe)}`,
            version,
          )
        ).props;
        lunches.set(cafe, pos.services.find((s) => s.code === "ALM")!.id);
      }
      return lunches.get(cafe)!;
    };
    for (const [diner, cafe] of [
      [TWICE, CAFE],
      [ELSEWHERE, OTHER_CAFE],
    ] as const) {
      const response = await postJson(context, "/diners", {
        name: diner.name,
        document_type: "dni",
        document_number: diner.dni,
        subdealership_id: props.subdealerships[0].id,
        cafe_id: cafeId(cafe),
      });
      expect(response.status(), await response.text()).toBe(201);
    }
    const sell = async (diner: { dni: string }, cafe: string, saleType: "credit" | "cash") => {
      const response = await postJson(context, "/sales", {
        key: `sales-e2e-${RUN}-${diner.dni}-${saleType}`,
        cafe_id: cafeId(cafe),
        document_type: "dni",
        document_number: diner.dni,
        service_date: TODAY,
        sale_type: saleType,
        lines: [{ service_id: await lunchAt(cafe), quantity: 1 }],
      });
      expect(response.status(), await response.text()).toBe(201);
      return ((await response.json()) as { ticket: string }).ticket;
    };
    tickets.credit = await sell(TWICE, CAFE, "credit");
    tickets.cash = await sell(TWICE, CAFE, "cash");
    tickets.elsewhere = await sell(ELSEWHERE, OTHER_CAFE, "credit");
    await context.close();
    made = true;
  });

  test("filters in the URL, totals that follow, only the manager's cafe, a row opens its ticket", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await as(browser, mesa);
    // The sidebar is the same on every page of the app; the profile settings are a light one to start from.
    await open(page, "/settings/profile");
    await page
      .getByRole("navigation", { name: /navegación/i })
      .getByRole("link", { name: "Ventas" })
      .click();
    await expect(page).toHaveURL(/\/sales$/);
    await expect(page.getByRole("heading", { level: 1, name: "Ventas" })).toBeVisible();
    // Only the manager's cafe is offered, and the other cafe's sale is nowhere.
    await page.getByRole("combobox", { name: "Comedor", exact: true }).click();
    await expect(page.getByRole("option", { name: CAFE })).toBeVisible();
    await expect(page.getByRole("option", { name: OTHER_CAFE })).toHaveCount(0);
    await page.keyboard.press("Escape");

    // Today, cash: the lines of today's cash sales, the manager's diner among them.
    await open(page, `/sales?from=${TODAY}&to=${TODAY}`);
    const dayTotal = await page.getByTestId("sales-total-total").textContent();
    await chooseOption(page, "Tipo de venta", "Contado");
    await expect(page).toHaveURL(/sale_type=cash/);
    await expect(rowsOf(page, TWICE.name)).toHaveCount(1);
    await expect(rowsOf(page, TWICE.name)).toContainText(tickets.cash);
    await expect(rowsOf(page, ELSEWHERE.name)).toHaveCount(0);
    // The totals are the cash sales' now.
    await expect(page.getByTestId("sales-total-total")).not.toHaveText(dayTotal!);

    // A click on the row opens its ticket.
    await rowsOf(page, TWICE.name).getByRole("cell").first().click();
    await expect(page).toHaveURL(/\/sales\/\d+\/ticket$/);
    await expect(page.getByText(tickets.cash).first()).toBeVisible();
    await page.goBack();
    await waitForHydration(page);
    // And with the keyboard: the ticket's link takes the focus and Enter opens it.
    const link = rowsOf(page, TWICE.name).getByRole("link", { name: `Abrir el ticket ${tickets.cash}` });
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/sales\/\d+\/ticket$/);
    await page.goBack();
    await waitForHydration(page);
    await expect(page).toHaveURL(/sale_type=cash/);
    await expect(rowsOf(page, TWICE.name)).toHaveCount(1);
    // Credit instead: the other lunch; the filter is in the URL, so a reload keeps it.
    await chooseOption(page, "Tipo de venta", "Crédito");
    await expect(page).toHaveURL(/sale_type=credit/);
    await expect(rowsOf(page, TWICE.name)).toContainText(tickets.credit);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("combobox", { name: "Tipo de venta" })).toContainText("Crédito");
    await expect(rowsOf(page, TWICE.name)).toHaveCount(1);
    // Back to every type: the lines and totals of the whole day again.
    await chooseOption(page, "Tipo de venta", "Crédito y contado");
    await expect(page).not.toHaveURL(/sale_type=/);
    await expect(rowsOf(page, TWICE.name)).toHaveCount(2);
    await expect(page.getByTestId("sales-total-total")).toHaveText(dayTotal!);

    // Voided sales only: none of today's are this diner's.
    await chooseOption(page, "Estado", "Anuladas");
    await expect(page).toHaveURL(/status=voided/);
    await expect(rowsOf(page, TWICE.name)).toHaveCount(0);
    await page.getByRole("button", { name: "Quitar filtros" }).click();
    await expect(page).toHaveURL(/\/sales$/);

    expect(problems).toEqual([]);
    await context.close();
  });

  test("the export holds what the filter shows, amounts as numbers and dates as dates", async ({ browser, mesa }) => {
    const { context, page, problems } = await as(browser, mesa);
    await open(page, `/sales?from=${TODAY}&to=${TODAY}&sale_type=cash`);
    const { lines } = await pageProps<{ lines: { total: number; totals: { totalCents: number } } }>(page);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Exportar a Excel" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^mesa-sales-${TODAY}-${TODAY}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`),
    );
    const book = XLSX.read(readFileSync(await download.path()), { type: "buffer", cellDates: true, cellNF: true });
    const sheet = book.Sheets[book.SheetNames[0]];
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    const header = rows[0] as string[];
    expect(header.slice(0, 5)).toEqual(["Fecha", "Vendida", "Comedor", "Ticket", "Comensal"]);
    expect(rows.length - 1).toBe(lines.total);
    const total = header.indexOf("Total");
    const cents = rows
      .slice(1)
      .reduce((n: number, row) => n + Math.round(((row as number[])[total] as number) * 100), 0);
    expect(cents).toBe(lines.totals.totalCents);
    const mine = rows.find((row) => (row as unknown[])[3] === tickets.cash) as unknown[];
    expect(mine[4]).toBe(TWICE.name);
    expect(mine[2]).toBe(CAFE);
    expect(mine[0]).toBeInstanceOf(Date);
    expect(typeof mine[total]).toBe("number");
    expect(rows.some((row) => (row as unknown[])[2] === OTHER_CAFE)).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the Duplicates tab shows the diner served lunch twice today, with both tickets", async ({ browser, mesa }) => {
    const { context, page, problems } = await as(browser, mesa);
    await open(page, `/sales?from=${TODAY}&to=${TODAY}`);
    await page.getByRole("link", { name: "Duplicados" }).click();
    await expect(page).toHaveURL(new RegExp(`/sales/duplicates\\?from=${TODAY}&to=${TODAY}$`));
    const group = page.getByTestId("duplicate-group").filter({ hasText: TWICE.name });
    await expect(group).toHaveCount(1);
    await expect(group).toContainText("2 veces");
    await expect(group.getByRole("link", { name: tickets.credit })).toBeVisible();
    await expect(group.getByRole("link", { name: tickets.cash })).toBeVisible();
    await group.getByRole("link", { name: tickets.cash }).click();
    await expect(page).toHaveURL(/\/sales\/\d+\/ticket$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("an administrator closes a month at a cafe after a confirmation, and reopens it with a reason", async ({
    browser,
    mesa,
  }) => {
    const context = await browser.newContext();
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await open(page, "/sales");
    await page.getByRole("link", { name: "Meses cerrados" }).click();
    await expect(page).toHaveURL(/\/sales\/periods/);
    // The oldest month offered, which no other test sells into.
    const form = page.getByRole("form", { name: "Cerrar un mes" });
    await chooseOption(form, "Comedor", CAFE);
    await form.getByRole("combobox", { name: "Mes" }).click();
    const oldest = page.getByRole("option").last();
    const month = (await oldest.textContent())!;
    await oldest.click();
    await form.getByRole("button", { name: "Cerrar el mes" }).click();
    const dialog = page.getByRole("alertdialog", { name: `¿Cerrar ${month} en ${CAFE}?` });
    await expect(dialog).toContainText("nadie podrá registrar, anular ni vender con fecha anterior");
    await dialog.getByRole("button", { name: "Cerrar el mes" }).click();
    const row = page.getByTestId("closed-period").filter({ hasText: CAFE }).filter({ hasText: month });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(ADMIN.name);

    await row.getByRole("button", { name: `Reabrir ${month} en ${CAFE}` }).click();
    const reopen = page.getByRole("dialog", { name: `¿Reabrir ${month} en ${CAFE}?` });
    // A reason is required: too short is refused under the field.
    await reopen.getByLabel("Motivo").fill("x");
    await reopen.getByRole("button", { name: "Reabrir el mes" }).click();
    await expect(reopen).toBeVisible();
    await reopen.getByLabel("Motivo").fill("Nota de crédito emitida");
    await reopen.getByRole("button", { name: "Reabrir el mes" }).click();
    await expect(reopen).toBeHidden();
    await expect(row).toHaveCount(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the markup hydrates as rendered, and nothing scrolls sideways on a phone", async ({ browser, mesa }) => {
    const { context, page, problems } = await as(browser, mesa);
    await page.setViewportSize(DESKTOP);
    await watchServerMarkup(page);
    for (const path of [
      `/sales?from=${TODAY}&to=${TODAY}`,
      `/sales/duplicates?from=${TODAY}&to=${TODAY}`,
      "/sales/periods",
    ]) {
      await open(page, path);
      expect(await page.evaluate(() => (window as any).__removedFromApp), path).toEqual([]);
      // The same page at a phone's width: its layout is the stylesheet's, so narrowing the window lays it out as a
      // phone would.
      await page.setViewportSize(PHONE);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${path} on a phone` })
        .toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate(() => (window as any).__removedFromApp), `${path} on a phone`).toEqual([]);
      await page.setViewportSize(DESKTOP);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test("in English, with plurals and amounts in soles (S/)", async ({ browser, mesa }) => {
    const { context, page, problems } = await as(browser, mesa);
    // A first answer gives the browser its XSRF-TOKEN cookie.
    expect((await context.request.get("/settings/language")).status()).toBe(200);
    const language = async (locale: "en" | "es") => {
      const token = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
      const changed = await context.request.put("/settings/language", {
        data: { locale },
        headers: { "X-XSRF-TOKEN": decodeURIComponent(token) },
        maxRedirects: 0,
      });
      expect(changed.status()).toBeLessThan(400);
    };
    await language("en");
    await open(page, `/sales?from=${TODAY}&to=${TODAY}&sale_type=cash`);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1, name: "Sales" })).toBeVisible();
    await expect(page.getByTestId("sales-total-sales")).toContainText(/\d+ lines?/);
    await expect(page.getByTestId("sales-total-total")).toContainText("S/");
    await expect(rowsOf(page, TWICE.name)).toContainText("Paid at the till");
    // The tab keeps the filter: the day's cash sales alone hold no duplicate, the whole day does.
    await page.getByRole("link", { name: "Duplicates" }).click();
    await expect(page).toHaveURL(/\/sales\/duplicates\?.*sale_type=cash/);
    await expect(page.getByTestId("duplicate-group").filter({ hasText: TWICE.name })).toHaveCount(0);
    await chooseOption(page, "Sale type", "Credit and paid at the till");
    await expect(page).not.toHaveURL(/sale_type=/);
    await expect(page.getByTestId("duplicate-group").filter({ hasText: TWICE.name })).toContainText("2 times");
    await language("es");
    expect(problems).toEqual([]);
    await context.close();
  });
});
