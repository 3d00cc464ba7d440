/**
 * The schedule page, live: the cafe's private menu channel (`private-cafe.{id}.menu`, holders of menu.view within
 * their scope) says when someone else saved a day (MenuDayChanged: date, version, who); a day shown at an older
 * version is read again through the page protocol's partial reload of the optional `day` prop, one day at a time.
 */
import { router } from "@inertiajs/react";
import { useEffect, useRef } from "react";
import { cafeMenuChannel, type RealtimeEvents } from "../../../../src/shared/realtime-events";
import { listenFor } from "../../lib/realtime";
import { useRealtime } from "../../hooks/use-realtime";

export function useLiveSchedule(
  cafeId: number | null,
  /** The version each day shown has now, by date. */
  versionOf: (date: string) => number | undefined,
  onChanged: (event: RealtimeEvents["MenuDayChanged"]) => void,
): void {
  const connect = useRealtime();
  const realtime = useRef(connect);
  realtime.current = connect;
  const version = useRef(versionOf);
  version.current = versionOf;
  const changed = useRef(onChanged);
  changed.current = onChanged;

  useEffect(() => {
    if (cafeId === null) return;
    const echo = realtime.current();
    const name = cafeMenuChannel(cafeId);
    // Days asked for one after another: a copy over many days announces each.
    const queue: string[] = [];
    let reloading = false;
    const next = () => {
      const date = queue.shift();
      if (date === undefined) {
        reloading = false;
        return;
      }
      reloading = true;
      router.reload({ only: ["day"], data: { day: date }, onFinish: next });
    };
    const heard = (event: RealtimeEvents["MenuDayChanged"]) => {
      const shown = version.current(event.date);
      if (event.cafeId !== cafeId || shown === undefined || shown >= event.version) return;
      changed.current(event);
      if (!queue.includes(event.date)) queue.push(event.date);
      if (!reloading) next();
    };
    listenFor(echo.private(name), "MenuDayChanged", heard).error((error: unknown) =>
      console.error(`Realtime: could not join ${name}`, error),
    );
    return () => {
      echo.private(name).stopListening("MenuDayChanged", heard);
      echo.leave(name);
    };
  }, [cafeId]);
}
