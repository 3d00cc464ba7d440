/**
 * The sales report workbook (issue 16): what a period's sales were and what each client company is billed, built on
 * the server from the one filter of the Sales page (`salesWhere`, scope included), voided sales left out and counted
 * apart. Sheets, in the person's language:
 *
 * - Report: the period, the filters, who made it and when, the totals, and the voided sales left out;
 * - Summary: subdealership × service, meals and amounts, with row and column totals;
 * - Daily: every date of the period × service, meals and amounts, with totals;
 * - Billing (valorización): per subdealership with its dealership, the credit sales — meals, base, IGV (the sum of
 *   the lines' IGV) and total — with other-unit meals and their surcharge over the list price shown apart; above its
 *   header, a note that it counts credit sales only and how it reconciles with the Summary (credit + cash + visitors);
 * - Detail: one row per sale line, continued on "Detail 2", "Detail 3"… past the format's 1,048,575 rows.
 *
 * Amounts are numbers in soles with a currency format, dates are dates, times are times, text is never a formula.
 * Summary, Daily and Billing are aggregated by SQLite; the detail is streamed from SQLite (`iterate()`) into the
 * streaming writer (xlsx-stream.ts), so memory stays flat however many lines there are. Everything is read from one
 * snapshot of the database (a read transaction on a connection of its own), so the sheets agree with each other to
 * the cent even while sales are being made.
 *
 *   const result = await writeSalesReport(db, scope, filter, "/path/report.xlsx", { locale: "es", ... });
 */
import { Database, type Statement } from "bun:sqlite";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import {
  cafes,
  dealerships,
  mines,
  saleLines,
  sales,
  SERVICE_TYPES,
  services,
  subdealerships,
  units,
} from "../../../db/schema";
import { BUSY_TIMEOUT_MS, drizzleOn, type Db } from "../../db";
import { intlLocale, translate, type Locale, type KeysUnder, type TranslationParams } from "../../shared/i18n";
import type { Scope } from "../access/scope";
import { requireFilterInScope, salesTotals, salesWhere, type SalesFilter, type SalesTotals } from "./report";
import {
  excelDate,
  excelTime,
  openXlsxStream,
  XLSX_MAX_ROWS,
  type XlsxCell,
  type XlsxColumn,
  type XlsxPreambleRow,
} from "./xlsx-stream";
import { datesBetween } from "../../shared/calendar";

/**
 * The zlib level of a report: 3 writes a month (333,526 lines) in about 1.5 s less than zlib's usual 6, for a file
 * about a third larger (11.7 MB against 8.7 MB; bench/README.md).
 */
export const REPORT_LEVEL = 3;
/** Detail rows a sheet holds below its header (the format's limit less the header). */
export const DETAIL_ROWS_PER_SHEET = XLSX_MAX_ROWS - 1;
/** Detail rows written between two progress reports and two pauses for the event loop (some 20 ms of work). */
const ROWS_PER_SLICE = 1_000;

/** One turn of the event loop: what a report waits between slices of its work. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The filter a report reads: its own, always without voided sales (they are counted apart). */
export function reportFilter(filter: SalesFilter): SalesFilter {
  return { ...filter, status: "valid" };
}

// ---------------------------------------------------------------------------------------------------------------
// A snapshot of the database

interface Snapshot {
  db: Db;
  /** A statement of the snapshot's connection that is its own (not one the connection keeps and shares). */
  prepare(text: string): Statement;
  close(): void;
}

/**
 * A connection of its own in a read transaction, so every sheet reads the same sales however long the report takes
 * (SQLite's WAL lets the app write meanwhile). A private in-memory database has no second connection: it is read
 * through its own, which only tests use.
 */
