/**
 * The last step of the management modal: the services the new cafe will sell and their prices. The choices are
 * what the chosen mine offers (the active catalogue for a new mine); those the unit offers already start ticked.
 * A ticked service the unit lacks is added to the unit too (and to a new mine), which the list says. Prices are
 * typed in soles; a service left without one is offered but cannot be sold yet.
 */
import { useId } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { inputClasses } from "../ui/field";
import type { ServiceOption } from "../services/types";

/** A ticked service and the price typed for it ("" when none). */
export type ChosenServices = Record<number, { checked: boolean; price: string }>;

export function NewCafeServices({
  choices,
  unitServiceIds,
  newMine,
  unitName,
  chosen,
  onChange,
  canSetPrices,
  errors,
}: {
  choices: ServiceOption[];
  /** What the chosen unit offers already (none for a new unit). */
  unitServiceIds: number[];
  newMine: boolean;
  unitName: string;
  chosen: ChosenServices;
  onChange: (next: ChosenServices) => void;
  canSetPrices: boolean;
  errors: Record<string, string | undefined>;
}) {
  const { t } = useI18n();
  const id = useId();
  const set = (serviceId: number, change: Partial<{ checked: boolean; price: string }>) =>
    onChange({ ...chosen, [serviceId]: { ...(chosen[serviceId] ?? { checked: false, price: "" }), ...change } });
  const ticked = choices.filter((s) => chosen[s.id]?.checked);
  const unpriced = ticked.filter((s) => !chosen[s.id]?.price.trim()).length;

  return (
    <fieldset className="space-y-3" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium">{t("management.new_cafe_services")}</legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {newMine ? t("management.new_cafe_services_new_mine") : t("management.new_cafe_services_hint")}
      </p>
      {choices.length === 0 ? (
        <p className="text-sm">{t("management.new_cafe_no_services")}</p>
      ) : (
        <ul className="max-h-64 space-y-1 overflow-y-auto rounded-md border p-2" data-testid="new-cafe-services">
          {choices.map((service) => {
            const entry = chosen[service.id];
            const checked = entry?.checked ?? false;
            const serviceError = errors[`services.${service.id}`];
            const priceError = errors[`prices.${service.id}`];
            const addsToUnit = !unitServiceIds.includes(service.id);
            const errorId = `${id}-${service.id}-error`;
            return (
              <li key={service.id} className="space-y-1">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <label className="flex min-w-0 flex-1 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={checked}
                      onChange={(e) => set(service.id, { checked: e.target.checked })}
                      aria-invalid={serviceError ? true : undefined}
                      aria-describedby={serviceError || priceError ? errorId : undefined}
                    />
                    <span className="font-mono">{service.code}</span>
                    <span className="min-w-0 truncate">{service.name}</span>
                    {checked && addsToUnit && (
                      <span className="text-xs text-muted-foreground">
                        {t("management.adds_to_unit", { unit: unitName })}
                      </span>
                    )}
                  </label>
                  {canSetPrices && checked && (
                    <label className="flex items-center gap-1 text-sm">
                      <span aria-hidden="true">S/</span>
                      <span className="sr-only">{t("management.price_of", { service: service.code })}</span>
                      <input
                        type="text"
                        inputMode="decimal"
                        autoComplete="off"
                        placeholder="0.00"
                        className={cn(inputClasses, "h-8 w-24 text-right tabular-nums")}
                        value={entry?.price ?? ""}
                        onChange={(e) => set(service.id, { price: e.target.value })}
                        aria-invalid={priceError ? true : undefined}
                        aria-describedby={priceError ? errorId : undefined}
                      />
                    </label>
                  )}
                </div>
                {(serviceError || priceError) && (
                  <p id={errorId} className="pl-6 text-sm text-destructive">
                    {serviceError ?? priceError}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {ticked.length > 0 && (
        <p className={cn("text-sm", unpriced > 0 ? "text-destructive" : "text-muted-foreground")} aria-live="polite">
          {canSetPrices && unpriced > 0
            ? t("management.unpriced_warning", { count: unpriced })
            : t("management.services_chosen", { count: ticked.length })}
        </p>
      )}
      {errors.services && (
        <p role="alert" className="text-sm text-destructive">
          {errors.services}
        </p>
      )}
    </fieldset>
  );
}
