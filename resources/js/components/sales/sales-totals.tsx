/**
 * The totals of what the Sales page's filter shows, over all its pages: sales, meals, taxable base, IGV and total in
 * soles, and apart the voided sales, which count nowhere. Announced politely when they change.
 */
import { Ban } from "lucide-react";
import { useI18n } from "../../hooks/use-i18n";
import type { SalesTotals as Totals } from "./types";

export function SalesTotals({ totals, status }: { totals: Totals; status: "valid" | "voided" | "all" }) {
  const { t, money, number } = useI18n();
  const figures = [
    {
      id: "sales",
      label: t("sales.page.totals.sales"),
      value: number(totals.sales),
      detail: t("sales.page.totals.lines", { count: totals.lines }),
    },
    { id: "meals", label: t("sales.page.totals.meals"), value: number(totals.meals) },
    { id: "base", label: t("sales.page.totals.base"), value: money(totals.baseCents) },
    { id: "igv", label: t("sales.page.totals.igv"), value: money(totals.igvCents) },
    { id: "total", label: t("sales.page.totals.total"), value: money(totals.totalCents), strong: true },
  ];
  return (
    <section aria-label={t("sales.page.totals.label")} aria-live="polite" className="space-y-2">
      {status === "voided" ? (
        <p className="text-sm text-muted-foreground">{t("sales.page.totals.voided_only")}</p>
      ) : (
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
          {figures.map((figure) => (
            <div
              key={figure.id}
              className="rounded-xl border bg-card px-3 py-2"
              data-testid={`sales-total-${figure.id}`}
            >
              <dt className="text-xs text-muted-foreground">{figure.label}</dt>
              <dd className={figure.strong ? "text-lg font-semibold tabular-nums" : "text-lg tabular-nums"}>
                {figure.value}
              </dd>
              {figure.detail && <dd className="text-xs text-muted-foreground">{figure.detail}</dd>}
            </div>
          ))}
        </dl>
      )}
      {totals.voidedSales > 0 && (
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="sales-total-voided">
          <Ban className="size-4 shrink-0" aria-hidden="true" />
          {t(status === "valid" ? "sales.page.totals.voided_left_out" : "sales.page.totals.voided_apart", {
            count: totals.voidedSales,
            amount: money(totals.voidedCents),
          })}
        </p>
      )}
    </section>
  );
}
