/**
 * Selling a meal, in one immediate transaction. Everything that decides a sale is read on the server: the prices
 * from the cafe's price list (a price, total or other-unit flag sent by the browser is ignored), the diner and
 * whether they are barred or inactive, whether the cafe is their home cafe, the IGV rate and the other-unit factor
 * in force (settings). The ticket takes the next number of the cafe's current series from the series registry
 * (series.ts) inside the transaction, so each series runs gapless; one credit meal per diner, service and service
 * date is held by a unique index across all cafes, so concurrent requests cannot both pass. Every request carries
 * a key made by the browser: the same key with the same content is one sale (a retry answers with it), the same key
 * with other content is refused.
 *
 * Voiding keeps the sale (struck through, counted nowhere, its number not reused) with who, when and why.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  blacklist,
  businesses,
  cafes,
  cafeServices,
  dealerships,
  visibleDiners,
  saleLines,
  salePrints,
  sales,
  services,
  subdealerships,
  type SaleType,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import type { Document, DocumentSettings } from "../../shared/documents";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { NO_EVENTS, type Publisher } from "../events";
import { documentFields, parseInput, parseWithDocument, t } from "../validation";
import { dateIn, isCalendarDate } from "../../shared/calendar";
import { applyFactor, splitIgv } from "../../shared/money";
import { actorName } from "./actor-name";
import { isClosed, monthOf } from "./periods";
import { readSale, saleView, ticketNumber, type SaleView } from "./queries";
import { takeTicketNumber } from "./series";
import { openShiftAt } from "../cash/shifts";
import { cafePaymentMethodList } from "../cash/payment-methods";
import {
  insertSalePayment,
  tillForSale,
  insertSaleTill,
  paymentsDigest,
  PaymentsInput,
  planPayments,
  type PlannedPayment,
} from "../cash/sale-payments";

/** The settings a sale reads: the DNI length, the IGV rate and the other-unit factor. */
export interface SaleSettings extends DocumentSettings {
  igvRateBasisPoints: number;
  otherUnitFactorPercent: number;
}

/** The most of one service in one cash sale. */
export const MAX_QUANTITY = 99;

/**
 * The request's contract (scanners, an offline queue and integrations rely on it): see docs/point-of-sale.md.
 * Fields it does not name (a price, a total, an other-unit flag) are dropped before anything reads them.
 */
export const SaleInput = t.Object({
  key: t.String({ minLength: 8, maxLength: 100, pattern: "^[A-Za-z0-9._:-]+$", messageKey: "sales.key_invalid" }),
  cafe_id: t.Integer({ minimum: 1 }),
  receipt_type: t.Optional(t.Literal("ticket")),
  ...documentFields({ optional: true }),
  visitor_name: t.Optional(
    t.Union([t.String({ maxLength: 120 }), t.Null()], { messageKey: "sales.visitor_name_invalid" }),
  ),
  service_date: t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", messageKey: "sales.date_invalid" }),
  sale_type: t.Union([t.Literal("credit"), t.Literal("cash")], { messageKey: "sales.sale_type_invalid" }),
  other_unit_confirmed: t.Optional(t.Boolean()),
  /** The till the sale is made at; none: the cafe's first active till. */
  till_id: t.Optional(t.Integer({ minimum: 1 })),
  /** How a cash-type sale is paid (docs/cash.md); none: the total in cash, exactly. Refused on a credit sale. */
  payments: t.Optional(PaymentsInput),
  lines: t.Array(
    t.Object({
      service_id: t.Integer({ minimum: 1 }),
      quantity: t.Integer({ minimum: 1, maximum: MAX_QUANTITY, messageKey: "sales.quantity_invalid" }),
    }),
    { minItems: 1, maxItems: 20, messageKey: "sales.lines_required" },
  ),
});

export interface SaleAbilities {
  /** sales.backdate: may sell for an earlier service date. */
  backdate: boolean;
}

export interface SaleOutcome {
  sale: SaleView;
  /** The key had been used for this same request: nothing new was written. */
  replayed: boolean;
}

