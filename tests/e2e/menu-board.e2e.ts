/**
 * The menu board in a real browser: an administrator makes a display link on the Display page (the
 * link is shown once); a screen with no session opens it and sees the cafe's board; the administrator publishes
 * today's draft from another browser context and the screen shows the new dish live, without reloading; the
 * administrator revokes the link and the screen says at once that the link is no longer valid. The draft comes
 * from tests/support/menu-board-fixtures.ts and the administrator from the worker's fixtures (tests/e2e/fixtures.ts).
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PAGE_SECONDS } from "../../resources/js/components/menu/board-paging";
import { acceptConfirmation, watchConsole, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Sofía Pantalla ${RUN}`, email: `board.super.${RUN}@example.com` };
const CAFE = "Comedor Principal";
const DISH = `Lasaña del día ${RUN}`;

// The tests stand alone, each on a cafe of its own: the two workers share them, each on its worker's own database.
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ mesa }) => {
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
});

test("a board opened through its link follows a publishing live, and stops when the link is revoked", async ({
  browser,
  mesa,
}) => {
  // Two browser contexts, two fixtures and a live round trip: more than the default 20 s on a busy machine.
  test.setTimeout(60_000);
  const { cafeId } = await mesa.run<{ cafeId: number }>("menu-board", { cafe: CAFE, dish: DISH });

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const adminProblems = watchConsole(admin);
  await mesa.signIn(admin, ADMIN);
  await admin.goto(`/menu/display?cafe=${cafeId}`);
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "Pantalla", level: 1 })).toBeVisible();

  // A new link: shown once, in the dialog.
  await admin.getByRole("button", { name: "Nuevo enlace" }).click();
  const dialog = admin.getByRole("dialog");
  await dialog.getByLabel("Ubicación").fill(`Comedor ${RUN}`);
  await dialog.getByRole("button", { name: "Crear enlace" }).click();
  const url = await dialog.getByTestId("display-link-url").inputValue();
  expect(url).toMatch(new RegExp(`^${mesa.baseURL}/board/[A-Za-z0-9_-]{43}$`));
  await dialog.getByRole("button", { name: "Listo" }).click();
  await expect(admin.getByTestId("display-link").filter({ hasText: `Comedor ${RUN}` })).toBeVisible();

  // The screen: another context, no session.
  const screenContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const screen = await screenContext.newPage();
  const screenProblems = watchConsole(screen);
  await screen.goto(url);
  await waitForHydration(screen);
  const board = screen.getByTestId("menu-board");
  await expect(board.getByRole("heading", { name: "Hoy" })).toBeVisible();
  await expect(screen.getByRole("status")).toHaveText("En vivo");
  await expect(board).not.toContainText(DISH);
  // Nothing of the app around it: no sidebar, no navigation, no account.
  await expect(screen.getByRole("navigation")).toHaveCount(0);
  await expect(screen.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  // A marker that a reload would wipe: the update must come live.
  await screen.evaluate(() => ((window as unknown as { __stay: boolean }).__stay = true));

  // Publishing from the Display page.
  await admin.getByRole("button", { name: "Publicar", exact: true }).click();
  await expect(admin.getByText(/Publicados: 1/)).toBeVisible();
  await expect(board.getByText(DISH).first()).toBeVisible();
  await expect(board).toContainText("Gluten");
  expect(await screen.evaluate(() => (window as unknown as { __stay?: boolean }).__stay)).toBe(true);

  // Revoking: the screen says so at once.
  await admin
    .getByTestId("display-link")
    .filter({ hasText: `Comedor ${RUN}` })
    .getByRole("button", { name: "Revocar" })
    .click();
  await acceptConfirmation(admin, /Revocar el enlace/, "Revocar");
  await expect(screen.getByRole("heading", { name: "Este enlace ya no es válido" })).toBeVisible();
  await expect(screen.getByText(DISH)).toHaveCount(0);
  // And the link now answers 404 (its page is tests/http/menu-board.test.ts's "an unknown, malformed or revoked
  // token gets the plain 'no longer valid' page with 404").
  expect((await screen.request.get(url)).status()).toBe(404);

  expect(adminProblems).toEqual([]);
  expect(screenProblems.filter((p) => !/404|Failed to load resource/.test(p))).toEqual([]);
  await adminContext.close();
  await screenContext.close();
});

// ---------------------------------------------------------------------------------------------------------------
// The board fits its screen (issue 26): a 1920×1080 and a 1366×768 screen show every meal and dish of today and
// every day of the week, at once or a page at a time by themselves; the page never scrolls or spills; each dish's
// kcal stand in the right-hand column of its first line.

const SCREENS = [
  { width: 1920, height: 1080 },
  { width: 1366, height: 768 },
];

/** The built assets' version, which a page-protocol visit names: read from the first document propsOf gets. */
let assetVersion: string | null = null;

