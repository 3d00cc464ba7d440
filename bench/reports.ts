/**
 * Sales figures on a large database: 1,000,000 sale lines over 3 months (August to October 2026) and 40 cafes. Each
 * figure Mesa computes is timed next to the same aggregate written by hand in SQL, prepared once, in the same run:
 *
 * - the dashboard's figures (`dashboardFigures`, src/domain/sales/dashboard.ts), when that module is in the tree;
 * - the Sales page's first page with the totals of what it shows (`salesLinePage`) for October, over every cafe;
 * - October's report workbook (`writeSalesReport`, about 330,000 lines): its wall time and the peak memory of the
 *   process writing it, next to the hand-written aggregates plus one pass over the same detail rows.
 *
 *   npm run bench:reports                       (NODE_ENV=production bun bench/reports.ts)
 *   BENCH_DB=/tmp/reports.sqlite npm run bench:reports   (keeps the generated database there and reuses it next time)
 *
 * Processes: this one generates the database (bare prepared inserts, one transaction per day) and prints; each
 * measurement runs in a child of its own (`bun bench/reports.ts queries|workbook DB`) so its memory is its own and no
 * cache of one phase helps the next. Settings: BENCH_LINES (1000000), BENCH_RUNS (timed runs of each query, 20),
 * BENCH_DINERS (40000), BENCH_DB (a database file to keep and reuse); BENCH_SMOKE=1 runs 3,000 lines and 500 diners.
 * Checked: Mesa's figures agree with the hand-written SQL (the Sales page's totals, the dashboard's, the workbook's);
 * the targets on time and memory are printed, not checked. bench/README.md says how to read the figures.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { referenceSeeders } from "../db/seeds";
import { loadConfig } from "../src/config";
import { migrateDatabase, openDatabase } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import { splitIgv } from "../src/shared/money";
import { salesLinePage, salesTotals, type SalesFilter } from "../src/domain/sales/report";
import { writeSalesReport } from "../src/domain/sales/report-workbook";
import { check, finishChecks, setting } from "./support/smoke";

const LINES = setting("BENCH_LINES", 1_000_000, 3000);
const RUNS = setting("BENCH_RUNS", 20, 2);
const CAFES = 40;
/** Diners to sell to; a service's diners on one date are distinct, so a day's lines of a service must fit. */
const DINERS = setting("BENCH_DINERS", 40_000, 500);
const FIRST_DAY = "2026-08-01";
const DAYS = 92; // August, September, October
const MONTH: Pick<SalesFilter, "from" | "to"> = { from: "2026-10-01", to: "2026-10-31" };
const LIMA_OFFSET_MS = 5 * 3_600_000;
const IGV = 1800;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(2)} ms`;
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;

/** A small deterministic random number generator (mulberry32), so every run generates the same database. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const dayOf = (index: number) =>
  new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10);

// ——— The database ———

interface Service {
  id: number;
  code: string;
  name: string;
  price: number;
  /** Share of the day's lines, and the local hours it is sold in (a dinner may be sold after midnight). */
  share: number;
  from: number;
  to: number;
}

/**
 * The reference data (permissions, roles, the five services) from Mesa's seeders; a business; 4 mines × 5 units ×
 * 2 cafes; 12 dealerships with 120 subdealerships whose sizes fall off like real contractors'; 40,000 diners; and
 * LINES sale lines spread over the days, the cafes, the subdealerships and the services. About 5 % of sales are cash
 * (a fifth of them to visitors, some with a snack on top), 3 % other-unit at twice the price, 1 % voided; a tenth of
 * dinners are sold between midnight and one, on the night before's service date.
 */
async function generate(path: string): Promise<void> {
  const started = performance.now();
  const config = loadConfig({ NODE_ENV: "production", DB_PATH: path, STORAGE_PATH: join(path, "..") });
  const db = openDatabase(path);
  migrateDatabase(db);
  for (const seeder of referenceSeeders) await seeder.run(db, config);
  db.$client.close();

  const client = new Database(path);
  client.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -200000",
  );
  const rand = random(16);
  const now = Date.now();
  const one = <T>(query: string, ...params: (string | number | null)[]) => client.query(query).get(...params) as T;

  const business = one<{ id: number }>(
    "INSERT INTO businesses (name, ruc, fiscal_address) VALUES ('Catering Andino S.A.C.', '20100070970', 'Av. Arequipa 123, Lima') RETURNING id",
  ).id;
  const cafes: { id: number; name: string; series: string; next: number }[] = [];
  const mineNames = ["Toquepala", "Cuajone", "Antamina", "Las Bambas"];
  client.transaction(() => {
    for (const mineName of mineNames) {
      const mine = one<{ id: number }>("INSERT INTO mines (name) VALUES (?) RETURNING id", `Mina ${mineName}`).id;
      for (let u = 1; u <= 5; u++) {
        const unit = one<{ id: number }>(
          "INSERT INTO units (mine_id, name) VALUES (?, ?) RETURNING id",
          mine,
          `Unidad ${u}`,
        ).id;
        for (const side of ["Norte", "Sur"]) {
          const name = `Comedor ${side} ${mineName} ${u}`;
          const cafe = one<{ id: number; ticket_series: string }>(
            "INSERT INTO cafes (unit_id, business_id, name, time_zone) VALUES (?, ?, ?, 'America/Lima') RETURNING id, ticket_series",
            unit,
            business,
            name,
          );
          cafes.push({
            id: cafe.id,
            name,
            series: cafe.ticket_series || `T${String(cafe.id).padStart(3, "0")}`,
            next: 1,
          });
        }
      }
    }
  })();

  const serviceRows = client.query("SELECT id, code, name FROM services").all() as {
    id: number;
    code: string;
    name: string;
  }[];
  const spec: Record<string, Omit<Service, "id" | "code" | "name">> = {
    DES: { price: 1250, share: 0.3, from: 5, to: 9 },
    ALM: { price: 1800, share: 0.38, from: 11.5, to: 14.5 },
    CEN: { price: 1650, share: 0.27, from: 18, to: 23 },
    REF: { price: 650, share: 0.05, from: 15, to: 16.5 },
  };
  const services: Service[] = serviceRows.filter((s) => spec[s.code]).map((s) => ({ ...s, ...spec[s.code] }));
  const priceOf = new Map(services.map((s) => [s.code, s]));
  client.transaction(() => {
    const price = client.prepare(
      "INSERT INTO cafe_services (cafe_id, service_id, price_cents, updated_at) VALUES (?, ?, ?, ?)",
    );
    for (const cafe of cafes) for (const service of services) price.run(cafe.id, service.id, service.price, now);
  })();

  // Contractors: a few large ones and many small ones (weights falling as 1/rank).
  const subs: {
    id: number;
    name: string;
    ruc: string;
    dealershipId: number;
    dealership: string;
    dealershipRuc: string;
  }[] = [];
  client.transaction(() => {
    for (let d = 1; d <= 12; d++) {
      const dealership = `Minera Contratista ${d}`;
      const dealershipRuc = `20${String(100000000 + d).slice(-9)}`;
      const id = one<{ id: number }>(
        "INSERT INTO dealerships (name, name_folded, ruc, created_at, updated_at) VALUES (?, lower(?), ?, ?, ?) RETURNING id",
        dealership,
        dealership,
        dealershipRuc,
        now,
        now,
      ).id;
      for (let s = 1; s <= 10; s++) {
        const name = `Contrata ${d}-${s} S.A.C.`;
        const ruc = `20${String(500000000 + d * 100 + s).slice(-9)}`;
        const sub = one<{ id: number }>(
          "INSERT INTO subdealerships (dealership_id, name, name_folded, ruc, created_at, updated_at) VALUES (?, ?, lower(?), ?, ?, ?) RETURNING id",
          id,
          name,
          name,
          ruc,
          now,
          now,
        ).id;
        subs.push({ id: sub, name, ruc, dealershipId: id, dealership, dealershipRuc });
      }
    }
  })();
  const weights = subs.map((_, i) => 1 / (i + 1));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const pickSub = () => {
    let r = rand() * weightSum;
    for (let i = 0; i < weights.length; i++) if ((r -= weights[i]) <= 0) return i;
    return weights.length - 1;
  };

  const first = [
    "Juan",
    "María",
    "Luis",
    "Rosa",
    "Jorge",
    "Lucía",
    "Víctor",
    "Carmen",
    "Percy",
    "Ana",
    "Edwin",
    "Gladys",
  ];
  const last = ["Quispe", "Mamani", "Huamán", "Condori", "Flores", "Rojas", "Ñaupari", "Ccahuana", "Apaza", "Ticona"];
  const diners: { id: number; doc: string; name: string; sub: number; cafe: number }[] = [];
  client.transaction(() => {
    const insert = client.prepare(
      "INSERT INTO diners (document_type, document_number, name, name_folded, subdealership_id, cafe_id, active, created_at, updated_at) VALUES ('dni', ?, ?, lower(?), ?, ?, 1, ?, ?) RETURNING id",
    );
    for (let i = 0; i < DINERS; i++) {
      const doc = String(40_000_000 + i);
      const name = `${first[i % first.length]} ${last[Math.floor(i / 7) % last.length]} ${last[Math.floor(i / 3) % last.length]}`;
      const sub = pickSub();
      const cafe = i % CAFES;
      const { id } = insert.get(doc, name, name, subs[sub].id, cafes[cafe].id, now, now) as { id: number };
      diners.push({ id, doc, name, sub, cafe });
    }
  })();

  const sale = client.prepare(
    `INSERT INTO sales (cafe_id, receipt_type, series, number, sale_type, service_date, sold_at, request_key, request_digest,
       diner_id, document_type, document_number, diner_name, subdealership_id, subdealership_name, subdealership_ruc,
       dealership_id, dealership_name, dealership_ruc, business_id, business_name, business_ruc, business_address, cafe_name,
       other_unit, price_factor_percent, igv_rate_basis_points, base_cents, igv_cents, total_cents, cashier_name,
       voided_at, voided_by_name, void_reason)
     VALUES (?, 'ticket', ?, ?, ?, ?, ?, ?, 'bench', ?, 'dni', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Catering Andino S.A.C.', '20100070970',
       'Av. Arequipa 123, Lima', ?, ?, ?, ${IGV}, ?, ?, ?, 'Cajero', ?, ?, ?) RETURNING id`,
  );
  const line = client.prepare(
    `INSERT INTO sale_lines (sale_id, service_id, service_code, service_name, quantity, list_price_cents, unit_price_cents,
       base_cents, igv_cents, total_cents, diner_id, sale_type, service_date, voided)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  let written = 0;
  let key = 0;
  for (let d = 0; d < DAYS; d++) {
    const date = dayOf(d);
    const midnight = Date.parse(`${date}T00:00:00Z`) + LIMA_OFFSET_MS;
    const target = Math.floor(((d + 1) * LINES) / DAYS) - Math.floor((d * LINES) / DAYS);
    client.transaction(() => {
      let today = 0;
      // Each service's diners on this date are distinct (one credit meal each): a stride through the diners.
      for (const [index, service] of services.entries()) {
        const wanted = index === services.length - 1 ? target - today : Math.round(target * service.share);
        const start = Math.floor(rand() * DINERS);
        let served = 0;
        for (let k = 0; served < wanted && today < target && k < DINERS; k++) {
          const diner = diners[(start + k * 7919) % DINERS];
          const roll = rand();
          const cash = roll < 0.05;
          const visitor = roll < 0.01;
          const otherUnit = !visitor && rand() < 0.03;
          const cafeIndex = otherUnit
            ? (diner.cafe + 1 + Math.floor(rand() * (CAFES - 1))) % CAFES
            : visitor
              ? Math.floor(rand() * CAFES)
              : diner.cafe;
          const cafe = cafes[cafeIndex];
          const factor = otherUnit ? 200 : 100;
          const voided = rand() < 0.01;
          // A cash lunch sometimes takes a snack with it: a sale of two lines.
          const extra = cash && service.code === "ALM" && rand() < 0.5 && served + 1 < wanted && today + 1 < target;
          const hours =
            service.code === "CEN" && rand() < 0.1 ? 24 + rand() : service.from + rand() * (service.to - service.from);
          const soldAt = Math.floor(midnight + hours * 3_600_000);
          const items = extra ? [service, priceOf.get("REF")!] : [service];
          const priced = items.map((s) => {
            const total = (s.price * factor) / 100;
            return { service: s, total, ...splitIgv(total, IGV) };
          });
          const sum = (pick: (p: (typeof priced)[number]) => number) => priced.reduce((a, p) => a + pick(p), 0);
          const sub = visitor ? null : subs[diner.sub];
          const { id } = sale.get(
            cafe.id,
            cafe.series,
            cafe.next++,
            cash ? "cash" : "credit",
            date,
            soldAt,
            `bench-${++key}`,
            visitor ? null : diner.id,
            visitor ? String(70_000_000 + key) : diner.doc,
            visitor ? "Visitante" : diner.name,
            sub?.id ?? null,
            sub?.name ?? null,
            sub?.ruc ?? null,
            sub?.dealershipId ?? null,
            sub?.dealership ?? null,
            sub?.dealershipRuc ?? null,
            business,
            cafe.name,
            otherUnit ? 1 : 0,
            factor,
            sum((p) => p.baseCents),
            sum((p) => p.igvCents),
            sum((p) => p.total),
            voided ? soldAt + 60_000 : null,
            voided ? "Supervisor" : null,
            voided ? "Error de caja" : null,
          ) as { id: number };
          for (const p of priced)
            line.run(
              id,
              p.service.id,
              p.service.code,
              p.service.name,
              1,
              p.service.price,
              p.total,
              p.baseCents,
              p.igvCents,
              p.total,
              visitor ? null : diner.id,
              cash ? "cash" : "credit",
              date,
              voided ? 1 : 0,
            );
          served += priced.length;
          today += priced.length;
        }
      }
      written += today;
    })();
  }
  client.transaction(() => {
    const next = client.prepare(
      "UPDATE receipt_series SET next_number = ? WHERE cafe_id = ? AND kind = 'ticket' AND series = ?",
    );
    for (const cafe of cafes) next.run(cafe.next, cafe.id, cafe.series);
  })();
  client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  console.log(
    `generated ${fmt(written)} sale lines over ${DAYS} days, ${CAFES} cafes, ${subs.length} subdealerships, ${fmt(DINERS)} diners in ${((performance.now() - started) / 1000).toFixed(1)} s (${mib(statSync(path).size)})`,
  );
}

