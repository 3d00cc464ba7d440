/**
 * The point of sale under a queue: 32 cashiers, each signed in with their own session and CSRF token, selling credit
 * meals through Mesa's HTTP server (real sockets on loopback, `POST /sales` as JSON, audit and the SaleRecorded
 * event on: the event goes through the `pusher` SDK to the embedded realtime server) against 50,000 diners, next to
 * a bare durable insert loop writing the same rows in the same run. Prints sales/s, latency, where the server's time
 * goes, and checks in the database that no ticket number is duplicated or missing.
 *
 *   npm run bench:pos                 (NODE_ENV=production bun bench/pos.ts; 30 s of selling)
 *   npm run bench:pos -- --seconds 5  (a shorter run)
 *
 * Processes: this one generates the database, runs the bare loop (half before the server, half after) and drives the
 * cashiers, whose points of sale also listen to their cafe's sales on the private channel, as the page does; the
 * server runs in a child (`bun bench/pos.ts server ...`) started as src/server.ts starts Mesa (createServices, the
 * embedded realtime server started, `app.listen` on a loopback port), so the cashiers' fetches and the server do not
 * share an event loop. The child also runs `recordSale` directly in a loop (no HTTP), to split the server's time per
 * sale into the domain's and the rest. Settings: BENCH_CASHIERS (32), BENCH_DINERS (50000), BENCH_LOOP_SECONDS (the
 * bare and direct loops and the paced phase, default 10 or --seconds when shorter), BENCH_PACE_MS (1000: the paced
 * phase's one sale a second per cashier); BENCH_SMOKE=1 (or --smoke) sells for half a second with 16 cashiers and 2,000 diners, a sale every 100 ms at the till's pace.
 * Checked (a failed check is printed and the exit code is 1): every sale answered 201, the database's rows (one per
 * sale, no ticket number twice or missing, audited), and every SaleChanged reached the cafe's other points of sale.
 * The targets on speed are printed, not checked.
 * bench/README.md says how to read the figures.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { referenceSeeders } from "../db/seeds";
import { accessSeeder } from "../db/seeds/access";
import { dealershipsSeeder } from "../db/seeds/dealerships";
import { placesSeeder } from "../db/seeds/places";
import { servicesSeeder } from "../db/seeds/services";
import { loadConfig, type Config } from "../src/config";
import { groupCommit, migrateDatabase, openDatabase, type Db } from "../src/db";
import { accessProfile } from "../src/domain/access/authorization";
import { scopeOf } from "../src/domain/access/scope";
import { foldText } from "../src/shared/fold";
import { dateIn } from "../src/shared/calendar";
import { NO_EVENTS, type DomainEvent } from "../src/domain/events";
import { recordSale } from "../src/domain/sales/sell";
import { createApp } from "../src/http/app";
import { createServices } from "../src/http/services";
import { check, finishChecks, setting, SMOKE } from "./support/smoke";

const argSeconds = (() => {
  const at = process.argv.indexOf("--seconds");
  return at > 0 ? Number(process.argv[at + 1]) : NaN;
})();
const SECONDS = Number.isFinite(argSeconds) && argSeconds > 0 ? argSeconds : setting("BENCH_SECONDS", 30, 0.5);
const CASHIERS = setting("BENCH_CASHIERS", 32, 16);
const DINERS = setting("BENCH_DINERS", 50_000, 2000);
const LOOP_SECONDS = setting("BENCH_LOOP_SECONDS", Math.min(10, SECONDS), 0.2);
/** The paced phase: each cashier rings up one sale every PACE_MS (a scan and Enter take a few seconds at a till). */
const PACE_MS = setting("BENCH_PACE_MS", 1000, 100);
/** How long a phase waits for its last SaleRecorded deliveries before the server's figures are read. */
const SETTLE_MS = SMOKE ? 100 : 1000;
const PASSWORD = "bench-password-2026";
const APP_KEY = "bench-key-bench-key-bench-key-bench-key";
/** Diners of a cafe are split in this many groups: one per cashier of the cafe, the last for the direct loop. */
const GROUPS = 5;

const ms = (n: number) => n.toFixed(2);
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function settingsFor(dir: string, port: number): Config {
  return loadConfig({
    NODE_ENV: "production",
    DB_PATH: join(dir, "pos.sqlite"),
    STORAGE_PATH: dir,
    LOG_REQUESTS: "false",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    APP_KEY,
    BROADCAST_DRIVER: "embedded",
  });
}

/** One cafe as the cashiers sell there: its id, today, its meal services and its diners' documents by group. */
interface BenchCafe {
  id: number;
  today: string;
  serviceIds: number[];
  groups: string[][];
}

// ——— The database ———

/**
 * The demo places, prices, areas and client companies (the demo seeders), the cashiers holding the cashier role at
 * the eight cafes' Caja areas (one password hash for all), and DINERS diners spread over the cafes.
 */
