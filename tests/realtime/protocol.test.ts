/**
 * The embedded Pusher-protocol (7) server, checked with the real clients: pusher-js (the browser's library, run
 * here in Bun), raw WebSockets where pusher-js hides the frames, and the `pusher` server SDK for the HTTP API.
 * Also Mesa's own authorization endpoints (/broadcasting/auth, /broadcasting/user-auth) and the sign-out signal
 * sent when a user is deactivated.
 *
 * Every test runs its own Mesa on a free loopback port (PUSHER_HOST/PORT point at it, so the app's broadcaster
 * publishes to it) and stops it afterwards. docs/realtime.md maps each protocol rule to the test that checks it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createHash, createHmac } from "node:crypto";
import Pusher from "pusher-js";
import PusherServer from "pusher";
import { permissions as permissionsTable, rolePermissions, roles as rolesTable } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { migratedDatabase } from "../support/database";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { bumpAccessVersion } from "../../src/domain/access/authorization";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { findUserById, type User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createApp } from "../../src/http/app";
import { declaredPermissions, routes as productRoutes } from "../../src/http/routes";
import { createServices } from "../../src/http/services";
import { realtimeCredentials } from "../../src/realtime/broadcaster";
import { authorizeChannel, CHANNEL_RULES, type ChannelRule } from "../../src/realtime/channels";
import { EmbeddedPusherServer, MAX_FRAME_BYTES, type EmbeddedOptions } from "../../src/realtime/embedded-server";
import { channelAuth, userAuth, type AppCredentials } from "../../src/realtime/signatures";
import { BASE, Client, createTestApp, testConfig, type TestApp } from "../support/app";
import { addUser } from "../support/people";
import { signedIn } from "../support/requests";

type Json = Record<string, any>;

// ——— One Mesa per test, on a free loopback port ———

/** Run after each test, last registered first (clients close before their server stops). */
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch {}
  }
});

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
}

interface Harness {
  port: number;
  /** http://127.0.0.1:{port} */
  origin: string;
  testApp: TestApp;
  realtime: EmbeddedPusherServer;
  creds: AppCredentials;
  /** The `pusher` server SDK pointed at this server. */
  sdk: PusherServer;
}

/** Starts Mesa on a free port; `realtime` overrides the embedded server's options (short timeouts and such). */
async function startServer(
  options: { realtime?: Partial<EmbeddedOptions>; startTimer?: boolean } = {},
): Promise<Harness> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The broadcaster publishes where PUSHER_HOST/PORT say: this server.
  const config = testConfig({
    APP_URL: origin,
    PUSHER_HOST: "127.0.0.1",
    PUSHER_PORT: String(port),
    PUSHER_SCHEME: "http",
  });
  const db = migratedDatabase();
  const creds = realtimeCredentials(config, config.appKey!);
  const realtime = new EmbeddedPusherServer(creds, options.realtime);
  const services = createServices(config, db, { routes: productRoutes, realtime });
  expect(services.realtimeApp).toEqual(creds);
  const app = createApp(services);
  app.listen({ port, hostname: "127.0.0.1" });
  if (options.startTimer) realtime.start();
  cleanups.push(async () => {
    realtime.stop();
    await app.stop(true);
  });
  const testApp: TestApp = {
    app,
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes: productRoutes,
  };
  const sdk = new PusherServer({
    appId: creds.id,
    key: creds.key,
    secret: creds.secret,
    host: "127.0.0.1",
    port: String(port),
    useTLS: false,
  });
  return { port, origin, testApp, realtime, creds, sdk };
}

/** Polls `check` until it returns something truthy (or passes without throwing). */
async function eventually<T>(check: () => T | Promise<T>, what = "condition", timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await Bun.sleep(10);
  }
  throw last instanceof Error ? last : new Error(`timed out waiting for ${what}`);
}

// ——— Raw WebSocket: sees every frame ———

class RawSocket {
  readonly frames: Json[] = [];
  private readonly taken = new Set<number>();
  closeEvent: { code: number; reason: string } | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => this.frames.push(JSON.parse(String(event.data))));
    this.closed = new Promise((resolve) =>
      ws.addEventListener("close", (event) => {
        this.closeEvent = { code: event.code, reason: event.reason };
        resolve(this.closeEvent);
      }),
    );
  }

  /** Opens `/app/{key}?{query}` (or another `path`) and waits until the socket is open (not for the handshake). */
  static async open(
    h: Harness,
    options: { key?: string; path?: string; query?: string; headers?: Record<string, string> } = {},
  ): Promise<RawSocket> {
    const path = options.path ?? `/app/${options.key ?? h.creds.key}`;
    const url = `ws://127.0.0.1:${h.port}${path}?${options.query ?? "protocol=7&client=raw&version=1.0"}`;
    // Bun's WebSocket takes request headers (X-Forwarded-For, as a reverse proxy would add).
    const ws = options.headers ? new WebSocket(url, { headers: options.headers } as never) : new WebSocket(url);
    const socket = new RawSocket(ws);
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.close());
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve());
      ws.addEventListener("error", () => reject(new Error("WebSocket failed to open")));
    });
    return socket;
  }

  /** Opens a connection and returns it with its socket id, after pusher:connection_established. */
  static async connect(h: Harness, headers?: Record<string, string>): Promise<RawSocket & { socketId: string }> {
    const socket = await RawSocket.open(h, { headers });
    const established = await socket.next((f) => f.event === "pusher:connection_established");
    return Object.assign(socket, { socketId: JSON.parse(established.data).socket_id as string });
  }

  send(event: string, data: unknown, channel?: string): void {
    this.ws.send(JSON.stringify(channel === undefined ? { event, data } : { event, channel, data }));
  }

  /** The first frame not yet taken that matches (waiting for it if need be); takes it. */
  async next(match: (frame: Json) => boolean, timeoutMs = 3000): Promise<Json> {
    return eventually<Json | null>(
      () => {
        const index = this.frames.findIndex((frame, i) => !this.taken.has(i) && match(frame));
        if (index === -1) return null;
        this.taken.add(index);
        return this.frames[index];
      },
      "a matching frame",
      timeoutMs,
    ) as Promise<Json>;
  }

  /** Frames with this event name received so far. */
  all(event: string): Json[] {
    return this.frames.filter((f) => f.event === event);
  }

  /** Round trip: every frame the server queued for this socket before now has arrived. */
  async sync(): Promise<void> {
    const before = this.all("pusher:pong").length;
    this.send("pusher:ping", {});
    await eventually(() => this.all("pusher:pong").length > before, "pusher:pong");
  }

  /** pusher:subscribe, waiting for the answer (succeeded or error). */
  async subscribe(channel: string, extra: Json = {}): Promise<Json> {
    this.send("pusher:subscribe", { channel, ...extra });
    return this.next(
      (f) =>
        f.channel === channel &&
        (f.event === "pusher_internal:subscription_succeeded" || f.event === "pusher:subscription_error"),
    );
  }
}

/** A frame's data: the protocol carries it as a JSON string (usually) or an object. */
function dataOf(frame: Json): any {
  return typeof frame.data === "string" ? JSON.parse(frame.data) : frame.data;
}

// ——— pusher-js ———

type PusherOptions = ConstructorParameters<typeof Pusher>[1];

function pusherClient(h: Harness, options: Partial<PusherOptions> = {}, key = h.creds.key): Pusher {
  const client = new Pusher(key, {
    wsHost: "127.0.0.1",
    wsPort: h.port,
    forceTLS: false,
    enabledTransports: ["ws"],
    cluster: "mt1",
    ...options,
  } as PusherOptions);
  cleanups.push(() => client.disconnect());
  return client;
}

async function connected(client: Pusher): Promise<string> {
  await eventually(() => client.connection.state === "connected", "pusher-js to connect");
  return client.connection.socket_id;
}

/** Signs channel subscriptions the way Mesa's endpoint would (src/realtime/signatures.ts), as `userId` on presence channels. */
function signingClient(
  h: Harness,
  user: { id: string; info?: unknown } | null = null,
  options: Partial<PusherOptions> = {},
): Pusher {
  return pusherClient(h, {
    channelAuthorization: {
      customHandler: (
        { socketId, channelName }: { socketId: string; channelName: string },
        callback: (error: Error | null, data: Json | null) => void,
      ) => {
        if (channelName.startsWith("presence-")) {
          const channelData = JSON.stringify({ user_id: user?.id ?? "anonymous", user_info: user?.info ?? {} });
          callback(null, { auth: channelAuth(h.creds, socketId, channelName, channelData), channel_data: channelData });
        } else callback(null, { auth: channelAuth(h.creds, socketId, channelName) });
      },
    },
    userAuthentication: {
      customHandler: (
        { socketId }: { socketId: string },
        callback: (error: Error | null, data: Json | null) => void,
      ) => {
        const userData = JSON.stringify({ id: user?.id ?? "anonymous", user_info: user?.info ?? {} });
        callback(null, { auth: userAuth(h.creds, socketId, userData), user_data: userData });
      },
    },
    ...options,
  } as Partial<PusherOptions>);
}