/**
 * The page object's props at `path`, asked for by the context's requests (its cookies, no page rendered): the JSON in
 * the first document, then page-protocol visits' JSON.
 */
async function propsOf(page: Page, path: string): Promise<any> {
  if (assetVersion === null) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
    const json = /<script data-page="app"[^>]*>([\s\S]*?)<\/script>/.exec(await response.text())?.[1];
    expect(json, `the page object in ${path}`).toBeTruthy();
    const first = JSON.parse(json!);
    assetVersion = first.version as string;
    return first.props;
  }
  const response = await page.request.get(path, {
    headers: { "X-Inertia": "true", "X-Inertia-Version": assetVersion },
  });
  expect(response.status(), path).toBe(200);
  return (await response.json()).props;
}

async function xsrfOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN");
  return decodeURIComponent(cookie?.value ?? "");
}

async function cafeIdOf(page: Page, name: string): Promise<number> {
  const props = await propsOf(page, "/menu/display");
  const cafe = (props.cafes as { id: number; path: string }[]).find((c) => c.path.endsWith(` › ${name}`));
  expect(cafe, `the demo cafe ${name}`).toBeTruthy();
  return cafe!.id;
}

async function boardLinkOf(page: Page, cafeId: number, label: string): Promise<string> {
  const made = await page.request.post("/menu/display-links", {
    headers: { "X-XSRF-TOKEN": await xsrfOf(page), Accept: "application/json" },
    data: { cafe: cafeId, label },
  });
  expect(made.status()).toBe(201);
  return (await made.json()).url;
}

/**
 * A long day, published: every meal service of the cafe gets a structure (those without one take the lunch's
 * categories, through the structures page's own route), and every slot of today four dishes of its category, saved
 * and published through the schedule's and the Display page's routes. Returns the dish names the board must show.
 */
async function publishLongDay(page: Page, cafeId: number): Promise<string[]> {
  const headers = { "X-XSRF-TOKEN": await xsrfOf(page), Accept: "application/json" };
  const structures = (await propsOf(page, `/menu/structures?cafe=${cafeId}`)).structures as {
    service: { id: number };
    structureId: number | null;
    items: {
      categoryId: number;
      servingAmount: number;
      sharePercent: number;
      minCostCents: number;
      maxCostCents: number;
    }[];
  }[];
  const model = structures.reduce((a, b) => (b.items.length > a.items.length ? b : a));
  for (const structure of structures.filter((s) => s.structureId === null)) {
    const saved = await page.request.put(`/menu/structures/${cafeId}/${structure.service.id}`, {
      headers,
      data: {
        items: model.items.map((i) => ({
          category_id: i.categoryId,
          serving_amount: i.servingAmount,
          share_percent: Math.floor(100 / model.items.length),
          min_cost: (i.minCostCents / 100).toFixed(2),
          max_cost: (i.maxCostCents / 100).toFixed(2),
        })),
      },
    });
    expect(saved.status()).toBe(200);
  }
  const { today } = await propsOf(page, `/menu/schedule?cafe=${cafeId}`);
  const { schedule } = await propsOf(page, `/menu/schedule?cafe=${cafeId}&from=${today}&to=${today}`);
  const day = schedule.days[0];
  const slots: { service_id: number; category_id: number; dish_ids: number[] }[] = [];
  const names: string[] = [];
  const ofCategory = new Map<number, { id: number; name: string }[]>();
  for (const meal of day.meals as { serviceId: number; slots: { categoryId: number }[] }[])
    for (const slot of meal.slots) {
      if (!ofCategory.has(slot.categoryId)) {
        const found = await page.request.get(`/menu/dishes?category=${slot.categoryId}`);
        ofCategory.set(slot.categoryId, (await found.json()).dishes.slice(0, 4));
      }
      const dishes = ofCategory.get(slot.categoryId)!;
      slots.push({ service_id: meal.serviceId, category_id: slot.categoryId, dish_ids: dishes.map((d) => d.id) });
      names.push(...dishes.map((d) => d.name));
    }
  const saved = await page.request.put(`/menu/schedule/${cafeId}/${day.date}`, {
    headers,
    data: { version: day.version, slots },
  });
  expect(saved.status()).toBe(200);
  const published = await page.request.post("/menu/publish", {
    headers,
    data: { cafe: cafeId, from: day.date, to: day.date },
  });
  expect(published.status()).toBe(200);
  return names;
}