// ——— Measuring ———

function filterOf(over: Partial<SalesFilter> = {}): SalesFilter {
  return {
    ...MONTH,
    cafeIds: [],
    dealershipId: null,
    subdealershipId: null,
    serviceIds: [],
    saleType: null,
    otherUnit: null,
    status: "valid",
    ...over,
  };
}

/** The median and p95 of `RUNS` timed runs of `work`, after three untimed ones. */
function time(work: () => unknown): { median: number; p95: number } {
  for (let i = 0; i < 3; i++) work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    work();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)],
    p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
  };
}

/** The Sales page's first page with its totals, written by hand: one pass for the totals, one for the page. */
function bareSalesPage(client: Database) {
  const totals = client.prepare(
    `SELECT count(DISTINCT CASE WHEN s.voided_at IS NULL THEN l.sale_id END) AS sales,
            count(CASE WHEN s.voided_at IS NULL THEN 1 END) AS lines,
            coalesce(sum(CASE WHEN s.voided_at IS NULL THEN l.quantity END), 0) AS meals,
            coalesce(sum(CASE WHEN s.voided_at IS NULL THEN l.base_cents END), 0) AS base,
            coalesce(sum(CASE WHEN s.voided_at IS NULL THEN l.igv_cents END), 0) AS igv,
            coalesce(sum(CASE WHEN s.voided_at IS NULL THEN l.total_cents END), 0) AS total,
            count(DISTINCT CASE WHEN s.voided_at IS NOT NULL THEN l.sale_id END) AS voided_sales,
            coalesce(sum(CASE WHEN s.voided_at IS NOT NULL THEN l.total_cents END), 0) AS voided_cents
       FROM sale_lines l JOIN sales s ON s.id = l.sale_id
      WHERE s.service_date >= (?1 || '') AND s.service_date <= (?2 || '')`,
  );
  const page = client.prepare(
    `SELECT l.id, l.sale_id, s.service_date, s.sold_at, c.time_zone, s.cafe_id, s.cafe_name, s.series, s.number,
            s.diner_name, s.document_type, s.document_number, s.dealership_name, s.subdealership_name, s.subdealership_ruc,
            l.service_id, l.service_code, l.service_name, l.quantity, l.unit_price_cents, l.base_cents, l.igv_cents,
            l.total_cents, s.sale_type, s.other_unit, s.voided_at
       FROM sale_lines l JOIN sales s ON s.id = l.sale_id JOIN cafes c ON c.id = s.cafe_id
      WHERE s.service_date >= (?1 || '') AND s.service_date <= (?2 || '') AND s.voided_at IS NULL
      ORDER BY s.service_date DESC, l.sale_id DESC, l.id DESC LIMIT 15`,
  );
  return () => ({ totals: totals.get(MONTH.from, MONTH.to), rows: page.all(MONTH.from, MONTH.to) });
}

