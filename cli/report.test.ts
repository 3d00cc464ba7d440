/**
 * `./mesa report:sales`, run in this process (tests/support/cli.ts) on a copy of a migrated database holding the
 * small point-of-sale world of tests/support/pos.ts (Comedor Norte and Comedor Sur; Contrata Uno and Contrata Dos of
 * Minera del Sur) and a few sales made through the domain, one of them voided. Messages are checked in English
 * (APP_LOCALE=en) against the dictionaries; the workbook is read back with SheetJS.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { users } from "../db/schema";
import { openDatabase } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import type { Actor } from "../src/domain/audit";
import { salesTotals, type SalesFilter } from "../src/domain/sales/report";
import { recordSale, voidSale, type SaleSettings } from "../src/domain/sales/sell";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { posWorld, type PosWorld } from "../tests/support/pos";
import { cliWorkspace, mesa, mesaInProcess, workspaceFrom, type Workspace } from "../tests/support/cli";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);
const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const CASHIER: Actor = { userId: 1, label: "caja@mesa.test" };
const FROM = "2026-11-02";
const TO = "2026-11-04";

let template = "";
let world: PosWorld;

beforeAll(async () => {
  const ws = cliWorkspace("mesa-report-cli-template-", {}, "template.sqlite");
  const migrated = await mesaInProcess(ws, ["db:migrate"]);
  expect({ code: migrated.code, err: migrated.err }).toEqual({ code: 0, err: "" });
  const db = openDatabase(ws.dbPath);
  try {
    world = posWorld(db);
    const at = new Date("2026-11-01T12:00:00Z");
    db.insert(users)
      .values({ id: 1, name: "Cajera Uno", email: "caja@mesa.test", passwordHash: "x", createdAt: at, updatedAt: at })
      .run();
    let key = 0;
    const sell = (input: Record<string, unknown>, date: string) =>
      recordSale(
        db,
        CASHIER,
        EVERYTHING,
        {
          key: `report-cli-${++key}`,
          cafe_id: world.norte,
          document_number: "40000001",
          service_date: date,
          sale_type: "credit",
          lines: [{ service_id: world.alm, quantity: 1 }],
          ...input,
        },
        SETTINGS,
        { backdate: true },
        undefined,
        new Date(`${date}T17:00:00Z`),
      ).sale;
    sell({}, "2026-11-02");
    sell({ document_number: "40000002", lines: [{ service_id: world.des, quantity: 1 }] }, "2026-11-02");
    sell({ cafe_id: world.sur, document_number: "40000003" }, "2026-11-03");
    sell({ document_number: "40000002", sale_type: "cash", lines: [{ service_id: world.cen, quantity: 2 }] }, TO);
    const voided = sell(
      { document_number: "40000003", other_unit_confirmed: true, lines: [{ service_id: world.cen, quantity: 1 }] },
      TO,
    );
    voidSale(db, CASHIER, EVERYTHING, voided.id, { reason: "Error" }, { voidAny: true });
    // A sale outside the period.
    sell({}, "2026-11-05");
  } finally {
    db.$client.close();
  }
  template = ws.dbPath;
}, 60_000);

function workspace(): Workspace {
  return workspaceFrom(template, "mesa-report-cli-", { APP_TIMEZONE: "America/Lima" });
}

function filter(over: Partial<SalesFilter> = {}): SalesFilter {
  return {
    from: FROM,
    to: TO,
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

/** The totals Mesa's Sales page shows for a filter, on the workspace's database. */
function expected(ws: Workspace, over: Partial<SalesFilter> = {}) {
  const db = openDatabase(ws.dbPath);
  try {
    return salesTotals(db, EVERYTHING, filter(over));
  } finally {
    db.$client.close();
  }
}

