/**
 * The dashboard's figures: to the cent and equal to salesTotals over the same cafes and dates; voided sales counted
 * apart and in no figure; scope and the cafe filter; the service date in each cafe's time zone (a dinner sold at 00:30
 * counts on the night before, and a cafe whose day has already turned adds its own today); the daily totals the
 * triggers keep, equal to the sales after sales, voids, backdated sales and deletions; and who a person without a
 * role may ask for one.
 *
 * The world (tests/support/pos.ts): Comedor Norte (DES 8.00, ALM 15.00, CEN 12.00) and Comedor Sur (ALM 14.00);
 * Ana and Beto eat at Norte, Carla at Sur; Ana and Carla work for Contrata Uno, Beto for Contrata Dos.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  areas,
  assignments,
  cafes,
  dailySaleFigures,
  dailyServiceFigures,
  headquarters,
  roles,
  saleLines,
  sales,
  users,
} from "../../../db/schema";
import { posWorld, type PosWorld } from "../../../tests/support/pos";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { NotFound } from "../errors";
import { addDays } from "../../shared/calendar";
import { chosenCafe, dashboardCafes, dashboardFigures, roleKeepers, type DashboardCafe } from "./dashboard";
import { parseSalesFilter, salesTotals } from "./report";
import { recordSale, voidSale, type SaleSettings } from "./sell";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const ROOT: Actor = { userId: 1, label: "root@mesa.test" };
const TODAY = "2026-11-24";
/** 10:00 in Lima on TODAY. */
const NOW = new Date("2026-11-24T15:00:00Z");
let keys = 0;

