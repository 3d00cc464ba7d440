/**
 * The point of sale under concurrent requests, over real HTTP (Mesa listening on a loopback port, requests fired
 * together with fetch, each with the signed-in session's cookie and CSRF token): twenty identical credit sales make
 * exactly one sale and nineteen refusals that say why; twenty requests with one key make one sale that every answer
 * carries; concurrent sales at one cafe take gapless, unique ticket numbers.
 *
 * A second part runs several Mesa processes on one database file, so that requests really run at the same time
 * (not only interleaved in one process): the unique index and the immediate transaction must hold, not only the
 * checks made before writing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, asc, eq, inArray } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diners, saleLines, sales } from "../../db/schema";
import { type Db } from "../../src/db";
import { foldText } from "../../src/shared/fold";
import { dateIn } from "../../src/shared/calendar";
import { currentTicketSeries } from "../../src/domain/sales/series";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { Client, TEST_APP_KEY, type TestApp, fileTestApp } from "../support/app";
import { populatePos, posApp, type PosApp, type PosPeople } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

let keys = 0;
const newKey = () => `race-key-${++keys}-${Math.random().toString(36).slice(2, 10)}`;

/** A fresh diner of `cafeId` with no sales: their id and DNI. */
function addDiner(db: Db, cafeId: number, subdealershipId: number, document: string, name: string) {
  const now = new Date();
  return db
    .insert(diners)
    .values({
      documentType: "dni",
      documentNumber: document,
      name,
      nameFolded: foldText(name),
      subdealershipId,
      cafeId,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get().id;
}

/** A JSON request over real HTTP with the client's cookies and CSRF token, as the browser's fetch sends it. */
function post(origin: string, client: Client, path: string, body: unknown, method = "POST"): Promise<Response> {
  return fetch(origin + path, {
    method,
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "),
      "x-xsrf-token": client.cookies.get("XSRF-TOKEN")!,
    },
    body: JSON.stringify(body),
  });
}

async function answers(responses: Response[]): Promise<{ status: number; json: Record<string, any> }[]> {
  return Promise.all(responses.map(async (r) => ({ status: r.status, json: await r.json() })));
}

function tally(list: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of list) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("one Mesa, requests fired together", () => {
  let world: PosApp;
  let origin: string;
  let today: string;

  beforeAll(async () => {
    world = await posApp();
    world.app.app.listen({ port: 0, hostname: "127.0.0.1" });
    origin = `http://127.0.0.1:${world.app.app.server!.port}`;
    today = dateIn("America/Lima");
  });

  afterAll(async () => {
    await world.app.app.stop(true);
  });

  const saleBody = (document: string, extra: Record<string, unknown> = {}) => ({
    key: newKey(),
    cafe_id: world.w.norte,
    document_number: document,
    service_date: today,
    sale_type: "credit",
    other_unit_confirmed: false,
    lines: [{ service_id: world.w.alm, quantity: 1 }],
    ...extra,
  });

  test("40 concurrent cash sales at one cafe by three people take the numbers 1 to 40, once each", async () => {
    const people = [
      await signedIn(world.app, world.people.cajera),
      await signedIn(world.app, world.people.cajero),
      await signedIn(world.app, world.people.jefa),
    ];
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(origin, people[i % 3], "/sales", saleBody("40000001", { sale_type: "cash" })),
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 40 });
    const numbers = responses.map((r) => r.json.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const rows = world.app.db
      .select({ number: sales.number })
      .from(sales)
      .where(eq(sales.cafeId, world.w.norte))
      .orderBy(asc(sales.number))
      .all();
    expect(rows.map((r) => r.number)).toEqual(numbers);
    // The cafe's counter stands after the last number given.
    expect(currentTicketSeries(world.app.db, world.w.norte)!.nextNumber).toBe(41);
  });

  test("20 identical credit sales fired at once: exactly one sale, 19 refusals with the reason", async () => {
    const db = world.app.db;
    const dinerId = addDiner(db, world.w.norte, world.w.contrata, "42000001", "Hilda Choque");
    const client = await signedIn(world.app, world.people.cajera);
    const before = db.select().from(sales).all().length;
    const responses = await answers(
      await Promise.all(Array.from({ length: 20 }, () => post(origin, client, "/sales", saleBody("42000001")))),
    );
    expect(tally(responses)).toEqual({ 201: 1, 422: 19 });
    const sale = responses.find((r) => r.status === 201)!.json;
    const reason = es("sales.credit_taken", {
      name: "Hilda Choque",
      service: "Almuerzo (ALM)",
      ticket: sale.ticket,
      cafe: "Comedor Norte",
    });
    for (const refusal of responses.filter((r) => r.status === 422)) {
      // Refused by the check (naming the ticket), or by the unique index when it raced past the check.
      const errors = refusal.json.errors;
      expect(
        JSON.stringify(errors) === JSON.stringify({ "lines.0.service_id": reason }) ||
          JSON.stringify(errors) === JSON.stringify({ lines: es("sales.credit_taken_now") }),
      ).toBe(true);
    }
    expect(db.select().from(sales).all().length).toBe(before + 1);
    expect(
      db
        .select()
        .from(saleLines)
        .where(and(eq(saleLines.dinerId, dinerId), eq(saleLines.serviceId, world.w.alm)))
        .all(),
    ).toHaveLength(1);
  });

  test("20 requests with the same key at once: one sale, and every answer carries it", async () => {
    const db = world.app.db;
    addDiner(db, world.w.norte, world.w.contrata, "42000002", "Iván Cutipa");
    const client = await signedIn(world.app, world.people.cajero);
    const before = db.select().from(sales).all().length;
    const body = saleBody("42000002");
    const responses = await answers(
      await Promise.all(Array.from({ length: 20 }, () => post(origin, client, "/sales", body))),
    );
    expect(tally(responses)).toEqual({ 200: 19, 201: 1 });
    const id = responses.find((r) => r.status === 201)!.json.id;
    expect(new Set(responses.map((r) => r.json.id))).toEqual(new Set([id]));
    expect(db.select().from(sales).all().length).toBe(before + 1);
    expect(db.select().from(sales).where(eq(sales.requestKey, body.key)).all()).toHaveLength(1);
  });

  test("the database itself holds one live credit meal per diner, service and date, whatever the checks", async () => {
    const db = world.app.db;
    const dinerId = addDiner(db, world.w.norte, world.w.contrata, "42000009", "Mario Index");
    const client = await signedIn(world.app, world.people.cajera);
    expect((await post(origin, client, "/sales", saleBody("42000009"))).status).toBe(201);
    // The sale's line, copied as if a second request had slipped past every check.
    const line = db.select().from(saleLines).where(eq(saleLines.dinerId, dinerId)).get()!;
    const { id: _id, ...copy } = line;
    expect(() => db.insert(saleLines).values(copy).run()).toThrow(/UNIQUE constraint failed: sale_lines/);
    // Another service, another date, cash or a voided line are not the same live credit meal.
    const others = [
      { ...copy, serviceId: world.w.cen },
      { ...copy, serviceDate: "2020-01-01" },
      { ...copy, saleType: "cash" as const },
      { ...copy, voided: true },
    ];
    const ids = others.map((other) => db.insert(saleLines).values(other).returning().get().id);
    db.delete(saleLines).where(inArray(saleLines.id, ids)).run();
  });

  test("sales at two cafes at once: each cafe's numbers run on their own, gapless", async () => {
    const db = world.app.db;
    const norte = await signedIn(world.app, world.people.cajera);
    const sur = await signedIn(world.app, world.people.surena);
    const before = db.select({ number: sales.number }).from(sales).where(eq(sales.cafeId, world.w.norte)).all().length;
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2 === 0
            ? post(origin, norte, "/sales", saleBody("40000002", { sale_type: "cash" }))
            : post(origin, sur, "/sales", saleBody("40000003", { cafe_id: world.w.sur, sale_type: "cash" })),
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 30 });
    const numbersOf = (cafeId: number) =>
      db
        .select({ number: sales.number })
        .from(sales)
        .where(eq(sales.cafeId, cafeId))
        .orderBy(asc(sales.number))
        .all()
        .map((r) => r.number);
    expect(numbersOf(world.w.norte)).toEqual(Array.from({ length: before + 15 }, (_, i) => i + 1));
    expect(numbersOf(world.w.sur)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  test("sales while the manager switches the series back and forth: each series runs gapless, no number twice", async () => {
    const db = world.app.db;
    const cashier = await signedIn(world.app, world.people.cajera);
    const manager = await signedIn(world.app, world.people.jefa);
    const own = `T${String(world.w.norte).padStart(3, "0")}`;
    const switches = ["R1", "R2", own, "R1"];
    const requests = Array.from({ length: 40 }, (_, i) =>
      i % 10 === 5
        ? post(
            origin,
            manager,
            `/dinners/cafes/${world.w.norte}/settings`,
            { ticket_series: switches[(i - 5) / 10] },
            "PUT",
          )
        : post(origin, cashier, "/sales", saleBody("40000001", { sale_type: "cash" })),
    );
    const responses = await Promise.all(requests);
    expect(tally(responses)).toEqual({ 201: 36, 204: 4 });
    const bySeries = new Map<string, number[]>();
    for (const sale of db.select().from(sales).where(eq(sales.cafeId, world.w.norte)).orderBy(asc(sales.number)).all())
      bySeries.set(sale.series, [...(bySeries.get(sale.series) ?? []), sale.number]);
    for (const [series, numbers] of bySeries)
      expect({ series, numbers }).toEqual({ series, numbers: Array.from({ length: numbers.length }, (_, i) => i + 1) });
    expect(currentTicketSeries(db, world.w.norte)).toMatchObject({
      series: "R1",
      nextNumber: (bySeries.get("R1")?.length ?? 0) + 1,
    });
  });
});

// ——— Several Mesa processes on one database file ———

/** Starts a Mesa server process on `dbPath` and resolves with its origin once it listens. */
async function startProcess(dbPath: string): Promise<{ origin: string; stop: () => void }> {
  const root = join(import.meta.dir, "..", "..");
  const script = `
    import { loadConfig } from "${root}/src/config";
    import { openDatabase } from "${root}/src/db";
    import { createApp } from "${root}/src/http/app";
    import { routes } from "${root}/src/http/routes";
    import { createServices } from "${root}/src/http/services";
    const config = loadConfig({
      NODE_ENV: "test", APP_URL: "http://127.0.0.1", DB_PATH: ${JSON.stringify(dbPath)}, LOG_REQUESTS: "false",
      APP_KEY: ${JSON.stringify(TEST_APP_KEY)}, MAIL_MAILER: "file", MAIL_PATH: ${JSON.stringify(join(dirnameOf(dbPath), "mail"))},
      PUSHER_HOST: "127.0.0.1", PUSHER_PORT: "9",
    });
    const db = openDatabase(config.dbPath);
    const app = createApp(createServices(config, db, { routes }));
    app.listen({ port: 0, hostname: "127.0.0.1" });
    console.log("LISTENING " + app.server.port);
  `;
  const child = Bun.spawn([process.execPath, "-e", script], { cwd: root, stdout: "pipe", stderr: "pipe" });
  // Its error output is read all along (a full pipe would block it); the start of it explains a failed start.
  let errors = "";
  void (async () => {
    const stderr = child.stderr.getReader();
    for (let chunk = await stderr.read(); !chunk.done; chunk = await stderr.read())
      if (errors.length < 4000) errors += new TextDecoder().decode(chunk.value);
  })();
  const reader = child.stdout.getReader();
  let seen = "";
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
    const match = /LISTENING (\d+)/.exec(seen);
    if (match) {
      // Keep draining its output so the process never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return { origin: `http://127.0.0.1:${match[1]}`, stop: () => child.kill() };
    }
  }
  child.kill();
  throw new Error(`the Mesa process did not start: ${seen} ${errors}`);
}

function dirnameOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

describe("several Mesa processes on one database file", () => {
  let folder: string;
  let testApp: TestApp;
  let w: PosWorld;
  let people: PosPeople;
  let servers: { origin: string; stop: () => void }[] = [];
  let today: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mesa-races-"));
    const dbPath = join(folder, "mesa.sqlite");
    testApp = fileTestApp(dbPath);
    ({ w, people } = await populatePos(testApp.db, testApp.config));
    today = dateIn("America/Lima");
    servers = await Promise.all([startProcess(dbPath), startProcess(dbPath), startProcess(dbPath)]);
  }, 30_000);

  afterAll(() => {
    for (const server of servers) server.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const saleBody = (document: string, extra: Record<string, unknown> = {}) => ({
    key: newKey(),
    cafe_id: w.norte,
    document_number: document,
    service_date: today,
    sale_type: "credit",
    other_unit_confirmed: false,
    lines: [{ service_id: w.alm, quantity: 1 }],
    ...extra,
  });

  test("40 cash sales spread over three processes take the numbers 1 to 40, once each", async () => {
    const clients = [
      await signedIn(testApp, people.cajera),
      await signedIn(testApp, people.cajero),
      await signedIn(testApp, people.jefa),
    ];
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(servers[i % 3].origin, clients[(i + 1) % 3], "/sales", saleBody("40000001", { sale_type: "cash" })),
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 40 });
    const numbers = testApp.db
      .select({ number: sales.number })
      .from(sales)
      .where(eq(sales.cafeId, w.norte))
      .orderBy(asc(sales.number))
      .all()
      .map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(responses.map((r) => r.json.number).sort((a, b) => a - b)).toEqual(numbers);
  });

  test("20 identical credit sales across three processes: exactly one sale, the rest refused with the reason", async () => {
    const dinerId = addDiner(testApp.db, w.norte, w.contrata, "43000001", "Jorge Mendoza");
    const client = await signedIn(testApp, people.cajera);
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(servers[i % 3].origin, client, "/sales", saleBody("43000001"))),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 1, 422: 19 });
    const sale = responses.find((r) => r.status === 201)!.json;
    const byCheck = {
      "lines.0.service_id": es("sales.credit_taken", {
        name: "Jorge Mendoza",
        service: "Almuerzo (ALM)",
        ticket: sale.ticket,
        cafe: "Comedor Norte",
      }),
    };
    const byIndex = { lines: es("sales.credit_taken_now") };
    for (const refusal of responses.filter((r) => r.status === 422))
      expect([JSON.stringify(byCheck), JSON.stringify(byIndex)]).toContain(JSON.stringify(refusal.json.errors));
    expect(testApp.db.select().from(saleLines).where(eq(saleLines.dinerId, dinerId)).all()).toHaveLength(1);
  });

  test("a credit meal sold at two cafes at once (home and other unit), across processes: one sale", async () => {
    const dinerId = addDiner(testApp.db, w.norte, w.contrata, "43000003", "Lucía Vargas");
    const norte = await signedIn(testApp, people.cajera);
    const sur = await signedIn(testApp, people.surena);
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? post(servers[i % 3].origin, norte, "/sales", saleBody("43000003"))
            : post(
                servers[i % 3].origin,
                sur,
                "/sales",
                saleBody("43000003", { cafe_id: w.sur, other_unit_confirmed: true }),
              ),
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 1, 422: 19 });
    expect(testApp.db.select().from(saleLines).where(eq(saleLines.dinerId, dinerId)).all()).toHaveLength(1);
  });

  test("one document registered by ten requests across processes: one diner, the rest told it is taken", async () => {
    const client = await signedIn(testApp, people.cajera);
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          post(servers[i % 3].origin, client, "/diners", {
            name: `Registro Doble ${i}`,
            document_number: "43000099",
            subdealership_id: w.contrata,
            cafe_id: w.norte,
          }),
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 201: 1, 422: 9 });
    const winner = responses.find((r) => r.status === 201)!.json;
    for (const refusal of responses.filter((r) => r.status === 422))
      expect(Object.keys(refusal.json.errors)).toEqual(["document_number"]);
    const rows = testApp.db.select().from(diners).where(eq(diners.documentNumber, "43000099")).all();
    expect(rows.map((r) => r.id)).toEqual([winner.id]);
  });

  test("one sale voided by ten requests across processes: one void, the rest 409", async () => {
    const jefa = await signedIn(testApp, people.jefa);
    const sale = await post(servers[0].origin, jefa, "/sales", saleBody("40000002", { sale_type: "cash" }));
    expect(sale.status).toBe(201);
    const saleId = (await sale.json()).id;
    const responses = await answers(
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          post(servers[i % 3].origin, jefa, `/sales/${saleId}/void`, { reason: `Anulación ${i}` }),
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 9 });
    const reason = responses.find((r) => r.status === 200)!.json.voidReason;
    expect(testApp.db.select().from(sales).where(eq(sales.id, saleId)).get()!.voidReason).toBe(reason);
  });

  test("20 requests with one key across three processes: one sale, every answer carries it", async () => {
    addDiner(testApp.db, w.norte, w.contrata, "43000002", "Karen Flores");
    const client = await signedIn(testApp, people.cajero);
    const body = saleBody("43000002");
    const responses = await answers(
      await Promise.all(Array.from({ length: 20 }, (_, i) => post(servers[i % 3].origin, client, "/sales", body))),
    );
    expect(tally(responses)).toEqual({ 200: 19, 201: 1 });
    expect(new Set(responses.map((r) => r.json.id)).size).toBe(1);
    expect(testApp.db.select().from(sales).where(eq(sales.requestKey, body.key)).all()).toHaveLength(1);
  });
});