describe("./mesa report:sales", () => {
  test("writes the workbook, prints its totals with --json, and they are the Sales page's", async () => {
    const ws = workspace();
    const out = join(ws.dir, "noviembre.xlsx");
    const {
      code,
      out: stdout,
      err,
    } = await mesaInProcess(ws, ["report:sales", "--from", FROM, "--to", TO, "--out", out, "--json"]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    const totals = expected(ws);
    expect(json).toMatchObject({ file: out, from: FROM, to: TO, cafes: [], subdealership: null, totals });
    expect(totals.voidedSales).toBe(1);
    expect(json.lines).toBe(totals.lines);
    expect(json.sheets).toEqual(["Report", "Summary", "Daily", "Billing", "Detail"]);
    // No terminal: the progress is plain lines on standard error.
    expect(err).toContain(`${en("reports.progress_detail")}: ${totals.lines} of ${totals.lines}`);

    const book = XLSX.read(readFileSync(out), { type: "buffer" });
    expect(book.SheetNames).toEqual(json.sheets);
    const detail = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Detail, { header: 1 }).slice(1);
    expect(detail.length).toBe(totals.lines);
    expect(detail.reduce((n: number, r) => n + Math.round((r[17] as number) * 100), 0)).toBe(totals.totalCents);
    // Nothing is left beside it.
    expect(readdirSync(ws.dir).filter((name) => name.includes("partial"))).toEqual([]);
  });

  test("--cafe and --subdealership narrow the report; the plain output says what was written", async () => {
    const ws = workspace();
    const out = join(ws.dir, "sur.xlsx");
    const sur = await mesaInProcess(ws, [
      "report:sales",
      "--from",
      FROM,
      "--to",
      TO,
      "--cafe",
      "Comedor Sur",
      "--out",
      out,
      "--json",
    ]);
    expect(sur.code).toBe(0);
    expect(JSON.parse(sur.out).totals).toEqual(expected(ws, { cafeIds: [world.sur] }));
    expect(JSON.parse(sur.out).cafes).toEqual(["Comedor Sur"]);

    const dos = await mesaInProcess(ws, [
      "report:sales",
      "--from",
      FROM,
      "--to",
      TO,
      "--subdealership",
      "Contrata Dos",
      "--out",
      out,
    ]);
    expect(dos.code).toBe(0);
    const totals = expected(ws, { subdealershipId: world.otraContrata });
    const soles = (cents: number) => `S/ ${(cents / 100).toFixed(2)}`;
    expect(dos.out.trim().split("\n")).toEqual([
      en("reports.cli.written", { file: out, lines: totals.lines, sheets: 5 }),
      en("reports.cli.totals", {
        sales: totals.sales,
        meals: totals.meals,
        base: soles(totals.baseCents),
        igv: soles(totals.igvCents),
        total: soles(totals.totalCents),
      }),
      // Beto's breakfast on credit is billed; his cash dinner is not.
      en("reports.cli.billing", { count: 1, total: soles(800), surcharge: soles(0) }),
      en("reports.cli.voided", { count: 0, total: soles(0) }),
    ]);
  });

  test("exit codes: 2 for usage mistakes, 1 for a name that picks nothing; FILE is left as it was", async () => {
    const ws = workspace();
    const out = join(ws.dir, "kept.xlsx");
    writeFileSync(out, "the last report");
    const run = (...args: string[]) => mesaInProcess(ws, ["report:sales", ...args]);

    expect((await run("--from", FROM, "--out", out)).code).toBe(2);
    expect((await run("--from", "2026-11-31", "--to", TO, "--out", out)).code).toBe(2);
    expect((await run("--from", FROM, "--to", TO, "--out", out, "--colour")).code).toBe(2);
    const backwards = await run("--from", TO, "--to", FROM, "--out", out);
    expect(backwards.code).toBe(2);
    expect(backwards.err).toContain(`--to: ${en("sales.filter.range_backwards")}`);
    const tooLong = await run("--from", "2025-01-01", "--to", "2026-06-30", "--out", out);
    expect(tooLong.code).toBe(2);
    expect(tooLong.err).toContain(en("sales.filter.range_too_long", { days: 366 }));
    const folder = await run("--from", FROM, "--to", TO, "--out", join(ws.dir, "nowhere", "r.xlsx"));
    expect(folder.code).toBe(2);
    expect(folder.err).toContain(en("reports.cli.no_folder", { folder: join(ws.dir, "nowhere") }));
    expect((await run("--from", FROM, "--to", TO, "--out", join(ws.dir, "r.csv"))).code).toBe(2);

    const cafe = await run("--from", FROM, "--to", TO, "--cafe", "Comedor Este", "--out", out);
    expect(cafe.code).toBe(1);
    expect(cafe.err).toContain('No cafe named "Comedor Este"');
    const sub = await run("--from", FROM, "--to", TO, "--subdealership", "Nadie", "--out", out);
    expect(sub.code).toBe(1);
    expect(sub.err).toContain('No subdealership named "Nadie"');

    expect(readFileSync(out, "utf8")).toBe("the last report");
    expect(existsSync(join(ws.dir, "r.csv"))).toBe(false);
  });

  test("as a process of its own: ./mesa report:sales exits 0 and replaces FILE", () => {
    const ws = workspace();
    const out = join(ws.dir, "cron.xlsx");
    writeFileSync(out, "last month's");
    const result = mesa(ws, ["report:sales", "--from", FROM, "--to", TO, "--out", out]);
    expect({ code: result.code, err: result.err.includes("Error") }).toEqual({ code: 0, err: false });
    expect(XLSX.read(readFileSync(out), { type: "buffer" }).SheetNames[0]).toBe("Report");
  });
});
