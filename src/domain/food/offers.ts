/**
 * Supply offers: what a provider charges for an ingredient delivered in a city, in one presentation ("50 kg sack")
 * that holds `quantity` of the ingredient's base unit, with whether the price includes IGV. The cost per base unit
 * follows, net of IGV at the IGV_RATE setting (cost.ts). Company-wide data the buyer keeps (`logistics.manage`).
 *
 * Every price an offer has is kept, dated, in `offer_price_history`: the first when the offer is created, and one
 * more each time its price, its quantity or its IGV flag changes (a change that alters none of them adds nothing).
 * An offer's provider, ingredient and city make what it is; they are not changed afterwards (withdraw it and make
 * another). A withdrawn offer keeps its history but is no longer current: the cheapest current offer of a city
 * (logistics.ts) leaves it out.
 */
import { and, desc, eq } from "drizzle-orm";
import { ingredients, offerPriceHistory, offers, providers } from "../../../db/schema";
import type { Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { MAX_CENTS, parseSoles } from "../../shared/money";
import { parseInput, t } from "../validation";
import { chosenCity, tidy } from "./cities";
import { costPerBaseUnit, costPerReferenceCents, netPriceCents, type BasisPoints } from "../../shared/food/cost";
import { readDecimal } from "./figures";
import type { PriceHistoryRow } from "../../shared/food/types";
export type { PriceHistoryRow } from "../../shared/food/types";

export type Offer = typeof offers.$inferSelect;

/** The IGV rate the costs are net of (the IGV_RATE setting, in basis points). */
export interface OfferSettings {
  igvRate: BasisPoints;
}

/** Who set a price, as the history keeps them. */
export interface PriceAuthor {
  userId: number | null;
  name: string;
}

const priceField = () => t.Union([t.String({ maxLength: 20 }), t.Number()]);
const quantityField = () => t.Union([t.String({ maxLength: 20 }), t.Number()]);

/** A new offer: who, what, where, and the presentation with its quantity and price. */
export const NewOfferInput = t.Object({
  provider_id: t.Integer({ minimum: 1 }),
  ingredient_id: t.Integer({ minimum: 1 }),
  city_id: t.Integer({ minimum: 1 }),
  presentation: t.String({ minLength: 1, maxLength: 80 }),
  quantity: quantityField(),
  price: priceField(),
  price_includes_igv: t.Boolean(),
});

/** An offer changed: its presentation, quantity, price, IGV flag and whether it is current. */
export const OfferChangeInput = t.Object({
  presentation: t.String({ minLength: 1, maxLength: 80 }),
  quantity: quantityField(),
  price: priceField(),
  price_includes_igv: t.Boolean(),
  active: t.Optional(t.Boolean()),
});

/** The largest quantity a presentation may hold: 100 t in grams. */
const MAX_QUANTITY = 100_000_000;

/** A price typed in soles ("12.50", "12,5") or a number of soles (a workbook cell), as cents; null with a message. */
export function priceCentsOf(value: unknown, field: string, errors: Record<string, Message>): number | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? value.toFixed(2) : "") : String(value ?? "");
  if (text.trim() === "") {
    errors[field] = message("validation.required");
    return null;
  }
  const cents = parseSoles(text);
  if (cents === null || cents > MAX_CENTS) {
    errors[field] = message("food.offers.price_invalid");
    return null;
  }
  if (cents === 0) {
    errors[field] = message("food.offers.price_zero");
    return null;
  }
  return cents;
}

/** The quantity a presentation holds, in the base unit: more than 0. */
function quantityOf(value: unknown, errors: Record<string, Message>): number | null {
  return readDecimal(value, "quantity", { min: 0, max: MAX_QUANTITY, aboveMin: true }, errors, true);
}

export interface OfferValues {
  providerId: number;
  ingredientId: number;
  cityId: number;
  presentation: string;
  quantity: number;
  priceCents: number;
  priceIncludesIgv: boolean;
}

/**
 * Checks a new offer, every field at once, with `prefix` before each field name (the New-ingredient dialog sends its
 * offer as `offer.*`). `ingredientId` is given when the ingredient is created with it (and so has no id yet to check).
 */
