/**
 * The series registry (`receipt_series`): every series a business has given out for a kind of document (the internal
 * ticket, the boleta), the cafe it belongs to and the number its next document gets. A series once registered
 * belongs to its cafe for ever: another cafe of the business is refused it, a new one starts at 1, and a cafe that
 * goes back to a series of its own goes on at that series' own next number, so no number is ever given twice. New
 * cafes, and cafes that move to another business, have their series registered by triggers (migration 0023).
 */
import { and, eq, sql } from "drizzle-orm";
import { cafes, receiptSeries, type SeriesKind } from "../../../db/schema";
import { preparedQuery, type Db, type DbTransaction } from "../../db";

/** A ticket series: 1 to 4 letters or digits (T001). */
export const TICKET_SERIES_PATTERN = "^[A-Za-z0-9]{1,4}$";
/** A boleta series: B and 3 letters or digits (B001), as SUNAT numbers a boleta. */
export const BOLETA_SERIES_PATTERN = "^[Bb][A-Za-z0-9]{3}$";

const P = (name: string) => sql.placeholder(name);

/**
 * Takes the next ticket number of a cafe's current ticket series under `business` (the business the sale is issued
 * by): one UPDATE … RETURNING on the series row, for the sale's immediate transaction. No row when the cafe has no
 * ticket series of its own under that business. `next` is the number after the one taken.
 */
export const takeTicketNumber = preparedQuery((db: Db) =>
  db
    .update(receiptSeries)
    .set({ nextNumber: sql`${receiptSeries.nextNumber} + 1` })
    .where(
      and(
        eq(receiptSeries.businessId, P("business")),
        eq(receiptSeries.kind, "ticket"),
        eq(receiptSeries.series, sql`(SELECT ${cafes.ticketSeries} FROM ${cafes} WHERE ${cafes.id} = ${P("cafe")})`),
        eq(receiptSeries.cafeId, P("cafe")),
      ),
    )
    .returning({ series: receiptSeries.series, next: receiptSeries.nextNumber })
    .prepare(),
);

/** What choosing a series did: the number its next document gets, and whether the cafe had held it before. */
export type SeriesChoice = { taken: false; nextNumber: number; resumed: boolean } | { taken: true };

/**
 * Makes `series` the cafe's current series of `kind` under its business, inside the caller's write transaction:
 * registered to the cafe at 1 when no one holds it, resumed at its own next number when the cafe held it before.
 * Another cafe's series is left alone (`taken`).
 */
export function chooseSeries(
  tx: DbTransaction,
  cafe: { id: number; businessId: number },
  kind: SeriesKind,
  series: string,
): SeriesChoice {
  const held = tx
    .select({ cafeId: receiptSeries.cafeId, nextNumber: receiptSeries.nextNumber })
    .from(receiptSeries)
    .where(
      and(
        eq(receiptSeries.businessId, cafe.businessId),
        eq(receiptSeries.kind, kind),
        eq(receiptSeries.series, series),
      ),
    )
    .get();
  if (held && held.cafeId !== cafe.id) return { taken: true };
  if (!held) tx.insert(receiptSeries).values({ businessId: cafe.businessId, kind, series, cafeId: cafe.id }).run();
  tx.update(cafes)
    .set(kind === "ticket" ? { ticketSeries: series } : { boletaSeries: series })
    .where(eq(cafes.id, cafe.id))
    .run();
  return { taken: false, nextNumber: held?.nextNumber ?? 1, resumed: held !== undefined };
}

/** The series row a cafe's tickets are numbered from now (its current ticket series under its business), or null. */
export function currentTicketSeries(
  db: Db | DbTransaction,
  cafeId: number,
): { id: number; businessId: number; series: string; nextNumber: number } | null {
  return (
    db
      .select({
        id: receiptSeries.id,
        businessId: receiptSeries.businessId,
        series: receiptSeries.series,
        nextNumber: receiptSeries.nextNumber,
      })
      .from(cafes)
      .innerJoin(
        receiptSeries,
        and(
          eq(receiptSeries.businessId, cafes.businessId),
          eq(receiptSeries.kind, "ticket"),
          eq(receiptSeries.series, cafes.ticketSeries),
          eq(receiptSeries.cafeId, cafes.id),
        ),
      )
      .where(eq(cafes.id, cafeId))
      .get() ?? null
  );
}
