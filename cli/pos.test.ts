/**
 * `./mesa diner:find`, `diner:create`, `sale:list` and `sale:void`, run in this process (tests/support/cli.ts) on a
 * copy of a migrated database holding the small point-of-sale world of tests/support/pos.ts: Mina Toquepala ›
 * Unidad Central › Comedor Norte and Comedor Sur, dealership Minera del Sur with Contrata Uno and Contrata Dos,
 * diners Ana (DNI 40000001), Béto (40000002) of Norte, Carla (40000003) of Sur and Darío (40000004, inactive).
 * Sales are made in the tests through the domain (recordSale), as a cashier at the till would. Messages are
 * checked in English (APP_LOCALE=en) against the dictionaries.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { blacklist, cafes, dealerships, subdealerships, units, users } from "../db/schema";
import { openDatabase, type Db } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import type { Actor } from "../src/domain/audit";
import { dateIn } from "../src/shared/calendar";
import { recordSale, type SaleSettings } from "../src/domain/sales/sell";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { posWorld, type PosWorld } from "../tests/support/pos";
import { cliWorkspace, mesaInProcess, sql, workspaceFrom, type Workspace } from "../tests/support/cli";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
/** The cashier who makes the tests' sales (a user row written into the template). */
const CASHIER: Actor = { userId: 1, label: "caja@mesa.test" };
const LIMA = "America/Lima";
/** 10:00 in Lima on 2026-11-02: an earlier day's sales. */
const EARLIER = new Date("2026-11-02T15:00:00Z");

/** A loopback address where nothing listens: a port the system just handed out and took back. */
async function closedAddress(): Promise<string> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return `http://127.0.0.1:${port}`;
}

let template = "";
let world: PosWorld;
let nowhere = "";

beforeAll(async () => {
  nowhere = await closedAddress();
  const ws = cliWorkspace("mesa-pos-cli-template-", {}, "template.sqlite");
  const migrated = await mesaInProcess(ws, ["db:migrate"]);
  expect({ code: migrated.code, err: migrated.err }).toEqual({ code: 0, err: "" });
  const db = openDatabase(ws.dbPath);
  try {
    world = posWorld(db);
    const at = new Date("2026-11-01T12:00:00Z");
    db.insert(users)
      .values({ id: 1, name: "Cajera Uno", email: "caja@mesa.test", passwordHash: "x", createdAt: at, updatedAt: at })
      .run();
  } finally {
    db.$client.close();
  }
  template = ws.dbPath;
}, 60_000);

/** A copy of the template; its realtime server is `realtime` (by default an address where nothing listens). */
function workspace(realtime = nowhere): Workspace {
  return workspaceFrom(template, "mesa-pos-cli-", { APP_URL: realtime, APP_TIMEZONE: LIMA });
}

/** Works on the workspace's database through a connection of its own, closed before the command runs. */
function withDb<T>(ws: Workspace, work: (db: Db) => T): T {
  const db = openDatabase(ws.dbPath);
  try {
    return work(db);
  } finally {
    db.$client.close();
  }
}

let keys = 0;

/** A sale at the till, as the cashier makes it (today at the cafe unless `now` says otherwise). */
function sell(db: Db, input: Record<string, unknown>, now = new Date()) {
  const cafeId = (input.cafe_id as number | undefined) ?? world.norte;
  return recordSale(
    db,
    CASHIER,
    EVERYTHING,
    {
      key: `cli-test-${++keys}-${Math.random().toString(36).slice(2)}`,
      cafe_id: cafeId,
      document_number: "40000001",
      service_date: dateIn(LIMA, now),
      sale_type: "credit",
      lines: [{ service_id: world.alm, quantity: 1 }],
      ...input,
    },
    SETTINGS,
    { backdate: false },
    undefined,
    now,
  ).sale;
}

const dinerCount = (ws: Workspace) => sql<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM diners")[0].n;

// -----------------------------------------------------------------------------------------------------------------