// A sale is the busiest write of Mesa: every statement it runs is prepared once per connection.
const P = (name: string) => sql.placeholder(name);
const cafeById = preparedQuery((db: Db) =>
  db
    .select({
      id: cafes.id,
      name: cafes.name,
      timeZone: cafes.timeZone,
      ticketSeries: cafes.ticketSeries,
      businessId: cafes.businessId,
      businessName: businesses.name,
      businessRuc: businesses.ruc,
      businessAddress: businesses.fiscalAddress,
    })
    .from(cafes)
    .leftJoin(businesses, eq(businesses.id, cafes.businessId))
    .where(eq(cafes.id, P("id")))
    .prepare(),
);
const saleOfKey = preparedQuery((db: Db) =>
  db
    .select({ id: sales.id, digest: sales.requestDigest })
    .from(sales)
    .where(eq(sales.requestKey, P("key")))
    .prepare(),
);
const cafeServiceList = preparedQuery((db: Db) =>
  db
    .select({
      serviceId: cafeServices.serviceId,
      priceCents: cafeServices.priceCents,
      code: services.code,
      name: services.name,
      active: services.active,
    })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(eq(cafeServices.cafeId, P("cafe")))
    .prepare(),
);
const barOfDocument = preparedQuery((db: Db) =>
  db
    .select({ reason: blacklist.reason })
    .from(blacklist)
    .where(and(eq(blacklist.documentType, P("type")), eq(blacklist.documentNumber, P("number"))))
    .prepare(),
);
const dinerOfDocument = preparedQuery((db: Db) =>
  db
    .select({
      id: visibleDiners.id,
      name: visibleDiners.name,
      active: visibleDiners.active,
      cafeId: visibleDiners.cafeId,
      homeCafe: cafes.name,
      subdealershipId: subdealerships.id,
      subdealershipName: subdealerships.name,
      subdealershipRuc: subdealerships.ruc,
      dealershipId: dealerships.id,
      dealershipName: dealerships.name,
      dealershipRuc: dealerships.ruc,
    })
    .from(visibleDiners)
    .innerJoin(cafes, eq(cafes.id, visibleDiners.cafeId))
    .innerJoin(subdealerships, eq(subdealerships.id, visibleDiners.subdealershipId))
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .where(and(eq(visibleDiners.documentType, P("type")), eq(visibleDiners.documentNumber, P("number"))))
    .prepare(),
);
const creditMeal = preparedQuery((db: Db) =>
  db
    .select({ series: sales.series, number: sales.number, cafeName: sales.cafeName })
    .from(saleLines)
    .innerJoin(sales, eq(sales.id, saleLines.saleId))
    .where(
      and(
        eq(saleLines.dinerId, P("diner")),
        eq(saleLines.serviceId, P("service")),
        eq(saleLines.serviceDate, P("date")),
        // Written as the index's own condition, so SQLite reads sale_lines_one_credit_meal.
        sql`${saleLines.saleType} = 'credit' AND ${saleLines.voided} = 0`,
      ),
    )
    .prepare(),
);
const insertSale = preparedQuery((db: Db) =>
  db
    .insert(sales)
    .values({
      cafeId: P("cafeId"),
      receiptType: P("receiptType"),
      series: P("series"),
      number: P("number"),
      saleType: P("saleType"),
      serviceDate: P("serviceDate"),
      soldAt: P("soldAt"),
      requestKey: P("requestKey"),
      requestDigest: P("requestDigest"),
      dinerId: P("dinerId"),
      documentType: P("documentType"),
      documentNumber: P("documentNumber"),
      dinerName: P("dinerName"),
      subdealershipId: P("subdealershipId"),
      subdealershipName: P("subdealershipName"),
      subdealershipRuc: P("subdealershipRuc"),
      dealershipId: P("dealershipId"),
      dealershipName: P("dealershipName"),
      dealershipRuc: P("dealershipRuc"),
      businessId: P("businessId"),
      businessName: P("businessName"),
      businessRuc: P("businessRuc"),
      businessAddress: P("businessAddress"),
      cafeName: P("cafeName"),
      otherUnit: P("otherUnit"),
      priceFactorPercent: P("priceFactorPercent"),
      igvRateBasisPoints: P("igvRateBasisPoints"),
      baseCents: P("baseCents"),
      igvCents: P("igvCents"),
      totalCents: P("totalCents"),
      cashierId: P("cashierId"),
      cashierName: P("cashierName"),
    })
    .returning({ id: sales.id })
    .prepare(),
);
const insertLine = preparedQuery((db: Db) =>
  db
    .insert(saleLines)
    .values({
      saleId: P("saleId"),
      serviceId: P("serviceId"),
      serviceCode: P("serviceCode"),
      serviceName: P("serviceName"),
      quantity: P("quantity"),
      listPriceCents: P("listPriceCents"),
      unitPriceCents: P("unitPriceCents"),
      baseCents: P("baseCents"),
      igvCents: P("igvCents"),
      totalCents: P("totalCents"),
      dinerId: P("dinerId"),
      saleType: P("saleType"),
      serviceDate: P("serviceDate"),
    })
    .prepare(),
);

