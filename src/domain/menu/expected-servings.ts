/**
 * How many servings a cafe expects of each meal service on each day: what buying for a published menu multiplies
 * its recipes by (src/domain/menu/requirements.ts).
 *
 * - A value a person set for the day (the Compras page, one day at a time) or loaded from the client's headcount
 *   forecast (a workbook) is kept in `menu_expected_servings` and wins.
 * - Otherwise the **average served on the same weekday over the four weeks before the range**: the non-voided
 *   quantities sold of that service at that cafe on each of the four same weekdays in the 28 days before `from`,
 *   added up and divided by four (a day without sales counts as zero: the cafe served nobody then), rounded up to a
 *   whole serving. The same weekday rather than every day, because camps and offices eat differently on Sundays
 *   and Mondays; 28 days hold exactly four of each weekday, so every day of the range has the same basis.
 *
 * The forecast workbook's first sheet holds a header row (Fecha/Date, Servicio/Service, Comensales/Servings, in
 * either language and any order) and a row per day and service; the service by its code or its name. It is all or
 * nothing: every row is checked first and the problems come back by row and column.
 */
import { and, eq, gte, inArray, lte } from "drizzle-orm";
import { menuExpectedServings } from "../../../db/schema";
import type { Db } from "../../db";
import {
  translate,
  translateDynamic,
  type Locale,
  type TranslationKey,
  type TranslationParams,
} from "../../shared/i18n";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { foldText } from "../search";
import { isCalendarDate } from "../../shared/calendar";
import {
  MAX_WORKBOOK_BYTES,
  readFirstSheet,
  type CellValue,
  type IntakeLimits,
  type SheetRows,
} from "../spreadsheets/read";
import type { ExpectedServings, MenuService } from "../../shared/menu/types";
import { addDays, dayCount, EXCEL_DAY_ZERO } from "../../shared/calendar";
export type { ExpectedServings, MenuService, ServingsCell, ServingsDay } from "../../shared/menu/types";

/** The longest range a requirement or a servings table covers: two months. */
export const MAX_RANGE_DAYS = 62;
/** The weeks the default average looks back on. */
export const AVERAGE_WEEKS = 4;
/** The most servings of one service on one day. */
export const MAX_SERVINGS = 100_000;
/** The forecast workbook: 5 MiB and 5,000 rows. */
export const FORECAST_INTAKE: IntakeLimits = { maxBytes: MAX_WORKBOOK_BYTES, maxRows: 5000 };
/** The most problems listed of a refused forecast. */
export const MAX_LISTED_PROBLEMS = 200;

