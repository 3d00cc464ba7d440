/**
 * The platform around every page: sessions and their cookies, the XSRF cookie, security headers, the health
 * check, 404s, static files, the language switch, parameter formats and route access for guests.
 */
import { describe, expect, test } from "bun:test";
import { access, type Access, type RouteDefinition } from "../../src/http/routing";
import { BASE, Client, createTestApp, embeddedPage, type TestApp } from "../support/app";

const SESSION_COOKIE = "mesa_session";

function setup(options: { routes?: RouteDefinition[]; env?: Record<string, string> } = {}): {
  app: TestApp;
  client: Client;
} {
  const app = createTestApp(options);
  return { app, client: new Client(app) };
}

/** The Set-Cookie value for `name`, split into its attributes (lower-cased names). */
function setCookie(
  response: Response,
  name: string,
): { value: string; attributes: Record<string, string | true> } | null {
  const raw = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!raw) return null;
  const [pair, ...rest] = raw.split(";").map((s) => s.trim());
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq === -1) attributes[part.toLowerCase()] = true;
    else attributes[part.slice(0, eq).toLowerCase()] = part.slice(eq + 1);
  }
  return { value: decodeURIComponent(pair.slice(name.length + 1)), attributes };
}

function sha256(value: string): string {
  return new Bun.CryptoHasher("sha256").update(value).digest("hex");
}

function sessionIds(app: TestApp): string[] {
  return app.db.$client
    .query<{ id: string }, []>("SELECT id FROM sessions")
    .all()
    .map((row) => row.id);
}

/** A session id in the cookie's format that the server never issued. */
function forgedId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

describe("sessions", () => {
  test("the session cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure over http", async () => {
    const { client } = setup();
    const cookie = setCookie(await client.get("/"), SESSION_COOKIE);
    expect(cookie).not.toBeNull();
    expect(cookie!.attributes.httponly).toBe(true);
    expect(cookie!.attributes.samesite).toBe("Lax");
    expect(cookie!.attributes.path).toBe("/");
    expect(cookie!.attributes).not.toHaveProperty("secure");
  });

  test("the session and XSRF cookies are Secure when APP_URL is https", async () => {
    const { client } = setup({ env: { APP_URL: "https://mesa.example" } });
    const response = await client.get("/");
    expect(setCookie(response, SESSION_COOKIE)!.attributes.secure).toBe(true);
    expect(setCookie(response, "XSRF-TOKEN")!.attributes.secure).toBe(true);
  });

  test("the sessions table stores the SHA-256 of the cookie's id, never the id itself", async () => {
    const { app, client } = setup();
    await client.get("/");
    const id = client.cookies.get(SESSION_COOKIE)!;
    expect(id).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(sessionIds(app)).toEqual([sha256(id)]);
    const dump = JSON.stringify(app.db.$client.query("SELECT * FROM sessions").all());
    expect(dump).not.toContain(id);
  });

  test("the same cookie keeps the same session across requests", async () => {
    const { app, client } = setup();
    await client.get("/");
    const id = client.cookies.get(SESSION_COOKIE)!;
    await client.visit("/settings/appearance");
    expect(client.cookies.get(SESSION_COOKIE)).toBe(id);
    expect(sessionIds(app)).toEqual([sha256(id)]);
  });

  test("a forged or unknown session cookie gets a fresh session with a new id", async () => {
    const { app, client } = setup();
    const forged = forgedId();
    client.cookies.set(SESSION_COOKIE, forged);
    const response = await client.get("/");
    const issued = setCookie(response, SESSION_COOKIE)!.value;
    expect(issued).not.toBe(forged);
    expect(sessionIds(app)).toEqual([sha256(issued)]);
  });

  test("a session idle longer than the lifetime is replaced by a fresh one", async () => {
    const { app, client } = setup();
    await client.get("/");
    const old = client.cookies.get(SESSION_COOKIE)!;
    app.db.$client.query("UPDATE sessions SET last_activity = 0").run();
    await client.get("/");
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(old);
  });

  test("the XSRF-TOKEN cookie is readable by scripts (not HttpOnly) and carries the session's CSRF token", async () => {
    const { app, client } = setup();
    const response = await client.get("/");
    const cookie = setCookie(response, "XSRF-TOKEN");
    expect(cookie).not.toBeNull();
    expect(cookie!.attributes).not.toHaveProperty("httponly");
    expect(cookie!.attributes.path).toBe("/");
    const session = app.sessions.load(client.cookies.get(SESSION_COOKIE));
    expect(session.isNew).toBe(false);
    expect(session.get("_token")).toBe(cookie!.value);
  });
});

