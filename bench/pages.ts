/**
 * List pages on a database of realistic size: every list page visited through the page protocol (`X-Inertia`, so
 * the JSON page object is what is timed), signed in as a super-administrator and as a cafe manager, each next to a
 * baseline measured in the same run: the same statements written by hand and prepared once, the rows shaped into
 * the same props, and the page object encoded as JSON (bench/support/baseline.ts). Prints median and p95 of each
 * and their ratio; the target is every page within 2× its baseline (printed, not checked). Checked: every visit
 * answers 200 (or the redirect or refusal named at the end), and the baseline read the same data as Mesa for every
 * visit, so the figures compare like with like.
 *
 *   npm run bench:pages        (NODE_ENV=production bun bench/pages.ts)
 *
 * The long pages of issue 26 (Users, Providers, Ingredients) are also loaded as a browser's first load (the HTML,
 * server-rendered, whose size is what a camp's slow link waits for); those rows and the food pages, which have no
 * hand-written baseline yet, are shown for reference, out of the count against the target.
 *
 * BENCH_ITERATIONS (20) timed visits per page after BENCH_WARMUP (3), or BENCH_SLOW_ITERATIONS (5) after one for a page
 * whose first visit takes over 250 ms, so a run stays within a few minutes; BENCH_PAGES=users,audit runs the pages whose
 * name contains one of the words; BENCH_BASELINE_FOLD=1 makes the baseline's searches call Mesa's accent-folding
 * function too, which splits a search's cost into "folding" and "everything else". BENCH_SMOKE=1: 2,000 audit entries
 * (BENCH_AUDIT_ENTRIES, 200,000) and one timed visit per page, no warm-up.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db";
import { accessProfile } from "../src/domain/access/authorization";
import { createApp } from "../src/http/app";
import { createServices } from "../src/http/services";
import type { Locale } from "../src/shared/i18n";
import { Baseline, type Viewer } from "./support/baseline";
import { BENCH_PASSWORD, generateDatabase, MANAGER_EMAIL, SUPER_EMAIL } from "./support/generate";
import { check, finishChecks, setting, SMOKE } from "./support/smoke";

const ITERATIONS = setting("BENCH_ITERATIONS", 20, 1);
const WARMUP = setting("BENCH_WARMUP", 3, 0);
/** A page whose first visit takes longer than SLOW_MS is visited SLOW_ITERATIONS times after one warm-up visit. */
const SLOW_MS = 250;
const SLOW_ITERATIONS = setting("BENCH_SLOW_ITERATIONS", 5, 1);
const AUDIT_ENTRIES = setting("BENCH_AUDIT_ENTRIES", 200_000, 2_000);
const ONLY = (process.env.BENCH_PAGES ?? "").toLowerCase().split(",").filter(Boolean);
const FOLD = process.env.BENCH_BASELINE_FOLD === "1";
const TARGET = 2;
const BASE = "http://127.0.0.1:3000";

type Props = Record<string, unknown>;

interface PageSpec {
  name: string;
  path: string;
  /** An ASCII word to search for (found alike with and without accent folding), under `prefix`search. */
  search?: string;
  /** Whether the list has a second page worth visiting, under `prefix`page. */
  page2: boolean;
  prefix?: string;
  /** Not a list page, or one without a baseline: shown for reference, left out of the count against the target. */
  reference?: boolean;
  /** No hand-written baseline yet: Mesa alone is timed, the baseline columns read "—". */
  noBaseline?: boolean;
  /** Also timed as a browser's first load: the server-rendered HTML (no baseline; for reference). */
  firstLoad?: boolean;
  baseline: (b: Baseline, query: URLSearchParams) => Props;
}

