/**
 * The server side of the page protocol, seen the way the @inertiajs/react client sees it: the first HTML load,
 * X-Inertia visits, asset versions, redirects, partial reloads, prop kinds, errors, flash, history flags,
 * request bodies and CSRF. Every test builds its own app with the test-only routes it needs.
 */
import { describe, expect, test } from "bun:test";
import { ValidationFailed } from "../../src/domain/errors";
import { message } from "../../src/shared/message";
import { translate } from "../../src/shared/i18n";
import { always, defer, merge, once, optional } from "../../src/http/page-protocol/props";
import { access, type Method, type RouteDefinition } from "../../src/http/routing";
import { resolveRoute } from "../../resources/js/hooks/use-route";
import { BASE, Client, createTestApp, embeddedPage, type TestApp } from "../support/app";

type Handler = RouteDefinition["handle"];

/** A public test-only route; its name is derived from its method(s) and URI. */
function testRoute(
  methods: Method[],
  uri: string,
  handle: Handler,
  extra: Partial<RouteDefinition> = {},
): RouteDefinition {
  return {
    name: `test.${methods.join("-").toLowerCase()}.${uri}`,
    methods,
    uri,
    access: access.public,
    handle,
    ...extra,
  };
}

function setup(...routes: RouteDefinition[]): { app: TestApp; client: Client } {
  const app = createTestApp({ routes });
  return { app, client: new Client(app) };
}

/** Opens the home page so the client holds a session cookie and the XSRF-TOKEN cookie, as a browser would. */
async function startSession(client: Client): Promise<void> {
  const response = await client.get("/");
  expect(response.status).toBe(200);
  expect(client.cookies.get("XSRF-TOKEN")).toBeTruthy();
}

/** The headers `router.reload({ only, except, reset })` sends from a page showing `component`. */
function partialHeaders(
  component: string,
  parts: { only?: string[]; except?: string[]; reset?: string[] },
): Record<string, string> {
  const headers: Record<string, string> = { "x-inertia-partial-component": component };
  const only = [...(parts.only ?? []), ...(parts.reset ?? [])];
  if (only.length) headers["x-inertia-partial-data"] = only.join(",");
  if (parts.except?.length) headers["x-inertia-partial-except"] = parts.except.join(",");
  if (parts.reset?.length) headers["x-inertia-reset"] = parts.reset.join(",");
  return headers;
}

/** The part of an HTML document between <head> and </head>. */
function headOf(html: string): string {
  const match = html.match(/<head>([\s\S]*?)<\/head>/);
  if (!match) throw new Error("no <head>");
  return match[1];
}

/** The opening <html …> tag. */
function htmlTag(html: string): string {
  const match = html.match(/<html[^>]*>/);
  if (!match) throw new Error("no <html> tag");
  return match[0];
}

const SHARED_KEYS = ["app", "locale", "appearance", "settings", "auth", "navigation", "ziggy", "errors"];

