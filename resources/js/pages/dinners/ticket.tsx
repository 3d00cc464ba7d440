/**
 * A sale's ticket: the 80 mm print view (sales.ticket). Issuer, RUC and address, "TICKET" with series and number,
 * date and time in the cafe's time zone, cafe, diner, document, subdealership (and dealership), lines, base, IGV and
 * total in soles, the other-unit mark and, once voided, "ANULADO". Printing records the print (POST sales.print:
 * the first, then reprints) and opens the browser's print dialog, which prints the ticket alone on an 80 mm roll.
 * With ?print=1 (a cafe that prints every sale) it prints as soon as it opens.
 */
import { Head, Link } from "@inertiajs/react";
import { ArrowLeft, Printer } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { intlLocale } from "../../../../src/i18n";
import { dateIn } from "../../../../src/domain/sales/clock";
import { requestJson } from "../../components/dinners/http";
import type { SaleView } from "../../components/dinners/types";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageRoot } from "../../layouts/main-landmark";

interface Props {
  sale: SaleView;
  /** How many times the ticket has been printed. */
  prints: number;
  /** Print as soon as the page opens (?print=1). */
  autoprint: boolean;
}

// The roll is 80 mm wide and as long as the ticket; printing keeps the ticket alone, whatever frame it sits in.
const PRINT_STYLE = `@page { size: 80mm auto; margin: 0; }
@media print {
  html, body { background: #fff !important; }
  body * { visibility: hidden !important; }
  #ticket, #ticket * { visibility: visible !important; color: #000 !important; }
  #ticket { position: absolute; left: 0; top: 0; width: 80mm; margin: 0; padding: 3mm 4mm; border: 0 !important; box-shadow: none !important; border-radius: 0; }
}`;