/** "Now" for the dashboard: the evening of the last generated day, in Lima. */
const DASHBOARD_NOW = new Date("2026-10-31T20:00:00Z");

/**
 * The dashboard's figures for every cafe on 31 October, written by hand in SQL and prepared once: meals and revenue
 * today by service type, the month's sales, revenue, other-unit sales and voids, the 14 days of the chart and the top
 * five subdealerships. `daily`: from the daily totals the dashboard reads (migration 0015); `lines`: from the sale
 * lines themselves, what the figures would cost without those totals.
 */
function bareDashboard(client: Database, from: "daily" | "lines") {
  const today = "2026-10-31";
  const month = "2026-10-01";
  const chart = "2026-10-18";
  const statements =
    from === "daily"
      ? [
          `SELECT s.type, sum(f.meals), sum(f.total_cents) FROM json_each(?4) c
             JOIN daily_service_figures f ON f.cafe_id = c.value AND f.service_date = ?3
             JOIN services s ON s.id = f.service_id GROUP BY s.type`,
          `SELECT f.service_date, sum(f.meals), sum(f.total_cents) FROM json_each(?4) c
             JOIN daily_service_figures f ON f.cafe_id = c.value AND f.service_date BETWEEN ?2 AND ?3
            GROUP BY f.service_date`,
          `SELECT f.service_date = ?3, f.other_unit, sum(f.sales), sum(f.total_cents), sum(f.voided_sales), sum(f.voided_cents)
             FROM json_each(?4) c JOIN daily_sale_figures f ON f.cafe_id = c.value AND f.service_date BETWEEN ?1 AND ?3
            GROUP BY 1, 2`,
          `SELECT f.subdealership_id, sd.name, dl.name, sum(f.sales), sum(f.total_cents) AS total FROM json_each(?4) c
             JOIN daily_sale_figures f ON f.cafe_id = c.value AND f.service_date BETWEEN ?1 AND ?3
             JOIN subdealerships sd ON sd.id = f.subdealership_id JOIN dealerships dl ON dl.id = sd.dealership_id
            GROUP BY f.subdealership_id ORDER BY total DESC LIMIT 5`,
        ]
      : [
          `SELECT sv.type, sum(l.quantity), sum(l.total_cents) FROM sales s JOIN sale_lines l ON l.sale_id = s.id
             JOIN services sv ON sv.id = l.service_id WHERE s.service_date = ?3 AND s.voided_at IS NULL GROUP BY sv.type`,
          `SELECT s.service_date, sum(l.quantity), sum(l.total_cents) FROM sales s JOIN sale_lines l ON l.sale_id = s.id
            WHERE s.service_date BETWEEN ?2 AND ?3 AND s.voided_at IS NULL GROUP BY s.service_date`,
          `SELECT s.service_date = ?3, s.other_unit, count(*) FILTER (WHERE s.voided_at IS NULL),
                  coalesce(sum(s.total_cents) FILTER (WHERE s.voided_at IS NULL), 0),
                  count(*) FILTER (WHERE s.voided_at IS NOT NULL), coalesce(sum(s.total_cents) FILTER (WHERE s.voided_at IS NOT NULL), 0)
             FROM sales s WHERE s.service_date BETWEEN ?1 AND ?3 GROUP BY 1, 2`,
          `SELECT s.subdealership_id, sd.name, dl.name, count(*), sum(s.total_cents) AS total FROM sales s
             JOIN subdealerships sd ON sd.id = s.subdealership_id JOIN dealerships dl ON dl.id = sd.dealership_id
            WHERE s.service_date BETWEEN ?1 AND ?3 AND s.voided_at IS NULL GROUP BY s.subdealership_id ORDER BY total DESC LIMIT 5`,
        ];
  const prepared = statements.map((text) => client.prepare(text));
  // Every cafe, by its key in the daily totals (cafe, date), as the dashboard reads them; the lines ignore it.
  const cafeIds = JSON.stringify(
    (client.query("SELECT id FROM cafes ORDER BY id").all() as { id: number }[]).map((c) => c.id),
  );
  return () => {
    const [byType, days, periods, top] = prepared.map(
      (statement) => statement.values(month, chart, today, ...(from === "daily" ? [cafeIds] : [])) as number[][],
    );
    return {
      byType,
      days,
      todayCents: periods.filter((r) => r[0] === 1).reduce((n, r) => n + r[3], 0),
      monthCents: periods.reduce((n, r) => n + r[3], 0),
      topCents: top[0]?.[4],
    };
  };
}

