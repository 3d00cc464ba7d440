/**
 * A structure's food cost against its service's price without IGV: the sums of the lowest and highest costs, each in
 * soles and as a percentage of the price, the shares of the plate, and at once whether the highest costs fit the
 * price or exceed it and by how much. Live: the editor passes the totals of what is typed.
 */
import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import type { StructureTotals } from "./structure-types";

export function StructureTotalsPanel({ totals, igvRate }: { totals: StructureTotals; igvRate: number }) {
  const { t, money, number } = useI18n();
  const pct = (value: number | null) => (value === null ? "—" : `${number(value, 1)} %`);
  const over = totals.excessCents !== null && totals.excessCents > 0;
  const sharesOver = totals.sharePercent > 100;
  return (
    <section
      aria-labelledby="structure-totals-title"
      className="space-y-3 rounded-lg border bg-card p-4"
      data-testid="structure-totals"
    >
      <h2 id="structure-totals-title" className="font-semibold">
        {t("menu.structures.totals.title")}
      </h2>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">{t("menu.structures.totals.price")}</dt>
          <dd className="font-mono tabular-nums">{totals.priceCents === null ? "—" : money(totals.priceCents)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t("menu.structures.totals.price_net")}</dt>
          <dd className="font-mono tabular-nums" data-testid="net-price">
            {totals.netPriceCents === null ? "—" : money(totals.netPriceCents)}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t("menu.structures.totals.min_total")}</dt>
          <dd className="tabular-nums">
            <span className="font-mono" data-testid="min-total">
              {money(totals.minCostCents)}
            </span>{" "}
            <span className="text-xs text-muted-foreground">{pct(totals.minPercent)}</span>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t("menu.structures.totals.max_total")}</dt>
          <dd className="tabular-nums">
            <span className={cn("font-mono", over && "font-semibold text-destructive")} data-testid="max-total">
              {money(totals.maxCostCents)}
            </span>{" "}
            <span className="text-xs text-muted-foreground" data-testid="max-percent">
              {pct(totals.maxPercent)}
            </span>
          </dd>
        </div>
        <div className="col-span-2 sm:col-span-4">
          <dt className="inline text-muted-foreground">{t("menu.structures.totals.shares")}: </dt>
          <dd className={cn("inline tabular-nums", sharesOver && "font-semibold text-destructive")}>
            {t("menu.structures.totals.shares_value", { total: number(totals.sharePercent, 2) })}
          </dd>
        </div>
      </dl>
      <p
        role="status"
        aria-live="polite"
        data-testid="structure-verdict"
        className={cn(
          "flex items-start gap-2 rounded-md px-3 py-2 text-sm",
          totals.netPriceCents === null
            ? "bg-muted text-muted-foreground"
            : over
              ? "border border-destructive/40 bg-destructive/10 font-medium text-destructive"
              : "border border-emerald-600/30 bg-emerald-600/10 text-emerald-800 dark:text-emerald-300",
        )}
      >
        {totals.netPriceCents === null ? (
          t("menu.structures.totals.no_price")
        ) : over ? (
          <>
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {t("menu.structures.totals.exceeds", { amount: money(totals.excessCents ?? 0) })}
          </>
        ) : (
          <>
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {t("menu.structures.totals.fits", { amount: money(totals.netPriceCents - totals.maxCostCents) })}
          </>
        )}
      </p>
      <p className="text-xs text-muted-foreground">
        {t("menu.structures.totals.igv_note", { rate: number(igvRate / 100) })}
      </p>
    </section>
  );
}