describe("first visit (HTML)", () => {
  test("answers with a full HTML document holding the page JSON and the server-rendered page", async () => {
    const { client } = setup();
    const response = await client.get("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    const html = await response.text();
    expect(html).toStartWith("<!DOCTYPE html>");
    expect(html).toContain('<script data-page="app" type="application/json">');
    expect(embeddedPage(html)).toMatchObject({ component: "welcome", url: "/" });
    const root = html.match(/<div data-server-rendered="true" id="app">([\s\S]*)<\/div>\s*<script type="module"/);
    expect(root).not.toBeNull();
    // The welcome page's heading, rendered on the server.
    expect(root![1]).toMatch(/<h1[^>]*>Mesa<\/h1>/);
  });

  test("escapes / as \\/ and < as \\u003c in the embedded page JSON", async () => {
    const note = "</script><b>bold</b>";
    const { client } = setup(testRoute(["GET"], "/test/escape", (ctx) => ctx.renderComponent("welcome", { note })));
    const html = await (await client.get("/test/escape")).text();
    expect(html).not.toContain("</script><b>");
    expect(html).toContain('"note":"\\u003c\\/script>\\u003cb>bold\\u003c\\/b>"');
    expect(embeddedPage(html).props.note).toBe(note);
  });

  test("puts the page title, suffixed with the app name, in the head", async () => {
    const { client } = setup();
    const html = await (await client.get("/")).text();
    expect(headOf(html)).toContain('<title data-inertia="">Bienvenido - Mesa</title>');
  });

  test("sets <html lang> from the locale cookie", async () => {
    const { client } = setup();
    expect(htmlTag(await (await client.get("/")).text())).toContain('lang="es"');
    client.cookies.set("locale", "en");
    expect(htmlTag(await (await client.get("/")).text())).toContain('lang="en"');
  });

  test('adds class="dark" to <html> when the appearance cookie is dark', async () => {
    const { client } = setup();
    client.cookies.set("appearance", "dark");
    const tag = htmlTag(await (await client.get("/")).text());
    expect(tag).toContain('class="dark"');
    expect(tag).toContain('data-appearance="dark"');
  });

  test('leaves the theme to the system (data-appearance="system", no dark class) without an appearance cookie', async () => {
    const { client } = setup();
    const tag = htmlTag(await (await client.get("/")).text());
    expect(tag).toContain('data-appearance="system"');
    expect(tag).not.toContain("dark");
  });
});

describe("X-Inertia visits", () => {
  test("answer with the page object as JSON: component, props, url with query string, version, flash, errors", async () => {
    const { app, client } = setup();
    const { response, page } = await client.visit("/settings/appearance?tab=2&q=a%20b");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(page.component).toBe("settings/appearance");
    expect(page.url).toBe("/settings/appearance?tab=2&q=a%20b");
    expect(page.version).toBe(app.version);
    expect(page.flash).toEqual({});
    expect(page.props.errors).toEqual({});
    expect(page.props.app).toEqual({ name: "Mesa" });
  });

  test("carry the headers X-Inertia: true and Vary: X-Inertia", async () => {
    const { client } = setup();
    const { response } = await client.visit("/");
    expect(response.headers.get("x-inertia")).toBe("true");
    expect(response.headers.get("vary")).toContain("X-Inertia");
  });

  test("a first (HTML) load has Vary: X-Inertia but no X-Inertia header", async () => {
    const { client } = setup();
    const response = await client.get("/");
    expect(response.headers.get("vary")).toContain("X-Inertia");
    expect(response.headers.has("x-inertia")).toBe(false);
  });
});

describe("asset version", () => {
  test("a GET with a stale X-Inertia-Version gets 409 with X-Inertia-Location = the request URL and no X-Inertia header", async () => {
    const { client } = setup();
    const response = await client.request("/settings/appearance?tab=2", {
      inertia: true,
      headers: { "x-inertia-version": "stale-build" },
    });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-inertia-location")).toBe(`${BASE}/settings/appearance?tab=2`);
    expect(response.headers.has("x-inertia")).toBe(false);
  });

  test("a GET without X-Inertia-Version is a mismatch too: 409 with X-Inertia-Location = the request URL", async () => {
    const { client } = setup();
    const response = await client.request("/settings/appearance?tab=2", {
      headers: { "x-inertia": "true", "x-requested-with": "XMLHttpRequest" },
    });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-inertia-location")).toBe(`${BASE}/settings/appearance?tab=2`);
    expect(response.headers.has("x-inertia")).toBe(false);
    expect(await response.text()).toBe("");
  });

  test("behind a proxy, X-Inertia-Location is the page at the address the browser knows (APP_URL)", async () => {
    const app = createTestApp({ env: { APP_URL: "https://comedor.example" } });
    const response = await new Client(app).request("/settings/appearance?tab=2", {
      inertia: true,
      headers: { "x-inertia-version": "stale-build" },
    });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-inertia-location")).toBe("https://comedor.example/settings/appearance?tab=2");
  });

  test("an empty X-Inertia-Version is a mismatch: 409", async () => {
    const { client } = setup();
    const response = await client.request("/", { inertia: true, headers: { "x-inertia-version": "" } });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-inertia-location")).toBe(`${BASE}/`);
  });

  test("a GET without X-Inertia is a first load whatever its version header says", async () => {
    const { client } = setup();
    const response = await client.get("/", { headers: { "x-inertia-version": "stale-build" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
  });

  test("a POST with a stale or a missing X-Inertia-Version is handled, not answered 409", async () => {
    let handled = 0;
    const { client } = setup(
      testRoute(["POST"], "/test/save", (ctx) => {
        handled++;
        return ctx.redirect("/");
      }),
    );
    await startSession(client);
    const stale = await client.request("/test/save", {
      method: "POST",
      inertia: true,
      json: {},
      headers: { "x-inertia-version": "stale-build" },
    });
    expect(stale.status).toBe(302);
    const missing = await client.request("/test/save", {
      method: "POST",
      json: {},
      headers: { "x-inertia": "true", "x-xsrf-token": client.cookies.get("XSRF-TOKEN")! },
    });
    expect(missing.status).toBe(302);
    expect(handled).toBe(2);
  });

  test("flash data survives the 409 so the full reload still shows it", async () => {
    const { client } = setup(
      testRoute(["POST"], "/test/flash", (ctx) => {
        ctx.flash("success", "Saved.");
        return ctx.redirect("/");
      }),
    );
    await startSession(client);
    await client.request("/test/flash", { method: "POST", inertia: true, json: {} });
    const stale = await client.request("/", { inertia: true, headers: { "x-inertia-version": "stale-build" } });
    expect(stale.status).toBe(409);
    const html = await (await client.get("/")).text();
    expect(embeddedPage(html).flash).toEqual({ success: "Saved." });
  });
});

describe("redirects", () => {
  const redirectRoutes = [
    testRoute(["GET"], "/test/away", (ctx) => ctx.redirect("https://elsewhere.example/path?x=1")),
    testRoute(["GET"], "/test/fragment", (ctx) => ctx.redirect("/x#frag")),
  ];

  test("a redirect to another origin on an X-Inertia request becomes 409 + X-Inertia-Location", async () => {
    const { client } = setup(...redirectRoutes);
    const response = await client.request("/test/away", { inertia: true });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-inertia-location")).toBe("https://elsewhere.example/path?x=1");
    expect(response.headers.has("location")).toBe(false);
    expect(response.headers.has("x-inertia")).toBe(false);
  });

  test("a redirect to a URL with a #fragment on an X-Inertia request becomes 409 + X-Inertia-Redirect", async () => {
    const { client } = setup(...redirectRoutes);
    const response = await client.request("/test/fragment", { inertia: true });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-inertia-redirect")).toBe("/x#frag");
    expect(response.headers.has("location")).toBe(false);
    expect(response.headers.has("x-inertia")).toBe(false);
  });

  test("the same redirects stay 302 with Location for a plain browser request", async () => {
    const { client } = setup(...redirectRoutes);
    const away = await client.get("/test/away");
    expect(away.status).toBe(302);
    expect(away.headers.get("location")).toBe("https://elsewhere.example/path?x=1");
    const fragment = await client.get("/test/fragment");
    expect(fragment.status).toBe(302);
    expect(fragment.headers.get("location")).toBe("/x#frag");
  });

  for (const method of ["PUT", "PATCH", "DELETE"] as const) {
    test(`a 302 from a ${method} handler becomes 303`, async () => {
      const { client } = setup(testRoute([method], "/test/write", (ctx) => ctx.redirect("/done")));
      await startSession(client);
      const response = await client.request("/test/write", { method, inertia: true, json: {} });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/done");
    });
  }

  test("a 302 from a POST handler stays 302", async () => {
    const { client } = setup(testRoute(["POST"], "/test/write", (ctx) => ctx.redirect("/done")));
    await startSession(client);
    const response = await client.request("/test/write", { method: "POST", inertia: true, json: {} });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/done");
  });
});

describe("partial reloads", () => {
  const partialRoute = testRoute(["GET"], "/test/partial", (ctx) =>
    ctx.renderComponent("test/partial", {
      a: "A",
      b: "B",
      account: { user: { name: "Ana", email: "ana@example.com" }, team: { name: "Kitchen" } },
      stamp: always("S"),
    }),
  );

  test("with a matching component, only the props in X-Inertia-Partial-Data are sent, plus errors and always props", async () => {
    const { client } = setup(partialRoute);
    const { page } = await client.visit("/test/partial", partialHeaders("test/partial", { only: ["a"] }));
    expect(Object.keys(page.props).sort()).toEqual(["a", "errors", "stamp"]);
    expect(page.props.a).toBe("A");
    expect(page.props.errors).toEqual({});
  });

  test("with another component, the partial headers are ignored and all props are sent", async () => {
    const { client } = setup(partialRoute);
    const { page } = await client.visit("/test/partial", partialHeaders("welcome", { only: ["a"] }));
    expect(Object.keys(page.props)).toEqual(expect.arrayContaining(["a", "b", "account", "stamp", ...SHARED_KEYS]));
  });

  test("X-Inertia-Partial-Except leaves the named props out and sends the rest", async () => {
    const { client } = setup(partialRoute);
    const { page } = await client.visit("/test/partial", partialHeaders("test/partial", { except: ["b", "locale"] }));
    expect(page.props).not.toHaveProperty("b");
    expect(page.props).not.toHaveProperty("locale");
    expect(page.props.a).toBe("A");
    expect(page.props.app).toEqual({ name: "Mesa" });
  });

  test("a dot path in Partial-Data sends only that part of a nested prop", async () => {
    const { client } = setup(partialRoute);
    const { page } = await client.visit("/test/partial", partialHeaders("test/partial", { only: ["account.user"] }));
    expect(page.props.account).toEqual({ user: { name: "Ana", email: "ana@example.com" } });
    expect(page.props).not.toHaveProperty("a");
  });

  test("a dot path in Partial-Except removes only that part of a nested prop", async () => {
    const { client } = setup(partialRoute);
    const { page } = await client.visit(
      "/test/partial",
      partialHeaders("test/partial", { except: ["account.user.email"] }),
    );
    expect(page.props.account).toEqual({ user: { name: "Ana" }, team: { name: "Kitchen" } });
    expect(page.props.a).toBe("A");
  });

  test("X-Inertia-Reset sends the prop but leaves it out of mergeProps, so the client replaces it", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/reset", (ctx) =>
        ctx.renderComponent("test/reset", { items: merge([3, 4]), others: merge([9]) }),
      ),
    );
    const { page } = await client.visit(
      "/test/reset",
      partialHeaders("test/reset", { only: ["others"], reset: ["items"] }),
    );
    expect(page.props.items).toEqual([3, 4]);
    expect(page.mergeProps).toEqual(["others"]);
  });
});

describe("prop kinds", () => {
  test("always props are sent even when a partial reload excludes them", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/always", (ctx) => ctx.renderComponent("test/always", { a: "A", stamp: always("S") })),
    );
    const { page } = await client.visit(
      "/test/always",
      partialHeaders("test/always", { only: ["a"], except: ["stamp"] }),
    );
    expect(page.props.stamp).toBe("S");
  });

  test("optional props are absent from a full visit and never evaluated", async () => {
    let calls = 0;
    const { client } = setup(
      testRoute(["GET"], "/test/optional", (ctx) =>
        ctx.renderComponent("test/optional", {
          extra: optional(() => {
            calls++;
            return "E";
          }),
        }),
      ),
    );
    const { page } = await client.visit("/test/optional");
    expect(page.props).not.toHaveProperty("extra");
    expect(calls).toBe(0);
  });

  test("optional props are sent when a partial reload asks for them", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/optional", (ctx) =>
        ctx.renderComponent("test/optional", { extra: optional(() => "E") }),
      ),
    );
    const { page } = await client.visit("/test/optional", partialHeaders("test/optional", { only: ["extra"] }));
    expect(page.props.extra).toBe("E");
  });

  const deferRoute = (counter: { calls: number }) =>
    testRoute(["GET"], "/test/defer", (ctx) =>
      ctx.renderComponent("test/defer", {
        a: "A",
        stats: defer(() => {
          counter.calls++;
          return { total: 3 };
        }),
        chart: defer(() => [1, 2]),
        audit: defer(() => ["x"], "slow"),
      }),
    );

  test("deferred props are left out of the first response, unevaluated, and listed in deferredProps by group", async () => {
    const counter = { calls: 0 };
    const { client } = setup(deferRoute(counter));
    const { page } = await client.visit("/test/defer");
    expect(page.props).not.toHaveProperty("stats");
    expect(page.props).not.toHaveProperty("chart");
    expect(page.props).not.toHaveProperty("audit");
    expect(page.deferredProps).toEqual({ default: ["stats", "chart"], slow: ["audit"] });
    expect(counter.calls).toBe(0);
  });

  test("a partial reload for a deferred group fetches those props, and its response has no deferredProps", async () => {
    const { client } = setup(deferRoute({ calls: 0 }));
    const { page } = await client.visit("/test/defer", {
      ...partialHeaders("test/defer", { only: ["stats", "chart"] }),
      "cache-control": "no-cache",
    });
    expect(page.props.stats).toEqual({ total: 3 });
    expect(page.props.chart).toEqual([1, 2]);
    expect(page.props).not.toHaveProperty("audit");
    expect(page).not.toHaveProperty("deferredProps");
  });

  const mergeRoute = testRoute(["GET"], "/test/merge", (ctx) =>
    ctx.renderComponent("test/merge", {
      feed: merge([1, 2]),
      inbox: merge([{ id: 1 }]).prepend(),
      filters: merge({ a: { b: 1 } }).deep(),
      users: merge([{ id: 7 }]).matchOn("id"),
      plain: [5],
    }),
  );

  test("merge() props are listed in mergeProps", async () => {
    const { client } = setup(mergeRoute);
    const { page } = await client.visit("/test/merge");
    expect(page.mergeProps).toEqual(["feed", "users"]);
    expect(page.props.feed).toEqual([1, 2]);
  });

  test("merge().prepend() props are listed in prependProps", async () => {
    const { client } = setup(mergeRoute);
    const { page } = await client.visit("/test/merge");
    expect(page.prependProps).toEqual(["inbox"]);
  });

  test("merge().deep() props are listed in deepMergeProps", async () => {
    const { client } = setup(mergeRoute);
    const { page } = await client.visit("/test/merge");
    expect(page.deepMergeProps).toEqual(["filters"]);
  });

  test('matchOn("id") is listed in matchPropsOn as "<prop>.id"', async () => {
    const { client } = setup(mergeRoute);
    const { page } = await client.visit("/test/merge");
    expect(page.matchPropsOn).toEqual(["users.id"]);
  });

  test("a deferred merge prop is listed in mergeProps when its partial reload delivers it", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/defer-merge", (ctx) =>
        ctx.renderComponent("test/defer-merge", { rows: defer(() => [1]).merge() }),
      ),
    );
    const first = await client.visit("/test/defer-merge");
    expect(first.page.deferredProps).toEqual({ default: ["rows"] });
    const { page } = await client.visit("/test/defer-merge", partialHeaders("test/defer-merge", { only: ["rows"] }));
    expect(page.props.rows).toEqual([1]);
    expect(page.mergeProps).toEqual(["rows"]);
  });

  const EXPIRES_AT = 4102444800000; // 2100-01-01
  const onceRoute = (counter: { calls: number }) =>
    testRoute(["GET"], "/test/once", (ctx) =>
      ctx.renderComponent("test/once", {
        plans: once(
          () => {
            counter.calls++;
            return ["basic", "pro"];
          },
          { expiresAt: EXPIRES_AT },
        ),
      }),
    );

  test("once props are sent with an onceProps entry { prop, expiresAt }", async () => {
    const { client } = setup(onceRoute({ calls: 0 }));
    const { page } = await client.visit("/test/once");
    expect(page.props.plans).toEqual(["basic", "pro"]);
    expect(page.onceProps.plans).toEqual({ prop: "plans", expiresAt: EXPIRES_AT });
  });

  test("with X-Inertia-Except-Once-Props the value is left out (not evaluated) but the onceProps entry remains", async () => {
    const counter = { calls: 0 };
    const { client } = setup(onceRoute(counter));
    const { page } = await client.visit("/test/once", { "x-inertia-except-once-props": "plans,ziggy" });
    expect(page.props).not.toHaveProperty("plans");
    expect(page.props).not.toHaveProperty("ziggy");
    expect(page.onceProps.plans).toEqual({ prop: "plans", expiresAt: EXPIRES_AT });
    expect(page.onceProps.ziggy).toEqual({ prop: "ziggy", expiresAt: null });
    expect(counter.calls).toBe(0);
  });

  test("a partial reload naming a once prop returns it even when the client says it holds it", async () => {
    const { client } = setup(onceRoute({ calls: 0 }));
    const { page } = await client.visit("/test/once", {
      ...partialHeaders("test/once", { only: ["plans"] }),
      "x-inertia-except-once-props": "plans",
    });
    expect(page.props.plans).toEqual(["basic", "pro"]);
    expect(page.onceProps.plans).toEqual({ prop: "plans", expiresAt: EXPIRES_AT });
  });

  test("a function prop that is not sent is never called", async () => {
    let calls = 0;
    const { client } = setup(
      testRoute(["GET"], "/test/lazy", (ctx) =>
        ctx.renderComponent("test/lazy", {
          a: "A",
          report: () => {
            calls++;
            return "expensive";
          },
        }),
      ),
    );
    const { page } = await client.visit("/test/lazy", partialHeaders("test/lazy", { only: ["a"] }));
    expect(page.props).not.toHaveProperty("report");
    expect(calls).toBe(0);
  });

  test("function and async function props are sent as their resolved values", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/lazy", (ctx) =>
        ctx.renderComponent("test/lazy", { sync: () => "now", later: async () => ({ n: 1 }) }),
      ),
    );
    const { page } = await client.visit("/test/lazy");
    expect(page.props.sync).toBe("now");
    expect(page.props.later).toEqual({ n: 1 });
  });
});

