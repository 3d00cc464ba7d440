/**
 * Closing a month. Once a cafe's month is billed, an administrator closes it (`sales.close_period`): from then on no
 * sale, void or backdated sale with a service date in that month is accepted at that cafe, so the billed figures never
 * change. A month is closed only once it is over in the cafe's time zone. Reopening takes a permission of its own
 * (`sales.reopen_period`) and a reason; both are audited.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { Type } from "@sinclair/typebox";
import { cafes, closedPeriods } from "../../../db/schema";
import { preparedQuery, type Db, type DbTransaction } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { parseInput } from "../validation";
import { dateIn } from "../../shared/calendar";
import { actorName } from "./actor-name";
import type { ClosedPeriod } from "../../shared/sales/types";
export type { ClosedPeriod } from "../../shared/sales/types";

/** A month as "YYYY-MM". */
const MONTH = "^\\d{4}-(0[1-9]|1[0-2])$";

const CloseInput = Type.Object({
  cafe_id: Type.Integer({ minimum: 1 }),
  month: Type.String({ pattern: MONTH }),
});
const ReopenInput = Type.Object({
  cafe_id: Type.Integer({ minimum: 1 }),
  month: Type.String({ pattern: MONTH }),
  reason: Type.String({ minLength: 3, maxLength: 500 }),
});

/** The month ("YYYY-MM") of a service date ("YYYY-MM-DD"). */
export function monthOf(serviceDate: string): string {
  return serviceDate.slice(0, 7);
}

// Asked on every sale and every void: prepared once per connection.
const closedRow = preparedQuery((db: Db) =>
  db
    .select({ month: closedPeriods.month })
    .from(closedPeriods)
    .where(and(eq(closedPeriods.cafeId, sql.placeholder("cafe")), eq(closedPeriods.month, sql.placeholder("month"))))
    .prepare(),
);

/** Whether the month of `serviceDate` is closed at the cafe. */
export function isClosed(db: Db | DbTransaction, cafeId: number, serviceDate: string): boolean {
  return closedRow(db).get({ cafe: cafeId, month: monthOf(serviceDate) }) !== undefined;
}

function cafeIn(db: Db, scope: Scope, cafeId: number): { id: number; name: string; timeZone: string } {
  const cafe = db
    .select({ id: cafes.id, name: cafes.name, timeZone: cafes.timeZone })
    .from(cafes)
    .where(eq(cafes.id, cafeId))
    .get();
  if (!cafe || !reachesCafe(scope, cafe.id)) throw new NotFound();
  return cafe;
}

/** Closes a month at a cafe in the scope; the month must be over there. */
export function closePeriod(db: Db, actor: Actor, scope: Scope, input: unknown, now = new Date()): ClosedPeriod {
  const { cafe_id, month } = parseInput(CloseInput, input);
  const cafe = cafeIn(db, scope, cafe_id);
  const current = monthOf(dateIn(cafe.timeZone, now));
  if (month >= current) throw new ValidationFailed({ month: message("periods.not_over", { month }) });
  const closedByName = actorName(db, actor);
  db.transaction(
    (tx) => {
      if (isClosed(tx, cafe.id, `${month}-01`))
        throw new Conflict(message("periods.already_closed", { month, cafe: cafe.name }));
      tx.insert(closedPeriods)
        .values({ cafeId: cafe.id, month, closedAt: now, closedBy: actor.userId, closedByName })
        .run();
      recordAudit(
        tx,
        actor,
        {
          action: "period.closed",
          subjectType: "cafe",
          subjectId: cafe.id,
          places: [{ cafeId: cafe.id }],
          after: { month },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return { cafeId: cafe.id, cafeName: cafe.name, month, closedAt: now.toISOString(), closedByName };
}

/** Reopens a closed month at a cafe in the scope, with a reason. */
export function reopenPeriod(db: Db, actor: Actor, scope: Scope, input: unknown, now = new Date()): void {
  const { cafe_id, month, reason } = parseInput(ReopenInput, input);
  const cafe = cafeIn(db, scope, cafe_id);
  db.transaction(
    (tx) => {
      const closed = tx
        .delete(closedPeriods)
        .where(and(eq(closedPeriods.cafeId, cafe.id), eq(closedPeriods.month, month)))
        .returning()
        .get();
      if (!closed) throw new Conflict(message("periods.not_closed", { month, cafe: cafe.name }));
      recordAudit(
        tx,
        actor,
        {
          action: "period.reopened",
          subjectType: "cafe",
          subjectId: cafe.id,
          places: [{ cafeId: cafe.id }],
          before: { month, closedAt: closed.closedAt.toISOString(), closedBy: closed.closedByName },
          after: { month, reason },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
}

/** The closed months of the cafes asked for (every cafe of the scope when none), newest first. */
export function listClosedPeriods(db: Db, scope: Scope, cafeIds: number[] = []): ClosedPeriod[] {
  const inScope = scope.all ? null : [...scope.cafeIds];
  const wanted = cafeIds.filter((id) => reachesCafe(scope, id));
  if (cafeIds.length && !wanted.length) return [];
  const conditions = [];
  if (wanted.length) conditions.push(inArray(closedPeriods.cafeId, wanted));
  else if (inScope) conditions.push(inArray(closedPeriods.cafeId, inScope));
  return db
    .select({
      cafeId: closedPeriods.cafeId,
      cafeName: cafes.name,
      month: closedPeriods.month,
      closedAt: closedPeriods.closedAt,
      closedByName: closedPeriods.closedByName,
    })
    .from(closedPeriods)
    .innerJoin(cafes, eq(cafes.id, closedPeriods.cafeId))
    .where(and(...conditions))
    .orderBy(sql`${closedPeriods.month} DESC`, asc(cafes.name))
    .all()
    .map((row) => ({ ...row, closedAt: row.closedAt.toISOString() }));
}