describe("security headers", () => {
  test("the CSP script-src nonce matches the nonce of the inline scripts", async () => {
    const { client } = setup();
    const response = await client.get("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/script-src [^;]*'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    const scriptNonces = [...html.matchAll(/<script\b[^>]*\snonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThanOrEqual(2); // the theme script and the entry module
    for (const n of scriptNonces) expect(n).toBe(nonce!);
    // Every executable script carries it; only the JSON data block goes without.
    const withoutNonce = [...html.matchAll(/<script\b(?![^>]*\snonce=)[^>]*>/g)].map((m) => m[0]);
    expect(withoutNonce).toEqual(['<script data-page="app" type="application/json">']);
  });

  test("each response gets a fresh nonce", async () => {
    const { client } = setup();
    const first = (await client.get("/")).headers.get("content-security-policy");
    const second = (await client.get("/")).headers.get("content-security-policy");
    expect(first).not.toBe(second);
  });

  test("pages and JSON carry X-Content-Type-Options, Referrer-Policy and frame-ancestors 'none'", async () => {
    const { client } = setup();
    for (const response of [await client.get("/"), (await client.visit("/")).response, await client.get("/up")]) {
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
  });
});

describe("health check", () => {
  test("GET /up answers 200 { status: ok }", async () => {
    const { client } = setup();
    const response = await client.get("/up");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("not found", () => {
  test("an unknown URL renders the error page with status 404 as HTML", async () => {
    const { client } = setup();
    const response = await client.get("/no/such/page");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    const html = await response.text();
    expect(embeddedPage(html)).toMatchObject({ component: "error", url: "/no/such/page", props: { status: 404 } });
    expect(html).toContain("Página no encontrada");
  });

  test("an unknown URL renders the error page with status 404 for an X-Inertia visit", async () => {
    const { client } = setup();
    const { response, page } = await client.visit("/no/such/page");
    expect(response.status).toBe(404);
    expect(response.headers.get("x-inertia")).toBe("true");
    expect(page.component).toBe("error");
    expect(page.props.status).toBe(404);
  });

  test("a parameter that does not match its format is 404 and the handler never runs", async () => {
    let calls = 0;
    const { client } = setup({
      routes: [
        {
          name: "test.orders.show",
          methods: ["GET"],
          uri: "/test/orders/{order}",
          wheres: { order: "\\d+" },
          access: access.public,
          handle: (ctx) => {
            calls++;
            return ctx.renderComponent("test/order", { order: ctx.params.order });
          },
        },
      ],
    });
    expect((await client.visit("/test/orders/42")).page.props.order).toBe("42");
    const { response, page } = await client.visit("/test/orders/42abc");
    expect(response.status).toBe(404);
    expect(page.component).toBe("error");
    expect(calls).toBe(1);
  });
});

describe("static files", () => {
  test("/favicon.svg is served from public/", async () => {
    const { client } = setup();
    const response = await client.get("/favicon.svg");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("image/svg+xml");
    expect(await response.text()).toBe(await Bun.file(`${import.meta.dir}/../../public/favicon.svg`).text());
  });

  for (const path of [
    "/..%2fpackage.json",
    "/%2e%2e%2fpackage.json",
    "/build/..%2f..%2fpackage.json",
    "/build/%2e%2e%2f%2e%2e%2fpackage.json",
  ]) {
    test(`a path climbing out of public/ is not served: ${path}`, async () => {
      const { client } = setup();
      const response = await client.get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('"name": "mesa"');
    });
  }
});

describe("language switch", () => {
  async function switchTo(client: Client, locale: unknown): Promise<Response> {
    await client.get("/settings/language");
    return client.request("/settings/language", {
      method: "PUT",
      inertia: true,
      json: { locale },
      headers: { referer: `${BASE}/settings/language` },
    });
  }

  test("PUT /settings/language with en sets the locale cookie and goes back with 303", async () => {
    const { client } = setup();
    const response = await switchTo(client, "en");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/settings/language");
    const cookie = setCookie(response, "locale");
    expect(cookie?.value).toBe("en");
    expect(cookie?.attributes.path).toBe("/");
  });

  test("after the switch, pages come in English: props.locale, the flash message and <html lang>", async () => {
    const { client } = setup();
    await switchTo(client, "en");
    const { page } = await client.visit("/settings/language");
    expect(page.props.locale).toBe("en");
    expect(page.flash).toEqual({ success: "Language changed to English." });
    const html = await (await client.get("/")).text();
    expect(html).toContain('<html lang="en"');
    expect(embeddedPage(html).props.locale).toBe("en");
  });

  test("an invalid locale is a validation error on the locale field and keeps the language", async () => {
    const { client } = setup();
    const response = await switchTo(client, "fr");
    expect(response.status).toBe(303);
    expect(setCookie(response, "locale")).toBeNull();
    const { page } = await client.visit("/settings/language");
    expect(page.props.errors).toEqual({ locale: "Elija una de las opciones: es, en." });
    expect(page.props.locale).toBe("es");
  });
});

describe("access for guests", () => {
  function protectedRoute(uri: string, routeAccess: Access, counter: { calls: number }): RouteDefinition {
    return {
      name: `test${uri.replace(/\//g, ".")}`,
      methods: ["GET"],
      uri,
      access: routeAccess,
      handle: (ctx) => {
        counter.calls++;
        return ctx.renderComponent("test/protected");
      },
    };
  }

  const cases: [string, Access][] = [
    ["a signed-in route", access.signedIn],
    ["a permission route", access.can("users.manage")],
  ];

  for (const [label, routeAccess] of cases) {
    test(`a guest opening ${label} as a page is redirected (302) to sign in`, async () => {
      const counter = { calls: 0 };
      const { app, client } = setup({ routes: [protectedRoute("/test/protected", routeAccess, counter)] });
      const signIn = app.routes.find((r) => r.name === "login")?.uri ?? "/login";
      const browser = await client.get("/test/protected");
      expect(browser.status).toBe(302);
      expect(browser.headers.get("location")).toBe(signIn);
      const visit = await client.request("/test/protected", { inertia: true });
      expect(visit.status).toBe(302);
      expect(visit.headers.get("location")).toBe(signIn);
      expect(counter.calls).toBe(0);
    });

    test(`a guest JSON client calling ${label} gets 401 JSON`, async () => {
      const counter = { calls: 0 };
      const { client } = setup({ routes: [protectedRoute("/test/protected", routeAccess, counter)] });
      const response = await client.get("/test/protected", { headers: { accept: "application/json" } });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      expect(typeof (await response.json()).message).toBe("string");
      expect(counter.calls).toBe(0);
    });
  }

  test("the 401 JSON message is a translated sentence, not a translation key", async () => {
    const { client } = setup({ routes: [protectedRoute("/test/protected", access.signedIn, { calls: 0 })] });
    const response = await client.get("/test/protected", { headers: { accept: "application/json" } });
    const { message } = await response.json();
    expect(message).not.toStartWith("errors.");
  });
});

describe("the health check", () => {
  test("starts no session: no cookie, no row", async () => {
    const app = createTestApp();
    const before = app.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM sessions").get()!.n;
    const response = await app.app.handle(new Request(`${BASE}/up`));
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(app.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM sessions").get()!.n).toBe(before);
  });
});
