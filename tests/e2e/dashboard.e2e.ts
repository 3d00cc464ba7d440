/**
 * The dashboard in a real browser, against the real server: a cafe manager's dashboard paints at once with skeletons,
 * its figures arrive by themselves (a deferred prop), and they move without a reload when a cashier sells at the cafe
 * in another tab (the cafe's figures channel, then a partial reload of the figures alone); the chart's table opens
 * with the keyboard; the super-administrator chooses a cafe with the keyboard; the page works at phone width and in
 * the dark theme, and its markup hydrates as rendered; someone without sales.view sees no figures, and logs no
 * errors. (axe checks the dashboard's states in tests/e2e/accessibility-people.e2e.ts.)
 *
 * The e2e database is seeded on the server's first start (demo cafes with prices and an issuing business). People
 * are made by the worker's fixtures (tests/e2e/fixtures.ts); the diner sold to is created here through diners.store.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test, type Mesa, type Who } from "./fixtures";
import { chooseOption, watchConsole, watchServerMarkup, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Sofía Admin Panel ${RUN}`, email: `panel.super.${RUN}@example.com` };
const MANAGER = { name: `Raúl Jefe Panel ${RUN}`, email: `panel.jefe.${RUN}@example.com` };
const CASHIER = { name: `Lucía Caja Panel ${RUN}`, email: `panel.cajera.${RUN}@example.com` };
const COOK = { name: `Nora Cocina Panel ${RUN}`, email: `panel.cocina.${RUN}@example.com` };
const CAFE = "Comedor Principal";
const SERVICE = "Almuerzo";
/** Almuerzo's demo price at Comedor Principal, in cents. */
const PRICE_CENTS = 1800;
const DINER = { name: `Mamani Quispe Eva ${RUN}`, dni: `9${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}` };

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** The props of a page, from its server-rendered HTML. */
function pageProps<T>(html: string): T {
  const text = /<script data-page="app"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1];
  return JSON.parse(text).props as T;
}

async function postJson(context: BrowserContext, path: string, data: unknown) {
  const token = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
  return context.request.post(path, {
    data,
    headers: { Accept: "application/json", "X-XSRF-TOKEN": decodeURIComponent(token) },
  });
}

const digits = (text: string | null) => Number((text ?? "").replace(/\D/g, ""));

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

// The tests share only the people and the diner beforeAll makes, which it makes on each worker's own database: the
// two workers share the tests.
test.describe.configure({ mode: "parallel" });