const PAGES: PageSpec[] = [
  // Not a list: what every signed-in visit costs (session, user, access, shared props), next to reading the session
  // and the user and encoding the same page object.
  {
    name: "Settings · language (no list)",
    path: "/settings/language",
    page2: false,
    reference: true,
    baseline: () => ({}),
  },
  {
    name: "Users",
    path: "/users",
    search: "quispe",
    page2: true,
    firstLoad: true,
    baseline: (b, q) => b.usersPage(q),
  },
  { name: "Roles", path: "/roles", search: "manager", page2: false, baseline: (b, q) => b.rolesPage(q) },
  { name: "Blacklist", path: "/blacklist", search: "deuda", page2: true, baseline: (b, q) => b.blacklistPage(q) },
  { name: "Audit", path: "/audit", search: "quispe", page2: true, baseline: (b, q) => b.auditPage(q) },
  { name: "Services", path: "/services", search: "almuerzo", page2: false, baseline: (b, q) => b.servicesPage(q) },
  {
    name: "Management · mines",
    path: "/management?tab=mines",
    search: "cerro",
    page2: true,
    baseline: (b, q) => b.managementPage(q),
  },
  {
    name: "Management · units",
    path: "/management?tab=units",
    search: "norte",
    page2: true,
    baseline: (b, q) => b.managementPage(q),
  },
  {
    name: "Management · cafes",
    path: "/management?tab=cafes",
    search: "campamento",
    page2: true,
    baseline: (b, q) => b.managementPage(q),
  },
  { name: "Businesses", path: "/businesses", search: "andinos", page2: false, baseline: (b, q) => b.businessesPage(q) },
  {
    name: "Headquarters",
    path: "/businesses/headquarters",
    search: "lima",
    page2: true,
    baseline: (b, q) => b.headquartersPage(q),
  },
  {
    name: "Properties",
    path: "/businesses/properties",
    search: "horno",
    page2: true,
    baseline: (b, q) => b.propertiesPage(q),
  },
  // The food catalogue (the demo's: 896 offers of 7 providers in 5 cities, 163 ingredients), as a buyer and a
  // nutritionist open it. No hand-written baseline yet: for reference.
  {
    name: "Providers · offers by city",
    path: "/providers",
    search: "aceite",
    page2: true,
    reference: true,
    noBaseline: true,
    firstLoad: true,
    baseline: () => ({}),
  },
  {
    name: "Providers · providers",
    path: "/providers?tab=providers",
    search: "comercial",
    page2: false,
    reference: true,
    noBaseline: true,
    firstLoad: true,
    baseline: () => ({}),
  },
  {
    name: "Ingredients · offers by provider",
    path: "/ingredients",
    search: "aceite",
    page2: true,
    reference: true,
    noBaseline: true,
    firstLoad: true,
    baseline: () => ({}),
  },
  {
    name: "Ingredients · ingredients",
    path: "/ingredients?tab=ingredients",
    search: "pollo",
    page2: true,
    reference: true,
    noBaseline: true,
    firstLoad: true,
    baseline: () => ({}),
  },
  {
    name: "Dealerships (tree)",
    path: "/dealerships",
    search: "paracas",
    page2: true,
    baseline: (b, q) => b.dealershipTreePage(q),
  },
];

/** The visits of a page: its first page, a search and its second page, when it has them, and its first load. */
function visitsOf(page: PageSpec): { label: string; path: string; html?: boolean }[] {
  const withParam = (name: string, value: string) =>
    `${page.path}${page.path.includes("?") ? "&" : "?"}${page.prefix ?? ""}${name}=${value}`;
  return [
    { label: "page 1", path: page.path },
    ...(page.search ? [{ label: `search "${page.search}"`, path: withParam("search", page.search) }] : []),
    ...(page.page2 ? [{ label: "page 2", path: withParam("page", "2") }] : []),
    ...(page.firstLoad ? [{ label: "first load (HTML)", path: page.path, html: true }] : []),
  ];
}

// ——— The database and the app ———

const runStarted = performance.now();
const dir = mkdtempSync(join(tmpdir(), "mesa-bench-pages-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const config = loadConfig({
  NODE_ENV: "production",
  DB_PATH: join(dir, "bench.sqlite"),
  STORAGE_PATH: dir,
  LOG_REQUESTS: "false",
  APP_URL: BASE,
  APP_KEY: "bench-key-bench-key-bench-key-bench-key",
});
const generated = await generateDatabase(config.dbPath, config, { auditEntries: AUDIT_ENTRIES });
Bun.gc(true); // the generator's rows are garbage now: collect them before anything is timed
const db = openDatabase(config.dbPath);
const services = createServices(config, db);
const app = createApp(services);
const version = services.assets.version;

