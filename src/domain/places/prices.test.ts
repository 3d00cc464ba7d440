/**
 * Cafe prices and their history: every way a price ends leaves a history row, so a past sale can always be
 * explained. Setting, clearing, removing the service from the cafe, and removing it from the mine above (the
 * cascade) each write "old → new"; a service with price history cannot be deleted; a price sent twice is refused.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, businesses, cafeServices, servicePriceHistory } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, ValidationFailed } from "../errors";
import { createPlace } from "./places";
import { cafePrices, setCafePrices } from "./prices";
import { setPlaceServices } from "./service-assignments";
import { createService, deleteService } from "./services";

const ACTOR: Actor = { userId: null, label: "prices-test" };

function world() {
  const db = migratedDatabase();
  const business = db.insert(businesses).values({ name: "Catering Norte" }).returning().get().id;
  const place = createPlace(
    db,
    ACTOR,
    EVERYTHING,
    {
      mine_name: "Mina Norte",
      unit_name: "Unidad A",
      cafe_name: "Comedor A1",
      business_id: business,
      time_zone: "America/Bogota",
    },
    { timeZone: "America/Lima" },
  );
  const alm = createService(db, ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
  const cen = createService(db, ACTOR, { code: "CEN", name: "Cena", type: "dinner" }).id;
  const mine = place.mine.id;
  const unit = place.unit!.id;
  const cafe = place.cafe!.id;
  // A second cafe of the unit offers both services with only CEN priced.
  const other = createPlace(
    db,
    ACTOR,
    EVERYTHING,
    { mine_id: mine, unit_id: unit, cafe_name: "Comedor A2", business_id: business },
    { timeZone: "America/Lima" },
  ).cafe!.id;
  setPlaceServices(db, ACTOR, EVERYTHING, "mine", mine, { service_ids: [alm, cen] });
  setPlaceServices(db, ACTOR, EVERYTHING, "unit", unit, { service_ids: [alm, cen] });
  setPlaceServices(db, ACTOR, EVERYTHING, "cafe", cafe, { service_ids: [alm, cen] });
  setPlaceServices(db, ACTOR, EVERYTHING, "cafe", other, { service_ids: [alm, cen] });
  setCafePrices(db, ACTOR, EVERYTHING, cafe, {
    prices: [
      { service_id: alm, price: "12.50" },
      { service_id: cen, price: "10" },
    ],
  });
  setCafePrices(db, ACTOR, EVERYTHING, other, { prices: [{ service_id: cen, price: "9" }] });
  /** Every history row of every cafe, oldest first. */
  const history = () =>
    db
      .select({
        cafeId: servicePriceHistory.cafeId,
        serviceId: servicePriceHistory.serviceId,
        old: servicePriceHistory.oldPriceCents,
        next: servicePriceHistory.newPriceCents,
      })
      .from(servicePriceHistory)
      .orderBy(servicePriceHistory.id)
      .all();
  return { db, mine, unit, cafe, other, alm, cen, history };
}

describe("price history", () => {
  test("setting and clearing a price are kept as old → new, and the cafe's time zone comes with the list", () => {
    const w = world();
    expect(w.history()).toEqual([
      { cafeId: w.cafe, serviceId: w.alm, old: null, next: 1250 },
      { cafeId: w.cafe, serviceId: w.cen, old: null, next: 1000 },
      { cafeId: w.other, serviceId: w.cen, old: null, next: 900 },
    ]);
    setCafePrices(w.db, ACTOR, EVERYTHING, w.cafe, {
      prices: [
        { service_id: w.alm, price: "13.00" },
        { service_id: w.cen, price: "" },
      ],
    });
    expect(w.history().slice(3)).toEqual([
      { cafeId: w.cafe, serviceId: w.alm, old: 1250, next: 1300 },
      { cafeId: w.cafe, serviceId: w.cen, old: 1000, next: null },
    ]);
    expect(cafePrices(w.db, EVERYTHING, w.cafe).cafe.timeZone).toBe("America/Bogota");
  });

  test("removing a priced service from the cafe ends its price in the history, audited", () => {
    const w = world();
    setPlaceServices(w.db, ACTOR, EVERYTHING, "cafe", w.cafe, { service_ids: [w.cen] });
    expect(w.history().slice(3)).toEqual([{ cafeId: w.cafe, serviceId: w.alm, old: 1250, next: null }]);
    expect(
      w.db
        .select()
        .from(cafeServices)
        .where(and(eq(cafeServices.cafeId, w.cafe), eq(cafeServices.serviceId, w.alm)))
        .get(),
    ).toBeUndefined();
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "cafe.prices.updated")).all().at(-1)!;
    expect([JSON.parse(audit.before!), JSON.parse(audit.after!)]).toEqual([{ ALM: 1250 }, { ALM: null }]);
  });

  test("removing a service from the mine or the unit, once confirmed, ends its price once in every cafe below that had one", () => {
    const w = world();
    const asked = setPlaceServices(w.db, ACTOR, EVERYTHING, "mine", w.mine, { service_ids: [w.alm] });
    expect(asked.status).toBe("needs_confirmation");
    expect(w.history()).toHaveLength(3);
    setPlaceServices(w.db, ACTOR, EVERYTHING, "mine", w.mine, { service_ids: [w.alm], confirm: true });
    expect(w.history().slice(3)).toEqual([
      { cafeId: w.cafe, serviceId: w.cen, old: 1000, next: null },
      { cafeId: w.other, serviceId: w.cen, old: 900, next: null },
    ]);
    // From the unit: ALM had a price in the first cafe only, so the second cafe adds no history row.
    setPlaceServices(w.db, ACTOR, EVERYTHING, "unit", w.unit, { service_ids: [], confirm: true });
    expect(w.history().slice(5)).toEqual([{ cafeId: w.cafe, serviceId: w.alm, old: 1250, next: null }]);
    expect(w.db.select().from(cafeServices).all()).toEqual([]);
  });

  test("a service with price history cannot be deleted, even once no place offers it", () => {
    const w = world();
    setPlaceServices(w.db, ACTOR, EVERYTHING, "mine", w.mine, { service_ids: [w.alm], confirm: true });
    let refusal: unknown;
    try {
      deleteService(w.db, ACTOR, w.cen);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(Conflict);
    expect((refusal as Conflict).detail).toEqual({
      key: "services.has_price_history",
      params: { code: "CEN", cafes: 2 },
    });
    // A service never priced anywhere can go.
    const spare = createService(w.db, ACTOR, { code: "REF", name: "Refrigerio", type: "snack" }).id;
    expect(deleteService(w.db, ACTOR, spare).code).toBe("REF");
  });

  test("the same service sent twice in one save is refused on its field, and nothing changes", () => {
    const w = world();
    let errors: unknown;
    try {
      setCafePrices(w.db, ACTOR, EVERYTHING, w.cafe, {
        prices: [
          { service_id: w.alm, price: "11" },
          { service_id: w.alm, price: "14" },
        ],
      });
    } catch (error) {
      if (error instanceof ValidationFailed) errors = error.errors;
    }
    expect(errors).toEqual({ [`prices.${w.alm}`]: { key: "services.price_repeated", params: undefined } });
    expect(w.history()).toHaveLength(3);
  });
});
