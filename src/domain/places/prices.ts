/**
 * Cafe prices: each cafe sets its own price (integer cents) for each service it offers. Prices are typed in soles
 * ("12.50") and parsed exactly; every change is kept in service_price_history and in the audit trail.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { cafes, cafeServices, mines, servicePriceHistory, services, units, users } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { centsToSoles, parseSoles } from "../../shared/money";
import { parseInput, t } from "../validation";
import type { CafePrices } from "../../shared/places/types";
export type { CafePriceRow, CafePrices, PriceHistoryRow } from "../../shared/places/types";

function requireCafe(db: Db, scope: Scope, cafeId: number) {
  const row = db
    .select({ id: cafes.id, name: cafes.name, timeZone: cafes.timeZone, unitName: units.name, mineName: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(eq(cafes.id, cafeId))
    .get();
  if (!row || !reachesCafe(scope, cafeId)) throw new NotFound();
  return {
    id: row.id,
    name: row.name,
    timeZone: row.timeZone,
    path: `${row.mineName} › ${row.unitName} › ${row.name}`,
  };
}

/** The services a cafe offers with their prices, and the latest price changes (newest first). */
export function cafePrices(db: Db, scope: Scope, cafeId: number, historyLimit = 20): CafePrices {
  const cafe = requireCafe(db, scope, cafeId);
  const rows = db
    .select({
      serviceId: services.id,
      code: services.code,
      name: services.name,
      type: services.type,
      active: services.active,
      priceCents: cafeServices.priceCents,
    })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(eq(cafeServices.cafeId, cafeId))
    .orderBy(asc(services.code))
    .all();
  const history = db
    .select({ entry: servicePriceHistory, code: services.code, name: services.name, userName: users.name })
    .from(servicePriceHistory)
    .innerJoin(services, eq(services.id, servicePriceHistory.serviceId))
    .leftJoin(users, eq(users.id, servicePriceHistory.changedBy))
    .where(eq(servicePriceHistory.cafeId, cafeId))
    .orderBy(desc(servicePriceHistory.changedAt), desc(servicePriceHistory.id))
    .limit(historyLimit)
    .all();
  return {
    cafe,
    services: rows.map((r) => ({ ...r, price: r.priceCents === null ? "" : centsToSoles(r.priceCents) })),
    history: history.map((h) => ({
      id: h.entry.id,
      serviceCode: h.code,
      serviceName: h.name,
      oldPriceCents: h.entry.oldPriceCents,
      newPriceCents: h.entry.newPriceCents,
      by: h.userName ?? h.entry.changedByLabel,
      at: h.entry.changedAt.toISOString(),
    })),
  };
}

export const CafePricesInput = t.Object({
  prices: t.Array(
    t.Object({ service_id: t.Integer({ minimum: 1 }), price: t.Union([t.String({ maxLength: 20 }), t.Null()]) }),
    { maxItems: 500 },
  ),
});

/**
 * Sets the cafe's price of some of the services it offers ("" or null clears a price). Errors are keyed
 * `prices.<service id>`. Returns how many prices changed.
 */
export function setCafePrices(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: unknown,
  now = new Date(),
): { changed: number } {
  requireCafe(db, scope, cafeId);
  const data = parseInput(CafePricesInput, input);
  const offered = new Map(
    db
      .select({ serviceId: cafeServices.serviceId, priceCents: cafeServices.priceCents, code: services.code })
      .from(cafeServices)
      .innerJoin(services, eq(services.id, cafeServices.serviceId))
      .where(eq(cafeServices.cafeId, cafeId))
      .all()
      .map((r) => [r.serviceId, r]),
  );
  const errors: Record<string, Message> = {};
  const changes: PriceChange[] = [];
  const seen = new Set<number>();
  for (const { service_id: serviceId, price } of data.prices) {
    const row = offered.get(serviceId);
    if (seen.has(serviceId)) {
      errors[`prices.${serviceId}`] = message("services.price_repeated");
      continue;
    }
    seen.add(serviceId);
    if (!row) {
      errors[`prices.${serviceId}`] = message("services.not_offered");
      continue;
    }
    const text = (price ?? "").trim();
    const next = text === "" ? null : parseSoles(text);
    if (text !== "" && next === null) {
      errors[`prices.${serviceId}`] = message("services.price_invalid");
      continue;
    }
    if (next !== row.priceCents) changes.push({ serviceId, code: row.code, old: row.priceCents, next });
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  if (changes.length === 0) return { changed: 0 };
  db.transaction((tx) => applyCafePriceChanges(tx, actor, cafeId, changes, now));
  return { changed: changes.length };
}

/** One price change of a cafe: the service, its code (for the audit) and the price before and after (cents, null = none). */
export interface PriceChange {
  serviceId: number;
  code: string;
  old: number | null;
  next: number | null;
}

/**
 * Writes price changes of one cafe inside the caller's transaction: each new price, one history row per change
 * (who, when, old, new) and one `cafe.prices.updated` audit record. The caller has checked that the cafe offers
 * each service and that `old` is its current price.
 */
export function applyCafePriceChanges(
  tx: Tx,
  actor: Actor,
  cafeId: number,
  changes: PriceChange[],
  now = new Date(),
): void {
  if (changes.length === 0) return;
  for (const c of changes) {
    tx.update(cafeServices)
      .set({ priceCents: c.next, updatedAt: now })
      .where(and(eq(cafeServices.cafeId, cafeId), eq(cafeServices.serviceId, c.serviceId)))
      .run();
    tx.insert(servicePriceHistory)
      .values({
        cafeId,
        serviceId: c.serviceId,
        oldPriceCents: c.old,
        newPriceCents: c.next,
        changedBy: actor.userId,
        changedByLabel: actor.label,
        changedAt: now,
      })
      .run();
  }
  recordAudit(
    tx,
    actor,
    {
      action: "cafe.prices.updated",
      subjectType: "cafe",
      subjectId: cafeId,
      places: [{ cafeId }],
      before: Object.fromEntries(changes.map((c) => [c.code, c.old])),
      after: Object.fromEntries(changes.map((c) => [c.code, c.next])),
    },
    now,
  );
}

/**
 * Clears the prices of services a cafe is about to stop offering, inside the caller's transaction, so that the
 * history ends with "→ no price" instead of losing the last price with the assignment.
 */
export function clearPricesBeforeRemoval(
  tx: Tx,
  actor: Actor,
  cafeId: number,
  serviceIds: number[],
  now = new Date(),
): void {
  if (serviceIds.length === 0) return;
  const priced = tx
    .select({ serviceId: cafeServices.serviceId, priceCents: cafeServices.priceCents, code: services.code })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(
      and(
        eq(cafeServices.cafeId, cafeId),
        inArray(cafeServices.serviceId, serviceIds),
        isNotNull(cafeServices.priceCents),
      ),
    )
    .all();
  applyCafePriceChanges(
    tx,
    actor,
    cafeId,
    priced.map((r) => ({ serviceId: r.serviceId, code: r.code, old: r.priceCents, next: null })),
    now,
  );
}

/** Sets a price without history or audit (seeds): only when the cafe offers the service and has no price yet. */
export function seedPrice(db: Tx, cafeId: number, serviceId: number, cents: number, now = new Date()): void {
  db.update(cafeServices)
    .set({ priceCents: cents, updatedAt: now })
    .where(and(eq(cafeServices.cafeId, cafeId), eq(cafeServices.serviceId, serviceId), isNull(cafeServices.priceCents)))
    .run();
}