describe("./mesa diner:find", () => {
  test("prints the diner: name, document, phone, subdealership and dealership, home cafe, level, active, blacklist", async () => {
    const ws = workspace();
    const found = await mesaInProcess(ws, ["diner:find", "40000001"]);
    expect(found.err).toBe("");
    expect(found.code).toBe(0);
    expect(found.out).toBe(
      [
        `Diner:         Ana Quispe Mamani (#${world.ana})`,
        "Document:      DNI 40000001",
        "Phone:         —",
        "Subdealership: Contrata Uno (Minera del Sur)",
        "Home cafe:     Mina Toquepala › Unidad Central › Comedor Norte",
        "Level:         —",
        "Active:        yes",
        "Blacklisted:   no",
        "",
      ].join("\n"),
    );
    // An inactive diner on the blacklist: both are said, with the blacklist's reason.
    withDb(ws, (db) =>
      db
        .insert(blacklist)
        .values({
          documentType: "dni",
          documentNumber: "40000004",
          name: "Darío Inactivo",
          reason: "Vales falsificados",
          createdAt: new Date(),
        })
        .run(),
    );
    // Spaces and dashes are dropped, as at the till.
    const barred = await mesaInProcess(ws, ["diner:find", "4000-0004", "--type", "dni"]);
    expect(barred.code).toBe(0);
    expect(barred.out).toContain("Active:        no: cannot be sold to\n");
    expect(barred.out).toContain("Blacklisted:   yes: Vales falsificados\n");
  });

  test("--json prints the diner as the point of sale's search returns them", async () => {
    const ws = workspace();
    const { code, out } = await mesaInProcess(ws, ["diner:find", "40000003", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      id: world.carla,
      name: "Carla Ñahui",
      documentType: "dni",
      documentNumber: "40000003",
      phone: "",
      active: true,
      cafeId: world.sur,
      cafeName: "Comedor Sur",
      cafePath: "Mina Toquepala › Unidad Central › Comedor Sur",
      subdealershipId: world.contrata,
      subdealershipName: "Contrata Uno",
      dealershipName: "Minera del Sur",
      levelId: null,
      levelName: null,
      barredReason: null,
    });
  });

  test("nothing found exits 1 with a message (and the document's rule when the number cannot be one); with --json too", async () => {
    const ws = workspace();
    const missing = await mesaInProcess(ws, ["diner:find", "49999999"]);
    expect(missing).toEqual({ code: 1, out: "", err: "No diner is registered with DNI 49999999.\n" });
    const json = await mesaInProcess(ws, ["diner:find", "49999999", "--json"]);
    expect(json.code).toBe(1);
    expect(json.out).toBe("");
    const short = await mesaInProcess(ws, ["diner:find", "123"]);
    expect(short.code).toBe(1);
    expect(short.err).toBe(`No diner is registered with DNI 123.\n(${en("validation.document.dni", { length: 8 })})\n`);
    // A known DNI under another type is not that diner.
    expect((await mesaInProcess(ws, ["diner:find", "40000001", "--type", "ce"])).code).toBe(1);
    // An unknown type is a usage mistake.
    const badType = await mesaInProcess(ws, ["diner:find", "40000001", "--type", "ruc"]);
    expect(badType.code).toBe(2);
    expect(badType.err).toContain("Use dni, ce (carné de extranjería) or passport (also written pas).");
  });

  test("--type passport or pas finds a passport; without --type the DNI search points to it", async () => {
    const ws = workspace();
    const created = await mesaInProcess(ws, [
      "diner:create",
      "--type",
      "passport",
      "--document",
      "ab123456",
      "--name",
      "John Smith",
      "--subdealership",
      "Contrata Dos",
      "--cafe",
      "Comedor Sur",
    ]);
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    for (const type of ["passport", "pas", "PAS"]) {
      const found = await mesaInProcess(ws, ["diner:find", "AB123456", "--type", type]);
      expect(found.code).toBe(0);
      expect(found.out).toContain("Document:      PAS AB123456\n");
    }
    const dni = await mesaInProcess(ws, ["diner:find", "AB123456"]);
    expect(dni.code).toBe(1);
    expect(dni.err).toContain("PAS AB123456 is registered to John Smith: add --type pas.\n");
  });
});

