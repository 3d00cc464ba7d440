/**
 * What the point of sale holds on to: sales keep their cafe, business, client companies, diner and services, and
 * diners keep their home cafe and subdealership. The services that delete those things ask here first and refuse
 * with a clear message, instead of letting the database's foreign keys refuse the delete.
 */
import { eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { diners, saleLines, sales } from "../../../db/schema";
import type { Tx } from "../audit";

function count(tx: Tx, table: SQLiteTable, column: SQLiteColumn, id: number): number {
  return (
    tx
      .select({ n: sql<number>`count(*)` })
      .from(table)
      .where(eq(column, id))
      .get()?.n ?? 0
  );
}

/** Sales made at a cafe, and diners whose home cafe it is. */
export function cafeSalesUsage(tx: Tx, cafeId: number): { sales: number; diners: number } {
  return { sales: count(tx, sales, sales.cafeId, cafeId), diners: count(tx, diners, diners.cafeId, cafeId) };
}

/** Sales billed to a subdealership, and diners who work for it. */
export function subdealershipSalesUsage(tx: Tx, subdealershipId: number): { sales: number; diners: number } {
  return {
    sales: count(tx, sales, sales.subdealershipId, subdealershipId),
    diners: count(tx, diners, diners.subdealershipId, subdealershipId),
  };
}

/** Sales billed to a dealership's subdealerships (as they were when sold). */
export function dealershipSales(tx: Tx, dealershipId: number): number {
  return count(tx, sales, sales.dealershipId, dealershipId);
}

/** Sales a business issued. */
export function businessSales(tx: Tx, businessId: number): number {
  return count(tx, sales, sales.businessId, businessId);
}

/** Sale lines of a service. */
export function serviceSales(tx: Tx, serviceId: number): number {
  return count(tx, saleLines, saleLines.serviceId, serviceId);
}
