/**
 * The calendar's day boundaries in the cafes' zone, America/Lima (UTC−5 all year: Peru has kept no daylight saving
 * time since 1994), checked against plain arithmetic on UTC for any moment of this century, and its date arithmetic
 * against itself.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  addDays,
  dateIn,
  datesBetween,
  dayCount,
  daysBetween,
  isCalendarDate,
  minuteOfDay,
  mondayOf,
} from "./calendar";

const LIMA = "America/Lima";
const LIMA_OFFSET_MS = 5 * 60 * 60 * 1000;
const moment = fc.date({
  min: new Date("2000-01-01T00:00:00Z"),
  max: new Date("2099-12-31T23:59:59Z"),
  noInvalidDate: true,
});
const day = moment.map((d) => d.toISOString().slice(0, 10));

describe("the day in America/Lima", () => {
  test("is the UTC day five hours earlier, at any moment", () => {
    fc.assert(
      fc.property(moment, (now) => {
        expect(dateIn(LIMA, now)).toBe(new Date(now.getTime() - LIMA_OFFSET_MS).toISOString().slice(0, 10));
      }),
    );
  });

  test("turns at 05:00 UTC: a millisecond before is the day before", () => {
    fc.assert(
      fc.property(day, (date) => {
        const midnight = new Date(`${date}T05:00:00Z`);
        expect(dateIn(LIMA, midnight)).toBe(date);
        expect(minuteOfDay(LIMA, midnight)).toBe(0);
        expect(dateIn(LIMA, new Date(midnight.getTime() - 1))).toBe(addDays(date, -1));
        expect(minuteOfDay(LIMA, new Date(midnight.getTime() - 1))).toBe(24 * 60 - 1);
      }),
    );
  });

  test("minutes of the day follow the UTC clock less five hours", () => {
    fc.assert(
      fc.property(moment, (now) => {
        const utcMinute = now.getUTCHours() * 60 + now.getUTCMinutes();
        expect(minuteOfDay(LIMA, now)).toBe((utcMinute - 300 + 1440) % 1440);
      }),
    );
  });
});

describe("date arithmetic", () => {
  test("adding days and taking them away again, counted both ways", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -800, max: 800 }), (date, days) => {
        const moved = addDays(date, days);
        expect(isCalendarDate(moved)).toBe(true);
        expect(addDays(moved, -days)).toBe(date);
        expect(daysBetween(date, moved)).toBe(days);
        if (days >= 0) expect(dayCount(date, moved)).toBe(days + 1);
      }),
    );
  });

  test("the dates between two days are every day once, in order", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 400 }), (from, days) => {
        const dates = datesBetween(from, addDays(from, days));
        expect(dates.length).toBe(days + 1);
        dates.forEach((date, i) => expect(date).toBe(addDays(from, i)));
      }),
    );
  });

  test("the Monday of a week is a Monday at most six days earlier", () => {
    fc.assert(
      fc.property(day, (date) => {
        const monday = mondayOf(date);
        expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(daysBetween(monday, date)).toBeGreaterThanOrEqual(0);
        expect(daysBetween(monday, date)).toBeLessThan(7);
      }),
    );
  });
});
