/**
 * The dashboard's figures: meals served today by service type, revenue today and this month, the last 14 days, the
 * month's top subdealerships, other-unit sales and voids — for the cafes of the reader's scope, or one of them. A
 * sale counts on its service date, and "today" is each cafe's own today in its time zone, so a cafe in another zone
 * adds its own day. Voided sales count in no figure; they are counted apart.
 *
 * The figures are read from the daily totals that the triggers of migration 0015 keep (db/schema/sales-figures.ts):
 * a row per cafe, day and service, and one per cafe, day and subdealership, instead of a month of sale lines, so a
 * month over 40 cafes and a million lines (about 95,000 totals) reads in well under a tenth of a second, and the live
 * page can ask again every second. They agree with `salesTotals` (report.ts) over the
 * same cafes and dates to the cent; the tests hold them to it.
 *
 *   const cafes = dashboardCafes(db, scope);
 *   const figures = dashboardFigures(db, cafes);
 */
import { SERVICE_TYPES, type ServiceType } from "../../../db/schema";
import type { Db } from "../../db";
import { scopeValues, type Scope } from "../access/scope";
import { NotFound } from "../errors";
import { idList } from "../search";
import { dateIn } from "../../shared/calendar";
import type { DashboardFigures, PeriodFigures, RoleKeeper, SalesCount } from "../../shared/sales/types";
import { addDays } from "../../shared/calendar";
export type { DashboardFigures, PeriodFigures, RoleKeeper, SalesCount } from "../../shared/sales/types";

/** How many days the chart shows, today included. */
export const CHART_DAYS = 14;
/** How many subdealerships the month's ranking shows. */
export const TOP_SUBDEALERSHIPS = 5;

/** A cafe the dashboard may show: the reader's scope, with the unit it belongs to and its clock. */
export interface DashboardCafe {
  id: number;
  name: string;
  unit: string;
  timeZone: string;
}

/** The cafes of the scope, by unit and name. */
export function dashboardCafes(db: Db, scope: Scope): DashboardCafe[] {
  const { cafes } = scopeValues(scope);
  return db.$client
    .prepare<DashboardCafe, [string | null]>(
      `SELECT c.id, c.name, u.name AS unit, c.time_zone AS timeZone
       FROM cafes c JOIN units u ON u.id = c.unit_id
       WHERE (?1 IS NULL OR c.id IN (SELECT value FROM json_each(?1)))
       ORDER BY u.name, c.name, c.id`,
    )
    .all(cafes);
}

/**
 * The cafe a `cafe` query value names among `cafes` (the reader's), or null for every cafe when it is empty. An id
 * outside them, or a value that is not an id, is not found: a stale link shows nothing it should not.
 */
export function chosenCafe(cafes: DashboardCafe[], value: unknown): DashboardCafe | null {
  if (value === undefined || value === null || value === "") return null;
  const id = typeof value === "string" && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
  const cafe = cafes.find((c) => c.id === id);
  if (!cafe) throw new NotFound();
  return cafe;
}

/** Each cafe's dates, as the statements read them: [cafe, first day read, today, first of month, first of chart]. */
type CafeDays = [number, string, string, string, string];

function cafeDays(cafes: DashboardCafe[], now: Date): CafeDays[] {
  return cafes.map((cafe) => {
    const today = dateIn(cafe.timeZone, now);
    const month = `${today.slice(0, 7)}-01`;
    const chart = addDays(today, -(CHART_DAYS - 1));
    return [cafe.id, month < chart ? month : chart, today, month, chart];
  });
}

// Each statement reads the cafes' dates (one JSON value, so one SQL text whatever the cafes) once, then joins them to
// the daily totals, whose keys start with the cafe and the date (clustered on them, migration 0019): each cafe is one
// contiguous range of its own days.
const CAFE_DAYS = `WITH d AS MATERIALIZED (SELECT value ->> 0 AS cafe, value ->> 1 AS first, value ->> 2 AS today,
    value ->> 3 AS month, value ->> 4 AS chart FROM json_each(?1))`;

