/**
 * Tills: the named points of sale of a cafe (a counter, a tablet), kept by its managers (tills.manage). Every cafe
 * starts with "Caja 1" (migration 0027); the Dinners page runs as one of them, chosen once on each device, and every
 * sale keeps the till it was made at. A till that sold is switched off, never deleted.
 */
import { and, asc, eq } from "drizzle-orm";
import { cafes, tills } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { parseInput, t } from "../validation";

export interface Till {
  id: number;
  cafeId: number;
  name: string;
  active: boolean;
}

const columns = { id: tills.id, cafeId: tills.cafeId, name: tills.name, active: tills.active };

/** A cafe's tills, active or not, by name. */
export function listTills(db: Db, scope: Scope, cafeId: number): Till[] {
  if (!reachesCafe(scope, cafeId)) throw new NotFound();
  return db.select(columns).from(tills).where(eq(tills.cafeId, cafeId)).orderBy(asc(tills.name), asc(tills.id)).all();
}

/** An active till of the cafe, or null. */
export function activeTill(db: Db, cafeId: number, tillId: number): Till | null {
  return (
    db
      .select(columns)
      .from(tills)
      .where(and(eq(tills.id, tillId), eq(tills.cafeId, cafeId), eq(tills.active, true)))
      .get() ?? null
  );
}

/** The cafe's first active till (by id): where a sale that names none is made. */
export function firstTill(db: Db, cafeId: number): Till | null {
  return (
    db
      .select(columns)
      .from(tills)
      .where(and(eq(tills.cafeId, cafeId), eq(tills.active, true)))
      .orderBy(asc(tills.id))
      .limit(1)
      .get() ?? null
  );
}

export const TillInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 40 }),
  active: t.Optional(t.Boolean()),
});

function taken(db: Tx, cafeId: number, name: string, except: number | null): boolean {
  const row = db
    .select({ id: tills.id })
    .from(tills)
    .where(and(eq(tills.cafeId, cafeId), eq(tills.name, name)))
    .get();
  return row !== undefined && row.id !== except;
}

/** Registers a till at a cafe of the scope. */
export function createTill(db: Db, actor: Actor, scope: Scope, cafeId: number, input: unknown, now = new Date()): Till {
  const data = parseInput(TillInput, input);
  const name = data.name.trim();
  const cafe = db.select({ id: cafes.id }).from(cafes).where(eq(cafes.id, cafeId)).get();
  if (!cafe || !reachesCafe(scope, cafeId)) throw new NotFound();
  return db.transaction(
    (tx) => {
      if (taken(tx, cafeId, name, null))
        throw new ValidationFailed({ name: message("cash.till_name_taken", { name }) });
      const till = tx
        .insert(tills)
        .values({ cafeId, name, active: data.active ?? true, createdAt: now, updatedAt: now })
        .returning(columns)
        .get();
      recordAudit(
        tx,
        actor,
        {
          action: "till.created",
          subjectType: "till",
          subjectId: till.id,
          places: [{ cafeId }],
          after: { name, active: till.active },
        },
        now,
      );
      return till;
    },
    { behavior: "immediate" },
  );
}

/** Renames a till, or switches it off (it keeps its sales) or on again. A cafe keeps at least one active till. */
export function updateTill(db: Db, actor: Actor, scope: Scope, tillId: number, input: unknown, now = new Date()): Till {
  const data = parseInput(TillInput, input);
  const name = data.name.trim();
  return db.transaction(
    (tx) => {
      const before = tx.select(columns).from(tills).where(eq(tills.id, tillId)).get();
      if (!before || !reachesCafe(scope, before.cafeId)) throw new NotFound();
      if (taken(tx, before.cafeId, name, tillId))
        throw new ValidationFailed({ name: message("cash.till_name_taken", { name }) });
      const active = data.active ?? before.active;
      if (before.active && !active) {
        const others = tx
          .select({ id: tills.id })
          .from(tills)
          .where(and(eq(tills.cafeId, before.cafeId), eq(tills.active, true)))
          .all()
          .filter((t) => t.id !== tillId);
        if (others.length === 0) throw new ValidationFailed({ active: message("cash.till_last_active", { name }) });
      }
      const till = tx
        .update(tills)
        .set({ name, active, updatedAt: now })
        .where(eq(tills.id, tillId))
        .returning(columns)
        .get()!;
      recordAudit(
        tx,
        actor,
        {
          action: "till.updated",
          subjectType: "till",
          subjectId: tillId,
          places: [{ cafeId: before.cafeId }],
          before: { name: before.name, active: before.active },
          after: { name: till.name, active: till.active },
        },
        now,
      );
      return till;
    },
    { behavior: "immediate" },
  );
}
