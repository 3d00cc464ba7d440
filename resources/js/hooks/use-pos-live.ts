/**
 * The point of sale's live list: every sale or void at the cafe (made at another till; the server leaves out the
 * tab that made it) reloads the day's sales and the last diner served, when it is about the date shown.
 */
import { router } from "@inertiajs/react";
import { useEffect, useRef } from "react";
import { cafeSalesChannel, type RealtimeEvents } from "../../../src/shared/realtime-events";
import { listenFor } from "../lib/realtime";
import { useRealtime } from "./use-realtime";

export function usePosLive(cafeId: number | null, date: string): void {
  const realtime = useRealtime();
  const shown = useRef(date);
  shown.current = date;
  useEffect(() => {
    if (cafeId === null) return;
    const name = cafeSalesChannel(cafeId);
    const echo = realtime();
    const channel = echo.private(name);
    const heard = (event: RealtimeEvents["SaleChanged"]) => {
      if (event.cafeId !== cafeId || event.serviceDate !== shown.current) return;
      router.reload({ only: ["sales", "last"] });
    };
    listenFor(channel, "SaleChanged", heard).error((error: unknown) =>
      console.error(`Realtime: could not join ${name}`, error),
    );
    return () => {
      channel.stopListening("SaleChanged", heard);
      echo.leave(name);
    };
  }, [cafeId]);
}
