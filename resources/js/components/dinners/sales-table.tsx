/**
 * The sales of the chosen date at the cafe, newest first, twenty a page, with the day's totals: each with its
 * ticket (printed in place, or opened in a new tab to look at) and, when allowed, Void. A voided sale stays, struck
 * through.
 */
import { Ban, Printer, Receipt } from "lucide-react";
import type { ReactNode } from "react";
import { intlLocale } from "../../../../src/shared/i18n";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { DataTable, type DataColumn, type Page } from "../data-table";
import { Button, buttonClasses, IconButton } from "../ui/button";
import { Kbd } from "./kbd";
import type { DaySales, SaleView } from "./types";

/** Sales per page (the route's SALES_PER_PAGE). */
export const SALES_PER_PAGE = 20;

function asPage(sales: DaySales): Page<SaleView> {
  return {
    data: sales.rows,
    total: sales.total,
    page: sales.page,
    perPage: SALES_PER_PAGE,
    lastPage: Math.max(1, Math.ceil(sales.total / SALES_PER_PAGE)),
  };
}

export function SalesTable({
  sales,
  canVoid,
  onVoid,
  onPrint,
}: {
  sales: DaySales;
  canVoid: (sale: SaleView) => boolean;
  onVoid: (sale: SaleView) => void;
  /** Prints the sale's ticket in place (the page records the print; a second one is a reprint). */
  onPrint?: (sale: SaleView) => void;
}) {
  const { t, money, number, locale } = useI18n();
  const route = useRoute();
  const time = (sale: SaleView) =>
    new Intl.DateTimeFormat(intlLocale[locale], {
      timeStyle: "short",
      hourCycle: "h23",
      timeZone: sale.timeZone,
    }).format(new Date(sale.soldAt));
  const struck = (sale: SaleView, content: ReactNode) =>
    sale.voided ? <span className="text-muted-foreground line-through">{content}</span> : content;
  const columns: DataColumn<SaleView>[] = [
    {
      id: "ticket",
      header: t("dinners.sales.ticket"),
      primary: true,
      className: "font-mono sm:whitespace-nowrap",
      cell: (s) => (
        <>
          {struck(s, s.ticket)}
          {s.voided && (
            <span className="ml-2 rounded bg-destructive px-1.5 py-0.5 font-sans text-xs text-destructive-foreground">
              {t("dinners.sales.voided")}
            </span>
          )}
        </>
      ),
    },
    { id: "time", header: t("dinners.sales.time"), className: "tabular-nums", cell: (s) => struck(s, time(s)) },
    {
      id: "diner",
      header: t("dinners.sales.diner"),
      title: (s) => `${s.dinerName} · ${s.documentType.toUpperCase()} ${s.documentNumber}`,
      cell: (s) =>
        struck(
          s,
          <>
            <span className="font-medium">{s.dinerName}</span>{" "}
            <span className="text-xs text-muted-foreground">
              {s.documentType.toUpperCase()} {s.documentNumber}
            </span>
          </>,
        ),
    },
    {
      id: "type",
      header: t("dinners.sales.type"),
      cell: (s) =>
        struck(
          s,
          <>
            {t(`dinners.sale_types.${s.saleType}`)}
            {s.otherUnit && (
              <span
                className="ml-1 rounded bg-amber-500/20 px-1 text-xs text-amber-900 dark:text-amber-200"
                title={t("dinners.other_unit.mark")}
              >
                ×{number(s.priceFactorPercent / 100)}
              </span>
            )}
          </>,
        ),
    },
    {
      id: "services",
      header: t("dinners.sales.services"),
      cell: (s) => struck(s, s.lines.map((l) => `${l.serviceCode} ×${l.quantity}`).join(", ")),
    },
    {
      id: "total",
      header: t("dinners.sales.total"),
      className: "text-right tabular-nums sm:whitespace-nowrap",
      cell: (s) => struck(s, money(s.totalCents)),
    },
    { id: "cashier", header: t("dinners.sales.cashier"), hidden: true, cell: (s) => s.cashierName },
    {
      id: "actions",
      header: t("dinners.sales.actions"),
      headerHidden: true,
      actions: true,
      cell: (s) => (
        <span className="inline-flex gap-0.5">
          {onPrint && (
            <IconButton label={t("dinners.last.print", { ticket: s.ticket })} onClick={() => onPrint(s)}>
              <Printer className="size-4" aria-hidden="true" />
            </IconButton>
          )}
          <a
            href={route("sales.ticket", { sale: s.id })}
            target="_blank"
            rel="noopener"
            className={buttonClasses("ghost", "size-8 p-0")}
            aria-label={t("dinners.sales.open_ticket", { ticket: s.ticket })}
            title={t("dinners.sales.open_ticket", { ticket: s.ticket })}
          >
            <Receipt className="size-4" aria-hidden="true" />
          </a>
          {!s.voided && canVoid(s) && (
            <IconButton danger label={t("dinners.sales.void", { ticket: s.ticket })} onClick={() => onVoid(s)}>
              <Ban className="size-4" aria-hidden="true" />
            </IconButton>
          )}
        </span>
      ),
    },
  ];
  const { totals } = sales;
  return (
    <section className="space-y-3" aria-labelledby="pos-sales-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="pos-sales-heading" className="text-lg font-semibold">
          {t("dinners.sales.title")}
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="pos-totals">
          {t("dinners.sales.count", { count: totals.sales })} · {t("dinners.sales.meals", { count: totals.meals })} ·{" "}
          <span className="font-semibold text-foreground tabular-nums">{money(totals.totalCents)}</span>
          {totals.voided > 0 && <> · {t("dinners.sales.voided_count", { count: totals.voided })}</>}
        </p>
      </div>
      <DataTable
        caption={t("dinners.sales.title")}
        storageKey="dinners.sales"
        columns={columns}
        page={asPage(sales)}
        rowKey={(s) => s.id}
        empty={t("dinners.sales.none")}
        only={["sales"]}
        rowProps={(s) => ({ "data-voided": s.voided ? "true" : "false" })}
      />
    </section>
  );
}