/** Every date from `from` to `to`, both included. */
export function datesOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** 0 (Sunday) to 6 (Saturday). */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** A date range as asked (query or command line): both real dates, in order, at most MAX_RANGE_DAYS; problems by field. */
export function checkRange(from: unknown, to: unknown): { from: string; to: string } {
  const errors: Record<string, Message> = {};
  const f = typeof from === "string" ? from.trim() : "";
  const t = typeof to === "string" ? to.trim() : "";
  if (!isCalendarDate(f)) errors.from = message("menuRequirements.errors.date");
  if (!isCalendarDate(t)) errors.to = message("menuRequirements.errors.date");
  if (!errors.from && !errors.to) {
    if (t < f) errors.to = message("menuRequirements.errors.range_order");
    else if (dayCount(f, t) > MAX_RANGE_DAYS)
      errors.to = message("menuRequirements.errors.range_too_long", { max: MAX_RANGE_DAYS });
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return { from: f, to: t };
}

/** A cafe as menu planning needs it. */
export interface MenuCafe {
  id: number;
  name: string;
  cityId: number | null;
  cityName: string | null;
  defaultLevelId: number | null;
  timeZone: string;
}

/** The cafe when it is within `scope`; anything else, like a missing cafe, is NotFound. */
export function cafeInScope(db: Db, scope: Scope, cafeId: number): MenuCafe {
  if (!Number.isInteger(cafeId) || !reachesCafe(scope, cafeId)) throw new NotFound();
  const cafe = db.$client
    .query<MenuCafe, [number]>(
      `SELECT c.id, c.name, c.city_id AS cityId, ci.name AS cityName, c.default_level_id AS defaultLevelId,
         c.time_zone AS timeZone
       FROM cafes c LEFT JOIN cities ci ON ci.id = c.city_id WHERE c.id = ?`,
    )
    .get(cafeId);
  if (!cafe) throw new NotFound();
  return cafe;
}

const TYPE_ORDER = `CASE s.type WHEN 'breakfast' THEN 0 WHEN 'lunch' THEN 1 WHEN 'dinner' THEN 2 WHEN 'snack' THEN 3 ELSE 4 END`;

/**
 * The meal services of a cafe for a range: its active services (disposables are not meals), and any other service
 * the range's published menu or stored servings name, by meal of the day.
 */
export function mealServices(db: Db, cafeId: number, from: string, to: string): MenuService[] {
  return db.$client
    .query<MenuService, Record<string, string | number>>(
      `SELECT s.id, s.code, s.name, s.type FROM services s
       WHERE s.type <> 'disposables' AND (
         (s.active AND s.id IN (SELECT service_id FROM cafe_services WHERE cafe_id = $cafe))
         OR s.id IN (SELECT p.service_id FROM published_menu_slots p JOIN menu_days d ON d.id = p.day_id
                     WHERE d.cafe_id = $cafe AND d.date BETWEEN $from AND $to AND d.published_version IS NOT NULL)
         OR s.id IN (SELECT service_id FROM menu_expected_servings WHERE cafe_id = $cafe AND date BETWEEN $from AND $to))
       ORDER BY ${TYPE_ORDER}, s.name, s.id`,
    )
    .all({ cafe: cafeId, from, to });
}

/** Non-voided quantities sold at a cafe per service date and service, over a range of service dates. */
function servedByDay(db: Db, cafeId: number, from: string, to: string) {
  return db.$client
    .query<{ date: string; serviceId: number; served: number }, Record<string, string | number>>(
      `SELECT l.service_date AS date, l.service_id AS serviceId, SUM(l.quantity) AS served
       FROM sales s JOIN sale_lines l ON l.sale_id = s.id
       WHERE s.cafe_id = $cafe AND s.service_date BETWEEN $from AND $to AND l.voided = 0
       GROUP BY l.service_date, l.service_id`,
    )
    .all({ cafe: cafeId, from, to });
}

/** The servings expected at a cafe per day and meal service of a range (checked by the caller: checkRange). */
export function expectedServings(db: Db, cafeId: number, from: string, to: string): ExpectedServings {
  const services = mealServices(db, cafeId, from, to);
  const basis = { from: addDays(from, -AVERAGE_WEEKS * 7), to: addDays(from, -1) };
  // weekday → service → served in the four weeks
  const served = new Map<string, number>();
  for (const row of servedByDay(db, cafeId, basis.from, basis.to)) {
    const key = `${weekdayOf(row.date)}:${row.serviceId}`;
    served.set(key, (served.get(key) ?? 0) + row.served);
  }
  const stored = new Map<string, number>();
  for (const row of db
    .select()
    .from(menuExpectedServings)
    .where(
      and(
        eq(menuExpectedServings.cafeId, cafeId),
        gte(menuExpectedServings.date, from),
        lte(menuExpectedServings.date, to),
      ),
    )
    .all())
    stored.set(`${row.date}:${row.serviceId}`, row.servings);
  const days = datesOf(from, to).map((date) => {
    const weekday = weekdayOf(date);
    return {
      date,
      weekday,
      cells: services.map((service) => {
        const average = Math.ceil((served.get(`${weekday}:${service.id}`) ?? 0) / AVERAGE_WEEKS);
        const set = stored.get(`${date}:${service.id}`) ?? null;
        return { serviceId: service.id, servings: set ?? average, set, average };
      }),
    };
  });
  return { cafeId, from, to, basis, services, days };
}

/** The servings of a range as a lookup: date → service id → servings. */
export function servingsLookup(expected: ExpectedServings): Map<string, Map<number, number>> {
  return new Map(expected.days.map((day) => [day.date, new Map(day.cells.map((c) => [c.serviceId, c.servings]))]));
}

/** A servings figure as typed: a whole number from 0 to MAX_SERVINGS, or null (blank) for "use the average". */
type Problem = Exclude<Message, string>;
const problemOf = (key: TranslationKey, params?: TranslationParams): Problem => ({ key, params });

function servingsOf(value: unknown): number | null | Problem {
  if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return null;
  const n = typeof value === "number" ? value : Number(String(value).trim());
  if (!Number.isFinite(n) || !Number.isInteger(n)) return problemOf("menuRequirements.errors.servings_whole");
  if (n < 0 || n > MAX_SERVINGS) return problemOf("menuRequirements.errors.servings_range", { max: MAX_SERVINGS });
  return n;
}

/** One day's servings as a person sets them: per service, a whole number, or null to go back to the average. */
export interface DayServingsInput {
  date: unknown;
  servings: Record<string, unknown>;
}

/**
 * Saves one day's expected servings at a cafe within `scope` (others are NotFound): each meal service of the cafe
 * given a number keeps it, one given blank goes back to the average. Audited as the cafe's data. Problems by field
 * (`date`, `servings.<serviceId>`).
 */
export function saveDayServings(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: DayServingsInput,
  now = new Date(),
): void {
  cafeInScope(db, scope, cafeId);
  const date = typeof input.date === "string" ? input.date.trim() : "";
  if (!isCalendarDate(date)) throw new ValidationFailed({ date: message("menuRequirements.errors.date") });
  const services = new Map(mealServices(db, cafeId, date, date).map((s) => [s.id, s]));
  const errors: Record<string, Message> = {};
  const values = new Map<number, number | null>();
  const entries = Object.entries(input.servings ?? {});
  if (entries.length > 100) throw new ValidationFailed({ servings: message("menuRequirements.errors.service") });
  for (const [key, raw] of entries) {
    const serviceId = Number(key);
    if (!services.has(serviceId)) {
      errors[`servings.${key}`] = message("menuRequirements.errors.service");
      continue;
    }
    const value = servingsOf(raw);
    if (value !== null && typeof value === "object") errors[`servings.${key}`] = value;
    else values.set(serviceId, value);
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  writeServings(db, actor, cafeId, [{ date, values }], "menu.servings.updated", now);
}

/** Writes servings (null: removed) in one immediate transaction, one audit entry per day that changed. */
function writeServings(
  db: Db,
  actor: Actor,
  cafeId: number,
  days: { date: string; values: Map<number, number | null> }[],
  action: string,
  now: Date,
): number {
  return db.transaction(
    (tx) => {
      let changed = 0;
      for (const { date, values } of days) {
        if (values.size === 0) continue;
        const before = Object.fromEntries(
          tx
            .select()
            .from(menuExpectedServings)
            .where(
              and(
                eq(menuExpectedServings.cafeId, cafeId),
                eq(menuExpectedServings.date, date),
                inArray(menuExpectedServings.serviceId, [...values.keys()]),
              ),
            )
            .all()
            .map((row) => [row.serviceId, row.servings]),
        );
        const after: Record<number, number | null> = {};
        let differs = false;
        for (const [serviceId, servings] of values) {
          after[serviceId] = servings;
          if ((before[serviceId] ?? null) !== servings) differs = true;
          const where = and(
            eq(menuExpectedServings.cafeId, cafeId),
            eq(menuExpectedServings.date, date),
            eq(menuExpectedServings.serviceId, serviceId),
          );
          if (servings === null) tx.delete(menuExpectedServings).where(where).run();
          else
            tx.insert(menuExpectedServings)
              .values({ cafeId, date, serviceId, servings })
              .onConflictDoUpdate({
                target: [menuExpectedServings.cafeId, menuExpectedServings.date, menuExpectedServings.serviceId],
                set: { servings },
              })
              .run();
        }
        if (!differs) continue;
        changed++;
        recordAudit(
          tx,
          actor,
          {
            action,
            subjectType: "cafe",
            subjectId: cafeId,
            places: [{ cafeId }],
            before: { date, servings: before },
            after: { date, servings: after },
          },
          now,
        );
      }
      return changed;
    },
    { behavior: "immediate" },
  );
}

// ——— The client's headcount forecast ———

/** A problem of a forecast row: its spreadsheet row and column header (a translation key), and what is wrong. */
export interface ForecastProblem {
  row: number | null;
  column: string | null;
  message: Message;
}

/** The forecast cannot be loaded: nothing was written; `problems` says why, row by row. */
export class ForecastRefused extends ValidationFailed {
  constructor(
    readonly problems: ForecastProblem[],
    readonly moreProblems: number,
  ) {
    super({ file: message("menuRequirements.forecast.has_problems", { count: problems.length + moreProblems }) });
  }
}

export const FORECAST_COLUMNS = [
  { field: "date", header: "menuRequirements.forecast.columns.date" },
  { field: "service", header: "menuRequirements.forecast.columns.service" },
  { field: "servings", header: "menuRequirements.forecast.columns.servings" },
] as const;

type ForecastField = (typeof FORECAST_COLUMNS)[number]["field"];

/** A cell as text: trimmed, a neutralised formula read back without its apostrophe. */
function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  const cell = /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return cell.replace(/\s+/g, " ").trim();
}

/** A date cell: an Excel date serial, YYYY-MM-DD, or DD/MM/YYYY (D/M/YYYY, with / - or .). */
export function forecastDate(value: CellValue | undefined): string | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 1 || value > 2_958_465) return null;
    const date = addDays(EXCEL_DAY_ZERO, Math.floor(value));
    return isCalendarDate(date) ? date : null;
  }
  const text = cellText(value);
  if (isCalendarDate(text)) return text;
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (!dmy) return null;
  const date = `${dmy[3]}-${dmy[2].padStart(2, "0")}-${dmy[1].padStart(2, "0")}`;
  return isCalendarDate(date) ? date : null;
}

