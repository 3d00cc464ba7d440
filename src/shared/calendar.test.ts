/**
 * The cafe's clock and a sale's arithmetic: today and the time of day in a cafe's time zone, service windows (one
 * may cross midnight), times of day written HH:MM, calendar dates, IGV included in a price, the other-unit factor;
 * and the service the point of sale preselects at a given moment (breakfast 04:30–09:30, lunch 11:00–15:00, dinner
 * 18:00–02:00 across midnight) in the cafe's time zone.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { cafes, cafeServices } from "../../db/schema";
import { posWorld } from "../../tests/support/pos";
import { migratedDatabase } from "../../tests/support/database";
import { EVERYTHING, type Scope } from "../domain/access/scope";
import { NotFound } from "../domain/errors";
import {
  clockIn,
  dateIn,
  formatTimeOfDay,
  isCalendarDate,
  minuteOfDay,
  momentIn,
  parseTimeOfDay,
  windowHolds,
} from "./calendar";
import { applyFactor, splitIgv } from "./money";
import { pointOfSale } from "../domain/sales/point-of-sale";

describe("the cafe's day and time", () => {
  test("today is the cafe's calendar date, not the server's", () => {
    // 03:30 UTC on the 25th is 22:30 of the 24th in Lima (UTC−5) and 12:30 of the 25th in Tokyo.
    const now = new Date("2026-11-25T03:30:00Z");
    expect(dateIn("America/Lima", now)).toBe("2026-11-24");
    expect(dateIn("UTC", now)).toBe("2026-11-25");
    expect(dateIn("Asia/Tokyo", now)).toBe("2026-11-25");
    expect(dateIn("America/Lima", new Date("2026-01-01T04:59:59Z"))).toBe("2025-12-31");
    expect(dateIn("America/Lima", new Date("2026-01-01T05:00:00Z"))).toBe("2026-01-01");
  });

  test("the minute of the day counts from the cafe's midnight, 0 to 1439", () => {
    expect(minuteOfDay("America/Lima", new Date("2026-11-24T09:30:00Z"))).toBe(4 * 60 + 30);
    expect(minuteOfDay("America/Lima", new Date("2026-11-24T05:00:00Z"))).toBe(0);
    expect(minuteOfDay("America/Lima", new Date("2026-11-25T04:59:00Z"))).toBe(1439);
    expect(minuteOfDay("UTC", new Date("2026-11-24T12:34:56Z"))).toBe(12 * 60 + 34);
  });
});

describe("service windows", () => {
  const breakfast = { start: 270, end: 570 }; // 04:30–09:30
  const dinner = { start: 1080, end: 120 }; // 18:00–02:00, across midnight

  test("a window within the day holds from its start (included) to its end (excluded)", () => {
    expect([269, 270, 400, 569, 570, 0, 1439].map((m) => windowHolds(breakfast, m))).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  test("a window whose end comes before its start crosses midnight", () => {
    expect([1079, 1080, 1200, 1439, 0, 60, 119, 120, 600].map((m) => windowHolds(dinner, m))).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    // Ending at midnight exactly: 22:00–00:00.
    expect([1319, 1320, 1439, 0].map((m) => windowHolds({ start: 1320, end: 0 }, m))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  test("an empty window (start = end) never holds", () => {
    expect([0, 600, 1439].some((m) => windowHolds({ start: 600, end: 600 }, m))).toBe(false);
  });

  test("times of day are read as HH:MM and written back the same way", () => {
    expect(parseTimeOfDay("04:30")).toBe(270);
    expect(parseTimeOfDay("4:30")).toBe(270);
    expect(parseTimeOfDay(" 18:00 ")).toBe(1080);
    expect(parseTimeOfDay("00:00")).toBe(0);
    expect(parseTimeOfDay("23:59")).toBe(1439);
    for (const bad of ["24:00", "12:60", "12", "12:5", "1230", "-1:00", "aa:bb", "", "12:30:00", "12.30"])
      expect({ bad, minute: parseTimeOfDay(bad) }).toEqual({ bad, minute: null });
    expect([0, 270, 570, 1080, 1439].map(formatTimeOfDay)).toEqual(["00:00", "04:30", "09:30", "18:00", "23:59"]);
    for (let minute = 0; minute < 1440; minute += 7) expect(parseTimeOfDay(formatTimeOfDay(minute))).toBe(minute);
  });
});

describe("calendar dates", () => {
  test("only real dates written YYYY-MM-DD", () => {
    for (const good of ["2026-11-24", "2024-02-29", "2026-12-31", "2026-01-01"])
      expect(isCalendarDate(good)).toBe(true);
    for (const bad of [
      "2026-02-29",
      "2026-02-30",
      "2026-13-01",
      "2026-00-10",
      "2026-04-31",
      "2026-1-1",
      "24/11/2026",
      "2026-11-24T00:00",
      " 2026-11-24",
      "",
    ])
      expect({ bad, ok: isCalendarDate(bad) }).toEqual({ bad, ok: false });
  });
});

describe("IGV and the other-unit factor", () => {
  test("IGV included at 18 % is split off to the cent, and base + IGV is the amount exactly", () => {
    expect(splitIgv(1500, 1800)).toEqual({ baseCents: 1271, igvCents: 229 });
    expect(splitIgv(800, 1800)).toEqual({ baseCents: 678, igvCents: 122 });
    expect(splitIgv(11800, 1800)).toEqual({ baseCents: 10000, igvCents: 1800 });
    expect(splitIgv(0, 1800)).toEqual({ baseCents: 0, igvCents: 0 });
    expect(splitIgv(1500, 0)).toEqual({ baseCents: 1500, igvCents: 0 });
    for (let cents = 0; cents <= 50_000; cents += 37) {
      const { baseCents, igvCents } = splitIgv(cents, 1800);
      expect(baseCents + igvCents).toBe(cents);
      // The IGV is the base's 18 % within half a cent of the exact split.
      expect(Math.abs(igvCents - (cents * 18) / 118)).toBeLessThanOrEqual(0.5);
    }
  });

  test("the factor multiplies a price in hundredths, rounded to the cent", () => {
    expect(applyFactor(1500, 200)).toBe(3000);
    expect(applyFactor(1500, 100)).toBe(1500);
    expect(applyFactor(1499, 150)).toBe(2249); // 2248.5 → 2249
    expect(applyFactor(333, 125)).toBe(416); // 416.25 → 416
  });
});

describe("the service the point of sale preselects", () => {
  function setup() {
    const db = migratedDatabase();
    const w = posWorld(db);
    // Norte: breakfast 04:30–09:30, lunch 11:00–15:00, dinner 18:00–02:00 (the fixture's windows).
    return { db, w };
  }
  /** The instant at `time` (HH:MM) on 2026-11-24 in Lima (UTC−5, no daylight saving). */
  const lima = (time: string, day = 24) => {
    const [h, m] = time.split(":").map(Number);
    return new Date(Date.UTC(2026, 10, day, h + 5, m));
  };

  test("the window holding the cafe's time picks the service; none between windows", () => {
    const { db, w } = setup();
    const current = (time: string, day?: number) =>
      pointOfSale(db, EVERYTHING, w.norte, lima(time, day)).currentServiceId;
    expect(current("04:29")).toBeNull();
    expect(current("04:30")).toBe(w.des);
    expect(current("06:00")).toBe(w.des);
    expect(current("09:29")).toBe(w.des);
    expect(current("09:30")).toBeNull();
    expect(current("10:59")).toBeNull();
    expect(current("11:00")).toBe(w.alm);
    expect(current("14:59")).toBe(w.alm);
    expect(current("15:00")).toBeNull();
    expect(current("17:59")).toBeNull();
    expect(current("18:00")).toBe(w.cen);
    expect(current("23:59")).toBe(w.cen);
    // After midnight the dinner window still holds, on the next calendar day.
    expect(current("00:00", 25)).toBe(w.cen);
    expect(current("01:59", 25)).toBe(w.cen);
    expect(current("02:00", 25)).toBeNull();
  });

  test("today is the cafe's date at that moment, and the windows are shown as HH:MM, by time of day", () => {
    const { db, w } = setup();
    // 00:30 on the 25th in Lima is 05:30 UTC; 23:30 on the 24th is 04:30 UTC on the 25th.
    expect(pointOfSale(db, EVERYTHING, w.norte, lima("00:30", 25)).cafe.today).toBe("2026-11-25");
    const pos = pointOfSale(db, EVERYTHING, w.norte, lima("23:30"));
    expect(pos.cafe.today).toBe("2026-11-24");
    expect(pos.services.map((s) => [s.code, s.windowStart, s.windowEnd, s.priceCents])).toEqual([
      ["DES", "04:30", "09:30", 800],
      ["ALM", "11:00", "15:00", 1500],
      ["CEN", "18:00", "02:00", 1200],
    ]);
  });

  test("the time is read in the cafe's own time zone", () => {
    const { db, w } = setup();
    db.update(cafes).set({ timeZone: "Asia/Tokyo" }).where(eq(cafes.id, w.norte)).run();
    // 06:00 in Lima is 20:00 in Tokyo: dinner there.
    expect(pointOfSale(db, EVERYTHING, w.norte, lima("06:00")).currentServiceId).toBe(w.cen);
  });

  test("a service without a price or without a window is never preselected; a cafe without windows has none", () => {
    const { db, w } = setup();
    db.update(cafeServices)
      .set({ priceCents: null })
      .where(and(eq(cafeServices.cafeId, w.norte), eq(cafeServices.serviceId, w.des)))
      .run();
    expect(pointOfSale(db, EVERYTHING, w.norte, lima("06:00")).currentServiceId).toBeNull();
    // Sur's lunch has no window.
    expect(pointOfSale(db, EVERYTHING, w.sur, lima("12:00")).currentServiceId).toBeNull();
  });

  test("a cafe outside the scope is not found", () => {
    const { db, w } = setup();
    const scope: Scope = { all: false, cafeIds: new Set([w.sur]), headquartersIds: new Set(), businessIds: new Set() };
    expect(() => pointOfSale(db, scope, w.norte, lima("12:00"))).toThrow(NotFound);
    expect(pointOfSale(db, scope, w.sur, lima("12:00")).cafe.id).toBe(w.sur);
  });
});

