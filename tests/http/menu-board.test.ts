/**
 * Publishing and the menu board (docs/menu-board.md): `menu.publish` copies a range of the draft schedule to the
 * board (counted published / unchanged / empty, at most 62 days, the cafe in scope, audited); display links are
 * made (the token shown once, only its SHA-256 kept), listed and revoked; the public board shows only published
 * data of its own cafe, in the cafe's board language, never cached or indexed, and a revoked or unknown token gets
 * the plain "no longer valid" page (404); the board's channel `private-menu-board.{cafe}` is authorized by a
 * signed-in `menu.view` holder of the cafe or by the cafe's own token — never another cafe's channel or a private
 * cafe channel — and revoking a link closes its board's connection (4009), while publishing reaches it live.
 *
 * Mesa listens on a loopback port with its embedded Pusher-protocol server, so the realtime checks use a raw
 * WebSocket; the HTTP checks go through the same app.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import {
  auditLog,
  cafes,
  cafeServices,
  dishCategories,
  dishes,
  displayLinks,
  ingredientCategories,
  ingredients,
  levels,
  menuDays,
  menuSlots,
  recipeLines,
  recipes,
  services,
} from "../../db/schema";
import { sha256 } from "../../src/crypto";
import { openDatabase, type Db } from "../../src/db";
import { migratedDatabase } from "../support/database";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { EVERYTHING } from "../../src/domain/access/scope";
import { bootstrapAccess, ensureStartingRole, STARTING_ROLES } from "../../src/domain/access/starting-roles";
import { CLI_ACTOR } from "../../src/domain/audit";
import { menuBoard } from "../../src/domain/menu/board";
import { createDisplayLink } from "../../src/domain/menu/display-links";
import { MAX_PUBLISH_DAYS, publishRange } from "../../src/domain/menu/publish";
import { dateIn } from "../../src/shared/calendar";
import { createApp } from "../../src/http/app";
import { routes as productRoutes } from "../../src/http/routes";
import { createServices } from "../../src/http/services";
import { EVENT_NAMESPACE, realtimeCredentials } from "../../src/realtime/broadcaster";
import { EmbeddedPusherServer } from "../../src/realtime/embedded-server";
import { channelAuth, type AppCredentials } from "../../src/realtime/signatures";
import { BASE, Client, createTestApp, testConfig, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { cliWorkspace, mesaInProcess } from "../support/cli";
import { signedIn } from "../support/requests";
import { logInto } from "../../src/log";
import { eventually } from "../support/eventually";

type Json = Record<string, any>;

const MENU_PUBLISHED = `${EVENT_NAMESPACE}.MenuPublished`.replace(/\./g, "\\");

let port: number;
let testApp: TestApp;
let realtime: EmbeddedPusherServer;
let creds: AppCredentials;
let db: Db;
let w: Awaited<ReturnType<typeof buildWorld>>;
const sockets: WebSocket[] = [];

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function buildWorld() {
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede Lima");
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  db.update(cafes).set({ boardLanguage: "en" }).where(eq(cafes.id, cafeB)).run();
  const now = new Date();

  // Roles with exactly the menu permissions each check needs.
  const planner = makeRole(db, "planner", ["menu.view", "menu.publish"]);
  const viewer = makeRole(db, "menu viewer", ["menu.view"]);
  const linker = makeRole(db, "link keeper", ["menu.view", "menu.display_links"]);
  const seller = makeRole(db, "seller", ["sales.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Nutrición",
    headquarters_id: x.headquartersId,
    role_ids: [planner],
  }).id;
  const comedorA = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Comedor A",
    cafe_id: cafeA,
    role_ids: [viewer, linker, seller],
  }).id;
  const people = {
    nora: await addUser(db, "Nora Nutri", "nora@mesa.test"),
    vera: await addUser(db, "Vera Viewer", "vera@mesa.test"),
    lino: await addUser(db, "Lino Links", "lino@mesa.test"),
    sam: await addUser(db, "Sam Sales", "sam@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.nora.id, areaId: sede, roleId: planner });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.vera.id, areaId: comedorA, roleId: viewer });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.lino.id, areaId: comedorA, roleId: linker });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.sam.id, areaId: comedorA, roleId: seller });

  // Two services with windows (dinner listed first by id, lunch first by window), two categories, three dishes.
  const service = (code: string, name: string, type: "lunch" | "dinner", start: number) => {
    const s = db.insert(services).values({ code, name, type, createdAt: now, updatedAt: now }).returning().get();
    for (const cafeId of [cafeA, cafeB])
      db.insert(cafeServices)
        .values({ cafeId, serviceId: s.id, windowStart: start, windowEnd: start + 120, updatedAt: now })
        .run();
    return s.id;
  };
  const dinner = service("CENA", "Cena", "dinner", 18 * 60);
  const lunch = service("ALM", "Almuerzo", "lunch", 12 * 60);
  const category = (name: string, sortOrder: number) =>
    db.insert(dishCategories).values({ name, sortOrder }).returning().get().id;
  const starter = category("Entrada", 1);
  const main = category("Segundo", 2);
  // The levels come with the schema (Master, Staff, Employee, Laborer): recipes for the first.
  const level = db.select().from(levels).orderBy(asc(levels.sortOrder)).get()!.id;
  const ingredientCategory = db.insert(ingredientCategories).values({ name: "Varios" }).returning().get().id;
  const ingredient = (name: string, kcal: number, allergens: string[]) =>
    db
      .insert(ingredients)
      .values({
        name,
        categoryId: ingredientCategory,
        baseUnit: "g",
        kcalPer100g: kcal,
        allergens,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get().id;
  const flour = ingredient("Harina", 360, ["gluten"]);
  const milk = ingredient("Leche", 60, ["milk"]);
  const rice = ingredient("Arroz", 350, []);
  const dish = (name: string) =>
    db.insert(dishes).values({ name, createdAt: now, updatedAt: now }).returning().get().id;
  const bechamel = dish("Salsa blanca");
  const lasagna = dish("Lasaña");
  const salad = dish("Ensalada");
  const riceDish = dish("Arroz con pollo");
  const recipe = (dishId: number, lines: { ingredientId?: number; subDishId?: number; quantity: number }[]) => {
    const r = db.insert(recipes).values({ dishId, levelId: level, updatedAt: now }).returning().get().id;
    lines.forEach((line, position) =>
      db
        .insert(recipeLines)
        .values({
          recipeId: r,
          position,
          ingredientId: line.ingredientId ?? null,
          subDishId: line.subDishId ?? null,
          quantity: line.quantity,
        })
        .run(),
    );
  };
  recipe(bechamel, [{ ingredientId: milk, quantity: 100 }]);
  // Lasagna: flour (gluten) and the bechamel sub-recipe (milk).
  recipe(lasagna, [
    { ingredientId: flour, quantity: 100 },
    { subDishId: bechamel, quantity: 50 },
  ]);
  recipe(riceDish, [{ ingredientId: rice, quantity: 200 }]);
  // The salad has no recipe: no kcal, no allergens.
  return { x, y, cafeA, cafeB, people, dinner, lunch, starter, main, lasagna, salad, riceDish, level };
}

/** Writes a day's draft directly (the schedule's own service is tested by its owner), bumping its version. */
function draft(cafeId: number, date: string, slots: { serviceId: number; categoryId: number; dishId: number }[]) {
  const now = new Date();
  const existing = db
    .select()
    .from(menuDays)
    .where(and(eq(menuDays.cafeId, cafeId), eq(menuDays.date, date)))
    .get();
  const day = existing
    ? db
        .update(menuDays)
        .set({ version: existing.version + 1, updatedAt: now })
        .where(eq(menuDays.id, existing.id))
        .returning()
        .get()
    : db.insert(menuDays).values({ cafeId, date, updatedAt: now }).returning().get();
  db.delete(menuSlots).where(eq(menuSlots.dayId, day.id)).run();
  slots.forEach((s, position) =>
    db
      .insert(menuSlots)
      .values({ dayId: day.id, serviceId: s.serviceId, dishCategoryId: s.categoryId, position, dishId: s.dishId })
      .run(),
  );
}

