/**
 * Page-protocol throughput: a JSON visit and a server-rendered first load through the whole Mesa pipeline
 * (session read from SQLite, CSRF cookie, shared props, page object, SSR), each next to a bare Elysia route that
 * returns the same bytes, measured in the same run. Run with `npm run bench` (or `bun bench/page-protocol.ts`).
 * Checked: the visit answers the page's object, the first load embeds the same page, every timed answer is a 200.
 * BENCH_SMOKE=1: a tenth of a second per case.
 */
import { Elysia } from "elysia";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { migrateDatabase, openDatabase } from "../src/db";
import { createApp } from "../src/http/app";
import { createServices } from "../src/http/services";
import { check, finishChecks, setting, SMOKE } from "./support/smoke";

const SECONDS = setting("BENCH_SECONDS", 3, 0.1);
/** Untimed requests before each case. */
const WARMUP = SMOKE ? 20 : 200;
const PATH = "/settings/language";
const BASE = "http://127.0.0.1:3000";

const dir = mkdtempSync(join(tmpdir(), "mesa-bench-"));
const config = loadConfig({
  NODE_ENV: "production",
  DB_PATH: join(dir, "bench.sqlite"),
  LOG_REQUESTS: "false",
  APP_URL: BASE,
});
const db = openDatabase(config.dbPath);
migrateDatabase(db);
const services = createServices({ ...config, appKey: "bench-key-bench-key-bench-key-bench-key" }, db);
const { assets } = services;
const mesa = createApp(services);

// One browser session, as a real user would have.
const first = await mesa.handle(new Request(BASE + PATH));
const cookie = first.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
// A browser that already holds the once props (route list, realtime settings) says so, as the page client does.
const jsonHeaders = {
  cookie,
  "x-inertia": "true",
  "x-inertia-version": assets.version,
  "x-requested-with": "XMLHttpRequest",
  "x-inertia-except-once-props": "ziggy,realtime",
};
const htmlHeaders = { cookie };

const jsonBody = await (await mesa.handle(new Request(BASE + PATH, { headers: jsonHeaders }))).text();
const htmlBody = await (await mesa.handle(new Request(BASE + PATH, { headers: htmlHeaders }))).text();
const page = JSON.parse(jsonBody) as { component?: string; url?: string };
check(page.component === "settings/language" && page.url === PATH, "the visit answers the page object of the page");
const embedded = /<script data-page="app" type="application\/json">([\s\S]*?)<\/script>/.exec(htmlBody);
check(
  embedded !== null && (JSON.parse(embedded[1]) as { component?: string }).component === page.component,
  "the first load embeds the same page",
);
const bare = new Elysia()
  .get(
    "/json",
    () =>
      new Response(jsonBody, {
        headers: { "content-type": "application/json", "x-inertia": "true", vary: "X-Inertia" },
      }),
  )
  .get("/html", () => new Response(htmlBody, { headers: { "content-type": "text/html; charset=utf-8" } }));

async function measure(label: string, handle: () => Promise<Response>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await (await handle()).arrayBuffer();
  let count = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) {
      const response = await handle();
      if (response.status !== 200) throw new Error(`${label}: status ${response.status}`);
      await response.arrayBuffer();
      count++;
    }
  }
  const perSecond = count / ((performance.now() - started) / 1000);
  console.log(`${label.padEnd(44)} ${Math.round(perSecond).toString().padStart(8)} req/s`);
  return perSecond;
}

console.log(`Mesa page protocol, ${SECONDS} s per case, in-process (app.handle), Bun ${Bun.version}`);
console.log(`JSON page: ${jsonBody.length} bytes; HTML document: ${htmlBody.length} bytes\n`);
const bareJson = await measure("bare Elysia route, same JSON bytes", () => bare.handle(new Request(`${BASE}/json`)));
const visit = await measure("Mesa page-protocol visit (X-Inertia JSON)", () =>
  mesa.handle(new Request(BASE + PATH, { headers: jsonHeaders })),
);
const bareHtml = await measure("bare Elysia route, same HTML bytes", () => bare.handle(new Request(`${BASE}/html`)));
const ssr = await measure("Mesa first load (server-rendered HTML)", () =>
  mesa.handle(new Request(BASE + PATH, { headers: htmlHeaders })),
);

console.log(
  `\nratio visit / bare JSON:      ${(visit / bareJson).toFixed(3)}  (Mesa does ${(bareJson / visit).toFixed(1)}× the work per request)`,
);
console.log(
  `ratio first load / bare HTML: ${(ssr / bareHtml).toFixed(3)}  (Mesa does ${(bareHtml / ssr).toFixed(1)}× the work per request)`,
);

db.$client.close();
rmSync(dir, { recursive: true, force: true });
finishChecks();
