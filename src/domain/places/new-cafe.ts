/**
 * A new cafe made sellable in one flow: the management modal finds or creates the mine and the unit, creates the
 * cafe, and gives it the services it will sell with their prices — one request, one transaction.
 *
 * What the cafe may offer follows the tree (service-assignments.ts): the services of the chosen mine, or, for a new
 * mine, the active catalogue. A chosen service the unit does not offer yet is added to the unit as well (and, for
 * a new mine, to the mine), so a unit still offers only what its mine offers and a cafe only what its unit offers.
 * Each change is written and audited by the functions the Services popover and the prices dialog use
 * (`changeOffer`, `recordOfferChange`, `applyCafePriceChanges`). Scope is checked as the modal's own checks do: a
 * limited manager chooses only mines and units within their places and creates the cafe for one of their businesses.
 */
import { eq } from "drizzle-orm";
import { mineServices, services, unitServices } from "../../../db/schema";
import type { Db } from "../../db";
import type { Scope } from "../access/scope";
import type { Actor } from "../audit";
import { Forbidden } from "../errors";
import { message, type Message } from "../../shared/message";
import { parseSoles } from "../../shared/money";
import { parseInput, t } from "../validation";
import { NewPlaceInput, planPlace, writePlace, type CreatedPlace } from "./places";
import { applyCafePriceChanges } from "./prices";
import { changeOffer, recordOfferChange } from "./service-assignments";

/** The most services one new cafe is given at once. */
const MAX_SERVICES = 100;

/** The management modal's request: the place (NewPlaceInput) and the services of the new cafe with their prices. */
export const NewCafeInput = t.Object({
  ...NewPlaceInput.properties,
  services: t.Optional(
    t.Array(
      t.Object({
        service_id: t.Integer({ minimum: 1 }),
        /** In soles ("18.50"); blank or left out: offered without a price for now. */
        price: t.Optional(t.Union([t.String({ maxLength: 20 }), t.Null()])),
      }),
      { maxItems: MAX_SERVICES },
    ),
  ),
});

export interface CreatedCafe extends CreatedPlace {
  /** The new cafe's services: how many, and how many have a price (those can be sold). */
  services: { offered: number; priced: number };
}

interface ChosenService {
  serviceId: number;
  code: string;
  priceCents: number | null;
}

/**
 * Creates the place the modal describes (as `createPlace` does) and gives the new cafe the chosen services and
 * prices, in one transaction. Errors are keyed `services` (the list as a whole), `services.<id>` (a service) and
 * `prices.<id>` (its price), reported with the place's own. Prices need `canSetPrices` (prices.manage).
 */
export function createSellableCafe(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  settings: { timeZone: string; canSetPrices: boolean },
  now = new Date(),
): CreatedCafe {
  const data = parseInput(NewCafeInput, input);
  const errors: Record<string, Message> = {};
  const requested = data.services ?? [];
  if (!settings.canSetPrices && requested.some((s) => (s.price ?? "").trim() !== "")) throw new Forbidden();

  // What the mine offers (a new mine: the active catalogue). A mine outside the scope is read here but never
  // answered: planPlace below stops with NotFound first.
  const catalogue = new Map(
    db
      .select({ id: services.id, code: services.code, name: services.name, active: services.active })
      .from(services)
      .all()
      .map((s) => [s.id, s]),
  );
  const mineOffer = data.mine_id
    ? new Set(
        db
          .select({ id: mineServices.serviceId })
          .from(mineServices)
          .where(eq(mineServices.mineId, data.mine_id))
          .all()
          .map((r) => r.id),
      )
    : null;
  const chosen: ChosenService[] = [];
  const seen = new Set<number>();
  for (const { service_id: serviceId, price } of requested) {
    const service = catalogue.get(serviceId);
    const field = `services.${serviceId}`;
    if (!service) {
      errors.services ??= message("services.unknown_services");
      continue;
    }
    const label = `${service.code} · ${service.name}`;
    if (seen.has(serviceId)) {
      errors[`prices.${serviceId}`] = message("services.price_repeated");
      continue;
    }
    seen.add(serviceId);
    if (!service.active) {
      errors[field] = message("services.inactive_service", { service: label });
      continue;
    }
    if (mineOffer && !mineOffer.has(serviceId)) {
      errors[field] = message("places.service_not_in_mine", { service: label });
      continue;
    }
    const text = (price ?? "").trim();
    const priceCents = text === "" ? null : parseSoles(text);
    if (text !== "" && priceCents === null) {
      errors[`prices.${serviceId}`] = message("services.price_invalid");
      continue;
    }
    chosen.push({ serviceId, code: service.code, priceCents });
  }
  if (requested.length > 0 && !data.cafe_name?.trim()) errors.services ??= message("places.services_need_cafe");

  const plan = planPlace(db, scope, data, settings, errors);
  // planPlace throws every problem at once, ours included; past it the request is whole.
  return db.transaction((tx) => {
    const created = writePlace(tx, actor, plan, now);
    if (!created.cafe || !created.unit || chosen.length === 0)
      return { ...created, services: { offered: 0, priced: 0 } };
    const ids = chosen.map((c) => c.serviceId);
    const codeOf = (id: number) => catalogue.get(id)!.code;
    if (created.mine.created) {
      changeOffer(tx, actor, "mine", created.mine.id, ids, [], now);
      recordOfferChange(tx, actor, "mine", created.mine.id, [], ids.map(codeOf), now);
    }
    // What the unit offers now, read inside the transaction: another request may have changed it since the check.
    const unitBefore = created.unit.created
      ? []
      : tx
          .select({ id: unitServices.serviceId })
          .from(unitServices)
          .where(eq(unitServices.unitId, created.unit.id))
          .all()
          .map((r) => r.id);
    const toUnit = ids.filter((id) => !unitBefore.includes(id));
    if (toUnit.length) {
      changeOffer(tx, actor, "unit", created.unit.id, toUnit, [], now);
      recordOfferChange(
        tx,
        actor,
        "unit",
        created.unit.id,
        unitBefore.map(codeOf),
        [...unitBefore, ...toUnit].map(codeOf),
        now,
      );
    }
    changeOffer(tx, actor, "cafe", created.cafe.id, ids, [], now);
    recordOfferChange(tx, actor, "cafe", created.cafe.id, [], ids.map(codeOf), now);
    const priced = chosen.filter((c) => c.priceCents !== null);
    applyCafePriceChanges(
      tx,
      actor,
      created.cafe.id,
      priced.map((c) => ({ serviceId: c.serviceId, code: c.code, old: null, next: c.priceCents })),
      now,
    );
    return { ...created, services: { offered: chosen.length, priced: priced.length } };
  });
}