/** Signs in through the sign-in form, as the page client does; returns the session's cookie header. */
async function signIn(email: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
  };
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  keep(await app.handle(new Request(`${BASE}/login`)));
  const response = await app.handle(
    new Request(`${BASE}/login`, {
      method: "POST",
      headers: {
        cookie: cookieHeader(),
        "content-type": "application/json",
        "x-xsrf-token": decodeURIComponent(jar.get("XSRF-TOKEN") ?? ""),
        "x-inertia": "true",
        "x-inertia-version": version,
        "x-requested-with": "XMLHttpRequest",
        referer: `${BASE}/login`,
      },
      body: JSON.stringify({ email, password: BENCH_PASSWORD }),
    }),
  );
  if (response.status !== 302 && response.status !== 303)
    throw new Error(`signing in as ${email}: status ${response.status}`);
  keep(response);
  return cookieHeader();
}

/** The signed-in user as the baseline sees them: their session row and the scope Mesa computes for them. */
function viewerOf(email: string, cookie: string): Viewer {
  const { id: userId, language } = db.$client.prepare("SELECT id, language FROM users WHERE email = ?").get(email) as {
    id: number;
    language: Locale | null;
  };
  const sessionId = decodeURIComponent(cookie.match(new RegExp(`${config.sessionCookie}=([^;]+)`))![1]);
  const profile = accessProfile(db, userId);
  return {
    sessionHash: createHash("sha256").update(sessionId).digest("hex"),
    userId,
    locale: language ?? config.locale,
    currency: config.currency,
    all: profile.isSuper,
    cafeIds: [...profile.cafeIds],
    headquartersIds: [...profile.headquartersIds],
    businessIds: [...profile.businessIds],
    permissions: new Set(profile.permissions),
    companyWideAudit: profile.isSuper || profile.headquartersPermissions.has("audit.view"),
  };
}

// ——— Measuring ———

const median = (sorted: number[]) => sorted[Math.floor((sorted.length - 1) / 2)];
const p95 = (sorted: number[]) => sorted[Math.ceil(sorted.length * 0.95) - 1];

interface Result {
  actor: string;
  page: string;
  reference: boolean;
  visit: string;
  kib: number;
  mesa: number[];
  baseline: number[];
  /** Where each prop the baseline reads first differs from what Mesa sent (empty: the baseline read the same data). */
  differs: string[];
}

/** Where Mesa's value and the baseline's first differ ("entries.data[0].actor: Mesa …, baseline …"), or null. */
function difference(path: string, mesa: unknown, baseline: unknown): string | null {
  if (Bun.deepEquals(mesa, baseline)) return null;
  const show = (value: unknown) => (value === undefined ? "missing" : JSON.stringify(value)?.slice(0, 80));
  if (Array.isArray(mesa) && Array.isArray(baseline)) {
    if (mesa.length !== baseline.length) return `${path}: Mesa ${mesa.length} items, baseline ${baseline.length}`;
    for (let i = 0; i < mesa.length; i++) {
      const found = difference(`${path}[${i}]`, mesa[i], baseline[i]);
      if (found) return found;
    }
  }
  if (mesa && baseline && typeof mesa === "object" && typeof baseline === "object" && !Array.isArray(mesa)) {
    const [m, b] = [mesa as Props, baseline as Props];
    for (const key of new Set([...Object.keys(m), ...Object.keys(b)])) {
      const found = difference(`${path}.${key}`, m[key], b[key]);
      if (found) return found;
    }
  }
  return `${path}: Mesa ${show(mesa)}, baseline ${show(baseline)}`;
}

/** The pages of PAGES that redirect: what they answer now. */
const moved = new Set<string>();
/** The pages an actor may not open (403): the cafe manager and the company-wide food pages. */
const closed = new Set<string>();