describe("shared props", () => {
  test("every page gets app, locale, errors and the list of shared keys", async () => {
    const { client } = setup(testRoute(["GET"], "/test/own", (ctx) => ctx.renderComponent("test/own", { mine: 1 })));
    const { page } = await client.visit("/test/own");
    expect(page.props.app).toEqual({ name: "Mesa" });
    expect(page.props.locale).toBe("es");
    expect(page.props.errors).toEqual({});
    expect(page.props.mine).toBe(1);
    expect(page.sharedProps).toEqual(expect.arrayContaining(["app", "locale", "errors", "ziggy"]));
    expect(page.sharedProps).not.toContain("mine");
  });

  test("ziggy holds the route list in ziggy's shape, and ziggy-js (via resolveRoute) builds URLs from it", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/items/{item}", (ctx) => ctx.renderComponent("test/item"), {
        name: "test.items.show",
        wheres: { item: "\\d+" },
      }),
    );
    const { page } = await client.visit("/");
    const ziggy = page.props.ziggy;
    expect(ziggy).toMatchObject({ url: BASE, port: null, defaults: {} });
    expect(ziggy.routes.home).toEqual({ uri: "/", methods: ["GET", "HEAD"] });
    expect(ziggy.routes["language.update"]).toEqual({ uri: "settings/language", methods: ["PUT"] });
    expect(ziggy.routes["test.items.show"]).toEqual({
      uri: "test/items/{item}",
      methods: ["GET", "HEAD"],
      wheres: { item: "\\d+" },
      parameters: ["item"],
    });
    expect(resolveRoute(ziggy, "test.items.show", { item: 12 })).toBe("/test/items/12");
    expect(resolveRoute(ziggy, "language.update", undefined, true)).toBe(`${BASE}/settings/language`);
  });
});

