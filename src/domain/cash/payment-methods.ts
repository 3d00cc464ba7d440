/**
 * The catalogue of payment methods (docs/cash.md): company-wide, kept by those with payment_methods.manage (granted
 * at headquarters); each is switched on per cafe. Cash goes into the drawer; wallets (Yape, Plin), cards and
 * transfers need a reference (the operation's or the voucher's number) and are reconciled against it.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { cafePaymentMethods, cafes, paymentMethods } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { foldText } from "../../shared/fold";
import { parseInput, t } from "../validation";

export interface PaymentMethod {
  id: number;
  code: string;
  name: string;
  needsReference: boolean;
  inDrawer: boolean;
  active: boolean;
  sortOrder: number;
}

const columns = {
  id: paymentMethods.id,
  code: paymentMethods.code,
  name: paymentMethods.name,
  needsReference: paymentMethods.needsReference,
  inDrawer: paymentMethods.inDrawer,
  active: paymentMethods.active,
  sortOrder: paymentMethods.sortOrder,
};

/** Every method, switched on or not, in their order. */
export function listPaymentMethods(db: Tx): PaymentMethod[] {
  return db.select(columns).from(paymentMethods).orderBy(asc(paymentMethods.sortOrder), asc(paymentMethods.id)).all();
}

/** The active methods switched on at a cafe, in their order: what its till offers (read on every cash sale). */
const cafeMethods = preparedQuery((db: Db) =>
  db
    .select(columns)
    .from(cafePaymentMethods)
    .innerJoin(paymentMethods, eq(paymentMethods.id, cafePaymentMethods.methodId))
    .where(and(eq(cafePaymentMethods.cafeId, sql.placeholder("cafe")), eq(paymentMethods.active, true)))
    .orderBy(asc(paymentMethods.sortOrder), asc(paymentMethods.id))
    .prepare(),
);

export function cafePaymentMethodList(db: Tx, cafeId: number): PaymentMethod[] {
  return cafeMethods(db).all({ cafe: cafeId });
}

export const PaymentMethodInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 40 }),
  needs_reference: t.Boolean(),
  in_drawer: t.Boolean(),
  active: t.Optional(t.Boolean()),
});

/** A code made from a name: "Tarjeta Niubiz" → "tarjeta-niubiz". */
function codeOf(name: string): string {
  return foldText(name)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
}

function snapshot(m: Pick<PaymentMethod, "name" | "needsReference" | "inDrawer" | "active">) {
  return { name: m.name, needsReference: m.needsReference, inDrawer: m.inDrawer, active: m.active };
}

/** Adds a method to the catalogue (switched on nowhere yet). */
export function createPaymentMethod(db: Db, actor: Actor, input: unknown, now = new Date()): PaymentMethod {
  const data = parseInput(PaymentMethodInput, input);
  const name = data.name.trim();
  const code = codeOf(name);
  if (code.length < 2) throw new ValidationFailed({ name: message("validation.min_length", { min: 2 }) });
  return db.transaction(
    (tx) => {
      const taken = tx
        .select({ id: paymentMethods.id })
        .from(paymentMethods)
        .where(eq(paymentMethods.code, code))
        .get();
      if (taken) throw new ValidationFailed({ name: message("cash.method_taken", { name }) });
      const last = listPaymentMethods(tx).at(-1)?.sortOrder ?? 0;
      const row = tx
        .insert(paymentMethods)
        .values({
          code,
          name,
          needsReference: data.needs_reference,
          inDrawer: data.in_drawer,
          active: data.active ?? true,
          sortOrder: last + 1,
          createdAt: now,
          updatedAt: now,
        })
        .returning(columns)
        .get();
      recordAudit(
        tx,
        actor,
        {
          action: "payment_method.created",
          subjectType: "payment_method",
          subjectId: row.id,
          places: COMPANY_WIDE,
          after: snapshot(row),
        },
        now,
      );
      return row;
    },
    { behavior: "immediate" },
  );
}

/** Renames a method, changes whether it needs a reference or goes into the drawer, or switches it off everywhere. */
export function updatePaymentMethod(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): PaymentMethod {
  const data = parseInput(PaymentMethodInput, input);
  return db.transaction(
    (tx) => {
      const before = tx.select(columns).from(paymentMethods).where(eq(paymentMethods.id, id)).get();
      if (!before) throw new NotFound();
      const name = data.name.trim();
      if (before.code === "cash" && (!data.in_drawer || data.active === false))
        throw new ValidationFailed({ in_drawer: message("cash.cash_stays") });
      const row = tx
        .update(paymentMethods)
        .set({
          name,
          needsReference: data.needs_reference,
          inDrawer: data.in_drawer,
          active: data.active ?? before.active,
          updatedAt: now,
        })
        .where(eq(paymentMethods.id, id))
        .returning(columns)
        .get()!;
      recordAudit(
        tx,
        actor,
        {
          action: "payment_method.updated",
          subjectType: "payment_method",
          subjectId: id,
          places: COMPANY_WIDE,
          before: snapshot(before),
          after: snapshot(row),
        },
        now,
      );
      return row;
    },
    { behavior: "immediate" },
  );
}

export const CafeMethodsInput = t.Object({
  method_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: 50 }),
});

/** Switches on at a cafe exactly the methods named (those not named are switched off there). Cash cannot be. */
export function setCafePaymentMethods(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: unknown,
  now = new Date(),
): PaymentMethod[] {
  const { method_ids } = parseInput(CafeMethodsInput, input);
  const cafe = db.select({ id: cafes.id, name: cafes.name }).from(cafes).where(eq(cafes.id, cafeId)).get();
  if (!cafe || !reachesCafe(scope, cafe.id)) throw new NotFound();
  const wanted = [...new Set(method_ids)];
  return db.transaction(
    (tx) => {
      const found = wanted.length
        ? tx.select(columns).from(paymentMethods).where(inArray(paymentMethods.id, wanted)).all()
        : [];
      if (found.length !== wanted.length) throw new ValidationFailed({ method_ids: message("cash.method_unknown") });
      const before = cafePaymentMethodList(tx, cafeId).map((m) => m.code);
      tx.delete(cafePaymentMethods).where(eq(cafePaymentMethods.cafeId, cafeId)).run();
      if (wanted.length)
        tx.insert(cafePaymentMethods)
          .values(wanted.map((methodId) => ({ cafeId, methodId })))
          .run();
      const after = cafePaymentMethodList(tx, cafeId);
      if (after.length === 0) throw new Conflict(message("cash.cafe_needs_one", { cafe: cafe.name }));
      recordAudit(
        tx,
        actor,
        {
          action: "cafe.payment_methods_set",
          subjectType: "cafe",
          subjectId: cafeId,
          places: [{ cafeId }],
          before: { methods: before },
          after: { methods: after.map((m) => m.code) },
        },
        now,
      );
      return after;
    },
    { behavior: "immediate" },
  );
}
