/**
 * Reading sales: one sale with its lines (the ticket, the answer to a sale request), a cafe's sales of a day, newest
 * first and paginated, with the day's totals, and the last diner served. Only sales of cafes in the reader's scope.
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { cafes, saleLines, salePayments, salePrints, sales, saleTills } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { NotFound } from "../errors";
import { pageWindow, type PageRequest } from "../search";
import type { DaySales, SaleLineView, SalePaymentView, SaleView } from "../../shared/sales/types";
export type { DaySales, SaleLineView, SalePaymentView, SaleView } from "../../shared/sales/types";

/** "T001" and 23 → "T001-00000023" (eight digits, as receipts are numbered in Peru). */
export function ticketNumber(series: string, number: number): string {
  return `${series}-${String(number).padStart(8, "0")}`;
}

/** What a sale line shows (SaleLineView), read for one sale or for a page of them. */
const lineColumns = {
  serviceId: saleLines.serviceId,
  serviceCode: saleLines.serviceCode,
  serviceName: saleLines.serviceName,
  quantity: saleLines.quantity,
  unitPriceCents: saleLines.unitPriceCents,
  listPriceCents: saleLines.listPriceCents,
  baseCents: saleLines.baseCents,
  igvCents: saleLines.igvCents,
  totalCents: saleLines.totalCents,
};

type SaleRow = typeof sales.$inferSelect & { timeZone: string };

/** Where and how a sale was paid: its till's name and its payments. */
export interface SaleMoney {
  tillName: string | null;
  payments: SalePaymentView[];
}

const paymentColumns = {
  methodCode: salePayments.methodCode,
  methodName: salePayments.methodName,
  amountCents: salePayments.amountCents,
  tenderedCents: salePayments.tenderedCents,
  changeCents: salePayments.changeCents,
  reference: salePayments.reference,
};

function moneyOf(db: Db, saleIds: number[]): Map<number, SaleMoney> {
  const byId = new Map<number, SaleMoney>(saleIds.map((id) => [id, { tillName: null, payments: [] }]));
  if (saleIds.length === 0) return byId;
  for (const row of db
    .select({ saleId: saleTills.saleId, tillName: saleTills.tillName })
    .from(saleTills)
    .where(inArray(saleTills.saleId, saleIds))
    .all())
    byId.get(row.saleId)!.tillName = row.tillName;
  for (const { saleId, ...payment } of db
    .select({ saleId: salePayments.saleId, ...paymentColumns })
    .from(salePayments)
    .where(inArray(salePayments.saleId, saleIds))
    .orderBy(salePayments.id)
    .all())
    byId.get(saleId)?.payments.push(payment);
  return byId;
}

function linesOf(db: Db, saleIds: number[]): Map<number, SaleLineView[]> {
  const byId = new Map<number, SaleLineView[]>(saleIds.map((id) => [id, []]));
  if (saleIds.length === 0) return byId;
  const rows = db
    .select({ saleId: saleLines.saleId, ...lineColumns })
    .from(saleLines)
    .where(inArray(saleLines.saleId, saleIds))
    .orderBy(saleLines.id)
    .all();
  for (const { saleId, ...line } of rows) byId.get(saleId)?.push(line);
  return byId;
}

/** A sale as the screens and the sale request's answer show it, from its row (and its cafe's time zone) and lines. */
export function saleView(row: SaleRow, lines: SaleLineView[], money: SaleMoney): SaleView {
  return {
    id: row.id,
    cafeId: row.cafeId,
    cafeName: row.cafeName,
    timeZone: row.timeZone,
    receiptType: row.receiptType,
    series: row.series,
    number: row.number,
    ticket: ticketNumber(row.series, row.number),
    saleType: row.saleType,
    serviceDate: row.serviceDate,
    soldAt: row.soldAt.toISOString(),
    dinerId: row.dinerId,
    dinerName: row.dinerName,
    documentType: row.documentType,
    documentNumber: row.documentNumber,
    subdealershipName: row.subdealershipName,
    subdealershipRuc: row.subdealershipRuc,
    dealershipName: row.dealershipName,
    businessName: row.businessName,
    businessRuc: row.businessRuc,
    businessAddress: row.businessAddress,
    otherUnit: row.otherUnit,
    priceFactorPercent: row.priceFactorPercent,
    igvRateBasisPoints: row.igvRateBasisPoints,
    baseCents: row.baseCents,
    igvCents: row.igvCents,
    totalCents: row.totalCents,
    cashierId: row.cashierId,
    cashierName: row.cashierName,
    voided: row.voidedAt !== null,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    voidedByName: row.voidedByName,
    voidReason: row.voidReason,
    lines,
    tillName: money.tillName,
    payments: money.payments,
  };
}

