/**
 * Cash shifts (docs/cash.md): a cashier's cash-type sales at a till belong to their open shift there; the drawer's
 * expected cash is the float, the cash taken (voided sales left out) and the cash moved in, less the cash moved out;
 * the close is a blind count by denomination, a difference beyond the cafe's allowed amount needs a note; one open
 * shift per till and per cashier; reopening takes a reason; each refusal says why and writes nothing.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, cashMoves, cashShifts, users } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { posWorld } from "../../../tests/support/pos";
import { EVERYTHING } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, ValidationFailed } from "../errors";
import { refusalOf } from "../../../tests/support/errors";
import { recordSale, voidSale, type SaleSettings } from "../sales/sell";
import { listPaymentMethods, setCafePaymentMethods } from "./payment-methods";
import { addCashMove, closeShift, listShifts, openShift, reopenShift, shiftSummary } from "./shifts";
import { createTill, listTills } from "./tills";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const NOW = new Date("2026-11-24T15:00:00Z");
const ANA: Actor = { userId: 1, label: "ana@mesa.test" };
const BETO: Actor = { userId: 2, label: "beto@mesa.test" };
const MINE = { closeAny: false };
let keys = 0;

function setup() {
  const db = migratedDatabase();
  const w = posWorld(db);
  db.insert(users)
    .values([
      { id: 1, name: "Ana Cajera", email: "ana@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW },
      { id: 2, name: "Beto Cajero", email: "beto@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW },
    ])
    .run();
  const yape = listPaymentMethods(db).find((m) => m.code === "yape")!;
  const cash = listPaymentMethods(db).find((m) => m.code === "cash")!;
  setCafePaymentMethods(db, ANA, EVERYTHING, w.norte, { method_ids: [cash.id, yape.id] });
  const caja1 = listTills(db, EVERYTHING, w.norte)[0];
  const sell = (actor: Actor, input: Record<string, unknown>) =>
    recordSale(
      db,
      actor,
      EVERYTHING,
      {
        key: `shift-${++keys}-${Math.random().toString(36).slice(2)}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: "2026-11-24",
        sale_type: "cash",
        lines: [{ service_id: w.alm, quantity: 1 }],
        till_id: caja1.id,
        ...input,
      },
      SETTINGS,
      { backdate: false },
      undefined,
      NOW,
    ).sale;
  return { db, w, caja1, sell };
}

describe("a cash shift", () => {
  test("its sales, voids and moves make the expected cash; a blind count closes it", () => {
    const { db, w, caja1, sell } = setup();
    const shift = openShift(db, ANA, EVERYTHING, { till_id: caja1.id, opening_float_cents: 10_000 }, NOW);
    expect(shift).toMatchObject({ state: "open", tillName: "Caja 1", cashierName: "Ana Cajera" });
    sell(ANA, { payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }] });
    sell(ANA, { payments: [{ method: "yape", amount_cents: 1500, reference: "12345678" }] });
    const voided = sell(ANA, { payments: [{ method: "cash", amount_cents: 1500 }] });
    voidSale(db, ANA, EVERYTHING, voided.id, { reason: "Cobrado dos veces" }, { voidAny: false }, undefined, NOW);
    // Someone else's sale at the same till is not in Ana's shift.
    sell(BETO, { payments: [{ method: "cash", amount_cents: 1500 }] });
    addCashMove(db, ANA, EVERYTHING, shift.id, { kind: "in", reason: "change_fund", amount_cents: 5000 }, MINE, NOW);
    addCashMove(db, ANA, EVERYTHING, shift.id, { kind: "out", reason: "deposit", amount_cents: 2000 }, MINE, NOW);

    const summary = shiftSummary(db, db.select().from(cashShifts).where(eq(cashShifts.id, shift.id)).get()!);
    expect(summary.byMethod.map((m) => [m.code, m.sales, m.amountCents])).toEqual([
      ["cash", 1, 1500],
      ["yape", 1, 1500],
    ]);
    expect(summary.voided).toEqual({ sales: 1, amountCents: 1500 });
    expect(summary.expectedCashCents).toBe(10_000 + 1500 + 5000 - 2000);

    // S/ 145.00: one 100, two 20s, one 5.
    const closed = closeShift(
      db,
      ANA,
      EVERYTHING,
      shift.id,
      { pieces: { "10000": 1, "2000": 2, "500": 1 } },
      MINE,
      NOW,
    );
    expect(closed.shift).toMatchObject({ state: "closed", countedCents: 14_500, expectedCents: 14_500 });
    expect(closed.differenceCents).toBe(0);
    expect(listShifts(db, EVERYTHING, w.norte, "2026-11-24").map((s) => s.id)).toEqual([shift.id]);
    expect(
      db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.subjectType, "shift"))
        .all()
        .map((a) => a.action),
    ).toEqual(["shift.opened", "shift.cash_moved", "shift.cash_moved", "shift.closed"]);
  });

  test("a difference beyond the allowed amount needs a note; a reopened shift is counted again", () => {
    const { db, caja1 } = setup();
    const shift = openShift(db, ANA, EVERYTHING, { till_id: caja1.id, opening_float_cents: 10_000 }, NOW);
    expect(refusalOf(() => closeShift(db, ANA, EVERYTHING, shift.id, { pieces: { "5000": 1 } }, MINE, NOW))).toEqual({
      note: "The difference is -S/\u00a050.00, more than the S/\u00a05.00 allowed: write a note that explains it.",
    });
    // S/ 3.00 short is within the allowed S/ 5.00.
    const closed = closeShift(
      db,
      ANA,
      EVERYTHING,
      shift.id,
      { pieces: { "5000": 1, "2000": 2, "500": 1, "200": 1 } },
      MINE,
      NOW,
    );
    expect(closed.differenceCents).toBe(-300);
    expect(() => reopenShift(db, ANA, EVERYTHING, shift.id, { reason: "" }, NOW)).toThrow(ValidationFailed);
    const reopened = reopenShift(db, ANA, EVERYTHING, shift.id, { reason: "Recuento con la jefa" }, NOW);
    expect(reopened).toMatchObject({ state: "open", countedCents: null });
    const again = closeShift(
      db,
      ANA,
      EVERYTHING,
      shift.id,
      { pieces: { "5000": 1 }, note: "Faltan S/ 50: vale" },
      MINE,
      NOW,
    );
    expect(again.shift).toMatchObject({ state: "closed", note: "Faltan S/ 50: vale" });
    expect(() => closeShift(db, ANA, EVERYTHING, shift.id, { pieces: {} }, MINE, NOW)).toThrow(Conflict);
  });

  test("one open shift per till and per cashier; others' shifts only with the permission", () => {
    const { db, w, caja1 } = setup();
    const barra = createTill(db, ANA, EVERYTHING, w.norte, { name: "Barra" });
    const shift = openShift(db, ANA, EVERYTHING, { till_id: caja1.id, opening_float_cents: 0 }, NOW);
    expect(
      refusalOf(() => openShift(db, BETO, EVERYTHING, { till_id: caja1.id, opening_float_cents: 0 }, NOW)),
    ).toEqual({
      till_id: "Caja 1 already has an open shift, Ana Cajera's: close it before opening another.",
    });
    expect(refusalOf(() => openShift(db, ANA, EVERYTHING, { till_id: barra.id, opening_float_cents: 0 }, NOW))).toEqual(
      {
        till_id: "You already have an open shift at Caja 1: close it before opening another.",
      },
    );
    expect(refusalOf(() => closeShift(db, BETO, EVERYTHING, shift.id, { pieces: {} }, MINE, NOW)).shift).toContain(
      "This shift is Ana Cajera's",
    );
    expect(closeShift(db, BETO, EVERYTHING, shift.id, { pieces: {} }, { closeAny: true }, NOW).shift.closedByName).toBe(
      "Beto Cajero",
    );
    expect(db.select().from(cashShifts).all()).toHaveLength(1);
  });

  test("bad input is refused and writes nothing", () => {
    const { db, caja1 } = setup();
    expect(() => openShift(db, ANA, EVERYTHING, { till_id: caja1.id, opening_float_cents: -1 }, NOW)).toThrow(
      ValidationFailed,
    );
    expect(() => openShift(db, ANA, EVERYTHING, { till_id: caja1.id, opening_float_cents: 10.5 }, NOW)).toThrow(
      ValidationFailed,
    );
    const shift = openShift(db, ANA, EVERYTHING, { till_id: caja1.id, opening_float_cents: 1000 }, NOW);
    expect(
      refusalOf(() =>
        addCashMove(db, ANA, EVERYTHING, shift.id, { kind: "out", reason: "expense", amount_cents: 1500 }, MINE, NOW),
      ),
    ).toEqual({ amount_cents: "S/\u00a015.00 cannot be taken out: the drawer should hold S/\u00a010.00." });
    expect(() =>
      addCashMove(db, ANA, EVERYTHING, shift.id, { kind: "in", reason: "tips", amount_cents: 100 }, MINE, NOW),
    ).toThrow(ValidationFailed);
    expect(refusalOf(() => closeShift(db, ANA, EVERYTHING, shift.id, { pieces: { "300": 1 } }, MINE, NOW))).toEqual({
      pieces: "300 is not a sol note or coin.",
    });
    expect(() => closeShift(db, ANA, EVERYTHING, shift.id, { pieces: { "1000": -1 } }, MINE, NOW)).toThrow(
      ValidationFailed,
    );
    expect(db.select().from(cashMoves).all()).toHaveLength(0);
    expect(db.select().from(cashShifts).get()?.state).toBe("open");
  });
});