function world() {
  const db = migratedDatabase();
  const w = posWorld(db);
  db.insert(users)
    .values({ id: 1, name: "Raíz", email: "root@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW })
    .run();
  const sell = (input: Record<string, unknown>, date = TODAY, at: Date = NOW) =>
    recordSale(
      db,
      ROOT,
      EVERYTHING,
      {
        key: `dashboard-key-${++keys}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: date,
        sale_type: "credit",
        lines: [{ service_id: w.alm, quantity: 1 }],
        ...input,
      },
      SETTINGS,
      { backdate: true },
      undefined,
      at,
    ).sale;
  const voidIt = (saleId: number, at: Date = NOW) =>
    voidSale(db, ROOT, EVERYTHING, saleId, { reason: "Error de digitación" }, { voidAny: true }, undefined, at);
  const cafesOf = (scope: Scope = EVERYTHING) => dashboardCafes(db, scope);
  return { db, w, sell, voidIt, cafesOf };
}

const scopeOf = (...cafeIds: number[]): Scope => ({
  all: false,
  cafeIds: new Set(cafeIds),
  headquartersIds: new Set(),
  businessIds: new Set(),
});

/** salesTotals (report.ts) over the cafes and dates: what the Sales page shows for them. */
function totalsOf(db: Db, cafes: DashboardCafe[], from: string, to: string) {
  const filter = parseSalesFilter({ from, to, cafe_ids: cafes.map((c) => c.id).join(",") }, to);
  return salesTotals(db, EVERYTHING, filter);
}

/** The daily totals as the triggers keep them, and as they are when added up from the sales again. */
function dailyTotals(db: Db) {
  const kept = {
    services: db.$client
      .query(
        "SELECT cafe_id, service_date, service_id, meals, total_cents FROM daily_service_figures WHERE meals <> 0 OR total_cents <> 0 ORDER BY 1, 2, 3",
      )
      .all(),
    sales: db.$client
      .query(
        `SELECT cafe_id, service_date, subdealership_id, other_unit, sales, total_cents, voided_sales, voided_cents
         FROM daily_sale_figures WHERE sales + voided_sales <> 0 ORDER BY 1, 2, 3, 4`,
      )
      .all(),
  };
  const recounted = {
    services: db.$client
      .query(
        `SELECT s.cafe_id, s.service_date, l.service_id, sum(l.quantity) AS meals, sum(l.total_cents) AS total_cents
         FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE s.voided_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      )
      .all(),
    sales: db.$client
      .query(
        `SELECT cafe_id, service_date, coalesce(subdealership_id, 0) AS subdealership_id, other_unit,
           sum(voided_at IS NULL) AS sales, sum(iif(voided_at IS NULL, total_cents, 0)) AS total_cents,
           sum(voided_at IS NOT NULL) AS voided_sales, sum(iif(voided_at IS NULL, 0, total_cents)) AS voided_cents
         FROM sales GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      )
      .all(),
  };
  return { kept, recounted };
}

/** A day of sales at both cafes, some voided, on TODAY, yesterday and earlier in the month (and the month before). */
function busyDay(w: PosWorld, sell: ReturnType<typeof world>["sell"], voidIt: ReturnType<typeof world>["voidIt"]) {
  const yesterday = addDays(TODAY, -1);
  const lastMonth = "2026-10-30";
  const s = {
    anaAlm: sell({}),
    anaDes: sell({ lines: [{ service_id: w.des, quantity: 1 }] }),
    betoCash: sell({
      document_number: "40000002",
      sale_type: "cash",
      lines: [
        { service_id: w.alm, quantity: 2 },
        { service_id: w.cen, quantity: 3 },
      ],
    }),
    // Beto (Norte) eats at Sur: an other-unit sale at twice the price.
    betoAtSur: sell({ cafe_id: w.sur, document_number: "40000002", other_unit_confirmed: true }),
    carla: sell({ cafe_id: w.sur, document_number: "40000003" }),
    visitor: sell({ sale_type: "cash", document_number: "47777777", visitor_name: "Visita Técnica" }),
    voidedToday: sell({ document_number: "40000002", lines: [{ service_id: w.cen, quantity: 1 }] }),
    anaYesterday: sell({}, yesterday),
    voidedYesterday: sell({ sale_type: "cash", lines: [{ service_id: w.des, quantity: 4 }] }, yesterday),
    anaEarly: sell({}, "2026-11-02"),
    carlaLastMonth: sell({ cafe_id: w.sur, document_number: "40000003" }, lastMonth),
  };
  voidIt(s.voidedToday.id);
  voidIt(s.voidedYesterday.id);
  return s;
}

describe("the dashboard's figures", () => {
  test("today, the month, the chart and voids, to the cent and equal to the Sales page's totals", () => {
    const { db, w, sell, voidIt, cafesOf } = world();
    const s = busyDay(w, sell, voidIt);
    const cafes = cafesOf();
    const f = dashboardFigures(db, cafes, NOW);
    expect(f.today).toBe(TODAY);
    expect(f.monthStart).toBe("2026-11-01");

    // Today: Ana's lunch 15.00 and breakfast 8.00, Beto's 2 lunches and 3 dinners (30.00 + 36.00), Beto at Sur 28.00,
    // Carla 14.00, the visitor's lunch 15.00; the voided dinner 12.00 apart.
    const dayCents = 1500 + 800 + 6600 + 2800 + 1400 + 1500;
    expect(f.day).toEqual({
      meals: 1 + 1 + 5 + 1 + 1 + 1,
      totalCents: dayCents,
      sales: 6,
      otherUnit: { sales: 1, totalCents: 2800 },
      voided: { sales: 1, totalCents: 1200 },
    });
    expect(f.byType).toEqual([
      { type: "breakfast", meals: 1, totalCents: 800 },
      { type: "lunch", meals: 6, totalCents: 1500 + 3000 + 2800 + 1400 + 1500 },
      { type: "dinner", meals: 3, totalCents: 3600 },
    ]);
    const today = totalsOf(db, cafes, TODAY, TODAY);
    expect([f.day.meals, f.day.totalCents, f.day.sales]).toEqual([today.meals, today.totalCents, today.sales]);
    expect(f.day.voided).toEqual({ sales: today.voidedSales, totalCents: today.voidedCents });

    // The month: today, Ana's lunch yesterday and on the 2nd; the voided breakfasts apart; October left out.
    const month = totalsOf(db, cafes, "2026-11-01", TODAY);
    expect(f.month).toEqual({
      meals: month.meals,
      totalCents: month.totalCents,
      sales: month.sales,
      otherUnit: { sales: 1, totalCents: 2800 },
      voided: { sales: month.voidedSales, totalCents: month.voidedCents },
    });
    expect(f.month.totalCents).toBe(dayCents + 1500 + 1500);
    expect(f.month.voided).toEqual({ sales: 2, totalCents: 1200 + 3200 });

    // The chart: 14 days to today, every day present; each equal to that day's totals.
    expect(f.days.map((d) => d.date)).toEqual(Array.from({ length: 14 }, (_, i) => addDays(TODAY, i - 13)));
    for (const day of f.days) {
      const totals = totalsOf(db, cafes, day.date, day.date);
      expect({ date: day.date, meals: day.meals, totalCents: day.totalCents }).toEqual({
        date: day.date,
        meals: totals.meals,
        totalCents: totals.totalCents,
      });
    }
    expect(f.days.at(-2)).toEqual({ date: "2026-11-23", meals: 1, totalCents: 1500 });
    expect(f.days.find((d) => d.date === "2026-11-11")).toEqual({ date: "2026-11-11", meals: 0, totalCents: 0 });
    expect(s.carlaLastMonth.serviceDate).toBe("2026-10-30");

    // The month's subdealerships: Contrata Dos (Beto: 28.00 at Sur; his cash sale 66.00) over Contrata Uno.
    expect(f.topSubdealerships).toEqual([
      { id: w.otraContrata, name: "Contrata Dos", dealership: "Minera del Sur", sales: 2, totalCents: 6600 + 2800 },
      {
        id: w.contrata,
        name: "Contrata Uno",
        dealership: "Minera del Sur",
        sales: 5,
        totalCents: 1500 + 800 + 1400 + 1500 + 1500,
      },
    ]);
  });

  test("scope and the cafe filter: a cafe's figures are its own; a person sees only the cafes of their scope", () => {
    const { db, w, sell, voidIt, cafesOf } = world();
    busyDay(w, sell, voidIt);
    const norteOnly = cafesOf(scopeOf(w.norte));
    expect(norteOnly.map((c) => c.id)).toEqual([w.norte]);
    expect(cafesOf().map((c) => c.id)).toEqual([w.norte, w.sur]);
    const norte = dashboardFigures(db, norteOnly, NOW);
    const sur = dashboardFigures(db, [chosenCafe(cafesOf(), String(w.sur))!], NOW);
    const both = dashboardFigures(db, cafesOf(), NOW);
    expect(norte.day.totalCents + sur.day.totalCents).toBe(both.day.totalCents);
    expect(norte.month.meals + sur.month.meals).toBe(both.month.meals);
    expect(norte.day.otherUnit).toEqual({ sales: 0, totalCents: 0 });
    expect(sur.day).toEqual({
      meals: 2,
      totalCents: 2800 + 1400,
      sales: 2,
      otherUnit: { sales: 1, totalCents: 2800 },
      voided: { sales: 0, totalCents: 0 },
    });
    // Sur sells only lunch: its types are those it offers.
    expect(sur.byType.map((t) => t.type)).toEqual(["lunch"]);
    const manager = totalsOf(db, norteOnly, "2026-11-01", TODAY);
    expect(norte.month.totalCents).toBe(manager.totalCents);
    // A cafe outside the reader's cafes, or a value that is not an id, is not found; nothing chosen is every cafe.
    expect(() => chosenCafe(norteOnly, String(w.sur))).toThrow(NotFound);
    for (const bad of ["abc", "0", "-1", "1.5", `0${w.norte}`, " 1"])
      expect(() => chosenCafe(norteOnly, bad)).toThrow();
    expect(chosenCafe(norteOnly, "")).toBeNull();
    expect(chosenCafe(norteOnly, undefined)).toBeNull();
    // No cafes at all: every figure is zero, with a chart of empty days.
    const none = dashboardFigures(db, cafesOf(scopeOf()), NOW);
    expect(none.day.sales + none.month.sales + none.topSubdealerships.length + none.byType.length).toBe(0);
  });

  test("a dinner sold at 00:30 for the night before counts on its service date, in the cafe's time zone", () => {
    const { db, w, sell, cafesOf } = world();
    const night = "2026-11-24";
    // 00:30 in Lima on the 25th is 05:30 UTC.
    const halfPastMidnight = new Date("2026-11-25T05:30:00Z");
    sell({ lines: [{ service_id: w.cen, quantity: 1 }] }, night, halfPastMidnight);
    const sold = db.select().from(sales).get()!;
    expect([sold.serviceDate, sold.soldAt.toISOString()]).toEqual([night, halfPastMidnight.toISOString()]);
    // Seen at 00:45 on the 25th: not today's, but the 24th's on the chart and in the month.
    const after = dashboardFigures(db, cafesOf(), new Date("2026-11-25T05:45:00Z"));
    expect(after.today).toBe("2026-11-25");
    expect(after.day.meals).toBe(0);
    expect(after.days.at(-2)).toEqual({ date: night, meals: 1, totalCents: 1200 });
    expect(after.month.totalCents).toBe(1200);
    // Seen at 23:30 on the 24th (04:30 UTC on the 25th): today's dinner.
    const before = dashboardFigures(db, cafesOf(), new Date("2026-11-25T04:30:00Z"));
    expect(before.today).toBe(night);
    expect(before.byType.find((t) => t.type === "dinner")).toEqual({ type: "dinner", meals: 1, totalCents: 1200 });
  });

  test("each cafe's today is its own: a cafe whose day has turned adds its new day, and the chart one day more", () => {
    const { db, w, sell, cafesOf } = world();
    db.update(cafes).set({ timeZone: "Asia/Tokyo" }).where(eq(cafes.id, w.sur)).run();
    // 10:00 in Lima on the 24th is 00:00 on the 25th in Tokyo.
    sell({ cafe_id: w.sur, document_number: "40000003" }, "2026-11-25");
    sell({ cafe_id: w.sur, document_number: "40000003" }, "2026-11-24");
    sell({});
    const f = dashboardFigures(db, cafesOf(), NOW);
    expect(f.today).toBe("2026-11-25");
    // Today: Norte's 24th and Sur's 25th; Sur's 24th is its yesterday.
    expect(f.day.totalCents).toBe(1500 + 1400);
    expect(f.days.map((d) => d.date)).toEqual(Array.from({ length: 15 }, (_, i) => addDays("2026-11-25", i - 14)));
    expect(f.days.slice(-2)).toEqual([
      { date: "2026-11-24", meals: 2, totalCents: 1500 + 1400 },
      { date: "2026-11-25", meals: 1, totalCents: 1400 },
    ]);
  });

  test("the chart's first days and the month's may come from last month; a month's first day is its own", () => {
    const { db, sell, cafesOf } = world();
    sell({}, "2026-10-31");
    sell({}, "2026-11-01");
    const firstOfMonth = new Date("2026-11-01T15:00:00Z");
    const f = dashboardFigures(db, cafesOf(), firstOfMonth);
    expect(f.monthStart).toBe("2026-11-01");
    expect(f.month.totalCents).toBe(1500);
    expect(f.day.totalCents).toBe(1500);
    expect(f.days[0].date).toBe("2026-10-19");
    expect(f.days.at(-2)).toEqual({ date: "2026-10-31", meals: 1, totalCents: 1500 });
  });
});

describe("the daily totals the triggers keep", () => {
  test("they equal the sales added up again after sales, voids, backdated sales, a changed price and deletions", () => {
    const { db, w, sell, voidIt } = world();
    const s = busyDay(w, sell, voidIt);
    let { kept, recounted } = dailyTotals(db);
    expect(kept).toEqual(recounted);
    expect(kept.services.length).toBeGreaterThan(5);

    // A line changed by hand (a correction in the database), a line and a sale deleted, a sale moved to another day.
    const line = db.select().from(saleLines).where(eq(saleLines.saleId, s.betoCash.id)).all()[0];
    db.update(saleLines).set({ quantity: 4, totalCents: 6000 }).where(eq(saleLines.id, line.id)).run();
    db.delete(saleLines).where(eq(saleLines.saleId, s.visitor.id)).run();
    db.delete(sales).where(eq(sales.id, s.visitor.id)).run();
    db.delete(saleLines).where(eq(saleLines.saleId, s.voidedYesterday.id)).run();
    db.delete(sales).where(eq(sales.id, s.voidedYesterday.id)).run();
    db.update(sales).set({ serviceDate: "2026-11-03" }).where(eq(sales.id, s.anaEarly.id)).run();
    db.update(sales).set({ voidedAt: null }).where(eq(sales.id, s.voidedToday.id)).run();
    ({ kept, recounted } = dailyTotals(db));
    expect(kept).toEqual(recounted);
  });

  test("a database migrated with sales in it starts with their totals (the migration adds them up)", () => {
    const { db, w, sell, voidIt } = world();
    busyDay(w, sell, voidIt);
    const before = dailyTotals(db).kept;
    db.delete(dailyServiceFigures).run();
    db.delete(dailySaleFigures).run();
    // The migration's own statements that add up the sales already there.
    const sql = readFileSync(join(import.meta.dir, "../../../db/migrations/0015_sales_figures.sql"), "utf8");
    for (const statement of sql.split("--> statement-breakpoint").filter((s) => /^\s*INSERT INTO/.test(s)))
      db.$client.exec(statement);
    expect(dailyTotals(db).kept).toEqual(before);
  });

  test("the figures are read from the daily totals, not from the sales", () => {
    const { db, w, cafesOf } = world();
    db.insert(dailyServiceFigures)
      .values({ cafeId: w.norte, serviceDate: TODAY, serviceId: w.alm, meals: 7, totalCents: 10_500 })
      .run();
    expect(db.select().from(sales).all()).toEqual([]);
    expect(dashboardFigures(db, cafesOf(), NOW).day).toMatchObject({ meals: 7, totalCents: 10_500 });
  });
});

describe("who a person without a role may ask", () => {
  test("active people who can give roles, headquarters first, by name and area, never their e-mail", () => {
    const { db, w } = world();
    const now = new Date();
    const person = (id: number, name: string, status: "active" | "deactivated" = "active") =>
      db
        .insert(users)
        .values({ id, name, email: `p${id}@mesa.test`, passwordHash: "x", status, createdAt: now, updatedAt: now })
        .run();
    const hq = db.insert(headquarters).values({ businessId: w.business, name: "Sede Lima" }).returning().get().id;
    const office = db.insert(areas).values({ name: "Administración", headquartersId: hq }).returning().get().id;
    const caja = db.insert(areas).values({ name: "Caja", cafeId: w.norte }).returning().get().id;
    const superRole = db.insert(roles).values({ name: "super", isSuper: true }).returning().get().id;
    const cashier = db.insert(roles).values({ name: "cajero" }).returning().get().id;
    const manager = db.insert(roles).values({ name: "jefe" }).returning().get().id;
    const usersManage = db.$client
      .query<{ id: number }, []>("INSERT INTO permissions (name, area) VALUES ('users.manage', 'users') RETURNING id")
      .get()!.id;
    db.$client.query("INSERT INTO role_permissions (role_id, permission_id) VALUES (?, ?)").run(manager, usersManage);
    person(10, "Zoila Jefa");
    person(11, "Bruno Super");
    person(12, "Carla Cajera");
    person(13, "Dario Inactivo", "deactivated");
    person(14, "Nuevo Sin Rol");
    db.insert(assignments)
      .values([
        { userId: 10, areaId: caja, roleId: manager },
        { userId: 11, areaId: office, roleId: superRole },
        { userId: 12, areaId: caja, roleId: cashier },
        { userId: 13, areaId: office, roleId: superRole },
      ])
      .run();
    const keepers = roleKeepers(db, 14);
    expect(keepers).toEqual([
      { name: "Bruno Super", area: "Administración", place: "Sede Lima" },
      { name: "Zoila Jefa", area: "Caja", place: "Comedor Norte" },
    ]);
    expect(JSON.stringify(keepers)).not.toContain("@");
    // Someone is never told to ask themselves.
    expect(roleKeepers(db, 11).map((k) => k.name)).toEqual(["Zoila Jefa"]);
  });
});