function openSnapshot(db: Db): Snapshot {
  const file = db.$client.filename;
  if (!file || file === ":memory:")
    return {
      db,
      prepare: (text) => Database.prototype.prepare.call(db.$client, text) as Statement,
      close() {},
    };
  const client = new Database(file, { readonly: true, strict: true });
  try {
    client.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    client.exec("BEGIN");
  } catch (error) {
    client.close();
    throw error;
  }
  return {
    db: drizzleOn(client),
    prepare: (text) => client.prepare(text),
    close() {
      try {
        client.exec("COMMIT");
      } finally {
        client.close();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Aggregates (in SQL, in cents)

/** Meals and amounts of one cell (a subdealership's or a date's service), in cents. */
export interface Amounts {
  meals: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
}

const NO_AMOUNTS: Amounts = { meals: 0, baseCents: 0, igvCents: 0, totalCents: 0 };

function add(into: Amounts, more: Amounts): Amounts {
  return {
    meals: into.meals + more.meals,
    baseCents: into.baseCents + more.baseCents,
    igvCents: into.igvCents + more.igvCents,
    totalCents: into.totalCents + more.totalCents,
  };
}

/** A service as a column of the report. */
export interface ReportService {
  id: number;
  code: string;
  name: string;
}

/** A subdealership's row of the Summary: its names as its latest sale of the period recorded them. */
export interface SummaryRow {
  subdealershipId: number | null;
  dealershipName: string | null;
  subdealershipName: string | null;
  subdealershipRuc: string | null;
  byService: Map<number, Amounts>;
  total: Amounts;
}

export interface DailyRow {
  date: string;
  byService: Map<number, Amounts>;
  total: Amounts;
}

/** A subdealership's billing: its credit sales of the period. */
export interface BillingRow {
  subdealershipId: number;
  dealershipName: string | null;
  dealershipRuc: string | null;
  subdealershipName: string | null;
  subdealershipRuc: string | null;
  meals: number;
  /** What the meals cost at the cafes' list prices, and what other-unit sales added on top (IGV included). */
  listCents: number;
  otherUnitMeals: number;
  surchargeCents: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
}

export interface ReportData {
  filter: SalesFilter;
  totals: SalesTotals;
  services: ReportService[];
  summary: SummaryRow[];
  daily: DailyRow[];
  billing: BillingRow[];
  /**
   * How the Billing reconciles with the Summary: its credit sales, the cash sales of registered diners (paid at the
   * till, not billed) and the visitors' (cash, without a subdealership) add up to the Summary's total.
   */
  parts: { credit: Amounts; cash: Amounts; visitors: Amounts };
}

const amountColumns = {
  meals: sql<number>`coalesce(sum(${saleLines.quantity}), 0)`,
  baseCents: sql<number>`coalesce(sum(${saleLines.baseCents}), 0)`,
  igvCents: sql<number>`coalesce(sum(${saleLines.igvCents}), 0)`,
  totalCents: sql<number>`coalesce(sum(${saleLines.totalCents}), 0)`,
};

function amountsOf(row: Amounts): Amounts {
  return { meals: row.meals, baseCents: row.baseCents, igvCents: row.igvCents, totalCents: row.totalCents };
}

/** Sorts text the way the person's language does, empty last. */
function byText(locale: Locale) {
  const collator = new Intl.Collator(intlLocale[locale], { sensitivity: "base", numeric: true });
  return (a: string | null, b: string | null) =>
    a === b ? 0 : a === null || a === "" ? 1 : b === null || b === "" ? -1 : collator.compare(a, b);
}

/** One group of a day's lines: a subdealership's (null: visitors) service, sale type and other-unit mark. */
function dayGroups(db: Db, scope: Scope, day: SalesFilter) {
  // The names come from the latest sale of each group (SQLite takes the bare columns of an aggregate query from the
  // row of its one max()); a subdealership is named as its latest sale of the period named it.
  return db
    .select({
      subdealershipId: sales.subdealershipId,
      date: sales.serviceDate,
      serviceId: saleLines.serviceId,
      saleType: sales.saleType,
      otherUnit: sql<number>`${sales.otherUnit}`,
      ...amountColumns,
      listCents: sql<number>`coalesce(sum(${saleLines.listPriceCents} * ${saleLines.quantity}), 0)`,
      latest: sql<number>`max(${sales.id})`,
      dealershipName: sales.dealershipName,
      dealershipRuc: sales.dealershipRuc,
      subdealershipName: sales.subdealershipName,
      subdealershipRuc: sales.subdealershipRuc,
    })
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .where(salesWhere(scope, day))
    .groupBy(sales.subdealershipId, saleLines.serviceId, sales.saleType, sales.otherUnit)
    .all();
}

/**
 * Everything but the detail, read in SQL from one database (a snapshot) for one filter: the totals (`salesTotals`,
 * the one definition), and the lines grouped by subdealership, service, sale type and other unit, day by day, from
 * which the Summary, the Daily sheet and the Billing are added up. Day by day, so that no query holds the process
 * for long (a report is made beside the point of sale): `pause` runs between days.
 */
export async function reportData(
  db: Db,
  scope: Scope,
  filter: SalesFilter,
  locale: Locale = "es",
  pause: () => Promise<void> = nextTurn,
): Promise<ReportData> {
  const totals = salesTotals(db, scope, reportFilter(filter));
  const groups: ReturnType<typeof dayGroups> = [];
  for (const date of datesBetween(filter.from, filter.to)) {
    await pause();
    for (const group of dayGroups(db, scope, { ...reportFilter(filter), from: date, to: date })) groups.push(group);
  }

  const serviceIds = [...new Set(groups.map((g) => g.serviceId))];
  const typeOrder = (type: string) => SERVICE_TYPES.indexOf(type as (typeof SERVICE_TYPES)[number]);
  const reportServices = serviceIds.length
    ? db
        .select({ id: services.id, code: services.code, name: services.name, type: services.type })
        .from(services)
        .where(inArray(services.id, serviceIds))
        .all()
        .sort((a, b) => typeOrder(a.type) - typeOrder(b.type) || a.code.localeCompare(b.code))
        .map(({ id, code, name }) => ({ id, code, name }))
    : [];

  type Named = Pick<SummaryRow, "dealershipName" | "subdealershipName" | "subdealershipRuc"> & {
    dealershipRuc: string | null;
    latest: number;
  };
  const names = new Map<number | null, Named>();
  const summaryRows = new Map<number | null, SummaryRow>();
  const byDate = new Map<string, DailyRow>();
  for (const date of datesBetween(filter.from, filter.to))
    byDate.set(date, { date, byService: new Map(), total: NO_AMOUNTS });
  const billed = new Map<number, Omit<BillingRow, keyof Named | "subdealershipId">>();
  const parts = { credit: NO_AMOUNTS, cash: NO_AMOUNTS, visitors: NO_AMOUNTS };
  const addTo = (byService: Map<number, Amounts>, serviceId: number, amounts: Amounts) =>
    byService.set(serviceId, add(byService.get(serviceId) ?? NO_AMOUNTS, amounts));

  for (const group of groups) {
    const sub = group.subdealershipId;
    const known = names.get(sub);
    if (!known || group.latest > known.latest)
      names.set(sub, {
        dealershipName: group.dealershipName,
        dealershipRuc: group.dealershipRuc,
        subdealershipName: group.subdealershipName,
        subdealershipRuc: group.subdealershipRuc,
        latest: group.latest,
      });
    const amounts = amountsOf(group);
    let row = summaryRows.get(sub);
    if (!row)
      summaryRows.set(
        sub,
        (row = {
          subdealershipId: sub,
          dealershipName: null,
          subdealershipName: null,
          subdealershipRuc: null,
          byService: new Map(),
          total: NO_AMOUNTS,
        }),
      );
    addTo(row.byService, group.serviceId, amounts);
    row.total = add(row.total, amounts);
    const day = byDate.get(group.date);
    if (day) {
      addTo(day.byService, group.serviceId, amounts);
      day.total = add(day.total, amounts);
    }
    if (sub === null) parts.visitors = add(parts.visitors, amounts);
    else if (group.saleType === "credit") parts.credit = add(parts.credit, amounts);
    else parts.cash = add(parts.cash, amounts);
    // Billing: the credit sales (a credit sale always has its diner's subdealership).
    if (group.saleType !== "credit" || sub === null) continue;
    const bill = billed.get(sub) ?? {
      meals: 0,
      listCents: 0,
      otherUnitMeals: 0,
      surchargeCents: 0,
      baseCents: 0,
      igvCents: 0,
      totalCents: 0,
    };
    bill.meals += group.meals;
    bill.listCents += group.listCents;
    bill.baseCents += group.baseCents;
    bill.igvCents += group.igvCents;
    bill.totalCents += group.totalCents;
    if (group.otherUnit) {
      bill.otherUnitMeals += group.meals;
      bill.surchargeCents += group.totalCents - group.listCents;
    }
    billed.set(sub, bill);
  }

  const text = byText(locale);
  const named = <T extends { subdealershipId: number | null }>(row: T) => {
    const { latest: _latest, ...found } = names.get(row.subdealershipId)!;
    return { ...row, ...found };
  };
  const summary = [...summaryRows.values()]
    .map((row) => {
      const { dealershipRuc: _ruc, ...withNames } = named(row);
      return withNames;
    })
    .sort(
      (a, b) =>
        Number(a.subdealershipId === null) - Number(b.subdealershipId === null) ||
        text(a.dealershipName, b.dealershipName) ||
        text(a.subdealershipName, b.subdealershipName),
    );
  const billing = [...billed.entries()]
    .map(([subdealershipId, bill]) => named({ subdealershipId, ...bill }))
    .sort((a, b) => text(a.dealershipName, b.dealershipName) || text(a.subdealershipName, b.subdealershipName));

  return { filter, totals, services: reportServices, summary, daily: [...byDate.values()], billing, parts };
}

// ---------------------------------------------------------------------------------------------------------------
// The detail, streamed

/** One sale line of the Detail sheet as SQLite gives it. */
interface DetailRecord {
  serviceDate: string;
  soldAt: number;
  timeZone: string;
  cafe: string;
  unit: string;
  mine: string;
  series: string;
  number: number;
  dealership: string | null;
  subdealership: string | null;
  ruc: string | null;
  documentType: string;
  document: string;
  diner: string;
  service: string;
  quantity: number;
  unitPriceCents: number;
  baseCents: number;
  igvCents: number;
  totalCents: number;
  otherUnit: number;
  saleType: string;
}

/**
 * The detail's statement: every line the filter shows, by service date, then sale, then line. Written by hand for
 * its column names (drizzle's select would name two columns "name"); its WHERE is salesWhere's.
 */
function detailQuery(scope: Scope, filter: SalesFilter): { sql: string; params: unknown[] } {
  const query = sql`SELECT ${sales.serviceDate} AS serviceDate, ${sales.soldAt} AS soldAt, ${cafes.timeZone} AS timeZone,
      ${sales.cafeName} AS cafe, ${units.name} AS unit, ${mines.name} AS mine,
      ${sales.series} AS series, ${sales.number} AS number, ${sales.dealershipName} AS dealership,
      ${sales.subdealershipName} AS subdealership, ${sales.subdealershipRuc} AS ruc,
      ${sales.documentType} AS documentType, ${sales.documentNumber} AS document, ${sales.dinerName} AS diner,
      ${saleLines.serviceName} AS service, ${saleLines.quantity} AS quantity,
      ${saleLines.unitPriceCents} AS unitPriceCents, ${saleLines.baseCents} AS baseCents,
      ${saleLines.igvCents} AS igvCents, ${saleLines.totalCents} AS totalCents,
      ${sales.otherUnit} AS otherUnit, ${sales.saleType} AS saleType
    FROM ${saleLines}
    JOIN ${sales} ON ${sales.id} = ${saleLines.saleId}
    JOIN ${cafes} ON ${cafes.id} = ${sales.cafeId}
    JOIN ${units} ON ${units.id} = ${cafes.unitId}
    JOIN ${mines} ON ${mines.id} = ${units.mineId}
    WHERE ${salesWhere(scope, reportFilter(filter))}
    ORDER BY ${sales.serviceDate}, ${sales.id}, ${saleLines.id}`;
  return new SQLiteSyncDialect().sqlToQuery(query);
}

/**
 * Seconds after midnight at a moment in a time zone. Intl is asked once per zone and quarter of an hour (offsets
 * change on such boundaries), not once per line.
 */
function clockReader(): (ms: number, timeZone: string) => number {
  const QUARTER = 900_000;
  const offsets = new Map<string, Map<number, number>>();
  const formats = new Map<string, Intl.DateTimeFormat>();
  return (ms, timeZone) => {
    let zone = offsets.get(timeZone);
    if (!zone) offsets.set(timeZone, (zone = new Map()));
    const quarter = Math.floor(ms / QUARTER);
    let offset = zone.get(quarter);
    if (offset === undefined) {
      let format = formats.get(timeZone);
      if (!format)
        formats.set(
          timeZone,
          (format = new Intl.DateTimeFormat("en-US", {
            timeZone,
            hourCycle: "h23",
            year: "numeric",
            month: "numeric",
            day: "numeric",
            hour: "numeric",
            minute: "numeric",
            second: "numeric",
          })),
        );
      const at = quarter * QUARTER;
      const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
      const local = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
      zone.set(quarter, (offset = local - at));
    }
    const local = ms + offset;
    return Math.floor((((local % 86_400_000) + 86_400_000) % 86_400_000) / 1000);
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

export interface ReportOptions {
  locale: Locale;
  /** When it was made and by whom (the Report sheet), shown in `timeZone`. */
  generatedAt?: Date;
  generatedBy: string;
  timeZone: string;
  /** Detail rows written of all of them, reported every few thousand rows. */
  progress?: (done: number, total: number) => void;
  /** Called between slices of rows, so a server keeps answering meanwhile (by default: one turn of the event loop). */
  pause?: () => Promise<void>;
  /** Detail rows per sheet (the format's limit by default; tests use fewer). */
  detailRowsPerSheet?: number;
  /** zlib level of the file (REPORT_LEVEL by default). */
  level?: number;
}

/** What a report holds: its totals, its billing's, its sheets and its size. */
export interface ReportSummary {
  totals: SalesTotals;
  billing: {
    subdealerships: number;
    meals: number;
    listCents: number;
    otherUnitMeals: number;
    surchargeCents: number;
    baseCents: number;
    igvCents: number;
    totalCents: number;
  };
  /** Detail lines written. */
  lines: number;
  sheets: string[];
  bytes: number;
}

const soles = (cents: number) => cents / 100;

/** The file name a report is downloaded as: `mesa-ventas-2026-11-01-2026-11-30.xlsx`. */
export function reportFileName(filter: SalesFilter, locale: Locale): string {
  return `mesa-${translate(locale, "reports.file_name")}-${filter.from}-${filter.to}.xlsx`;
}

/** Names of the ids a filter names, for the Report sheet. */
function filterNames(db: Db, filter: SalesFilter) {
  const names = <T extends { name: string }>(rows: T[]) => rows.map((r) => r.name).join(", ");
  return {
    cafes: filter.cafeIds.length
      ? names(
          db
            .select({ name: cafes.name })
            .from(cafes)
            .where(inArray(cafes.id, filter.cafeIds))
            .orderBy(asc(cafes.name))
            .all(),
        )
      : null,
    dealership:
      filter.dealershipId === null
        ? null
        : (db.select({ name: dealerships.name }).from(dealerships).where(eq(dealerships.id, filter.dealershipId)).get()
            ?.name ?? `#${filter.dealershipId}`),
    subdealership:
      filter.subdealershipId === null
        ? null
        : (db
            .select({ name: subdealerships.name })
            .from(subdealerships)
            .where(eq(subdealerships.id, filter.subdealershipId))
            .get()?.name ?? `#${filter.subdealershipId}`),
    services: filter.serviceIds.length
      ? names(
          db
            .select({ name: services.name })
            .from(services)
            .where(inArray(services.id, filter.serviceIds))
            .orderBy(asc(services.code))
            .all(),
        )
      : null,
  };
}

/**
 * Writes the report of `filter` (as `scope` sees it) to `path`, an .xlsx file, and returns its totals. The file is
 * deleted when anything fails.
 */
export async function writeSalesReport(
  db: Db,
  scope: Scope,
  filter: SalesFilter,
  path: string,
  options: ReportOptions,
): Promise<ReportSummary> {
  const { locale } = options;
  const t: Translate = (key, params) => translate(locale, `reports.${key}`, params);
  const pause = options.pause ?? nextTurn;
  const perSheet = Math.max(1, Math.min(options.detailRowsPerSheet ?? DETAIL_ROWS_PER_SHEET, DETAIL_ROWS_PER_SHEET));
  const snapshot = openSnapshot(db);
  const book = openXlsxStream(path, {
    dateFormat: locale === "es" ? "dd/mm/yyyy" : "yyyy-mm-dd",
    currency: "S/",
    level: options.level ?? REPORT_LEVEL,
  });
  try {
    // Names on the Report sheet are only of what the person may read.
    requireFilterInScope(snapshot.db, scope, filter);
    const data = await reportData(snapshot.db, scope, filter, locale, pause);
    const total = data.totals.lines;
    options.progress?.(0, total);
    writeReportSheet(book, data, filterNames(snapshot.db, filter), options, t);
    writeSummarySheet(book, data, t);
    writeDailySheet(book, data, t);
    const billing = writeBillingSheet(book, data, t);
    await pause();
    const detailSheets = await writeDetail(book, snapshot, scope, filter, total, perSheet, options, pause, t);
    const bytes = book.close();
    const summarySheets = [t("sheets.report"), t("sheets.summary"), t("sheets.daily"), t("sheets.billing")];
    return { totals: data.totals, billing, lines: total, sheets: [...summarySheets, ...detailSheets], bytes };
  } catch (error) {
    book.abort();
    throw error;
  } finally {
    snapshot.close();
  }
}

/** The report's words: keys under "reports." (without it). */
type Translate = (key: KeysUnder<"reports">, params?: TranslationParams) => string;
type Book = ReturnType<typeof openXlsxStream>;

function writeReportSheet(
  book: Book,
  data: ReportData,
  names: ReturnType<typeof filterNames>,
  options: ReportOptions,
  t: Translate,
): void {
  const { filter, totals } = data;
  const intl = intlLocale[options.locale];
  const day = (date: string) =>
    new Intl.DateTimeFormat(intl, { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${date}T12:00:00Z`),
    );
  const at = new Intl.DateTimeFormat(intl, {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: options.timeZone,
  }).format(options.generatedAt ?? new Date());
  book.startSheet(t("sheets.report"), [
    { header: t("columns.concept"), width: 34 },
    { header: t("columns.value"), width: 44, format: "integer" },
    { header: t("columns.amount"), width: 16, format: "money" },
  ]);
  const rows: XlsxCell[][] = [
    [t("filter_period"), `${day(filter.from)} – ${day(filter.to)}`, null],
    // A filter left open reads as the dialog says it ("Todas las concesionarias"), never a bare "Todos".
    [t("filter_cafes"), names.cafes ?? t("dialog.all_cafes"), null],
    [t("filter_dealership"), names.dealership ?? t("dialog.all_dealerships"), null],
    [t("filter_subdealership"), names.subdealership ?? t("dialog.all_subdealerships"), null],
    [t("filter_services"), names.services ?? t("dialog.all_services"), null],
    [t("filter_sale_type"), filter.saleType ? t(`sale_types.${filter.saleType}`) : t("dialog.all_sale_types"), null],
    [
      t("filter_other_unit"),
      filter.otherUnit === null ? t("dialog.other_unit_any") : filter.otherUnit ? t("yes") : t("no"),
      null,
    ],
    [t("generated_at"), at, null],
    [t("generated_by"), options.generatedBy, null],
    [t("totals_sales"), totals.sales, null],
    [t("totals_lines"), totals.lines, null],
    [t("totals_meals"), totals.meals, null],
    [t("columns.base"), null, soles(totals.baseCents)],
    [t("columns.igv"), null, soles(totals.igvCents)],
    [t("columns.total"), null, soles(totals.totalCents)],
    [t("voided_left_out"), totals.voidedSales, soles(totals.voidedCents)],
  ];
  for (const row of rows) book.row(row);
}

/** A width that fits the longest text of a column (within bounds). */
function fit(texts: (string | null)[], header: string, min = 10, max = 48): number {
  const longest = texts.reduce((n, text) => Math.max(n, text?.length ?? 0), header.length);
  return Math.max(min, Math.min(max, longest + 2));
}

function serviceColumns(data: ReportData, t: Translate): XlsxColumn[] {
  return data.services.flatMap((service) => [
    {
      header: t("columns.service_meals", { service: service.name }),
      width: fit([], t("columns.service_meals", { service: service.name }), 10, 24),
      format: "integer" as const,
    },
    {
      header: t("columns.service_amount", { service: service.name }),
      width: fit([], t("columns.service_amount", { service: service.name }), 12, 26),
      format: "money" as const,
    },
  ]);
}

const totalColumns = (t: Translate): XlsxColumn[] => [
  { header: t("columns.meals"), width: 10, format: "integer" },
  { header: t("columns.base"), width: 15, format: "money" },
  { header: t("columns.igv"), width: 14, format: "money" },
  { header: t("columns.total"), width: 15, format: "money" },
];

function serviceCells(data: ReportData, byService: Map<number, Amounts>): XlsxCell[] {
  return data.services.flatMap((service) => {
    const amounts = byService.get(service.id) ?? NO_AMOUNTS;
    return [amounts.meals, soles(amounts.totalCents)];
  });
}

const totalCells = (amounts: Amounts): XlsxCell[] => [
  amounts.meals,
  soles(amounts.baseCents),
  soles(amounts.igvCents),
  soles(amounts.totalCents),
];

/** The column totals of rows by service. */
function columnTotals(data: ReportData, rows: { byService: Map<number, Amounts>; total: Amounts }[]) {
  const byService = new Map<number, Amounts>();
  let total = NO_AMOUNTS;
  for (const row of rows) {
    for (const [id, amounts] of row.byService) byService.set(id, add(byService.get(id) ?? NO_AMOUNTS, amounts));
    total = add(total, row.total);
  }
  return { byService, total };
}

function writeSummarySheet(book: Book, data: ReportData, t: Translate): void {
  const none = t("no_subdealership");
  book.startSheet(t("sheets.summary"), [
    {
      header: t("columns.dealership"),
      width: fit(
        data.summary.map((r) => r.dealershipName),
        t("columns.dealership"),
      ),
    },
    {
      header: t("columns.subdealership"),
      width: fit(
        data.summary.map((r) => r.subdealershipName ?? none),
        t("columns.subdealership"),
      ),
    },
    { header: t("columns.ruc"), width: 13 },
    ...serviceColumns(data, t),
    ...totalColumns(t),
  ]);
  for (const row of data.summary)
    book.row([
      row.dealershipName,
      row.subdealershipId === null ? none : row.subdealershipName,
      row.subdealershipRuc,
      ...serviceCells(data, row.byService),
      ...totalCells(row.total),
    ]);
  const totals = columnTotals(data, data.summary);
  book.row([t("total"), null, null, ...serviceCells(data, totals.byService), ...totalCells(totals.total)], {
    bold: true,
  });
}

function writeDailySheet(book: Book, data: ReportData, t: Translate): void {
  book.startSheet(t("sheets.daily"), [
    { header: t("columns.date"), width: 12, format: "date" },
    ...serviceColumns(data, t),
    ...totalColumns(t),
  ]);
  for (const row of data.daily)
    book.row([excelDate(row.date), ...serviceCells(data, row.byService), ...totalCells(row.total)]);
  const totals = columnTotals(data, data.daily);
  book.row([t("total"), ...serviceCells(data, totals.byService), ...totalCells(totals.total)], { bold: true });
}

/**
 * The Billing sheet's note above its header: it counts credit sales only, and how it reconciles with the Summary
 * (credit + cash of registered diners + visitors = the Summary's total), meals in the meals column and amounts in
 * the total column.
 */
export const BILLING_PREAMBLE_ROWS = 6;

function billingPreamble(data: ReportData, t: Translate): XlsxPreambleRow[] {
  const { credit, cash, visitors } = data.parts;
  const line = (label: string, amounts: Amounts, bold = false): XlsxPreambleRow => ({
    cells: [label, null, null, null, amounts.meals, null, null, null, null, null, soles(amounts.totalCents)],
    bold,
  });
  const rows = [
    { cells: [t("billing.credit_only")], bold: true },
    line(t("billing.credit"), credit),
    line(t("billing.cash"), cash),
    line(t("billing.visitors"), visitors),
    line(t("billing.summary_total"), add(add(credit, cash), visitors), true),
    { cells: [] },
  ];
  if (rows.length !== BILLING_PREAMBLE_ROWS) throw new Error("BILLING_PREAMBLE_ROWS is out of date");
  return rows;
}

function writeBillingSheet(book: Book, data: ReportData, t: Translate): ReportSummary["billing"] {
  const rows = data.billing;
  book.startSheet(
    t("sheets.billing"),
    [
      {
        header: t("columns.dealership"),
        width: fit(
          rows.map((r) => r.dealershipName),
          t("columns.dealership"),
        ),
      },
      { header: t("columns.dealership_ruc"), width: 13 },
      {
        header: t("columns.subdealership"),
        width: fit(
          rows.map((r) => r.subdealershipName),
          t("columns.subdealership"),
        ),
      },
      { header: t("columns.ruc"), width: 13 },
      { header: t("columns.meals"), width: 10, format: "integer" },
      { header: t("columns.at_list_price"), width: 16, format: "money" },
      { header: t("columns.other_unit_meals"), width: 14, format: "integer" },
      { header: t("columns.surcharge"), width: 18, format: "money" },
      { header: t("columns.base"), width: 15, format: "money" },
      { header: t("columns.igv"), width: 14, format: "money" },
      { header: t("columns.total"), width: 15, format: "money" },
    ],
    { preamble: billingPreamble(data, t) },
  );
  const sum = {
    subdealerships: rows.length,
    meals: 0,
    listCents: 0,
    otherUnitMeals: 0,
    surchargeCents: 0,
    baseCents: 0,
    igvCents: 0,
    totalCents: 0,
  };
  for (const row of rows) {
    book.row([
      row.dealershipName,
      row.dealershipRuc,
      row.subdealershipName,
      row.subdealershipRuc,
      row.meals,
      soles(row.listCents),
      row.otherUnitMeals,
      soles(row.surchargeCents),
      soles(row.baseCents),
      soles(row.igvCents),
      soles(row.totalCents),
    ]);
    for (const key of [
      "meals",
      "listCents",
      "otherUnitMeals",
      "surchargeCents",
      "baseCents",
      "igvCents",
      "totalCents",
    ] as const)
      sum[key] += row[key];
  }
  book.row(
    [
      t("total"),
      null,
      null,
      null,
      sum.meals,
      soles(sum.listCents),
      sum.otherUnitMeals,
      soles(sum.surchargeCents),
      soles(sum.baseCents),
      soles(sum.igvCents),
      soles(sum.totalCents),
    ],
    { bold: true },
  );
  return sum;
}

function detailColumns(t: Translate): XlsxColumn[] {
  return [
    { header: t("columns.date"), width: 11, format: "date" },
    { header: t("columns.time"), width: 7, format: "time" },
    { header: t("columns.cafe"), width: 24 },
    { header: t("columns.unit"), width: 20 },
    { header: t("columns.mine"), width: 20 },
    { header: t("columns.ticket"), width: 15, unique: true },
    { header: t("columns.dealership"), width: 28 },
    { header: t("columns.subdealership"), width: 28 },
    { header: t("columns.ruc"), width: 13 },
    { header: t("columns.document_type"), width: 8 },
    { header: t("columns.document"), width: 13 },
    { header: t("columns.diner"), width: 32 },
    { header: t("columns.service"), width: 16 },
    { header: t("columns.quantity"), width: 9, format: "integer" },
    { header: t("columns.unit_price"), width: 13, format: "money" },
    { header: t("columns.base"), width: 13, format: "money" },
    { header: t("columns.igv"), width: 12, format: "money" },
    { header: t("columns.total"), width: 13, format: "money" },
    { header: t("columns.other_unit"), width: 11 },
    { header: t("columns.sale_type"), width: 11 },
  ];
}

/** Streams the detail into as many sheets as it needs; returns their names. */
async function writeDetail(
  book: Book,
  snapshot: Snapshot,
  scope: Scope,
  filter: SalesFilter,
  total: number,
  perSheet: number,
  options: ReportOptions,
  pause: () => Promise<void>,
  t: Translate,
): Promise<string[]> {
  const columns = detailColumns(t);
  const sheets = [book.startSheet(t("sheets.detail"), columns)];
  const yes = t("yes");
  const no = t("no");
  const saleTypes: Record<string, string> = { credit: t("sale_types.credit"), cash: t("sale_types.cash") };
  const dates = new Map<string, number>();
  const clock = clockReader();
  const tickets = (series: string, number: number) => `${series}-${String(number).padStart(8, "0")}`;
  const query = detailQuery(scope, filter);
  const statement = snapshot.prepare(query.sql);
  let written = 0;
  let inSheet = 0;
  try {
    for (const line of statement.iterate(...(query.params as never[])) as IterableIterator<DetailRecord>) {
      if (inSheet === perSheet) {
        sheets.push(book.startSheet(t("sheets.detail_more", { n: sheets.length + 1 }), columns));
        inSheet = 0;
      }
      let date = dates.get(line.serviceDate);
      if (date === undefined) dates.set(line.serviceDate, (date = excelDate(line.serviceDate)));
      book.row([
        date,
        excelTime(clock(line.soldAt, line.timeZone)),
        line.cafe,
        line.unit,
        line.mine,
        tickets(line.series, line.number),
        line.dealership,
        line.subdealership,
        line.ruc,
        line.documentType.toUpperCase(),
        line.document,
        line.diner,
        line.service,
        line.quantity,
        soles(line.unitPriceCents),
        soles(line.baseCents),
        soles(line.igvCents),
        soles(line.totalCents),
        line.otherUnit ? yes : no,
        saleTypes[line.saleType] ?? line.saleType,
      ]);
      written++;
      inSheet++;
      if (written % ROWS_PER_SLICE === 0) {
        options.progress?.(written, total);
        await pause();
      }
    }
  } finally {
    statement.finalize();
  }
  options.progress?.(written, Math.max(total, written));
  return sheets;
}
