/**
 * Cash shifts (docs/cash.md): a cashier opens a shift at a till with an opening float; the cash-type sales they make
 * there while it is open belong to it (`sale_tills.shift_id`), and so do the cash they put in or take out, each
 * with a reason. Closing is a blind count: the cashier gives the pieces of each denomination in the drawer without
 * seeing what is expected, and only then sees expected against counted; a difference beyond the cafe's allowed
 * amount needs a note. A manager (shifts.reopen) reopens a closed shift with a reason. One open shift per till and
 * one per cashier, held by the database.
 */
import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import {
  CASH_MOVE_REASONS,
  cafes,
  cashMoves,
  cashShifts,
  salePayments,
  sales,
  saleTills,
  tills,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { addDays, momentIn } from "../../shared/calendar";
import { formatMoney } from "../../shared/money";
import { parseInput, t } from "../validation";
import { actorName } from "../sales/actor-name";

/** Soles notes and coins, in cents, largest first: what a blind count counts. */
export const DENOMINATIONS_CENTS = [20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10] as const;

export type ShiftRow = typeof cashShifts.$inferSelect;

export interface ShiftSummary {
  shift: ShiftRow;
  /** The shift's sales that count (not voided), by payment method. */
  byMethod: { code: string; name: string; inDrawer: boolean; sales: number; amountCents: number }[];
  /** Its voided sales: how many, and what they had come to. */
  voided: { sales: number; amountCents: number };
  movedInCents: number;
  movedOutCents: number;
  moves: (typeof cashMoves.$inferSelect)[];
  /** What the drawer should hold: the float, the cash taken (not voided), the cash moved in, less the cash moved out. */
  expectedCashCents: number;
  /** After the close: counted − expected. */
  differenceCents: number | null;
}

const soles = (cents: number) => formatMoney(cents, "es");

export const OpenShiftInput = t.Object({
  till_id: t.Integer({ minimum: 1 }),
  opening_float_cents: t.Integer({ minimum: 0, maximum: 100_000_000, messageKey: "cash.shift_amount_invalid" }),
});

function shiftById(db: Tx, id: number): ShiftRow | null {
  return db.select().from(cashShifts).where(eq(cashShifts.id, id)).get() ?? null;
}

/** A shift of a cafe in the scope (NotFound otherwise). */
export function getShift(db: Tx, scope: Scope, id: number): ShiftRow {
  const shift = shiftById(db, id);
  if (!shift || !reachesCafe(scope, shift.cafeId)) throw new NotFound();
  return shift;
}

/** The refusal of a second open shift: the till's, or the cashier's own elsewhere. */
function busyRefusal(db: Db, tillId: number, cashierId: number): ValidationFailed {
  const atTill = db
    .select({ cashierName: cashShifts.cashierName, tillName: cashShifts.tillName })
    .from(cashShifts)
    .where(and(eq(cashShifts.tillId, tillId), eq(cashShifts.state, "open")))
    .get();
  if (atTill)
    return new ValidationFailed({
      till_id: message("cash.shift_till_busy", { till: atTill.tillName, cashier: atTill.cashierName }),
    });
  const mine = db
    .select({ tillName: cashShifts.tillName })
    .from(cashShifts)
    .where(and(eq(cashShifts.cashierId, cashierId), eq(cashShifts.state, "open")))
    .get();
  return new ValidationFailed({ till_id: message("cash.shift_cashier_busy", { till: mine?.tillName ?? "" }) });
}

function isOpenShiftClash(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: cash_shifts\./.test(error.message);
}

/** Opens the actor's shift at a till of a cafe in the scope, with its opening float. */
export function openShift(db: Db, actor: Actor, scope: Scope, input: unknown, now = new Date()): ShiftRow {
  const data = parseInput(OpenShiftInput, input);
  const till = db
    .select({ id: tills.id, name: tills.name, cafeId: tills.cafeId, active: tills.active })
    .from(tills)
    .where(eq(tills.id, data.till_id))
    .get();
  if (!till || !reachesCafe(scope, till.cafeId)) throw new NotFound();
  if (!till.active) throw new ValidationFailed({ till_id: message("cash.till_unknown") });
  if (actor.userId === null) throw new Forbidden();
  const cashierName = actorName(db, actor);
  try {
    return db.transaction(
      (tx) => {
        const shift = tx
          .insert(cashShifts)
          .values({
            cafeId: till.cafeId,
            tillId: till.id,
            tillName: till.name,
            cashierId: actor.userId,
            cashierName,
            state: "open",
            openedAt: now,
            openingFloatCents: data.opening_float_cents,
          })
          .returning()
          .get();
        recordAudit(
          tx,
          actor,
          {
            action: "shift.opened",
            subjectType: "shift",
            subjectId: shift.id,
            places: [{ cafeId: till.cafeId }],
            after: { till: till.name, openingFloatCents: data.opening_float_cents },
          },
          now,
        );
        return shift;
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    if (isOpenShiftClash(error)) throw busyRefusal(db, till.id, actor.userId);
    throw error;
  }
}

/** The shift a cashier has open at a till, or null: where a sale they make there belongs. */
export const openShiftAt = preparedQuery((db: Db) =>
  db
    .select({ id: cashShifts.id })
    .from(cashShifts)
    .where(
      and(
        eq(cashShifts.cashierId, sql.placeholder("cashier")),
        eq(cashShifts.tillId, sql.placeholder("till")),
        eq(cashShifts.state, "open"),
      ),
    )
    .prepare(),
);

/** The actor's open shift, anywhere, or null. */
export function myOpenShift(db: Db, actor: Actor): ShiftRow | null {
  if (actor.userId === null) return null;
  return (
    db
      .select()
      .from(cashShifts)
      .where(and(eq(cashShifts.cashierId, actor.userId), eq(cashShifts.state, "open")))
      .get() ?? null
  );
}

export interface ShiftAbilities {
  /** shifts.close_any: may move cash in and close others' shifts. */
  closeAny: boolean;
}

/** An open shift the actor may work on: their own, or anyone's with shifts.close_any. */
function workableShift(db: Tx, actor: Actor, scope: Scope, shiftId: number, abilities: ShiftAbilities): ShiftRow {
  const shift = getShift(db, scope, shiftId);
  if (shift.state !== "open") throw new Conflict(message("cash.shift_closed_already", { till: shift.tillName }));
  if (shift.cashierId !== actor.userId && !abilities.closeAny)
    throw new ValidationFailed({ shift: message("cash.shift_not_yours", { cashier: shift.cashierName }) });
  return shift;
}

/** Everything a shift's close reckons, from its sales, payments and moves. */
export function shiftSummary(db: Tx, shift: ShiftRow): ShiftSummary {
  const byMethod = db
    .select({
      code: salePayments.methodCode,
      name: salePayments.methodName,
      inDrawer: salePayments.inDrawer,
      sales: sql<number>`count(DISTINCT ${salePayments.saleId})`,
      amountCents: sql<number>`sum(${salePayments.amountCents})`,
    })
    .from(saleTills)
    .innerJoin(sales, eq(sales.id, saleTills.saleId))
    .innerJoin(salePayments, eq(salePayments.saleId, saleTills.saleId))
    .where(and(eq(saleTills.shiftId, shift.id), sql`${sales.voidedAt} IS NULL`))
    .groupBy(salePayments.methodCode, salePayments.methodName, salePayments.inDrawer)
    .orderBy(asc(salePayments.methodCode))
    .all();
  const voided = db
    .select({ sales: sql<number>`count(*)`, amountCents: sql<number>`coalesce(sum(${sales.totalCents}), 0)` })
    .from(saleTills)
    .innerJoin(sales, eq(sales.id, saleTills.saleId))
    .where(and(eq(saleTills.shiftId, shift.id), sql`${sales.voidedAt} IS NOT NULL`))
    .get()!;
  const moves = db.select().from(cashMoves).where(eq(cashMoves.shiftId, shift.id)).orderBy(asc(cashMoves.id)).all();
  const movedInCents = moves.filter((m) => m.kind === "in").reduce((n, m) => n + m.amountCents, 0);
  const movedOutCents = moves.filter((m) => m.kind === "out").reduce((n, m) => n + m.amountCents, 0);
  const cashTaken = byMethod.filter((m) => m.inDrawer).reduce((n, m) => n + m.amountCents, 0);
  const expectedCashCents = shift.openingFloatCents + cashTaken + movedInCents - movedOutCents;
  return {
    shift,
    byMethod,
    voided,
    movedInCents,
    movedOutCents,
    moves,
    expectedCashCents,
    differenceCents:
      shift.countedCents === null || shift.expectedCents === null ? null : shift.countedCents - shift.expectedCents,
  };
}

export const CashMoveInput = t.Object({
  kind: t.Union([t.Literal("in"), t.Literal("out")], { messageKey: "cash.move_kind_invalid" }),
  reason: t.Union(
    CASH_MOVE_REASONS.map((r) => t.Literal(r)),
    { messageKey: "cash.move_reason_invalid" },
  ),
  amount_cents: t.Integer({ minimum: 1, maximum: 100_000_000, messageKey: "cash.shift_amount_invalid" }),
  note: t.Optional(t.String({ maxLength: 200 })),
});

/** Puts cash into or takes it out of an open shift's drawer, with its reason; never more out than the drawer holds. */
export function addCashMove(
  db: Db,
  actor: Actor,
  scope: Scope,
  shiftId: number,
  input: unknown,
  abilities: ShiftAbilities,
  now = new Date(),
): ShiftSummary {
  const data = parseInput(CashMoveInput, input);
  const byName = actorName(db, actor);
  return db.transaction(
    (tx) => {
      const shift = workableShift(tx, actor, scope, shiftId, abilities);
      const before = shiftSummary(tx, shift);
      if (data.kind === "out" && data.amount_cents > before.expectedCashCents)
        throw new ValidationFailed({
          amount_cents: message("cash.move_more_than_drawer", {
            amount: soles(data.amount_cents),
            drawer: soles(before.expectedCashCents),
          }),
        });
      tx.insert(cashMoves)
        .values({
          shiftId,
          kind: data.kind,
          reason: data.reason,
          amountCents: data.amount_cents,
          note: (data.note ?? "").trim(),
          byId: actor.userId,
          byName,
          at: now,
        })
        .run();
      recordAudit(
        tx,
        actor,
        {
          action: "shift.cash_moved",
          subjectType: "shift",
          subjectId: shiftId,
          places: [{ cafeId: shift.cafeId }],
          after: { kind: data.kind, reason: data.reason, amountCents: data.amount_cents, note: data.note ?? "" },
        },
        now,
      );
      return shiftSummary(tx, shift);
    },
    { behavior: "immediate" },
  );
}

export const CloseShiftInput = t.Object({
  /** Pieces by denomination in cents: {"20000": 1, "1000": 3}. */
  pieces: t.Record(t.String(), t.Integer({ minimum: 0, maximum: 100_000, messageKey: "cash.count_invalid" })),
  note: t.Optional(t.String({ maxLength: 500 })),
});

/**
 * Closes an open shift with the blind count of its drawer: the pieces of each denomination. The answer is the first
 * time the cashier sees what was expected. A difference beyond the cafe's allowed amount needs a note.
 */
export function closeShift(
  db: Db,
  actor: Actor,
  scope: Scope,
  shiftId: number,
  input: unknown,
  abilities: ShiftAbilities,
  now = new Date(),
): ShiftSummary {
  const data = parseInput(CloseShiftInput, input);
  let counted = 0;
  for (const [denomination, pieces] of Object.entries(data.pieces)) {
    if (!(DENOMINATIONS_CENTS as readonly number[]).includes(Number(denomination)) || !/^\d+$/.test(denomination))
      throw new ValidationFailed({ pieces: message("cash.count_denomination_unknown", { value: denomination }) });
    counted += Number(denomination) * pieces;
  }
  const note = (data.note ?? "").trim();
  const closedByName = actorName(db, actor);
  return db.transaction(
    (tx) => {
      const shift = workableShift(tx, actor, scope, shiftId, abilities);
      const { expectedCashCents } = shiftSummary(tx, shift);
      const allowed =
        tx.select({ allowed: cafes.allowedDifferenceCents }).from(cafes).where(eq(cafes.id, shift.cafeId)).get()
          ?.allowed ?? 0;
      const difference = counted - expectedCashCents;
      if (Math.abs(difference) > allowed && note === "")
        throw new ValidationFailed({
          note: message("cash.shift_note_required", { difference: soles(difference), allowed: soles(allowed) }),
        });
      const closed = tx
        .update(cashShifts)
        .set({
          state: "closed",
          closedAt: now,
          closedById: actor.userId,
          closedByName,
          countedPieces: JSON.stringify(data.pieces),
          countedCents: counted,
          expectedCents: expectedCashCents,
          note,
        })
        .where(and(eq(cashShifts.id, shiftId), eq(cashShifts.state, "open")))
        .returning()
        .get();
      if (!closed) throw new Conflict(message("cash.shift_closed_already", { till: shift.tillName }));
      recordAudit(
        tx,
        actor,
        {
          action: "shift.closed",
          subjectType: "shift",
          subjectId: shiftId,
          places: [{ cafeId: shift.cafeId }],
          after: { countedCents: counted, expectedCents: expectedCashCents, differenceCents: difference, note },
        },
        now,
      );
      return shiftSummary(tx, closed);
    },
    { behavior: "immediate" },
  );
}

export const ReopenShiftInput = t.Object({ reason: t.String({ minLength: 3, maxLength: 200 }) });

/** Reopens a closed shift with a reason (shifts.reopen); its count is kept in the audit trail and cleared. */
export function reopenShift(
  db: Db,
  actor: Actor,
  scope: Scope,
  shiftId: number,
  input: unknown,
  now = new Date(),
): ShiftRow {
  const { reason } = parseInput(ReopenShiftInput, input);
  const shift = getShift(db, scope, shiftId);
  if (shift.state !== "closed") throw new Conflict(message("cash.shift_open_already", { till: shift.tillName }));
  try {
    return db.transaction(
      (tx) => {
        const reopened = tx
          .update(cashShifts)
          .set({
            state: "open",
            closedAt: null,
            closedById: null,
            closedByName: null,
            countedPieces: null,
            countedCents: null,
            expectedCents: null,
          })
          .where(and(eq(cashShifts.id, shiftId), eq(cashShifts.state, "closed")))
          .returning()
          .get();
        if (!reopened) throw new Conflict(message("cash.shift_open_already", { till: shift.tillName }));
        recordAudit(
          tx,
          actor,
          {
            action: "shift.reopened",
            subjectType: "shift",
            subjectId: shiftId,
            places: [{ cafeId: shift.cafeId }],
            before: { countedCents: shift.countedCents, expectedCents: shift.expectedCents, note: shift.note },
            after: { reason },
          },
          now,
        );
        return reopened;
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    if (isOpenShiftClash(error)) throw busyRefusal(db, shift.tillId, shift.cashierId ?? 0);
    throw error;
  }
}

/** A cafe's shifts, newest first; those opened on one date (in the cafe's time zone) when given. */
export function listShifts(db: Db, scope: Scope, cafeId: number, date?: string): ShiftRow[] {
  if (!reachesCafe(scope, cafeId)) throw new NotFound();
  const zone = db.select({ zone: cafes.timeZone }).from(cafes).where(eq(cafes.id, cafeId)).get()?.zone;
  if (!zone) throw new NotFound();
  const onDate = date
    ? and(
        gte(cashShifts.openedAt, momentIn(zone, `${date} 00:00`)!),
        lt(cashShifts.openedAt, momentIn(zone, `${addDays(date, 1)} 00:00`)!),
      )
    : undefined;
  return db
    .select()
    .from(cashShifts)
    .where(and(eq(cashShifts.cafeId, cafeId), onDate))
    .orderBy(desc(cashShifts.openedAt), desc(cashShifts.id))
    .all();
}
