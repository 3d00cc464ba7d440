/**
 * What a request may make the server build is bounded before anything walks it: a 29-byte form body with a huge
 * bracket index, deep nesting, too many fields or an oversized chunked body is answered with a 4xx at once, and the
 * CSRF token and route access are checked before a byte of the body is read.
 */
import { describe, expect, test } from "bun:test";
import { INPUT_LIMITS, entriesToInput, parseBody } from "../../src/http/body";
import { field, parseInput, t } from "../../src/domain/validation";
import { ValidationFailed } from "../../src/domain/errors";
import { Client, createTestApp } from "../support/app";

async function guestWithToken() {
  const app = createTestApp();
  const client = new Client(app);
  await client.visit("/login");
  return { app, client };
}

function form(client: Client, path: string, body: string, headers: Record<string, string> = {}) {
  return client.request(path, {
    method: "POST",
    inertia: true,
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

describe("request bodies are bounded before they are walked", () => {
  test("a huge bracket index on the sign-in form is refused with 400, not built", async () => {
    const { client } = await guestWithToken();
    const started = performance.now();
    const response = await form(client, "/login", "email[400000000]=a&password=x");
    expect(response.status).toBe(400);
    // Bounded by what is built, not by a timer: nothing of the index's size may exist (a second at most on any machine).
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("arrays stay dense: an index past the next item is refused; items in order reach validation", async () => {
    const { client } = await guestWithToken();
    expect((await form(client, "/login", `email[${INPUT_LIMITS.maxItems - 1}]=a&password=x`)).status).toBe(400);
    expect((await form(client, "/login", "email[1]=a&password=x")).status).toBe(400);
    // The sign-in form answers with its usual validation redirect.
    expect((await form(client, "/login", "email[0]=a&email[1]=b&password=x")).status).toBe(302);
    const list = Array.from({ length: INPUT_LIMITS.maxItems }, (_, i) => `email[${i}]=a`).join("&");
    expect((await form(client, "/login", `${list}`)).status).toBe(302);
  });

  test("JSON past the bounds is refused before it is parsed; long keys and prototype keys are refused", async () => {
    const { client } = await guestWithToken();
    const send = (body: string) =>
      client.request("/login", {
        method: "POST",
        inertia: true,
        body,
        headers: { "content-type": "application/json" },
      });
    expect((await send(`{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`)).status).toBe(400);
    expect((await send(`{${Array.from({ length: 90_000 }, (_, i) => `"f${i}":1`).join(",")}}`)).status).toBe(400);
    expect(
      (await send(JSON.stringify({ email: "a@b.pe", ["k".repeat(INPUT_LIMITS.maxKeyLength + 1)]: 1 }))).status,
    ).toBe(400);
    expect((await send('{"email":"a@b.pe","__proto__":{"admin":true}}')).status).toBe(400);
    // Commas and brackets inside strings are text, not structure.
    expect((await send(JSON.stringify({ email: "[[[[,,,,{{{{".repeat(1000), password: "x" }))).status).toBe(302);
  });

  test("a form body with more entries than the bound is refused before it is split", async () => {
    const { client } = await guestWithToken();
    expect((await form(client, "/login", "a&".repeat(500_000))).status).toBe(400);
  });

  test("nesting deeper than the bound, and more fields than the bound, answer 400", async () => {
    const { client } = await guestWithToken();
    const deep = `email${"[a]".repeat(INPUT_LIMITS.maxDepth + 1)}=x`;
    expect((await form(client, "/login", deep)).status).toBe(400);
    const many = Array.from({ length: INPUT_LIMITS.maxFields + 1 }, (_, i) => `f${i}=1`).join("&");
    expect((await form(client, "/login", many)).status).toBe(400);
    const json = await client.request("/login", {
      method: "POST",
      inertia: true,
      json: { email: Array.from({ length: INPUT_LIMITS.maxItems + 1 }, () => "a") },
    });
    expect(json.status).toBe(400);
  });

  test("query strings have the same bounds", async () => {
    const { client } = await guestWithToken();
    const response = await client.get("/login?search[400000000]=a");
    expect(response.status).toBe(400);
  });

  test("a chunked body larger than the route allows is cut off with 413", async () => {
    const { client } = await guestWithToken();
    let sent = 0;
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 64 MiB on offer; the server must stop asking long before.
        if (sent >= 1024) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await client.request("/login", {
      method: "POST",
      inertia: true,
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(64);
  });

  test("without a CSRF token, or without access, the body is never read", async () => {
    const { app, client } = await guestWithToken();
    let pulled = 0;
    const body = () =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulled++;
            controller.enqueue(new TextEncoder().encode("email=a&"));
            if (pulled > 3) controller.close();
          },
        },
        { highWaterMark: 0 },
      );
    const noToken = await app.app.handle(
      new Request("http://mesa.test/login", {
        method: "POST",
        body: body(),
        headers: { "content-type": "application/x-www-form-urlencoded", "x-inertia": "true" },
      }),
    );
    expect(noToken.status).toBe(419);
    // A guest posting to a signed-in route is sent to sign in without the body being read.
    const guest = await client.request("/users", {
      method: "POST",
      inertia: true,
      body: body(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([302, 303]).toContain(guest.status);
    expect(pulled).toBe(0);
  });

  test("the realtime HTTP API reads at most 1 MiB of a chunked body before it checks the signature", async () => {
    const { app } = await guestWithToken();
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent >= 480) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const response = await app.app.handle(
      new Request("http://mesa.test/apps/mesa/events", {
        method: "POST",
        body: stream,
        headers: { "content-type": "application/json" },
      }),
    );
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(20);
  });

  test("a body sent to a path no route serves is never read", async () => {
    const { client } = await guestWithToken();
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(1024));
        },
      },
      { highWaterMark: 0 },
    );
    const response = await client.request("/nowhere", {
      method: "POST",
      inertia: true,
      body: stream,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(404);
    expect(pulled).toBe(0);
  });

  test("validation stops at an array longer than allowed, with a message", () => {
    const schema = t.Object({ ids: t.Array(t.Integer(), { maxItems: 50 }) });
    try {
      parseInput(schema, { ids: Array.from({ length: 51 }, (_, i) => i) });
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors.ids).toEqual({ key: "validation.too_many_items", params: { max: 50 } });
    }
  });

  test("a form key that mixes list and object access is refused, not turned into odd keys", () => {
    expect(() =>
      entriesToInput([
        ["a[0]", "x"],
        ["a[b]", "y"],
      ]),
    ).toThrow();
    expect(
      entriesToInput([
        ["a[]", "x"],
        ["a[]", "y"],
        ["b[c][]", "z"],
      ]),
    ).toEqual({ a: ["x", "y"], b: { c: ["z"] } });
    expect(
      entriesToInput([
        ["__proto__[polluted]", "1"],
        ["a[__proto__][x]", "1"],
      ]),
    ).toEqual({ a: {} });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("parseBody reads JSON, forms and empty bodies as before", async () => {
    const request = (body: string, type: string) =>
      new Request("http://mesa.test/x", { method: "POST", body, headers: { "content-type": type } });
    expect(
      await parseBody(request('{"a":[1,{"b":2}]}', "application/json"), { multipart: false, maxBytes: 1024 }),
    ).toEqual({ a: [1, { b: 2 }] });
    expect(
      await parseBody(request("a[0][b]=1&a[1][b]=2", "application/x-www-form-urlencoded"), {
        multipart: false,
        maxBytes: 1024,
      }),
    ).toEqual({ a: [{ b: "1" }, { b: "2" }] });
    expect(
      await parseBody(new Request("http://mesa.test/x", { method: "POST" }), { multipart: false, maxBytes: 1024 }),
    ).toEqual({});
  });
});

describe("addresses and redirects", () => {
  test("an e-mail address with a control character is refused (no lookalike of an existing address)", () => {
    const schema = t.Object({ email: field.email() });
    expect(parseInput(schema, { email: "demo@mesa.test" }).email).toBe("demo@mesa.test");
    for (const email of ["demo@mesa.test\u0000", "de\u0007mo@mesa.test", "demo@mesa\u007f.test"])
      expect(() => parseInput(schema, { email })).toThrow(ValidationFailed);
  });

  test("going back never leaves the site: a Referer path like //host or /\\host falls back", async () => {
    const { client } = await guestWithToken();
    for (const referer of ["http://mesa.test//evil.example/x", "http://mesa.test/\\evil.example/x"]) {
      const response = await client.request("/settings/language", {
        method: "PUT",
        inertia: true,
        json: { locale: "en" },
        headers: { referer },
      });
      expect(response.headers.get("location")?.startsWith("//")).toBe(false);
      expect(response.headers.get("location")?.startsWith("/\\")).toBe(false);
    }
  });
});
