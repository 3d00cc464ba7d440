/**
 * The sales query domain: one filter (`SalesFilter`, read from a query string or a dialog by `parseSalesFilter`) and
 * one WHERE (`salesWhere`) that every figure of sales uses — the Sales page's lines and totals, its export, the
 * duplicates report, the report workbook and the dashboard — so they can never disagree. A sale belongs to its
 * service date; voided sales count nowhere and are counted apart; only sales of cafes in the reader's scope.
 * Every figure is computed by SQLite on the server, in integer cents.
 *
 *   const filter = parseSalesFilter(ctx.query, dateIn(ctx.config.timezone));
 *   const { totalCents } = salesTotals(db, scope, filter);
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { cafes, dealerships, mines, saleLines, sales, services, subdealerships, units } from "../../../db/schema";
import type { SaleType } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { idList, pageWindow, type ListResult, type PageRequest, type SortRequest } from "../search";
import { isCalendarDate } from "../../shared/calendar";
import { ticketNumber } from "./queries";
import type {
  DuplicateGroup,
  SaleStatus,
  SalesFilterOptions,
  SalesFilterQuery,
  SalesLineRow,
  SalesTotals,
} from "../../shared/sales/types";
import { SALE_STATUSES } from "../../shared/sales/types";
import { dayCount } from "../../shared/calendar";
export type {
  DuplicateGroup,
  DuplicateSale,
  SaleStatus,
  SalesFilterOptions,
  SalesFilterQuery,
  SalesLineRow,
  SalesTotals,
} from "../../shared/sales/types";

/** The longest range a filter may cover, in days (both ends included: a whole leap year). */
export const MAX_RANGE_DAYS = 366;
/** The most ids of one kind a filter may name (cafes, services). */
export const MAX_FILTER_IDS = 200;

export interface SalesFilter {
  /** Service dates YYYY-MM-DD, both included, at most MAX_RANGE_DAYS apart. */
  from: string;
  to: string;
  /** Empty: every cafe in scope. */
  cafeIds: number[];
  dealershipId: number | null;
  subdealershipId: number | null;
  /** Empty: every service. */
  serviceIds: number[];
  saleType: SaleType | null;
  otherUnit: boolean | null;
  /** "valid" (the default) leaves voided sales out, "voided" shows only them, "all" both. */
  status: SaleStatus;
}