async function generate(config: Config): Promise<{ cafes: BenchCafe[]; emails: string[] }> {
  const db = openDatabase(config.dbPath);
  migrateDatabase(db);
  for (const seeder of [...referenceSeeders, placesSeeder, accessSeeder, servicesSeeder, dealershipsSeeder])
    await seeder.run(db, config);
  const client = db.$client;
  const cafeRows = client.query("SELECT id, unit_id, time_zone FROM cafes ORDER BY id").all() as {
    id: number;
    unit_id: number;
    time_zone: string;
  }[];
  const hash = await Bun.password.hash(PASSWORD, { algorithm: "argon2id", memoryCost: 8, timeCost: 1 });
  const cashierRole = (client.query("SELECT id FROM roles WHERE name = 'cashier'").get() as { id: number }).id;
  const now = Date.now();
  const emails: string[] = [];
  const levelIds = (client.query("SELECT id FROM levels ORDER BY sort_order").all() as { id: number }[]).map(
    (l) => l.id,
  );
  const first = ["Juan", "María", "Luis", "Rosa", "Jorge", "Lucía", "Víctor", "Carmen", "Percy", "Ana", "Edwin"];
  const last = ["Quispe", "Mamani", "Huamán", "Condori", "Flores", "Rojas", "Ñaupari", "Ccahuana", "Apaza", "Ticona"];
  client.transaction(() => {
    const user = client.prepare(
      "INSERT INTO users (name, email, password_hash, email_verified_at, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'active', ?, ?) RETURNING id",
    );
    const assign = client.prepare("INSERT INTO assignments (user_id, area_id, role_id) VALUES (?, ?, ?)");
    for (let k = 0; k < CASHIERS; k++) {
      const cafe = cafeRows[k % cafeRows.length];
      const area = client.query("SELECT id FROM areas WHERE name = 'Caja' AND cafe_id = ?").get(cafe.id) as {
        id: number;
      };
      const email = `cajero${k + 1}@bench.test`;
      const { id } = user.get(`Cajero ${k + 1}`, email, hash, now, now, now) as { id: number };
      assign.run(id, area.id, cashierRole);
      emails.push(email);
    }
    client.run("UPDATE access_version SET version = version + 1");
    const diner = client.prepare(
      `INSERT INTO diners (document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id,
        active, created_at, updated_at) VALUES ('dni', ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    const subdealershipsOf = new Map(
      cafeRows.map((c) => [
        c.id,
        (
          client.query("SELECT subdealership_id AS id FROM subdealership_units WHERE unit_id = ?").all(c.unit_id) as {
            id: number;
          }[]
        ).map((s) => s.id),
      ]),
    );
    for (let i = 0; i < DINERS; i++) {
      const cafe = cafeRows[i % cafeRows.length];
      const subs = subdealershipsOf.get(cafe.id)!;
      const name = `${first[i % first.length]} ${last[Math.floor(i / 11) % last.length]} ${last[Math.floor(i / 110) % last.length]}`;
      diner.run(
        String(10_000_000 + i * 7).padStart(8, "0"),
        name,
        foldText(name),
        `9${String(10_000_000 + i).slice(-8)}`,
        subs[i % subs.length],
        cafe.id,
        levelIds[i % levelIds.length],
        now,
        now,
      );
    }
  })();
  const cafes = cafeRows.map((c) => {
    const documents = (
      client.query("SELECT document_number AS n FROM diners WHERE cafe_id = ? ORDER BY id").all(c.id) as {
        n: string;
      }[]
    ).map((d) => d.n);
    const serviceIds = (
      client
        .query(
          `SELECT s.id FROM cafe_services cs JOIN services s ON s.id = cs.service_id
           WHERE cs.cafe_id = ? AND cs.price_cents IS NOT NULL AND s.type IN ('breakfast', 'lunch', 'dinner', 'snack')
           ORDER BY s.id`,
        )
        .all(c.id) as { id: number }[]
    ).map((s) => s.id);
    return {
      id: c.id,
      today: dateIn(c.time_zone),
      serviceIds,
      groups: Array.from({ length: GROUPS }, (_, g) => documents.filter((_, i) => i % GROUPS === g)),
    };
  });
  client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  return { cafes, emails };
}

/** The n-th credit sale of one cashier's group of diners: each diner once per meal service, service after service. */
function saleBody(cafe: BenchCafe, group: number, n: number, key: string) {
  const diners = cafe.groups[group];
  const round = Math.floor(n / diners.length);
  const credit = round < cafe.serviceIds.length;
  return {
    key,
    cafe_id: cafe.id,
    document_number: diners[n % diners.length],
    service_date: cafe.today,
    // Past every meal of every diner of the group, a cash snack (no limit per day).
    sale_type: credit ? "credit" : "cash",
    other_unit_confirmed: false,
    lines: [{ service_id: credit ? cafe.serviceIds[round] : cafe.serviceIds[cafe.serviceIds.length - 1], quantity: 1 }],
  };
}

// ——— The bare loop ———

/**
 * The least work that stores a sale durably: one immediate transaction per sale with a sales row, its line, the
 * audit entry and its place, through statements prepared once on a connection opened as Mesa opens it (WAL,
 * synchronous = FULL). No reads, no checks, no JSON, no HTTP. Its rows (series BARE) are deleted afterwards.
 */
function bareLoop(config: Config, seconds: number) {
  const db = openDatabase(config.dbPath);
  const client = db.$client;
  const { business, diner } = client
    .query("SELECT (SELECT id FROM businesses LIMIT 1) AS business, (SELECT id FROM diners LIMIT 1) AS diner")
    .get() as { business: number; diner: number };
  const service = (client.query("SELECT id FROM services WHERE code = 'ALM'").get() as { id: number }).id;
  const sale = client.prepare(
    `INSERT INTO sales (cafe_id, receipt_type, series, number, sale_type, service_date, sold_at, request_key,
       request_digest, diner_id, document_type, document_number, diner_name, business_id, business_name, business_ruc,
       cafe_name, igv_rate_basis_points, base_cents, igv_cents, total_cents, cashier_id, cashier_name)
     VALUES (1, 'ticket', 'BARE', ?, 'cash', '2026-01-01', ?, ?, 'digest', ?, 'dni', '12345678', 'Bare', ?,
       'Mesa Catering S.A.C.', '20100079705', 'Comedor', 1800, 1525, 275, 1800, NULL, 'bare')`,
  );
  const line = client.prepare(
    `INSERT INTO sale_lines (sale_id, service_id, service_code, service_name, quantity, list_price_cents,
       unit_price_cents, base_cents, igv_cents, total_cents, diner_id, sale_type, service_date)
     VALUES (?, ?, 'ALM', 'Almuerzo', 1, 1800, 1800, 1525, 275, 1800, ?, 'cash', '2026-01-01')`,
  );
  const audit = client.prepare(
    `INSERT INTO audit_log (actor_id, actor_label, action, subject_type, subject_id, after, created_at)
     VALUES (NULL, 'bare', 'sale.created', 'sale', ?, '{"ticket":"BARE"}', ?)`,
  );
  const place = client.prepare("INSERT INTO audit_places (audit_id, kind, place_id) VALUES (?, 'cafe', 1)");
  const one = client.transaction((n: number) => {
    const now = Date.now();
    const id = sale.run(n, now, `bare-${n}`, diner, business).lastInsertRowid;
    line.run(id, service, diner);
    place.run(audit.run(id, now).lastInsertRowid);
  });
  const times: number[] = [];
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < seconds * 1000) {
    const t = performance.now();
    one.immediate(++n);
    times.push(performance.now() - t);
  }
  const elapsed = (performance.now() - started) / 1000;
  client.transaction(() => {
    client.run(
      "DELETE FROM audit_log WHERE id IN (SELECT audit_id FROM audit_places WHERE kind = 'cafe' AND place_id = 1) AND actor_label = 'bare'",
    );
    client.run("DELETE FROM sale_lines WHERE sale_id IN (SELECT id FROM sales WHERE series = 'BARE')");
    client.run("DELETE FROM sales WHERE series = 'BARE'");
  })();
  client.close();
  return { sales: n, seconds: elapsed, perSecond: n / elapsed, latency: times.sort((a, b) => a - b) };
}

// ——— The server (child process) ———

interface DiskStats {
  /** Commits of the connection (a group commit's COMMIT, or a transaction's own). */
  commits: number;
  /** Time in BEGIN and COMMIT (the COMMIT waits for the WAL's fsync). */
  commitMs: number;
  /** Sales' work run inside a transaction it did not open (a group commit's savepoints): count and time. */
  works: number;
  workMs: number;
}

async function runServer(dir: string, port: number, cafes: BenchCafe[], directEmail: string): Promise<void> {
  const config = settingsFor(dir, port);
  const db = openDatabase(config.dbPath);
  migrateDatabase(db);
  const disk: DiskStats = { commits: 0, commitMs: 0, works: 0, workMs: 0 };
  // Time this connection's BEGIN and COMMIT, and the outermost transaction calls (wrappers on this process's client;
  // src is unchanged). The sale route's group commit (groupCommit, src/db.ts) runs BEGIN IMMEDIATE and COMMIT with
  // `exec` and each sale in a savepoint (`transaction` inside it), so the savepoints' time is the sales' own work.
  type Run = (...a: unknown[]) => unknown;
  interface TxFunction extends Run {
    deferred: Run;
    immediate: Run;
    exclusive: Run;
  }
  const client = db.$client as unknown as { transaction: (fn: Run) => TxFunction; exec: (sql: string) => unknown };
  const exec = client.exec.bind(client);
  client.exec = (sql: string) => {
    const boundary = /^\s*(BEGIN|COMMIT)/i.exec(sql);
    if (!boundary) return exec(sql);
    const t = performance.now();
    try {
      return exec(sql);
    } finally {
      disk.commitMs += performance.now() - t;
      if (boundary[1].toUpperCase() === "COMMIT") disk.commits++;
    }
  };
  let depth = 0;
  const transaction = client.transaction.bind(client);
  client.transaction = (fn) => {
    const native = transaction(fn);
    const timed =
      (run: Run) =>
      (...a: unknown[]) => {
        const outermost = depth === 0;
        // Inside a transaction opened with exec (a group commit), this is a savepoint: the sale's work.
        const inGroup = outermost && (db.$client as unknown as { inTransaction: boolean }).inTransaction;
        depth++;
        const t = performance.now();
        try {
          return run(...a);
        } finally {
          depth--;
          if (inGroup) {
            disk.workMs += performance.now() - t;
            disk.works++;
          } else if (outermost) {
            // A transaction of its own: its BEGIN and COMMIT are inside (bun:sqlite's statements, not exec).
            disk.commitMs += performance.now() - t;
            disk.commits++;
          }
        }
      };
    return Object.assign(timed(native), {
      deferred: timed(native.deferred),
      immediate: timed(native.immediate),
      exclusive: timed(native.exclusive),
    }) as TxFunction;
  };
  let handler = { count: 0, total: 0 };
  const services = createServices(config, db);
  // Time the sales.store handler: recordSale and its JSON answer (the route's own code, wrapped here).
  services.routes = services.routes.map((route) =>
    route.name !== "sales.store"
      ? route
      : {
          ...route,
          handle: async (ctx) => {
            const t = performance.now();
            try {
              return await route.handle(ctx);
            } finally {
              handler.total += performance.now() - t;
              handler.count++;
            }
          },
        },
  );
  const realtime = services.realtime!;
  let published = 0;
  const publish = realtime.publish.bind(realtime);
  realtime.publish = (...args: Parameters<typeof publish>) => {
    published++;
    return publish(...args);
  };
  realtime.start();
  const app = createApp(services);
  app.listen({ port, hostname: "127.0.0.1", maxRequestBodySize: 32 * 1024 * 1024 });

  let cpu = process.cpuUsage();
  let wall = performance.now();
  const reset = () => {
    cpu = process.cpuUsage();
    wall = performance.now();
    disk.commits = disk.commitMs = disk.works = disk.workMs = 0;
    handler = { count: 0, total: 0 };
    published = 0;
  };
  const stats = () => {
    const used = process.cpuUsage(cpu);
    return {
      wallMs: performance.now() - wall,
      cpuMs: (used.user + used.system) / 1000,
      systemMs: used.system / 1000,
      disk: { ...disk },
      handler: { ...handler },
      published,
    };
  };

  /**
   * recordSale called directly, one after another, as the route calls it (through groupCommit, its events published
   * once the commit is durable), without HTTP: one sale per commit, as nothing else arrives meanwhile. Awaiting the
   * commit yields to the event loop, so the SaleRecorded deliveries (an HTTP request of the pusher SDK to this same
   * server) are made and answered as in the HTTP phase.
   */
  let directSold = 0;
  const direct = async (seconds: number, withEvents: boolean) => {
    const user = db.$client.query("SELECT id FROM users WHERE email = ?").get(directEmail) as { id: number };
    const actor = { userId: user.id, label: directEmail };
    const scope = scopeOf(accessProfile(db, user.id));
    const cafe = cafes.find((c) => [...(scope.cafeIds ?? [])].includes(c.id))!;
    reset();
    const times: number[] = [];
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < seconds * 1000) {
      const t = performance.now();
      const events = withEvents ? services.events.publisher() : NO_EVENTS;
      const held: DomainEvent[] = [];
      const body = saleBody(cafe, GROUPS - 1, directSold, `direct-${directSold}`);
      await groupCommit(db, () =>
        recordSale(db, actor, scope, body, config, { backdate: false }, { publish: (e) => held.push(e) }, new Date()),
      );
      for (const event of held) events.publish(event);
      times.push(performance.now() - t);
      n++;
      directSold++;
    }
    return {
      sales: n,
      seconds: (performance.now() - started) / 1000,
      latency: times.sort((a, b) => a - b),
      ...stats(),
    };
  };

  process.on("message", async (message: { id: number; cmd: string; seconds?: number; events?: boolean }) => {
    const answer = (result: unknown) => process.send!({ id: message.id, result });
    if (message.cmd === "reset") answer(reset());
    else if (message.cmd === "stats") answer(stats());
    else if (message.cmd === "direct") {
      const result = await direct(message.seconds!, message.events!);
      // Let the loop's SaleRecorded deliveries reach the embedded server before counting them.
      await Bun.sleep(500);
      answer({ ...result, published });
    } else if (message.cmd === "stop") {
      answer(null);
      realtime.stop();
      await app.stop();
      db.$client.close();
      process.exit(0);
    }
  });
  process.send!({ id: 0, result: "ready" });
}

// ——— The cashiers ———

class Cashier {
  private readonly jar = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly email: string,
  ) {}

  private keep(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      this.jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
  }

  private get cookie() {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private get token() {
    return decodeURIComponent(this.jar.get("XSRF-TOKEN") ?? "");
  }

  /** Signs in through the sign-in form as a browser does: the page for the cookies, then the form with the token. */
  async signIn(): Promise<void> {
    const page = await fetch(`${this.base}/login`);
    this.keep(page);
    await page.arrayBuffer();
    const response = await fetch(`${this.base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: this.cookie,
        "content-type": "application/json",
        "x-xsrf-token": this.token,
        referer: `${this.base}/login`,
      },
      body: JSON.stringify({ email: this.email, password: PASSWORD }),
    });
    await response.arrayBuffer();
    if (response.status !== 302 && response.status !== 303)
      throw new Error(`signing in as ${this.email}: status ${response.status}`);
    this.keep(response);
  }

  /** The realtime socket of this cashier's open point of sale, once it listens to its cafe's sales. */
  socketId = "";
  /** The sales whose SaleChanged this cashier's point of sale received (other cashiers' sales at its cafe). */
  heard: number[] = [];

  /**
   * Opens the point of sale's realtime connection as the page does (Echo over the Pusher protocol): the socket,
   * the channel's authorization from /broadcasting/auth with the session and CSRF token, the subscription.
   */
  async listen(appKey: string, cafeId: number): Promise<void> {
    const ws = new WebSocket(`${this.base.replace("http", "ws")}/app/${appKey}?protocol=7&client=js&version=8.4.0`);
    const channel = `private-cafe.${cafeId}.sales`;
    let subscribed!: () => void;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data)) as { event: string; channel?: string; data?: string };
      if (frame.event === "pusher:connection_established") {
        this.socketId = (JSON.parse(frame.data!) as { socket_id: string }).socket_id;
        void this.authorize(channel).then((auth) =>
          ws.send(JSON.stringify({ event: "pusher:subscribe", data: { channel, ...auth } })),
        );
      } else if (frame.event === "pusher_internal:subscription_succeeded") subscribed();
      else if (frame.channel === channel && frame.event.endsWith("SaleChanged"))
        this.heard.push((JSON.parse(frame.data!) as { saleId: number }).saleId);
    });
    this.close = () => ws.close();
    await ready;
  }

  close = () => {};

  private async authorize(channel: string): Promise<Record<string, string>> {
    const response = await fetch(`${this.base}/broadcasting/auth`, {
      method: "POST",
      headers: {
        cookie: this.cookie,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        "x-xsrf-token": this.token,
      },
      body: new URLSearchParams({ socket_id: this.socketId, channel_name: channel }).toString(),
    });
    if (response.status !== 200) throw new Error(`${this.email}: /broadcasting/auth answered ${response.status}`);
    return (await response.json()) as Record<string, string>;
  }

  /**
   * One sale as the point of sale sends it to the JSON contract: the session, the CSRF token, and the tab's socket
   * (X-Socket-ID), so the live event reaches the cafe's other points of sale and not this one.
   */
  async sell(body: unknown): Promise<{ status: number; text: string }> {
    const response = await fetch(`${this.base}/sales`, {
      method: "POST",
      headers: {
        cookie: this.cookie,
        "content-type": "application/json",
        accept: "application/json",
        "x-xsrf-token": this.token,
        ...(this.socketId ? { "x-socket-id": this.socketId } : {}),
      },
      body: JSON.stringify(body),
    });
    this.keep(response);
    return { status: response.status, text: await response.text() };
  }
}

