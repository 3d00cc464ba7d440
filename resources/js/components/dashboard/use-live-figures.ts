/**
 * The dashboard's figures, live: one private channel per cafe shown (`private-cafe.{id}.figures`, for holders of
 * sales.view within their scope), whose FiguresChanged events — at most one a second per cafe, carrying counts and
 * dates, never diners — reload the deferred `figures` prop alone. However many cafes speak at once, the page reloads
 * at most once a second: the first event at once, the next ones together once the second has passed.
 *
 * A connection holds at most REALTIME_MAX_CHANNELS (100) channels; past MAX_LIVE_CAFES cafes the page asks again
 * every POLL_SECONDS instead of joining a channel per cafe.
 */
import { router } from "@inertiajs/react";
import { useEffect, useRef } from "react";
import { cafeFiguresChannel, type RealtimeEvents } from "../../../../src/shared/realtime-events";
import { listenFor } from "../../lib/realtime";
import { useRealtime } from "../../hooks/use-realtime";

/** The most cafes whose channels the page joins. */
export const MAX_LIVE_CAFES = 60;
/** How often the page asks again past MAX_LIVE_CAFES cafes. */
export const POLL_SECONDS = 15;
/** The least time between two reloads of the figures, in ms. */
export const RELOAD_INTERVAL_MS = 1000;

/** A throttle: `run` at once, then at most once per `intervalMs`, the calls in between folded into one. */
export function throttle(run: () => void, intervalMs: number, now: () => number = () => Date.now()) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = now();
    run();
  };
  return {
    call() {
      if (timer) return;
      const wait = last + intervalMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * Keeps the figures of `cafeIds` live while `enabled`. `shownFrom` is the first service date the figures show (the
 * chart's first day): changes to earlier dates are left alone. `onReload` hears of each reload as it finishes.
 */
export function useLiveFigures(
  cafeIds: number[],
  enabled: boolean,
  shownFrom: string | null,
  onReload: () => void,
): void {
  // Held in refs, so that a new render's functions do not leave and join the channels again.
  const connect = useRealtime();
  const realtime = useRef(connect);
  realtime.current = connect;
  const from = useRef(shownFrom);
  from.current = shownFrom;
  const reloaded = useRef(onReload);
  reloaded.current = onReload;
  const key = cafeIds.join(",");

  useEffect(() => {
    const ids = key ? key.split(",").map(Number) : [];
    if (!enabled || ids.length === 0) return;
    const reload = throttle(
      () => router.reload({ only: ["figures"], onSuccess: () => reloaded.current() }),
      RELOAD_INTERVAL_MS,
    );
    if (ids.length > MAX_LIVE_CAFES) {
      const every = setInterval(() => reload.call(), POLL_SECONDS * 1000);
      return () => {
        clearInterval(every);
        reload.cancel();
      };
    }
    const echo = realtime.current();
    const heard = (event: RealtimeEvents["FiguresChanged"]) => {
      const first = from.current;
      if (first !== null && event.serviceDates.every((date) => date < first)) return;
      reload.call();
    };
    const names = ids.map(cafeFiguresChannel);
    for (const name of names)
      listenFor(echo.private(name), "FiguresChanged", heard).error((error: unknown) =>
        console.error(`Realtime: could not join ${name}`, error),
      );
    return () => {
      reload.cancel();
      for (const name of names) {
        echo.private(name).stopListening("FiguresChanged", heard);
        echo.leave(name);
      }
    };
  }, [key, enabled]);
}