/** The first day of the month of a date: "2026-11-23" → "2026-11-01". */
export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** One positive id, or undefined when the value is not one. */
function parseId(value: unknown): number | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** Ids from an array, a number, or text "1,2,3"; null when one of them is not an id or there are too many. */
function parseIds(value: unknown): number[] | null {
  if (!present(value)) return [];
  const items = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.split(",").filter((part) => part.trim() !== "")
      : [value];
  if (items.length > MAX_FILTER_IDS) return null;
  const ids: number[] = [];
  for (const item of items) {
    const id = parseId(item);
    if (id === undefined) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids.sort((a, b) => a - b);
}

function parseBoolean(value: unknown): boolean | null | undefined {
  if (!present(value)) return null;
  if (value === true || value === "1" || value === "true" || value === 1) return true;
  if (value === false || value === "0" || value === "false" || value === 0) return false;
  return undefined;
}

/**
 * A SalesFilter from a query string or a dialog's fields: `from`, `to` (service dates; by default the month of
 * `today` up to `today`), `cafe_ids` (an array or "1,2"), `dealership_id`, `subdealership_id`, `service_ids`,
 * `sale_type` (credit, cash), `other_unit` (1/0, true/false) and `status` (valid, voided, all; valid by default).
 * A field left empty does not filter. Anything else is refused with ValidationFailed, one message per field.
 */
export function parseSalesFilter(input: unknown, today: string): SalesFilter {
  const data = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const errors: Record<string, Message> = {};

  const date = (name: "from" | "to", fallback: string): string => {
    const value = data[name];
    if (!present(value)) return fallback;
    if (typeof value === "string" && isCalendarDate(value.trim())) return value.trim();
    errors[name] = message("sales.filter.date_invalid");
    return fallback;
  };
  const to = date("to", today);
  const from = date("from", monthStart(present(data.to) && !errors.to ? to : today));
  if (!errors.from && !errors.to) {
    if (from > to) errors.to = message("sales.filter.range_backwards");
    else if (dayCount(from, to) > MAX_RANGE_DAYS)
      errors.to = message("sales.filter.range_too_long", { days: MAX_RANGE_DAYS });
  }

  const ids = (name: string): number[] => {
    const parsed = parseIds(data[name]);
    if (parsed === null) errors[name] = message("sales.filter.ids_invalid", { max: MAX_FILTER_IDS });
    return parsed ?? [];
  };
  const id = (name: string): number | null => {
    if (!present(data[name])) return null;
    const parsed = parseId(data[name]);
    if (parsed === undefined) errors[name] = message("sales.filter.id_invalid");
    return parsed ?? null;
  };
  const cafeIds = ids("cafe_ids");
  const serviceIds = ids("service_ids");
  const dealershipId = id("dealership_id");
  const subdealershipId = id("subdealership_id");

  let saleType: SaleType | null = null;
  if (present(data.sale_type)) {
    if (data.sale_type === "credit" || data.sale_type === "cash") saleType = data.sale_type;
    else errors.sale_type = message("sales.filter.sale_type_invalid");
  }
  const otherUnit = parseBoolean(data.other_unit);
  if (otherUnit === undefined) errors.other_unit = message("sales.filter.other_unit_invalid");
  let status: SaleStatus = "valid";
  if (present(data.status)) {
    if (SALE_STATUSES.includes(data.status as SaleStatus)) status = data.status as SaleStatus;
    else errors.status = message("sales.filter.status_invalid");
  }

  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return {
    from,
    to,
    cafeIds,
    dealershipId,
    subdealershipId,
    serviceIds,
    saleType,
    otherUnit: otherUnit ?? null,
    status,
  };
}

/** The query-string fields of a filter (what parseSalesFilter reads back), leaving out what does not filter. */
export function salesFilterQuery(filter: SalesFilter): SalesFilterQuery {
  const query: SalesFilterQuery = { from: filter.from, to: filter.to };
  if (filter.cafeIds.length) query.cafe_ids = filter.cafeIds.join(",");
  if (filter.dealershipId !== null) query.dealership_id = String(filter.dealershipId);
  if (filter.subdealershipId !== null) query.subdealership_id = String(filter.subdealershipId);
  if (filter.serviceIds.length) query.service_ids = filter.serviceIds.join(",");
  if (filter.saleType) query.sale_type = filter.saleType;
  if (filter.otherUnit !== null) query.other_unit = filter.otherUnit ? "1" : "0";
  if (filter.status !== "valid") query.status = filter.status;
  return query;
}

// Values are written as expressions of the bound value ((? || '') and (? + 0)): SQLite does not read them when it
// plans the statement, so a statement kept by the connection (src/db.ts) is not planned again for new values.
const text = (value: string) => sql`(${value} || '')`;
const number = (value: number) => sql`(${value} + 0)`;
const inIds = (column: SQL, ids: readonly number[] | ReadonlySet<number>) =>
  sql`${column} IN (SELECT value FROM json_each(${idList(ids)}))`;

/**
 * Refuses a filter that names what the person may not read, as any place outside the scope is refused: a cafe outside
 * their scope, or an id of a cafe, dealership, subdealership or service that names nothing, is NotFound (404). The
 * figures of such a filter would only be empty, but its names would show on the report's Report sheet. Client
 * companies and services are company-wide: any that exists may be named.
 */
export function requireFilterInScope(db: Db, scope: Scope, filter: SalesFilter): void {
  const existing = (
    table: typeof cafes | typeof dealerships | typeof subdealerships | typeof services,
    ids: number[],
  ) =>
    ids.length === 0 ||
    db
      .select({ n: sql<number>`count(*)` })
      .from(table)
      .where(inIds(sql`${table.id}`, ids))
      .get()!.n === ids.length;
  const one = (id: number | null) => (id === null ? [] : [id]);
  if (
    !filter.cafeIds.every((id) => reachesCafe(scope, id)) ||
    !existing(cafes, filter.cafeIds) ||
    !existing(dealerships, one(filter.dealershipId)) ||
    !existing(subdealerships, one(filter.subdealershipId)) ||
    !existing(services, filter.serviceIds)
  )
    throw new NotFound();
}

/**
 * Past this many cafes, a list of cafes is checked on each sale rather than used to find the sales: reading a month
 * cafe by cafe through their index and then each sale's lines costs far more than reading the month's lines in
 * date order (an administrator of forty cafes: seconds against a tenth of one).
 */
const CAFES_BY_INDEX = 8;

function cafeCondition(ids: readonly number[] | ReadonlySet<number>): SQL {
  const size = Array.isArray(ids) ? ids.length : (ids as ReadonlySet<number>).size;
  // A unary + keeps SQLite from using the column's index for the condition.
  return inIds(size > CAFES_BY_INDEX ? sql`+${sales.cafeId}` : sql`${sales.cafeId}`, ids);
}

/**
 * A filter's conditions, split by the table they read: those on the sale lines (which carry copies of their sale's
 * service date, type and void) and those that need the sale (its cafe, client companies, the other-unit mark).
 */
function filterConditions(scope: Scope, filter: SalesFilter): { lines: SQL[]; sales: SQL[] } {
  const lines: SQL[] = [
    sql`${saleLines.serviceDate} >= ${text(filter.from)}`,
    sql`${saleLines.serviceDate} <= ${text(filter.to)}`,
  ];
  // Not through the index of lines by service: that would read every date of the service, and each line whole.
  if (filter.serviceIds.length) lines.push(inIds(sql`+${saleLines.serviceId}`, filter.serviceIds));
  if (filter.saleType !== null) lines.push(sql`${saleLines.saleType} = ${text(filter.saleType)}`);
  if (filter.status === "valid") lines.push(sql`${saleLines.voided} = 0`);
  else if (filter.status === "voided") lines.push(sql`${saleLines.voided} = 1`);
  const onSales: SQL[] = [];
  if (!scope.all) onSales.push(cafeCondition(scope.cafeIds));
  if (filter.cafeIds.length) onSales.push(cafeCondition(filter.cafeIds));
  if (filter.dealershipId !== null) onSales.push(sql`${sales.dealershipId} = ${number(filter.dealershipId)}`);
  if (filter.subdealershipId !== null) onSales.push(sql`${sales.subdealershipId} = ${number(filter.subdealershipId)}`);
  if (filter.otherUnit !== null) onSales.push(sql`${sales.otherUnit} = ${number(filter.otherUnit ? 1 : 0)}`);
  return { lines, sales: onSales };
}

/**
 * The WHERE of a filter over `sales` joined to `sale_lines`, scope included: the one definition every figure uses.
 * A query selects `FROM sale_lines JOIN sales ON sales.id = sale_lines.sale_id WHERE ${salesWhere(scope, filter)}`.
 * The service date is compared on both tables (a line carries its sale's), so SQLite may start from either: from the
 * lines of the dates, or from the sales of a cafe or a client company. Ids of any number travel as one JSON value,
 * so one filter's shape is one SQL text whatever its values.
 */
export function salesWhere(scope: Scope, filter: SalesFilter): SQL {
  const { lines, sales: onSales } = filterConditions(scope, filter);
  return and(
    sql`${sales.serviceDate} >= ${text(filter.from)}`,
    sql`${sales.serviceDate} <= ${text(filter.to)}`,
    ...lines,
    ...onSales,
  )!;
}

/**
 * The scope a query of sales needs: none at all when it reaches every cafe there is (a headquarters area of the only
 * business, say), since every sale belongs to an existing cafe; then the lines of a month are read in date order
 * without looking at each one's sale.
 */
function effectiveScope(db: Db, scope: Scope): Scope {
  if (scope.all || scope.cafeIds.size === 0) return scope;
  const outside = db
    .select({ n: sql<number>`count(*)` })
    .from(cafes)
    .where(sql`${cafes.id} NOT IN (SELECT value FROM json_each(${idList(scope.cafeIds)}))`)
    .get()!.n;
  return outside === 0 ? { ...scope, all: true } : scope;
}

/** Whether a filter's lines must be joined to their sales (a condition reads the sale). */
function needsSales(scope: Scope, filter: SalesFilter): boolean {
  return filterConditions(scope, filter).sales.length > 0;
}

/** The WHERE of the lines alone, for a filter with no condition on their sales (needsSales false). */
function linesWhere(scope: Scope, filter: SalesFilter): SQL {
  return and(...filterConditions(scope, filter).lines)!;
}

interface Aggregate {
  totals: SalesTotals;
  /** Lines of voided sales that match the filter otherwise. */
  voidedLines: number;
}

const NO_TOTALS: SalesTotals = {
  sales: 0,
  lines: 0,
  meals: 0,
  baseCents: 0,
  igvCents: 0,
  totalCents: 0,
  voidedSales: 0,
  voidedCents: 0,
};

/** Counts and sums of the lines a query reads. */
function figures() {
  return {
    sales: sql<number>`count(DISTINCT ${saleLines.saleId})`,
    lines: sql<number>`count(*)`,
    meals: sql<number>`coalesce(sum(${saleLines.quantity}), 0)`,
    baseCents: sql<number>`coalesce(sum(${saleLines.baseCents}), 0)`,
    igvCents: sql<number>`coalesce(sum(${saleLines.igvCents}), 0)`,
    totalCents: sql<number>`coalesce(sum(${saleLines.totalCents}), 0)`,
  };
}

type Figures = Omit<SalesTotals, "voidedSales" | "voidedCents">;

/**
 * The figures of the lines that count and of the voided ones that match the filter otherwise, each read with plain
 * aggregates (a CASE per figure and line costs more than a second read). The voided lines are few and have an
 * index of their own by date, so their read is short.
 */
function countedAndVoided(db: Db, scope: Scope, filter: SalesFilter): { counted: Figures; voided: Figures } {
  const read = (status: SaleStatus): Figures => {
    const f = { ...filter, status };
    const query = db.select(figures()).from(saleLines).$dynamic();
    return (
      needsSales(scope, f)
        ? query.innerJoin(sales, eq(sales.id, saleLines.saleId)).where(salesWhere(scope, f))
        : query.where(linesWhere(scope, f))
    ).get()!;
  };
  return { counted: filter.status === "voided" ? NO_TOTALS : read("valid"), voided: read("voided") };
}

/** Everything a filter's totals need: the lines that count, and apart the voided ones, whatever the status. */
function aggregate(db: Db, given: Scope, filter: SalesFilter): Aggregate {
  const scope = effectiveScope(db, given);
  // Voided sales count nowhere: a filter that shows only them has nothing that counts, only what is counted apart.
  const { counted, voided } = countedAndVoided(db, scope, filter);
  return {
    totals: {
      sales: counted.sales,
      lines: counted.lines,
      meals: counted.meals,
      baseCents: counted.baseCents,
      igvCents: counted.igvCents,
      totalCents: counted.totalCents,
      voidedSales: voided.sales,
      voidedCents: voided.totalCents,
    },
    voidedLines: voided.lines,
  };
}

/**
 * The totals of what a filter shows, over all its pages: sales, lines, meals and amounts of the sales that count
 * (none when the filter shows only voided sales), and apart the voided sales that match it otherwise.
 */
export function salesTotals(db: Db, scope: Scope, filter: SalesFilter): SalesTotals {
  return aggregate(db, scope, filter).totals;
}

/** The columns a person may sort the lines by (the table's column ids). */
export const SALES_LINE_SORTS = [
  "date",
  "time",
  "cafe",
  "ticket",
  "diner",
  "document",
  "subdealership",
  "service",
  "quantity",
  "unit_price",
  "total",
  "type",
] as const;
export type SalesLineSort = (typeof SALES_LINE_SORTS)[number];

const sortColumns: Record<Exclude<SalesLineSort, "date">, SQL[]> = {
  time: [sql`${sales.soldAt}`],
  cafe: [sql`${sales.cafeName}`],
  ticket: [sql`${sales.series}`, sql`${sales.number}`],
  diner: [sql`${sales.dinerName}`],
  document: [sql`${sales.documentNumber}`],
  subdealership: [sql`${sales.subdealershipName}`],
  service: [sql`${saleLines.serviceName}`],
  quantity: [sql`${saleLines.quantity}`],
  unit_price: [sql`${saleLines.unitPriceCents}`],
  total: [sql`${saleLines.totalCents}`],
  type: [sql`${saleLines.saleType}`],
};

/** The columns that are the sale's, not the line's: sorting by one reads each line's sale. */
const SALE_SORTS = new Set<string>(["time", "cafe", "ticket", "diner", "document", "subdealership"]);

/**
 * ORDER BY of the lines: by date, newest first, by default (the service date, then the sale and the line, the order
 * of the lines' index by date, so the first page is read without sorting the month); another column in the asked
 * direction, then by date. Sorting by date ascending turns the whole order round, and so does `reverse`.
 */
function lineOrder(request: SortRequest, reverse = false): SQL[] {
  const flip = (dir: typeof asc) => (reverse ? (dir === asc ? desc : asc) : dir);
  const byDate = (dir: typeof asc) => [dir(saleLines.serviceDate), dir(saleLines.saleId), dir(saleLines.id)];
  const sort = request.sort;
  if (!sort || sort === "date" || !Object.hasOwn(sortColumns, sort))
    return byDate(flip(sort === "date" && request.direction === "asc" ? asc : desc));
  const dir = flip(request.direction === "desc" ? desc : asc);
  return [...sortColumns[sort as keyof typeof sortColumns].map((column) => dir(column)), ...byDate(flip(desc))];
}

const lineSelection = {
  id: saleLines.id,
  saleId: saleLines.saleId,
  serviceDate: sales.serviceDate,
  soldAt: sales.soldAt,
  timeZone: cafes.timeZone,
  cafeId: sales.cafeId,
  cafeName: sales.cafeName,
  series: sales.series,
  number: sales.number,
  dinerName: sales.dinerName,
  documentType: sales.documentType,
  documentNumber: sales.documentNumber,
  dealershipName: sales.dealershipName,
  subdealershipName: sales.subdealershipName,
  subdealershipRuc: sales.subdealershipRuc,
  serviceId: saleLines.serviceId,
  serviceCode: saleLines.serviceCode,
  serviceName: saleLines.serviceName,
  quantity: saleLines.quantity,
  unitPriceCents: saleLines.unitPriceCents,
  baseCents: saleLines.baseCents,
  igvCents: saleLines.igvCents,
  totalCents: saleLines.totalCents,
  saleType: sales.saleType,
  otherUnit: sales.otherUnit,
  voidedAt: sales.voidedAt,
};

/** A line as read with lineSelection. */
interface LineRecord extends Omit<SalesLineRow, "soldAt" | "ticket" | "voided"> {
  soldAt: Date;
  series: string;
  number: number;
  voidedAt: Date | null;
}

function lineRow(record: LineRecord): SalesLineRow {
  const { series, number: ticketNo, voidedAt, soldAt, ...rest } = record;
  return { ...rest, soldAt: soldAt.toISOString(), ticket: ticketNumber(series, ticketNo), voided: voidedAt !== null };
}

/** The ids of the lines a filter shows, in an order, `limit` of them from `offset` (all with limit -1). */
function lineIds(db: Db, scope: Scope, filter: SalesFilter, sort: SortRequest, reverse: boolean, window: Window) {
  const query = db.select({ id: saleLines.id }).from(saleLines).$dynamic();
  // Sorting by the sale's cafe, diner, time... reads each line's sale.
  return (
    needsSales(scope, filter) || SALE_SORTS.has(sort.sort ?? "")
      ? query.innerJoin(sales, eq(sales.id, saleLines.saleId)).where(salesWhere(scope, filter))
      : query.where(linesWhere(scope, filter))
  )
    .orderBy(...lineOrder(sort, reverse))
    .limit(window.limit)
    .offset(window.offset)
    .all()
    .map((r) => r.id);
}

/** The lines with these ids, with what the table shows of them and their sale, in the ids' order. */
function linesById(db: Db, ids: number[]): SalesLineRow[] {
  if (ids.length === 0) return [];
  const rows = db
    .select(lineSelection)
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .innerJoin(cafes, eq(cafes.id, sales.cafeId))
    .where(inIds(sql`${saleLines.id}`, ids))
    .all();
  const byId = new Map(rows.map((r) => [r.id, lineRow(r)]));
  return ids.map((id) => byId.get(id)!);
}

interface Window {
  limit: number;
  offset: number;
}

/**
 * The lines of a window of `total` rows in an order. A window past the middle is read from the other end in the
 * reverse order (the order ends with the line's id, so it is total), so no page reads past more than half the rows.
 */
function readLines(db: Db, scope: Scope, filter: SalesFilter, sort: SortRequest, window: Window, total: number) {
  if (window.limit >= 0 && window.offset + window.limit / 2 > total / 2) {
    const end = Math.min(total, window.offset + window.limit);
    const ids = lineIds(db, scope, filter, sort, true, {
      limit: Math.max(0, end - window.offset),
      offset: total - end,
    });
    return linesById(db, ids.reverse());
  }
  return linesById(db, lineIds(db, scope, filter, sort, false, window));
}

/**
 * One page of the lines a filter shows, sorted, with the totals of all its pages. The number of lines comes from the
 * same pass as the totals (the same WHERE), so the table's count and its totals cannot disagree.
 */
export function salesLinePage(
  db: Db,
  given: Scope,
  filter: SalesFilter,
  page: PageRequest,
  sort: SortRequest = {},
): ListResult<SalesLineRow> & { totals: SalesTotals } {
  const scope = effectiveScope(db, given);
  const { totals, voidedLines } = aggregate(db, scope, filter);
  const total =
    filter.status === "valid" ? totals.lines : filter.status === "voided" ? voidedLines : totals.lines + voidedLines;
  const window = pageWindow(total, page);
  const rows = total === 0 ? [] : readLines(db, scope, filter, sort, window, total);
  return { rows, total, page: window.page, totals };
}

/** The lines a filter shows, sorted (an export): at most `limit` of them (all with -1). */
export function salesLines(
  db: Db,
  given: Scope,
  filter: SalesFilter,
  sort: SortRequest = {},
  limit = -1,
): SalesLineRow[] {
  const scope = effectiveScope(db, given);
  const ids = lineIds(db, scope, filter, sort, false, { limit, offset: 0 });
  const rows: SalesLineRow[] = [];
  // Read in batches: one JSON list of ids per batch.
  for (let start = 0; start < ids.length; start += 5000) rows.push(...linesById(db, ids.slice(start, start + 5000)));
  return rows;
}

/** How many lines a filter shows (the rows of its export). */
export function countSalesLines(db: Db, given: Scope, filter: SalesFilter): number {
  const scope = effectiveScope(db, given);
  const query = db
    .select({ n: sql<number>`count(*)` })
    .from(saleLines)
    .$dynamic();
  return (
    needsSales(scope, filter)
      ? query.innerJoin(sales, eq(sales.id, saleLines.saleId)).where(salesWhere(scope, filter))
      : query.where(linesWhere(scope, filter))
  ).get()!.n;
}

/** The most duplicate groups read at once. */
export const MAX_DUPLICATE_GROUPS = 500;

/**
 * Diners served the same service more than once on the same service date, across the cafes the filter shows
 * (credit, cash and other-unit sales alike; voided sales never count, whatever the filter's status), newest date
 * first, at most `limit` groups. Visitors (cash sales without a registered diner) are left out: they have no diner.
 */
export function duplicateMeals(
  db: Db,
  given: Scope,
  filter: SalesFilter,
  limit = MAX_DUPLICATE_GROUPS,
): DuplicateGroup[] {
  const scope = effectiveScope(db, given);
  const valid: SalesFilter = { ...filter, status: "valid" };
  const registered = sql`${saleLines.dinerId} IS NOT NULL`;
  // Grouped in the order of the index of meals (date, diner, service), newest first: no sorting, and no more read
  // than the groups asked for once there are that many.
  const query = db
    .select({
      dinerId: sql<number>`${saleLines.dinerId}`,
      serviceId: saleLines.serviceId,
      serviceDate: saleLines.serviceDate,
      lines: sql<number>`count(*)`,
    })
    .from(saleLines)
    .$dynamic();
  const groups = (
    needsSales(scope, valid)
      ? query.innerJoin(sales, eq(sales.id, saleLines.saleId)).where(and(salesWhere(scope, valid), registered))
      : query.where(and(linesWhere(scope, valid), registered))
  )
    .groupBy(saleLines.serviceDate, saleLines.dinerId, saleLines.serviceId)
    .having(sql`count(*) > 1`)
    .orderBy(desc(saleLines.serviceDate), desc(saleLines.dinerId), desc(saleLines.serviceId))
    .limit(limit)
    .all();
  if (groups.length === 0) return [];
  const keys = JSON.stringify(groups.map((g) => [g.dinerId, g.serviceId, g.serviceDate]));
  const lines = db
    .select({
      dinerId: sql<number>`${saleLines.dinerId}`,
      serviceId: saleLines.serviceId,
      serviceDate: saleLines.serviceDate,
      serviceCode: saleLines.serviceCode,
      serviceName: saleLines.serviceName,
      quantity: saleLines.quantity,
      totalCents: saleLines.totalCents,
      saleId: sales.id,
      series: sales.series,
      number: sales.number,
      cafeId: sales.cafeId,
      cafeName: sales.cafeName,
      soldAt: sales.soldAt,
      timeZone: cafes.timeZone,
      saleType: sales.saleType,
      otherUnit: sales.otherUnit,
      dinerName: sales.dinerName,
      documentType: sales.documentType,
      documentNumber: sales.documentNumber,
      subdealershipName: sales.subdealershipName,
    })
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .innerJoin(cafes, eq(cafes.id, sales.cafeId))
    .where(
      and(
        salesWhere(scope, valid),
        registered,
        // Each group's lines, found through the index of meals (date, diner, service).
        sql`(${saleLines.serviceDate}, ${saleLines.dinerId}, ${saleLines.serviceId}) IN (SELECT value ->> 2, value ->> 0, value ->> 1 FROM json_each(${keys}))`,
      ),
    )
    .orderBy(asc(sales.soldAt), asc(saleLines.id))
    .all();
  const byKey = new Map<string, DuplicateGroup>();
  const keyOf = (g: { dinerId: number; serviceId: number; serviceDate: string }) =>
    `${g.dinerId}|${g.serviceId}|${g.serviceDate}`;
  for (const g of groups)
    byKey.set(keyOf(g), {
      ...g,
      meals: 0,
      cafes: 0,
      dinerName: "",
      documentType: "dni",
      documentNumber: "",
      subdealershipName: null,
      serviceCode: "",
      serviceName: "",
      sales: [],
    });
  for (const line of lines) {
    const group = byKey.get(keyOf(line));
    if (!group) continue;
    // The latest sale's snapshot names the diner and the service.
    Object.assign(group, {
      dinerName: line.dinerName,
      documentType: line.documentType,
      documentNumber: line.documentNumber,
      subdealershipName: line.subdealershipName,
      serviceCode: line.serviceCode,
      serviceName: line.serviceName,
    });
    group.sales.push({
      saleId: line.saleId,
      ticket: ticketNumber(line.series, line.number),
      cafeId: line.cafeId,
      cafeName: line.cafeName,
      soldAt: line.soldAt.toISOString(),
      timeZone: line.timeZone,
      saleType: line.saleType,
      otherUnit: line.otherUnit,
      quantity: line.quantity,
      totalCents: line.totalCents,
    });
  }
  for (const group of byKey.values()) {
    group.meals = group.sales.reduce((meals, sale) => meals + sale.quantity, 0);
    group.cafes = new Set(group.sales.map((sale) => sale.cafeId)).size;
  }
  return [...byKey.values()];
}

/** The Duplicates tab's groups: the first `max` of duplicateMeals, and whether there are more. */
export function duplicateMealsShown(
  db: Db,
  scope: Scope,
  filter: SalesFilter,
  max = MAX_DUPLICATE_GROUPS,
): { groups: DuplicateGroup[]; more: boolean } {
  const groups = duplicateMeals(db, scope, filter, max + 1);
  return { groups: groups.slice(0, max), more: groups.length > max };
}

/** The choices of the sales filters for a person: only the cafes of their scope. */
export function salesFilterOptions(db: Db, scope: Scope): SalesFilterOptions {
  const cafeRows = db
    .select({ id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .all();
  return {
    cafes: cafeRows.filter((cafe) => reachesCafe(scope, cafe.id)),
    dealerships: db
      .select({ id: dealerships.id, name: dealerships.name })
      .from(dealerships)
      .orderBy(asc(dealerships.name))
      .all(),
    subdealerships: db
      .select({ id: subdealerships.id, name: subdealerships.name, dealershipId: subdealerships.dealershipId })
      .from(subdealerships)
      .orderBy(asc(subdealerships.name))
      .all(),
    services: db
      .select({ id: services.id, code: services.code, name: services.name })
      .from(services)
      .orderBy(asc(services.code))
      .all(),
  };
}