beforeAll(async () => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  port = probe.port!;
  await probe.stop(true);
  const config = testConfig({
    APP_URL: `http://127.0.0.1:${port}`,
    PUSHER_HOST: "127.0.0.1",
    PUSHER_PORT: String(port),
    PUSHER_SCHEME: "http",
  });
  db = migratedDatabase();
  creds = realtimeCredentials(config, config.appKey!);
  realtime = new EmbeddedPusherServer(creds);
  const services = createServices(config, db, { routes: productRoutes, realtime });
  const app = createApp(services);
  app.listen({ port, hostname: "127.0.0.1" });
  testApp = {
    app,
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes: productRoutes,
  };
  w = await buildWorld();
});

afterAll(async () => {
  for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.close();
  realtime.stop();
  await testApp.app.stop(true);
});

/** A raw WebSocket to the embedded server: the frames it receives, its socket id, and how it was closed. */
class Socket {
  readonly frames: Json[] = [];
  socketId = "";
  closed: { code: number } | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => this.frames.push(JSON.parse(String(event.data))));
    ws.addEventListener("close", (event) => (this.closed = { code: event.code }));
  }

  static async connect(): Promise<Socket> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${creds.key}?protocol=7&client=raw&version=1.0`);
    sockets.push(ws);
    const socket = new Socket(ws);
    const established = await eventually(
      () => socket.frames.find((f) => f.event === "pusher:connection_established"),
      "the connection",
    );
    socket.socketId = JSON.parse(established.data).socket_id;
    return socket;
  }

  async subscribe(channel: string, auth: string): Promise<Json> {
    this.ws.send(JSON.stringify({ event: "pusher:subscribe", data: { channel, auth } }));
    return eventually(
      () =>
        this.frames.find(
          (f) =>
            f.channel === channel &&
            (f.event === "pusher_internal:subscription_succeeded" || f.event === "pusher:subscription_error"),
        ),
      `an answer to the subscription to ${channel}`,
    );
  }
}

/** The board's channel authorization as the board page asks it: the token in a header, no cookie. */
function boardAuth(token: string | null, socketId: string, channel: string): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (token !== null) headers["x-display-token"] = token;
  return testApp.app.handle(
    new Request(`${BASE}/board/auth`, {
      method: "POST",
      headers,
      body: new URLSearchParams({ socket_id: socketId, channel_name: channel }).toString(),
    }),
  );
}

/** Mesa's own channel authorization for a signed-in person. */
function signedInAuth(client: Client, socketId: string, channel: string): Promise<Response> {
  return client.request("/broadcasting/auth", {
    method: "POST",
    body: new URLSearchParams({ socket_id: socketId, channel_name: channel }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
  });
}

/** Makes a display link of `cafe` as Lino (menu.display_links there); returns its token and id. */
async function makeLink(
  cafe: number,
  label = "Pantalla del comedor",
): Promise<{ token: string; id: number; url: string }> {
  const lino = await signedIn(testApp, "lino@mesa.test");
  const response = await lino.request("/menu/display-links", {
    method: "POST",
    json: { cafe, label },
    headers: { accept: "application/json" },
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { url: string; link: { id: number } };
  const token = new URL(body.url).pathname.split("/").pop()!;
  return { token, id: body.link.id, url: body.url };
}

/** The board page for a token, as a first load (HTML) or a page visit (JSON). */
function board(token: string, inertia = true): Promise<Response> {
  const headers: Record<string, string> = inertia ? { "x-inertia": "true", "x-inertia-version": testApp.version } : {};
  return testApp.app.handle(new Request(`${BASE}/board/${token}`, { headers }));
}

describe("permissions", () => {
  test("publishing is the nutritionist's and the administrator's; display links the administrator's and the cafe manager's", () => {
    const holders = (permission: string) =>
      STARTING_ROLES.filter((r) => (r.permissions as string[]).includes(permission))
        .map((r) => r.name)
        .sort();
    expect(holders("menu.publish")).toEqual(["administrator", "nutritionist"]);
    expect(holders("menu.display_links")).toEqual(["administrator", "cafe manager"]);
  });
});

describe("publishing", () => {
  test("publishes the draft of a range: published, unchanged and empty days are counted, and only published days reach the board", async () => {
    const today = dateIn("America/Lima");
    const tomorrow = addDays(today, 1);
    draft(w.cafeA, today, [
      { serviceId: w.lunch, categoryId: w.main, dishId: w.lasagna },
      { serviceId: w.lunch, categoryId: w.starter, dishId: w.salad },
      { serviceId: w.dinner, categoryId: w.main, dishId: w.riceDish },
    ]);
    draft(w.cafeA, tomorrow, [{ serviceId: w.lunch, categoryId: w.main, dishId: w.riceDish }]);
    // Nothing is published yet: the board is empty.
    expect(menuBoard(db, w.cafeA).days.every((d) => d.services.length === 0)).toBe(true);

    const nora = await signedIn(testApp, "nora@mesa.test");
    const response = await nora.request("/menu/publish", {
      method: "POST",
      json: { cafe: w.cafeA, from: today, to: addDays(today, 2) },
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      cafeId: w.cafeA,
      published: [today, tomorrow],
      unchanged: [],
      empty: [addDays(today, 2)],
    });
    const shown = menuBoard(db, w.cafeA);
    expect(shown.today).toBe(today);
    expect(shown.days).toHaveLength(7);
    const [first] = shown.days;
    // Services in window order (lunch at 12:00 before dinner at 18:00), categories in the menu table's order.
    expect(first.services.map((s) => s.name)).toEqual(["Almuerzo", "Cena"]);
    expect(first.services[0].categories.map((c) => c.name)).toEqual(["Entrada", "Segundo"]);
    const lasagna = first.services[0].categories[1].dishes[0];
    // Allergens of the recipe and of its sub-recipe; kcal for the cafe's level: 100 g flour × 3.6 + 50 g bechamel.
    expect(lasagna.name).toBe("Lasaña");
    expect(lasagna.allergens.map((a) => a.code)).toEqual(["gluten", "milk"]);
    expect(lasagna.allergens.map((a) => a.label)).toEqual(["Gluten", "Leche"]);
    expect(lasagna.kcal).toBe(Math.round(360 + 50 * 0.6));
    expect(first.services[0].categories[0].dishes[0]).toMatchObject({ name: "Ensalada", kcal: null, allergens: [] });

    // A later change of the draft is not on the board until it is published again.
    draft(w.cafeA, tomorrow, [{ serviceId: w.lunch, categoryId: w.main, dishId: w.lasagna }]);
    expect(menuBoard(db, w.cafeA).days[1].services[0].categories[0].dishes[0].name).toBe("Arroz con pollo");
    const again = publishRange(db, CLI_ACTOR, w.cafeA, today, tomorrow);
    expect({ published: again.published, unchanged: again.unchanged }).toEqual({
      published: [tomorrow],
      unchanged: [today],
    });
    expect(menuBoard(db, w.cafeA).days[1].services[0].categories[0].dishes[0].name).toBe("Lasaña");

    // Each publishing that changed something is one audit entry about the cafe.
    const entries = db.select().from(auditLog).where(eq(auditLog.action, "menu.published")).all();
    expect(entries.length).toBe(2);
  });

  test("a range longer than 62 days, reversed or malformed is refused; a cafe out of scope is not found", async () => {
    const nora = await signedIn(testApp, "nora@mesa.test");
    const post = (json: unknown) =>
      nora.request("/menu/publish", { method: "POST", json, headers: { accept: "application/json" } });
    const from = "2026-01-01";
    expect((await post({ cafe: w.cafeA, from, to: addDays(from, MAX_PUBLISH_DAYS - 1) })).status).toBe(200);
    const tooLong = await post({ cafe: w.cafeA, from, to: addDays(from, MAX_PUBLISH_DAYS) });
    expect(tooLong.status).toBe(422);
    expect((await tooLong.json()).errors.to).toContain("62");
    expect((await post({ cafe: w.cafeA, from: "2026-02-02", to: "2026-02-01" })).status).toBe(422);
    expect((await post({ cafe: w.cafeA, from: "2026-02-30", to: "2026-03-01" })).status).toBe(422);
    // Nora's headquarters reaches the cafes of Catering X only.
    expect((await post({ cafe: w.cafeB, from, to: from })).status).toBe(404);
  });

  test("publishing needs menu.publish: a menu.view holder of the cafe is refused", async () => {
    const vera = await signedIn(testApp, "vera@mesa.test");
    const response = await vera.request("/menu/publish", {
      method: "POST",
      json: { cafe: w.cafeA, from: "2026-01-01", to: "2026-01-02" },
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(403);
  });
});

describe("display links", () => {
  test("a link is made with a random token shown once: only its SHA-256 is kept, and the list names it without the token", async () => {
    const { token, id, url } = await makeLink(w.cafeA, "Pantalla del comedor");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`http://127.0.0.1:${port}/board/${token}`);
    const row = db.select().from(displayLinks).where(eq(displayLinks.id, id)).get()!;
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const lino = await signedIn(testApp, "lino@mesa.test");
    const page = await lino.visit(`/menu/display?cafe=${w.cafeA}`);
    expect(page.response.status).toBe(200);
    const listed = (page.page.props.links as Json[]).find((l) => l.id === id)!;
    expect(listed).toMatchObject({ label: "Pantalla del comedor", createdBy: "Lino Links", revokedAt: null });
    expect(JSON.stringify(page.page)).not.toContain(token);
  });

  test("links need menu.display_links on the cafe, a label, and are rate-limited per person", async () => {
    const vera = await signedIn(testApp, "vera@mesa.test");
    const refused = await vera.request("/menu/display-links", {
      method: "POST",
      json: { cafe: w.cafeA, label: "X" },
      headers: { accept: "application/json" },
    });
    expect(refused.status).toBe(403);
    // A viewer without the permission sees no links on the page.
    expect((await vera.visit(`/menu/display?cafe=${w.cafeA}`)).page.props.links).toBeNull();

    const lino = await signedIn(testApp, "lino@mesa.test");
    const post = (json: unknown) =>
      lino.request("/menu/display-links", { method: "POST", json, headers: { accept: "application/json" } });
    expect((await post({ cafe: w.cafeA, label: "  " })).status).toBe(422);
    expect((await post({ cafe: w.cafeB, label: "Fuera" })).status).toBe(404);
    let statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await post({ cafe: w.cafeA, label: `Pantalla ${i}` })).status);
    statuses = [...new Set(statuses)];
    expect(statuses).toContain(429);
    // The other tests make links as Lino too.
    db.$client.run("DELETE FROM rate_limits");
  });
});

