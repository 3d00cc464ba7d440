/**
 * Realtime in a real browser, against the embedded Pusher-protocol server Mesa mounts at /app/{key} (WebSocket) and
 * /apps/{id}/… (HTTP API):
 *
 *   1. pusher-js in Chromium: the header's indicator reaches "connected"; a pusher-js loaded into the page (under the
 *      page's CSP, by its nonce) receives an event the test publishes with the `pusher` SDK on a public channel; a
 *      private subscription with a forged signature is refused with pusher:subscription_error (and gets nothing
 *      published there); the HTTP API refuses a request signed with another secret.
 *   2. Deactivating a user signs out every tab of theirs at once, without a click.
 *   3. Presence: two people whose scope reaches the same cafe see each other on the dashboard, and one leaving is
 *      seen by the other.
 *   4. Page-protocol requests name the tab's connection in X-Socket-ID.
 *   5. The dashboard with realtime connected (and presence joined) logs no console errors.
 *
 * The server's realtime secret is the worker's own (tests/e2e/fixtures.ts gives it to the server and to these tests as
 * `mesa.pusherSecret`); the app id and key are the defaults ("mesa", "mesa-key"). People are made by the worker's
 * fixtures, each test's own, so the tests stand alone and the two workers share them (each worker's beforeAll makes
 * the people on its own database). That a deactivated user's next request lands on the sign-in page is the HTTP
 * tests' (tests/http/access-control.test.ts, tests/http/auth.test.ts).
 */
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test, type Mesa, type Who } from "./fixtures";
import { acceptConfirmation, watchConsole, waitForHydration } from "./support";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Pusher from "pusher";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PUSHER_JS = join(ROOT, "node_modules/pusher-js/dist/web/pusher.min.js");
/** Unique per run, so names and addresses never collide with another run's. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const APP_ID = "mesa";
const APP_KEY = "mesa-key";

const ADMIN = { name: `Sofía Admin RT ${RUN}`, email: `rt.super.${RUN}@example.com` };
const PERSON = { name: `Tomás Doble ${RUN}`, email: `rt.doble.${RUN}@example.com` };
const CASHIER = { name: `Elena Caja ${RUN}`, email: `rt.cajera.${RUN}@example.com` };
const MANAGER = { name: `Raúl Gerente ${RUN}`, email: `rt.gerente.${RUN}@example.com` };
const WATCHER = { name: `Inés Socket ${RUN}`, email: `rt.socket.${RUN}@example.com` };
const CAFE = "Comedor Principal";

// ---------------------------------------------------------------------------------------------------------------
// Helpers

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** Signs `who` in on the page's browser and opens `path` (the dashboard unless told). */
async function signIn(page: Page, mesa: Mesa, who: Who, path = "/dashboard"): Promise<void> {
  await mesa.signIn(page, who);
  await open(page, path);
}

/** The `pusher` server SDK pointed at the embedded endpoint of the worker's server. */
function serverSdk(mesa: Mesa): Pusher {
  const url = new URL(mesa.baseURL);
  return new Pusher({
    appId: APP_ID,
    key: APP_KEY,
    secret: mesa.pusherSecret,
    host: url.hostname,
    port: url.port,
    useTLS: false,
    timeout: 3000,
  });
}

interface Frame {
  event: string;
  channel?: string;
  data: any;
}

/**
 * Every Pusher-protocol message the page's WebSockets receive, parsed (data too, when it is a JSON string), in
 * order, tagged with the socket's URL. Must be installed before the page opens its connection.
 */
function watchFrames(page: Page): Frame[] {
  const frames: Frame[] = [];
  page.on("websocket", (ws) => {
    ws.on("framereceived", ({ payload }) => {
      try {
        const message = JSON.parse(String(payload));
        let data = message.data;
        if (typeof data === "string") {
          try {
            data = JSON.parse(data);
          } catch {
            /* a plain string */
          }
        }
        frames.push({ event: message.event, channel: message.channel, data });
      } catch {
        /* not JSON: not ours */
      }
    });
  });
  return frames;
}

const subscribed = (frames: Frame[], channel: string) =>
  frames.some((f) => f.event === "pusher_internal:subscription_succeeded" && f.channel === channel);
const status = (page: Page) => page.getByTestId("realtime-status");

/** The `on-duty-<id>` entry of a cafe on the dashboard. */
const onDuty = (page: Page, cafe: string) => page.locator('[data-testid^="on-duty-"]', { hasText: cafe });

// ---------------------------------------------------------------------------------------------------------------

test.describe.configure({ mode: "parallel" });

