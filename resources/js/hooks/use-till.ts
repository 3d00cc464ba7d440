/**
 * The till this device runs as, at the cafe the Dinners page shows: chosen once and remembered on the device (its
 * browser's local storage, per cafe), so a counter's tablet stays that counter's till. A remembered till that is no
 * longer one of the cafe's active tills gives way to the first of them.
 */
import { useEffect, useState } from "react";
import type { PointOfSale } from "../components/dinners/types";

const storageKey = (cafeId: number) => `mesa.till.${cafeId}`;

function remembered(pos: PointOfSale | null): number | null {
  if (!pos || pos.tills.length === 0) return null;
  let stored: number | null = null;
  try {
    stored = Number(window.localStorage.getItem(storageKey(pos.cafe.id)));
  } catch {
    // Storage refused (a private window): the first till, every time.
  }
  return pos.tills.some((till) => till.id === stored) ? stored : pos.tills[0].id;
}

export function useTill(pos: PointOfSale | null): [number | null, (tillId: number) => void] {
  // The server renders the first till; the device's own choice is read once the page runs in the browser.
  const [tillId, setTillId] = useState<number | null>(pos?.tills[0]?.id ?? null);
  const tills = pos?.tills.map((t) => t.id).join(",");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the cafe and its tills, by value, decide it
  useEffect(() => setTillId(remembered(pos)), [pos?.cafe.id, tills]);
  const choose = (id: number) => {
    setTillId(id);
    if (!pos) return;
    try {
      window.localStorage.setItem(storageKey(pos.cafe.id), String(id));
    } catch {
      // Not remembered: chosen for this page only.
    }
  };
  return [tillId, choose];
}