describe("the public board", () => {
  test("a valid link shows the cafe's published menu and nothing else: no session, no caching, not indexed", async () => {
    const { token } = await makeLink(w.cafeA);
    const response = await board(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-robots-tag")).toContain("noindex");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.getSetCookie()).toEqual([]);
    const page = (await response.json()) as Json;
    expect(page.component).toBe("menu/board");
    expect(Object.keys(page.props.board)).toEqual(["cafe", "language", "today", "days", "publishedAt"]);
    expect(page.props.board.cafe).toEqual({ id: w.cafeA, name: "Comedor A", timeZone: "America/Lima" });
    expect(page.props.auth.user).toBeNull();
    expect(page.props.navigation ?? []).toEqual([]);
    // The first load is a whole document that says noindex too.
    const html = await (await board(token, false)).text();
    expect(html).toContain('name="robots"');
    expect(html).toContain("Lasaña");
  });

  test("opened in a browser signed in to Mesa, the board still shows nothing of the account", async () => {
    const { token } = await makeLink(w.cafeA);
    const lino = await signedIn(testApp, "lino@mesa.test");
    const { response, page } = await lino.visit(`/board/${token}`);
    expect(response.status).toBe(200);
    expect(page.props.auth.user).toBeNull();
    expect(page.props.navigation ?? []).toEqual([]);
    expect(JSON.stringify(page.props)).not.toContain("lino@mesa.test");
  });

  test("the request log (LOG_REQUESTS) names a board's route, never its path with the token", async () => {
    const logged = createTestApp({ env: { LOG_REQUESTS: "true", LOG_LEVEL: "info" } });
    const cafeId = ensureCafe(logged.db, "Mina Log", "Unidad Log", "Comedor Log");
    const { token } = createDisplayLink(logged.db, CLI_ACTOR, EVERYTHING, cafeId, { label: "Pantalla" });
    const lines: string[] = [];
    const restore = logInto((line) => void lines.push(line));
    try {
      const response = await logged.app.handle(
        new Request(`${BASE}/board/${token}`, {
          headers: { "x-inertia": "true", "x-inertia-version": logged.version },
        }),
      );
      expect(response.status).toBe(200);
      // The page keeps its own URL, so the browser can reload it.
      expect(((await response.json()) as Json).url).toBe(`/board/${token}`);
    } finally {
      restore();
    }
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        msg: "request",
        method: "GET",
        route: "menu.board",
        uri: "/board/{token}",
        status: 200,
      }),
    ]);
    expect(lines.join("")).not.toContain(token);
  });

  test("the board speaks the cafe's board language", async () => {
    const other = await makeLinkFor(w.cafeB);
    const page = (await (await board(other)).json()) as Json;
    expect(page.props.locale).toBe("en");
    expect(page.props.board.language).toBe("en");
  });

  test("an unknown, malformed or revoked token gets the plain 'no longer valid' page with 404", async () => {
    for (const token of ["A".repeat(43), "not-a-token", "a.b"]) {
      const response = await board(token);
      expect(response.status).toBe(404);
      const page = (await response.json()) as Json;
      expect({ component: page.component, board: page.props.board }).toEqual({ component: "menu/board", board: null });
    }
    const { token, id } = await makeLink(w.cafeA);
    expect((await board(token)).status).toBe(200);
    const lino = await signedIn(testApp, "lino@mesa.test");
    const revoked = await lino.request(`/menu/display-links/${id}`, {
      method: "DELETE",
      headers: { accept: "application/json" },
    });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).revokedAt).not.toBeNull();
    expect((await board(token)).status).toBe(404);
  });

  test("revoking needs menu.display_links on the link's cafe", async () => {
    const { id } = await makeLink(w.cafeA);
    const vera = await signedIn(testApp, "vera@mesa.test");
    const response = await vera.request(`/menu/display-links/${id}`, {
      method: "DELETE",
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(403);
    const b = await makeLinkFor(w.cafeB);
    const bId = db
      .select()
      .from(displayLinks)
      .where(eq(displayLinks.tokenHash, sha256(b)))
      .get()!.id;
    const lino = await signedIn(testApp, "lino@mesa.test");
    expect(
      (await lino.request(`/menu/display-links/${bId}`, { method: "DELETE", headers: { accept: "application/json" } }))
        .status,
    ).toBe(404);
  });
});