/** What an area shows fully now: the keys of its items inside both its box and the screen, and the kcal rule. */
async function shownNow(screen: Page, area: "board-today-area" | "board-week-area") {
  return screen.getByTestId(area).evaluate((root, area) => {
    const flow = root.querySelector<HTMLElement>("[data-pages]")!;
    const box = flow.parentElement!.getBoundingClientRect();
    const items = [
      ...root.querySelectorAll<HTMLElement>(area === "board-today-area" ? "[data-testid=board-dish]" : "li[data-date]"),
    ];
    const shown: number[] = [];
    const misplacedKcal: string[] = [];
    const inside = (r: DOMRect) =>
      r.width > 0 &&
      r.height > 0 &&
      r.left >= Math.max(box.left, 0) - 0.5 &&
      r.right <= Math.min(box.right, window.innerWidth) + 0.5 &&
      r.top >= Math.max(box.top, 0) - 0.5 &&
      r.bottom <= Math.min(box.bottom, window.innerHeight) + 0.5;
    items.forEach((item, index) => {
      const r = item.getBoundingClientRect();
      if (!inside(r)) return;
      // Not cut inside either: a name wider than its column would be clipped.
      if ([...item.querySelectorAll<HTMLElement>("*")].some((el) => el.scrollWidth > el.clientWidth + 1)) return;
      shown.push(index);
      const name = item.querySelector<HTMLElement>("[data-testid=board-dish-name]");
      const kcal = item.querySelector<HTMLElement>("[data-testid=board-kcal]");
      if (name && kcal && kcal.textContent) {
        const n = name.getBoundingClientRect();
        const k = kcal.getBoundingClientRect();
        const line = parseFloat(getComputedStyle(name).lineHeight);
        // The right edge of the dish's line, on its first line whatever the length of the name.
        if (Math.abs(k.right - r.right) > 1 || k.top < n.top - 2 || k.bottom > n.top + line + 2)
          misplacedKcal.push(name.textContent ?? "");
      }
    });
    const page = document.documentElement;
    return {
      count: items.length,
      shown,
      misplacedKcal,
      pages: Number(flow.dataset.pages),
      page: Number(flow.dataset.page),
      spills: page.scrollWidth > window.innerWidth || page.scrollHeight > window.innerHeight,
    };
  }, area);
}

/**
 * Opens the board on a screen of `size`, live and measured; from then on the screen's clock moves only when the test
 * moves it (see walkBoard).
 */
async function openBoard(browser: Browser, url: string, size: { width: number; height: number }) {
  const context = await browser.newContext({ viewport: size });
  const screen = await context.newPage();
  const problems = watchConsole(screen);
  await screen.clock.install();
  await screen.goto(url);
  // Hydrated and measured (not waitForHydration: its polling runs on animation frames, which the clock now holds).
  for (const area of ["board-today-area", "board-week-area"])
    await expect(screen.getByTestId(area).locator("[data-pages]")).toHaveAttribute("data-measured", "true", {
      timeout: 20_000,
    });
  // Live first: the connection's own timers then have nothing pending when the clock is moved on.
  await expect(screen.getByRole("status")).toHaveAttribute("data-state", "connected");
  await screen.clock.pauseAt((await screen.evaluate(() => Date.now())) + 1000);
  return { context, screen, problems };
}

/**
 * Turns the board's screen into one of `size`, as a screen of that size shows it: the board measures its areas again
 * when their boxes change size (a ResizeObserver of its own), and commits the new layout in a task React queues then.
 * An observer made here hears of the new size in the same rendering step, after the board's, and a message posted
 * from it comes after React's task.
 */
async function resizeBoard(screen: Page, size: { width: number; height: number }) {
  await screen.setViewportSize(size);
  await screen.evaluate(
    (size) =>
      new Promise<void>((resolve) => {
        const observer = new ResizeObserver(() => {
          if (window.innerWidth !== size.width || window.innerHeight !== size.height) return;
          observer.disconnect();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        });
        for (const flow of document.querySelectorAll("[data-pages]")) observer.observe(flow.parentElement!);
      }),
    size,
  );
}

/**
 * Goes through every page of both areas of the board on `screen`, now of `size` (the screen's clock moved on by the
 * page time): every dish of today and every day of the week is shown fully on some page, and nothing spills.
 * Returns how many pages today took, with the dish names seen.
 */