describe("validation errors", () => {
  const FORM_ERRORS = { name: "validation.required", "lines.0.qty": message("validation.number") } as const;
  // The messages in the app's default language (Spanish).
  const SHOWN = { name: translate("es", "validation.required"), "lines.0.qty": translate("es", "validation.number") };
  const formRoutes = [
    testRoute(["GET"], "/test/form", (ctx) => ctx.renderComponent("test/form")),
    testRoute(["POST"], "/test/form", () => {
      throw new ValidationFailed(FORM_ERRORS);
    }),
  ];

  async function submit(client: Client, headers: Record<string, string> = {}) {
    return client.request("/test/form", {
      method: "POST",
      inertia: true,
      json: { name: "" },
      headers: { referer: `${BASE}/test/form?step=2`, ...headers },
    });
  }

  test("a failed validation redirects back to the Referer", async () => {
    const { client } = setup(...formRoutes);
    await startSession(client);
    const response = await submit(client);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/test/form?step=2");
  });

  test("the page after the redirect holds the messages in props.errors", async () => {
    const { client } = setup(...formRoutes);
    await startSession(client);
    await submit(client);
    const { page } = await client.visit("/test/form?step=2");
    expect(page.props.errors).toEqual(SHOWN);
  });

  test("with X-Inertia-Error-Bag the messages are nested under the bag's name", async () => {
    const { client } = setup(...formRoutes);
    await startSession(client);
    await submit(client, { "x-inertia-error-bag": "login" });
    const { page } = await client.visit("/test/form?step=2");
    expect(page.props.errors).toEqual({ login: SHOWN });
  });

  test("the errors are gone on the request after that", async () => {
    const { client } = setup(...formRoutes);
    await startSession(client);
    await submit(client);
    await client.visit("/test/form?step=2");
    const { page } = await client.visit("/test/form?step=2");
    expect(page.props.errors).toEqual({});
  });

  test("a JSON client (Accept: application/json, no X-Inertia) gets 422 with the errors", async () => {
    const { client } = setup(...formRoutes);
    await startSession(client);
    const response = await client.request("/test/form", {
      method: "POST",
      json: { name: "" },
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.errors).toEqual(SHOWN);
    expect(typeof body.message).toBe("string");
  });

  test("the 422 JSON message is a translated sentence, not a translation key", async () => {
    const { client } = setup(...formRoutes);
    await startSession(client);
    const response = await client.request("/test/form", {
      method: "POST",
      json: { name: "" },
      headers: { accept: "application/json" },
    });
    const { message } = await response.json();
    expect(message).not.toMatch(/^[a-z_]+(\.[a-z_0-9]+)+$/);
  });
});

describe("flash", () => {
  const flashRoute = testRoute(["POST"], "/test/flash", (ctx) => {
    ctx.flash("success", "Order saved.");
    return ctx.redirect("/settings/appearance");
  });

  test("ctx.flash() then a redirect: the next page has page.flash.success, not a prop", async () => {
    const { client } = setup(flashRoute);
    await startSession(client);
    await client.request("/test/flash", { method: "POST", inertia: true, json: {} });
    const { page } = await client.visit("/settings/appearance");
    expect(page.flash).toEqual({ success: "Order saved." });
    expect(page.props).not.toHaveProperty("success");
    expect(page.props).not.toHaveProperty("flash");
  });

  test("the flash is gone on the request after that", async () => {
    const { client } = setup(flashRoute);
    await startSession(client);
    await client.request("/test/flash", { method: "POST", inertia: true, json: {} });
    await client.visit("/settings/appearance");
    const { page } = await client.visit("/settings/appearance");
    expect(page.flash).toEqual({});
  });
});

describe("history", () => {
  test("a page that shows documents sets encryptHistory; other pages leave it out, also in a first load", async () => {
    const { client } = setup(
      testRoute(["GET"], "/test/secret", (ctx) => ctx.renderComponent("users/blacklist", {})),
      testRoute(["GET"], "/test/open", (ctx) => ctx.renderComponent("test/open")),
    );
    expect((await client.visit("/test/secret")).page.encryptHistory).toBe(true);
    expect(embeddedPage(await (await client.get("/test/open")).text())).not.toHaveProperty("encryptHistory");
    expect((await client.visit("/test/open")).page).not.toHaveProperty("encryptHistory");
  });

  test("ctx.clearHistory() then a redirect sets clearHistory on the next page only", async () => {
    const { client } = setup(
      testRoute(["POST"], "/test/sign-out", (ctx) => {
        ctx.clearHistory();
        return ctx.redirect("/");
      }),
    );
    await startSession(client);
    const response = await client.request("/test/sign-out", { method: "POST", inertia: true, json: {} });
    expect(response.status).toBe(302);
    expect((await client.visit("/")).page.clearHistory).toBe(true);
    expect((await client.visit("/")).page).not.toHaveProperty("clearHistory");
  });
});

describe("request bodies", () => {
  const uploadHandler: Handler = async (ctx) => {
    const file = ctx.body.photo;
    if (!(file instanceof File)) return Response.json({ file: false });
    return Response.json({
      file: true,
      name: file.name,
      type: file.type,
      text: await file.text(),
      caption: ctx.body.caption,
    });
  };

  function form(): FormData {
    const data = new FormData();
    data.append("caption", "Lunch");
    data.append("photo", new File(["hello"], "menu.txt", { type: "text/plain" }));
    return data;
  }

  test("a route with multipart: true receives the uploaded File in ctx.body", async () => {
    const { client } = setup(testRoute(["POST"], "/test/upload", uploadHandler, { multipart: true }));
    await startSession(client);
    const response = await client.request("/test/upload", { method: "POST", inertia: true, body: form() });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      file: true,
      name: "menu.txt",
      type: "text/plain;charset=utf-8",
      text: "hello",
      caption: "Lunch",
    });
  });

  test("the same multipart body on a route without multipart gets the 415 error page", async () => {
    let handled = 0;
    const { client } = setup(
      testRoute(["POST"], "/test/upload", (ctx) => {
        handled++;
        return uploadHandler(ctx);
      }),
    );
    await startSession(client);
    const response = await client.request("/test/upload", { method: "POST", inertia: true, body: form() });
    expect(response.status).toBe(415);
    const page = await response.json();
    expect(page.component).toBe("error");
    expect(page.props.status).toBe(415);
    expect(handled).toBe(0);
  });
});

