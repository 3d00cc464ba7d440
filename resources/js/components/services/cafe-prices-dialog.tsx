/** A cafe's price for each service it offers (editable with prices.manage), and the recent price changes. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { DataTable } from "../data-table";
import { Dialog, DialogActions } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { cn } from "../../lib/utils";
import type { CafePrices } from "./types";

/** `reload`: the page's props that show prices (besides the dialog's own), refreshed after saving. */
export function CafePricesDialog({
  prices,
  canManage,
  reload,
  onClose,
}: {
  prices: CafePrices;
  canManage: boolean;
  reload: string[];
  onClose: () => void;
}) {
  const { t, money, dateTime } = useI18n();
  const route = useRoute();
  const form = useForm({ prices: prices.services.map((s) => ({ service_id: s.serviceId, price: s.price })) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Reload only what the dialog shows, so a validation error keeps it open with its data.
    form.put(route("cafe_prices.update", { cafe: prices.cafe.id }), {
      preserveScroll: true,
      only: ["cafePrices", ...reload],
      onSuccess: () => onClose(),
    });
  };
  const errors = form.errors as Record<string, string | undefined>;
  const setPrice = (serviceId: number, price: string) =>
    form.setData(
      "prices",
      form.data.prices.map((p) => (p.service_id === serviceId ? { ...p, price } : p)),
    );
  const show = (cents: number | null) => (cents === null ? t("services.no_price") : money(cents));
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("services.prices_of", { place: prices.cafe.name })}
      description={prices.cafe.path}
      closeLabel={t("services.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {prices.services.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("services.no_cafe_services")}</p>
        ) : (
          <div className="space-y-2">
            {prices.services.map((s) => {
              const id = `price-${s.serviceId}`;
              const error = errors[`prices.${s.serviceId}`];
              return (
                <div key={s.serviceId} className="grid items-center gap-2 sm:grid-cols-[1fr_10rem]">
                  <label htmlFor={id} className="text-sm">
                    <span className="font-mono">{s.code}</span> {s.name}{" "}
                    <span className="text-xs text-muted-foreground">· {t(`services.types.${s.type}`)}</span>
                  </label>
                  {canManage ? (
                    <input
                      id={id}
                      inputMode="decimal"
                      placeholder="0.00"
                      aria-label={`${t("services.price")} ${s.code}`}
                      className={cn(inputClasses, "text-right font-mono")}
                      value={form.data.prices.find((p) => p.service_id === s.serviceId)?.price ?? ""}
                      onChange={(e) => setPrice(s.serviceId, e.target.value)}
                      aria-invalid={error ? true : undefined}
                    />
                  ) : (
                    <span id={id} className="text-right font-mono text-sm">
                      {show(s.priceCents)}
                    </span>
                  )}
                  {error && <p className="text-sm text-destructive sm:col-span-2">{error}</p>}
                </div>
              );
            })}
          </div>
        )}
        <OtherErrors errors={errors} fields={prices.services.map((s) => `prices.${s.serviceId}`)} />
        <section className="space-y-2">
          <h3 className="text-sm font-semibold">{t("services.history")}</h3>
          {prices.history.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("services.history_none")}</p>
          ) : (
            <DataTable
              caption={t("services.history")}
              rows={prices.history}
              rowKey={(h) => h.id}
              empty={t("services.history_none")}
              columns={[
                {
                  id: "service",
                  header: t("services.history_service"),
                  primary: true,
                  hideable: false,
                  cell: (h) => (
                    <>
                      <span className="font-mono">{h.serviceCode}</span> {h.serviceName}
                    </>
                  ),
                },
                { id: "from", header: t("services.history_from"), hideable: false, cell: (h) => show(h.oldPriceCents) },
                { id: "to", header: t("services.history_to"), hideable: false, cell: (h) => show(h.newPriceCents) },
                { id: "by", header: t("services.history_by"), hideable: false, cell: (h) => h.by },
                {
                  id: "at",
                  header: t("services.history_at"),
                  hideable: false,
                  className: "sm:whitespace-nowrap",
                  cell: (h) => dateTime(h.at, prices.cafe.timeZone),
                },
              ]}
            />
          )}
        </section>
        {canManage && prices.services.length > 0 ? (
          <DialogActions
            onCancel={onClose}
            cancelLabel={t("services.cancel")}
            submitLabel={t("services.save")}
            busy={form.processing}
          />
        ) : null}
      </form>
    </Dialog>
  );
}