async function walkBoard(screen: Page, size: { width: number; height: number }) {
  const result: Record<string, { pages: number; names: string[] }> = {};
  for (const area of ["board-today-area", "board-week-area"] as const) {
    const first = await shownNow(screen, area);
    const seen = new Set<number>();
    // Both areas turn their pages together; this one may not be on its first page any more.
    for (let turn = 0; turn < first.pages; turn++) {
      const page = ((first.page - 1 + turn) % first.pages) + 1;
      const now = await shownNow(screen, area);
      expect(now.page, `${area} at ${size.width}×${size.height}: page ${page}`).toBe(page);
      expect(now.spills, `${area} at ${size.width}×${size.height}: the page spills`).toBe(false);
      expect(now.misplacedKcal, `kcal out of their column at ${size.width}×${size.height}`).toEqual([]);
      now.shown.forEach((i) => seen.add(i));
      if (first.pages > 1) {
        await screen.clock.runFor(PAGE_SECONDS * 1000);
        await expect(screen.getByTestId(area).locator("[data-pages]")).toHaveAttribute(
          "data-page",
          String((page % first.pages) + 1),
        );
      }
    }
    expect(seen.size, `${area} at ${size.width}×${size.height}: everything shown on some page`).toBe(first.count);
    const names =
      area === "board-today-area"
        ? await screen.getByTestId(area).getByTestId("board-dish-name").allTextContents()
        : [];
    result[area] = { pages: first.pages, names };
    if (first.pages > 1)
      await expect(screen.getByTestId(area).getByTestId("board-page")).toHaveText(
        new RegExp(`^Página \\d de ${first.pages}$`),
      );
    else await expect(screen.getByTestId(area).getByTestId("board-page")).toHaveCount(0);
  }
  return result;
}

/**
 * Walks the board (walkBoard) on a screen of each size in turn: opened on the first, then turned into the next.
 * Moving the clock on by whole pages also runs out the live connection's ping timers, and pusher-js reconnects
 * (warning about the socket it drops): the clock's doing, not the board's. The live board is the first test's.
 */
async function walkScreens(browser: Browser, url: string, sizes: { width: number; height: number }[]) {
  const { context, screen, problems } = await openBoard(browser, url, sizes[0]);
  const walked = [];
  for (const [index, size] of sizes.entries()) {
    if (index > 0) await resizeBoard(screen, size);
    walked.push({ size, shown: await walkBoard(screen, size) });
  }
  expect(problems.filter((p) => !/WebSocket connection to .* failed/.test(p))).toEqual([]);
  await context.close();
  return walked;
}

test("the demo's board shows every meal and dish of today at once on a 1920×1080 and a 1366×768 screen", async ({
  page,
  browser,
  mesa,
}) => {
  test.setTimeout(60_000);
  await mesa.signIn(page, ADMIN);
  const cafeId = await cafeIdOf(page, "Comedor Yanacancha");
  const url = await boardLinkOf(page, cafeId, `Pantalla demo ${RUN}`);
  const { board } = await propsOf(page, `/menu/display?cafe=${cafeId}`);
  const dishes = (board.days[0].services as { categories: { dishes: { name: string }[] }[] }[]).flatMap((s) =>
    s.categories.flatMap((c) => c.dishes.map((d) => d.name)),
  );
  // The demo publishes lunch and breakfast for a week from today.
  expect(board.days[0].services.length).toBeGreaterThanOrEqual(2);
  for (const { size, shown } of await walkScreens(browser, url, SCREENS)) {
    expect(shown["board-today-area"].pages, `the demo's today fits ${size.width}×${size.height}`).toBe(1);
    expect(shown["board-today-area"].names.sort()).toEqual([...dishes].sort());
  }
});

test("a long day pages by itself through every meal and dish on a 1366×768 and a 1920×1080 screen", async ({
  page,
  browser,
  mesa,
}) => {
  test.setTimeout(120_000);
  await mesa.signIn(page, ADMIN);
  const cafeId = await cafeIdOf(page, "Comedor Tajo");
  const dishes = await publishLongDay(page, cafeId);
  expect(dishes.length).toBeGreaterThan(60);
  const url = await boardLinkOf(page, cafeId, `Pantalla larga ${RUN}`);
  for (const { size, shown } of await walkScreens(browser, url, [...SCREENS].reverse())) {
    expect(shown["board-today-area"].names.sort()).toEqual([...dishes].sort());
    if (size.width === 1366) expect(shown["board-today-area"].pages).toBeGreaterThan(1);
  }
});
