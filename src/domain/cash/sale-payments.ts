/**
 * The payments of a cash-type ("Contado") sale, checked against the methods its cafe takes and against the total the
 * server worked out (docs/cash.md, docs/point-of-sale.md): one or more payments whose amounts add up to the total
 * exactly; for cash, what was handed over (at least the amount) and the change, which the server computes; a
 * reference where the method needs one. A request with no payments pays the total in cash, exactly, as every sale
 * did before payments existed. Nothing here writes: the sale writes what this plans, in its own transaction.
 */
import type { Static } from "@sinclair/typebox";
import { asc, eq, and, sql } from "drizzle-orm";
import { salePayments, saleTills, tills } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { message, type Message } from "../../shared/message";
import { formatMoney } from "../../shared/money";
import { t } from "../validation";
import type { PaymentMethod } from "./payment-methods";

/** The most cents one payment or tender may be (S/ 1,000,000.00). */
const MAX_CENTS = 100_000_000;

export const PaymentsInput = t.Array(
  t.Object({
    method: t.String({ minLength: 1, maxLength: 40, messageKey: "cash.payments_invalid" }),
    amount_cents: t.Integer({ minimum: 1, maximum: MAX_CENTS, messageKey: "cash.payments_invalid" }),
    tendered_cents: t.Optional(t.Integer({ minimum: 1, maximum: MAX_CENTS, messageKey: "cash.payments_invalid" })),
    reference: t.Optional(t.String({ maxLength: 60 })),
  }),
  { minItems: 1, maxItems: 5, messageKey: "cash.payments_invalid" },
);
export type PaymentsRequest = Static<typeof PaymentsInput>;

/** A payment as the sale writes it. */
export interface PlannedPayment {
  methodId: number;
  methodCode: string;
  methodName: string;
  inDrawer: boolean;
  amountCents: number;
  tenderedCents: number | null;
  changeCents: number | null;
  reference: string | null;
}

/** A wallet's operation number or a card voucher's: letters, digits and dashes. */
const REFERENCE = /^[A-Za-z0-9-]{4,40}$/;

const soles = (cents: number) => formatMoney(cents, "es");

/** The payments in a canonical form, for the request's digest: a retry with another tender is another request. */
export function paymentsDigest(payments: PaymentsRequest | undefined): unknown {
  return (payments ?? []).map((p) => [p.method, p.amount_cents, p.tendered_cents ?? null, (p.reference ?? "").trim()]);
}

/**
 * The payments of a cash-type sale of `totalCents` (null when the sale is refused for another reason: only each
 * payment is checked then), by the cafe's `methods`; errors go into `errors` by field (`payments`,
 * `payments.<i>.method`, `payments.<i>.reference`, `payments.<i>.tendered_cents`). Null when refused.
 */
export function planPayments(
  methods: PaymentMethod[],
  requested: PaymentsRequest | undefined,
  totalCents: number | null,
  errors: Record<string, Message>,
): PlannedPayment[] | null {
  const byCode = new Map(methods.map((m) => [m.code, m]));
  if (requested === undefined) {
    const cash = byCode.get("cash");
    if (!cash) {
      errors.payments = message("cash.payment_required");
      return null;
    }
    if (totalCents === null) return null;
    return [
      {
        methodId: cash.id,
        methodCode: cash.code,
        methodName: cash.name,
        inDrawer: cash.inDrawer,
        amountCents: totalCents,
        tenderedCents: totalCents,
        changeCents: 0,
        reference: null,
      },
    ];
  }
  const planned: PlannedPayment[] = [];
  let refused = false;
  requested.forEach((payment, i) => {
    const method = byCode.get(payment.method);
    if (!method) {
      errors[`payments.${i}.method`] = message("cash.payment_method_off", { method: payment.method });
      refused = true;
      return;
    }
    const reference = (payment.reference ?? "").trim();
    if (reference === "" && method.needsReference) {
      errors[`payments.${i}.reference`] = message("cash.payment_reference_required", { method: method.name });
      refused = true;
    } else if (reference !== "" && !REFERENCE.test(reference)) {
      errors[`payments.${i}.reference`] = message("cash.payment_reference_invalid");
      refused = true;
    }
    let tendered: number | null = method.inDrawer ? payment.amount_cents : null;
    if (payment.tendered_cents !== undefined) {
      if (!method.inDrawer) {
        errors[`payments.${i}.tendered_cents`] = message("cash.payment_tender_not_cash");
        refused = true;
      } else if (payment.tendered_cents < payment.amount_cents) {
        errors[`payments.${i}.tendered_cents`] = message("cash.payment_tender_short", {
          tendered: soles(payment.tendered_cents),
          amount: soles(payment.amount_cents),
        });
        refused = true;
      } else tendered = payment.tendered_cents;
    }
    planned.push({
      methodId: method.id,
      methodCode: method.code,
      methodName: method.name,
      inDrawer: method.inDrawer,
      amountCents: payment.amount_cents,
      tenderedCents: tendered,
      changeCents: tendered === null ? null : tendered - payment.amount_cents,
      reference: reference === "" ? null : reference,
    });
  });
  if (refused || totalCents === null) return null;
  const paid = planned.reduce((sum, p) => sum + p.amountCents, 0);
  if (paid < totalCents) {
    errors.payments = message("cash.payments_short", {
      paid: soles(paid),
      missing: soles(totalCents - paid),
      total: soles(totalCents),
    });
    return null;
  }
  if (paid > totalCents) {
    errors.payments = message("cash.payments_over", { paid: soles(paid), total: soles(totalCents) });
    return null;
  }
  return planned;
}

// Read and written on every sale: prepared once per connection.
const P = (name: string) => sql.placeholder(name);

/** The active till of a cafe with an id, or (with id 0) its first active till. */
export const tillForSale = preparedQuery((db: Db) =>
  db
    .select({ id: tills.id, name: tills.name })
    .from(tills)
    .where(
      and(eq(tills.cafeId, P("cafe")), eq(tills.active, true), sql`(${P("till")} = 0 OR ${tills.id} = ${P("till")})`),
    )
    .orderBy(asc(tills.id))
    .limit(1)
    .prepare(),
);

export const insertSaleTill = preparedQuery((db: Db) =>
  db
    .insert(saleTills)
    .values({ saleId: P("saleId"), tillId: P("tillId"), tillName: P("tillName"), shiftId: P("shiftId") })
    .prepare(),
);

export const insertSalePayment = preparedQuery((db: Db) =>
  db
    .insert(salePayments)
    .values({
      saleId: P("saleId"),
      methodId: P("methodId"),
      methodCode: P("methodCode"),
      methodName: P("methodName"),
      inDrawer: P("inDrawer"),
      amountCents: P("amountCents"),
      tenderedCents: P("tenderedCents"),
      changeCents: P("changeCents"),
      reference: P("reference"),
    })
    .prepare(),
);