/**
 * The last diner served at the cafe on the date: who, their subdealership, the ticket, and the button that prints
 * that ticket in place (its key, `printKey`, does the same from anywhere on the page).
 */
export function LastDiner({
  sale,
  onPrint,
  printKey,
  printing = false,
}: {
  sale: SaleView | null;
  onPrint?: (sale: SaleView) => void;
  printKey?: string;
  printing?: boolean;
}) {
  const { t, money } = useI18n();
  return (
    <section
      aria-labelledby="pos-last-heading"
      className={cn("rounded-xl border bg-card p-4", !sale && "text-muted-foreground")}
      data-testid="pos-last"
    >
      <h2 id="pos-last-heading" className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        {t("dinners.last.title")}
      </h2>
      {sale ? (
        <div className="mt-1 flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 space-y-0.5">
            <p className="text-lg font-semibold">{sale.dinerName}</p>
            <p className="text-sm">
              {sale.documentType.toUpperCase()} {sale.documentNumber}
              {sale.subdealershipName && (
                <>
                  {" · "}
                  {sale.subdealershipName}
                  {sale.dealershipName && <span className="text-muted-foreground"> ({sale.dealershipName})</span>}
                </>
              )}
            </p>
            <p className="text-sm text-muted-foreground">
              <span className="font-mono">{sale.ticket}</span> · {sale.lines.map((l) => l.serviceName).join(", ")} ·{" "}
              {money(sale.totalCents)}
            </p>
          </div>
          {onPrint && (
            <Button
              variant="outline"
              onClick={() => onPrint(sale)}
              disabled={printing}
              aria-keyshortcuts={printKey}
              data-testid="pos-print-last"
            >
              <Printer className="size-4" aria-hidden="true" />
              {t("dinners.last.print", { ticket: sale.ticket })}
              {printKey && <Kbd>{printKey}</Kbd>}
            </Button>
          )}
        </div>
      ) : (
        <p className="mt-1 text-sm">{t("dinners.last.none")}</p>
      )}
    </section>
  );
}