test.describe("dashboard", () => {
  test.setTimeout(60_000);
  const as = async (browser: Browser, mesa: Mesa, who: Who, options: Parameters<Browser["newContext"]>[0] = {}) => {
    const context = await browser.newContext(options);
    await mesa.signIn(context, who);
    const page = await context.newPage();
    const seen = watchConsole(page);
    // pusher-js gives up a handshake the loaded test machine is slow to answer and connects again, with this warning;
    // the connection itself is the realtime tests' concern (tests/e2e/realtime.e2e.ts).
    const problems = () => seen.filter((p) => !p.includes("WebSocket is closed before the connection is established"));
    return { context, page, problems };
  };

  /** Whether this worker has made the people, diners and sales on its database. */
  let made = false;

  test.beforeAll(async ({ browser, mesa }) => {
    // Once per worker: a worker that comes back to this file for more of its tests finds them there already.
    if (made) return;
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
    await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE });
    await mesa.user({ ...CASHIER, role: "cashier", area: "Caja", place: CAFE });
    await mesa.user({ ...COOK, role: "nutritionist", area: "Nutrición", place: "Sede Lima" });

    // A diner of the cafe, registered by its manager: the point of sale's page (read as HTML, no page needed) gives
    // the cafe's and a subdealership's ids, and the XSRF cookie the registration sends back.
    const context = await browser.newContext();
    await mesa.signIn(context, MANAGER);
    const props = await pageProps<{ cafes: { id: number; name: string }[]; subdealerships: { id: number }[] }>(
      await (await context.request.get("/dinners")).text(),
    );
    const response = await postJson(context, "/diners", {
      name: DINER.name,
      document_type: "dni",
      document_number: DINER.dni,
      subdealership_id: props.subdealerships[0].id,
      cafe_id: props.cafes.find((c) => c.name === CAFE)!.id,
      active: true,
    });
    expect(response.status(), await response.text()).toBe(201);
    await context.close();
    made = true;
  });

  test("the figures arrive after the page and move without a reload when a sale is made in another tab", async ({
    browser,
    mesa,
  }) => {
    const dashboard = await as(browser, mesa, MANAGER);
    const { page } = dashboard;
    // The first answer carries no figures: the page paints with skeletons, then asks for them.
    const figuresRequest = page.waitForRequest(
      (r) => r.headers()["x-inertia-partial-data"] === "figures" && new URL(r.url()).pathname === "/dashboard",
    );
    const first = await page.goto("/dashboard");
    expect(await first!.text()).not.toContain('"figures":{');
    await figuresRequest;
    await waitForHydration(page);
    await expect(page.getByTestId("figures")).toBeVisible();
    await expect(page.getByTestId("figures-skeleton")).toHaveCount(0);
    const meals = page.getByTestId("meals-today-value");
    const revenue = page.getByTestId("revenue-today-value");
    const mealsBefore = digits(await meals.textContent());
    const revenueBefore = digits(await revenue.textContent());
    // Anything the page keeps in memory survives, so a reload of the page would show.
    await page.evaluate(() => ((window as unknown as { kept: string }).kept = "same page"));

    // Another tab: the cashier's point of sale, at the same cafe.
    const till = await as(browser, mesa, CASHIER);
    await open(till.page, "/dinners");
    await expect(till.page.getByRole("combobox", { name: "Comedor" })).toContainText(CAFE);
    await onlyService(till.page, SERVICE);
    const reload = page.waitForRequest((r) => r.headers()["x-inertia-partial-data"] === "figures");
    await till.page.keyboard.press("F2");
    await till.page.keyboard.type(DINER.dni, { delay: 8 });
    await till.page.keyboard.press("Enter");
    await expect(till.page.locator('[data-flash="success"]')).toContainText(DINER.name);

    // The dashboard hears of it on the cafe's figures channel and reloads the figures alone.
    await reload;
    await expect(meals).toHaveText(new Intl.NumberFormat("es-PE").format(mealsBefore + 1), { timeout: 10_000 });
    expect(digits(await revenue.textContent())).toBe(revenueBefore + PRICE_CENTS);
    await expect(page.getByTestId("live-updated")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { kept?: string }).kept)).toBe("same page");
    await expect(page.getByTestId("type-lunch")).toBeVisible();

    // The chart's figures as a table, with the keyboard: 14 days, today's last, with the sale.
    const toggle = page.getByRole("button", { name: "Ver como tabla" });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Ver gráfico" })).toHaveAttribute("aria-pressed", "true");
    const rows = page.getByTestId("days-table").locator("tbody tr");
    await expect(rows).toHaveCount(14);
    expect(digits(await rows.last().locator("td").first().textContent())).toBe(mealsBefore + 1);

    expect(dashboard.problems()).toEqual([]);
    expect(till.problems()).toEqual([]);
    await till.context.close();
    await dashboard.context.close();
  });

  /**
   * Holds the dashboard's figures (a deferred prop, asked for once the page is up) until the returned function is
   * called: they replace the skeletons by design, after hydration, so the server's markup is read before they come.
   */
  const holdFigures = async (page: Page): Promise<() => void> => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // A pattern, not a function: Playwright matches it without asking this process about every request.
    await page.route(/^https?:\/\/[^/]+\/dashboard(?:[?#]|$)/, async (route) => {
      if (route.request().headers()["x-inertia-partial-data"] === "figures") await held;
      await route.continue();
    });
    return release;
  };

  test("the super-administrator chooses a cafe with the keyboard; at phone width and in the dark theme it still reads, and hydrates as rendered", async ({
    browser,
    mesa,
  }) => {
    const { context, page, problems } = await as(browser, mesa, ADMIN, { viewport: { width: 390, height: 844 } });
    // The dark theme, as choosing it in the appearance settings keeps it.
    await context.addCookies([{ name: "appearance", value: "dark", url: mesa.baseURL }]);
    await context.addInitScript(() => localStorage.setItem("appearance", "dark"));
    await watchServerMarkup(page);
    const release = await holdFigures(page);
    await open(page, "/dashboard");
    // At phone width, React keeps the server's markup.
    expect(await page.evaluate(() => (window as unknown as { __removedFromApp: string[] }).__removedFromApp)).toEqual(
      [],
    );
    release();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page.getByTestId("figures")).toBeVisible();
    const all = digits(await page.getByTestId("revenue-month-value").textContent());
    await expect(page.getByTestId("days-chart").locator(".recharts-bar-rectangle").first()).toBeAttached();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const filter = page.getByRole("combobox", { name: "Comedor" });
    await expect(filter).toHaveText("Todos mis comedores");
    await chooseOption(page, "Comedor", CAFE);
    await expect(page).toHaveURL(/\/dashboard\?cafe=\d+$/);
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`Ventas · ${CAFE}`) })).toBeVisible();
    await expect(page.getByTestId("figures")).toBeVisible();
    const one = digits(await page.getByTestId("revenue-month-value").textContent());
    expect(one).toBeLessThanOrEqual(all);
    // Back to every cafe, with the keyboard alone.
    await filter.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("option", { name: "Todos mis comedores" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("figures")).toBeVisible();
    expect(digits(await page.getByTestId("revenue-month-value").textContent())).toBe(all);
    await page.screenshot({ path: test.info().outputPath("dashboard-phone-dark.png"), fullPage: true });
    expect(problems()).toEqual([]);
    await context.close();
  });

  test("the markup hydrates as rendered, desktop", async ({ browser, mesa }) => {
    const { context, page, problems } = await as(browser, mesa, ADMIN, { viewport: { width: 1366, height: 850 } });
    await watchServerMarkup(page);
    const release = await holdFigures(page);
    await open(page, "/dashboard");
    expect(await page.evaluate(() => (window as unknown as { __removedFromApp: string[] }).__removedFromApp)).toEqual(
      [],
    );
    release();
    await expect(page.getByTestId("figures")).toBeVisible();
    expect(problems()).toEqual([]);
    await context.close();
  });

  test("someone without sales.view sees the rest of the dashboard and no figures", async ({ browser, mesa }) => {
    const { context, page, problems } = await as(browser, mesa, COOK);
    await open(page, "/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${COOK.name}`);
    await expect(page.getByRole("heading", { name: "Su cuenta" })).toBeVisible();
    await expect(page.getByTestId("figures")).toHaveCount(0);
    await expect(page.getByTestId("figures-skeleton")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 2, name: "Ventas" })).toHaveCount(0);
    expect(problems()).toEqual([]);
    await context.close();
  });
});