test.describe("realtime", () => {
  const ids: Record<string, number> = {};

  test.beforeAll(async ({ mesa }) => {
    ids.admin = await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
    ids.person = await mesa.user({ ...PERSON, role: "cashier", area: "Caja", place: CAFE });
    ids.cashier = await mesa.user({ ...CASHIER, role: "cashier", area: "Caja", place: CAFE });
    ids.manager = await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: CAFE });
    ids.watcher = await mesa.user({ ...WATCHER, role: "cashier", area: "Caja", place: CAFE });
  });

  test("pusher-js connects; a public channel receives what the pusher SDK publishes; a forged private signature is refused", async ({
    page,
    mesa,
  }) => {
    const frames = watchFrames(page);
    // Any page of the app's layout holds the connection; the profile settings are a light one.
    await signIn(page, mesa, CASHIER, "/settings/profile");
    await expect(status(page)).toHaveAttribute("data-state", "connected");
    // The app's own connection signed in as the user and joined their private channel.
    await expect.poll(() => frames.some((f) => f.event === "pusher:signin_success")).toBe(true);
    await expect.poll(() => subscribed(frames, `private-App.Models.User.${ids.cashier}`)).toBe(true);

    // A second pusher-js, loaded into the page from node_modules, on the same embedded endpoint. The page's CSP
    // allows scripts by nonce only (page.addScriptTag is refused), so the script carries the page's own nonce.
    await page.evaluate(
      (source) => {
        const nonce = (document.querySelector("script[nonce]") as HTMLScriptElement | null)?.nonce ?? "";
        const script = document.createElement("script");
        script.nonce = nonce;
        script.textContent = source;
        document.head.append(script);
      },
      readFileSync(PUSHER_JS, "utf8"),
    );
    expect(await page.evaluate(() => typeof (window as any).Pusher)).toBe("function");
    const url = new URL(mesa.baseURL);
    const publicChannel = `e2e-public-${RUN}`;
    const privateChannel = `private-App.Models.User.${ids.admin}`;
    const setup = await page.evaluate(
      async ({ key, host, port, publicChannel, privateChannel }) => {
        const w = window as any;
        const client = new w.Pusher(key, {
          cluster: "mt1",
          wsHost: host,
          wsPort: port,
          forceTLS: false,
          enabledTransports: ["ws"],
          disableStats: true,
          // A forged authorization: the right key, a signature that is not the server's.
          channelAuthorization: {
            customHandler: (_params: unknown, callback: (error: unknown, data: unknown) => void) =>
              callback(null, { auth: `${key}:${"0".repeat(64)}` }),
          },
        });
        w.__e2e = {
          client,
          received: [] as unknown[],
          privateReceived: [] as unknown[],
          subscriptionErrors: [] as unknown[],
        };
        const connected = new Promise<string>((resolve, reject) => {
          client.connection.bind("connected", () => resolve(client.connection.socket_id));
          client.connection.bind("failed", () => reject(new Error("pusher-js failed to connect")));
          client.connection.bind("unavailable", () => reject(new Error("pusher-js: unavailable")));
        });
        const socketId = await connected;
        const channel = client.subscribe(publicChannel);
        await new Promise<void>((resolve, reject) => {
          channel.bind("pusher:subscription_succeeded", () => resolve());
          channel.bind("pusher:subscription_error", (error: unknown) =>
            reject(new Error(`public subscription refused: ${JSON.stringify(error)}`)),
          );
        });
        channel.bind("greeting", (data: unknown) => w.__e2e.received.push(data));
        const forged = client.subscribe(privateChannel);
        forged.bind("pusher:subscription_error", (error: unknown) => w.__e2e.subscriptionErrors.push(error));
        forged.bind("pusher:subscription_succeeded", () => w.__e2e.subscriptionErrors.push("SUCCEEDED"));
        forged.bind("secret", (data: unknown) => w.__e2e.privateReceived.push(data));
        return { socketId, state: client.connection.state };
      },
      { key: APP_KEY, host: url.hostname, port: Number(url.port), publicChannel, privateChannel },
    );
    expect(setup.state).toBe("connected");
    expect(setup.socketId).toMatch(/^\d+\.\d+$/);

    // Published from here, through the SDK and the embedded HTTP API.
    const sdk = serverSdk(mesa);
    const payload = { message: `¡Hola desde el SDK! ${RUN}`, n: 42 };
    const response = await sdk.trigger(publicChannel, "greeting", payload);
    expect(response.status).toBe(200);
    await expect.poll(() => page.evaluate(() => (window as any).__e2e.received)).toEqual([payload]);
    // The API reports the channel occupied by this one subscriber.
    const info = await (
      await sdk.get({ path: `/channels/${publicChannel}`, params: { info: "subscription_count" } })
    ).json();
    expect(info).toEqual({ occupied: true, subscription_count: 1 });

    // The forged signature: pusher:subscription_error with the server's AuthError, and nothing published there arrives.
    await expect
      .poll(() => page.evaluate(() => (window as any).__e2e.subscriptionErrors))
      .toEqual([{ type: "AuthError", error: "Invalid signature", status: 401 }]);
    await sdk.trigger(privateChannel, "secret", { leaked: true });
    await sdk.trigger(publicChannel, "greeting", { after: true });
    await expect.poll(() => page.evaluate(() => (window as any).__e2e.received.length)).toBe(2);
    expect(await page.evaluate(() => (window as any).__e2e.privateReceived)).toEqual([]);

    // The API refuses a request signed with another secret.
    const forger = new Pusher({
      appId: APP_ID,
      key: APP_KEY,
      secret: "not-the-secret",
      host: url.hostname,
      port: url.port,
      useTLS: false,
      timeout: 3000,
    });
    await expect(forger.trigger(publicChannel, "greeting", { forged: true })).rejects.toMatchObject({ status: 401 });

    await page.evaluate(() => (window as any).__e2e.client.disconnect());
    // The app's own connection is unaffected.
    await expect(status(page)).toHaveAttribute("data-state", "connected");
  });

  test("deactivating a user signs out both of their tabs within seconds, without a click", async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(30_000);
    // The administrator, in a browser of their own, opens the Users page while the user's tabs load.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    const adminReady = signIn(admin, mesa, ADMIN, `/users?search=${encodeURIComponent(PERSON.email)}`);
    adminReady.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled meanwhile

    // The user, in two tabs of one browser: the dashboard and their profile settings.
    const userContext = await browser.newContext();
    const first = await userContext.newPage();
    const firstFrames = watchFrames(first);
    await signIn(first, mesa, PERSON);
    const second = await userContext.newPage();
    const secondFrames = watchFrames(second);
    await open(second, "/settings/profile");
    const userChannel = `private-App.Models.User.${ids.person}`;
    for (const [tab, frames] of [
      [first, firstFrames],
      [second, secondFrames],
    ] as const) {
      await expect(status(tab)).toHaveAttribute("data-state", "connected");
      await expect
        .poll(() => subscribed(frames, userChannel), { message: `${tab.url()} joined ${userChannel}` })
        .toBe(true);
    }

    // The administrator deactivates them from the Users page.
    await adminReady;
    const row = admin.getByTestId(`user-row-${PERSON.email}`);
    const landed: Record<string, number> = {};
    const start = Date.now();
    const watch = (tab: Page, name: string) =>
      tab.waitForURL(/\/login$/, { timeout: 5_000 }).then(() => (landed[name] = Date.now() - start));
    const arrivals = Promise.all([watch(first, "first"), watch(second, "second")]);
    arrivals.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled meanwhile
    await row.getByRole("button", { name: "Desactivar" }).click();
    await acceptConfirmation(admin, `¿Desactivar a ${PERSON.name}?`, "Desactivar");
    await expect(admin.locator('[data-flash="success"]')).toHaveText(
      `${PERSON.email} fue desactivado y sus sesiones se cerraron.`,
    );
    await arrivals;
    test.info().annotations.push({
      type: "timing",
      description: `tabs on /login after ${landed.first} ms and ${landed.second} ms`,
    });
    for (const [tab, frames] of [
      [first, firstFrames],
      [second, secondFrames],
    ] as const) {
      // They left because the server said so on their channel.
      expect(frames.some((f) => f.event === "App\\Events\\SessionEnded" && f.channel === userChannel)).toBe(true);
      await waitForHydration(tab);
      await expect(tab.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();
      await expect(tab.getByTestId("realtime-status")).toHaveCount(0);
    }
    // The server holds no connection of theirs.
    expect(
      (
        await (
          await serverSdk(mesa).get({ path: `/channels/${userChannel}`, params: { info: "subscription_count" } })
        ).json()
      ).occupied,
    ).toBe(false);

    await userContext.close();
    await adminContext.close();
  });

  test("presence: two people reaching the same cafe see each other on the dashboard; one leaving disappears for the other", async ({
    browser,
    mesa,
  }) => {
    const contexts: BrowserContext[] = [];
    /** A browser of `person`'s, signed in, with a tab that has not opened anything yet. */
    const tabOf = async (person: Who) => {
      const context = await browser.newContext();
      contexts.push(context);
      await mesa.signIn(context, person);
      return context.newPage();
    };
    const dashboard = async (page: Page) => {
      await open(page, "/dashboard");
      await expect(status(page)).toHaveAttribute("data-state", "connected");
      return page;
    };
    // Both browsers are made at once; the manager's tab opens the dashboard only once the cashier is there alone.
    const [cashierTab, managerTab] = await Promise.all([tabOf(CASHIER), tabOf(MANAGER)]);
    const cashier = await dashboard(cashierTab);
    const entry = onDuty(cashier, CAFE);
    await expect(entry).toHaveCount(1);
    const cafeId = Number((await entry.getAttribute("data-testid"))!.replace("on-duty-", ""));
    expect(cafeId).toBeGreaterThan(0);
    // Alone: just themselves.
    await expect(cashier.getByTestId(`on-duty-${cafeId}`)).toContainText(CASHIER.name);
    await expect(cashier.getByTestId(`on-duty-${cafeId}`)).not.toContainText(MANAGER.name);

    const manager = await dashboard(managerTab);
    await expect(manager.getByTestId(`on-duty-${cafeId}`)).toContainText(CASHIER.name);
    await expect(manager.getByTestId(`on-duty-${cafeId}`)).toContainText(MANAGER.name);
    // The first one learns of the newcomer without reloading.
    await expect(cashier.getByTestId(`on-duty-${cafeId}`)).toContainText(MANAGER.name);

    // The manager closes the page: gone from the cashier's list within a few seconds.
    const start = Date.now();
    await manager.close();
    await expect(cashier.getByTestId(`on-duty-${cafeId}`)).not.toContainText(MANAGER.name, { timeout: 5_000 });
    test.info().annotations.push({ type: "timing", description: `member removed after ${Date.now() - start} ms` });
    await expect(cashier.getByTestId(`on-duty-${cafeId}`)).toContainText(CASHIER.name);
    const users = await (await serverSdk(mesa).get({ path: `/channels/presence-cafe.${cafeId}/users` })).json();
    expect(users).toEqual({ users: [{ id: String(ids.cashier) }] });

    for (const context of contexts) await context.close();
  });

  test("page-protocol requests carry the tab's socket id in X-Socket-ID", async ({ page, mesa }) => {
    const frames = watchFrames(page);
    await signIn(page, mesa, WATCHER, "/settings/profile");
    await expect(status(page)).toHaveAttribute("data-state", "connected");
    const established = frames.filter((f) => f.event === "pusher:connection_established");
    expect(established).toHaveLength(1);
    const socketId: string = established[0].data.socket_id;
    expect(socketId).toMatch(/^\d+\.\d+$/);

    // A client-side visit to the password settings, through the page protocol.
    const request = page.waitForRequest(
      (r) => r.headers()["x-inertia"] === "true" && new URL(r.url()).pathname === "/settings/password",
    );
    await page.getByRole("navigation", { name: "Configuración" }).getByRole("link", { name: "Contraseña" }).click();
    const headers = (await request).headers();
    expect(headers["x-socket-id"]).toMatch(/^\d+\.\d+$/);
    expect(headers["x-socket-id"]).toBe(socketId);
    await expect(page).toHaveURL(/\/settings\/password$/);
  });

  test("the dashboard with realtime connected logs no console errors", async ({ browser, mesa }) => {
    // A long journey through several dialogs and pages: on a loaded 2-core machine it nears the default 20 s.
    test.setTimeout(45_000);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    const frames = watchFrames(page);
    await signIn(page, mesa, ADMIN);
    await expect(status(page)).toHaveAttribute("data-state", "connected");
    // Every cafe's presence channel joined (the administrator reaches them all), and the private channel.
    const entries = page.locator('[data-testid^="on-duty-"]');
    expect(await entries.count()).toBeGreaterThanOrEqual(2);
    for (const entry of await entries.all()) await expect(entry).toContainText(ADMIN.name);
    const privateChannel = `private-App.Models.User.${ids.admin}`;
    await expect.poll(() => subscribed(frames, privateChannel)).toBe(true);
    // The figures, a deferred prop, have come too: nothing the page asked for is still on its way.
    await expect(page.getByTestId("figures")).toBeVisible();

    // Away to another page and back: the presence channels are left and joined again, still without errors.
    await page
      .getByRole("navigation", { name: "Navegación principal" })
      .getByRole("link", { name: "Usuarios" })
      .click();
    await expect(page).toHaveURL(/\/users$/);
    await page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Panel" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const entry of await entries.all()) await expect(entry).toContainText(ADMIN.name);
    await expect(status(page)).toHaveAttribute("data-state", "connected");
    const beforeReload = frames.length;
    await page.reload();
    await waitForHydration(page);
    await expect(status(page)).toHaveAttribute("data-state", "connected");
    for (const entry of await entries.all()) await expect(entry).toContainText(ADMIN.name);
    // Everything the reloaded page does has been done: the private channel joined again and the figures come.
    await expect.poll(() => subscribed(frames.slice(beforeReload), privateChannel)).toBe(true);
    await expect(page.getByTestId("figures")).toBeVisible();

    expect(problems, problems.join("\n")).toEqual([]);
    await context.close();
  });
});