async function measure(actor: string, email: string): Promise<Result[]> {
  const cookie = await signIn(email);
  const headers = {
    cookie,
    "x-inertia": "true",
    "x-inertia-version": version,
    "x-requested-with": "XMLHttpRequest",
    // A browser that already holds the once props (route list, realtime settings) says so, as the page client does.
    "x-inertia-except-once-props": "ziggy,realtime",
  };
  const baseline = new Baseline(db, viewerOf(email, cookie), FOLD);
  // The request pipeline's code is shared by every page: warm it up once, so the first page measured is not colder.
  for (let i = 0; i < (SMOKE ? 5 : 200); i++)
    await (await app.handle(new Request(`${BASE}/settings/language`, { headers }))).text();
  const results: Result[] = [];
  for (const page of PAGES) {
    if (ONLY.length && !page.reference && !ONLY.some((word) => page.name.toLowerCase().includes(word))) continue;
    // A page that now sends people elsewhere is no list page any more: it is named at the end, not timed.
    const opened = await app.handle(new Request(BASE + page.path, { headers }));
    if (opened.status >= 300 && opened.status < 400) {
      moved.add(`${page.name} (${page.path} → ${opened.headers.get("location")})`);
      continue;
    }
    if (opened.status === 403) {
      closed.add(`${page.name} (${actor})`);
      continue;
    }
    for (const visit of visitsOf(page)) {
      const url = BASE + visit.path;
      if (visit.html) {
        results.push(await measureFirstLoad(actor, page, visit.label, url, cookie));
        continue;
      }
      const query = new URL(url).searchParams;
      const mesa = async () => {
        const response = await app.handle(new Request(url, { headers }));
        if (response.status !== 200) throw new Error(`${actor} ${visit.path}: status ${response.status}`);
        return response.text();
      };
      // The page object Mesa sends; the baseline encodes the same object with the props it read itself.
      const first = performance.now();
      const body = await mesa();
      const slow = performance.now() - first > SLOW_MS;
      const sent = JSON.parse(body) as { props: Props };
      const handWritten = () => {
        const props = { ...baseline.signedIn(), ...page.baseline(baseline, query) };
        return JSON.stringify({ ...sent, props: { ...sent.props, ...props } });
      };
      const read = JSON.parse(handWritten()).props as Props;
      const differs = Object.keys(page.baseline(baseline, query))
        .map((key) => difference(key, sent.props[key], read[key]))
        .filter((d): d is string => d !== null);
      for (let i = 0; i < (slow ? 1 : WARMUP); i++) {
        await mesa();
        handWritten();
      }
      const mesaTimes: number[] = [];
      const baselineTimes: number[] = [];
      for (let i = 0; i < (slow ? SLOW_ITERATIONS : ITERATIONS); i++) {
        let started = performance.now();
        await mesa();
        mesaTimes.push(performance.now() - started);
        if (page.noBaseline) continue;
        started = performance.now();
        handWritten();
        baselineTimes.push(performance.now() - started);
      }
      const result = {
        actor,
        page: page.name,
        reference: Boolean(page.reference),
        visit: visit.label,
        kib: body.length / 1024,
        mesa: mesaTimes.sort((a, b) => a - b),
        baseline: baselineTimes.sort((a, b) => a - b),
        differs,
      };
      results.push(result);
      process.stderr.write(
        `  ${actor}, ${page.name}, ${visit.label}: ${median(result.mesa).toFixed(2)} ms / ${page.noBaseline ? "—" : `${median(result.baseline).toFixed(2)} ms`}\n`,
      );
    }
  }
  return results;
}

/** A browser's first load of a page: the server-rendered HTML, read to the end; no baseline (for reference). */
async function measureFirstLoad(actor: string, page: PageSpec, visit: string, url: string, cookie: string) {
  const load = async () => {
    const response = await app.handle(new Request(url, { headers: { cookie } }));
    if (response.status !== 200) throw new Error(`${actor} ${url} (first load): status ${response.status}`);
    return response.text();
  };
  const first = performance.now();
  const body = await load();
  const slow = performance.now() - first > SLOW_MS;
  for (let i = 0; i < (slow ? 1 : WARMUP); i++) await load();
  const times: number[] = [];
  for (let i = 0; i < (slow ? SLOW_ITERATIONS : ITERATIONS); i++) {
    const started = performance.now();
    await load();
    times.push(performance.now() - started);
  }
  const result: Result = {
    actor,
    page: page.name,
    reference: true,
    visit,
    kib: new TextEncoder().encode(body).length / 1024,
    mesa: times.sort((a, b) => a - b),
    baseline: [],
    differs: [],
  };
  process.stderr.write(`  ${actor}, ${page.name}, ${visit}: ${median(result.mesa).toFixed(2)} ms\n`);
  return result;
}

