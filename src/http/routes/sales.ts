/**
 * The Sales page: every sale line of the person's cafes, filtered, sorted and paged on the server, with the totals of
 * what the filter shows (src/domain/sales/report.ts); its export to Excel with the same filter and order; and its
 * Duplicates tab (diners served one service more than once on one service date); and its Closed months tab, which
 * lists the closed months of the person's cafes and posts to the period routes (src/http/routes/periods.ts). The
 * filter travels in the query string (parseSalesFilter), so a page, its export and a link to it show the same lines.
 */
import { ValidationFailed } from "../../domain/errors";
import { type Message } from "../../shared/message";
import { intlLocale } from "../../shared/i18n";
import { can } from "../../domain/access/authorization";
import { dateIn } from "../../shared/calendar";
import { listClosedPeriods } from "../../domain/sales/periods";
import {
  countSalesLines,
  duplicateMealsShown,
  MAX_RANGE_DAYS,
  parseSalesFilter,
  requireFilterInScope,
  salesFilterOptions,
  salesFilterQuery,
  salesLinePage,
  salesLines,
  SALES_LINE_SORTS,
  type SalesFilter,
  type SalesLineRow,
} from "../../domain/sales/report";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { listParams, paginated, sortParams } from "../pagination";
import { access, defineRoutes, type RouteDefinition } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";
import { SOLES_FORMAT, solesAmount } from "../../shared/money";

/** Lines per page of the table. */
const LINES_PER_PAGE = 25;
/** The most lines one export writes: past it, the report (a background job) builds the workbook. */
export const EXPORT_MAX_LINES = 20_000;

export const SALES_TABS = ["lines", "duplicates", "periods"] as const;
export type SalesTab = (typeof SALES_TABS)[number];

/** The filter of the query string, or the default one with a message per field that could not be read. */
function filterOf(ctx: RequestContext): { filter: SalesFilter; errors: Record<string, string> } {
  const today = dateIn(ctx.config.timezone);
  try {
    return { filter: parseSalesFilter(ctx.query, today), errors: {} };
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const errors: Record<string, string> = {};
    for (const [field, problem] of Object.entries(error.errors)) errors[field] = ctx.say(problem as Message);
    // The fields that can be read still filter; the others are left out.
    const readable = Object.fromEntries(Object.entries(ctx.query).filter(([field]) => !(field in error.errors)));
    // A range refused as a whole (backwards, too long) falls back to the default range.
    if (errors.to || errors.from) {
      delete readable.from;
      delete readable.to;
    }
    return { filter: parseSalesFilter(readable, today), errors };
  }
}

/** The sort of the query string, among the table's columns. */
function sortOf(ctx: RequestContext) {
  const sort = sortParams(ctx.query);
  return SALES_LINE_SORTS.includes(sort.sort as never) ? sort : { sort: null, direction: "desc" as const };
}

// Excel counts days from 1899-12-30; a date is a whole number of days, a time of day its fraction.
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/** "2026-11-22" → the Excel serial of that day. */
function excelDate(date: string): number {
  const [year, month, day] = date.split("-").map(Number);
  return (Date.UTC(year, month - 1, day) - EXCEL_EPOCH) / DAY_MS;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** An instant as the Excel serial of the date and time a clock in `timeZone` showed then. */
function excelDateTime(iso: string, timeZone: string): number {
  let format = wallClocks.get(timeZone);
  if (!format)
    wallClocks.set(
      timeZone,
      (format = new Intl.DateTimeFormat("en-GB", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      })),
    );
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return (wall - EXCEL_EPOCH) / DAY_MS;
}