/** The child measuring queries: the dashboard (when present) and the Sales page, each next to its bare SQL. */
async function measureQueries(path: string): Promise<void> {
  const db = openDatabase(path);
  const client = new Database(path, { readonly: true });
  const out: Record<string, unknown> = {};

  const filter = filterOf();
  const page = salesLinePage(db, EVERYTHING, filter, { page: 1, perPage: 15 });
  const bare = bareSalesPage(client);
  const check = bare() as { totals: { lines: number; total: number }; rows: unknown[] };
  out.salesPage = {
    lines: page.total,
    totalCents: page.totals.totalCents,
    agrees:
      check.totals.lines === page.total &&
      check.totals.total === page.totals.totalCents &&
      check.rows.length === page.rows.length,
    mesa: time(() => salesLinePage(db, EVERYTHING, filter, { page: 1, perPage: 15 })),
    bare: time(bare),
  };

  const dashboardFile = resolve(import.meta.dir, "../src/domain/sales/dashboard.ts");
  const figuresTable = client.query("SELECT 1 FROM sqlite_master WHERE name = 'daily_sale_figures'").get();
  if (existsSync(dashboardFile) && figuresTable) {
    const dashboard = await import(dashboardFile);
    const cafes = dashboard.dashboardCafes(db, EVERYTHING);
    const figures = dashboard.dashboardFigures(db, cafes, DASHBOARD_NOW);
    const daily = bareDashboard(client, "daily");
    const lines = bareDashboard(client, "lines");
    const [fromDaily, fromLines] = [daily(), lines()];
    out.dashboard = {
      agrees:
        fromDaily.monthCents === figures.month.totalCents &&
        fromDaily.todayCents === figures.day.totalCents &&
        fromLines.monthCents === figures.month.totalCents &&
        fromDaily.topCents === figures.topSubdealerships[0]?.totalCents,
      monthCents: figures.month.totalCents,
      mesa: time(() => dashboard.dashboardFigures(db, cafes, DASHBOARD_NOW)),
      bare: time(daily),
      lines: time(lines),
    };
  }
  console.log(JSON.stringify(out));
}