// -----------------------------------------------------------------------------------------------------------------

describe("./mesa diner:create", () => {
  test("registers a diner through the domain (audited as cli), naming the subdealership, cafe and level", async () => {
    const ws = workspace();
    const { code, out, err } = await mesaInProcess(ws, [
      "diner:create",
      "--document",
      "41234567",
      "--name",
      "Rosa Condori",
      "--subdealership",
      "Contrata Dos",
      "--cafe",
      "Comedor Norte",
      "--phone",
      "+51 987 654 321",
      "--level",
      "staff",
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const [row] = sql<Record<string, unknown>>(
      ws,
      "SELECT d.id, d.name, d.document_type AS type, d.document_number AS number, d.phone, d.subdealership_id AS sub, d.cafe_id AS cafe, l.name AS level, d.active FROM diners d LEFT JOIN levels l ON l.id = d.level_id WHERE d.document_number = '41234567'",
    );
    expect(row).toMatchObject({
      name: "Rosa Condori",
      type: "dni",
      phone: "+51 987 654 321",
      sub: world.otraContrata,
      cafe: world.norte,
      level: "Staff",
      active: 1,
    });
    expect(out).toStartWith(`Registered Rosa Condori (#${row.id}).\nDiner:         Rosa Condori (#${row.id})\n`);
    expect(out).toContain("Subdealership: Contrata Dos (Minera del Sur)\n");
    expect(out).toContain("Level:         Staff\n");
    expect(sql(ws, "SELECT actor_label AS actor FROM audit_log WHERE action = 'diner.created'")).toEqual([
      { actor: "cli" },
    ]);
  });

  test("--json prints the diner registered; a subdealership can be given by its RUC", async () => {
    const ws = workspace();
    const { code, out } = await mesaInProcess(ws, [
      "diner:create",
      "--document",
      "41234568",
      "--name",
      "Luis Mamani",
      "--subdealership",
      "20512345671",
      "--cafe",
      "Comedor Sur",
      "--json",
    ]);
    expect(code).toBe(0);
    const diner = JSON.parse(out);
    expect(diner).toMatchObject({
      name: "Luis Mamani",
      documentType: "dni",
      documentNumber: "41234568",
      subdealershipId: world.contrata,
      subdealershipName: "Contrata Uno",
      cafeId: world.sur,
      cafePath: "Mina Toquepala › Unidad Central › Comedor Sur",
      active: true,
      levelId: null,
      barredReason: null,
    });
    expect(typeof diner.id).toBe("number");
  });

  test("a cafe or subdealership name that repeats is refused with the candidates; Unit/Cafe or Dealership/Name picks one", async () => {
    const ws = workspace();
    const { este, andina } = withDb(ws, (db) => {
      const [{ mineId }] = db
        .select({ mineId: units.mineId })
        .from(units)
        .innerJoin(cafes, eq(cafes.unitId, units.id))
        .where(eq(cafes.id, world.norte))
        .all();
      const unit = db.insert(units).values({ mineId, name: "Unidad Este" }).returning().get().id;
      const este = db
        .insert(cafes)
        .values({ unitId: unit, businessId: world.business, name: "Comedor Norte", timeZone: LIMA })
        .returning()
        .get().id;
      const at = new Date();
      const other = db
        .insert(dealerships)
        .values({ name: "Minera Andina", ruc: "20330262436", createdAt: at, updatedAt: at })
        .returning()
        .get().id;
      const andina = db
        .insert(subdealerships)
        .values({ dealershipId: other, name: "Contrata Uno", ruc: "20512345693", createdAt: at, updatedAt: at })
        .returning()
        .get().id;
      return { este, andina };
    });
    const args = (cafe: string, sub: string) => [
      "diner:create",
      "--document",
      "41234569",
      "--name",
      "Pedro Ccama",
      "--subdealership",
      sub,
      "--cafe",
      cafe,
    ];
    const ambiguous = await mesaInProcess(ws, args("Comedor Norte", "Contrata Uno"));
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.out).toBe("");
    expect(ambiguous.err).toBe(
      [
        en("validation.failed"),
        '  --subdealership: More than one subdealership is named "Contrata Uno"; write it as Dealership/Subdealership or give its RUC: "Minera Andina/Contrata Uno" (RUC 20512345693), "Minera del Sur/Contrata Uno" (RUC 20512345671).',
        '  --cafe: More than one cafe is named "Comedor Norte"; write it as Unit/Cafe: "Unidad Central/Comedor Norte", "Unidad Este/Comedor Norte".',
        "",
      ].join("\n"),
    );
    expect(dinerCount(ws)).toBe(4);
    const picked = await mesaInProcess(ws, args("Unidad Este/Comedor Norte", "Minera Andina/Contrata Uno"));
    expect(picked.err).toBe("");
    expect(picked.code).toBe(0);
    expect(picked.out).toContain("Home cafe:     Mina Toquepala › Unidad Este › Comedor Norte\n");
    expect(picked.out).toContain("Subdealership: Contrata Uno (Minera Andina)\n");
    expect(
      sql(ws, "SELECT cafe_id AS cafe, subdealership_id AS sub FROM diners WHERE document_number = '41234569'"),
    ).toEqual([{ cafe: este, sub: andina }]);
  });

  test("an unknown subdealership, cafe or level is named with what exists, together with the fields' problems; nothing is written", async () => {
    const ws = workspace();
    const unknown = await mesaInProcess(ws, [
      "diner:create",
      "--document",
      "1234",
      "--name",
      "Z",
      "--subdealership",
      "Contrata Nueve",
      "--cafe",
      "Comedor Oeste",
      "--level",
      "Jefe",
      "--phone",
      "call me",
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err.split("\n")).toEqual([
      en("validation.failed"),
      `  --document: ${en("validation.document.dni", { length: 8 })}`,
      `  --name: ${en("validation.min_length", { min: 2 })}`,
      '  --subdealership: No subdealership named "Contrata Nueve" or with that RUC. Subdealerships: "Contrata Dos", "Contrata Uno".',
      '  --cafe: No cafe named "Comedor Oeste". Cafes: "Unidad Central/Comedor Norte", "Unidad Central/Comedor Sur".',
      `  --phone: ${en("diners.phone_invalid")}`,
      '  --level: No level named "Jefe". Levels: "Master", "Staff", "Employee", "Laborer".',
      "",
    ]);
    expect(dinerCount(ws)).toBe(4);
  });

  test("a bad or taken document is refused per field, in words; a missing option is a usage mistake", async () => {
    const ws = workspace();
    const base = ["diner:create", "--name", "Rosa Condori", "--subdealership", "Contrata Uno", "--cafe", "Comedor Sur"];
    const bad = await mesaInProcess(ws, [...base, "--document", "4123456A"]);
    expect(bad).toEqual({
      code: 1,
      out: "",
      err: `${en("validation.failed")}\n  --document: ${en("validation.document.dni", { length: 8 })}\n`,
    });
    const taken = await mesaInProcess(ws, [...base, "--document", "40000002"]);
    expect(taken.code).toBe(1);
    expect(taken.err).toBe(
      `${en("validation.failed")}\n  --document: ${en("diners.document_taken", { name: "Béto Huamán" })}\n`,
    );
    const spanish = await mesaInProcess(ws, [...base, "--document", "40000002"], { env: { APP_LOCALE: "es" } });
    expect(spanish.err).toContain(
      `  --document: ${translate("es", "diners.document_taken", { name: "Béto Huamán" })}\n`,
    );
    const missing = await mesaInProcess(ws, ["diner:create", "--document", "41234567", "--name", "Rosa Condori"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("required option '--subdealership <name>' not specified");
    expect(dinerCount(ws)).toBe(4);
  });
});

// -----------------------------------------------------------------------------------------------------------------

describe("./mesa sale:list", () => {
  test("prints every sale of the cafe's day in the order sold, with time, diner, document, lines, total and status", async () => {
    const ws = workspace();
    const made = withDb(ws, (db) => {
      const credit = sell(db, {});
      const cash = sell(db, {
        document_number: "40000002",
        sale_type: "cash",
        lines: [
          { service_id: world.des, quantity: 2 },
          { service_id: world.alm, quantity: 1 },
        ],
      });
      const other = sell(db, {
        document_number: "40000003",
        other_unit_confirmed: true,
        lines: [{ service_id: world.cen, quantity: 1 }],
      });
      // At the other cafe, and on an earlier day: not this listing's.
      sell(db, { cafe_id: world.sur, document_number: "40000003" });
      sell(db, { document_number: "40000002" }, EARLIER);
      return { credit, cash, other };
    });
    const voided = await mesaInProcess(ws, ["sale:void", String(made.cash.id), "--reason", "Wrong service"]);
    expect(voided.code).toBe(0);
    const today = dateIn(LIMA);
    const { code, out, err } = await mesaInProcess(ws, ["sale:list", "--cafe", "Comedor Norte"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toBe(`Mina Toquepala › Unidad Central › Comedor Norte, ${today} (America/Lima)`);
    expect(lines[1].split(/\s{2,}/)).toEqual([
      "ID",
      "TICKET",
      "TIME",
      "TYPE",
      "DINER",
      "DOCUMENT",
      "LINES",
      "TOTAL S/",
      "STATUS",
    ]);
    const time = (iso: string) =>
      new Intl.DateTimeFormat("en-GB", { timeZone: LIMA, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
        new Date(iso),
      );
    const rows = lines.slice(3, 6).map((l) => l.split(/\s{2,}/));
    expect(rows).toEqual([
      [
        String(made.credit.id),
        made.credit.ticket,
        time(made.credit.soldAt),
        "credit",
        "Ana Quispe Mamani",
        "DNI 40000001",
        "1 × Almuerzo",
        "15.00",
        "ok",
      ],
      [
        String(made.cash.id),
        made.cash.ticket,
        time(made.cash.soldAt),
        "cash",
        "Béto Huamán",
        "DNI 40000002",
        "2 × Desayuno, 1 × Almuerzo",
        "31.00",
        "voided: Wrong service",
      ],
      [
        String(made.other.id),
        made.other.ticket,
        time(made.other.soldAt),
        "credit",
        "Carla Ñahui",
        "DNI 40000003",
        "1 × Cena",
        "24.00",
        "ok (other unit ×2)",
      ],
    ]);
    expect(lines.slice(6)).toEqual(["", "2 sales, 2 meals, S/ 39.00; 1 voided sale not counted", ""]);
    // An earlier day, by --date; a day without sales.
    const earlier = await mesaInProcess(ws, ["sale:list", "--cafe", "Comedor Norte", "--date", "2026-11-02"]);
    expect(earlier.out).toContain("Béto Huamán");
    expect(earlier.out).toContain("1 sale, 1 meal, S/ 15.00\n");
    const none = await mesaInProcess(ws, ["sale:list", "--cafe", "Comedor Norte", "--date", "2026-11-01"]);
    expect(none.out).toBe("Mina Toquepala › Unidad Central › Comedor Norte, 2026-11-01 (America/Lima)\nNo sales.\n");
  });

  test("--json prints the cafe, the date, the day's totals and every sale (all pages), in the order sold", async () => {
    const ws = workspace();
    const count = 503;
    withDb(ws, (db) => {
      // This connection's writes need not reach the disk one by one: the command reads them after it is closed.
      db.$client.exec("PRAGMA synchronous = OFF");
      for (let i = 0; i < count; i++) sell(db, { sale_type: "cash", lines: [{ service_id: world.alm, quantity: 1 }] });
    });
    const { code, out } = await mesaInProcess(ws, ["sale:list", "--cafe", "Comedor Norte", "--json"]);
    expect(code).toBe(0);
    const listing = JSON.parse(out);
    expect(listing.cafe).toEqual({
      id: world.norte,
      name: "Comedor Norte",
      path: "Mina Toquepala › Unidad Central › Comedor Norte",
      timeZone: LIMA,
    });
    expect(listing.date).toBe(dateIn(LIMA));
    expect(listing.totals).toEqual({ sales: count, meals: count, totalCents: count * 1500, voided: 0 });
    expect(listing.sales).toHaveLength(count);
    expect(listing.sales.map((s: { number: number }) => s.number)).toEqual(
      Array.from({ length: count }, (_, i) => i + 1),
    );
    expect(listing.sales[0]).toMatchObject({
      cafeId: world.norte,
      dinerName: "Ana Quispe Mamani",
      documentType: "dni",
      documentNumber: "40000001",
      saleType: "cash",
      totalCents: 1500,
      voided: false,
      voidReason: null,
      lines: [{ serviceCode: "ALM", serviceName: "Almuerzo", quantity: 1, totalCents: 1500 }],
    });
  });

  test("an unknown cafe exits 1 with the cafes; a bad date or a missing --cafe is a usage mistake", async () => {
    const ws = workspace();
    const unknown = await mesaInProcess(ws, ["sale:list", "--cafe", "Comedor Oeste"]);
    expect(unknown).toEqual({
      code: 1,
      out: "",
      err: 'No cafe named "Comedor Oeste". Cafes: "Unidad Central/Comedor Norte", "Unidad Central/Comedor Sur".\n',
    });
    const badDate = await mesaInProcess(ws, ["sale:list", "--cafe", "Comedor Sur", "--date", "2026-02-30"]);
    expect(badDate.code).toBe(2);
    expect(badDate.err).toContain("Write the date as YYYY-MM-DD");
    expect((await mesaInProcess(ws, ["sale:list"])).code).toBe(2);
  });
});

// -----------------------------------------------------------------------------------------------------------------

describe("./mesa sale:void", () => {
  test("voids anyone's sale of any day with a reason, audited as cli; says when the running Mesa was not reached", async () => {
    const ws = workspace();
    const sale = withDb(ws, (db) => sell(db, { document_number: "40000002" }, EARLIER));
    const { code, out, err } = await mesaInProcess(ws, ["sale:void", String(sale.id), "--reason", "Duplicated ticket"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out.split("\n")).toEqual([
      `Voided ticket ${sale.ticket} (#${sale.id}) of Comedor Norte, 2026-11-02: Béto Huamán, S/ 15.00. Reason: Duplicated ticket`,
      expect.stringMatching(
        new RegExp(
          `^The realtime server at ${nowhere.replace(/\./g, "\\.")} was not reached \\(.*ECONNREFUSED.*\\), so open points of sale show the void when their list is next loaded\\.$`,
        ),
      ),
      "",
    ]);
    expect(
      sql(
        ws,
        "SELECT void_reason AS reason, voided_by AS who, voided_at IS NOT NULL AS voided FROM sales WHERE id = ?",
        sale.id,
      ),
    ).toEqual([{ reason: "Duplicated ticket", who: null, voided: 1 }]);
    expect(
      sql(ws, "SELECT actor_label AS actor, subject_id AS id FROM audit_log WHERE action = 'sale.voided'"),
    ).toEqual([{ actor: "cli", id: sale.id }]);
    // The credit meal it held can be sold again.
    withDb(ws, (db) => expect(sell(db, { document_number: "40000002" }, EARLIER).number).toBe(2));
  });

  test("the cafe's open points of sale hear it: SaleChanged on the cafe's private sales channel, through the running Mesa", async () => {
    const heard: { path: string; body: Record<string, unknown> }[] = [];
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        heard.push({ path: new URL(request.url).pathname, body: await request.json() });
        return Response.json({});
      },
    });
    try {
      const ws = workspace(`http://127.0.0.1:${server.port}`);
      const sale = withDb(ws, (db) => sell(db, {}));
      const { code, out, err } = await mesaInProcess(ws, ["sale:void", String(sale.id), "--reason", "Wrong diner"]);
      expect(err).toBe("");
      expect(code).toBe(0);
      expect(out).toBe(
        `Voided ticket ${sale.ticket} (#${sale.id}) of Comedor Norte, ${sale.serviceDate}: Ana Quispe Mamani, S/ 15.00. Reason: Wrong diner\n`,
      );
      // The void's SaleChanged for the points of sale, then the cafe's figures for the dashboards.
      expect(heard.map((h) => h.body.name)).toEqual(["App\\Events\\SaleChanged", "App\\Events\\FiguresChanged"]);
      expect(heard[1].body).toMatchObject({ channels: [`private-cafe.${world.norte}.figures`] });
      expect(JSON.parse(heard[1].body.data as string)).toEqual({
        cafeId: world.norte,
        serviceDates: [sale.serviceDate],
        recorded: 0,
        voided: 1,
      });
      expect(heard[0].path).toBe("/apps/mesa/events");
      expect(heard[0].body).toMatchObject({
        name: "App\\Events\\SaleChanged",
        channels: [`private-cafe.${world.norte}.sales`],
      });
      expect(JSON.parse(heard[0].body.data as string)).toEqual({
        saleId: sale.id,
        cafeId: world.norte,
        serviceDate: sale.serviceDate,
        change: "voided",
      });
    } finally {
      await server.stop(true);
    }
  });

  test("--json prints the voided sale; the realtime note goes to standard error", async () => {
    const ws = workspace();
    const sale = withDb(ws, (db) => sell(db, {}));
    const { code, out, err } = await mesaInProcess(ws, [
      "sale:void",
      String(sale.id),
      "--reason",
      "Wrong diner",
      "--json",
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      id: sale.id,
      ticket: sale.ticket,
      voided: true,
      voidReason: "Wrong diner",
      voidedByName: expect.any(String),
      totalCents: 1500,
    });
    expect(err).toContain("was not reached");
  });

  test("an already voided sale, an unknown id or a too short reason exits 1 and changes nothing; a bad id is a usage mistake", async () => {
    const ws = workspace();
    const sale = withDb(ws, (db) => sell(db, {}));
    expect((await mesaInProcess(ws, ["sale:void", String(sale.id), "--reason", "First time"])).code).toBe(0);
    const again = await mesaInProcess(ws, ["sale:void", String(sale.id), "--reason", "Second time"]);
    expect(again).toEqual({ code: 1, out: "", err: `${en("sales.already_voided", { ticket: sale.ticket })}\n` });
    expect(sql(ws, "SELECT void_reason AS reason FROM sales WHERE id = ?", sale.id)).toEqual([
      { reason: "First time" },
    ]);
    const unknown = await mesaInProcess(ws, ["sale:void", "9999", "--reason", "Nope nope"]);
    expect(unknown).toEqual({ code: 1, out: "", err: "No sale has the id 9999.\n" });
    const other = withDb(ws, (db) => sell(db, { document_number: "40000002" }));
    const short = await mesaInProcess(ws, ["sale:void", String(other.id), "--reason", "x"]);
    expect(short).toEqual({
      code: 1,
      out: "",
      err: `${en("validation.failed")}\n  --reason: ${en("validation.min_length", { min: 3 })}\n`,
    });
    expect(sql(ws, "SELECT voided_at AS at FROM sales WHERE id = ?", other.id)).toEqual([{ at: null }]);
    for (const id of ["abc", "0", "T001-00000001"]) {
      const bad = await mesaInProcess(ws, ["sale:void", id, "--reason", "Wrong diner"]);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain("Give the sale's id (a number, as ./mesa sale:list shows it).");
    }
    expect((await mesaInProcess(ws, ["sale:void", String(other.id)])).code).toBe(2);
  });
});