export default function Ticket({ sale, prints, autoprint }: Props) {
  const { t, money, number, locale } = useI18n();
  const route = useRoute();
  const [printed, setPrinted] = useState(prints);
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);

  const print = async () => {
    setProblem(null);
    try {
      const { status } = await requestJson<{ reprint: boolean }>("POST", route("sales.print", { sale: sale.id }), {});
      if (status === 200) setPrinted((n) => n + 1);
      else setProblem(t("dinners.request_failed", { status }));
    } catch {
      setProblem(t("dinners.offline"));
    }
    window.print();
  };

  useEffect(() => {
    if (!autoprint || started.current) return;
    started.current = true;
    void print();
  }, [autoprint]);

  const soldAt = new Intl.DateTimeFormat(intlLocale[locale], {
    dateStyle: "short",
    timeStyle: "short",
    hourCycle: "h23",
    timeZone: sale.timeZone,
  }).format(new Date(sale.soldAt));
  const rate = number(sale.igvRateBasisPoints / 100);
  const title = t("dinners.ticket.title", { ticket: sale.ticket });

  return (
    <PageRoot className="space-y-4">
      <Head title={title} />
      <style>{PRINT_STYLE}</style>
      <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
        <Link
          href={route("dinners.index", { cafe: sale.cafeId })}
          className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t("dinners.ticket.back")}
        </Link>
        <div className="flex items-center gap-3">
          <span className="text-sm text-muted-foreground" data-testid="ticket-prints">
            {t("dinners.ticket.prints", { count: printed })}
          </span>
          <Button onClick={() => void print()}>
            <Printer className="size-4" aria-hidden="true" />
            {printed > 0 ? t("dinners.ticket.reprint") : t("dinners.ticket.print")}
          </Button>
        </div>
      </div>
      <h1 className="sr-only">{title}</h1>
      {problem && (
        <p role="alert" className="text-sm text-destructive print:hidden">
          {problem}
        </p>
      )}
      <article
        id="ticket"
        aria-label={title}
        className="mx-auto w-[80mm] max-w-full rounded-md border bg-white p-4 font-mono text-[12px] leading-snug text-black shadow-sm"
      >
        <header className="text-center">
          <p className="text-[13px] font-bold uppercase">{sale.businessName}</p>
          <p>RUC {sale.businessRuc}</p>
          {sale.businessAddress && <p>{sale.businessAddress}</p>}
        </header>
        <hr className="my-2 border-dashed border-black" />
        <p className="text-center text-[14px] font-bold">TICKET {sale.ticket}</p>
        {sale.voided && (
          <p className="my-1 border-2 border-black text-center text-[16px] font-bold" data-testid="ticket-voided">
            {t("dinners.ticket.voided")}
          </p>
        )}
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-2">
          <dt>{t("dinners.ticket.date")}</dt>
          <dd>{soldAt}</dd>
          <dt>{t("dinners.ticket.cafe")}</dt>
          <dd>{sale.cafeName}</dd>
          <dt>{t("dinners.ticket.diner")}</dt>
          <dd>{sale.dinerName}</dd>
          <dt>{sale.documentType.toUpperCase()}</dt>
          <dd>{sale.documentNumber}</dd>
          {sale.subdealershipName && (
            <>
              <dt>{t("dinners.ticket.subdealership")}</dt>
              <dd>
                {sale.subdealershipName}
                {sale.dealershipName && ` (${sale.dealershipName})`}
              </dd>
            </>
          )}
          <dt>{t("dinners.ticket.sale_type")}</dt>
          <dd>{t(`sales.types.${sale.saleType}`)}</dd>
          {sale.serviceDate !== dateIn(sale.timeZone, new Date(sale.soldAt)) && (
            <>
              <dt>{t("dinners.ticket.service_date")}</dt>
              <dd>{sale.serviceDate}</dd>
            </>
          )}
        </dl>
        <hr className="my-2 border-dashed border-black" />
        <table className="w-full">
          <caption className="sr-only">{t("dinners.ticket.lines")}</caption>
          <thead>
            <tr>
              <th scope="col" className="w-8 text-left font-normal">
                {t("dinners.ticket.qty")}
              </th>
              <th scope="col" className="text-left font-normal">
                {t("dinners.ticket.service")}
              </th>
              <th scope="col" className="text-right font-normal">
                {t("dinners.ticket.amount")}
              </th>
            </tr>
          </thead>
          <tbody>
            {sale.lines.map((line) => (
              <tr key={line.serviceId}>
                <td className="align-top">{line.quantity}</td>
                <td className="align-top">
                  {line.serviceName}
                  {line.quantity > 1 && <span className="block">@ {money(line.unitPriceCents)}</span>}
                </td>
                <td className="text-right align-top tabular-nums">{money(line.totalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <hr className="my-2 border-dashed border-black" />
        <dl className="grid grid-cols-[1fr_auto] gap-x-2 tabular-nums">
          <dt>{t("dinners.ticket.base")}</dt>
          <dd className="text-right">{money(sale.baseCents)}</dd>
          <dt>{t("dinners.ticket.igv", { rate })}</dt>
          <dd className="text-right">{money(sale.igvCents)}</dd>
          <dt className="text-[14px] font-bold">{t("dinners.ticket.total")}</dt>
          <dd className="text-right text-[14px] font-bold" data-testid="ticket-total">
            {money(sale.totalCents)}
          </dd>
        </dl>
        {sale.otherUnit && (
          <p className="mt-2 text-center font-bold" data-testid="ticket-other-unit">
            {t("dinners.ticket.other_unit", { factor: number(sale.priceFactorPercent / 100) })}
          </p>
        )}
        {sale.voided && sale.voidReason && (
          <p className="mt-1">{t("dinners.ticket.void_reason", { reason: sale.voidReason })}</p>
        )}
        <hr className="my-2 border-dashed border-black" />
        <p>{t("dinners.ticket.cashier", { name: sale.cashierName })}</p>
        <p className="mt-1 text-center text-[11px]">{t("dinners.ticket.internal")}</p>
      </article>
    </PageRoot>
  );
}