/**
 * The workbook's hand-written baseline: the same reads, prepared once — the totals, the lines grouped by subdealership,
 * date, service, sale type and other unit (what the Summary, Daily and Billing sheets add up), and one pass over the
 * same detail rows in the same order — with nothing written.
 */
function bareWorkbook(client: Database): { lines: number; totalCents: number } {
  const where = "s.service_date >= ?1 AND s.service_date <= ?2 AND s.voided_at IS NULL";
  client
    .prepare(
      `SELECT count(DISTINCT l.sale_id), count(*), sum(l.quantity), sum(l.base_cents), sum(l.igv_cents), sum(l.total_cents)
         FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE ${where}`,
    )
    .get(MONTH.from, MONTH.to);
  client
    .prepare(
      `SELECT s.subdealership_id, s.service_date, l.service_id, s.sale_type, s.other_unit, sum(l.quantity),
              sum(l.base_cents), sum(l.igv_cents), sum(l.total_cents), sum(l.list_price_cents * l.quantity), max(s.id),
              s.dealership_name, s.dealership_ruc, s.subdealership_name, s.subdealership_ruc
         FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE ${where} GROUP BY 1, 2, 3, 4, 5`,
    )
    .all(MONTH.from, MONTH.to);
  let lines = 0;
  let totalCents = 0;
  const detail =
    client.prepare(`SELECT s.service_date, s.sold_at, c.time_zone, s.cafe_name, u.name AS unit, m.name AS mine, s.series, s.number,
       s.dealership_name, s.subdealership_name, s.subdealership_ruc, s.document_type, s.document_number, s.diner_name,
       l.service_name, l.quantity, l.unit_price_cents, l.base_cents, l.igv_cents, l.total_cents, s.other_unit, s.sale_type
     FROM sale_lines l JOIN sales s ON s.id = l.sale_id JOIN cafes c ON c.id = s.cafe_id JOIN units u ON u.id = c.unit_id
     JOIN mines m ON m.id = u.mine_id WHERE ${where} ORDER BY s.service_date, s.id, l.id`);
  for (const row of detail.iterate(MONTH.from, MONTH.to) as IterableIterator<{ total_cents: number }>) {
    lines++;
    totalCents += row.total_cents;
  }
  return { lines, totalCents };
}

