/**
 * The cafe's services with a quantity each: a priced service is sold by setting its quantity (arrow keys in the
 * number, or the − and + buttons), an unpriced one is shown, disabled, "sin precio". On credit a diner takes at
 * most one of each service; cash sells up to 99. A scan that arrives in a quantity (digits faster than a person types)
 * is not a quantity: the quantity goes back to what it was and the digits go to the scan box (`onScan`).
 */
import { Minus, Plus } from "lucide-react";
import { useRef } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import type { PosService, SaleType } from "./types";

/** The most of one service in one cash sale (the server's MAX_QUANTITY). */
export const MAX_CASH_QUANTITY = 99;

/** Digits closer together than this come from a scanner, not from a person (who needs 80 ms or more a key). */
export const SCAN_GAP_MS = 50;

export function maxQuantity(saleType: SaleType): number {
  return saleType === "credit" ? 1 : MAX_CASH_QUANTITY;
}

export function ServicePicker({
  services,
  quantities,
  saleType,
  factor = 1,
  onChange,
  onScan,
}: {
  services: PosService[];
  quantities: Record<number, number>;
  saleType: SaleType;
  /** Shown prices are multiplied by it (never sent: the server prices every sale). */
  factor?: number;
  onChange: (serviceId: number, quantity: number) => void;
  /** The digits of a scan that began in a quantity: the page types them into its scan box. */
  onScan?: (text: string) => void;
}) {
  const { t, money } = useI18n();
  /** The last digit typed in a quantity: which, when, and the quantity before it. */
  const lastDigit = useRef<{ serviceId: number; before: number; key: string; at: number } | null>(null);
  const max = maxQuantity(saleType);
  if (services.length === 0) return <p className="text-sm text-muted-foreground">{t("dinners.no_services")}</p>;
  return (
    <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3" aria-label={t("dinners.services")}>
      {services.map((service) => {
        const priced = service.priceCents !== null;
        const quantity = quantities[service.id] ?? 0;
        const id = `service-${service.id}`;
        const set = (next: number) => onChange(service.id, Math.max(0, Math.min(max, Math.floor(next) || 0)));
        return (
          <li
            key={service.id}
            className={cn(
              "flex items-center gap-3 rounded-lg border px-3 py-2",
              quantity > 0 ? "border-primary bg-primary/5" : "bg-card",
              !priced && "opacity-60",
            )}
            data-testid={`service-${service.code}`}
          >
            <label htmlFor={id} className="min-w-0 flex-1 text-sm">
              <span className="block truncate font-medium">
                <span className="font-mono text-xs text-muted-foreground">{service.code}</span> {service.name}
              </span>
              <span className="block text-xs text-muted-foreground">
                {priced ? money(Math.round(service.priceCents! * factor)) : t("dinners.no_price")}
                {service.windowStart && service.windowEnd && ` · ${service.windowStart}–${service.windowEnd}`}
              </span>
            </label>
            <div className="flex items-center gap-1">
              <button
                type="button"
                tabIndex={-1}
                className="inline-flex size-8 items-center justify-center rounded-md border bg-card hover:bg-accent disabled:opacity-40"
                onClick={() => set(quantity - 1)}
                disabled={!priced || quantity <= 0}
                aria-label={t("dinners.less", { service: service.name })}
              >
                <Minus className="size-4" aria-hidden="true" />
              </button>
              <input
                id={id}
                type="number"
                inputMode="numeric"
                min={0}
                max={max}
                step={1}
                disabled={!priced}
                value={priced ? quantity : 0}
                onChange={(e) => set(Number(e.target.value))}
                onKeyDown={(e) => {
                  if (!onScan || !/^\d$/.test(e.key)) return;
                  const last = lastDigit.current;
                  if (last && last.serviceId === service.id && e.timeStamp - last.at < SCAN_GAP_MS) {
                    // A scanner: the first digit is undone and the scan goes where scans go.
                    e.preventDefault();
                    lastDigit.current = null;
                    onChange(service.id, last.before);
                    onScan(last.key + e.key);
                    return;
                  }
                  lastDigit.current = { serviceId: service.id, before: quantity, key: e.key, at: e.timeStamp };
                }}
                onFocus={(e) => e.target.select()}
                className="h-8 w-12 rounded-md border border-input bg-card text-center text-sm tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none"
                aria-label={t("dinners.quantity_of", { service: service.name })}
              />
              <button
                type="button"
                tabIndex={-1}
                className="inline-flex size-8 items-center justify-center rounded-md border bg-card hover:bg-accent disabled:opacity-40"
                onClick={() => set(quantity + 1)}
                disabled={!priced || quantity >= max}
                aria-label={t("dinners.more", { service: service.name })}
              >
                <Plus className="size-4" aria-hidden="true" />
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
