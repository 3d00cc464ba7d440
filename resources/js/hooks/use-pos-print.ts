/**
 * Automatic printing at the point of sale: a cafe that prints every sale gets the new sale's ticket printed in
 * place, without leaving the page or opening a window. The ticket is rendered print-only (TicketSlip), the print is
 * recorded (POST sales.print, as the ticket page does), then the browser prints it alone on its 80 mm roll.
 */
import { useEffect, useRef, useState } from "react";
import { requestJson } from "../lib/json-client";
import type { SaleView } from "../components/dinners/types";
import { useRoute } from "./use-route";

export function usePosPrint() {
  const route = useRoute();
  const [slip, setSlip] = useState<{ sale: SaleView; run: number } | null>(null);
  const printed = useRef(0);

  useEffect(() => {
    if (!slip || slip.run === printed.current) return;
    printed.current = slip.run;
    void (async () => {
      try {
        await requestJson("POST", route("sales.print", { sale: slip.sale.id }), {});
      } catch {
        // Offline for a moment: the ticket prints all the same; the count misses this print.
      }
      window.print();
    })();
  }, [slip]);

  /** Prints sale `saleId`: taken from the sales the page already has, else read from the server. */
  const print = async (saleId: number, known: (SaleView | null | undefined)[]) => {
    let sale = known.find((s) => s?.id === saleId) ?? null;
    if (!sale) {
      try {
        const { status, body } = await requestJson<SaleView>("GET", route("sales.ticket", { sale: saleId }));
        if (status === 200) sale = body;
      } catch {
        sale = null;
      }
    }
    if (sale) setSlip((current) => ({ sale: sale!, run: (current?.run ?? 0) + 1 }));
  };

  return { slip: slip?.sale ?? null, print };
}