// ——— The run ———

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
const c = generated.counts;
console.log(
  `Mesa list pages, Bun ${Bun.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown CPU"}; load average before: ${load()}`,
);
console.log(
  `database (generated in ${generated.seconds.toFixed(1)} s): ${c.cafes} cafes in ${c.units} units of ${c.mines} mines, ${c.areas} areas, ${c.users} users, ` +
    `${c.blacklist} blacklist entries, ${c.businesses} businesses with ${c.headquarters} headquarters, ${c.properties} properties, ` +
    `${c.dealerships} dealerships with ${c.subdealerships} subdealerships, ${c.audit_log} audit entries, ` +
    `${c.ingredients} ingredients, ${c.providers} providers with ${c.offers} offers`,
);
console.log(`cafe manager: works in ${generated.managerCafe.name}; every list page's view permission`);
console.log(
  `${WARMUP} warm-up and ${ITERATIONS} timed visits per page (1 and ${SLOW_ITERATIONS} when the first visit takes over ${SLOW_MS} ms), Mesa and baseline alternating; ` +
    `baseline search: ${FOLD ? "unaccent_lower(column) LIKE, as Mesa" : "SQLite's LIKE (ASCII case only)"}\n`,
);

const results = [
  ...(await measure("super-administrator", SUPER_EMAIL)),
  ...(await measure("cafe manager", MANAGER_EMAIL)),
];

const ms = (n: number) => n.toFixed(2);
for (const actor of ["super-administrator", "cafe manager"]) {
  console.log(`\n### As a ${actor}\n`);
  console.log("| page | visit | KiB | n | Mesa median | Mesa p95 | baseline median | baseline p95 | Mesa / baseline |");
  console.log("|---|---|--:|--:|--:|--:|--:|--:|--:|");
  for (const r of results.filter((r) => r.actor === actor)) {
    const hasBaseline = r.baseline.length > 0;
    const ratio = hasBaseline ? median(r.mesa) / median(r.baseline) : NaN;
    const mark = ratio > TARGET && !r.reference ? " ✗" : "";
    const base = (f: (sorted: number[]) => number) => (hasBaseline ? ms(f(r.baseline)) : "—");
    console.log(
      `| ${r.page}${r.differs.length ? " ≠" : ""} | ${r.visit} | ${r.kib.toFixed(0)} | ${r.mesa.length} | ${ms(median(r.mesa))} | ${ms(p95(r.mesa))} | ${base(median)} | ${base(p95)} | ${hasBaseline ? `${ratio.toFixed(2)}×${mark}` : "—"} |`,
    );
  }
}

const lists = results.filter((r) => !r.reference);
const over = lists.filter((r) => median(r.mesa) / median(r.baseline) > TARGET);
console.log(
  `\n${lists.length - over.length} of ${lists.length} list page visits within ${TARGET}× their baseline (✗: above the target; times in ms over n timed visits; KiB: the JSON page object).`,
);
if (moved.size) console.log(`Not list pages any more (they redirect), left out: ${[...moved].join("; ")}.`);
if (closed.size) console.log(`Not open to the actor (403), left out: ${[...closed].join("; ")}.`);
const differing = results.filter((r) => r.differs.length);
if (differing.length) {
  console.log("≠ the baseline read different data from Mesa's (so its figure is not comparable):");
  for (const r of differing) console.log(`  ${r.actor}, ${r.page}, ${r.visit}: ${r.differs.join(", ")}`);
}
for (const r of results)
  check(r.differs.length === 0, `${r.actor}, ${r.page}, ${r.visit}: the baseline reads what Mesa reads`);
const line = (r: Result) =>
  `${ms(median(r.mesa)).padStart(8)} ms / ${ms(median(r.baseline)).padStart(7)} ms = ${(median(r.mesa) / median(r.baseline)).toFixed(1).padStart(4)}×  ${r.actor}, ${r.page}, ${r.visit}`;
console.log("slowest visits (Mesa median / baseline median):");
for (const r of [...lists].sort((a, b) => median(b.mesa) - median(a.mesa)).slice(0, 6)) console.log(`  ${line(r)}`);
console.log("furthest from their baseline:");
for (const r of [...lists]
  .sort((a, b) => median(b.mesa) / median(b.baseline) - median(a.mesa) / median(a.baseline))
  .slice(0, 6))
  console.log(`  ${line(r)}`);
console.log(`load average after: ${load()}; total ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);

db.$client.close();
finishChecks();