/** A link of a cafe Lino does not reach, made as the command line would. */
async function makeLinkFor(cafeId: number): Promise<string> {
  return createDisplayLink(db, CLI_ACTOR, EVERYTHING, cafeId, { label: "Otra" }).token;
}

describe("the board's channel", () => {
  test("a token authorizes its own cafe's board channel and nothing else", async () => {
    const { token } = await makeLink(w.cafeA);
    const socket = await Socket.connect();
    const own = await boardAuth(token, socket.socketId, `private-menu-board.${w.cafeA}`);
    expect(own.status).toBe(200);
    expect((await own.json()).auth).toBe(channelAuth(creds, socket.socketId, `private-menu-board.${w.cafeA}`));
    for (const channel of [
      `private-menu-board.${w.cafeB}`,
      `private-cafe.${w.cafeA}.figures`,
      `private-cafe.${w.cafeA}.sales`,
      `private-cafe.${w.cafeA}.menu`,
      `presence-cafe.${w.cafeA}`,
      `private-App.Models.User.${w.people.lino.id}`,
      `private-menu-board.0${w.cafeA}`,
    ])
      expect({ channel, status: (await boardAuth(token, socket.socketId, channel)).status }).toEqual({
        channel,
        status: 403,
      });
    expect((await boardAuth(null, socket.socketId, `private-menu-board.${w.cafeA}`)).status).toBe(403);
    expect((await boardAuth("A".repeat(43), socket.socketId, `private-menu-board.${w.cafeA}`)).status).toBe(403);
    expect((await boardAuth(token, "nonsense", `private-menu-board.${w.cafeA}`)).status).toBe(400);
  });

  test("signed in, the channel needs menu.view on the cafe", async () => {
    const socket = await Socket.connect();
    const vera = await signedIn(testApp, "vera@mesa.test");
    expect((await signedInAuth(vera, socket.socketId, `private-menu-board.${w.cafeA}`)).status).toBe(200);
    expect((await signedInAuth(vera, (await Socket.connect()).socketId, `private-menu-board.${w.cafeB}`)).status).toBe(
      403,
    );
    const sam = await signedIn(testApp, "sam@mesa.test");
    expect((await signedInAuth(sam, (await Socket.connect()).socketId, `private-menu-board.${w.cafeA}`)).status).toBe(
      403,
    );
  });

  test("a board hears MenuPublished live; revoking its link closes its connection (4009) and refuses the token", async () => {
    const { token, id } = await makeLink(w.cafeA);
    const socket = await Socket.connect();
    const channel = `private-menu-board.${w.cafeA}`;
    const auth = await boardAuth(token, socket.socketId, channel);
    expect((await socket.subscribe(channel, (await auth.json()).auth)).event).toBe(
      "pusher_internal:subscription_succeeded",
    );

    const day = addDays(dateIn("America/Lima"), 3);
    draft(w.cafeA, day, [{ serviceId: w.lunch, categoryId: w.main, dishId: w.salad }]);
    const nora = await signedIn(testApp, "nora@mesa.test");
    const published = await nora.request("/menu/publish", {
      method: "POST",
      json: { cafe: w.cafeA, from: day, to: day },
      headers: { accept: "application/json" },
    });
    expect(published.status).toBe(200);
    const heard = await eventually(() => socket.frames.find((f) => f.event === MENU_PUBLISHED), "MenuPublished");
    expect({ channel: heard.channel, data: JSON.parse(heard.data) }).toEqual({
      channel,
      data: { cafeId: w.cafeA, dates: [day] },
    });

    // Another board, of a link that stays, keeps its connection.
    const kept = await makeLink(w.cafeA, "Cocina");
    const other = await Socket.connect();
    await other.subscribe(channel, (await (await boardAuth(kept.token, other.socketId, channel)).json()).auth);

    const lino = await signedIn(testApp, "lino@mesa.test");
    const revoked = await lino.request(`/menu/display-links/${id}`, {
      method: "DELETE",
      headers: { accept: "application/json" },
    });
    expect(revoked.status).toBe(200);
    expect((await eventually(() => socket.closed, "the board's connection to close")).code).toBe(4009);
    expect((await boardAuth(token, (await Socket.connect()).socketId, channel)).status).toBe(403);
    await Bun.sleep(50);
    expect(other.closed).toBeNull();
  });
});