/**
 * The process's peak resident memory (Linux's VmHWM; 0 elsewhere, where the 10 ms samples stand alone). Not
 * getrusage's maxrss: Linux carries that over from the parent across exec.
 */
function highWaterMark(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The child writing October's workbook (after its baseline), sampling its memory as it goes. */
async function measureWorkbook(path: string, which: "bare" | "mesa"): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let result: Record<string, unknown>;
  if (which === "bare") {
    const client = new Database(path, { readonly: true });
    result = bareWorkbook(client);
    client.close();
  } else {
    const db = openDatabase(path);
    const file = join(mkdtempSync(join(tmpdir(), "mesa-bench-report-")), "report.xlsx");
    let slices = 0;
    const summary = await writeSalesReport(db, EVERYTHING, filterOf(), file, {
      locale: "es",
      generatedBy: "bench",
      timeZone: "America/Lima",
      progress: () => slices++,
    });
    const totals = salesTotals(db, EVERYTHING, filterOf());
    result = {
      lines: summary.lines,
      totalCents: summary.totals.totalCents,
      agrees: totals.totalCents === summary.totals.totalCents && totals.lines === summary.lines,
      sheets: summary.sheets.length,
      bytes: summary.bytes,
      slices,
    };
    rmSync(file, { force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  const cpuSeconds = (used.user + used.system) / 1e6;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss, highWaterMark());
  console.log(JSON.stringify({ ...result, seconds, cpuSeconds, rssBefore, peak }));
}

function child(args: string[]): Record<string, any> {
  const run = Bun.spawnSync([process.execPath, import.meta.path, ...args], {
    env: { ...process.env, NODE_ENV: "production" },
    stdout: "pipe",
    stderr: "inherit",
  });
  if (run.exitCode !== 0) throw new Error(`bench child ${args[0]} failed (exit ${run.exitCode})`);
  const text = run.stdout.toString().trim().split("\n").pop()!;
  return JSON.parse(text);
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `Mesa sales figures, Bun ${Bun.version}, ${cpus().length} cores, ${cpus()[0]?.model.trim() ?? "?"}; load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  const kept = process.env.BENCH_DB;
  const dir = kept ? null : mkdtempSync(join(tmpdir(), "mesa-bench-reports-"));
  const path = kept ?? join(dir!, "reports.sqlite");
  try {
    if (!kept || !existsSync(path)) await generate(path);
    else console.log(`reusing ${path} (${mib(statSync(path).size)})`);

    const queries = child(["queries", path]);
    const bare = child(["workbook", path, "bare"]);
    const mesa = child(["workbook", path, "mesa"]);

    const line = (label: string, t: { median: number; p95: number }) =>
      console.log(`  ${label.padEnd(44)} median ${ms(t.median).padStart(10)}  p95 ${ms(t.p95).padStart(10)}`);
    const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

    console.log(
      `\n── Sales page: first page (15 lines) with the totals of October over ${CAFES} cafes (${fmt(queries.salesPage.lines)} lines), ${RUNS} runs`,
    );
    line("bare SQL (totals pass + page, prepared)", queries.salesPage.bare);
    line("Mesa salesLinePage", queries.salesPage.mesa);
    const pageRatio = queries.salesPage.mesa.median / queries.salesPage.bare.median;
    console.log(
      `  ratio ${pageRatio.toFixed(2)}× the bare query (target ≤ 2×: ${verdict(pageRatio <= 2)}); ${ms(queries.salesPage.mesa.median)} (target < 300 ms: ${verdict(queries.salesPage.mesa.median < 300)}); same figures: ${queries.salesPage.agrees ? "yes" : "NO"}`,
    );
    check(queries.salesPage.agrees, "the Sales page's totals and rows agree with the bare SQL");

    console.log(
      `\n── Dashboard figures of ${CAFES} cafes (today = 31 October, the month, 14 days, top subdealerships), ${RUNS} runs`,
    );
    if (queries.dashboard) {
      const d = queries.dashboard;
      line("bare SQL over the daily totals (prepared)", d.bare);
      line("Mesa dashboardFigures", d.mesa);
      line("(bare SQL over the sale lines, for scale)", d.lines);
      const ratio = d.mesa.median / d.bare.median;
      console.log(
        `  ratio ${ratio.toFixed(2)}× the bare query (target ≤ 2×: ${verdict(ratio <= 2)}); ${ms(d.mesa.median)} (target < 300 ms: ${verdict(d.mesa.median < 300)}); same figures: ${d.agrees ? "yes" : "NO"}`,
      );
    } else console.log("  not measured: src/domain/sales/dashboard.ts or its daily totals are not in the tree");
    check(
      queries.dashboard?.agrees === true,
      "the dashboard's figures agree with the bare SQL over the daily totals and the lines",
    );

    console.log(`\n── October's report workbook (${fmt(mesa.lines)} lines), each in a process of its own`);
    console.log(
      `  bare SQL: totals, grouped lines, one pass over the detail   ${bare.seconds.toFixed(2)} s (CPU ${bare.cpuSeconds.toFixed(2)} s), peak RSS ${mib(bare.peak)} (${fmt(bare.lines)} rows)`,
    );
    console.log(
      `  Mesa writeSalesReport (${mesa.sheets} sheets, ${mib(mesa.bytes)})            ${mesa.seconds.toFixed(2)} s (CPU ${mesa.cpuSeconds.toFixed(2)} s), peak RSS ${mib(mesa.peak)} (before: ${mib(mesa.rssBefore)})`,
    );
    console.log(
      `  ratio ${(mesa.seconds / bare.seconds).toFixed(2)}× the bare SQL (CPU ${(mesa.cpuSeconds / bare.cpuSeconds).toFixed(2)}×); ${mesa.seconds.toFixed(2)} s (target < 10 s: ${verdict(mesa.seconds < 10)}); peak ${mib(mesa.peak)} (target < 300 MB: ${verdict(mesa.peak < 300 * 1_000_000)}); totals agree with salesTotals: ${mesa.agrees && bare.totalCents === mesa.totalCents ? "yes" : "NO"}`,
    );
    check(
      mesa.agrees && bare.totalCents === mesa.totalCents && bare.lines === mesa.lines,
      "the workbook's totals agree with salesTotals and with the bare SQL's pass over the same lines",
    );
    console.log(
      `\nload average after: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  finishChecks();
}

const [mode, path, which] = process.argv.slice(2);
if (mode === "queries") await measureQueries(path);
else if (mode === "workbook") await measureWorkbook(path, which === "bare" ? "bare" : "mesa");
else await main();