export function parseNewOffer(
  db: Db | Tx,
  input: unknown,
  errors: Record<string, Message> = {},
  options: { prefix?: string; ingredientId?: number | "new" } = {},
): OfferValues | null {
  const prefix = options.prefix ?? "";
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const withIngredient = options.ingredientId === undefined ? source : { ...source, ingredient_id: 1 };
  let data: ReturnType<typeof parseInput<typeof NewOfferInput>> | null = null;
  try {
    data = parseInput(NewOfferInput, withIngredient);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    for (const [field, problem] of Object.entries(error.errors)) errors[prefix + field] = problem;
  }
  const local: Record<string, Message> = {};
  const quantity = quantityOf(source.quantity, local);
  const priceCents = priceCentsOf(source.price, "price", local);
  if (data) {
    const provider = db.select({ id: providers.id }).from(providers).where(eq(providers.id, data.provider_id)).get();
    if (!provider) local.provider_id = message("food.providers.unknown");
    try {
      chosenCity(db, data.city_id);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      Object.assign(local, error.errors);
    }
    if (options.ingredientId === undefined) {
      const ingredient = db
        .select({ id: ingredients.id })
        .from(ingredients)
        .where(eq(ingredients.id, data.ingredient_id))
        .get();
      if (!ingredient) local.ingredient_id = message("food.ingredients.unknown");
    }
  }
  for (const [field, problem] of Object.entries(local)) errors[prefix + field] ??= problem;
  if (!data || quantity === null || priceCents === null || Object.keys(local).length) return null;
  const ingredientId = typeof options.ingredientId === "number" ? options.ingredientId : data.ingredient_id;
  const presentation = tidy(data.presentation);
  if (options.ingredientId !== "new") {
    const same = db
      .select({ id: offers.id })
      .from(offers)
      .where(
        and(
          eq(offers.providerId, data.provider_id),
          eq(offers.ingredientId, ingredientId),
          eq(offers.cityId, data.city_id),
          eq(offers.presentation, presentation),
        ),
      )
      .get();
    if (same) {
      errors[prefix + "presentation"] = message("food.offers.taken", { presentation });
      return null;
    }
  }
  return {
    providerId: data.provider_id,
    ingredientId,
    cityId: data.city_id,
    presentation,
    quantity,
    priceCents,
    priceIncludesIgv: data.price_includes_igv,
  };
}

function snapshot(o: Offer) {
  return {
    providerId: o.providerId,
    ingredientId: o.ingredientId,
    cityId: o.cityId,
    presentation: o.presentation,
    quantity: o.quantity,
    priceCents: o.priceCents,
    priceIncludesIgv: o.priceIncludesIgv,
    active: o.active,
  };
}

/** Adds a dated price to an offer's history. */
function recordPrice(tx: Tx, offer: Offer, author: PriceAuthor, now: Date): void {
  tx.insert(offerPriceHistory)
    .values({
      offerId: offer.id,
      priceCents: offer.priceCents,
      priceIncludesIgv: offer.priceIncludesIgv,
      quantity: offer.quantity,
      changedAt: now,
      changedBy: author.userId,
      changedByName: author.name,
    })
    .run();
}

/** Writes a checked offer inside the caller's transaction with its first price in the history, audited. */
export function insertOffer(tx: Tx, actor: Actor, author: PriceAuthor, values: OfferValues, now: Date): Offer {
  const offer = tx
    .insert(offers)
    .values({ ...values, active: true, priceChangedAt: now, createdAt: now, updatedAt: now })
    .returning()
    .get();
  recordPrice(tx, offer, author, now);
  recordAudit(
    tx,
    actor,
    {
      action: "offer.created",
      subjectType: "offer",
      subjectId: offer.id,
      places: COMPANY_WIDE,
      after: snapshot(offer),
    },
    now,
  );
  return offer;
}

export function createOffer(db: Db, actor: Actor, author: PriceAuthor, input: unknown, now = new Date()): Offer {
  const errors: Record<string, Message> = {};
  const values = parseNewOffer(db, input, errors);
  if (!values) throw new ValidationFailed(errors);
  return db.transaction((tx) => insertOffer(tx, actor, author, values, now), { behavior: "immediate" });
}

export function requireOffer(db: Db | Tx, id: number): Offer {
  const offer = Number.isInteger(id) && id > 0 ? db.select().from(offers).where(eq(offers.id, id)).get() : undefined;
  if (!offer) throw new NotFound();
  return offer;
}

