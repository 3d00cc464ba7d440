/**
 * The cafe's clock on an open point of sale: which priced service's window holds the cafe's time now (checked
 * every half minute, so breakfast gives way to lunch without a reload), and, when the cafe's day turns while the
 * page shows today, a reload for the new day.
 */
import { router } from "@inertiajs/react";
import { useEffect, useState } from "react";
import { dateIn, minuteOfDay, parseTimeOfDay, windowHolds } from "../../../src/shared/calendar";
import type { PointOfSale } from "../components/dinners/types";

const TICK_MS = 30_000;

/** The priced service whose window holds `minute`, as the server chooses it (the first by code). */
export function currentServiceAt(pos: PointOfSale, minute: number): number | null {
  for (const s of pos.services) {
    if (s.priceCents === null || !s.windowStart || !s.windowEnd) continue;
    const start = parseTimeOfDay(s.windowStart);
    const end = parseTimeOfDay(s.windowEnd);
    if (start !== null && end !== null && windowHolds({ start, end }, minute)) return s.id;
  }
  return null;
}

export function usePosClock(pos: PointOfSale | null, date: string): number | null {
  const [current, setCurrent] = useState(pos?.currentServiceId ?? null);
  useEffect(() => {
    setCurrent(pos?.currentServiceId ?? null);
    if (!pos) return;
    const tick = () => {
      const now = new Date();
      setCurrent(currentServiceAt(pos, minuteOfDay(pos.cafe.timeZone, now)));
      if (date === pos.cafe.today && dateIn(pos.cafe.timeZone, now) !== pos.cafe.today) router.reload();
    };
    const timer = window.setInterval(tick, TICK_MS);
    return () => window.clearInterval(timer);
  }, [pos, date]);
  return current;
}