describe("momentIn and clockIn", () => {
  test("a wall-clock time names its moment in the zone; with Z or an offset, that moment", () => {
    expect(momentIn("America/Lima", "2026-12-01 10:32")?.toISOString()).toBe("2026-12-01T15:32:00.000Z");
    expect(momentIn("America/Lima", "2026-12-01T10:32:15")?.toISOString()).toBe("2026-12-01T15:32:15.000Z");
    expect(momentIn("America/Lima", "2026-12-01 10:32:15Z")?.toISOString()).toBe("2026-12-01T10:32:15.000Z");
    expect(momentIn("America/Lima", "2026-12-01 10:32-03:00")?.toISOString()).toBe("2026-12-01T13:32:00.000Z");
    // Across a change of offset (Madrid moves to summer time at 02:00 on 29 March 2026).
    expect(momentIn("Europe/Madrid", "2026-03-29 01:30")?.toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(momentIn("Europe/Madrid", "2026-03-29 03:30")?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(clockIn("America/Lima", new Date("2026-12-01T15:32:07Z"))).toBe("2026-12-01 10:32:07");
  });

  test("what is not such a time is null", () => {
    for (const text of ["2026-02-30 10:00", "2026-12-01", "2026-12-01 24:00", "10:32", "yesterday", "2026-12-01 10:60"])
      expect(momentIn("America/Lima", text)).toBeNull();
  });
});