interface Buyer {
  dinerId: number | null;
  document: Document;
  name: string;
  subdealership: { id: number; name: string; ruc: string } | null;
  dealership: { id: number; name: string; ruc: string } | null;
  otherUnit: boolean;
  /** The diner's home cafe (for the other-unit question). */
  homeCafe: string | null;
}

interface PricedLine {
  serviceId: number;
  code: string;
  name: string;
  quantity: number;
  listPriceCents: number;
  unitPriceCents: number;
  totalCents: number;
  baseCents: number;
  igvCents: number;
}

/** What a request asked, as one digest: the same key must come with the same digest. */
function digestOf(actor: Actor, data: ReturnType<typeof parseSale>): string {
  const canonical = JSON.stringify([
    actor.userId,
    data.input.cafe_id,
    data.input.receipt_type ?? "ticket",
    data.document?.type ?? null,
    data.document?.number ?? null,
    (data.input.visitor_name ?? "").trim() || null,
    data.input.service_date,
    data.input.sale_type,
    data.input.other_unit_confirmed === true,
    [...data.input.lines].sort((a, b) => a.service_id - b.service_id).map((l) => [l.service_id, l.quantity]),
    data.input.till_id ?? null,
    paymentsDigest(data.input.payments),
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

function parseSale(input: unknown, settings: SaleSettings) {
  const { data, document } = parseWithDocument(SaleInput, input, settings);
  return { input: data, document };
}

/** The sale a key was used for: the same request answers with it; another request is refused (409). */
function keyUsedFor(db: Db, key: string, digest: string): number | null {
  const used = saleOfKey(db).get({ key });
  if (!used) return null;
  if (used.digest !== digest) throw new Conflict(message("sales.key_reused"));
  return used.id;
}

function replayOf(db: Db, key: string, digest: string): SaleView | null {
  const id = keyUsedFor(db, key, digest);
  return id === null ? null : readSale(db, id);
}

/** A service's name for messages: its code and name. */
function serviceLabel(line: { code: string; name: string }): string {
  return `${line.name} (${line.code})`;
}

/**
 * Records a sale. `abilities` are the actor's (sales.backdate); the route has checked sales.create, and the cafe
 * must lie in the actor's scope (NotFound otherwise). Returns the sale, or the earlier one for a replayed key.
 * Publishes SaleRecorded once the sale is committed.
 */
export function recordSale(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  settings: SaleSettings,
  abilities: SaleAbilities,
  events: Publisher = NO_EVENTS,
  now = new Date(),
): SaleOutcome {
  const data = parseSale(input, settings);
  const { input: request, document } = data;
  const digest = digestOf(actor, data);

  const cafe = cafeById(db).get({ id: request.cafe_id });
  if (!cafe || !reachesCafe(scope, cafe.id)) throw new NotFound();

  const replayed = replayOf(db, request.key, digest);
  if (replayed) return { sale: replayed, replayed: true };

  const errors: Record<string, Message> = {};

  const business =
    cafe.businessId === null || cafe.businessName === null
      ? null
      : { id: cafe.businessId, name: cafe.businessName, ruc: cafe.businessRuc, address: cafe.businessAddress ?? "" };
  if (!business) errors.cafe_id = message("sales.cafe_without_business", { cafe: cafe.name });
  else if (!business.ruc) errors.cafe_id = message("sales.business_without_ruc", { business: business.name });
  else if (cafe.ticketSeries === "") errors.cafe_id = noSeries(cafe.name);

  const today = dateIn(cafe.timeZone, now);
  if (!isCalendarDate(request.service_date)) errors.service_date = message("sales.date_invalid");
  else if (request.service_date > today) errors.service_date = message("sales.date_future", { today });
  else if (request.service_date < today && !abilities.backdate)
    errors.service_date = message("sales.date_past_forbidden", { today });
  else if (isClosed(db, cafe.id, request.service_date))
    errors.service_date = message("periods.closed_for_sales", {
      month: monthOf(request.service_date),
      cafe: cafe.name,
    });

  const saleType: SaleType = request.sale_type;
  const lines = priceLines(db, cafe.id, request.lines, saleType, errors);

  const buyer = findBuyer(db, cafe, request, document, saleType, errors);
  const factor = buyer?.otherUnit ? settings.otherUnitFactorPercent : 100;
  if (buyer?.otherUnit && request.other_unit_confirmed !== true)
    errors.other_unit_confirmed = message("sales.other_unit_unconfirmed", {
      name: buyer.name,
      cafe: buyer.homeCafe ?? "",
      factor: factor / 100,
    });
  if (buyer && saleType === "credit" && lines)
    for (const [index, line] of lines.entries()) {
      const earlier = creditMealOf(db, buyer.dinerId!, line.serviceId, request.service_date);
      if (earlier) errors[`lines.${index}.service_id`] = creditTakenMessage(buyer.name, line, earlier);
    }

  const priced = (lines ?? []).map((line) => {
    const unitPriceCents = applyFactor(line.listPriceCents, factor);
    const totalCents = unitPriceCents * line.quantity;
    return { ...line, unitPriceCents, totalCents, ...splitIgv(totalCents, settings.igvRateBasisPoints) };
  });
  const sum = (pick: (l: PricedLine) => number) => priced.reduce((total, line) => total + pick(line), 0);

  const till = tillForSale(db).get({ cafe: cafe.id, till: request.till_id ?? 0 }) ?? null;
  if (request.till_id !== undefined && !till) errors.till_id = message("cash.till_unknown");
  let payments: PlannedPayment[] = [];
  if (saleType === "credit") {
    if (request.payments?.length) errors.payments = message("cash.credit_without_payments");
  } else {
    const total = lines && buyer ? sum((l) => l.totalCents) : null;
    payments = planPayments(cafePaymentMethodList(db, cafe.id), request.payments, total, errors) ?? [];
  }

  if (Object.keys(errors).length || !lines || !buyer || !business) {
    // The same request may have been recorded since the key was first looked up (another process, another till
    // retrying): its own sale is then the answer, not a refusal.
    const recorded = replayOf(db, request.key, digest);
    if (recorded) return { sale: recorded, replayed: true };
    throw new ValidationFailed(errors);
  }

  const cashierName = actorName(db, actor);
  let written: { id: number; replayed: true } | { sale: SaleView; replayed: false };
  try {
    written = db.transaction(
      (tx) => {
        // Two requests with one key can both get here; the second answers as a replay (or is refused).
        const again = keyUsedFor(db, request.key, digest);
        if (again !== null) return { id: again, replayed: true as const };
        // The number comes from the cafe's own series under the business printed on the ticket.
        const ticket = takeTicketNumber(db).get({ business: business.id, cafe: cafe.id });
        if (!ticket) throw new ValidationFailed({ cafe_id: noSeries(cafe.name) });
        const values = {
          cafeId: cafe.id,
          receiptType: "ticket" as const,
          series: ticket.series,
          number: ticket.next - 1,
          saleType,
          serviceDate: request.service_date,
          soldAt: now,
          requestKey: request.key,
          requestDigest: digest,
          dinerId: buyer.dinerId,
          documentType: buyer.document.type,
          documentNumber: buyer.document.number,
          dinerName: buyer.name,
          subdealershipId: buyer.subdealership?.id ?? null,
          subdealershipName: buyer.subdealership?.name ?? null,
          subdealershipRuc: buyer.subdealership?.ruc ?? null,
          dealershipId: buyer.dealership?.id ?? null,
          dealershipName: buyer.dealership?.name ?? null,
          dealershipRuc: buyer.dealership?.ruc ?? null,
          businessId: business.id,
          businessName: business.name,
          businessRuc: business.ruc!,
          businessAddress: business.address,
          cafeName: cafe.name,
          otherUnit: buyer.otherUnit,
          priceFactorPercent: factor,
          igvRateBasisPoints: settings.igvRateBasisPoints,
          baseCents: sum((l) => l.baseCents),
          igvCents: sum((l) => l.igvCents),
          totalCents: sum((l) => l.totalCents),
          cashierId: actor.userId,
          cashierName,
        };
        const sale = insertSale(tx).get(values)!;
        for (const line of priced)
          insertLine(tx).run({
            saleId: sale.id,
            serviceId: line.serviceId,
            serviceCode: line.code,
            serviceName: line.name,
            quantity: line.quantity,
            listPriceCents: line.listPriceCents,
            unitPriceCents: line.unitPriceCents,
            baseCents: line.baseCents,
            igvCents: line.igvCents,
            totalCents: line.totalCents,
            dinerId: buyer.dinerId,
            saleType,
            serviceDate: request.service_date,
          });
        if (till) {
          // The seller's shift open at this till, if any, is where the sale (and its cash) belongs.
          const shift =
            actor.userId === null ? undefined : openShiftAt(tx).get({ cashier: actor.userId, till: till.id });
          insertSaleTill(tx).run({ saleId: sale.id, tillId: till.id, tillName: till.name, shiftId: shift?.id ?? null });
        }
        for (const payment of payments) insertSalePayment(tx).run({ saleId: sale.id, ...payment });
        recordAudit(
          tx,
          actor,
          {
            action: "sale.created",
            subjectType: "sale",
            subjectId: sale.id,
            places: [{ cafeId: cafe.id }],
            after: {
              ticket: ticketNumber(ticket.series, ticket.next - 1),
              saleType,
              serviceDate: request.service_date,
              documentNumber: buyer.document.number,
              name: buyer.name,
              otherUnit: buyer.otherUnit,
              totalCents: sum((l) => l.totalCents),
              till: till?.name ?? null,
              payments: payments.map((p) => ({ method: p.methodName, amountCents: p.amountCents })),
            },
          },
          now,
        );
        // The answer is what was written: the sale as readSale would read it back.
        const lineViews = priced.map((line) => ({
          serviceId: line.serviceId,
          serviceCode: line.code,
          serviceName: line.name,
          quantity: line.quantity,
          unitPriceCents: line.unitPriceCents,
          listPriceCents: line.listPriceCents,
          baseCents: line.baseCents,
          igvCents: line.igvCents,
          totalCents: line.totalCents,
        }));
        const row = { ...values, id: sale.id, timeZone: cafe.timeZone };
        const view = saleView(
          { ...row, voidedAt: null, voidedBy: null, voidedByName: null, voidReason: null },
          lineViews,
          {
            tillName: till?.name ?? null,
            payments: payments.map((p) => ({
              methodCode: p.methodCode,
              methodName: p.methodName,
              amountCents: p.amountCents,
              tenderedCents: p.tenderedCents,
              changeCents: p.changeCents,
              reference: p.reference,
            })),
          },
        );
        return { sale: view, replayed: false as const };
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    if (isCreditClash(error)) {
      // Another request sold the same meal between the check and the write.
      const clashes: Record<string, Message> = {};
      for (const [index, line] of priced.entries()) {
        const earlier = creditMealOf(db, buyer.dinerId!, line.serviceId, request.service_date);
        if (earlier) clashes[`lines.${index}.service_id`] = creditTakenMessage(buyer.name, line, earlier);
      }
      throw new ValidationFailed(Object.keys(clashes).length ? clashes : { lines: message("sales.credit_taken_now") });
    }
    if (isKeyClash(error)) {
      const again = replayOf(db, request.key, digest);
      if (again) return { sale: again, replayed: true };
    }
    throw error;
  }
  if (written.replayed) return { sale: readSale(db, written.id)!, replayed: true };
  const { sale } = written;
  events.publish({ name: "SaleRecorded", saleId: sale.id, cafeId: sale.cafeId, serviceDate: sale.serviceDate });
  return { sale, replayed: false };
}

/** The refusal of a cafe without a ticket series of its own (none chosen, or its series went to another cafe). */
function noSeries(cafe: string): Message {
  return message("sales.series_missing", { cafe });
}

function isCreditClash(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: sale_lines\./.test(error.message);
}

function isKeyClash(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: sales\.request_key/.test(error.message);
}

/** The cafe's prices of the services asked for; errors per line. Null when a line is refused. */
function priceLines(
  db: Db,
  cafeId: number,
  requested: { service_id: number; quantity: number }[],
  saleType: SaleType,
  errors: Record<string, Message>,
): Omit<PricedLine, "unitPriceCents" | "totalCents" | "baseCents" | "igvCents">[] | null {
  const offered = new Map(
    cafeServiceList(db)
      .all({ cafe: cafeId })
      .map((row) => [row.serviceId, row]),
  );
  const seen = new Set<number>();
  const lines = [];
  let refused = false;
  for (const [index, line] of requested.entries()) {
    const field = `lines.${index}.service_id`;
    const service = offered.get(line.service_id);
    if (seen.has(line.service_id)) {
      errors[field] = message("sales.service_repeated");
      refused = true;
      continue;
    }
    seen.add(line.service_id);
    if (!service || !service.active) {
      errors[field] = message("sales.service_not_offered");
      refused = true;
    } else if (service.priceCents === null) {
      errors[field] = message("sales.service_without_price", { service: serviceLabel(service) });
      refused = true;
    } else if (saleType === "credit" && line.quantity !== 1) {
      errors[`lines.${index}.quantity`] = message("sales.credit_one_each", { service: serviceLabel(service) });
      refused = true;
    } else {
      lines.push({
        serviceId: service.serviceId,
        code: service.code,
        name: service.name,
        quantity: line.quantity,
        listPriceCents: service.priceCents,
      });
    }
  }
  return refused ? null : lines;
}

/** The barred reason of a document, or null. */
function barredReason(db: Db, document: Document): string | null {
  return barOfDocument(db).get({ type: document.type, number: document.number })?.reason ?? null;
}

/** Who the sale is for: a registered diner (by document), or for cash a visitor with a name and a document. */
function findBuyer(
  db: Db,
  cafe: { id: number },
  request: { visitor_name?: string | null; sale_type: SaleType },
  document: Document | null,
  saleType: SaleType,
  errors: Record<string, Message>,
): Buyer | null {
  if (!document) {
    if (!errors.document_number) errors.document_number = message("validation.required");
    return null;
  }
  const barred = barredReason(db, document);
  const diner = dinerOfDocument(db).get({ type: document.type, number: document.number });
  const visitorName = (request.visitor_name ?? "").trim();
  if (!diner) {
    if (saleType === "cash" && visitorName !== "") {
      if (barred !== null) {
        errors.document_number = message("sales.person_barred", { name: visitorName, reason: barred });
        return null;
      }
      if (visitorName.length < 2) {
        errors.visitor_name = message("validation.min_length", { min: 2 });
        return null;
      }
      return {
        dinerId: null,
        document,
        name: visitorName,
        subdealership: null,
        dealership: null,
        otherUnit: false,
        homeCafe: null,
      };
    }
    errors.document_number = message("sales.diner_unknown", { document: document.number });
    return null;
  }
  if (barred !== null) {
    errors.document_number = message("sales.person_barred", { name: diner.name, reason: barred });
    return null;
  }
  if (!diner.active) {
    errors.document_number = message("sales.diner_inactive", { name: diner.name });
    return null;
  }
  return {
    dinerId: diner.id,
    document,
    name: diner.name,
    subdealership: { id: diner.subdealershipId, name: diner.subdealershipName, ruc: diner.subdealershipRuc },
    dealership: { id: diner.dealershipId, name: diner.dealershipName, ruc: diner.dealershipRuc },
    otherUnit: diner.cafeId !== cafe.id,
    homeCafe: diner.homeCafe,
  };
}

/** The credit sale (not voided) that already gave this diner this service on this date, in any cafe. */
function creditMealOf(db: Db, dinerId: number, serviceId: number, serviceDate: string) {
  return creditMeal(db).get({ diner: dinerId, service: serviceId, date: serviceDate }) ?? null;
}

function creditTakenMessage(
  name: string,
  line: { code: string; name: string },
  earlier: { series: string; number: number; cafeName: string },
): Message {
  return message("sales.credit_taken", {
    name,
    service: serviceLabel(line),
    ticket: ticketNumber(earlier.series, earlier.number),
    cafe: earlier.cafeName,
  });
}

export const VoidInput = t.Object({
  reason: t.String({ minLength: 3, maxLength: 200 }),
});

export interface VoidAbilities {
  /** sales.void_any: may void anyone's sale, on any later day. */
  voidAny: boolean;
}

/**
 * Voids a sale with a reason. The cashier who sold it may void it while its service date is the cafe's today;
 * anyone else, or later, needs sales.void_any. The sale stays, marked, and counts nowhere; its lines stop holding
 * the diner's credit meal, so the meal can be sold again. Publishes SaleVoided once committed.
 */
export function voidSale(
  db: Db,
  actor: Actor,
  scope: Scope,
  saleId: number,
  input: unknown,
  abilities: VoidAbilities,
  events: Publisher = NO_EVENTS,
  now = new Date(),
): SaleView {
  const sale = readSale(db, saleId);
  if (!sale || !reachesCafe(scope, sale.cafeId)) throw new NotFound();
  const { reason } = parseInput(VoidInput, input);
  if (sale.voided) throw new Conflict(message("sales.already_voided", { ticket: sale.ticket }));
  const closed = () =>
    new ValidationFailed({
      reason: message("periods.closed_for_voids", { month: monthOf(sale.serviceDate), ticket: sale.ticket }),
    });
  if (isClosed(db, sale.cafeId, sale.serviceDate)) throw closed();
  if (!abilities.voidAny) {
    if (sale.cashierId === null || sale.cashierId !== actor.userId)
      throw new ValidationFailed({ reason: message("sales.void_not_yours", { ticket: sale.ticket }) });
    if (sale.serviceDate !== dateIn(sale.timeZone, now))
      throw new ValidationFailed({ reason: message("sales.void_too_late", { ticket: sale.ticket }) });
  }
  db.transaction(
    (tx) => {
      // The month may have been closed since the check above, by another process.
      if (isClosed(tx, sale.cafeId, sale.serviceDate)) throw closed();
      const changed = tx
        .update(sales)
        .set({ voidedAt: now, voidedBy: actor.userId, voidedByName: actorName(db, actor), voidReason: reason })
        .where(and(eq(sales.id, saleId), isNull(sales.voidedAt)))
        .returning({ id: sales.id })
        .all();
      if (changed.length === 0) throw new Conflict(message("sales.already_voided", { ticket: sale.ticket }));
      tx.update(saleLines).set({ voided: true }).where(eq(saleLines.saleId, saleId)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "sale.voided",
          subjectType: "sale",
          subjectId: saleId,
          places: [{ cafeId: sale.cafeId }],
          before: { ticket: sale.ticket, totalCents: sale.totalCents },
          after: { reason },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  events.publish({ name: "SaleVoided", saleId, cafeId: sale.cafeId, serviceDate: sale.serviceDate });
  return readSale(db, saleId)!;
}

/** Records that a sale's ticket was printed (the first print, or a reprint after it). */
export function recordPrint(
  db: Db,
  actor: Actor,
  scope: Scope,
  saleId: number,
  now = new Date(),
): { reprint: boolean } {
  const sale = db.select({ cafeId: sales.cafeId }).from(sales).where(eq(sales.id, saleId)).get();
  if (!sale || !reachesCafe(scope, sale.cafeId)) throw new NotFound();
  return db.transaction((tx) => {
    const earlier = tx
      .select({ id: salePrints.id })
      .from(salePrints)
      .where(eq(salePrints.saleId, saleId))
      .limit(1)
      .get();
    const reprint = earlier !== undefined;
    tx.insert(salePrints).values({ saleId, userId: actor.userId, reprint, printedAt: now }).run();
    if (reprint)
      recordAudit(
        tx,
        actor,
        { action: "sale.reprinted", subjectType: "sale", subjectId: saleId, places: [{ cafeId: sale.cafeId }] },
        now,
      );
    return { reprint };
  });
}