const SERVICE_FIGURES = `${CAFE_DAYS}
  SELECT f.service_date AS date, s.type AS type, f.service_date = d.today AS today, f.service_date >= d.month AS inMonth,
    f.service_date >= d.chart AS inChart, sum(f.meals) AS meals, sum(f.total_cents) AS totalCents
  FROM d JOIN daily_service_figures f ON f.cafe_id = d.cafe AND f.service_date BETWEEN d.first AND d.today
    JOIN services s ON s.id = f.service_id
  GROUP BY 1, 2, 3, 4, 5`;

// The month's sales per subdealership and other-unit mark, today's apart: the periods' counts and the ranking at once.
const SALE_FIGURES = `${CAFE_DAYS}
  SELECT f.subdealership_id AS id, f.other_unit AS otherUnit,
    sum(f.sales) AS sales, sum(f.total_cents) AS totalCents,
    sum(f.voided_sales) AS voidedSales, sum(f.voided_cents) AS voidedCents,
    sum(iif(f.service_date = d.today, f.sales, 0)) AS todaySales,
    sum(iif(f.service_date = d.today, f.total_cents, 0)) AS todayCents,
    sum(iif(f.service_date = d.today, f.voided_sales, 0)) AS todayVoidedSales,
    sum(iif(f.service_date = d.today, f.voided_cents, 0)) AS todayVoidedCents
  FROM d JOIN daily_sale_figures f ON f.cafe_id = d.cafe AND f.service_date BETWEEN d.month AND d.today
  GROUP BY 1, 2`;

const SUBDEALERSHIP_NAMES = `SELECT sd.id AS id, sd.name AS name, dl.name AS dealership
  FROM subdealerships sd JOIN dealerships dl ON dl.id = sd.dealership_id
  WHERE sd.id IN (SELECT value FROM json_each(?1))`;

const OFFERED_TYPES = `SELECT DISTINCT s.type AS type FROM cafe_services cs JOIN services s ON s.id = cs.service_id
  WHERE cs.cafe_id IN (SELECT value FROM json_each(?1))`;

function emptyPeriod(): PeriodFigures {
  return {
    meals: 0,
    totalCents: 0,
    sales: 0,
    otherUnit: { sales: 0, totalCents: 0 },
    voided: { sales: 0, totalCents: 0 },
  };
}

/**
 * The figures of `cafes` (the reader's scope or one of its cafes: see dashboardCafes and chosenCafe) at `now`.
 * Every sum is made by SQLite over the daily totals; what JavaScript adds up are those sums, never sales.
 */
