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
import { cafes, saleLines, sales } from "../../../db/schema";
import type { SaleType } from "../../../db/schema";
import type { Db } from "../../db";
import type { Scope } from "../access/scope";
import type { DocumentType } from "../documents";
import { message, ValidationFailed, type Message } from "../errors";
import { idList, pageWindow, type ListResult, type PageRequest, type SortRequest } from "../search";
import { isCalendarDate } from "./clock";
import { ticketNumber } from "./queries";

export const SALE_STATUSES = ["valid", "voided", "all"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

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

/** The days from `from` to `to`, both included (1 for the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
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
    else if (daysBetween(from, to) > MAX_RANGE_DAYS)
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
export function salesFilterQuery(filter: SalesFilter): Record<string, string> {
  const query: Record<string, string> = { from: filter.from, to: filter.to };
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
const inIds = (column: SQL | typeof sales.cafeId, ids: readonly number[] | ReadonlySet<number>) =>
  sql`${column} IN (SELECT value FROM json_each(${idList(ids)}))`;

/**
 * The WHERE of a filter over `sales` joined to `sale_lines`, scope included: the one definition every figure uses.
 * A query selects `FROM sale_lines JOIN sales ON sales.id = sale_lines.sale_id WHERE ${salesWhere(scope, filter)}`.
 * Ids of any number travel as one JSON value, so one filter's shape is one SQL text whatever its values.
 */
export function salesWhere(scope: Scope, filter: SalesFilter): SQL {
  const conditions: SQL[] = [
    sql`${sales.serviceDate} >= ${text(filter.from)}`,
    sql`${sales.serviceDate} <= ${text(filter.to)}`,
  ];
  if (!scope.all) conditions.push(inIds(sql`${sales.cafeId}`, scope.cafeIds));
  if (filter.cafeIds.length) conditions.push(inIds(sql`${sales.cafeId}`, filter.cafeIds));
  if (filter.dealershipId !== null) conditions.push(sql`${sales.dealershipId} = ${number(filter.dealershipId)}`);
  if (filter.subdealershipId !== null)
    conditions.push(sql`${sales.subdealershipId} = ${number(filter.subdealershipId)}`);
  if (filter.serviceIds.length) conditions.push(inIds(sql`${saleLines.serviceId}`, filter.serviceIds));
  if (filter.saleType !== null) conditions.push(sql`${sales.saleType} = ${text(filter.saleType)}`);
  if (filter.otherUnit !== null) conditions.push(sql`${sales.otherUnit} = ${number(filter.otherUnit ? 1 : 0)}`);
  if (filter.status === "valid") conditions.push(sql`${sales.voidedAt} IS NULL`);
  else if (filter.status === "voided") conditions.push(sql`${sales.voidedAt} IS NOT NULL`);
  return and(...conditions)!;
}

export interface SalesTotals {
  /** Sales (tickets) that count: not voided, with at least one line the filter shows. */
  sales: number;
  /** Their lines the filter shows, and the meals (quantities) of those lines. */
  lines: number;
  meals: number;
  /** Amounts of those lines, in cents: base + IGV = total for every line, so for the sums too. */
  baseCents: number;
  igvCents: number;
  totalCents: number;
  /** Voided sales that match the filter otherwise, and the amount of their lines: counted apart, never above. */
  voidedSales: number;
  voidedCents: number;
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

/** Everything a filter's totals need, in one pass over its lines (the status left aside, then applied). */
function aggregate(db: Db, scope: Scope, filter: SalesFilter): Aggregate {
  const valid = sql`${sales.voidedAt} IS NULL`;
  const row = db
    .select({
      sales: sql<number>`count(DISTINCT CASE WHEN ${valid} THEN ${saleLines.saleId} END)`,
      lines: sql<number>`count(CASE WHEN ${valid} THEN 1 END)`,
      meals: sql<number>`coalesce(sum(CASE WHEN ${valid} THEN ${saleLines.quantity} END), 0)`,
      baseCents: sql<number>`coalesce(sum(CASE WHEN ${valid} THEN ${saleLines.baseCents} END), 0)`,
      igvCents: sql<number>`coalesce(sum(CASE WHEN ${valid} THEN ${saleLines.igvCents} END), 0)`,
      totalCents: sql<number>`coalesce(sum(CASE WHEN ${valid} THEN ${saleLines.totalCents} END), 0)`,
      voidedSales: sql<number>`count(DISTINCT CASE WHEN NOT ${valid} THEN ${saleLines.saleId} END)`,
      voidedLines: sql<number>`count(CASE WHEN NOT ${valid} THEN 1 END)`,
      voidedCents: sql<number>`coalesce(sum(CASE WHEN NOT ${valid} THEN ${saleLines.totalCents} END), 0)`,
    })
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .where(salesWhere(scope, { ...filter, status: "all" }))
    .get()!;
  const { voidedLines, ...totals } = row;
  // Voided sales count nowhere: a filter that shows only them has nothing that counts, only what is counted apart.
  return { totals: filter.status === "voided" ? { ...NO_TOTALS, ...pick(totals) } : totals, voidedLines };
}

function pick(totals: SalesTotals): Pick<SalesTotals, "voidedSales" | "voidedCents"> {
  return { voidedSales: totals.voidedSales, voidedCents: totals.voidedCents };
}

/**
 * The totals of what a filter shows, over all its pages: sales, lines, meals and amounts of the sales that count
 * (none when the filter shows only voided sales), and apart the voided sales that match it otherwise.
 */
export function salesTotals(db: Db, scope: Scope, filter: SalesFilter): SalesTotals {
  return aggregate(db, scope, filter).totals;
}

/** One sale line as the Sales page and its export show it. */
export interface SalesLineRow {
  /** The line's id. */
  id: number;
  saleId: number;
  serviceDate: string;
  /** When it was sold (ISO), and the cafe's time zone to show the time in. */
  soldAt: string;
  timeZone: string;
  cafeId: number;
  cafeName: string;
  /** "T001-00000023". */
  ticket: string;
  dinerName: string;
  documentType: DocumentType;
  documentNumber: string;
  dealershipName: string | null;
  subdealershipName: string | null;
  subdealershipRuc: string | null;
  serviceId: number;
  serviceCode: string;
  serviceName: string;
  quantity: number;
  unitPriceCents: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
  saleType: SaleType;
  otherUnit: boolean;
  voided: boolean;
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
  type: [sql`${sales.saleType}`],
};

/**
 * ORDER BY of the lines: by date, newest first, by default (the service date, then the sale and the line, so that
 * an index of sales by date gives the first page without sorting everything); another column in the asked
 * direction, then by date. Sorting by date ascending turns the whole order round.
 */
function lineOrder(request: SortRequest): SQL[] {
  const byDate = (dir: typeof asc) => [dir(sales.serviceDate), dir(saleLines.saleId), dir(saleLines.id)];
  const sort = request.sort;
  if (!sort || sort === "date" || !Object.hasOwn(sortColumns, sort))
    return byDate(sort === "date" && request.direction === "asc" ? asc : desc);
  const dir = request.direction === "desc" ? desc : asc;
  return [...sortColumns[sort as keyof typeof sortColumns].map((column) => dir(column)), ...byDate(desc)];
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

/** The lines a filter shows, in an order, `limit` of them from `offset` (all of them with limit -1). */
function readLines(
  db: Db,
  scope: Scope,
  filter: SalesFilter,
  sort: SortRequest,
  window: { limit: number; offset: number },
): SalesLineRow[] {
  return db
    .select(lineSelection)
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .innerJoin(cafes, eq(cafes.id, sales.cafeId))
    .where(salesWhere(scope, filter))
    .orderBy(...lineOrder(sort))
    .limit(window.limit)
    .offset(window.offset)
    .all()
    .map(lineRow);
}

/**
 * One page of the lines a filter shows, sorted, with the totals of all its pages. The number of lines comes from the
 * same pass as the totals (the same WHERE), so the table's count and its totals cannot disagree.
 */
export function salesLinePage(
  db: Db,
  scope: Scope,
  filter: SalesFilter,
  page: PageRequest,
  sort: SortRequest = {},
): ListResult<SalesLineRow> & { totals: SalesTotals } {
  const { totals, voidedLines } = aggregate(db, scope, filter);
  const total =
    filter.status === "valid" ? totals.lines : filter.status === "voided" ? voidedLines : totals.lines + voidedLines;
  const window = pageWindow(total, page);
  const rows = total === 0 ? [] : readLines(db, scope, filter, sort, window);
  return { rows, total, page: window.page, totals };
}

/** Every line a filter shows, sorted (an export): at most `limit` of them. */
export function salesLines(
  db: Db,
  scope: Scope,
  filter: SalesFilter,
  sort: SortRequest = {},
  limit = -1,
): SalesLineRow[] {
  return readLines(db, scope, filter, sort, { limit, offset: 0 });
}

/** How many lines a filter shows (the rows of its export). */
export function countSalesLines(db: Db, scope: Scope, filter: SalesFilter): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(saleLines)
      .innerJoin(sales, eq(sales.id, saleLines.saleId))
      .where(salesWhere(scope, filter))
      .get()?.n ?? 0
  );
}

/** One sale of a duplicate group. */
export interface DuplicateSale {
  saleId: number;
  ticket: string;
  cafeId: number;
  cafeName: string;
  soldAt: string;
  timeZone: string;
  saleType: SaleType;
  otherUnit: boolean;
  quantity: number;
  totalCents: number;
}

/** A diner served one service more than once on one service date, with the sales involved (in the order sold). */
export interface DuplicateGroup {
  dinerId: number;
  dinerName: string;
  documentType: DocumentType;
  documentNumber: string;
  subdealershipName: string | null;
  serviceId: number;
  serviceCode: string;
  serviceName: string;
  serviceDate: string;
  /** Lines in the group (more than one), and their meals. */
  lines: number;
  meals: number;
  cafes: number;
  sales: DuplicateSale[];
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
  scope: Scope,
  filter: SalesFilter,
  limit = MAX_DUPLICATE_GROUPS,
): DuplicateGroup[] {
  const where = and(salesWhere(scope, { ...filter, status: "valid" }), sql`${saleLines.dinerId} IS NOT NULL`);
  const groups = db
    .select({
      dinerId: sql<number>`${saleLines.dinerId}`,
      serviceId: saleLines.serviceId,
      serviceDate: saleLines.serviceDate,
      lines: sql<number>`count(*)`,
      meals: sql<number>`sum(${saleLines.quantity})`,
      cafes: sql<number>`count(DISTINCT ${sales.cafeId})`,
    })
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .where(where)
    .groupBy(saleLines.dinerId, saleLines.serviceId, saleLines.serviceDate)
    .having(sql`count(*) > 1`)
    .orderBy(desc(saleLines.serviceDate), asc(saleLines.dinerId), asc(saleLines.serviceId))
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
        where,
        sql`(${saleLines.dinerId}, ${saleLines.serviceId}, ${saleLines.serviceDate}) IN (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${keys}))`,
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
  return [...byKey.values()];
}
