/**
 * Closing a month: only a month that is over, once; a closed month takes no sale, backdated sale or void at that
 * cafe (other cafes and other months go on); reopening needs a reason and lets sales in again; both are audited;
 * scope holds.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, cafes, closedPeriods, diners, users } from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { closePeriod, isClosed, listClosedPeriods, reopenPeriod } from "./periods";
import { recordSale, voidSale, type SaleSettings } from "./sell";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
/** 10:00 in Lima on 2026-11-24. */
const NOW = new Date("2026-11-24T15:00:00Z");
const ADMIN: Actor = { userId: 1, label: "admin@mesa.test" };
let keys = 0;

function setup() {
  const db = migratedDatabase();
  const w = posWorld(db);
  db.insert(users)
    .values({
      id: 1,
      name: "Ada Administradora",
      email: "admin@mesa.test",
      passwordHash: "x",
      createdAt: NOW,
      updatedAt: NOW,
    })
    .run();
  const sell = (serviceDate: string, input: Record<string, unknown> = {}, now = NOW) =>
    recordSale(
      db,
      ADMIN,
      EVERYTHING,
      {
        key: `period-key-${++keys}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: serviceDate,
        sale_type: "cash",
        lines: [{ service_id: w.alm, quantity: 1 }],
        ...input,
      },
      SETTINGS,
      { backdate: true },
      undefined,
      now,
    ).sale;
  return { db, w, sell };
}

function refusal(run: () => unknown): Record<string, { key: string }> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors as Record<string, { key: string }>;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("closing a month", () => {
  test("a closed month takes no sale, backdated sale or void at that cafe; other cafes and months go on", () => {
    const { db, w, sell } = setup();
    const october = sell("2026-10-15");
    const closed = closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10" }, NOW);
    expect(closed).toMatchObject({ cafeId: w.norte, month: "2026-10", closedByName: "Ada Administradora" });
    expect(isClosed(db, w.norte, "2026-10-31")).toBe(true);
    expect(isClosed(db, w.norte, "2026-11-01")).toBe(false);
    expect(isClosed(db, w.sur, "2026-10-15")).toBe(false);

    expect(refusal(() => sell("2026-10-20"))).toEqual({
      service_date: expect.objectContaining({ key: "periods.closed_for_sales" }),
    });
    expect(
      refusal(() =>
        voidSale(db, ADMIN, EVERYTHING, october.id, { reason: "error de caja" }, { voidAny: true }, undefined, NOW),
      ),
    ).toEqual({ reason: expect.objectContaining({ key: "periods.closed_for_voids" }) });
    // November at Norte, and October at Sur, are open.
    sell("2026-11-24", { document_number: "40000002" });
    sell("2026-10-15", { cafe_id: w.sur, other_unit_confirmed: true });
  });

  test("only a month that is over in the cafe's time zone, and only once", () => {
    const { db, w } = setup();
    expect(refusal(() => closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-11" }, NOW))).toEqual({
      month: expect.objectContaining({ key: "periods.not_over" }),
    });
    expect(
      refusal(() => closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-13" }, NOW)),
    ).toHaveProperty("month");
    // 02:00 on 1 December in UTC is still 30 November (21:00) in Lima.
    const firstOfDecemberUtc = new Date("2026-12-01T02:00:00Z");
    expect(() =>
      closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-11" }, firstOfDecemberUtc),
    ).toThrow(ValidationFailed);
    closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10" }, NOW);
    expect(() => closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10" }, NOW)).toThrow(Conflict);
  });

  test("reopening needs a reason, lets sales in again, and both steps are audited", () => {
    const { db, w, sell } = setup();
    closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10" }, NOW);
    expect(
      refusal(() => reopenPeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10" }, NOW)),
    ).toHaveProperty("reason");
    reopenPeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10", reason: "Factura corregida" }, NOW);
    expect(() =>
      reopenPeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10", reason: "otra vez" }, NOW),
    ).toThrow(Conflict);
    sell("2026-10-20");
    const entries = db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "cafe"), eq(auditLog.subjectId, w.norte)))
      .all();
    expect(entries.map((e) => e.action)).toEqual(["period.closed", "period.reopened"]);
    expect(JSON.parse(entries[1].after!)).toEqual({ month: "2026-10", reason: "Factura corregida" });
    expect(JSON.parse(entries[1].before!)).toMatchObject({ month: "2026-10", closedBy: "Ada Administradora" });
  });

  test("a cafe outside the scope is not found, and its closed months are not listed", () => {
    const { db, w } = setup();
    const onlySur: Scope = {
      all: false,
      cafeIds: new Set([w.sur]),
      headquartersIds: new Set(),
      businessIds: new Set(),
    };
    expect(() => closePeriod(db, ADMIN, onlySur, { cafe_id: w.norte, month: "2026-10" }, NOW)).toThrow(NotFound);
    closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.norte, month: "2026-10" }, NOW);
    closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.sur, month: "2026-09" }, NOW);
    expect(() =>
      reopenPeriod(db, ADMIN, onlySur, { cafe_id: w.norte, month: "2026-10", reason: "no es mío" }, NOW),
    ).toThrow(NotFound);
    expect(listClosedPeriods(db, onlySur).map((p) => [p.cafeId, p.month])).toEqual([[w.sur, "2026-09"]]);
    expect(listClosedPeriods(db, onlySur, [w.norte])).toEqual([]);
    expect(listClosedPeriods(db, EVERYTHING).map((p) => p.month)).toEqual(["2026-10", "2026-09"]);
  });

  test("deleting a cafe without sales takes its closed months with it", () => {
    const { db, w } = setup();
    closePeriod(db, ADMIN, EVERYTHING, { cafe_id: w.sur, month: "2026-10" }, NOW);
    db.delete(diners).where(eq(diners.cafeId, w.sur)).run();
    db.delete(cafes).where(eq(cafes.id, w.sur)).run();
    expect(db.select().from(closedPeriods).all()).toEqual([]);
    expect(listClosedPeriods(db, EVERYTHING)).toEqual([]);
  });
});