/** What a forecast sheet holds, read and checked: the days and services it sets, or its problems. */
export interface ForecastPlan {
  rows: number;
  days: { date: string; values: Map<number, number | null> }[];
  from: string | null;
  to: string | null;
  problems: ForecastProblem[];
  moreProblems: number;
}

/** Reads and checks the forecast sheet for a cafe: every problem at once, nothing written. */
export function planForecast(db: Db, sheet: SheetRows | undefined): ForecastPlan {
  const problems: ForecastProblem[] = [];
  let more = 0;
  const problem = (row: number | null, column: string | null, m: Message) => {
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push({ row, column, message: m });
    else more++;
  };
  const rows = sheet?.rows ?? [];
  const firstRow = sheet?.firstRow ?? 1;
  const headerAt = rows.findIndex((row) => row.some((cell) => cellText(cell) !== ""));
  const empty: ForecastPlan = { rows: 0, days: [], from: null, to: null, problems, moreProblems: 0 };
  if (headerAt < 0) {
    problem(null, null, message("menuRequirements.forecast.empty"));
    return empty;
  }
  const words = new Map<string, ForecastField>();
  for (const column of FORECAST_COLUMNS) {
    words.set(foldText(column.field), column.field);
    for (const locale of ["es", "en"] as const) words.set(foldText(translate(locale, column.header)), column.field);
  }
  const at = new Map<ForecastField, number>();
  rows[headerAt].forEach((cell, index) => {
    const header = cellText(cell);
    if (header === "") return;
    const field = words.get(foldText(header));
    if (!field) problem(firstRow + headerAt, header, message("menuRequirements.forecast.unknown_column"));
    else if (at.has(field)) problem(firstRow + headerAt, header, message("menuRequirements.forecast.repeated_column"));
    else at.set(field, index);
  });
  for (const column of FORECAST_COLUMNS)
    if (!at.has(column.field))
      problem(firstRow + headerAt, column.header, message("menuRequirements.forecast.missing_column"));
  if (problems.length) return { ...empty, moreProblems: more };

  // Services by id, code or name (case and accents ignored), any service of the catalogue that is a meal.
  const services = db.$client
    .query<MenuService, []>(`SELECT id, code, name, type FROM services WHERE type <> 'disposables'`)
    .all();
  const serviceBy = new Map<string, number>();
  for (const s of services) serviceBy.set(foldText(s.name), s.id);
  for (const s of services) serviceBy.set(foldText(s.code), s.id);

  const byDay = new Map<string, Map<number, number | null>>();
  const seen = new Map<string, number>();
  let count = 0;
  for (let i = headerAt + 1; i < rows.length; i++) {
    const row = rows[i];
    if (!row.some((cell) => cellText(cell) !== "")) continue;
    count++;
    const line = firstRow + i;
    const date = forecastDate(row[at.get("date")!]);
    if (date === null)
      problem(line, "menuRequirements.forecast.columns.date", message("menuRequirements.forecast.bad_date"));
    const serviceText = cellText(row[at.get("service")!]);
    const serviceId = serviceText === "" ? undefined : serviceBy.get(foldText(serviceText));
    if (serviceId === undefined)
      problem(
        line,
        "menuRequirements.forecast.columns.service",
        serviceText === ""
          ? message("menuRequirements.forecast.required")
          : message("menuRequirements.forecast.unknown_service", { service: serviceText }),
      );
    const rawServings = row[at.get("servings")!];
    const servings =
      cellText(rawServings) === "" ? problemOf("menuRequirements.forecast.required") : servingsOf(rawServings);
    if (servings !== null && typeof servings === "object")
      problem(line, "menuRequirements.forecast.columns.servings", servings);
    if (date === null || serviceId === undefined || servings === null || typeof servings === "object") continue;
    const key = `${date}:${serviceId}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problem(line, null, message("menuRequirements.forecast.duplicate", { row: earlier }));
      continue;
    }
    seen.set(key, line);
    if (!byDay.has(date)) byDay.set(date, new Map());
    byDay.get(date)!.set(serviceId, servings);
  }
  if (count === 0 && problems.length === 0) problem(null, null, message("menuRequirements.forecast.no_rows"));
  const dates = [...byDay.keys()].sort();
  return {
    rows: count,
    days: dates.map((date) => ({ date, values: byDay.get(date)! })),
    from: dates[0] ?? null,
    to: dates.at(-1) ?? null,
    problems,
    moreProblems: more,
  };
}

/** Reads a forecast file's first sheet through the one spreadsheet intake (ValidationFailed keyed `file` when refused). */
export async function readForecastSheet(bytes: Uint8Array, fileName: string): Promise<SheetRows> {
  return (await readFirstSheet(bytes, fileName, FORECAST_INTAKE)).sheet;
}

/** What a loaded forecast did. */
export interface ForecastResult {
  rows: number;
  days: number;
  from: string | null;
  to: string | null;
}

/**
 * Loads a forecast sheet into a cafe's expected servings, all or nothing: ForecastRefused (nothing written) when any
 * row has a problem; otherwise every row's value is saved, in one transaction, each day that changed audited.
 */
export function importForecast(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  sheet: SheetRows | undefined,
  now = new Date(),
): ForecastResult {
  cafeInScope(db, scope, cafeId);
  const plan = planForecast(db, sheet);
  if (plan.problems.length) throw new ForecastRefused(plan.problems, plan.moreProblems);
  writeServings(db, actor, cafeId, plan.days, "menu.servings.imported", now);
  return { rows: plan.rows, days: plan.days.length, from: plan.from, to: plan.to };
}

/** A forecast problem in words: "Fila 7 (Comensales): Debe ser un número entero." */
export function describeForecastProblem(problem: ForecastProblem, locale: Locale): string {
  const words =
    typeof problem.message === "string"
      ? translate(locale, problem.message)
      : translate(locale, problem.message.key, problem.message.params);
  // The column is one of FORECAST_COLUMNS' keys, or a header as the file wrote it.
  const column = problem.column?.startsWith("menuRequirements.")
    ? translateDynamic(locale, problem.column, problem.column)
    : problem.column;
  const where =
    problem.row !== null && column
      ? translate(locale, "menuRequirements.forecast.at_row_column", { row: problem.row, column })
      : problem.row !== null
        ? translate(locale, "menuRequirements.forecast.at_row", { row: problem.row })
        : null;
  return where ? `${where}: ${words}` : words;
}