function spawnServer(dir: string, port: number, cafes: BenchCafe[], directEmail: string) {
  // The cafes with their diners' documents are too long for a command line: the child reads them from a file.
  writeFileSync(join(dir, "cafes.json"), JSON.stringify(cafes));
  const pending = new Map<number, (value: any) => void>();
  let nextId = 1;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  // BENCH_PROFILE=DIR writes a CPU profile of the server process (Markdown) into DIR.
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof-md", "--cpu-prof-dir", process.env.BENCH_PROFILE] : [];
  const command = [process.execPath, ...profile, import.meta.path, "server", dir, String(port), directEmail];
  const child: Subprocess = Bun.spawn(command, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
    ipc(message: { id: number; result: unknown }) {
      if (message.id === 0) return ready();
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    },
  });
  void child.exited.then((code) => {
    if (code !== 0) {
      console.error(`the server process exited (code ${code})`);
      process.exit(1);
    }
  });
  const call = <T>(cmd: string, extra: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, cmd, ...extra });
    });
  return { started, call, child };
}

// ——— The run ———

async function main() {
  const runStarted = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "mesa-bench-pos-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  void probe.stop(true);
  const config = settingsFor(dir, port);
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  console.log(
    `Mesa point of sale, Bun ${Bun.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown CPU"}; load average before: ${load()}`,
  );
  let t = performance.now();
  const { cafes, emails } = await generate(config);
  console.log(
    `database: ${fmt(DINERS)} diners over ${cafes.length} cafes, ${CASHIERS} cashiers (${CASHIERS / cafes.length} a cafe); generated in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  // 1. The bare loop, alone on the database: half now, half after the server stopped (a disk shared with other
  // work changes the fsync's time over a run; both halves are printed, and their sales/s together are the baseline).
  const bareBefore = bareLoop(config, LOOP_SECONDS / 2);

  // 2. The server, and the cashiers signing in.
  const directEmail = emails[0];
  const server = spawnServer(dir, port, cafes, directEmail);
  await server.started;
  const base = `http://127.0.0.1:${port}`;
  const cashiers = emails.map((email) => new Cashier(base, email));
  t = performance.now();
  await Promise.all(cashiers.map((c) => c.signIn()));
  console.log(`\n${CASHIERS} cashiers signed in through the sign-in form in ${ms(performance.now() - t)} ms`);
  t = performance.now();
  await Promise.all(cashiers.map((c, k) => c.listen(config.broadcast.key, cafes[k % cafes.length].id)));
  console.log(
    `${CASHIERS} points of sale listening to their cafe's sales (private channel, authorized) in ${ms(performance.now() - t)} ms`,
  );

  // Warm-up: a few sales each (counted in the database checks, not in the figures).
  const counters = cashiers.map(() => 0);
  const cafeOf = (k: number) => cafes[k % cafes.length];
  const groupOf = (k: number) => Math.floor(k / cafes.length) % (GROUPS - 1);
  const sellNext = (k: number) => {
    const n = counters[k]++;
    return cashiers[k].sell(saleBody(cafeOf(k), groupOf(k), n, `cashier-${k}-${n}`));
  };
  let created = 0;
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const count = (status: number, text: string) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 201) created++;
    else if (failures.length < 5) failures.push(`${status} ${text.slice(0, 200)}`);
  };
  for (let round = 0; round < 5; round++)
    for (const r of await Promise.all(cashiers.map((_, k) => sellNext(k)))) count(r.status, r.text);

  /** The cashiers selling for `seconds`: as fast as the server answers, or one sale every `paceMs` each. */
  const phase = async (seconds: number, paceMs: number | null) => {
    await server.call("reset");
    for (const c of cashiers) c.heard = [];
    const soldAt = cafes.map(() => 0);
    const soldIds = new Set<number>();
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + seconds * 1000;
    let sold = 0;
    await Promise.all(
      cashiers.map(async (_, k) => {
        // Paced cashiers start spread over the first interval, as tills do not ring in step.
        let next = started + (paceMs === null ? 0 : (paceMs * k) / cashiers.length);
        while (performance.now() < deadline) {
          if (paceMs !== null) {
            if (next > performance.now()) await Bun.sleep(next - performance.now());
            next += paceMs;
            if (performance.now() >= deadline) break;
          }
          const t0 = performance.now();
          const r = await sellNext(k);
          latencies.push(performance.now() - t0);
          count(r.status, r.text);
          if (r.status === 201) {
            sold++;
            soldIds.add((JSON.parse(r.text) as { id: number }).id);
            soldAt[k % cafes.length]++;
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    await Bun.sleep(SETTLE_MS); // the last SaleRecorded deliveries
    const stats = await server.call<ServerStats>("stats");
    // Each sale reaches the other points of sale of its cafe.
    const tabsAt = cafes.map((_, i) => cashiers.filter((_, k) => k % cafes.length === i).length);
    const expected = soldAt.reduce((total, n, i) => total + n * (tabsAt[i] - 1), 0);
    // Deliveries of this phase's sales only (a warm-up sale's event may arrive after the phase began).
    const heardNow = () => cashiers.reduce((total, c) => total + c.heard.filter((id) => soldIds.has(id)).length, 0);
    // A busy machine may hold the last deliveries back: up to 10 s more before one counts as lost (after the stats).
    for (let waited = 0; heardNow() < expected && waited < 10_000; waited += 100) await Bun.sleep(100);
    const heard = heardNow();
    return {
      sold,
      seconds: elapsed,
      perSecond: sold / elapsed,
      latencies: latencies.sort((a, b) => a - b),
      stats,
      heard,
      expected,
    };
  };

  // 3. The cashiers selling, each as fast as the server answers; then at a till's pace.
  const saturated = await phase(SECONDS, null);
  const paced = await phase(LOOP_SECONDS, PACE_MS);
  const { perSecond, latencies, stats: http } = saturated;
  const sold = saturated.sold;
  const phaseSeconds = saturated.seconds;

  // 4. recordSale directly in the server process, one after another, with the live event and without it.
  type Direct = ServerStats & { sales: number; seconds: number; latency: number[] };
  const direct = await server.call<Direct>("direct", { seconds: LOOP_SECONDS, events: true });
  const quiet = await server.call<Direct>("direct", { seconds: LOOP_SECONDS / 2, events: false });
  for (const c of cashiers) c.close();
  await server.call("stop");
  await server.child.exited;

  const bareAfter = bareLoop(config, LOOP_SECONDS / 2);
  const bare = {
    perSecond: (bareBefore.sales + bareAfter.sales) / (bareBefore.seconds + bareAfter.seconds),
    latency: [...bareBefore.latency, ...bareAfter.latency].sort((a, b) => a - b),
  };

  // 5. The checks, in the database.
  const db = openDatabase(config.dbPath);
  const checks = verify(db, created + direct.sales + quiet.sales);
  db.$client.close();

  const perSale = (total: number, n: number) => (n === 0 ? NaN : total / n);
  console.log(
    `\n── bare durable insert loop (sale + line + audit entry + its place, one immediate transaction each, WAL, synchronous = FULL), ${LOOP_SECONDS / 2} s before the server and ${LOOP_SECONDS / 2} s after`,
  );
  for (const [when, run] of [
    ["before", bareBefore],
    ["after", bareAfter],
  ] as const)
    console.log(
      `  ${when.padEnd(6)} ${fmt(run.sales)} sales, ${fmt(run.perSecond)} sales/s; per sale p50 ${ms(percentile(run.latency, 0.5))} ms  p99 ${ms(percentile(run.latency, 0.99))} ms`,
    );
  console.log(
    `  both   ${fmt(bare.perSecond)} sales/s; per sale p50 ${ms(percentile(bare.latency, 0.5))} ms  p99 ${ms(percentile(bare.latency, 0.99))} ms`,
  );
  console.log(
    `\n── Mesa: ${CASHIERS} cashiers through HTTP (POST /sales as JSON; session, CSRF, access, audit, SaleRecorded → embedded realtime), ${ms(phaseSeconds)} s`,
  );
  console.log(
    `  ${fmt(sold)} sales, ${fmt(perSecond)} sales/s; latency p50 ${ms(percentile(latencies, 0.5))} ms  p99 ${ms(percentile(latencies, 0.99))} ms  max ${ms(latencies.at(-1) ?? NaN)} ms`,
  );
  console.log(
    `  answers: ${[...statuses].map(([status, n]) => `${fmt(n)} × ${status}`).join(", ")}${failures.length ? `; first others: ${failures.join(" | ")}` : ""}`,
  );
  console.log(
    `  realtime: ${fmt(http.published)} SaleChanged events published by the embedded server; the other points of sale of each cafe received ${fmt(saturated.heard)} of ${fmt(saturated.expected)}`,
  );
  const wallPerSale = perSale(http.wallMs, http.disk.works);
  const workPerSale = perSale(http.disk.workMs, http.disk.works);
  const commitPerSale = perSale(http.disk.commitMs, http.disk.works);
  console.log("  server time per sale (the server's process; its event loop is one thread):");
  console.log(`    wall clock of the phase / sales             ${ms(wallPerSale)} ms`);
  console.log(
    `    CPU (user + system)                         ${ms(perSale(http.cpuMs, http.disk.works))} ms  (${ms(perSale(http.systemMs, http.disk.works))} ms system; busy ${((100 * http.cpuMs) / http.wallMs).toFixed(0)} % of the wall clock)`,
  );
  console.log(`    recordSale (in its savepoint)               ${ms(workPerSale)} ms`);
  console.log(
    `    BEGIN + COMMIT                              ${ms(commitPerSale)} ms  (${fmt(http.disk.commits)} commits, ${ms(perSale(http.disk.works, http.disk.commits))} sales each, ${ms(perSale(http.disk.commitMs, http.disk.commits))} ms each)`,
  );
  console.log(`    the rest (HTTP, session, CSRF, access,      ${ms(wallPerSale - workPerSale - commitPerSale)} ms`);
  console.log("     JSON, realtime publish, idle)");
  console.log(
    `  the sales.store handler, waiting for its group's commit included: ${ms(perSale(http.handler.total, http.handler.count))} ms a sale`,
  );

  console.log(
    `\n── recordSale called directly in the server process, one after another (one commit each), events on, ${ms(direct.seconds)} s`,
  );
  console.log(
    `  ${fmt(direct.sales)} sales, ${fmt(direct.sales / direct.seconds)} sales/s; per sale p50 ${ms(percentile(direct.latency, 0.5))} ms  p99 ${ms(percentile(direct.latency, 0.99))} ms`,
  );
  console.log(
    `  per sale: recordSale ${ms(perSale(direct.disk.workMs, direct.disk.works))} ms, BEGIN + COMMIT ${ms(perSale(direct.disk.commitMs, direct.disk.works))} ms, the rest ${ms(perSale(direct.wallMs - direct.disk.workMs - direct.disk.commitMs, direct.sales))} ms; CPU ${ms(perSale(direct.cpuMs, direct.sales))} ms`,
  );
  console.log(
    `  without the live event (NO_EVENTS), ${ms(quiet.seconds)} s: ${fmt(quiet.sales / quiet.seconds)} sales/s; per sale p50 ${ms(percentile(quiet.latency, 0.5))} ms; wall ${ms(perSale(quiet.wallMs, quiet.sales))} ms against ${ms(perSale(direct.wallMs, direct.sales))} ms with it, CPU ${ms(perSale(quiet.cpuMs, quiet.sales))} ms against ${ms(perSale(direct.cpuMs, direct.sales))} ms`,
  );

  console.log(
    `\n── Mesa: ${CASHIERS} cashiers through HTTP at a till's pace (one sale every ${PACE_MS} ms each), ${ms(paced.seconds)} s`,
  );
  console.log(
    `  ${fmt(paced.sold)} sales, ${fmt(paced.perSecond)} sales/s; latency p50 ${ms(percentile(paced.latencies, 0.5))} ms  p99 ${ms(percentile(paced.latencies, 0.99))} ms  max ${ms(paced.latencies.at(-1) ?? NaN)} ms`,
  );
  console.log(
    `  realtime: the other points of sale received ${fmt(paced.heard)} of ${fmt(paced.expected)} SaleChanged`,
  );
  console.log(
    `  server per sale: recordSale ${ms(perSale(paced.stats.disk.workMs, paced.stats.disk.works))} ms, BEGIN + COMMIT ${ms(perSale(paced.stats.disk.commitMs, paced.stats.disk.works))} ms (${ms(perSale(paced.stats.disk.works, paced.stats.disk.commits))} sales a commit), CPU ${ms(perSale(paced.stats.cpuMs, paced.stats.disk.works))} ms`,
  );

  console.log("\n── checks in the database");
  for (const line of checks.lines) console.log(`  ${line}`);

  const ratio = perSecond / bare.perSecond;
  const p99 = percentile(latencies, 0.99);
  console.log("\n── Mesa / bare");
  console.log(
    `  sales/s ${ms(ratio)}× the bare loop (target ≥ 0.15×: ${ratio >= 0.15 ? "met" : "missed"}); p99 ${ms(p99)} ms (target < 50 ms: ${p99 < 50 ? "met" : "missed"})`,
  );
  console.log(
    `  recordSale alone ${ms(direct.sales / direct.seconds / bare.perSecond)}× the bare loop; through HTTP ${ms(perSecond / (direct.sales / direct.seconds))}× recordSale alone`,
  );
  console.log(`load average after: ${load()}; total ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);
  check(checks.ok, "the database holds one audited sale per answered sale, every ticket number once");
  check(
    failures.length === 0,
    `every sale answered 201 (${[...statuses].map(([status, n]) => `${n} × ${status}`).join(", ")})`,
  );
  for (const [name, run] of [
    ["selling as fast as the server answers", saturated],
    ["at a till's pace", paced],
  ] as const)
    check(
      run.heard === run.expected,
      `${name}, every SaleChanged reached the cafe's other points of sale (${run.heard} of ${run.expected})`,
    );
  finishChecks();
}

interface ServerStats {
  wallMs: number;
  cpuMs: number;
  systemMs: number;
  disk: DiskStats;
  handler: { count: number; total: number };
  published: number;
}

/** Every answered sale is one row; no ticket number twice or missing in any cafe; one credit meal each; audited. */
function verify(db: Db, answered: number): { ok: boolean; lines: string[] } {
  const client = db.$client;
  const one = <T>(query: string) => client.query(query).get() as T;
  const rows = one<{ n: number }>("SELECT count(*) AS n FROM sales").n;
  const duplicates = one<{ n: number }>(
    "SELECT count(*) AS n FROM (SELECT 1 FROM sales GROUP BY cafe_id, series, number HAVING count(*) > 1)",
  ).n;
  const keys = one<{ n: number }>(
    "SELECT count(*) AS n FROM (SELECT 1 FROM sales GROUP BY request_key HAVING count(*) > 1)",
  ).n;
  const meals = one<{ n: number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM sale_lines WHERE sale_type = 'credit' AND voided = 0
       GROUP BY diner_id, service_id, service_date HAVING count(*) > 1)`,
  ).n;
  const perCafe = client
    .query(
      `SELECT c.id, c.ticket_series AS series, r.next_number AS next, count(s.id) AS n, min(s.number) AS low,
         max(s.number) AS high, count(DISTINCT s.series) AS seriesCount
       FROM cafes c
       LEFT JOIN receipt_series r ON r.business_id = c.business_id AND r.kind = 'ticket' AND r.series = c.ticket_series
       LEFT JOIN sales s ON s.cafe_id = c.id GROUP BY c.id ORDER BY c.id`,
    )
    .all() as { id: number; series: string; next: number; n: number; low: number; high: number; seriesCount: number }[];
  const gaps = perCafe.filter(
    (c) => c.n > 0 && (c.low !== 1 || c.high !== c.n || c.next !== c.high + 1 || c.seriesCount !== 1),
  );
  const audited = one<{ n: number }>("SELECT count(*) AS n FROM audit_log WHERE action = 'sale.created'").n;
  const lines = [
    `${fmt(rows)} sales stored for ${fmt(answered)} answered 201 (HTTP, warm-up included) or sold directly: ${rows === answered ? "equal" : "DIFFERENT"}`,
    `duplicate ticket numbers: ${duplicates}; duplicate request keys: ${keys}; second credit meals: ${meals}`,
    `gaps: ${gaps.length === 0 ? "none" : gaps.map((c) => `cafe ${c.id}: ${c.n} sales numbered ${c.low}–${c.high}, next ${c.next}`).join("; ")} (${perCafe
      .filter((c) => c.n > 0)
      .map((c) => `${c.series} 1–${fmt(c.high)}`)
      .join(", ")})`,
    `audit entries sale.created: ${fmt(audited)} (${audited === rows ? "one per sale" : "NOT one per sale"})`,
  ];
  return {
    ok: rows === answered && duplicates === 0 && keys === 0 && meals === 0 && gaps.length === 0 && audited === rows,
    lines,
  };
}

if (process.argv[2] === "server") {
  const [dir, port, directEmail] = process.argv.slice(3);
  const cafes = JSON.parse(readFileSync(join(dir, "cafes.json"), "utf8")) as BenchCafe[];
  await runServer(dir, Number(port), cafes, directEmail);
} else await main();
