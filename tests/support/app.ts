/**
 * Test helpers: an app on a private in-memory database, requests through `app.handle(new Request(...))`,
 * and a cookie jar so a sequence of requests shares one session like a browser would.
 */
import { loadConfig, type Config } from "../../src/config";
import { migrateDatabase, openDatabase, type Db } from "../../src/db";
import { createApp } from "../../src/http/app";
import { routes as productRoutes } from "../../src/http/routes";
import type { RouteDefinition } from "../../src/http/routing";
import type { SessionStore } from "../../src/http/session";
import { createServices } from "../../src/http/services";
import type { AppServices } from "../../src/http/context";
import { migratedDatabase } from "./database";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const BASE = "http://mesa.test";

export interface TestApp {
  app: ReturnType<typeof createApp>;
  services: AppServices;
  /** Folder where this app's mail is written (MAIL_MAILER=file). */
  mailPath: string;
  db: Db;
  config: Config;
  sessions: SessionStore;
  version: string;
  routes: RouteDefinition[];
}

export const TEST_APP_KEY = "test-key-0123456789-0123456789-0123456789";

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    APP_URL: BASE,
    DB_PATH: ":memory:",
    LOG_REQUESTS: "false",
    APP_KEY: TEST_APP_KEY,
    MAIL_PATH: mkdtempSync(join(tmpdir(), "mesa-mail-")),
    // No realtime server listens in app.handle tests: broadcasts are refused at once (and logged).
    PUSHER_HOST: "127.0.0.1",
    PUSHER_PORT: "9",
    ...overrides,
  });
}

/** Builds the app with the product's routes, plus any extra routes a test needs. */
export function createTestApp(options: { routes?: RouteDefinition[]; env?: Record<string, string> } = {}): TestApp {
  const config = testConfig(options.env);
  const db = migratedDatabase();
  const routes = [...productRoutes, ...(options.routes ?? [])];
  const services = createServices(config, db, { routes });
  const app = createApp(services);
  return {
    app,
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes,
  };
}

/**
 * The product's app on a database file (createTestApp keeps its database in memory): for tests that share the file
 * with a Mesa process they start, or that need a real disk under it. `env` adds settings.
 */
export function fileTestApp(dbPath: string, env: Record<string, string> = {}): TestApp {
  const config = testConfig({ DB_PATH: dbPath, ...env });
  const db = openDatabase(dbPath);
  migrateDatabase(db);
  const services = createServices(config, db, { routes: productRoutes });
  return {
    app: createApp(services),
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes: productRoutes,
  };
}

/** A browser-like client: keeps cookies between requests and sends the CSRF token the way the page client does. */
export class Client {
  readonly cookies = new Map<string, string>();

  constructor(private readonly testApp: TestApp) {}

  async request(path: string, init: RequestInit & { json?: unknown; inertia?: boolean } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size)
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "));
    if (init.inertia) {
      headers.set("x-inertia", "true");
      headers.set("x-requested-with", "XMLHttpRequest");
      if (!headers.has("x-inertia-version")) headers.set("x-inertia-version", this.testApp.version);
    }
    const method = (init.method ?? "GET").toUpperCase();
    const xsrf = this.cookies.get("XSRF-TOKEN");
    if (method !== "GET" && xsrf && !headers.has("x-xsrf-token")) headers.set("x-xsrf-token", xsrf);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const response = await this.testApp.app.handle(
      new Request(BASE + path, { ...init, method, headers, body, redirect: "manual" }),
    );
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    }
    return response;
  }

  get(path: string, init: RequestInit & { inertia?: boolean } = {}) {
    return this.request(path, { ...init, method: "GET" });
  }

  /** A page-protocol visit; returns the page object. */
  async visit(path: string, headers: Record<string, string> = {}) {
    const response = await this.request(path, { inertia: true, headers });
    return { response, page: (await response.json()) as Record<string, any> };
  }
}

/** Reads the page object embedded in a server-rendered document. */
export function embeddedPage(html: string): Record<string, any> {
  const match = html.match(/<script data-page="app" type="application\/json">([\s\S]*?)<\/script>/);
  if (!match) throw new Error("no embedded page object");
  return JSON.parse(match[1]);
}