/** The changes of an offer, checked: presentation, quantity, price, IGV flag, current or withdrawn. */
export function parseOfferChange(
  db: Db | Tx,
  offer: Offer,
  input: unknown,
): Pick<Offer, "presentation" | "quantity" | "priceCents" | "priceIncludesIgv" | "active"> {
  const errors: Record<string, Message> = {};
  let data: ReturnType<typeof parseInput<typeof OfferChangeInput>> | null = null;
  try {
    data = parseInput(OfferChangeInput, input);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
  }
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const quantity = quantityOf(source.quantity, errors);
  const priceCents = priceCentsOf(source.price, "price", errors);
  if (data && !errors.presentation) {
    const presentation = tidy(data.presentation);
    const same = db
      .select({ id: offers.id })
      .from(offers)
      .where(
        and(
          eq(offers.providerId, offer.providerId),
          eq(offers.ingredientId, offer.ingredientId),
          eq(offers.cityId, offer.cityId),
          eq(offers.presentation, presentation),
        ),
      )
      .get();
    if (same && same.id !== offer.id) errors.presentation = message("food.offers.taken", { presentation });
  }
  if (!data || quantity === null || priceCents === null || Object.keys(errors).length)
    throw new ValidationFailed(errors);
  return {
    presentation: tidy(data.presentation),
    quantity,
    priceCents,
    priceIncludesIgv: data.price_includes_igv,
    active: data.active ?? offer.active,
  };
}

/** Whether a change alters what the offer costs (its price, quantity or IGV flag): only then is a price recorded. */
export function changesPrice(before: Offer, after: Pick<Offer, "quantity" | "priceCents" | "priceIncludesIgv">) {
  return (
    before.priceCents !== after.priceCents ||
    before.quantity !== after.quantity ||
    before.priceIncludesIgv !== after.priceIncludesIgv
  );
}

/** Writes an offer's change inside the caller's transaction: a new dated price when the price changed, audited. */
export function writeOfferChange(
  tx: Tx,
  actor: Actor,
  author: PriceAuthor,
  offer: Offer,
  change: Pick<Offer, "presentation" | "quantity" | "priceCents" | "priceIncludesIgv" | "active">,
  now: Date,
): Offer {
  const priced = changesPrice(offer, change);
  const updated = tx
    .update(offers)
    .set({ ...change, updatedAt: now, ...(priced ? { priceChangedAt: now } : {}) })
    .where(eq(offers.id, offer.id))
    .returning()
    .get();
  if (priced) recordPrice(tx, updated, author, now);
  recordAudit(
    tx,
    actor,
    {
      action: "offer.updated",
      subjectType: "offer",
      subjectId: offer.id,
      places: COMPANY_WIDE,
      before: snapshot(offer),
      after: snapshot(updated),
    },
    now,
  );
  return updated;
}

export function updateOffer(
  db: Db,
  actor: Actor,
  author: PriceAuthor,
  id: number,
  input: unknown,
  now = new Date(),
): Offer {
  const offer = requireOffer(db, id);
  const change = parseOfferChange(db, offer, input);
  return db.transaction((tx) => writeOfferChange(tx, actor, author, offer, change, now), { behavior: "immediate" });
}

/** Deletes an offer with its price history (a mistake); to stop using an offer, withdraw it instead. */
export function deleteOffer(db: Db, actor: Actor, id: number, now = new Date()): Offer {
  const offer = requireOffer(db, id);
  db.transaction(
    (tx) => {
      tx.delete(offers).where(eq(offers.id, id)).run();
      recordAudit(
        tx,
        actor,
        { action: "offer.deleted", subjectType: "offer", subjectId: id, places: COMPANY_WIDE, before: snapshot(offer) },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return offer;
}

/** Every price of an offer, newest first (its price history dialog). */
export function offerHistory(db: Db, id: number, settings: OfferSettings): PriceHistoryRow[] {
  const offer = requireOffer(db, id);
  const ingredient = db
    .select({ baseUnit: ingredients.baseUnit })
    .from(ingredients)
    .where(eq(ingredients.id, offer.ingredientId))
    .get()!;
  return db
    .select()
    .from(offerPriceHistory)
    .where(eq(offerPriceHistory.offerId, id))
    .orderBy(desc(offerPriceHistory.changedAt), desc(offerPriceHistory.id))
    .all()
    .map((h) => ({
      id: h.id,
      priceCents: h.priceCents,
      priceIncludesIgv: h.priceIncludesIgv,
      quantity: h.quantity,
      changedAt: h.changedAt.toISOString(),
      changedByName: h.changedByName,
      costPerReferenceCents: costPerReferenceCents(h, ingredient.baseUnit, settings.igvRate),
    }));
}

/** The figures of an offer people read: its price net of IGV and what a base unit, and a kg, l or unit, costs. */
export function offerCosts(
  offer: { priceCents: number; priceIncludesIgv: boolean; quantity: number },
  baseUnit: "g" | "ml" | "unit",
  settings: OfferSettings,
) {
  return {
    netPriceCents: Math.round(netPriceCents(offer.priceCents, offer.priceIncludesIgv, settings.igvRate)),
    costPerBaseUnit: costPerBaseUnit(offer, settings.igvRate),
    costPerReferenceCents: costPerReferenceCents(offer, baseUnit, settings.igvRate),
  };
}