describe("the board's sign-in as its link", () => {
  test("a valid token signs the board's connection in as its link, which revoking closes; a revoked token is refused", async () => {
    const { token, id } = await makeLink(w.cafeA, "Recepción");
    const socket = await Socket.connect();
    const userAuth = (t: string) =>
      testApp.app.handle(
        new Request(`${BASE}/board/user-auth`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-display-token": t },
          body: new URLSearchParams({ socket_id: socket.socketId }).toString(),
        }),
      );
    const answer = (await (await userAuth(token)).json()) as { auth: string; user_data: string };
    expect(JSON.parse(answer.user_data)).toEqual({ id: `display-link-${id}`, user_info: {} });
    socket.ws.send(JSON.stringify({ event: "pusher:signin", data: answer }));
    await eventually(() => socket.frames.find((f) => f.event === "pusher:signin_success"), "the sign-in");
    const lino = await signedIn(testApp, "lino@mesa.test");
    await lino.request(`/menu/display-links/${id}`, { method: "DELETE", headers: { accept: "application/json" } });
    expect((await eventually(() => socket.closed, "the signed-in board to close")).code).toBe(4009);
    expect((await userAuth(token)).status).toBe(403);
  });
});

describe("./mesa menu:publish", () => {
  test("publishes a cafe named by name or id, refuses a bad range (exit 1) and an unknown cafe (exit 2), and says when no board heard it", async () => {
    const ws = cliWorkspace("mesa-menu-publish-", { PUSHER_HOST: "127.0.0.1", PUSHER_PORT: "9" });
    expect((await mesaInProcess(ws, ["db:migrate"])).code).toBe(0);
    const cliDb = openDatabase(ws.dbPath);
    const cafe = ensureCafe(cliDb, "Mina Norte", "Unidad A", "Comedor CLI");
    const now = new Date();
    const serviceId = cliDb
      .insert(services)
      .values({ code: "ALM", name: "Almuerzo", type: "lunch", createdAt: now, updatedAt: now })
      .returning()
      .get().id;
    const categoryId = cliDb.insert(dishCategories).values({ name: "Segundo" }).returning().get().id;
    const dishId = cliDb.insert(dishes).values({ name: "Seco", createdAt: now, updatedAt: now }).returning().get().id;
    const day = cliDb.insert(menuDays).values({ cafeId: cafe, date: "2026-03-02", updatedAt: now }).returning().get();
    cliDb.insert(menuSlots).values({ dayId: day.id, serviceId, dishCategoryId: categoryId, dishId }).run();
    cliDb.$client.close();

    const byName = await mesaInProcess(ws, [
      "menu:publish",
      "--cafe",
      "Comedor CLI",
      "--from",
      "2026-03-01",
      "--to",
      "2026-03-03",
      "--json",
    ]);
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.out)).toMatchObject({
      cafeId: cafe,
      published: ["2026-03-02"],
      unchanged: [],
      empty: ["2026-03-01", "2026-03-03"],
      boardsUpdated: false,
    });
    const byId = await mesaInProcess(ws, [
      "menu:publish",
      "--cafe",
      String(cafe),
      "--from",
      "2026-03-02",
      "--to",
      "2026-03-02",
    ]);
    expect(byId.code).toBe(0);
    expect(byId.out).toContain("Published: 0 · unchanged: 1 · no menu: 0");
    const tooLong = await mesaInProcess(ws, [
      "menu:publish",
      "--cafe",
      String(cafe),
      "--from",
      "2026-01-01",
      "--to",
      "2026-12-31",
    ]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.err).toContain("Publish at most 62 days at once.");
    const unknown = await mesaInProcess(ws, [
      "menu:publish",
      "--cafe",
      "Nowhere",
      "--from",
      "2026-03-01",
      "--to",
      "2026-03-01",
    ]);
    expect(unknown.code).toBe(2);
  });
});