export function dashboardFigures(db: Db, cafes: DashboardCafe[], now: Date = new Date()): DashboardFigures {
  const days = cafeDays(cafes, now);
  const today = days.reduce((latest, d) => (d[2] > latest ? d[2] : latest), cafes.length ? "" : dateIn("UTC", now));
  const monthStart = `${today.slice(0, 7)}-01`;
  const figures: DashboardFigures = {
    today,
    monthStart,
    day: emptyPeriod(),
    byType: [],
    month: emptyPeriod(),
    days: [],
    topSubdealerships: [],
  };
  if (cafes.length === 0) return figures;
  const client = db.$client;
  const values = JSON.stringify(days);

  const byType = new Map<ServiceType, { meals: number; totalCents: number }>();
  const byDate = new Map<string, { meals: number; totalCents: number }>();
  const services = client
    .prepare<
      {
        date: string;
        type: ServiceType;
        today: 0 | 1;
        inMonth: 0 | 1;
        inChart: 0 | 1;
        meals: number;
        totalCents: number;
      },
      [string]
    >(SERVICE_FIGURES)
    .all(values);
  for (const row of services) {
    if (row.today) {
      figures.day.meals += row.meals;
      figures.day.totalCents += row.totalCents;
      const type = byType.get(row.type) ?? { meals: 0, totalCents: 0 };
      byType.set(row.type, { meals: type.meals + row.meals, totalCents: type.totalCents + row.totalCents });
    }
    if (row.inMonth) {
      figures.month.meals += row.meals;
      figures.month.totalCents += row.totalCents;
    }
    if (row.inChart) {
      const day = byDate.get(row.date) ?? { meals: 0, totalCents: 0 };
      byDate.set(row.date, { meals: day.meals + row.meals, totalCents: day.totalCents + row.totalCents });
    }
  }

  const sales = client
    .prepare<
      {
        id: number;
        otherUnit: 0 | 1;
        sales: number;
        totalCents: number;
        voidedSales: number;
        voidedCents: number;
        todaySales: number;
        todayCents: number;
        todayVoidedSales: number;
        todayVoidedCents: number;
      },
      [string]
    >(SALE_FIGURES)
    .all(values);
  const bySubdealership = new Map<number, { sales: number; totalCents: number }>();
  const add = (period: PeriodFigures, otherUnit: boolean, counted: SalesCount, voided: SalesCount) => {
    period.sales += counted.sales;
    period.voided.sales += voided.sales;
    period.voided.totalCents += voided.totalCents;
    if (otherUnit) {
      period.otherUnit.sales += counted.sales;
      period.otherUnit.totalCents += counted.totalCents;
    }
  };
  for (const row of sales) {
    const otherUnit = row.otherUnit === 1;
    add(
      figures.month,
      otherUnit,
      { sales: row.sales, totalCents: row.totalCents },
      { sales: row.voidedSales, totalCents: row.voidedCents },
    );
    add(
      figures.day,
      otherUnit,
      { sales: row.todaySales, totalCents: row.todayCents },
      { sales: row.todayVoidedSales, totalCents: row.todayVoidedCents },
    );
    if (row.id === 0) continue;
    const sub = bySubdealership.get(row.id) ?? { sales: 0, totalCents: 0 };
    bySubdealership.set(row.id, { sales: sub.sales + row.sales, totalCents: sub.totalCents + row.totalCents });
  }
  const top = [...bySubdealership]
    .filter(([, sub]) => sub.sales > 0)
    .sort(([a, x], [b, y]) => y.totalCents - x.totalCents || y.sales - x.sales || a - b)
    .slice(0, TOP_SUBDEALERSHIPS);
  const names = new Map(
    client
      .prepare<{ id: number; name: string; dealership: string }, [string]>(SUBDEALERSHIP_NAMES)
      .all(idList(top.map(([id]) => id)))
      .map((r) => [r.id, r]),
  );
  figures.topSubdealerships = top.map(([id, sub]) => ({
    id,
    name: names.get(id)?.name ?? "",
    dealership: names.get(id)?.dealership ?? "",
    ...sub,
  }));

  const offered = new Set(
    client
      .prepare<{ type: ServiceType }, [string]>(OFFERED_TYPES)
      .all(idList(cafes.map((c) => c.id)))
      .map((r) => r.type),
  );
  figures.byType = SERVICE_TYPES.filter((type) => offered.has(type) || byType.has(type)).map((type) => ({
    type,
    ...(byType.get(type) ?? { meals: 0, totalCents: 0 }),
  }));

  const first = days.reduce((earliest, d) => (d[4] < earliest ? d[4] : earliest), today);
  for (let date = first; date <= today; date = addDays(date, 1))
    figures.days.push({ date, ...(byDate.get(date) ?? { meals: 0, totalCents: 0 }) });
  return figures;
}

/**
 * Up to `limit` active people who can give roles (users.manage, or the super-administrator role), those of
 * headquarters first: their names and the area and place they do it from, never their e-mail or document.
 */
export function roleKeepers(db: Db, exceptUserId: number, limit = 5): RoleKeeper[] {
  const rows = db.$client
    .prepare<{ id: number; name: string; area: string; place: string }, [number]>(
      `SELECT u.id, u.name, ar.name AS area, coalesce(h.name, c.name) AS place
       FROM assignments a
       JOIN users u ON u.id = a.user_id
       JOIN roles r ON r.id = a.role_id
       JOIN areas ar ON ar.id = a.area_id
       LEFT JOIN headquarters h ON h.id = ar.headquarters_id
       LEFT JOIN cafes c ON c.id = ar.cafe_id
       WHERE u.status = 'active' AND u.id <> ?1
         AND NOT EXISTS (SELECT 1 FROM blacklist b WHERE b.user_id = u.id
           OR (b.document_type = u.document_type AND b.document_number = u.document_number))
         AND (r.is_super = 1 OR EXISTS (SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
           WHERE rp.role_id = r.id AND p.name = 'users.manage'))
       ORDER BY ar.headquarters_id IS NULL, r.is_super DESC, u.name, u.id, ar.name`,
    )
    .all(exceptUserId);
  const seen = new Set<number>();
  const keepers: RoleKeeper[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    keepers.push({ name: row.name, area: row.area, place: row.place });
    if (keepers.length === limit) break;
  }
  return keepers;
}