/** Subscribes and waits for pusher:subscription_succeeded (or fails on pusher:subscription_error). */
async function joined(client: Pusher, name: string): Promise<any> {
  const channel = client.subscribe(name);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to the subscription to ${name}`)), 3000);
    channel.bind("pusher:subscription_succeeded", (_data: unknown) => {
      clearTimeout(timer);
      resolve(channel);
    });
    channel.bind("pusher:subscription_error", (error: unknown) => {
      clearTimeout(timer);
      reject(new Error(`subscription to ${name} failed: ${JSON.stringify(error)}`));
    });
  });
}

/** Every event a channel receives (besides pusher: internals), in order. */
function record(channel: {
  bind_global: (cb: (event: string, data: any) => void) => unknown;
}): { event: string; data: any }[] {
  const seen: { event: string; data: any }[] = [];
  channel.bind_global((event: string, data: any) => {
    if (!event.startsWith("pusher:") && !event.startsWith("pusher_internal:")) seen.push({ event, data });
  });
  return seen;
}

let syncCounter = 0;

/**
 * Round trip for a pusher-js client: a marker event on a public channel, published after whatever the test did,
 * arrives after anything that action sent this client. Used to show that something did NOT arrive.
 */
async function syncClient(h: Harness, client: Pusher): Promise<void> {
  const name = "sync";
  const channel = client.channel(name) ?? (await joined(client, name));
  const marker = `m${++syncCounter}`;
  const got = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("sync marker did not arrive")), 3000);
    const handler = (data: { marker: string }) => {
      if (data.marker !== marker) return;
      clearTimeout(timer);
      channel.unbind("marker", handler);
      resolve();
    };
    channel.bind("marker", handler);
  });
  await h.sdk.trigger(name, "marker", { marker });
  await got;
}

/**
 * Three pusher-js connections on presence-cafe.1: `a` as user 1, `b` and `c` both as user 2 (two users, three
 * connections); `a` is also on the public channel "orders".
 */
async function onCafePresence(h: Harness): Promise<{ a: Pusher; b: Pusher; c: Pusher }> {
  const a = signingClient(h, { id: "1" });
  const b = signingClient(h, { id: "2" });
  const c = signingClient(h, { id: "2" });
  await Promise.all([connected(a), connected(b), connected(c)]);
  for (const client of [a, b, c]) await joined(client, "presence-cafe.1");
  await joined(a, "orders");
  return { a, b, c };
}

/** Lets the server see that a connection closed (its close frame is processed asynchronously). */
async function untilConnections(h: Harness, count: number): Promise<void> {
  await eventually(() => h.realtime.connectionCount === count, `${count} connections`);
}

// ——— The HTTP API, signed by hand (independently of the implementation) ———

function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** A request to `/apps/{id}{path}`, signed like the protocol says, with the chance to spoil each part. */
async function api(
  h: Harness,
  method: "GET" | "POST",
  path: string,
  options: {
    params?: Record<string, string>;
    body?: unknown;
    appId?: string;
    key?: string;
    secret?: string;
    timestamp?: number;
    sendBody?: string;
    spoil?: (query: URLSearchParams) => void;
  } = {},
): Promise<Response> {
  const fullPath = `/apps/${options.appId ?? h.creds.id}${path}`;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const params: Record<string, string> = {
    ...options.params,
    auth_key: options.key ?? h.creds.key,
    auth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: "1.0",
  };
  if (body !== undefined) params.body_md5 = md5(body);
  // The reference signs the query with its keys in lowercase, sorted.
  const sorted = Object.keys(params)
    .map((k) => [k.toLowerCase(), params[k]])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const signature = createHmac("sha256", options.secret ?? h.creds.secret)
    .update([method, fullPath, sorted].join("\n"))
    .digest("hex");
  const query = new URLSearchParams({ ...params, auth_signature: signature });
  options.spoil?.(query);
  return fetch(`${h.origin}${fullPath}?${query}`, {
    method,
    body: options.sendBody ?? body,
    headers: body === undefined ? {} : { "content-type": "application/json" },
  });
}

// ——— Accounts, places and signing in (a smaller version of tests/http/access-control.test.ts) ———

interface World {
  cafeA: number;
  cafeB: number;
  root: User;
  staffA: User;
  staffB: User;
}

/** Business X with cafe A (Sara works there), business Y with cafe B (Beto); Raíz is the super-administrator. */
async function buildWorld(app: TestApp): Promise<World> {
  const db = app.db;
  bootstrapAccess(db);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const staff = db.insert(rolesTable).values({ name: "cashier" }).returning().get().id;
  bumpAccessVersion(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  const area = (name: string, place: { cafe_id?: number; headquarters_id?: number }, roleIds: number[]) =>
    createArea(db, CLI_ACTOR, EVERYTHING, { name, ...place, role_ids: roleIds }).id;
  const sede = area("Administración X", { headquarters_id: x.headquartersId }, [superRole]);
  const cajaA = area("Caja A", { cafe_id: cafeA }, [staff]);
  const cajaB = area("Caja B", { cafe_id: cafeB }, [staff]);
  const person = async (name: string, email: string, areaId: number, roleId: number) => {
    const user = await addUser(db, name, email);
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    return user;
  };
  return {
    cafeA,
    cafeB,
    root: await person("Raíz Super", "root@mesa.test", sede, superRole),
    staffA: await person("Sara Caja", "staff.a@mesa.test", cajaA, staff),
    staffB: await person("Beto Caja", "staff.b@mesa.test", cajaB, staff),
  };
}

/** What the browser sends to /broadcasting/auth: a form with the socket id and channel name. */
function authRequest(
  client: Client,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = { accept: "application/json" },
): Promise<Response> {
  return client.request(path, {
    method: "POST",
    body: new URLSearchParams(form).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

function cookieHeader(client: Client): string {
  return [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
}

/**
 * pusher-js in Bun uses node-XMLHttpRequest for its auth requests, which refuses to set a Cookie header (a
 * browser sends the cookie by itself). This lets the headersProvider send it, as the browser would.
 */
function letPusherJsSendCookies(): void {
  const runtime = (Pusher as any).Runtime;
  const original = runtime.getXHRAPI;
  const Base = original.call(runtime);
  runtime.getXHRAPI = () =>
    function CookieXHR(this: any) {
      Base.call(this);
      this.setDisableHeaderCheck(true);
    };
  cleanups.push(() => (runtime.getXHRAPI = original));
}

/** pusher-js authorized by Mesa's real endpoints, as `client` (its session cookie and CSRF token). */
function browserClient(h: Harness, client: Client): Pusher {
  letPusherJsSendCookies();
  // Like resources/js/lib/realtime.ts, plus the cookie the browser would send by itself.
  const headersProvider = () => ({
    Cookie: cookieHeader(client),
    "X-XSRF-TOKEN": client.cookies.get("XSRF-TOKEN")!,
    Accept: "application/json",
  });
  return pusherClient(h, {
    channelAuthorization: { endpoint: `${h.origin}/broadcasting/auth`, transport: "ajax", headersProvider },
    userAuthentication: { endpoint: `${h.origin}/broadcasting/user-auth`, transport: "ajax", headersProvider },
  } as Partial<PusherOptions>);
}

// ═══════════════════════════════════════════════════════════════════════════════════════════════════════════

describe("connection", () => {
  test("connection_established carries a socket id like 123.456 and activity_timeout 120", async () => {
    const h = await startServer();
    const raw = await RawSocket.open(h);
    const frame = await raw.next((f) => f.event === "pusher:connection_established");
    expect(typeof frame.data).toBe("string"); // the protocol sends data as a JSON string
    const data = dataOf(frame);
    expect(data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(data.activity_timeout).toBe(120);

    const client = pusherClient(h);
    expect(await connected(client)).toMatch(/^\d+\.\d+$/);
    expect(client.connection.socket_id).not.toBe(data.socket_id);
    await untilConnections(h, 2);

    // A plain HTTP request to the WebSocket path is not upgraded.
    expect((await fetch(`${h.origin}/app/${h.creds.key}?protocol=7`)).status).toBe(400);
  });

  test("an unknown app key gets pusher:error 4001 and close 4001", async () => {
    const h = await startServer();
    const raw = await RawSocket.open(h, { key: "not-the-key" });
    const error = await raw.next((f) => f.event === "pusher:error");
    expect(dataOf(error).code).toBe(4001);
    expect((await raw.closed).code).toBe(4001);
    expect(h.realtime.connectionCount).toBe(0);

    // pusher-js reports it and does not retry (4000–4099: refused).
    const client = pusherClient(h, {}, "not-the-key");
    const errors: any[] = [];
    client.connection.bind("error", (e: any) => errors.push(e));
    await eventually(() => errors.some((e) => e?.error?.data?.code === 4001), "pusher-js to report 4001");
    await eventually(
      () => client.connection.state === "disconnected" || client.connection.state === "failed",
      "pusher-js to give up",
    );
  });

  test("a WebSocket on any path but /app/{key} gets pusher:error 4005 (path not found) and close 4005", async () => {
    const h = await startServer();
    for (const path of ["/app", "/app/", `/app/${h.creds.key}/extra`, `/ws/app/${h.creds.key}`, "/nothing-here"]) {
      const raw = await RawSocket.open(h, { path });
      const error = await raw.next((f) => f.event === "pusher:error");
      expect({ path, code: dataOf(error).code, message: dataOf(error).message }).toEqual({
        path,
        code: 4005,
        message: expect.stringContaining("/app/{key}"),
      });
      expect((await raw.closed).code).toBe(4005);
    }
    expect(h.realtime.connectionCount).toBe(0);
    // Without an upgrade the same paths are ordinary pages (a 404).
    expect((await fetch(`${h.origin}/app/${h.creds.key}/extra`)).status).toBe(404);

    // pusher-js configured with a wrong wsPath reports 4005 and gives up (4000–4099: refused).
    const client = pusherClient(h, { wsPath: "/ws" });
    const errors: any[] = [];
    client.connection.bind("error", (e: any) => errors.push(e));
    await eventually(() => errors.some((e) => e?.error?.data?.code === 4005), "pusher-js to report 4005");
    await eventually(
      () => client.connection.state === "disconnected" || client.connection.state === "failed",
      "pusher-js to give up",
    );
  });

  test("a missing protocol version gets 4008, an unsupported one 4007", async () => {
    const h = await startServer();
    const none = await RawSocket.open(h, { query: "client=raw" });
    expect(dataOf(await none.next((f) => f.event === "pusher:error")).code).toBe(4008);
    expect((await none.closed).code).toBe(4008);

    for (const version of ["4", "8"]) {
      const old = await RawSocket.open(h, { query: `protocol=${version}` });
      expect(dataOf(await old.next((f) => f.event === "pusher:error")).code).toBe(4007);
      expect((await old.closed).code).toBe(4007);
    }
    // 5, 6 and 7 are served.
    for (const version of ["5", "6", "7"]) {
      const ok = await RawSocket.open(h, { query: `protocol=${version}` });
      await ok.next((f) => f.event === "pusher:connection_established");
    }
  });

  // Pusher's close codes: 4006 "Invalid version string format", 4008 "No protocol version supplied".
  // src/realtime/embedded-server.ts upgrade() turns "protocol=abc" into NaN and onOpen() reports it as missing (4008).
  test("a malformed protocol version gets 4006, not 'no protocol version' 4008", async () => {
    const h = await startServer();
    const bad = await RawSocket.open(h, { query: "protocol=abc" });
    expect(dataOf(await bad.next((f) => f.event === "pusher:error")).code).toBe(4006);
  });

  test("pusher:ping is answered with pusher:pong", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    raw.send("pusher:ping", {});
    const pong = await raw.next((f) => f.event === "pusher:pong");
    expect(pong.channel).toBeUndefined();
    // Also with the data as a string, as pusher-js sends it.
    raw.ws.send(JSON.stringify({ event: "pusher:ping", data: "{}" }));
    await raw.next((f) => f.event === "pusher:pong");
  });

  test("malformed messages and unknown events get pusher:error (code null) and the connection stays open", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    for (const message of [
      "not json",
      "[]",
      JSON.stringify({ data: {} }),
      JSON.stringify({ event: "pusher:nonsense", data: {} }),
      JSON.stringify({ event: "hello", data: {} }),
    ]) {
      raw.ws.send(message);
      const error = await raw.next((f) => f.event === "pusher:error");
      expect({ message, code: dataOf(error).code }).toEqual({ message, code: null });
    }
    await raw.sync();
    expect(raw.closeEvent).toBeNull();
  });
});

describe("liveness", () => {
  test("an idle connection is pinged after activity_timeout and closed with 4201 when it stays silent", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    const start = Date.now();
    h.realtime.checkLiveness(start + 60_000);
    await raw.sync();
    expect(raw.all("pusher:ping")).toHaveLength(0); // not idle long enough yet; sync() itself counts as activity

    const later = Date.now() + 120_001;
    h.realtime.checkLiveness(later);
    await raw.next((f) => f.event === "pusher:ping");
    h.realtime.checkLiveness(later + 30_000); // within the pong timeout: nothing happens
    await Bun.sleep(20);
    expect(raw.closeEvent).toBeNull();
    h.realtime.checkLiveness(later + 30_001);
    expect(await raw.closed).toEqual({ code: 4201, reason: expect.any(String) });
    await untilConnections(h, 0);
  });

  test("a connection that answers the ping (pusher-js does) stays open", async () => {
    const h = await startServer();
    const client = pusherClient(h);
    await connected(client);
    const later = Date.now() + 120_001;
    h.realtime.checkLiveness(later);
    // pusher-js answers pusher:ping with pusher:pong; wait until the server has seen it (its own bookkeeping).
    const connection = () => [...(h.realtime as any).connections.values()][0] as { pingSentAt: number | null };
    await eventually(() => connection().pingSentAt !== null, "the server to ping");
    await eventually(() => connection().pingSentAt === null, "pusher-js to answer the ping");
    h.realtime.checkLiveness(later + 30_001);
    await syncClient(h, client);
    expect(client.connection.state).toBe("connected");
    expect(h.realtime.connectionCount).toBe(1);

    // A raw client that answers with pusher:pong is kept too.
    const raw = await RawSocket.connect(h);
    const t = Date.now() + 120_001;
    h.realtime.checkLiveness(t);
    await raw.next((f) => f.event === "pusher:ping");
    raw.send("pusher:pong", {});
    await raw.sync();
    h.realtime.checkLiveness(t + 30_001);
    await raw.sync();
    expect(raw.closeEvent).toBeNull();
  });

  test("with short timeouts the liveness timer pings and then closes a silent connection on its own", async () => {
    const h = await startServer({
      realtime: { activityTimeout: 0.2, pongTimeout: 0.2, checkIntervalMs: 25 },
      startTimer: true,
    });
    const raw = await RawSocket.open(h);
    expect(dataOf(await raw.next((f) => f.event === "pusher:connection_established")).activity_timeout).toBe(0.2);
    const opened = Date.now();
    await raw.next((f) => f.event === "pusher:ping", 2000);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(150);
    expect((await raw.closed).code).toBe(4201);
  });
});

describe("channels and signatures", () => {
  test("a public channel needs no signature; events triggered through the SDK reach it", async () => {
    const h = await startServer();
    const client = pusherClient(h);
    await connected(client);
    const channel = await joined(client, "orders");
    const seen = record(channel);
    await h.sdk.trigger("orders", "created", { id: 7 });
    await eventually(() => seen.length === 1, "the event");
    expect(seen).toEqual([{ event: "created", data: { id: 7 } }]);
  });

  test("private and presence channels with valid signatures (channelAuth) are joined", async () => {
    const h = await startServer();
    const client = signingClient(h, { id: "5", info: { name: "Ana" } });
    await connected(client);
    const priv = await joined(client, "private-orders");
    const seen = record(priv);
    await h.sdk.trigger("private-orders", "paid", { id: 1 });
    await eventually(() => seen.length === 1, "the private event");

    const presence: any = await joined(client, "presence-room");
    expect(presence.members.count).toBe(1);
    expect(presence.members.me).toEqual({ id: "5", info: { name: "Ana" } });

    // Raw frames: the presence answer carries ids, hash and count (as a JSON string).
    const raw = await RawSocket.connect(h);
    const channelData = JSON.stringify({ user_id: 6, user_info: { name: "Beto" } });
    const answer = await raw.subscribe("presence-room", {
      auth: channelAuth(h.creds, raw.socketId, "presence-room", channelData),
      channel_data: channelData,
    });
    expect(answer.event).toBe("pusher_internal:subscription_succeeded");
    expect(dataOf(answer)).toEqual({
      presence: { ids: ["5", "6"], hash: { "5": { name: "Ana" }, "6": { name: "Beto" } }, count: 2 },
    });
    const priv2 = await raw.subscribe("private-orders", { auth: channelAuth(h.creds, raw.socketId, "private-orders") });
    expect(priv2.event).toBe("pusher_internal:subscription_succeeded");
  });

  test("a forged signature gets pusher:subscription_error (pusher-js reports it) and no events", async () => {
    const h = await startServer();
    const forged = pusherClient(h, {
      channelAuthorization: {
        customHandler: (
          { socketId, channelName }: { socketId: string; channelName: string },
          callback: (e: Error | null, d: Json | null) => void,
        ) => callback(null, { auth: channelAuth({ ...h.creds, secret: "not-the-secret" }, socketId, channelName) }),
      },
    } as Partial<PusherOptions>);
    await connected(forged);
    const channel = forged.subscribe("private-orders");
    const seen = record(channel);
    const error = await new Promise<any>((resolve) => channel.bind("pusher:subscription_error", resolve));
    expect(error).toMatchObject({ type: "AuthError", status: 401 });
    expect((channel as any).subscribed).toBe(false);
    await h.sdk.trigger("private-orders", "paid", { id: 1 });
    await syncClient(h, forged);
    expect(seen).toEqual([]);

    // Raw: a signature for another socket (replayed), for another channel, with another key, or none at all.
    const raw = await RawSocket.connect(h);
    const other = await RawSocket.connect(h);
    const attempts: [string, Json][] = [
      ["private-orders", { auth: channelAuth(h.creds, other.socketId, "private-orders") }],
      ["private-orders", { auth: channelAuth(h.creds, raw.socketId, "private-other") }],
      ["private-orders", { auth: channelAuth({ ...h.creds, key: "other-key" }, raw.socketId, "private-orders") }],
      ["private-orders", {}],
      [
        "presence-room",
        {
          auth: channelAuth(h.creds, raw.socketId, "presence-room", '{"user_id":"1"}'),
          channel_data: '{"user_id":"2"}',
        },
      ],
      ["presence-room", { auth: channelAuth(h.creds, raw.socketId, "presence-room"), channel_data: '{"user_id":"1"}' }],
    ];
    for (const [name, extra] of attempts) {
      const answer = await raw.subscribe(name, extra);
      expect({ name, extra, event: answer.event, data: answer.data }).toEqual({
        name,
        extra,
        event: "pusher:subscription_error",
        data: { type: "AuthError", error: expect.any(String), status: 401 },
      });
    }
    await h.sdk.trigger(["private-orders", "presence-room"], "paid", { id: 2 });
    await raw.sync();
    expect(raw.frames.filter((f) => f.event === "paid")).toEqual([]);
    const channels = (await (await h.sdk.get({ path: "/channels" })).json()) as Json;
    expect(Object.keys(channels.channels)).toEqual(["sync"]);
  });

  test("a presence signature must carry channel_data with a user_id; bad channel names are refused", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    const noUser = JSON.stringify({ user_info: { name: "x" } });
    const answer = await raw.subscribe("presence-room", {
      auth: channelAuth(h.creds, raw.socketId, "presence-room", noUser),
      channel_data: noUser,
    });
    expect(answer).toMatchObject({ event: "pusher:subscription_error", data: { status: 400 } });
    for (const name of ["", "has space", "x".repeat(201), "slash/no"]) {
      expect((await raw.subscribe(name)).event).toBe("pusher:subscription_error");
    }
  });

  test("channel names hold at most 164 characters of A-Z a-z 0-9 _ - = @ , . ; (# only in #server-to-user-{id}); others get pusher:subscription_error 4009 and the connection is kept", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    const longest = `orders-${"x".repeat(157)}`;
    expect(longest).toHaveLength(164);
    expect((await raw.subscribe(longest)).event).toBe("pusher_internal:subscription_succeeded");
    expect((await raw.subscribe("A-z_0=9@,.;")).event).toBe("pusher_internal:subscription_succeeded");

    const tooLong = await raw.subscribe(`${longest}x`);
    expect(tooLong).toEqual({
      event: "pusher:subscription_error",
      channel: `${longest}x`,
      data: { type: "LimitReached", error: expect.stringContaining("164"), status: 4009 },
    });
    for (const name of ["", "foo#bar", "#other", "#server-to-user-", "café", "has space", "slash/no", "tab\tname"]) {
      const answer = await raw.subscribe(name);
      expect({ name, answer }).toEqual({
        name,
        answer: {
          event: "pusher:subscription_error",
          channel: name,
          data: { type: "InvalidChannelName", error: expect.any(String), status: 4009 },
        },
      });
    }
    await raw.sync();
    expect(raw.closeEvent).toBeNull();
    const listed = (await (await h.sdk.get({ path: "/channels" })).json()) as Json;
    expect(Object.keys(listed.channels).sort()).toEqual(["A-z_0=9@,.;", longest]);

    // pusher-js reports the refusal on the channel (Echo's .error()).
    const client = pusherClient(h);
    await connected(client);
    const refused = await joined(client, `${longest}x`).catch((error: Error) => error.message);
    expect(refused).toContain('"status":4009');
  });

  test("the per-user channel #server-to-user-{id} is only for a connection signed in as that user", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    expect(await raw.subscribe("#server-to-user-5")).toMatchObject({
      event: "pusher:subscription_error",
      data: { status: 401 },
    });
    const userData = JSON.stringify({ id: "5" });
    raw.send("pusher:signin", { auth: userAuth(h.creds, raw.socketId, userData), user_data: userData });
    await raw.next((f) => f.event === "pusher:signin_success");
    expect((await raw.subscribe("#server-to-user-6")).event).toBe("pusher:subscription_error");
    expect((await raw.subscribe("#server-to-user-5")).event).toBe("pusher_internal:subscription_succeeded");
  });
});

describe("presence", () => {
  test("member_added only for a new user id; member_removed only when the user's last connection leaves", async () => {
    const h = await startServer();
    const ana = signingClient(h, { id: "1", info: { name: "Ana" } });
    await connected(ana);
    const anaRoom: any = await joined(ana, "presence-cafe.1");
    const added: any[] = [];
    const removed: any[] = [];
    anaRoom.bind("pusher:member_added", (m: any) => added.push(m));
    anaRoom.bind("pusher:member_removed", (m: any) => removed.push(m));

    const beto1 = signingClient(h, { id: "2", info: { name: "Beto" } });
    await connected(beto1);
    const betoRoom1: any = await joined(beto1, "presence-cafe.1");
    await eventually(() => added.length === 1, "member_added");
    expect(added).toEqual([{ id: "2", info: { name: "Beto" } }]);
    expect(anaRoom.members.count).toBe(2);
    expect(betoRoom1.members.count).toBe(2);
    const betoAdded: any[] = [];
    betoRoom1.bind("pusher:member_added", (m: any) => betoAdded.push(m));

    // Beto's second tab: he is already there, nobody is told again; the tab sees both members.
    const beto2 = signingClient(h, { id: "2", info: { name: "Beto" } });
    await connected(beto2);
    const betoRoom2: any = await joined(beto2, "presence-cafe.1");
    expect(betoRoom2.members.count).toBe(2);
    const ids: string[] = [];
    betoRoom2.members.each((m: any) => ids.push(m.id));
    expect(ids.sort()).toEqual(["1", "2"]);
    await syncClient(h, ana);
    await syncClient(h, beto1);
    expect(added).toHaveLength(1);
    expect(betoAdded).toHaveLength(0);
    const users = (await (await h.sdk.get({ path: "/channels/presence-cafe.1/users" })).json()) as Json;
    expect(users.users.map((u: Json) => u.id).sort()).toEqual(["1", "2"]);

    // One of Beto's tabs closes: he is still there.
    beto2.disconnect();
    await untilConnections(h, 2);
    await syncClient(h, ana);
    expect(removed).toEqual([]);
    expect(anaRoom.members.count).toBe(2);

    // His last one leaves (unsubscribing): now he is gone.
    beto1.unsubscribe("presence-cafe.1");
    await eventually(() => removed.length === 1, "member_removed");
    expect(removed).toEqual([{ id: "2", info: { name: "Beto" } }]);
    expect(anaRoom.members.count).toBe(1);
    const after = (await (await h.sdk.get({ path: "/channels/presence-cafe.1/users" })).json()) as Json;
    expect(after.users).toEqual([{ id: "1" }]);
  });

  test("a member's own connection is not told about itself; closing the connection removes the member", async () => {
    const h = await startServer();
    const a = await RawSocket.connect(h);
    const b = await RawSocket.connect(h);
    const join = (s: RawSocket & { socketId: string }, id: string) => {
      const data = JSON.stringify({ user_id: id, user_info: { n: id } });
      return s.subscribe("presence-x", {
        auth: channelAuth(h.creds, s.socketId, "presence-x", data),
        channel_data: data,
      });
    };
    await join(a, "1");
    await join(b, "2");
    const addedFrame = await a.next((f) => f.event === "pusher_internal:member_added");
    expect(addedFrame.channel).toBe("presence-x");
    expect(dataOf(addedFrame)).toEqual({ user_id: "2", user_info: { n: "2" } });
    await b.sync();
    expect(b.all("pusher_internal:member_added")).toEqual([]);
    b.ws.close();
    const removedFrame = await a.next((f) => f.event === "pusher_internal:member_removed");
    expect(dataOf(removedFrame)).toEqual({ user_id: "2" });
  });
});

describe("client events", () => {
  test("client events reach the other subscribers of a private channel, never the sender", async () => {
    const h = await startServer();
    const a = signingClient(h, { id: "1" });
    const b = signingClient(h, { id: "2" });
    await Promise.all([connected(a), connected(b)]);
    const chA: any = await joined(a, "private-chat");
    const chB: any = await joined(b, "private-chat");
    const seenA = record(chA);
    const seenB = record(chB);
    expect(chA.trigger("client-typing", { who: "a" })).toBe(true);
    await eventually(() => seenB.length === 1, "the client event");
    expect(seenB).toEqual([{ event: "client-typing", data: { who: "a" } }]);
    await syncClient(h, a);
    expect(seenA).toEqual([]);
  });

  test("on a presence channel a client event carries the sender's user_id", async () => {
    const h = await startServer();
    const a = signingClient(h, { id: "11" });
    const b = signingClient(h, { id: "22" });
    await Promise.all([connected(a), connected(b)]);
    const chA: any = await joined(a, "presence-chat");
    const chB: any = await joined(b, "presence-chat");
    const got = new Promise<any>((resolve) =>
      chB.bind("client-hello", (data: any, metadata: any) => resolve({ data, metadata })),
    );
    chA.trigger("client-hello", { hi: true });
    expect(await got).toEqual({ data: { hi: true }, metadata: { user_id: "11" } });

    // On a private channel there is no user_id.
    const raw1 = await RawSocket.connect(h);
    const raw2 = await RawSocket.connect(h);
    for (const s of [raw1, raw2])
      await s.subscribe("private-p", { auth: channelAuth(h.creds, s.socketId, "private-p") });
    raw1.send("client-x", { n: 1 }, "private-p");
    const frame = await raw2.next((f) => f.event === "client-x");
    expect(frame).toEqual({ event: "client-x", channel: "private-p", data: { n: 1 } });
  });

  test("client events on a public channel, or on a channel the sender has not joined, are refused and not delivered", async () => {
    const h = await startServer();
    const sender = await RawSocket.connect(h);
    const listener = await RawSocket.connect(h);
    await sender.subscribe("public-room");
    await listener.subscribe("public-room");
    await listener.subscribe("private-p", { auth: channelAuth(h.creds, listener.socketId, "private-p") });

    sender.send("client-x", { n: 1 }, "public-room");
    expect(dataOf(await sender.next((f) => f.event === "pusher:error")).message).toMatch(/private or presence/);
    sender.send("client-x", { n: 2 }, "private-p"); // not subscribed
    await sender.next((f) => f.event === "pusher:error");
    // pusher-js sends them anyway (it only checks the client- prefix) and reports the server's refusal.
    const js = pusherClient(h);
    await connected(js);
    const errors: any[] = [];
    js.connection.bind("error", (e: any) => errors.push(e));
    const pub: any = await joined(js, "public-room");
    expect(pub.trigger("client-x", { n: 3 })).toBe(true);
    await eventually(() => errors.length === 1, "pusher-js to report the refusal");
    expect(errors[0]).toMatchObject({
      type: "PusherError",
      data: { code: null, message: expect.stringMatching(/private or presence/) },
    });
    await syncClient(h, js);
    expect(js.connection.state).toBe("connected");

    await sender.sync();
    await listener.sync();
    expect(listener.frames.filter((f) => f.event === "client-x")).toEqual([]);
    expect(sender.closeEvent).toBeNull();
  });

  test("client events are never relayed on private-encrypted- channels, nor with a name over 200 characters", async () => {
    const h = await startServer();
    const sender = await RawSocket.connect(h);
    const listener = await RawSocket.connect(h);
    for (const s of [sender, listener])
      for (const channel of ["private-encrypted-orders", "private-p"])
        expect((await s.subscribe(channel, { auth: channelAuth(h.creds, s.socketId, channel) })).event).toBe(
          "pusher_internal:subscription_succeeded",
        );

    sender.send("client-x", { n: 1 }, "private-encrypted-orders");
    expect(dataOf(await sender.next((f) => f.event === "pusher:error"))).toEqual({
      code: null,
      message: expect.stringMatching(/encrypted/),
    });
    const longest = `client-${"e".repeat(193)}`;
    expect(longest).toHaveLength(200);
    sender.send(`${longest}e`, { n: 2 }, "private-p");
    expect(dataOf(await sender.next((f) => f.event === "pusher:error"))).toEqual({
      code: null,
      message: expect.stringContaining("200"),
    });
    sender.send(longest, { n: 3 }, "private-p");
    expect(await listener.next((f) => f.event === longest)).toEqual({
      event: longest,
      channel: "private-p",
      data: { n: 3 },
    });

    await sender.sync();
    await listener.sync();
    expect(listener.frames.filter((f) => f.data?.n === 1 || f.data?.n === 2)).toEqual([]);
    expect(sender.closeEvent).toBeNull();
    // Events the server publishes still reach the encrypted channel.
    // (The SDK would encrypt the data with an encryptionMasterKey; the server relays whatever it is given.)
    const body = { name: "paid", channel: "private-encrypted-orders", data: '{"nonce":"n","ciphertext":"c"}' };
    expect((await api(h, "POST", "/events", { body })).status).toBe(200);
    expect(await listener.next((f) => f.event === "paid")).toMatchObject({ channel: "private-encrypted-orders" });
  });

  test("more than 10 client events a second are refused with 4301, without closing the connection", async () => {
    const h = await startServer();
    const sender = await RawSocket.connect(h);
    const listener = await RawSocket.connect(h);
    for (const s of [sender, listener])
      await s.subscribe("private-p", { auth: channelAuth(h.creds, s.socketId, "private-p") });
    for (let n = 1; n <= 12; n++) sender.send("client-n", { n }, "private-p");
    await sender.sync();
    await listener.sync();
    const errors = sender.all("pusher:error").map(dataOf);
    expect(errors.map((e) => e.code)).toEqual([4301, 4301]);
    expect(listener.all("client-n").map((f) => f.data.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sender.closeEvent).toBeNull();
    expect(h.realtime.connectionCount).toBe(2);

    // The next second is a new allowance.
    await Bun.sleep(1050);
    sender.send("client-n", { n: 13 }, "private-p");
    await listener.next((f) => f.event === "client-n" && f.data.n === 13);
  });
});

describe("signin and the per-user channel", () => {
  test("pusher:signin with a valid user auth succeeds; an invalid one gets 4009 and the connection is closed", async () => {
    const h = await startServer();
    const good = await RawSocket.connect(h);
    const userData = JSON.stringify({ id: "7", user_info: { name: "Ana" } });
    good.send("pusher:signin", { auth: userAuth(h.creds, good.socketId, userData), user_data: userData });
    const success = await good.next((f) => f.event === "pusher:signin_success");
    expect(dataOf(success)).toEqual({ user_data: userData });

    const attempts: Json[] = [
      { auth: userAuth({ ...h.creds, secret: "nope" }, "1.1", userData), user_data: userData },
      { auth: userAuth(h.creds, good.socketId, userData), user_data: userData }, // someone else's socket
      { auth: "mesa-key:0000", user_data: userData },
      { user_data: userData },
      { auth: "x", user_data: "not json" },
    ];
    for (const data of attempts) {
      const bad = await RawSocket.connect(h);
      bad.send("pusher:signin", data);
      expect(dataOf(await bad.next((f) => f.event === "pusher:error")).code).toBe(4009);
      expect((await bad.closed).code).toBe(4009);
    }
    // Signed user data without an id is refused too.
    const noId = await RawSocket.connect(h);
    const anonymous = JSON.stringify({ user_info: {} });
    noId.send("pusher:signin", { auth: userAuth(h.creds, noId.socketId, anonymous), user_data: anonymous });
    expect((await noId.closed).code).toBe(4009);
  });

  test("events sent to a user with the SDK's sendToUser reach every connection of that user, and nobody else", async () => {
    const h = await startServer();
    const tab1 = signingClient(h, { id: "5" });
    const tab2 = signingClient(h, { id: "5" });
    const other = signingClient(h, { id: "6" });
    const got: Record<string, any[]> = { tab1: [], tab2: [], other: [] };
    for (const [name, client] of Object.entries({ tab1, tab2, other })) {
      await connected(client);
      client.signin();
      client.user.bind("notice", (data: any) => got[name].push(data));
      await eventually(() => (client.user as any).user_data?.id, "signin");
    }
    await h.sdk.sendToUser("5", "notice", { text: "hola" });
    await eventually(() => got.tab1.length === 1 && got.tab2.length === 1, "both tabs");
    await syncClient(h, other);
    expect(got).toEqual({ tab1: [{ text: "hola" }], tab2: [{ text: "hola" }], other: [] });
  });

  // src/realtime/embedded-server.ts signin() sets connection.userId and adds the socket to the new user's set, but
  // never removes it from the set of the user it was signed in as before (nor does onClose()). A connection that
  // signs in again as someone else keeps receiving the first user's events and is closed by their termination.
  test("signing in again as another user leaves the first user's per-user channel", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    for (const id of ["1", "2"]) {
      const userData = JSON.stringify({ id });
      raw.send("pusher:signin", { auth: userAuth(h.creds, raw.socketId, userData), user_data: userData });
      await raw.next((f) => f.event === "pusher:signin_success");
    }
    await h.sdk.sendToUser("1", "for-user-1", {});
    await raw.sync();
    expect(raw.all("for-user-1")).toEqual([]); // fails: the event for user 1 arrives
    await h.sdk.terminateUserConnections("1");
    await Bun.sleep(50);
    expect(raw.closeEvent).toBeNull();
  });
});

describe("size limits", () => {
  test("a client message over 10 KiB is refused (connection kept, nothing delivered); one under it passes", async () => {
    const h = await startServer();
    const sender = await RawSocket.connect(h);
    const listener = await RawSocket.connect(h);
    for (const s of [sender, listener])
      await s.subscribe("private-p", { auth: channelAuth(h.creds, s.socketId, "private-p") });
    const envelope = JSON.stringify({ event: "client-big", channel: "private-p", data: "" }).length;
    sender.ws.send(
      JSON.stringify({ event: "client-big", channel: "private-p", data: "x".repeat(10 * 1024 - envelope + 1) }),
    );
    expect(dataOf(await sender.next((f) => f.event === "pusher:error")).message).toMatch(/larger than 10240 bytes/);
    sender.ws.send(
      JSON.stringify({ event: "client-big", channel: "private-p", data: "y".repeat(10 * 1024 - envelope) }),
    );
    await sender.sync();
    await listener.sync();
    expect(listener.all("client-big").map((f) => f.data[0])).toEqual(["y"]);
    expect(sender.closeEvent).toBeNull();
  });

  test("the HTTP API refuses event data over 10 KiB with 413 (and a body over 1 MiB)", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    await raw.subscribe("orders");
    const error = await h.sdk.trigger("orders", "big", "x".repeat(10 * 1024 + 1)).catch((e) => e);
    expect(error.status).toBe(413);
    await h.sdk.trigger("orders", "fits", "x".repeat(10 * 1024));
    const batch = await h.sdk
      .triggerBatch([
        { channel: "orders", name: "ok", data: "{}" },
        { channel: "orders", name: "big", data: "x".repeat(10 * 1024 + 1) },
      ])
      .catch((e) => e);
    expect(batch.status).toBe(413);
    await raw.sync();
    expect(raw.frames.map((f) => f.event).filter((e) => !e.startsWith("pusher"))).toEqual(["fits"]); // a refused batch sends nothing
    const huge = await api(h, "POST", "/events", {
      body: { name: "x", channel: "orders", data: "x".repeat(1024 * 1024 + 1) },
    });
    expect(huge.status).toBe(413);
  });

  // Bun's default maxPayloadLength is 16 MiB: every frame up to that was buffered whole before onMessage() refused it.
  test("a WebSocket frame over 64 KiB is refused by the server before it is buffered (close 1009); one under it gets pusher:error and the connection is kept", async () => {
    const h = await startServer();
    expect(MAX_FRAME_BYTES).toBe(64 * 1024);
    const raw = await RawSocket.connect(h);
    // Between the message limit (10 KiB) and the frame limit: the protocol's own refusal, connection kept.
    raw.ws.send(JSON.stringify({ event: "client-big", channel: "private-p", data: "x".repeat(MAX_FRAME_BYTES - 100) }));
    expect(dataOf(await raw.next((f) => f.event === "pusher:error")).message).toMatch(/larger than 10240 bytes/);
    await raw.sync();
    expect(raw.closeEvent).toBeNull();
    // Over the frame limit: Bun closes the connection (1009, message too big) without handing the frame over.
    raw.ws.send("x".repeat(MAX_FRAME_BYTES + 1));
    const closed = await Promise.race([raw.closed, Bun.sleep(2000).then(() => ({ code: "still open" }))]);
    expect(closed.code).toBe(1009);
    expect(raw.all("pusher:error")).toHaveLength(1);
    await untilConnections(h, 0);
  });
});

describe("limits on channels and connections", () => {
  // One unauthenticated socket could subscribe to any number of public channels (200,000 took RSS from 173 to 423 MB).
  test("a connection holds at most 100 channels: the next subscription gets pusher:subscription_error LimitReached 4100, and the connection stays usable", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    for (let n = 0; n < 1000; n++) raw.send("pusher:subscribe", { channel: `c${n}` });
    await raw.sync();
    await eventually(
      () =>
        raw.all("pusher_internal:subscription_succeeded").length + raw.all("pusher:subscription_error").length === 1000,
      "an answer to each subscription",
    );
    expect(raw.all("pusher_internal:subscription_succeeded").map((f) => f.channel)).toEqual(
      Array.from({ length: 100 }, (_, n) => `c${n}`),
    );
    const refused = raw.all("pusher:subscription_error");
    expect(refused).toHaveLength(900);
    expect(refused[0]).toEqual({
      event: "pusher:subscription_error",
      channel: "c100",
      data: { type: "LimitReached", error: expect.stringMatching(/100 channels/), status: 4100 },
    });
    expect((h.realtime as any).channels.size).toBe(100);
    // Still usable: a channel already held can be subscribed again, events arrive, and leaving one makes room.
    raw.send("pusher:subscribe", { channel: "c5" });
    await raw.sync();
    expect(raw.all("pusher_internal:subscription_succeeded").filter((f) => f.channel === "c5")).toHaveLength(2);
    await h.sdk.trigger("c99", "hello", {});
    await raw.next((f) => f.event === "hello" && f.channel === "c99");
    raw.send("pusher:unsubscribe", { channel: "c0" });
    expect((await raw.subscribe("private-p", { auth: channelAuth(h.creds, raw.socketId, "private-p") })).event).toBe(
      "pusher_internal:subscription_succeeded",
    );
    expect((await raw.subscribe("one-more")).event).toBe("pusher:subscription_error");
    expect(raw.closeEvent).toBeNull();

    // pusher-js reports the refusal on the channel, and its other channels keep working.
    const client = pusherClient(h);
    await connected(client);
    await Promise.all(Array.from({ length: 100 }, (_, n) => joined(client, `d${n}`)));
    const extra = client.subscribe("d100");
    expect(await new Promise<any>((resolve) => extra.bind("pusher:subscription_error", resolve))).toMatchObject({
      type: "LimitReached",
      status: 4100,
    });
    const seen = record(client.channel("d7")!);
    await h.sdk.trigger("d7", "still", {});
    await eventually(() => seen.length === 1, "an event on a channel it holds");
    expect(client.connection.state).toBe("connected");
  });

  test("connections per address: the one over the limit gets pusher:error 4100 and close 4100; closing one makes room", async () => {
    const h = await startServer({ realtime: { maxConnectionsPerAddress: 3 } });
    const open = [await RawSocket.connect(h), await RawSocket.connect(h), await RawSocket.connect(h)];
    const over = await RawSocket.open(h);
    expect(dataOf(await over.next((f) => f.event === "pusher:error")).code).toBe(4100);
    expect((await over.closed).code).toBe(4100);
    expect(over.all("pusher:connection_established")).toEqual([]);
    expect(h.realtime.connectionCount).toBe(3);
    // pusher-js reports it (4100–4199: reconnect after backing off).
    const client = pusherClient(h);
    const errors: any[] = [];
    client.connection.bind("error", (e: any) => errors.push(e));
    await eventually(() => errors.some((e) => e?.error?.data?.code === 4100), "pusher-js to report 4100");
    client.disconnect();
    // The earlier connections are untouched; one closing frees a place.
    await open[0].sync();
    open[0].ws.close();
    await untilConnections(h, 2);
    await RawSocket.connect(h);
    expect(h.realtime.connectionCount).toBe(3);
  });

  test("behind a trusted proxy connections count by the client's address from X-Forwarded-For (IPv6 by its /64); otherwise the header is ignored", async () => {
    const h = await startServer({ realtime: { maxConnectionsPerAddress: 2, trustedProxies: ["127.0.0.1"] } });
    const from = (address: string) => ({ "x-forwarded-for": address });
    await RawSocket.connect(h, from("203.0.113.5"));
    await RawSocket.connect(h, from("203.0.113.5"));
    const third = await RawSocket.open(h, { headers: from("198.51.100.1, 203.0.113.5") }); // the proxy appends the real one
    expect((await third.closed).code).toBe(4100);
    await RawSocket.connect(h, from("203.0.113.6"));
    await RawSocket.connect(h, from("2001:db8:1:2::1"));
    await RawSocket.connect(h, from("2001:db8:1:2:ffff::9"));
    expect((await (await RawSocket.open(h, { headers: from("2001:db8:1:2::77") })).closed).code).toBe(4100);
    await RawSocket.connect(h, from("2001:db8:1:3::1")); // another /64
    expect(h.realtime.connectionCount).toBe(6);

    // Without TRUSTED_PROXIES the header is the client's own word: everyone here is 127.0.0.1.
    const plain = await startServer({ realtime: { maxConnectionsPerAddress: 2 } });
    await RawSocket.connect(plain, from("203.0.113.7"));
    await RawSocket.connect(plain, from("203.0.113.8"));
    expect((await (await RawSocket.open(plain, { headers: from("203.0.113.9") })).closed).code).toBe(4100);
  });

  test("REALTIME_MAX_CHANNELS, REALTIME_MAX_CONNECTIONS_PER_ADDRESS and TRUSTED_PROXIES reach the embedded server; the defaults are 100, 1000 and none", async () => {
    const db = migratedDatabase();
    const configured = createServices(
      testConfig({
        REALTIME_MAX_CHANNELS: "7",
        REALTIME_MAX_CONNECTIONS_PER_ADDRESS: "9",
        TRUSTED_PROXIES: "10.0.0.0/8",
      }),
      db,
    );
    expect(configured.realtime!.options).toMatchObject({
      maxChannelsPerConnection: 7,
      maxConnectionsPerAddress: 9,
      trustedProxies: ["10.0.0.0/8"],
    });
    const defaults = createServices(testConfig(), db);
    expect(defaults.realtime!.options).toMatchObject({
      maxChannelsPerConnection: 100,
      maxConnectionsPerAddress: 1000,
      trustedProxies: [],
    });
  });

  test("unsubscribing and closing release every channel, presence member, per-user and per-address entry", async () => {
    const h = await startServer();
    const state = () => {
      const r = h.realtime as any;
      return {
        connections: r.connections.size,
        channels: r.channels.size,
        members: r.members.size,
        userSockets: r.userSockets.size,
        addresses: r.addresses.size,
      };
    };
    const sockets = [await RawSocket.connect(h), await RawSocket.connect(h)];
    for (const [i, s] of sockets.entries()) {
      const userData = JSON.stringify({ id: `u${i}` });
      s.send("pusher:signin", { auth: userAuth(h.creds, s.socketId, userData), user_data: userData });
      await s.next((f) => f.event === "pusher:signin_success");
      for (let n = 0; n < 50; n++) await s.subscribe(`public-${i}-${n}`);
      await s.subscribe("shared");
      await s.subscribe("private-p", { auth: channelAuth(h.creds, s.socketId, "private-p") });
      const channelData = JSON.stringify({ user_id: `u${i}` });
      await s.subscribe("presence-room", {
        auth: channelAuth(h.creds, s.socketId, "presence-room", channelData),
        channel_data: channelData,
      });
    }
    expect(state()).toEqual({ connections: 2, channels: 103, members: 1, userSockets: 2, addresses: 1 });
    // Unsubscribing removes channels nobody holds any more; shared ones stay until their last subscriber leaves.
    for (let n = 0; n < 50; n++) sockets[0].send("pusher:unsubscribe", { channel: `public-0-${n}` });
    for (const channel of ["shared", "private-p", "presence-room"]) sockets[0].send("pusher:unsubscribe", { channel });
    await sockets[0].sync();
    expect(state()).toEqual({ connections: 2, channels: 53, members: 1, userSockets: 2, addresses: 1 });
    sockets[1].ws.close();
    sockets[0].ws.close();
    await untilConnections(h, 0);
    expect(state()).toEqual({ connections: 0, channels: 0, members: 0, userSockets: 0, addresses: 0 });
  });
});

describe("HTTP API", () => {
  test("an event triggered through the SDK reaches subscribers; socket_id leaves out the sender", async () => {
    const h = await startServer();
    const a = pusherClient(h);
    const b = pusherClient(h);
    const [aId] = await Promise.all([connected(a), connected(b)]);
    const seenA = record(await joined(a, "orders"));
    const seenB = record(await joined(b, "orders"));
    await h.sdk.trigger(["orders", "other"], "updated", { id: 3 }, { socket_id: aId });
    await eventually(() => seenB.length === 1, "b to get it");
    await syncClient(h, a);
    expect(seenA).toEqual([]);
    expect(seenB).toEqual([{ event: "updated", data: { id: 3 } }]);

    // The raw frame: event, channel, data as the string the SDK sent.
    const raw = await RawSocket.connect(h);
    await raw.subscribe("orders");
    await h.sdk.trigger("orders", "raw", { id: 4 });
    expect(await raw.next((f) => f.event === "raw")).toEqual({ event: "raw", channel: "orders", data: '{"id":4}' });
  });

  test("batch_events delivers every event of the batch; more than 10 is refused", async () => {
    const h = await startServer();
    const client = pusherClient(h);
    await connected(client);
    const one = record(await joined(client, "one"));
    const two = record(await joined(client, "two"));
    const response = await h.sdk.triggerBatch([
      { channel: "one", name: "first", data: { n: 1 } },
      { channel: "two", name: "second", data: { n: 2 } },
      { channel: "one", name: "third", data: "plain" },
    ]);
    // Without `info` the answer is an empty hash.
    expect(await response.json()).toEqual({});
    await eventually(() => one.length === 2 && two.length === 1, "the batch");
    expect(one).toEqual([
      { event: "first", data: { n: 1 } },
      { event: "third", data: "plain" },
    ]);
    expect(two).toEqual([{ event: "second", data: { n: 2 } }]);
    const tooMany = await h.sdk
      .triggerBatch(Array.from({ length: 11 }, (_, i) => ({ channel: "one", name: `e${i}`, data: {} })))
      .catch((e) => e);
    expect(tooMany.status).toBe(400);
  });

  test("trigger with info answers each channel's subscription_count, and user_count on presence channels", async () => {
    const h = await startServer();
    const { b } = await onCafePresence(h);
    const ordersOfB = record(await joined(b, "orders"));

    // "orders" named twice: one answer for it, and one delivery.
    const response = await h.sdk.trigger(
      ["presence-cafe.1", "orders", "empty", "orders"],
      "counted",
      { n: 1 },
      {
        info: "user_count,subscription_count",
      },
    );
    expect(await response.json()).toEqual({
      channels: {
        "presence-cafe.1": { user_count: 2, subscription_count: 3 },
        orders: { subscription_count: 2 },
        empty: { subscription_count: 0 },
      },
    });
    // One attribute asked for, one given; the event was delivered all the same.
    const one = await h.sdk.trigger("presence-cafe.1", "counted", { n: 2 }, { info: "user_count" });
    expect(await one.json()).toEqual({ channels: { "presence-cafe.1": { user_count: 2 } } });
    const usersOnly = await h.sdk.trigger("orders", "counted", { n: 3 }, { info: "user_count" });
    expect(await usersOnly.json()).toEqual({ channels: { orders: {} } });
    // Without info: an empty hash.
    expect(await (await h.sdk.trigger("orders", "counted", { n: 4 })).json()).toEqual({});
    await syncClient(h, b);
    expect(ordersOfB.map((e) => e.data.n)).toEqual([1, 3, 4]);

    // An attribute the API does not have is refused, naming the ones it has; nothing is delivered.
    const raw = await RawSocket.connect(h);
    await raw.subscribe("orders");
    const unknown = await api(h, "POST", "/events", {
      body: { name: "counted", channel: "orders", data: "{}", info: "user_count,members" },
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatch(/members.*user_count.*subscription_count/);
    const notText = await api(h, "POST", "/events", {
      body: { name: "counted", channel: "orders", data: "{}", info: ["user_count"] },
    });
    expect(notText.status).toBe(400);
    await raw.sync();
    expect(raw.all("counted")).toEqual([]);
  });

  test("batch_events with info answers the attributes of each event's channel, in order ({} for events without info)", async () => {
    const h = await startServer();
    const a = signingClient(h, { id: "1" });
    const b = signingClient(h, { id: "2" });
    await Promise.all([connected(a), connected(b)]);
    for (const client of [a, b]) await joined(client, "presence-cafe.1");
    await joined(a, "orders");
    const response = await h.sdk.triggerBatch([
      { channel: "presence-cafe.1", name: "e1", data: {}, info: "user_count,subscription_count" },
      { channel: "orders", name: "e2", data: {} },
      { channel: "orders", name: "e3", data: {}, info: "subscription_count,user_count" },
      { channel: "empty", name: "e4", data: {}, info: "subscription_count" },
    ]);
    expect(await response.json()).toEqual({
      batch: [{ user_count: 2, subscription_count: 2 }, {}, { subscription_count: 1 }, { subscription_count: 0 }],
    });
    const bad = await h.sdk
      .triggerBatch([
        { channel: "orders", name: "e5", data: {} },
        { channel: "orders", name: "e6", data: {}, info: "occupied" },
      ])
      .catch((e) => e);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/occupied/);
  });

  test("bad names answer 400 with a message: invalid characters, over 164 characters, # names, over 100 channels, event names over 200", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    await raw.subscribe("orders");
    const longest = `orders-${"x".repeat(157)}`;
    const send = async (path: "/events" | "/batch_events", body: Json) => {
      const response = await api(h, "POST", path, { body });
      return { status: response.status, error: ((await response.json()) as Json).error };
    };
    const event = (channels: string[], name = "e") => ({ name, channels, data: "{}" });

    expect(await send("/events", event(["orders", longest]))).toEqual({ status: 200, error: undefined });
    expect(await send("/events", event(["orders", `${longest}x`]))).toEqual({
      status: 400,
      error: expect.stringContaining("164"),
    });
    for (const name of ["", "has space", "café", "slash/no", "foo#bar", "#other", "#server-to-user-"])
      expect({ name, ...(await send("/events", event(["orders", name]))) }).toEqual({
        name,
        status: 400,
        error: expect.stringMatching(/channel name/i),
      });
    const hundred = Array.from({ length: 100 }, (_, i) => `c${i}`);
    expect((await send("/events", event(hundred))).status).toBe(200);
    expect(await send("/events", event([...hundred, "c100"]))).toEqual({
      status: 400,
      error: expect.stringContaining("100"),
    });
    expect(await send("/events", event(["orders"], "x".repeat(201)))).toEqual({
      status: 400,
      error: expect.stringContaining("200"),
    });
    expect((await send("/events", event(["orders"], "x".repeat(200)))).status).toBe(200);
    // In a batch one bad event refuses the whole batch.
    expect(
      await send("/batch_events", {
        batch: [
          { name: "ok", channel: "orders", data: "{}" },
          { name: "bad", channel: "or ders", data: "{}" },
        ],
      }),
    ).toEqual({ status: 400, error: expect.stringMatching(/channel name/i) });
    // The per-user channel of sendToUser is the one # name the API takes.
    expect((await send("/events", event(["#server-to-user-5"]))).status).toBe(200);

    // The read endpoints refuse bad names too.
    expect((await api(h, "GET", `/channels/${encodeURIComponent(`${longest}x`)}`)).status).toBe(400);
    expect((await api(h, "GET", "/channels/foo%23bar/users")).status).toBe(400);
    // A name that is not even a valid escape is refused, not an error of the server.
    const malformed = await api(h, "GET", "/channels/orders%E0");
    expect({ status: malformed.status, error: ((await malformed.json()) as Json).error }).toEqual({
      status: 400,
      error: expect.stringMatching(/path/i),
    });

    await raw.sync();
    expect(raw.all("e").length).toBe(1);
    expect(raw.all("ok")).toEqual([]);
    expect(raw.closeEvent).toBeNull();
  });

  test("GET /channels lists occupied channels, with filter_by_prefix and info=user_count", async () => {
    const h = await startServer();
    const a = signingClient(h, { id: "1" });
    const b = signingClient(h, { id: "2" });
    const c = signingClient(h, { id: "2" });
    await Promise.all([connected(a), connected(b), connected(c)]);
    await joined(a, "orders");
    await joined(a, "private-orders");
    for (const client of [a, b, c]) await joined(client, "presence-cafe.1");
    await joined(b, "presence-cafe.2");

    const all = (await (await h.sdk.get({ path: "/channels" })).json()) as Json;
    expect(Object.keys(all.channels).sort()).toEqual([
      "orders",
      "presence-cafe.1",
      "presence-cafe.2",
      "private-orders",
    ]);
    const presence = (await (
      await h.sdk.get({ path: "/channels", params: { filter_by_prefix: "presence-", info: "user_count" } })
    ).json()) as Json;
    expect(presence).toEqual({
      channels: { "presence-cafe.1": { user_count: 2 }, "presence-cafe.2": { user_count: 1 } },
    });

    // user_count only where every channel listed is a presence channel; no other attribute.
    const refused = async (params: Record<string, string>) => {
      const error = await h.sdk.get({ path: "/channels", params }).catch((e) => e);
      return { status: error.status, body: error.body };
    };
    expect(await refused({ info: "user_count" })).toEqual({ status: 400, body: expect.stringContaining("presence-") });
    expect(await refused({ filter_by_prefix: "private-", info: "user_count" })).toMatchObject({ status: 400 });
    expect(await refused({ info: "subscription_count" })).toEqual({
      status: 400,
      body: expect.stringContaining("subscription_count"),
    });

    // A channel nobody is on any more is not listed.
    b.unsubscribe("presence-cafe.2");
    await eventually(
      async () => !("presence-cafe.2" in ((await (await h.sdk.get({ path: "/channels" })).json()) as Json).channels),
      "the channel to empty",
    );
  });

  test("GET /channels/{name} answers occupied, subscription_count and user_count; /users lists the members", async () => {
    const h = await startServer();
    await onCafePresence(h);
    const get = async (path: string, params: Record<string, string> = {}) =>
      (await (await h.sdk.get({ path, params })).json()) as Json;
    expect(await get("/channels/presence-cafe.1", { info: "subscription_count,user_count" })).toEqual({
      occupied: true,
      subscription_count: 3,
      user_count: 2,
    });
    expect(await get("/channels/presence-cafe.1")).toEqual({ occupied: true });
    expect(await get("/channels/orders", { info: "subscription_count" })).toEqual({
      occupied: true,
      subscription_count: 1,
    });
    expect(await get("/channels/empty", { info: "subscription_count" })).toEqual({
      occupied: false,
      subscription_count: 0,
    });
    // user_count only on a presence channel; unknown attributes are refused.
    for (const [name, info] of [
      ["orders", "user_count"],
      ["orders", "subscription_count,members"],
    ]) {
      const refused = await h.sdk.get({ path: `/channels/${name}`, params: { info } }).catch((e) => e);
      expect({ name, info, status: refused.status }).toEqual({ name, info, status: 400 });
    }
    const members = await get("/channels/presence-cafe.1/users");
    expect(members.users.map((u: Json) => u.id).sort()).toEqual(["1", "2"]);
    const notPresence = await h.sdk.get({ path: "/channels/orders/users" }).catch((e) => e);
    expect(notPresence.status).toBe(400);
  });

  test("terminate_connections sends pusher:error 4009, then closes (4009) every connection signed in as the user", async () => {
    const h = await startServer();
    const tab1 = signingClient(h, { id: "5" });
    const tab2 = signingClient(h, { id: "5" });
    const other = signingClient(h, { id: "6" });
    const tabErrors: any[] = [];
    tab1.connection.bind("error", (e: any) => tabErrors.push(e));
    for (const client of [tab1, tab2, other]) {
      await connected(client);
      client.signin();
      await eventually(() => (client.user as any).user_data, "signin");
    }
    const raw = await RawSocket.connect(h);
    const userData = JSON.stringify({ id: "5" });
    raw.send("pusher:signin", { auth: userAuth(h.creds, raw.socketId, userData), user_data: userData });
    await raw.next((f) => f.event === "pusher:signin_success");

    await h.sdk.terminateUserConnections("5");
    expect((await raw.closed).code).toBe(4009);
    // The error frame came first, and it is the last frame before the close.
    expect(raw.frames.at(-1)).toEqual({
      event: "pusher:error",
      data: { code: 4009, message: expect.stringMatching(/terminated/i) },
    });
    // pusher-js reports it as a connection error before it disconnects.
    await eventually(() => tabErrors.some((e) => e?.data?.code === 4009), "pusher-js to report 4009");
    // pusher-js treats 4009 as "refused": it goes to disconnected and does not reconnect.
    await eventually(
      () => tab1.connection.state === "disconnected" && tab2.connection.state === "disconnected",
      "both tabs to close",
    );
    await Bun.sleep(100);
    expect(tab1.connection.state).toBe("disconnected");
    expect(other.connection.state).toBe("connected");
    await untilConnections(h, 1);
  });

  test("signature failures answer 401: bad signature, wrong key, stale timestamp, tampered body; wrong app id 404", async () => {
    const h = await startServer();
    const raw = await RawSocket.connect(h);
    await raw.subscribe("orders");
    const body = { name: "e", channels: ["orders"], data: "{}" };
    // The hand-made signature is right to begin with.
    expect((await api(h, "POST", "/events", { body })).status).toBe(200);
    expect(
      (await api(h, "GET", "/channels", { params: { filter_by_prefix: "presence-", info: "user_count" } })).status,
    ).toBe(200);
    // A parameter with capitals is signed under its key in lowercase.
    expect((await api(h, "GET", "/channels", { params: { Filter_By_Prefix: "presence-" } })).status).toBe(200);

    const failures: Record<string, Response> = {
      badSignature: await api(h, "POST", "/events", { body, spoil: (q) => q.set("auth_signature", "0".repeat(64)) }),
      wrongSecret: await api(h, "POST", "/events", { body, secret: "not-the-secret" }),
      wrongKey: await api(h, "POST", "/events", { body, key: "other-key" }),
      staleTimestamp: await api(h, "POST", "/events", { body, timestamp: Math.floor(Date.now() / 1000) - 601 }),
      futureTimestamp: await api(h, "POST", "/events", { body, timestamp: Math.floor(Date.now() / 1000) + 601 }),
      tamperedBody: await api(h, "POST", "/events", {
        body,
        sendBody: JSON.stringify({ ...body, data: '{"evil":1}' }),
      }),
      tamperedMd5: await api(h, "POST", "/events", { body, spoil: (q) => q.set("body_md5", md5("something else")) }),
      addedParam: await api(h, "GET", "/channels", { spoil: (q) => q.set("filter_by_prefix", "presence-") }),
      noSignature: await api(h, "GET", "/channels", { spoil: (q) => q.delete("auth_signature") }),
    };
    expect(Object.fromEntries(Object.entries(failures).map(([k, r]) => [k, r.status]))).toEqual(
      Object.fromEntries(Object.keys(failures).map((k) => [k, 401])),
    );
    expect((await api(h, "POST", "/events", { body, appId: "other-app" })).status).toBe(404);
    // Through the SDK as well.
    const wrongKey = new PusherServer({
      appId: h.creds.id,
      key: "other",
      secret: h.creds.secret,
      host: "127.0.0.1",
      port: String(h.port),
      useTLS: false,
    });
    expect((await wrongKey.trigger("orders", "e", {}).catch((e) => e)).status).toBe(401);
    const wrongApp = new PusherServer({
      appId: "other-app",
      key: h.creds.key,
      secret: h.creds.secret,
      host: "127.0.0.1",
      port: String(h.port),
      useTLS: false,
    });
    expect((await wrongApp.trigger("orders", "e", {}).catch((e) => e)).status).toBe(404);
    await raw.sync();
    expect(raw.all("e")).toHaveLength(1); // only the well-signed one
  });
});

describe("/broadcasting/auth and /broadcasting/user-auth", () => {
  test("a guest gets 401 (JSON) or a redirect to /login; without the CSRF token 419", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const guest = new Client(h.testApp);
    await guest.visit("/login");
    const json = await authRequest(guest, "/broadcasting/auth", {
      socket_id: "1.2",
      channel_name: "private-App.Models.User.1",
    });
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ message: expect.any(String) });
    const page = await authRequest(
      guest,
      "/broadcasting/auth",
      { socket_id: "1.2", channel_name: "private-App.Models.User.1" },
      {},
    );
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/login");
    expect((await authRequest(guest, "/broadcasting/user-auth", { socket_id: "1.2" })).status).toBe(401);

    const sara = await signedIn(h.testApp, w.staffA);
    const noToken = await authRequest(
      sara,
      "/broadcasting/auth",
      { socket_id: "1.2", channel_name: `private-App.Models.User.${w.staffA.id}` },
      { accept: "application/json", "x-xsrf-token": "" },
    );
    expect(noToken.status).toBe(419);
    const wrongToken = await authRequest(
      sara,
      "/broadcasting/user-auth",
      { socket_id: "1.2" },
      { accept: "application/json", "x-xsrf-token": "wrong" },
    );
    expect(wrongToken.status).toBe(419);
  });

  test("channel rules: one's own user channel is allowed, someone else's 403, unknown or public channels 403, a bad socket id 400", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const sara = await signedIn(h.testApp, w.staffA);
    const own = await authRequest(sara, "/broadcasting/auth", {
      socket_id: "123.456",
      channel_name: `private-App.Models.User.${w.staffA.id}`,
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({
      auth: channelAuth(h.creds, "123.456", `private-App.Models.User.${w.staffA.id}`),
    });
    const status = async (form: Record<string, string>) => (await authRequest(sara, "/broadcasting/auth", form)).status;
    expect(await status({ socket_id: "123.456", channel_name: `private-App.Models.User.${w.staffB.id}` })).toBe(403);
    expect(await status({ socket_id: "123.456", channel_name: `private-App.Models.User.${w.staffA.id}.x` })).toBe(403);
    expect(await status({ socket_id: "123.456", channel_name: `presence-App.Models.User.${w.staffB.id}` })).toBe(403);
    expect(await status({ socket_id: "123.456", channel_name: "private-orders" })).toBe(403);
    expect(await status({ socket_id: "123.456", channel_name: `App.Models.User.${w.staffA.id}` })).toBe(403);
    expect(await status({ socket_id: "abc", channel_name: `private-App.Models.User.${w.staffA.id}` })).toBe(400);
    expect(await status({ socket_id: "123.456" })).toBe(400);
  });

  test("the cafe presence channel is allowed only within the user's scope, with channel_data {user_id, user_info:{id,name}}", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const sara = await signedIn(h.testApp, w.staffA);
    const allowed = await authRequest(sara, "/broadcasting/auth", {
      socket_id: "1.2",
      channel_name: `presence-cafe.${w.cafeA}`,
    });
    expect(allowed.status).toBe(200);
    const body = (await allowed.json()) as Json;
    expect(JSON.parse(body.channel_data)).toEqual({
      user_id: String(w.staffA.id),
      user_info: { id: w.staffA.id, name: "Sara Caja" },
    });
    expect(body.auth).toBe(channelAuth(h.creds, "1.2", `presence-cafe.${w.cafeA}`, body.channel_data));
    expect(
      (await authRequest(sara, "/broadcasting/auth", { socket_id: "1.2", channel_name: `presence-cafe.${w.cafeB}` }))
        .status,
    ).toBe(403);
    expect(
      (await authRequest(sara, "/broadcasting/auth", { socket_id: "1.2", channel_name: "presence-cafe.9999" })).status,
    ).toBe(403);
    // The super-administrator reaches every cafe.
    const root = await signedIn(h.testApp, w.root);
    expect(
      (await authRequest(root, "/broadcasting/auth", { socket_id: "1.2", channel_name: `presence-cafe.${w.cafeB}` }))
        .status,
    ).toBe(200);
  });

  test("/broadcasting/user-auth returns auth and user_data signed for the socket", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const sara = await signedIn(h.testApp, w.staffA);
    const response = await authRequest(sara, "/broadcasting/user-auth", { socket_id: "9.8" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(JSON.parse(body.user_data)).toEqual({ id: String(w.staffA.id), user_info: { name: "Sara Caja" } });
    expect(body.auth).toBe(userAuth(h.creds, "9.8", body.user_data));
    expect((await authRequest(sara, "/broadcasting/user-auth", { socket_id: "nope" })).status).toBe(400);
  });

  test("pusher-js through the real endpoints (cookie + X-XSRF-TOKEN): own channel, cafe presence, signin; refusals reported", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const sara = await signedIn(h.testApp, w.staffA);
    const client = browserClient(h, sara);
    await connected(client);
    const own = await joined(client, `private-App.Models.User.${w.staffA.id}`);
    const seen = record(own);
    const room: any = await joined(client, `presence-cafe.${w.cafeA}`);
    expect(room.members.me).toEqual({ id: String(w.staffA.id), info: { id: w.staffA.id, name: "Sara Caja" } });
    client.signin();
    await eventually(
      () => (client.user as any).user_data?.id === String(w.staffA.id),
      "signin through /broadcasting/user-auth",
    );
    const notices: any[] = [];
    client.user.bind("notice", (data: any) => notices.push(data));
    await h.sdk.sendToUser(String(w.staffA.id), "notice", { n: 1 });
    await h.sdk.trigger(`private-App.Models.User.${w.staffA.id}`, "ping", { n: 2 });
    await eventually(() => notices.length === 1 && seen.length === 1, "the user's events");

    // Refused by the rules: pusher-js reports the endpoint's 403, and nothing is delivered.
    const others = client.subscribe(`private-App.Models.User.${w.staffB.id}`);
    const othersSeen = record(others);
    const error = await new Promise<any>((resolve) => others.bind("pusher:subscription_error", resolve));
    expect(error).toMatchObject({ type: "AuthError", status: 403 });
    const cafeB = client.subscribe(`presence-cafe.${w.cafeB}`);
    expect(await new Promise<any>((resolve) => cafeB.bind("pusher:subscription_error", resolve))).toMatchObject({
      status: 403,
    });
    await h.sdk.trigger(`private-App.Models.User.${w.staffB.id}`, "secret", {});
    await syncClient(h, client);
    expect(othersSeen).toEqual([]);

    // Without the CSRF header the endpoint answers 419, which pusher-js reports as well.
    const noCsrf = pusherClient(h, {
      channelAuthorization: {
        endpoint: `${h.origin}/broadcasting/auth`,
        transport: "ajax",
        headersProvider: () => ({ Cookie: cookieHeader(sara), Accept: "application/json" }),
      },
    } as Partial<PusherOptions>);
    await connected(noCsrf);
    const refused = noCsrf.subscribe(`private-App.Models.User.${w.staffA.id}`);
    expect(await new Promise<any>((resolve) => refused.bind("pusher:subscription_error", resolve))).toMatchObject({
      status: 419,
    });
  });

  test("deactivating a user sends App\\Events\\SessionEnded on their private channel, then closes their connections", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const root = await signedIn(h.testApp, w.root);
    const sara = await signedIn(h.testApp, w.staffA);
    // Sara's tab, as resources/js/layouts/app-layout.tsx sets it up: signin, then her private channel.
    const tab = browserClient(h, sara);
    await connected(tab);
    tab.signin();
    await eventually(() => (tab.user as any).user_data?.id === String(w.staffA.id), "signin");
    const channel = await joined(tab, `private-App.Models.User.${w.staffA.id}`);
    const timeline: string[] = [];
    let payload: unknown = null;
    channel.bind("App\\Events\\SessionEnded", (data: unknown) => {
      payload = data;
      timeline.push("SessionEnded");
    });
    tab.connection.bind("state_change", ({ current }: { current: string }) => timeline.push(current));
    // Someone else's tab is not affected.
    const beto = await signedIn(h.testApp, w.staffB);
    const betoTab = browserClient(h, beto);
    await connected(betoTab);
    betoTab.signin();
    await eventually(() => (betoTab.user as any).user_data, "signin");

    const response = await root.request(`/users/${w.staffA.id}/deactivate`, {
      method: "POST",
      inertia: true,
      json: {},
      headers: { referer: `${BASE}/users` },
    });
    expect(response.status).toBe(302);
    expect(findUserById(h.testApp.db, w.staffA.id)!.status).toBe("deactivated");
    await eventually(() => timeline.includes("disconnected"), "Sara's tab to be disconnected");
    expect(timeline).toEqual(["SessionEnded", "disconnected"]);
    expect(payload).toEqual({ reason: "deactivated" });
    await Bun.sleep(100);
    expect(tab.connection.state).toBe("disconnected"); // refused: it does not reconnect
    expect(betoTab.connection.state).toBe("connected");
    await untilConnections(h, 1);
  });

  // authorizeChannel() read {cafe} as "[^.]+" and Number() it: presence-cafe.02 and presence-cafe.2e0 were cafe 2.
  test("channel parameters are canonical ids: presence-cafe.02, 2e0, +2, 0x2 and the like are refused (403)", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const sara = await signedIn(h.testApp, w.staffA);
    const status = async (channel: string) =>
      (await authRequest(sara, "/broadcasting/auth", { socket_id: "1.2", channel_name: channel })).status;
    expect(await status(`presence-cafe.${w.cafeA}`)).toBe(200);
    expect(await status(`private-App.Models.User.${w.staffA.id}`)).toBe(200);
    const aliases = [
      `0${w.cafeA}`,
      `00${w.cafeA}`,
      `${w.cafeA}e0`,
      `+${w.cafeA}`,
      `0x${w.cafeA.toString(16)}`,
      `${w.cafeA}.0`,
      ` ${w.cafeA}`,
      `${w.cafeA} `,
      "0",
      "-1",
      "Infinity",
      "NaN",
      "",
    ];
    const answers: Record<string, number> = {};
    for (const alias of aliases) answers[`presence-cafe.${alias}`] = await status(`presence-cafe.${alias}`);
    answers[`private-App.Models.User.0${w.staffA.id}`] = await status(`private-App.Models.User.0${w.staffA.id}`);
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((channel) => [channel, 403])));
    // The same through pusher-js: the alias is refused, the canonical name joined.
    const client = browserClient(h, sara);
    await connected(client);
    const alias = client.subscribe(`presence-cafe.0${w.cafeA}`);
    expect(await new Promise<any>((resolve) => alias.bind("pusher:subscription_error", resolve))).toMatchObject({
      status: 403,
    });
    await joined(client, `presence-cafe.${w.cafeA}`);
    // Directly: a rule parameter without a declared format is a mistake in the rules, not a wildcard.
    const noFormat: ChannelRule[] = [{ pattern: "thing.{thing}", wheres: {}, permission: null, authorize: () => true }];
    expect(() => authorizeChannel(h.testApp.db, w.staffA, "private-thing.1", noFormat)).toThrow(
      /no format for \{thing\}/,
    );
  });

  // A channel rule checked only the place: anyone whose scope reached the cafe could join, whatever their role.
  test("a rule's permission is checked before the place: a headquarters nutritionist who reaches every cafe is refused its sales channel", async () => {
    const app = createTestApp();
    const db = app.db;
    const w = await buildWorld(app);
    // The point of sale's channel (CHANNEL_RULES): its events need sales.view, given here to the world's cashier role.
    const rules = CHANNEL_RULES;
    const salesView = db.select().from(permissionsTable).where(eq(permissionsTable.name, "sales.view")).get()!.id;
    const cashier = findRoleByName(db, "cashier")!.id;
    db.insert(rolePermissions).values({ roleId: cashier, permissionId: salesView }).onConflictDoNothing().run();
    const nutritionist = db.insert(rolesTable).values({ name: "nutritionist" }).returning().get().id;
    bumpAccessVersion(db);
    const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
    const nutrition = createArea(db, CLI_ACTOR, EVERYTHING, {
      name: "Nutrición X",
      headquarters_id: x.headquartersId,
      role_ids: [nutritionist],
    }).id;
    const nina = await addUser(db, "Nina Nutrición", "nina@mesa.test");
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: nina.id, areaId: nutrition, roleId: nutritionist });

    const verdicts = (channel: string) => ({
      nina: authorizeChannel(db, nina, channel, rules) !== false,
      sara: authorizeChannel(db, w.staffA, channel, rules) !== false,
      root: authorizeChannel(db, w.root, channel, rules) !== false,
    });
    // Nina reaches cafe A (her headquarters' business runs it) but lacks sales.view; Sara has it, at cafe A only.
    expect(verdicts(`private-cafe.${w.cafeA}.sales`)).toEqual({ nina: false, sara: true, root: true });
    expect(verdicts(`private-cafe.${w.cafeB}.sales`)).toEqual({ nina: false, sara: false, root: true });
    // The permission is checked before the place: authorize() is not even asked.
    let asked = 0;
    const counting: ChannelRule[] = [{ ...rules[0], authorize: () => (asked++, true) }];
    expect(authorizeChannel(db, nina, `private-cafe.${w.cafeA}.sales`, counting)).toBe(false);
    expect(asked).toBe(0);
    // "Who is on duty" needs no permission (the dashboard shows it to everyone the cafe is in scope of): Nina may join.
    expect(verdicts(`presence-cafe.${w.cafeA}`)).toEqual({ nina: true, sara: true, root: true });
    // Every permission a rule declares is one some route declares (the catalogue keeps only those).
    for (const rule of CHANNEL_RULES)
      if (rule.permission !== null) expect(declaredPermissions).toContain(rule.permission);
  });

  // terminateUserConnections() closed only connections that did pusher:signin; a tab that joined its cafe's channels
  // through /broadcasting/auth without signing in kept receiving them after the user was deactivated.
  test("deactivating a user also closes (4009) connections Mesa authorized for them that never signed in; they leave the cafe presence", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const root = await signedIn(h.testApp, w.root);
    const sara = await signedIn(h.testApp, w.staffA);
    // Sara's tab joins her cafe and her own channel through the real endpoint, and never signs in.
    const tab = browserClient(h, sara);
    await connected(tab);
    await joined(tab, `presence-cafe.${w.cafeA}`);
    await joined(tab, `private-App.Models.User.${w.staffA.id}`);
    // A raw socket authorized through the endpoint for Sara, also without signin.
    const raw = await RawSocket.connect(h);
    const signed = (await (
      await authRequest(sara, "/broadcasting/auth", {
        socket_id: raw.socketId,
        channel_name: `presence-cafe.${w.cafeA}`,
      })
    ).json()) as Json;
    expect((await raw.subscribe(`presence-cafe.${w.cafeA}`, signed)).event).toBe(
      "pusher_internal:subscription_succeeded",
    );
    // Root watches the cafe.
    const watcher = browserClient(h, root);
    await connected(watcher);
    const room: any = await joined(watcher, `presence-cafe.${w.cafeA}`);
    expect(room.members.count).toBe(2);
    const removed: any[] = [];
    room.bind("pusher:member_removed", (m: any) => removed.push(m.id));

    const response = await root.request(`/users/${w.staffA.id}/deactivate`, {
      method: "POST",
      inertia: true,
      json: {},
      headers: { referer: `${BASE}/users` },
    });
    expect(response.status).toBe(302);
    expect((await raw.closed).code).toBe(4009);
    await eventually(() => tab.connection.state === "disconnected", "Sara's tab to be closed");
    await eventually(() => removed.length === 1, "member_removed");
    expect(removed).toEqual([String(w.staffA.id)]);
    await Bun.sleep(100);
    expect(tab.connection.state).toBe("disconnected"); // 4009: refused, no reconnect
    expect(watcher.connection.state).toBe("connected");
    await untilConnections(h, 1);
  });

  test("one connection acts for one user: once authorized for Sara, a socket is refused (403) for Beto by both endpoints", async () => {
    const h = await startServer();
    const w = await buildWorld(h.testApp);
    const sara = await signedIn(h.testApp, w.staffA);
    const beto = await signedIn(h.testApp, w.staffB);
    const raw = await RawSocket.connect(h);
    const status = async (client: Client, path: string, form: Record<string, string>) =>
      (await authRequest(client, path, form)).status;
    expect(
      await status(sara, "/broadcasting/auth", {
        socket_id: raw.socketId,
        channel_name: `private-App.Models.User.${w.staffA.id}`,
      }),
    ).toBe(200);
    expect(
      await status(beto, "/broadcasting/auth", {
        socket_id: raw.socketId,
        channel_name: `private-App.Models.User.${w.staffB.id}`,
      }),
    ).toBe(403);
    expect(await status(beto, "/broadcasting/user-auth", { socket_id: raw.socketId })).toBe(403);
    expect(await status(sara, "/broadcasting/user-auth", { socket_id: raw.socketId })).toBe(200);
    // Terminating Beto leaves Sara's connection alone; terminating Sara closes it.
    await h.sdk.terminateUserConnections(String(w.staffB.id));
    await raw.sync();
    expect(raw.closeEvent).toBeNull();
    await h.sdk.terminateUserConnections(String(w.staffA.id));
    expect((await raw.closed).code).toBe(4009);

    // A connection signed in (pusher:signin) as Sara through the endpoint is refused for Beto as well.
    const tab = browserClient(h, sara);
    await connected(tab);
    tab.signin();
    await eventually(() => (tab.user as any).user_data?.id === String(w.staffA.id), "signin");
    expect(
      await status(beto, "/broadcasting/auth", {
        socket_id: tab.connection.socket_id,
        channel_name: `private-App.Models.User.${w.staffB.id}`,
      }),
    ).toBe(403);
    // Socket ids no connection has are signed as before (the signature is of no use to anyone).
    expect(
      await status(beto, "/broadcasting/auth", {
        socket_id: "1.2",
        channel_name: `private-App.Models.User.${w.staffB.id}`,
      }),
    ).toBe(200);
  });
});
