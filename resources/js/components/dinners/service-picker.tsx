/**
 * The cafe's services with a quantity each: a priced service is sold by setting its quantity (arrow keys in the
 * number, or the − and + buttons), an unpriced one is shown, disabled, "sin precio". On credit a diner takes at
 * most one of each service; cash sells up to 99.
 */
import { Minus, Plus } from "lucide-react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import type { PosService, SaleType } from "./types";

/** The most of one service in one cash sale (the server's MAX_QUANTITY). */
export const MAX_CASH_QUANTITY = 99;

export function maxQuantity(saleType: SaleType): number {
  return saleType === "credit" ? 1 : MAX_CASH_QUANTITY;
}

export function ServicePicker({
  services,
  quantities,
  saleType,
  factor = 1,
  onChange,
}: {
  services: PosService[];
  quantities: Record<number, number>;
  saleType: SaleType;
  /** Shown prices are multiplied by it (never sent: the server prices every sale). */
  factor?: number;
  onChange: (serviceId: number, quantity: number) => void;
}) {
  const { t, money } = useI18n();
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