function saleRows(db: Db) {
  return db.select({ sale: sales, timeZone: cafes.timeZone }).from(sales).innerJoin(cafes, eq(cafes.id, sales.cafeId));
}

// Read after every sale (its answer) and for every ticket: prepared once per connection.
const saleById = preparedQuery((db: Db) =>
  saleRows(db)
    .where(eq(sales.id, sql.placeholder("id")))
    .prepare(),
);
const linesOfSale = preparedQuery((db: Db) =>
  db
    .select(lineColumns)
    .from(saleLines)
    .where(eq(saleLines.saleId, sql.placeholder("id")))
    .orderBy(saleLines.id)
    .prepare(),
);
const tillOfSale = preparedQuery((db: Db) =>
  db
    .select({ tillName: saleTills.tillName })
    .from(saleTills)
    .where(eq(saleTills.saleId, sql.placeholder("id")))
    .prepare(),
);
const paymentsOfSale = preparedQuery((db: Db) =>
  db
    .select(paymentColumns)
    .from(salePayments)
    .where(eq(salePayments.saleId, sql.placeholder("id")))
    .orderBy(salePayments.id)
    .prepare(),
);

/** One sale with its lines, whatever the scope (for the one who just made it); null when there is none. */
export function readSale(db: Db, id: number): SaleView | null {
  const row = saleById(db).get({ id });
  if (!row) return null;
  return saleView({ ...row.sale, timeZone: row.timeZone }, linesOfSale(db).all({ id }), {
    tillName: tillOfSale(db).get({ id })?.tillName ?? null,
    payments: paymentsOfSale(db).all({ id }),
  });
}

/** One sale of a cafe in the scope (NotFound otherwise). */
export function getSale(db: Db, scope: Scope, id: number): SaleView {
  const sale = readSale(db, id);
  if (!sale || !reachesCafe(scope, sale.cafeId)) throw new NotFound();
  return sale;
}

/** A cafe's sales of one service date, newest first, one page of them, with the day's totals. */
export function salesOfDay(db: Db, scope: Scope, cafeId: number, date: string, page: PageRequest): DaySales {
  if (!reachesCafe(scope, cafeId)) throw new NotFound();
  const where = and(eq(sales.cafeId, cafeId), eq(sales.serviceDate, date));
  const counted = db
    .select({
      all: sql<number>`count(*)`,
      voided: sql<number>`count(${sales.voidedAt})`,
      totalCents: sql<number>`coalesce(sum(CASE WHEN ${sales.voidedAt} IS NULL THEN ${sales.totalCents} END), 0)`,
    })
    .from(sales)
    .where(where)
    .get()!;
  const meals =
    db
      .select({ n: sql<number>`coalesce(sum(${saleLines.quantity}), 0)` })
      .from(saleLines)
      .innerJoin(sales, eq(sales.id, saleLines.saleId))
      .where(and(where, isNull(sales.voidedAt)))
      .get()?.n ?? 0;
  const window = pageWindow(counted.all, page);
  const rows = saleRows(db).where(where).orderBy(desc(sales.id)).limit(window.limit).offset(window.offset).all();
  const ids = rows.map((r) => r.sale.id);
  const lines = linesOf(db, ids);
  const money = moneyOf(db, ids);
  return {
    rows: rows.map((r) => saleView({ ...r.sale, timeZone: r.timeZone }, lines.get(r.sale.id)!, money.get(r.sale.id)!)),
    total: counted.all,
    page: window.page,
    totals: {
      sales: counted.all - counted.voided,
      meals,
      totalCents: counted.totalCents,
      voided: counted.voided,
    },
  };
}

/** The latest sale (not voided) of a cafe on a date: the last diner served, shown above the input. */
export function lastSale(db: Db, scope: Scope, cafeId: number, date: string): SaleView | null {
  if (!reachesCafe(scope, cafeId)) throw new NotFound();
  const row = saleRows(db)
    .where(and(eq(sales.cafeId, cafeId), eq(sales.serviceDate, date), isNull(sales.voidedAt)))
    .orderBy(desc(sales.id))
    .limit(1)
    .get();
  if (!row) return null;
  const id = row.sale.id;
  return saleView({ ...row.sale, timeZone: row.timeZone }, linesOf(db, [id]).get(id)!, moneyOf(db, [id]).get(id)!);
}

/** How many times a sale's ticket was printed. */
export function printCount(db: Db, saleId: number): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(salePrints)
      .where(eq(salePrints.saleId, saleId))
      .get()?.n ?? 0
  );
}