describe("CSRF", () => {
  const postRoute = (counter: { calls: number }) =>
    testRoute(["POST"], "/test/post", (ctx) => {
      counter.calls++;
      return ctx.redirect("/");
    });

  test("a POST without X-XSRF-TOKEN gets 419 and the error page object (X-Inertia)", async () => {
    const counter = { calls: 0 };
    const { client } = setup(postRoute(counter));
    await startSession(client);
    client.cookies.delete("XSRF-TOKEN"); // the session stays; the token is not echoed
    const response = await client.request("/test/post", { method: "POST", inertia: true, json: {} });
    expect(response.status).toBe(419);
    expect(response.headers.get("x-inertia")).toBe("true");
    const page = await response.json();
    expect(page.component).toBe("error");
    expect(page.props.status).toBe(419);
    expect(counter.calls).toBe(0);
  });

  test("a POST without X-XSRF-TOKEN from a plain browser gets 419 and the error page as HTML", async () => {
    const { client } = setup(postRoute({ calls: 0 }));
    await startSession(client);
    client.cookies.delete("XSRF-TOKEN");
    const response = await client.request("/test/post", {
      method: "POST",
      body: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
    });
    expect(response.status).toBe(419);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    const html = await response.text();
    expect(embeddedPage(html)).toMatchObject({ component: "error", props: { status: 419 } });
    expect(html).toContain("La página expiró");
  });

  test("a POST echoing the XSRF-TOKEN cookie in X-XSRF-TOKEN is accepted", async () => {
    const counter = { calls: 0 };
    const { client } = setup(postRoute(counter));
    await startSession(client);
    const token = client.cookies.get("XSRF-TOKEN")!;
    const response = await client.request("/test/post", {
      method: "POST",
      inertia: true,
      json: {},
      headers: { "x-xsrf-token": token },
    });
    expect(response.status).toBe(302);
    expect(counter.calls).toBe(1);
  });

  test("a POST with a wrong X-XSRF-TOKEN gets 419", async () => {
    const counter = { calls: 0 };
    const { client } = setup(postRoute(counter));
    await startSession(client);
    const token = client.cookies.get("XSRF-TOKEN")!;
    const wrong = (token[0] === "A" ? "B" : "A") + token.slice(1);
    const response = await client.request("/test/post", {
      method: "POST",
      inertia: true,
      json: {},
      headers: { "x-xsrf-token": wrong },
    });
    expect(response.status).toBe(419);
    expect(counter.calls).toBe(0);
  });

  test("a form posted to a page that takes no POST, and a PUT to a real route with a session, get 419 without the token", async () => {
    const { app, client } = setup();
    const post = await app.app.handle(
      new Request("http://mesa.test/", {
        method: "POST",
        body: "anything=1",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      }),
    );
    expect(post.status).toBe(419);
    expect(await post.text()).toContain("La página expiró");

    await client.get("/settings/language");
    expect(client.cookies.get("mesa_session")).toBeTruthy();
    client.cookies.delete("XSRF-TOKEN"); // the session stays; the token is not echoed
    const put = await client.request("/settings/language", {
      method: "PUT",
      body: "locale=en",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(put.status).toBe(419);
  });

  test("another session's token is rejected", async () => {
    const counter = { calls: 0 };
    const { app, client } = setup(postRoute(counter));
    await startSession(client);
    const other = new Client(app);
    await startSession(other);
    const response = await client.request("/test/post", {
      method: "POST",
      inertia: true,
      json: {},
      headers: { "x-xsrf-token": other.cookies.get("XSRF-TOKEN")! },
    });
    expect(response.status).toBe(419);
    expect(counter.calls).toBe(0);
  });
});
