/**
 * Selling and voiding in the domain: prices from the cafe's list, IGV split per line, the snapshot, gapless numbers,
 * one credit meal per diner, service and date across cafes, the other-unit factor, the key, the date rules, the
 * refusals (unknown, inactive, barred, unpriced, no business), and voids with their permission.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, blacklist, cafes, cafeServices, sales, users } from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import type { DomainEvent } from "../events";
import { readSale, salesOfDay } from "./queries";
import { recordSale, voidSale, type SaleSettings } from "./sell";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
/** 10:00 in Lima on 2026-11-24. */
const NOW = new Date("2026-11-24T15:00:00Z");
const TODAY = "2026-11-24";
/** The cashier: a user row (setup writes it with id 1), so that "who sold it" can be told apart. */
const CASHIER: Actor = { userId: 1, label: "caja@mesa.test" };
let keys = 0;
const key = () => `test-key-${++keys}-${Math.random().toString(36).slice(2)}`;

function setup() {
  const db = migratedDatabase();
  const w = posWorld(db);
  db.insert(users)
    .values([
      { id: 1, name: "Cajera Uno", email: "caja@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW },
      { id: 2, name: "Jefa de Comedor", email: "jefa@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW },
    ])
    .run();
  const events: DomainEvent[] = [];
  const publisher = { publish: (e: DomainEvent) => events.push(e) };
  const sell = (input: Record<string, unknown>, options: { scope?: Scope; backdate?: boolean; now?: Date } = {}) =>
    recordSale(
      db,
      CASHIER,
      options.scope ?? EVERYTHING,
      {
        key: key(),
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: TODAY,
        sale_type: "credit",
        lines: [{ service_id: w.alm, quantity: 1 }],
        ...input,
      },
      SETTINGS,
      { backdate: options.backdate ?? false },
      publisher,
      options.now ?? NOW,
    );
  return { db, w, sell, events };
}

function errorsOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("recording a sale", () => {
  test("prices come from the cafe's list, IGV is split per line and adds up, and the sale keeps a snapshot", () => {
    const { w, sell, events } = setup();
    const { sale, replayed } = sell({
      sale_type: "cash",
      lines: [
        { service_id: w.alm, quantity: 3, price: 1 },
        { service_id: w.des, quantity: 1 },
      ],
      total: 1,
      other_unit: true,
    });
    expect(replayed).toBe(false);
    expect(sale.totalCents).toBe(3 * 1500 + 800);
    expect(sale.baseCents + sale.igvCents).toBe(sale.totalCents);
    expect(sale.lines.map((l) => l.baseCents + l.igvCents)).toEqual(sale.lines.map((l) => l.totalCents));
    expect(sale.igvCents).toBe(sale.lines.reduce((s, l) => s + l.igvCents, 0));
    expect(sale.lines[0]).toMatchObject({ quantity: 3, unitPriceCents: 1500, totalCents: 4500, igvCents: 686 });
    expect(sale.otherUnit).toBe(false);
    expect(sale).toMatchObject({
      dinerName: "Ana Quispe Mamani",
      subdealershipName: "Contrata Uno",
      dealershipName: "Minera del Sur",
      businessName: "Catering Andino",
      businessRuc: "20100070970",
      igvRateBasisPoints: 1800,
      ticket: `T${String(w.norte).padStart(3, "0")}-00000001`,
    });
    expect(events).toEqual([{ name: "SaleRecorded", saleId: sale.id, cafeId: w.norte, serviceDate: TODAY }]);
  });

  test("the answer is the sale as it was stored, field for field", () => {
    const { db, w, sell } = setup();
    const credit = sell({}).sale;
    expect(credit).toEqual(readSale(db, credit.id)!);
    const otherUnit = sell({ cafe_id: w.sur, document_number: "40000002", other_unit_confirmed: true });
    expect(otherUnit.sale.otherUnit).toBe(true);
    expect(otherUnit.sale).toEqual(readSale(db, otherUnit.sale.id)!);
    const cash = sell({
      sale_type: "cash",
      lines: [
        { service_id: w.alm, quantity: 2 },
        { service_id: w.des, quantity: 1 },
      ],
    }).sale;
    expect(cash).toEqual(readSale(db, cash.id)!);
  });

  test("ticket numbers run gapless across both sale types, and a refused sale takes no number", () => {
    const { w, sell } = setup();
    const numbers = [
      sell({}).sale.number,
      sell({ sale_type: "cash", lines: [{ service_id: w.des, quantity: 2 }] }).sale.number,
    ];
    expect(() => sell({})).toThrow(ValidationFailed);
    numbers.push(sell({ document_number: "40000002" }).sale.number);
    expect(numbers).toEqual([1, 2, 3]);
  });

  test("one credit meal per diner, service and date, across every cafe; cash has no such limit", () => {
    const { w, sell } = setup();
    sell({});
    expect(errorsOf(() => sell({}))).toMatchObject({ "lines.0.service_id": { key: "sales.credit_taken" } });
    // At the other cafe as an other-unit sale: still the same meal.
    const elsewhere = errorsOf(() => sell({ cafe_id: w.sur, other_unit_confirmed: true }));
    expect(Object.keys(elsewhere)).toEqual(["lines.0.service_id"]);
    // Another service, another day or cash is fine.
    sell({ lines: [{ service_id: w.cen, quantity: 1 }] });
    sell({ sale_type: "cash" });
    sell({ sale_type: "cash" });
  });

  test("a credit line is one meal", () => {
    const { w, sell } = setup();
    expect(Object.keys(errorsOf(() => sell({ lines: [{ service_id: w.alm, quantity: 2 }] })))).toEqual([
      "lines.0.quantity",
    ]);
  });

  test("a diner of another cafe needs the other-unit confirmation and is charged at the factor", () => {
    const { w, sell } = setup();
    expect(Object.keys(errorsOf(() => sell({ cafe_id: w.sur })))).toEqual(["other_unit_confirmed"]);
    const { sale } = sell({ cafe_id: w.sur, other_unit_confirmed: true });
    expect(sale).toMatchObject({ otherUnit: true, priceFactorPercent: 200, totalCents: 2800 });
    expect(sale.lines[0]).toMatchObject({ listPriceCents: 1400, unitPriceCents: 2800 });
  });

  test("unknown, inactive and barred diners are refused with the reason; a cash visitor gives a name", () => {
    const { db, sell } = setup();
    expect(errorsOf(() => sell({ document_number: "49999999" })).document_number).toMatchObject({
      key: "sales.diner_unknown",
    });
    expect(errorsOf(() => sell({ document_number: "40000004" })).document_number).toMatchObject({
      key: "sales.diner_inactive",
    });
    db.insert(blacklist)
      .values({
        documentType: "dni",
        documentNumber: "40000002",
        name: "Béto Huamán",
        reason: "Deuda pendiente",
        createdAt: NOW,
      })
      .run();
    expect(errorsOf(() => sell({ document_number: "40000002" })).document_number).toMatchObject({
      key: "sales.person_barred",
      params: { reason: "Deuda pendiente" },
    });
    const visitor = sell({ sale_type: "cash", document_number: "47777777", visitor_name: "Visita Técnica" }).sale;
    expect(visitor).toMatchObject({ dinerId: null, dinerName: "Visita Técnica", subdealershipName: null });
    // A visitor cannot buy on credit.
    expect(
      errorsOf(() => sell({ document_number: "47777778", visitor_name: "Otra Visita" })).document_number,
    ).toMatchObject({ key: "sales.diner_unknown" });
  });

  test("a service without a price, not offered or repeated cannot be sold", () => {
    const { db, w, sell } = setup();
    db.update(cafeServices).set({ priceCents: null }).where(eq(cafeServices.serviceId, w.des)).run();
    const errors = errorsOf(() =>
      sell({
        sale_type: "cash",
        lines: [
          { service_id: w.des, quantity: 1 },
          { service_id: 99_999, quantity: 1 },
          { service_id: w.alm, quantity: 1 },
          { service_id: w.alm, quantity: 1 },
        ],
      }),
    );
    expect(errors).toMatchObject({
      "lines.0.service_id": { key: "sales.service_without_price" },
      "lines.1.service_id": { key: "sales.service_not_offered" },
      "lines.3.service_id": { key: "sales.service_repeated" },
    });
    expect(db.select().from(sales).all()).toHaveLength(0);
  });

  test("a cafe without an issuing business cannot sell", () => {
    const { db, w, sell } = setup();
    db.update(cafes).set({ businessId: null }).where(eq(cafes.id, w.norte)).run();
    expect(errorsOf(() => sell({})).cafe_id).toMatchObject({ key: "sales.cafe_without_business" });
  });

  test("the service date is the cafe's today; an earlier one needs sales.backdate; never a later one", () => {
    const { sell } = setup();
    expect(errorsOf(() => sell({ service_date: "2026-11-23" })).service_date).toMatchObject({
      key: "sales.date_past_forbidden",
    });
    expect(sell({ service_date: "2026-11-23" }, { backdate: true }).sale.serviceDate).toBe("2026-11-23");
    expect(errorsOf(() => sell({ service_date: "2026-11-25" }, { backdate: true })).service_date).toMatchObject({
      key: "sales.date_future",
    });
    expect(errorsOf(() => sell({ service_date: "2026-02-30" })).service_date).toMatchObject({
      key: "sales.date_invalid",
    });
    // At 23:30 in Lima it is already the 25th in UTC, but still the 24th at the cafe.
    expect(sell({ sale_type: "cash" }, { now: new Date("2026-11-25T04:30:00Z") }).sale.serviceDate).toBe(TODAY);
  });

  test("the same key with the same content is one sale; with other content it is refused", () => {
    const { db, w, sell, events } = setup();
    const first = sell({ key: "same-key-0001" });
    const again = sell({ key: "same-key-0001" });
    expect(again.replayed).toBe(true);
    expect(again.sale.id).toBe(first.sale.id);
    expect(events).toHaveLength(1);
    expect(() => sell({ key: "same-key-0001", lines: [{ service_id: w.cen, quantity: 1 }] })).toThrow(Conflict);
    expect(db.select().from(sales).all()).toHaveLength(1);
  });

  test("a cafe outside the scope is not found", () => {
    const { w, sell } = setup();
    const scope: Scope = { all: false, cafeIds: new Set([w.sur]), headquartersIds: new Set(), businessIds: new Set() };
    expect(() => sell({}, { scope })).toThrow(NotFound);
  });
});

describe("voiding a sale", () => {
  test("the seller voids on the same day; the meal can be sold again, the number is not reused", () => {
    const { db, w, sell, events } = setup();
    const { sale } = sell({});
    const voided = voidSale(
      db,
      CASHIER,
      EVERYTHING,
      sale.id,
      { reason: "Error de digitación" },
      { voidAny: false },
      { publish: (e) => events.push(e) },
      NOW,
    );
    expect(voided).toMatchObject({ voided: true, voidReason: "Error de digitación" });
    expect(events.at(-1)).toMatchObject({ name: "SaleVoided", saleId: sale.id });
    const again = sell({}).sale;
    expect(again.number).toBe(sale.number + 1);
    const day = salesOfDay(db, EVERYTHING, w.norte, TODAY, { page: 1, perPage: 20 });
    expect(day.totals).toEqual({ sales: 1, meals: 1, totalCents: 1500, voided: 1 });
    expect(() => voidSale(db, CASHIER, EVERYTHING, sale.id, { reason: "otra vez" }, { voidAny: true })).toThrow(
      Conflict,
    );
    expect(db.select().from(auditLog).where(eq(auditLog.action, "sale.voided")).all()).toHaveLength(1);
  });

  test("someone else's sale, or a later day, needs sales.void_any; a reason is required", () => {
    const { db, sell } = setup();
    const { sale } = sell({});
    const other: Actor = { userId: 2, label: "jefa@mesa.test" };
    expect(() => voidSale(db, other, EVERYTHING, sale.id, { reason: "no" }, { voidAny: true }, undefined, NOW)).toThrow(
      ValidationFailed,
    );
    expect(
      errorsOf(() =>
        voidSale(db, other, EVERYTHING, sale.id, { reason: "Duplicada" }, { voidAny: false }, undefined, NOW),
      ),
    ).toMatchObject({ reason: { key: "sales.void_not_yours" } });
    const tomorrow = new Date("2026-11-25T15:00:00Z");
    expect(
      errorsOf(() =>
        voidSale(db, CASHIER, EVERYTHING, sale.id, { reason: "Tarde" }, { voidAny: false }, undefined, tomorrow),
      ),
    ).toMatchObject({ reason: { key: "sales.void_too_late" } });
    expect(
      voidSale(db, other, EVERYTHING, sale.id, { reason: "Tarde" }, { voidAny: true }, undefined, tomorrow).voided,
    ).toBe(true);
  });
});
