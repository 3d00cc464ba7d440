/**
 * Logs and metrics: every request is one JSON line (its route's name and pattern, method, status, time, user and
 * request id — never its path, body, headers or cookies, so no password or document reaches the log), the request
 * id travels back as X-Request-ID (a proxy's own id is kept), an error is logged with its request id, and
 * `/metrics` answers Prometheus only to the bearer of METRICS_TOKEN, counting requests by route, sales, the sales
 * each group commit carried and the jobs.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { dateIn } from "../../src/shared/calendar";
import { logInto } from "../../src/log";
import { access } from "../../src/http/routing";
import { BASE, Client, createTestApp } from "../support/app";
import { TEST_PASSWORD } from "../support/people";
import { posApp } from "../support/pos-app";
import { signIn, signedIn } from "../support/requests";

const TOKEN = "metrics-token-0123456789-abcdef";
const LOGGING = { LOG_REQUESTS: "true", LOG_LEVEL: "info", METRICS_TOKEN: TOKEN };

type Line = Record<string, unknown>;
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

/** The log lines written from now on, parsed. */
function capture(): Line[] {
  const lines: Line[] = [];
  restore = logInto((line) => void lines.push(JSON.parse(line)));
  return lines;
}

const scrape = (app: ReturnType<typeof createTestApp>["app"], authorization?: string) =>
  app.handle(new Request(`${BASE}/metrics`, { headers: authorization ? { authorization } : {} }));

/** The value of one sample in a Prometheus text exposition. */
function sample(text: string, name: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(" ").at(-1)) : null;
}

describe("the request log", () => {
  test("a line per request, by route, with its id; no password, document or path in it", async () => {
    const { app: testApp, w, people } = await posApp(LOGGING);
    const lines = capture();
    const client = new Client(testApp);
    const signedInAnswer = await signIn(client, people.cajera, TEST_PASSWORD);
    expect(signedInAnswer.status).toBe(302);
    const sale = await client.request("/sales", {
      method: "POST",
      json: {
        key: `log-sale-${Math.random().toString(36).slice(2)}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: dateIn("America/Lima"),
        sale_type: "cash",
        lines: [{ service_id: w.alm, quantity: 1 }],
      },
      headers: { accept: "application/json", "x-request-id": "proxy-req-000123" },
    });
    expect(sale.status).toBe(201);
    expect(sale.headers.get("x-request-id")).toBe("proxy-req-000123");
    const search = await client.request("/diners/search?q=40000001", { headers: { accept: "application/json" } });
    expect(search.status).toBe(200);

    const requests = lines.filter((l) => l.msg === "request");
    expect(requests.map((l) => [l.method, l.route, l.status])).toEqual([
      ["GET", "login", 200],
      ["POST", "login.store", 302],
      ["POST", "sales.store", 201],
      ["GET", "diners.search", 200],
    ]);
    const saleLine = requests[2];
    expect(saleLine).toMatchObject({ level: "info", app: "mesa", reqId: "proxy-req-000123", uri: "/sales" });
    expect(saleLine.userId).toBe(people.cajera.id);
    expect(typeof saleLine.ms).toBe("number");
    expect(new Date(String(saleLine.time)).toString()).not.toBe("Invalid Date");
    // A new id for a request that brings none, sent back with the answer.
    expect(String(requests[3].reqId)).toMatch(/^[0-9a-f-]{36}$/);
    const everything = JSON.stringify(lines);
    for (const secret of [TEST_PASSWORD, "40000001", people.cajera.email, "mesa_session", "XSRF"])
      expect(everything).not.toContain(secret);
  });

  test("a request that fails is logged as an error with its request id and route", async () => {
    const testApp = createTestApp({
      env: LOGGING,
      routes: [
        {
          name: "test.explode",
          methods: ["GET"],
          uri: "/test/explode",
          access: access.public,
          handle: () => {
            throw new Error("the test route failed on purpose");
          },
        },
      ],
    });
    const lines = capture();
    const response = await testApp.app.handle(
      new Request(`${BASE}/test/explode`, { headers: { accept: "application/json" } }),
    );
    expect(response.status).toBe(500);
    const error = lines.find((l) => l.level === "error")!;
    expect(error).toMatchObject({
      msg: "request failed",
      route: "test.explode",
      reqId: response.headers.get("x-request-id"),
    });
    expect((error.err as { message: string }).message).toBe("the test route failed on purpose");
  });
});

describe("/metrics", () => {
  test("is not served without METRICS_TOKEN", async () => {
    const testApp = createTestApp();
    expect((await scrape(testApp.app, `Bearer ${TOKEN}`)).status).toBe(404);
  });

  test("asks for the bearer token; with it, counts requests, sales, group commits and jobs", async () => {
    const { app: testApp, w, people } = await posApp({ METRICS_TOKEN: TOKEN });
    for (const wrong of [undefined, "Bearer not-the-token", `Basic ${btoa(`x:${TOKEN}`)}`, TOKEN]) {
      const refused = await scrape(testApp.app, wrong);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    }
    const cashier = await signedIn(testApp, people.cajera);
    const sales = await Promise.all(
      ["40000001", "40000002", "40000001"].map((document, i) =>
        cashier.request("/sales", {
          method: "POST",
          json: {
            key: `metrics-sale-${i}-${Math.random().toString(36).slice(2)}`,
            cafe_id: w.norte,
            document_number: document,
            service_date: dateIn("America/Lima"),
            sale_type: "cash",
            lines: [{ service_id: w.alm, quantity: 1 }],
          },
          headers: { accept: "application/json" },
        }),
      ),
    );
    expect(sales.map((s) => s.status)).toEqual([201, 201, 201]);

    const answer = await scrape(testApp.app, `Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toStartWith("text/plain");
    const text = await answer.text();
    expect(sample(text, "mesa_sales_total")).toBe(3);
    expect(sample(text, "mesa_sales_voided_total")).toBe(0);
    // The three arrived in one turn of the event loop: one commit carried them.
    expect(sample(text, "mesa_sale_group_commit_size_count")).toBe(1);
    expect(sample(text, "mesa_sale_group_commit_size_sum")).toBe(3);
    expect(text).toContain('mesa_http_requests_total{route="sales.store",method="POST",status="201"} 3');
    expect(text).toContain('mesa_http_request_duration_seconds_count{route="sales.store",method="POST"} 3');
    expect(text).toContain('mesa_jobs{state="queued"} 0');
    expect(text).toContain('mesa_jobs{state="running"} 0');
    expect(text).not.toContain("40000001");
  });
});