function lineColumns(ctx: RequestContext): ExportColumn<SalesLineRow>[] {
  return [
    {
      header: ctx.t("sales.page.columns.date"),
      value: (r) => excelDate(r.serviceDate),
      format: "yyyy-mm-dd",
      width: 12,
    },
    {
      header: ctx.t("sales.page.columns.sold_at"),
      value: (r) => excelDateTime(r.soldAt, r.timeZone),
      format: "yyyy-mm-dd hh:mm",
      width: 17,
    },
    { header: ctx.t("sales.page.columns.cafe"), value: (r) => r.cafeName, width: 24 },
    { header: ctx.t("sales.page.columns.ticket"), value: (r) => r.ticket, width: 16 },
    { header: ctx.t("sales.page.columns.diner"), value: (r) => r.dinerName, width: 30 },
    {
      header: ctx.t("sales.page.columns.document_type"),
      value: (r) => ctx.t(`documents.${r.documentType}`),
      width: 8,
    },
    { header: ctx.t("sales.page.columns.document"), value: (r) => r.documentNumber, width: 14 },
    { header: ctx.t("sales.page.columns.dealership"), value: (r) => r.dealershipName, width: 24 },
    { header: ctx.t("sales.page.columns.subdealership"), value: (r) => r.subdealershipName, width: 24 },
    { header: ctx.t("sales.page.columns.subdealership_ruc"), value: (r) => r.subdealershipRuc, width: 13 },
    { header: ctx.t("sales.page.columns.service_code"), value: (r) => r.serviceCode, width: 8 },
    { header: ctx.t("sales.page.columns.service"), value: (r) => r.serviceName, width: 18 },
    { header: ctx.t("sales.page.columns.quantity"), value: (r) => r.quantity, format: "0", width: 8 },
    {
      header: ctx.t("sales.page.columns.unit_price"),
      value: (r) => solesAmount(r.unitPriceCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    {
      header: ctx.t("sales.page.columns.base"),
      value: (r) => solesAmount(r.baseCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    { header: ctx.t("sales.page.columns.igv"), value: (r) => solesAmount(r.igvCents), format: SOLES_FORMAT, width: 11 },
    {
      header: ctx.t("sales.page.columns.total"),
      value: (r) => solesAmount(r.totalCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    { header: ctx.t("sales.page.columns.type"), value: (r) => ctx.t(`sales.types.${r.saleType}`), width: 10 },
    {
      header: ctx.t("sales.page.columns.other_unit"),
      value: (r) => ctx.t(r.otherUnit ? "sales.page.yes" : "sales.page.no"),
      width: 11,
    },
    {
      header: ctx.t("sales.page.columns.status"),
      value: (r) => ctx.t(r.voided ? "sales.page.status.voided" : "sales.page.status.valid"),
      width: 10,
    },
  ];
}

/** The Sales page on one of its tabs: the lines with their totals, or the duplicates. */
function salesPage(ctx: RequestContext, tab: SalesTab) {
  const { filter, errors } = filterOf(ctx);
  // A cafe outside the person's scope, or an id of nothing, is not found, as on the report's routes.
  requireFilterInScope(ctx.db, ctx.scope, filter);
  const sort = sortOf(ctx);
  const params = listParams(ctx.query, "", LINES_PER_PAGE);
  return ctx.render("sales/index", {
    tab,
    filters: { ...salesFilterQuery(filter), ...sort },
    filterErrors: errors,
    today: dateIn(ctx.config.timezone),
    maxRangeDays: MAX_RANGE_DAYS,
    exportMaxLines: EXPORT_MAX_LINES,
    options: () => salesFilterOptions(ctx.db, ctx.scope),
    lines: () => {
      if (tab !== "lines") return null;
      const result = salesLinePage(ctx.db, ctx.scope, filter, params, sort);
      return { ...paginated(result, params), totals: result.totals };
    },
    duplicates: () => (tab === "duplicates" ? duplicateMealsShown(ctx.db, ctx.scope, filter) : null),
    periods: () => (tab === "periods" ? listClosedPeriods(ctx.db, ctx.scope, filter.cafeIds) : null),
    can: {
      closePeriod: can(ctx.access, "sales.close_period"),
      reopenPeriod: can(ctx.access, "sales.reopen_period"),
    },
  });
}

/** The Sales page on one of its tabs, at the tab's own address; its closed-months tab shows what the viewer may do. */
function salesTabRoute(name: string, uri: string, tab: SalesTab): RouteDefinition {
  return {
    name,
    methods: ["GET"],
    uri,
    access: access.can("sales.view"),
    checks: ["sales.close_period", "sales.reopen_period"],
    handle: (ctx) => salesPage(ctx, tab),
  };
}

export const salesRoutes = defineRoutes([
  salesTabRoute("sales.index", "/sales", "lines"),
  salesTabRoute("sales.duplicates", "/sales/duplicates", "duplicates"),
  salesTabRoute("sales.periods.index", "/sales/periods", "periods"),
  {
    name: "sales.export",
    methods: ["GET"],
    uri: "/sales/export",
    access: access.can("sales.view"),
    handle: (ctx) => {
      const filter = parseSalesFilter(ctx.query, dateIn(ctx.config.timezone));
      requireFilterInScope(ctx.db, ctx.scope, filter);
      const count = countSalesLines(ctx.db, ctx.scope, filter);
      if (count > EXPORT_MAX_LINES) {
        const format = new Intl.NumberFormat(intlLocale[ctx.locale]);
        throw new ValidationFailed({
          export: {
            key: "sales.page.export_too_large",
            params: { lines: format.format(count), max: format.format(EXPORT_MAX_LINES) },
          },
        });
      }
      const rows = salesLines(ctx.db, ctx.scope, filter, sortOf(ctx));
      return xlsxResponse(exportFileName(`sales-${filter.from}-${filter.to}`, ctx.config.timezone), [
        { name: ctx.t("sales.page.title"), columns: lineColumns(ctx), rows },
      ]);
    },
  },
]);
