/**
 * The point of sale (Dinners) in a real browser, against the real server: a cashier of "Comedor Principal" sells
 * with the keyboard alone and a scanner-style input (digits typed fast, then Enter), the cafe's other open till (its
 * manager's) sees the sale without reloading, a second credit meal is refused with the server's reason, a name typed
 * in the input offers a typeahead (arrow keys and Enter) for a cash sale, a diner of another cafe goes through the
 * Other-unit dialog (Cancel has the focus: a reflex Enter or the next scan never sells at double price), an unknown
 * document is said beside the scan box, which keeps the focus (F3 opens the New-diner dialog prefilled, whose name
 * refuses a scan's digits), the sale type comes back to credit after a cash sale and the page's keys (F2, F3, F4, F8,
 * F9) do what they say, the last ticket prints in place (no new page), the notices never cover a control, a sale is
 * voided with a reason (struck through, out of the totals), and the ticket view shows the 80 mm ticket (issuer, RUC,
 * number, service date, lines, IGV, the other-unit mark, ANULADO) and records its prints.
 *
 * The tests share nothing but the people the beforeAll makes (with an inactive and a blacklisted diner), so they run
 * in parallel: each worker runs the beforeAll once on its own Mesa (tests/e2e/fixtures.ts), and a test may run on
 * either worker, after any of the others or none, or again (--repeat-each). Each test registers the diners it sells
 * to each time it runs, through diners.store as the super-administrator (at Comedor Principal, the cashier's cafe,
 * or at Comedor Taller for an other-unit sale), with unique names and documents; one more is registered through the
 * New-diner dialog. A sale a test only needs to exist (the sale it voids, the tickets it opens) is made by the test
 * through sales.store as JSON just before it opens the page. Each person has one browser context per worker, in
 * which each test opens a page of its own.
 *
 * The e2e database is seeded on the server's first start (demo cafes with prices, service windows and an issuing
 * business). People are made by the worker's fixtures. axe checks the page, its dialogs and a ticket in
 * tests/e2e/accessibility-sales.e2e.ts. What the server alone decides (refusals, prices, the date it sells for,
 * print counts, settings kept) is tested over HTTP in tests/http/pos.test.ts and pos-till.test.ts.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expect, test, type Mesa, type Who } from "./fixtures";
import { chooseOption, pickDate, watchConsole, watchServerMarkup, waitForHydration } from "./support";

/** Unique per run, so names and documents never collide with another run's. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Sofía Admin POS ${RUN}`, email: `pos.super.${RUN}@example.com` };
const CASHIER = { name: `Lucía Caja POS ${RUN}`, email: `pos.cajera.${RUN}@example.com` };
const MANAGER = { name: `Raúl Jefe POS ${RUN}`, email: `pos.jefe.${RUN}@example.com` };
const CAFE = "Comedor Principal";
const OTHER_CAFE = "Comedor Taller";
const SERVICE = "Almuerzo";
/** Almuerzo's demo price at the demo cafes of Unidad Norte. */
const PRICE = "S/ 18.00";
const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** A DNI (8 digits) no demo diner has: 9 then seven random digits. */
function newDni(): string {
  return `9${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
}

const letters = (text: string) => text.replace(/\d/g, (d) => "abcdefghij"[Number(d)]);
/** The run's mark in letters, for names typed into the dialogs (a name there refuses digits). */
const RUN_LETTERS = letters(RUN);
let named = 0;
/**
 * A name and a DNI nobody else has: the name ends with a word of its own and the run's mark, in letters (so it can
 * be typed into a dialog). A test makes its diners each time it runs, so a repeated test meets no sale of the last.
 */
function someone(name: string): { name: string; dni: string } {
  named += 1;
  return { name: `${name} ${letters(String(named))} ${RUN_LETTERS}`, dni: newDni() };
}

// Diners no sale is ever made to, made by the beforeAll.
const RETIRED = someone("Apaza Limachi Jorge");
const BARRED = { ...someone("Vargas Ccori Elmer"), reason: `Deuda pendiente ${RUN}` };

/** What the beforeAll reads from the worker's database: the cafes, a subdealership, Almuerzo, and today. */
const world = { cafeId: 0, otherCafeId: 0, subdealershipId: 0, almuerzoId: 0, today: "" };

// ---------------------------------------------------------------------------------------------------------------
// Helpers

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** The props the server rendered the current page with. */
async function pageProps<T>(page: Page): Promise<T> {
  const text = await page.locator('script[data-page="app"]').textContent();
  return JSON.parse(text!).props as T;
}

/** The props the server renders `path` with, read over HTTP in the context's session (no page is opened). */
async function propsOf<T>(context: BrowserContext, path: string): Promise<T> {
  const response = await context.request.get(path);
  expect(response.status(), path).toBe(200);
  const embedded = (await response.text()).match(
    /<script data-page="app" type="application\/json">([\s\S]*?)<\/script>/,
  );
  return JSON.parse(embedded![1]).props as T;
}

/**
 * A JSON write with the session's CSRF token, as the page itself sends one. A session made by `mesa.signIn` gets its
 * token (the XSRF-TOKEN cookie) with its first answer, so a context that has not loaded anything yet asks the
 * diner search (the till's cheapest read) first.
 */
async function postJson(context: BrowserContext, path: string, data: unknown) {
  const token = async () => (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value;
  if ((await token()) === undefined) await context.request.get("/diners/search?q=");
  return context.request.post(path, {
    data,
    headers: { Accept: "application/json", "X-XSRF-TOKEN": decodeURIComponent((await token()) ?? "") },
  });
}

/** Registers a diner through diners.store (as the super-administrator, who may place them at any cafe). */
async function register(admin: BrowserContext, who: { name: string; dni: string }, cafeId: number, active = true) {
  const response = await postJson(admin, "/diners", {
    name: who.name,
    document_type: "dni",
    document_number: who.dni,
    subdealership_id: world.subdealershipId,
    cafe_id: cafeId,
    active,
  });
  expect(response.status(), await response.text()).toBe(201);
}

interface Sold {
  id: number;
  ticket: string;
}

/**
 * Collects a cash-type sale in the payment dialog by keyboard: what was handed over typed (or the exact amount, with
 * nothing typed) and the change read before Enter.
 */
async function collect(page: Page, total: string | null, tender?: { typed?: string; key?: string; change: string }) {
  const dialog = page.getByRole("dialog", { name: "Cobrar" });
  if (total !== null) await expect(dialog.getByTestId("payment-total")).toHaveText(total);
  await expect(dialog.getByLabel("Entregado (S/)")).toBeFocused();
  if (tender?.typed) await page.keyboard.type(tender.typed);
  if (tender?.key) await page.keyboard.press(tender.key);
  await expect(dialog.getByTestId("payment-change")).toHaveText(`Vuelto: ${tender?.change ?? "S/ 0.00"}`);
  await page.keyboard.press("Enter");
}

/** A sale made through sales.store (JSON) for a test that needs one to exist: one Almuerzo today at Comedor Principal. */
async function sellOverHttp(
  context: BrowserContext,
  to: { dni: string },
  { saleType = "credit", otherUnit = false }: { saleType?: "credit" | "cash"; otherUnit?: boolean } = {},
): Promise<Sold> {
  const response = await postJson(context, "/sales", {
    key: randomUUID(),
    cafe_id: world.cafeId,
    receipt_type: "ticket",
    document_type: "dni",
    document_number: to.dni,
    service_date: world.today,
    sale_type: saleType,
    other_unit_confirmed: otherUnit,
    lines: [{ service_id: world.almuerzoId, quantity: 1 }],
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Sold;
}

/** Records `times` prints of a sale, as the ticket page and the till's automatic print do (POST sales.print). */
async function printOverHttp(context: BrowserContext, sale: Sold, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const response = await postJson(context, `/sales/${sale.id}/print`, {});
    expect(response.status(), await response.text()).toBe(200);
  }
}

async function voidOverHttp(context: BrowserContext, sale: Sold, reason: string): Promise<void> {
  const response = await postJson(context, `/sales/${sale.id}/void`, { reason });
  expect(response.status(), await response.text()).toBe(200);
}

const flash = (page: Page) => page.locator('[data-flash="success"]');
const input = (page: Page) => page.getByRole("combobox", { name: "DNI o nombre del comensal" });
const salesTable = (page: Page) => page.getByRole("table", { name: /^(Ventas del día|Sales of the day)$/ });
const saleRow = (page: Page, name: string) => salesTable(page).locator("tbody tr").filter({ hasText: name });
const printed = (page: Page) => page.evaluate(() => (window as unknown as { printed: number }).printed);

/**
 * Sets the service quantities with the keyboard: every priced service to 0, then `service` (if any) to `quantity`.
 * Only the quantities that are not 0 already are typed into (one look finds them), and never the one to set: two
 * digits typed into one quantity less than 50 ms apart are a scan to the page (SCAN_GAP_MS), which would undo the
 * quantity and take the digits to the scan box.
 */
async function onlyService(page: Page, service: string | null, quantity = 1): Promise<void> {
  const boxes = page.getByRole("spinbutton", { name: /^Cantidad de / });
  const name = service === null ? null : `Cantidad de ${service}`;
  const holding = await boxes.evaluateAll(
    (all, keep) =>
      all.map((box) => {
        const quantity = box as HTMLInputElement;
        return !quantity.disabled && quantity.value !== "0" && quantity.getAttribute("aria-label") !== keep;
      }),
    name,
  );
  for (const [i, holds] of holding.entries()) {
    if (!holds) continue;
    await boxes.nth(i).focus();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("0");
  }
  if (name === null) return;
  const box = page.getByRole("spinbutton", { name });
  await box.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(String(quantity));
  await expect(box).toHaveValue(String(quantity));
}

/** What a scanner does: the document's digits, typed fast into the focused input, and Enter. */
async function scan(page: Page, document: string): Promise<void> {
  await page.keyboard.press("F2");
  await expect(input(page)).toBeFocused();
  await page.keyboard.type(document, { delay: 8 });
  await page.keyboard.press("Enter");
}

/**
 * A scanner's digits where the focus is, 8 ms apart by the keys' own clock. The page tells a scan from a person by
 * the time between two keys (SCAN_GAP_MS, 50 ms, in resources/js/components/dinners/service-picker.tsx), and a real
 * scanner's keys carry the time they were made. `page.keyboard.type` sends each key in a round trip of its own and
 * the page stamps it on arrival, which on a busy machine can be more than 50 ms after the one before, so the digits
 * read as a person's. Here each key goes through Chromium's DevTools protocol with its time given
 * (Input.dispatchKeyEvent's `timestamp`, which becomes the event's timeStamp), as a scanner's would be.
 */
async function scannerKeys(page: Page, digits: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  for (const [i, digit] of [...digits].entries()) {
    const key = { key: digit, code: `Digit${digit}`, windowsVirtualKeyCode: 48 + Number(digit) };
    const timestamp = start + i * 0.008;
    await cdp.send("Input.dispatchKeyEvent", {
      type: "keyDown",
      text: digit,
      unmodifiedText: digit,
      timestamp,
      ...key,
    });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", timestamp, ...key });
  }
  await cdp.detach();
}

/** The sale went through: the notice names the diner, the input is empty and has the focus again. */
async function sold(page: Page, name: string): Promise<void> {
  await expect(flash(page)).toContainText(name);
  await expect(flash(page)).toContainText(/Venta registrada: ticket T\d{3}-\d{8}/);
  await expect(input(page)).toHaveValue("");
  await expect(input(page)).toBeFocused();
}

// ---------------------------------------------------------------------------------------------------------------

test.describe.configure({ mode: "parallel" });

test.describe("point of sale", () => {
  test.setTimeout(60_000);
  /**
   * Each person's browser context (their session), made once per worker: a test opens a page of its own in it and
   * closes that page. The context keeps its cache, so only a person's first page loads the app's scripts afresh.
   */
  const contexts = new Map<string, Promise<BrowserContext>>();
  const contextOf = (browser: Browser, mesa: Mesa, who: Who): Promise<BrowserContext> => {
    let made = contexts.get(who.email);
    if (!made) {
      made = (async () => {
        const context = await browser.newContext();
        await mesa.signIn(context, who);
        // Printing is the browser's dialog: the tests count the calls instead.
        await context.addInitScript(() => {
          (window as unknown as { printed: number }).printed = 0;
          window.print = () => {
            (window as unknown as { printed: number }).printed++;
          };
        });
        return context;
      })();
      contexts.set(who.email, made);
    }
    return made;
  };
  const as = async (browser: Browser, mesa: Mesa, who: Who) => {
    const context = await contextOf(browser, mesa, who);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  /** A diner of Comedor Principal (or, `away`, of Comedor Taller) made for this run of the test (see `someone`). */
  const newDiner = async (browser: Browser, mesa: Mesa, name: string, { away = false } = {}) => {
    const made = someone(name);
    await register(await contextOf(browser, mesa, ADMIN), made, away ? world.otherCafeId : world.cafeId);
    return made;
  };

  test.afterAll(async () => {
    for (const context of contexts.values()) await (await context).close();
    contexts.clear();
  });

  test.beforeAll(async ({ browser, mesa }) => {
    // Once per worker (its database): should the worker come back to this file, what it made is there already.
    if (world.cafeId !== 0) return;
    await Promise.all([
      mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" }),
      mesa.user({ ...CASHIER, role: "cashier", area: "Caja", place: CAFE }),
      mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE }),
    ]);

    const context = await contextOf(browser, mesa, ADMIN);
    const props = await propsOf<{
      cafes: { id: number; name: string }[];
      subdealerships: { id: number; name: string }[];
    }>(context, "/dinners");
    const cafeId = (name: string) => props.cafes.find((c) => c.name === name)!.id;
    world.otherCafeId = cafeId(OTHER_CAFE);
    world.subdealershipId = props.subdealerships[0].id;
    const { pos } = await propsOf<{ pos: { cafe: { today: string }; services: { id: number; code: string }[] } }>(
      context,
      `/dinners?cafe=${cafeId(CAFE)}`,
    );
    world.almuerzoId = pos.services.find((s) => s.code === "ALM")!.id;
    world.today = pos.cafe.today;
    world.cafeId = cafeId(CAFE);
    // An inactive diner and a blacklisted one, whom the till refuses.
    await register(context, RETIRED, world.cafeId, false);
    await register(context, BARRED, world.cafeId);
    const barred = await postJson(context, "/blacklist", {
      document_type: "dni",
      document_number: BARRED.dni,
      name: BARRED.name,
      reason: BARRED.reason,
    });
    expect(barred.status(), await barred.text()).toBeLessThan(300);
  });

  test("a credit sale with the keyboard alone and a scanner; the other till sees it live; a second credit meal is refused", async ({
    browser,
    mesa,
  }) => {
    const home = await newDiner(browser, mesa, "Huanca Rojas Carmen");
    const manager = await as(browser, mesa, MANAGER);
    await open(manager.page, "/dinners");
    await expect(manager.page.getByRole("heading", { level: 1, name: "Punto de venta" })).toBeVisible();
    const { page, problems } = await as(browser, mesa, CASHIER);
    await open(page, "/dinners");
    await expect(page.getByRole("heading", { level: 1, name: "Punto de venta" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Comedor" })).toContainText(CAFE);
    // The input has the focus as the page opens: the scanner can start at once.
    await expect(input(page)).toBeFocused();
    await expect(page.getByRole("radio", { name: "Crédito" })).toBeChecked();

    await onlyService(page, SERVICE);
    await expect(page.getByTestId("pos-subtotal")).toHaveText(`Total de la venta: ${PRICE}`);
    await scan(page, home.dni);
    await sold(page, home.name);

    const row = saleRow(page, home.name);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("ALM ×1");
    await expect(row).toContainText(PRICE);
    await expect(page.getByTestId("pos-last")).toContainText(home.name);
    // The manager's till, open on the same cafe, lists it without a reload.
    await expect(saleRow(manager.page, home.name)).toHaveCount(1, { timeout: 10_000 });
    await expect(manager.page.getByTestId("pos-last")).toContainText(home.name);

    // The same credit meal again: the server refuses it and says why; nothing is added.
    await scan(page, home.dni);
    const alert = page.getByTestId("pos-alert");
    await expect(alert).toContainText("Venta no registrada");
    await expect(alert).toContainText(`${home.name} ya recibió ${SERVICE} (ALM) a crédito en esta fecha`);
    await expect(saleRow(page, home.name)).toHaveCount(1);
    await expect(input(page)).toBeFocused();

    expect(problems).toEqual([]);
    expect(manager.problems).toEqual([]);
    await manager.page.close();
    await page.close();
  });

  test("a typed name offers a typeahead: arrow keys and Enter sell to the chosen diner (cash, two meals)", async ({
    browser,
    mesa,
  }) => {
    const typed = await newDiner(browser, mesa, "Quispe Mamani Ana");
    // A visitor buys with a name and a document: no diner of theirs is made.
    const guest = someone("Turista Gómez Pía");
    const { page, problems } = await as(browser, mesa, CASHIER);
    await open(page, "/dinners");
    // Contado by keyboard: the sale type is a radio group.
    await page.getByRole("radio", { name: "Crédito" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("radio", { name: "Contado" })).toBeChecked();
    await onlyService(page, SERVICE, 2);

    await page.keyboard.press("F2");
    await page.keyboard.type(typed.name.slice(0, -6));
    const list = page.getByRole("listbox", { name: "Comensales encontrados" });
    await expect(list.getByRole("option", { name: new RegExp(typed.name) })).toBeVisible();
    await expect(list.getByRole("option")).toHaveCount(1);
    await page.keyboard.press("ArrowDown");
    await expect(list.getByRole("option", { name: new RegExp(typed.name) })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    // Collected: S/ 50 handed over for S/ 36.00, the change said before Enter.
    await collect(page, "S/ 36.00", { typed: "50", change: "S/ 14.00" });
    await sold(page, typed.name);
    const cash = saleRow(page, typed.name).filter({ hasText: "Contado" });
    await expect(cash).toHaveCount(1);
    await expect(cash).toContainText("ALM ×2");
    await expect(cash).toContainText("S/ 36.00");
    // The next worker is not charged cash: the sale type is back on credit, and the page says so.
    await expect(page.getByRole("radio", { name: "Crédito" })).toBeChecked();
    await expect(page.getByRole("status").filter({ hasText: "De vuelta a Crédito" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Venta", exact: true })).toHaveAttribute("data-sale-type", "credit");

    // A name nobody has: said so, nothing sent.
    await page.keyboard.press("F2");
    await page.keyboard.type(`Nadie Existe ${RUN}`);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("pos-alert")).toContainText(`Ningún comensal se llama «Nadie Existe ${RUN}»`);

    // An inactive diner: refused with the reason before anything is sent.
    await scan(page, RETIRED.dni);
    await expect(page.getByTestId("pos-alert")).toContainText(`${RETIRED.name} está inactivo: no se le puede vender.`);
    await expect(saleRow(page, RETIRED.name)).toHaveCount(0);
    // A blacklisted one: refused with the blacklist's reason.
    await scan(page, BARRED.dni);
    await expect(page.getByTestId("pos-alert")).toContainText(
      `${BARRED.name} está en la lista negra: ${BARRED.reason}`,
    );
    await expect(saleRow(page, BARRED.name)).toHaveCount(0);

    // A visitor pays cash with a name and a document; without a service chosen, the dialog says so.
    const visitor = page.getByRole("dialog", { name: "Venta al contado a un visitante" });
    const fillVisitor = async () => {
      await page.getByRole("button", { name: "Visitante" }).click();
      await expect(visitor.getByLabel("Nombre del visitante")).toBeFocused();
      await page.keyboard.type(guest.name);
      await visitor.getByLabel("Número de documento").fill(guest.dni);
      await page.keyboard.press("Enter");
    };
    await page.keyboard.press("F8");
    await expect(page.getByRole("radio", { name: "Contado" })).toBeChecked();
    await onlyService(page, null);
    await fillVisitor();
    await expect(visitor).toContainText("Elija al menos un servicio con su cantidad.");
    await page.keyboard.press("Escape");
    await expect(visitor).toBeHidden();
    await onlyService(page, SERVICE, 2);
    await fillVisitor();
    // The quick key for S/ 100.
    await collect(page, "S/ 36.00", { key: "F9", change: "S/ 64.00" });
    await sold(page, guest.name);
    await expect(visitor).toBeHidden();
    await expect(saleRow(page, guest.name)).toContainText("Contado");
    await expect(saleRow(page, guest.name)).toContainText("ALM ×2");
    await expect(page.getByRole("radio", { name: "Crédito" })).toBeChecked();
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the keys: F8 cash, unmistakable; credit comes back after the cash sale; F4 and the last-sale card print the ticket in place; F9 a visitor", async ({
    browser,
    mesa,
  }) => {
    const diner = await newDiner(browser, mesa, "Choque Layme Pedro");
    const { context, page, problems } = await as(browser, mesa, CASHIER);
    // An earlier ticket of the day for the same diner, to print from its row.
    const earlier = await sellOverHttp(context, diner);
    const opened: Page[] = [];
    const onPage = (p: Page) => opened.push(p);
    context.on("page", onPage);
    await open(page, "/dinners");
    const region = page.getByRole("region", { name: "Venta", exact: true });
    const status = page.getByTestId("pos-sale-type");
    // The keys are shown where they are used, and always the same.
    await expect(page.getByTestId("pos-keys")).toContainText("F4Imprimir el último ticket");
    await expect(page.getByTestId("pos-keys")).toContainText("F8Crédito o contado");
    await expect(page.getByTestId("pos-keys")).toContainText("F9Visitante (contado)");
    await expect(page.getByRole("button", { name: "Visitante" })).toHaveAttribute("aria-keyshortcuts", "F9");

    await onlyService(page, SERVICE);
    // Not while typing in another field: F8 in a quantity changes nothing.
    await page.keyboard.press("F8");
    await expect(region).toHaveAttribute("data-sale-type", "credit");
    await page.keyboard.press("F2");
    await expect(input(page)).toBeFocused();
    await page.keyboard.press("F8");
    await expect(page.getByRole("radio", { name: "Contado" })).toBeChecked();
    await expect(region).toHaveAttribute("data-sale-type", "cash");
    await expect(status).toHaveText("CONTADO: se cobra en caja. Después de esta venta se vuelve a Crédito.");
    await expect(input(page)).toBeFocused();
    // A scan that starts while a quantity has the focus goes to the scan box; the quantity stays as it was.
    await page.getByRole("spinbutton", { name: `Cantidad de ${SERVICE}` }).focus();
    await scannerKeys(page, diner.dni);
    await page.keyboard.press("Enter");
    // The exact amount: nothing typed, Enter.
    await collect(page, "S/ 18.00");
    await sold(page, diner.name);
    const cash = saleRow(page, diner.name).filter({ hasText: "Contado" });
    await expect(cash).toHaveCount(1);
    await expect(cash).toContainText("ALM ×1");
    await expect(page.getByRole("radio", { name: "Crédito" })).toBeChecked();
    await expect(region).toHaveAttribute("data-sale-type", "credit");
    await expect(status).toHaveText(/^De vuelta a Crédito/);

    // The last ticket prints in place: the key, then the card's button; no page is opened, the page stays.
    await expect.poll(() => printed(page)).toBe(1);
    await page.keyboard.press("F4");
    await expect.poll(() => printed(page)).toBe(2);
    await page
      .getByTestId("pos-last")
      .getByRole("button", { name: /^Imprimir ticket T\d{3}-\d{8}$/ })
      .click();
    await expect.poll(() => printed(page)).toBe(3);
    expect(opened).toEqual([]);
    await expect(page).toHaveURL(/\/dinners/);
    const ticket = (await page.getByTestId("pos-last").textContent())!.match(/T\d{3}-\d{8}/)![0];
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("article", { name: `Ticket ${ticket}` })).toBeVisible();
    await expect(salesTable(page)).toBeHidden();
    await page.emulateMedia({ media: "screen" });
    // An earlier ticket of the day, from its row, the same way.
    await saleRow(page, diner.name)
      .getByRole("button", { name: `Imprimir ticket ${earlier.ticket}` })
      .click();
    await expect.poll(() => printed(page)).toBe(4);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("article", { name: `Ticket ${earlier.ticket}` })).toBeVisible();
    await page.emulateMedia({ media: "screen" });
    expect(opened).toEqual([]);

    // F9: the visitor dialog, on cash; closed without a sale, the till is back on credit.
    await page.keyboard.press("F2");
    await page.keyboard.press("F9");
    const visitor = page.getByRole("dialog", { name: "Venta al contado a un visitante" });
    await expect(visitor).toBeVisible();
    await expect(page.getByRole("radio", { name: "Contado", includeHidden: true })).toBeChecked();
    // Typing the visitor's name is not the page's keys.
    await page.keyboard.press("F8");
    await expect(page.getByRole("radio", { name: "Contado", includeHidden: true })).toBeChecked();
    await page.keyboard.press("Escape");
    await expect(visitor).toBeHidden();
    await expect(page.getByRole("radio", { name: "Crédito" })).toBeChecked();
    // The sale type's own radios are not typed into: F8 works there.
    await page.getByRole("radio", { name: "Crédito" }).focus();
    await page.keyboard.press("F8");
    await expect(page.getByRole("radio", { name: "Contado" })).toBeChecked();
    await page.keyboard.press("F8");
    await expect(page.getByRole("radio", { name: "Crédito" })).toBeChecked();
    expect(problems).toEqual([]);
    context.off("page", onPage);
    await page.close();
  });

  test("after a sale, no notice covers a control, on a desktop and on a phone", async ({ browser, mesa }) => {
    const diner = await newDiner(browser, mesa, "Ramos Ticona Julia");
    const { page, problems } = await as(browser, mesa, CASHIER);
    for (const [width, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
      await page.setViewportSize(viewport);
      await open(page, "/dinners");
      await page.keyboard.press("F8");
      await onlyService(page, "Descartables");
      await scan(page, diner.dni);
      await collect(page, null);
      await sold(page, diner.name);
      const covered = await page.evaluate(() => {
        const notices = [...document.querySelectorAll("[data-sonner-toast], [data-sonner-toaster] li")]
          .map((n) => n.getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 0);
        const controls = [
          ...document.querySelectorAll("button, a[href], input, select, textarea, [role=combobox], label:has(input)"),
        ]
          .filter((e) => !e.closest("[data-sonner-toaster]"))
          .map((e) => ({ e, r: e.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 2 && r.height > 2);
        return notices.flatMap((n) =>
          controls
            .filter(({ r }) => r.left < n.right && r.right > n.left && r.top < n.bottom && r.bottom > n.top)
            .map(({ e }) => e.outerHTML.slice(0, 100)),
        );
      });
      expect(covered, width).toEqual([]);
      // The notice is in the page, in the sale's own section under the scan box, and on screen.
      const notice = page.getByRole("region", { name: "Venta", exact: true }).locator('[data-flash="success"]');
      await expect(notice).toBeInViewport();
      expect((await notice.boundingBox())!.y, width).toBeGreaterThan((await input(page).boundingBox())!.y);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a diner of another cafe: the Other-unit dialog states the factor and the price; neither a reflex Enter nor the next scan sells at double price", async ({
    browser,
    mesa,
  }) => {
    const visiting = await newDiner(browser, mesa, "Condori Huamán Luis", { away: true });
    const { page, problems } = await as(browser, mesa, CASHIER);
    await open(page, "/dinners");
    await onlyService(page, SERVICE);
    await scan(page, visiting.dni);
    const dialog = page.getByRole("dialog", { name: "Comensal de otra unidad" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${visiting.name} es del ${OTHER_CAFE}, no del ${CAFE}.`);
    await expect(dialog).toContainText("precio ×2");
    await expect(dialog).toContainText("Total: S/ 36.00");
    // The safe choice has the focus: Enter leaves without selling.
    await expect(dialog.getByRole("button", { name: "Cancelar" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(input(page)).toBeFocused();
    // The next scan arrives while the dialog is open: it is a scan (here an inactive diner's), not a confirmation.
    await scan(page, visiting.dni);
    await expect(dialog).toBeVisible();
    await page.keyboard.type(RETIRED.dni, { delay: 8 });
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("pos-alert")).toContainText(`${RETIRED.name} está inactivo`);
    await expect(saleRow(page, visiting.name)).toHaveCount(0);
    // Selling at double price takes the button itself.
    await scan(page, visiting.dni);
    await dialog.getByRole("button", { name: "Vender como otra unidad (×2)" }).click();
    await sold(page, visiting.name);
    await expect(dialog).toBeHidden();
    const row = saleRow(page, visiting.name);
    await expect(row).toContainText("×2");
    await expect(row).toContainText("S/ 36.00");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("an unknown document or a misread: said beside the scan box, which keeps the focus; F3 registers, and the name refuses a scan's digits", async ({
    browser,
    mesa,
  }) => {
    // Registered through the New-diner dialog.
    const newcomer = someone("Flores Ticona Rosa");
    const { page, problems } = await as(browser, mesa, CASHIER);
    await open(page, "/dinners");
    const props = await pageProps<{ subdealerships: { name: string; dealership: string }[] }>(page);
    const dinerWrites: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/diners") dinerWrites.push(r.url());
    });
    await onlyService(page, SERVICE);
    // A misread: four digits are not a name; the notice says what a DNI has.
    await scan(page, "1234");
    await expect(page.getByTestId("pos-alert")).toContainText("Documento mal leído");
    await expect(page.getByTestId("pos-alert")).toContainText(
      "«1234» no es un documento: tiene 4 dígitos y un DNI tiene 8",
    );
    await expect(page.getByTestId("pos-alert")).not.toContainText("Ningún comensal");
    await expect(input(page)).toBeFocused();

    await scan(page, newcomer.dni);
    await expect(page.getByTestId("pos-alert")).toContainText(
      `No hay comensal registrado con el documento ${newcomer.dni}.`,
    );
    await expect(page.getByTestId("pos-alert")).toContainText("Pulse F3 para registrarlo");
    const dialog = page.getByRole("dialog", { name: "Nuevo comensal" });
    await expect(dialog).toHaveCount(0);
    // The scan box keeps the focus, its text selected: the next scan replaces it rather than adding to it.
    await expect(input(page)).toBeFocused();
    await page.keyboard.type(newcomer.dni, { delay: 8 });
    await expect(input(page)).toHaveValue(newcomer.dni);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("pos-alert")).toContainText(newcomer.dni);
    await expect(dialog).toHaveCount(0);

    await page.keyboard.press("F3");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Número de documento")).toHaveValue(newcomer.dni);
    await expect(dialog.getByLabel("Nombre completo")).toBeFocused();
    // A scan typed into the name: refused at once, and its Enter sends nothing.
    await page.keyboard.type(newcomer.dni, { delay: 8 });
    await page.keyboard.press("Enter");
    await expect(dialog.getByLabel("Nombre completo")).toHaveAccessibleDescription(/Un nombre no lleva dígitos/);
    expect(dinerWrites).toEqual([]);
    await dialog.getByLabel("Nombre completo").fill("");
    await page.keyboard.type(newcomer.name);
    // Saving without a subdealership is refused with the field's message.
    await dialog.getByRole("button", { name: "Registrar y vender" }).click();
    await expect(dialog).toContainText("Elija la subconcesionaria.");
    const sub = props.subdealerships[0];
    await chooseOption(dialog, "Subconcesionaria", `${sub.name} (${sub.dealership})`);
    await dialog.getByRole("button", { name: "Registrar y vender" }).click();
    await sold(page, newcomer.name);
    await expect(dialog).toBeHidden();
    await expect(saleRow(page, newcomer.name)).toHaveCount(1);
    await expect(page.getByTestId("pos-alert")).toHaveCount(0);
    expect(dinerWrites).toHaveLength(2);
    // The browser logs the refused first save (422), which the test provoked; nothing else.
    expect(problems.filter((p) => !/status of 422 .*\/diners:/.test(p))).toEqual([]);
    expect(problems).toHaveLength(1);
    await page.close();
  });

  test("a sale is voided with a reason: it stays, struck through, and leaves the totals", async ({ browser, mesa }) => {
    const diner = await newDiner(browser, mesa, "Mendoza Pari Elena");
    const { context, page, problems } = await as(browser, mesa, CASHIER);
    const { ticket } = await sellOverHttp(context, diner);
    await open(page, "/dinners");
    const row = saleRow(page, diner.name);
    await expect(row.locator("td").first()).toContainText(ticket);
    const totals = page.getByTestId("pos-totals");
    const before = (await totals.textContent())!;
    const sales = Number(before.match(/(\d+) ventas?/)![1]);
    // Voided today already (by another test on this worker's database), if any: the totals say so only from 1.
    const voided = Number(before.match(/(\d+) anuladas?/)?.[1] ?? 0);
    await row.getByRole("button", { name: `Anular ticket ${ticket}` }).click();
    const dialog = page.getByRole("dialog", { name: `¿Anular el ticket ${ticket}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Anular ticket" }).click();
    await expect(dialog).toContainText(/al menos|caracteres|obligatorio/i);
    await dialog.getByLabel("Motivo").fill("Se registró por error");
    await dialog.getByRole("button", { name: "Anular ticket" }).click();
    await expect(flash(page)).toHaveText(`Ticket ${ticket} anulado.`);
    await expect(dialog).toBeHidden();
    await expect(row).toContainText("Anulado");
    await expect(row).toHaveAttribute("data-voided", "true");
    await expect(row.locator(".line-through").first()).toBeVisible();
    await expect(row.getByRole("button", { name: /Anular ticket/ })).toHaveCount(0);
    await expect(totals).toContainText(`${sales - 1} venta`);
    await expect(totals).toContainText(voided === 0 ? "1 anulada" : `${voided + 1} anuladas`);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the ticket: issuer, number, lines, IGV, the other-unit mark; printing records each print; a voided one says ANULADO", async ({
    browser,
    mesa,
  }) => {
    const visiting = await newDiner(browser, mesa, "Huamán Sonco Mario", { away: true });
    const wrong = await newDiner(browser, mesa, "Cruz Apaza Nilda");
    const { context, page, problems } = await as(browser, mesa, CASHIER);
    // An other-unit sale printed once (as the till's automatic print does), and a voided sale printed once.
    await printOverHttp(context, await sellOverHttp(context, visiting, { otherUnit: true }), 1);
    const mistaken = await sellOverHttp(context, wrong);
    await printOverHttp(context, mistaken, 1);
    await voidOverHttp(context, mistaken, "Se registró por error");
    await open(page, "/dinners");
    const link = saleRow(page, visiting.name).getByRole("link", { name: /^Ver ticket T\d{3}-\d{8}$/ });
    await expect(link).toHaveAttribute("target", "_blank");
    const href = (await link.getAttribute("href"))!;
    const ticket = (await link.getAttribute("aria-label"))!.replace("Ver ticket ", "");
    const voided = (await saleRow(page, wrong.name)
      .getByRole("link", { name: /^Ver ticket / })
      .getAttribute("href"))!;
    await open(page, href);
    const view = page.getByRole("article", { name: `Ticket ${ticket}` });
    await expect(view).toContainText("Mesa Catering S.A.C.");
    await expect(view).toContainText("RUC 20100079705");
    await expect(view).toContainText(`TICKET ${ticket}`);
    await expect(view).toContainText(visiting.name);
    await expect(view).toContainText(`DNI${visiting.dni}`);
    await expect(view).toContainText(CAFE);
    await expect(view.getByRole("row", { name: new RegExp(`1 ${SERVICE}`) })).toContainText("S/ 36.00");
    // 36.00 with IGV at 18 %: base 30.51, IGV 5.49.
    await expect(view).toContainText("Op. gravadaS/ 30.51");
    await expect(view).toContainText("IGV 18 %S/ 5.49");
    await expect(page.getByTestId("ticket-total")).toHaveText("S/ 36.00");
    await expect(page.getByTestId("ticket-other-unit")).toHaveText("OTRA UNIDAD ×2");
    await expect(page.getByTestId("ticket-voided")).toHaveCount(0);
    // The service date, and the lines' header reads "Cant. Servicio" (the two apart, not run together).
    const [year, month, day] = (await pageProps<{ sale: { serviceDate: string } }>(page)).sale.serviceDate.split("-");
    await expect(page.getByTestId("ticket-service-date")).toHaveText(`${day}/${month}/${year}`);
    await expect(view).toContainText("F. servicio");
    const qty = (await view.getByRole("columnheader", { name: "Cant." }).boundingBox())!;
    const service = (await view.getByRole("columnheader", { name: "Servicio" }).boundingBox())!;
    const qtyText = await view.getByRole("columnheader", { name: "Cant." }).evaluate((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      return range.getBoundingClientRect().right;
    });
    expect(qtyText).toBeLessThanOrEqual(qty.x + qty.width);
    expect(service.x - qtyText).toBeGreaterThanOrEqual(4);

    // Printed once already; each Reimprimir is recorded (the count shown is the server's answer to each print; that
    // the count is kept is tests/http/pos.test.ts, "the ticket view shows the sale … prints are counted").
    await expect(page.getByTestId("ticket-prints")).toHaveText("Impreso 1 vez");
    await page.getByRole("button", { name: "Reimprimir" }).click();
    await expect(page.getByTestId("ticket-prints")).toHaveText("Impreso 2 veces");
    expect(await printed(page)).toBe(1);
    await page.getByRole("button", { name: "Reimprimir" }).click();
    await expect(page.getByTestId("ticket-prints")).toHaveText("Impreso 3 veces");
    // Printed, the page is the ticket alone, 80 mm wide, as long as the ticket (no paper for the rest).
    await page.emulateMedia({ media: "print" });
    await expect(view).toBeVisible();
    await expect(page.locator("#sidebar")).toBeHidden();
    await expect(page.getByRole("button", { name: "Reimprimir" })).toBeHidden();
    const box = (await view.boundingBox())!;
    expect(Math.round(box.x)).toBe(0);
    expect(Math.abs(box.width - (80 / 25.4) * 96)).toBeLessThan(2);
    expect(await page.evaluate(() => document.body.getBoundingClientRect().height)).toBeLessThanOrEqual(
      Math.ceil(box.height) + 2,
    );
    await page.emulateMedia({ media: "screen" });

    // The voided sale's ticket, opened to print at once (?print=1), as a cafe that prints every sale does.
    await open(page, `${voided}?print=1`);
    await expect(page.getByTestId("ticket-voided")).toHaveText("ANULADO");
    await expect(page.getByRole("article")).toContainText("Se registró por error");
    await expect(page.getByTestId("ticket-prints")).toHaveText("Impreso 2 veces");
    expect(await printed(page)).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the prices dialog sets a price and a service window; a new cafe prints every sale at once", async ({
    browser,
    mesa,
  }) => {
    const diner = await newDiner(browser, mesa, "Luque Pari Rosa");
    const { context, page, problems } = await as(browser, mesa, MANAGER);
    await open(page, "/dinners");
    // Refrigerio's price (the demo's 6.50 on a new database) and window; a repeated run sets others than the last.
    const { pos } = await pageProps<{
      pos: { services: { code: string; priceCents: number | null; windowStart: string | null }[] };
    }>(page);
    const refrigerio = pos.services.find((s) => s.code === "REF")!;
    const before = (refrigerio.priceCents! / 100).toFixed(2);
    const price = before === "7.00" ? "7.50" : "7.00";
    const start = refrigerio.windowStart === "15:00" ? "15:30" : "15:00";
    const total = `S/ ${(3 * Number(price)).toFixed(2)}`;
    await page.getByRole("button", { name: "Precios y horarios" }).click();
    const dialog = page.getByRole("dialog", { name: `Precios y horarios de ${CAFE}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Precio de Refrigerio")).toHaveValue(before);
    await expect(dialog.getByLabel("Serie de tickets")).toHaveValue(/^T\d{3}$/);
    // Another demo cafe's series is refused beside the field; nothing is saved.
    const own = await dialog.getByLabel("Serie de tickets").inputValue();
    const another = own === "T001" ? "T002" : "T001";
    await dialog.getByLabel("Serie de tickets").fill(another);
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog).toContainText(`La serie ${another} ya pertenece a otro comedor de`);
    await expect(dialog.getByLabel("Serie de tickets")).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel("Serie de tickets").fill(own);
    await expect(dialog.getByLabel("Serie de boletas")).toHaveValue("");
    // A bad price and a half-written window are refused, each beside its service.
    await dialog.getByLabel("Precio de Refrigerio").fill("seis");
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog).toContainText("Refrigerio");
    await expect(dialog.getByLabel("Precio de Refrigerio")).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel("Precio de Refrigerio").fill(price);
    await dialog.getByLabel("Inicio del horario de Refrigerio").fill(start);
    await dialog.getByLabel("Fin del horario de Refrigerio").fill("16:30");
    // A new cafe prints every sale at once (the demo cafes are new); a cash-only cafe is a choice, off by default.
    await expect(dialog.getByLabel("Imprimir cada venta automáticamente")).toBeChecked();
    await expect(dialog.getByLabel(/^Las ventas siguen al contado/)).not.toBeChecked();
    await dialog.getByRole("button", { name: "Guardar" }).click();
    await expect(dialog).toBeHidden();
    await expect(flash(page)).toHaveText("Ajustes del punto de venta guardados.");
    await expect(page.getByTestId("service-REF")).toContainText(`S/ ${price} · ${start}–16:30`);
    // The dialog opens again with what the server now has (the page's props came back with the save; that they are
    // kept is tests/http/pos.test.ts, "prices.manage sets windows … and automatic printing").
    await page.getByRole("button", { name: "Precios y horarios" }).click();
    await expect(dialog.getByLabel("Precio de Refrigerio")).toHaveValue(price);
    await expect(dialog.getByLabel("Inicio del horario de Refrigerio")).toHaveValue(start);
    await expect(dialog.getByLabel("Imprimir cada venta automáticamente")).toBeChecked();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // With automatic printing, a sale prints its ticket in place at once (the page stays, the input ready for the
    // next diner), and the print is recorded.
    await page.getByRole("radio", { name: "Crédito" }).focus();
    await page.keyboard.press("ArrowRight");
    await onlyService(page, "Refrigerio", 3);
    await expect(page.getByTestId("pos-subtotal")).toHaveText(`Total de la venta: ${total}`);
    await scan(page, diner.dni);
    await collect(page, total);
    await sold(page, diner.name);
    const row = saleRow(page, diner.name).filter({ hasText: "REF ×3" });
    await expect(row).toContainText(total);
    await expect.poll(() => printed(page)).toBe(1);
    const ticket = (await row.locator("td").first().textContent())!.match(/T\d{3}-\d{8}/)![0];
    // What prints is that ticket alone.
    await page.emulateMedia({ media: "print" });
    const slip = page.getByRole("article", { name: `Ticket ${ticket}` });
    await expect(slip).toBeVisible();
    await expect(slip).toContainText(total);
    await expect(salesTable(page)).toBeHidden();
    await page.emulateMedia({ media: "screen" });
    await expect(slip).toBeHidden();
    // The ticket view's count has it (read from what the server renders the ticket with).
    const href = (await row.getByRole("link", { name: /^Ver ticket / }).getAttribute("href"))!;
    expect((await propsOf<{ prints: number }>(context, href)).prints).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("an earlier service date only with sales.backdate: the manager sells for yesterday, the cashier sees today only", async ({
    browser,
    mesa,
  }) => {
    const diner = await newDiner(browser, mesa, "Yupanqui Soto Hugo");
    const yesterday = new Date(Date.parse(`${world.today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    // Asked for in the address, an earlier date is not given to the cashier, who has no date to choose.
    const cashier = await as(browser, mesa, CASHIER);
    await open(cashier.page, `/dinners?date=${yesterday}`);
    await expect(cashier.page.getByLabel("Fecha de servicio")).toHaveCount(0);
    await expect(cashier.page.getByTestId("pos-date")).not.toBeEmpty();
    await expect(cashier.page.getByText("Está vendiendo para una fecha anterior")).toHaveCount(0);
    expect(cashier.problems).toEqual([]);
    await cashier.page.close();

    const { context, page, problems } = await as(browser, mesa, MANAGER);
    // The diner's credit lunch of today, which yesterday's list does not have.
    await sellOverHttp(context, diner);
    await open(page, "/dinners");
    await pickDate(page, "Fecha de servicio", yesterday);
    await expect(page).toHaveURL(new RegExp(`date=${yesterday}`));
    const shown = new Intl.DateTimeFormat("es-PE", { dateStyle: "medium", timeZone: "America/Lima" }).format(
      new Date(`${yesterday}T12:00:00Z`),
    );
    await expect(page.getByText(`Está vendiendo para una fecha anterior: ${shown}.`)).toBeVisible();
    await expect(saleRow(page, diner.name)).toHaveCount(0);
    await page.getByRole("radio", { name: "Crédito" }).focus();
    await onlyService(page, SERVICE);
    await scan(page, diner.dni);
    await sold(page, diner.name);
    await expect(saleRow(page, diner.name)).toHaveCount(1);
    // Today's list does not have it: it has the diner's credit lunch of today alone.
    await open(page, "/dinners");
    await expect(saleRow(page, diner.name)).toHaveCount(1);
    await expect(saleRow(page, diner.name).filter({ hasText: "Crédito" }).filter({ hasText: "ALM ×1" })).toHaveCount(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the page and a ticket hydrate as rendered, on a desktop and on a phone; on a phone each sale is a card and nothing scrolls sideways", async ({
    browser,
    mesa,
  }) => {
    const diner = await newDiner(browser, mesa, "Ccama Vilca Teresa", { away: true });
    const { context, page, problems } = await as(browser, mesa, MANAGER);
    await sellOverHttp(context, diner, { otherUnit: true });
    await watchServerMarkup(page);
    for (const [width, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
      await page.setViewportSize(viewport);
      await open(page, "/dinners");
      expect(await page.evaluate(() => (window as any).__removedFromApp), width).toEqual([]);
      await expect(saleRow(page, diner.name)).toBeVisible();
      if (width === "phone") {
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("#content *")]
            // Screen-reader-only parts (the table's header row on a phone) are clipped, not laid out.
            .filter((e) => !e.closest('.sr-only, [class*="max-sm:sr-only"]'))
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 80)}`),
        );
        // (Named in the message when it fails; some of them may only be clipped by their box.)
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          JSON.stringify(wide),
        ).toBeLessThanOrEqual(390);
      }
      const href = (await saleRow(page, diner.name).getByRole("link").getAttribute("href"))!;
      await open(page, href);
      expect(await page.evaluate(() => (window as any).__removedFromApp), width).toEqual([]);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  test("in English: the page, its plurals and the ticket", async ({ browser, mesa }) => {
    const diner = await newDiner(browser, mesa, "Mayta Flores Iris", { away: true });
    const { context, page, problems } = await as(browser, mesa, ADMIN);
    // An other-unit sale printed three times, a second sale (the totals' plurals) and a voided one.
    const ticketed = await sellOverHttp(context, diner, { otherUnit: true });
    await printOverHttp(context, ticketed, 3);
    await sellOverHttp(context, diner, { saleType: "cash", otherUnit: true });
    await voidOverHttp(
      context,
      await sellOverHttp(context, diner, { saleType: "cash", otherUnit: true }),
      "Vendida dos veces",
    );
    const token = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
    const changed = await context.request.put("/settings/language", {
      data: { locale: "en" },
      headers: { "X-XSRF-TOKEN": decodeURIComponent(token) },
      maxRedirects: 0,
    });
    expect(changed.status()).toBeLessThan(400);
    await open(page, `/dinners?cafe=${world.cafeId}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1, name: "Point of sale" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Diner's ID or name" })).toBeFocused();
    await expect(page.getByRole("radio", { name: "Credit" })).toBeChecked();
    await expect(page.getByTestId("pos-totals")).toContainText(/\d+ sales · \d+ meals · S\//);
    await expect(page.getByRole("radio", { name: "Paid at the till" })).not.toBeChecked();
    const { sales } = await pageProps<{ sales: { totals: { voided: number } } }>(page);
    await expect(page.getByTestId("pos-totals")).toContainText(`· ${sales.totals.voided} voided`);
    await open(page, (await page.getByRole("link", { name: `Open ticket ${ticketed.ticket}` }).getAttribute("href"))!);
    await expect(page.getByTestId("ticket-prints")).toHaveText("Printed 3 times");
    await expect(page.getByRole("article")).toContainText("Sale");
    await expect(page.getByRole("article")).toContainText("Credit");
    await expect(page.getByTestId("ticket-other-unit")).toHaveText("OTHER UNIT ×2");
    await expect(page.getByRole("button", { name: "Reprint" })).toBeVisible();
    expect(problems).toEqual([]);
    await page.close();
  });
});
