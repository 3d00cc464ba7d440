/**
 * The cafe's prices dialog on the point of sale (prices.manage): each service's price, through the same price
 * service as Management (cafe_prices.update, history kept), and its service window (the window that holds the
 * cafe's current time preselects its service); the cafe's ticket and boleta series, whether every sale prints at
 * once and whether a cash sale keeps the next one on cash, for a cash-only cafe (dinners.settings). Only what changed
 * is sent.
 */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { centsToSoles } from "../../../../src/shared/money";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, inputClasses } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { normalizeTime, TimeInput } from "../ui/time-input";
import type { PointOfSale } from "./types";

interface Row {
  serviceId: number;
  price: string;
  start: string;
  end: string;
}

export function PricesDialog({ pos, onClose }: { pos: PointOfSale; onClose: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const initial: Row[] = pos.services.map((s) => ({
    serviceId: s.id,
    price: s.priceCents === null ? "" : centsToSoles(s.priceCents),
    start: s.windowStart ?? "",
    end: s.windowEnd ?? "",
  }));
  const form = useForm({
    rows: initial,
    ticket_series: pos.cafe.ticketSeries,
    boleta_series: pos.cafe.boletaSeries,
    auto_print: pos.cafe.autoPrint,
    keep_cash: pos.cafe.keepCash,
  });
  const {
    rows,
    ticket_series: series,
    boleta_series: boletaSeries,
    auto_print: autoPrint,
    keep_cash: keepCash,
  } = form.data;
  const errors = form.errors as Record<string, string>;
  const edit = (serviceId: number, field: keyof Omit<Row, "serviceId">, value: string) =>
    form.setData((data) => ({
      ...data,
      rows: data.rows.map((r) => (r.serviceId === serviceId ? { ...r, [field]: value } : r)),
    }));

  // Prices and settings are two requests: the prices first, then the settings once the prices are saved.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.processing) return;
    const before = new Map(initial.map((r) => [r.serviceId, r]));
    const prices = rows
      .filter((r) => r.price.trim() !== before.get(r.serviceId)!.price)
      .map((r) => ({ service_id: r.serviceId, price: r.price.trim() }));
    const windows = rows
      .filter((r) => r.start !== before.get(r.serviceId)!.start || r.end !== before.get(r.serviceId)!.end)
      // A time typed but not yet left ("7", "1930") is sent as HH:MM; anything else as typed, for the server to judge.
      .map((r) => ({
        service_id: r.serviceId,
        start: normalizeTime(r.start) ?? (r.start || null),
        end: normalizeTime(r.end) ?? (r.end || null),
      }));
    const settings = {
      ...(series.trim().toUpperCase() !== pos.cafe.ticketSeries ? { ticket_series: series.trim() } : {}),
      ...(boletaSeries.trim().toUpperCase() !== pos.cafe.boletaSeries ? { boleta_series: boletaSeries.trim() } : {}),
      ...(autoPrint !== pos.cafe.autoPrint ? { auto_print: autoPrint } : {}),
      ...(keepCash !== pos.cafe.keepCash ? { keep_cash: keepCash } : {}),
      ...(windows.length ? { windows } : {}),
    };
    const options = { preserveScroll: true, preserveState: true, only: ["pos"] };
    const saveSettings = () => {
      if (Object.keys(settings).length === 0) return onClose();
      form.transform(() => settings);
      form.put(route("dinners.settings", { cafe: pos.cafe.id }), { ...options, onSuccess: () => onClose() });
    };
    form.clearErrors();
    if (prices.length === 0 && Object.keys(settings).length === 0) return onClose();
    if (prices.length === 0) return saveSettings();
    // The settings start once the prices' visit has finished, so the form stays busy from one to the other.
    let pricesSaved = false;
    form.transform(() => ({ prices }));
    form.put(route("cafe_prices.update", { cafe: pos.cafe.id }), {
      ...options,
      onSuccess: () => {
        pricesSaved = true;
      },
      onFinish: () => {
        if (pricesSaved) saveSettings();
      },
    });
  };

  const known = [
    "ticket_series",
    "boleta_series",
    "auto_print",
    "keep_cash",
    ...rows.flatMap((r) => [`prices.${r.serviceId}`, `windows.${r.serviceId}`]),
  ];
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("dinners.prices.title", { cafe: pos.cafe.name })}
      description={t("dinners.prices.description")}
      closeLabel={t("dinners.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-5" noValidate>
        {pos.services.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("dinners.no_services")}</p>
        ) : (
          <table className="w-full text-sm max-sm:block">
            <caption className="sr-only">{t("dinners.prices.services")}</caption>
            <thead className="text-left text-muted-foreground max-sm:sr-only">
              <tr>
                <th scope="col" className="pb-2 font-medium">
                  {t("dinners.prices.service")}
                </th>
                <th scope="col" className="pb-2 font-medium">
                  {t("dinners.prices.price")}
                </th>
                <th scope="col" className="pb-2 font-medium">
                  {t("dinners.prices.window_start")}
                </th>
                <th scope="col" className="pb-2 font-medium">
                  {t("dinners.prices.window_end")}
                </th>
              </tr>
            </thead>
            <tbody className="max-sm:block max-sm:space-y-3">
              {pos.services.map((s) => {
                const row = rows.find((r) => r.serviceId === s.id)!;
                const priceError = errors[`prices.${s.id}`];
                const windowError = errors[`windows.${s.id}`];
                return (
                  <tr
                    key={s.id}
                    className="align-top max-sm:grid max-sm:grid-cols-3 max-sm:gap-2 max-sm:rounded-lg max-sm:border max-sm:p-2"
                  >
                    <th scope="row" className="py-1 pr-3 text-left font-normal max-sm:col-span-3">
                      <span className="font-mono text-xs text-muted-foreground">{s.code}</span> {s.name}
                      {(priceError || windowError) && (
                        <span className="block text-sm text-destructive" role="alert">
                          {[priceError, windowError].filter(Boolean).join(" ")}
                        </span>
                      )}
                    </th>
                    <td className="py-1 pr-2">
                      <input
                        inputMode="decimal"
                        placeholder="0.00"
                        aria-label={t("dinners.prices.price_of", { service: s.name })}
                        className={cn(inputClasses, "w-28 text-right font-mono max-sm:w-full")}
                        value={row.price}
                        onChange={(e) => edit(s.id, "price", e.target.value)}
                        aria-invalid={priceError ? true : undefined}
                      />
                    </td>
                    <td className="py-1 pr-2">
                      <TimeInput
                        aria-label={t("dinners.prices.start_of", { service: s.name })}
                        className="w-32 max-sm:w-full"
                        value={row.start}
                        onChange={(value) => edit(s.id, "start", value)}
                        aria-invalid={windowError ? true : undefined}
                      />
                    </td>
                    <td className="py-1">
                      <TimeInput
                        aria-label={t("dinners.prices.end_of", { service: s.name })}
                        className="w-32 max-sm:w-full"
                        value={row.end}
                        onChange={(value) => edit(s.id, "end", value)}
                        aria-invalid={windowError ? true : undefined}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <p className="text-xs text-muted-foreground">{t("dinners.prices.windows_hint")}</p>
        <div className="grid items-end gap-3 sm:grid-cols-2">
          <Field
            label={t("dinners.prices.series")}
            value={series}
            onChange={(e) => form.setData("ticket_series", e.target.value)}
            error={errors.ticket_series}
            hint={t("dinners.prices.series_hint")}
            maxLength={4}
            autoComplete="off"
            inputClassName="font-mono uppercase"
          />
          <Field
            label={t("dinners.prices.boleta_series")}
            value={boletaSeries}
            onChange={(e) => form.setData("boleta_series", e.target.value)}
            error={errors.boleta_series}
            hint={t("dinners.prices.boleta_series_hint")}
            maxLength={4}
            autoComplete="off"
            inputClassName="font-mono uppercase"
          />
          <label className="flex items-center gap-2 pb-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={autoPrint}
              onChange={(e) => form.setData("auto_print", e.target.checked)}
            />
            {t("dinners.prices.auto_print")}
          </label>
        </div>
        <div className="space-y-1">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={keepCash}
              onChange={(e) => form.setData("keep_cash", e.target.checked)}
              aria-describedby="pos-keep-cash-hint"
            />
            {t("dinners.prices.keep_cash")}
          </label>
          <p id="pos-keep-cash-hint" className="pl-6 text-xs text-muted-foreground">
            {t("dinners.prices.keep_cash_hint")}
          </p>
        </div>
        <OtherErrors errors={errors} fields={known} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("dinners.cancel")}
          submitLabel={t("dinners.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
