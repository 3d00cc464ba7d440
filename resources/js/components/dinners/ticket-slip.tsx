/**
 * A sale's ticket as it prints on an 80 mm roll: issuer, RUC and address, "TICKET" with series and number, date and
 * time in the cafe's time zone, the service date, cafe, diner, document, subdealership (and dealership), the sale
 * type (a cash-type sale reads "Contado", paid at the till), lines under "Cant. Servicio Importe", base, IGV and
 * total in soles, the other-unit mark and, once voided, "ANULADO". The ticket page shows it; the point of sale prints it
 * in place when its cafe prints every sale. `ticketPrintStyle(id)` is the print style that keeps it alone.
 */
import { Fragment } from "react";
import { intlLocale } from "../../../../src/shared/i18n";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import type { SaleView } from "./types";

/**
 * Printing keeps the element `id` alone, on a roll 80 mm wide and as long as the ticket: everything else is left out
 * (not merely hidden, so it takes no paper) and the ticket's ancestors lose their spacing.
 */
export function ticketPrintStyle(id: string): string {
  return `@page { size: 80mm auto; margin: 0; }
@media print {
  html, body { background: #fff !important; margin: 0 !important; padding: 0 !important; min-height: 0 !important; height: auto !important; }
  body *:not(:has(#${id})):not(#${id}):not(#${id} *) { display: none !important; }
  body *:has(#${id}) { display: block !important; position: static !important; margin: 0 !important; padding: 0 !important; border: 0 !important; min-height: 0 !important; height: auto !important; width: auto !important; max-width: none !important; overflow: visible !important; box-shadow: none !important; background: #fff !important; }
  #${id} { display: block !important; width: 80mm; max-width: none; margin: 0; padding: 3mm 4mm; border: 0 !important; border-radius: 0; box-shadow: none !important; }
  #${id}, #${id} * { color: #000 !important; }
}`;
}

export function TicketSlip({ sale, id, className }: { sale: SaleView; id: string; className?: string }) {
  const { t, tDynamic, money, number, locale } = useI18n();
  const soldAt = new Intl.DateTimeFormat(intlLocale[locale], {
    dateStyle: "short",
    timeStyle: "short",
    hourCycle: "h23",
    timeZone: sale.timeZone,
  }).format(new Date(sale.soldAt));
  const serviceDate = new Intl.DateTimeFormat(intlLocale[locale], {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${sale.serviceDate}T12:00:00Z`));
  const rate = number(sale.igvRateBasisPoints / 100);
  const title = t("dinners.ticket.title", { ticket: sale.ticket });
  return (
    <article
      id={id}
      aria-label={title}
      className={cn(
        "mx-auto w-[80mm] max-w-full rounded-md border bg-white p-4 font-mono text-[12px] leading-snug text-black shadow-sm",
        className,
      )}
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
        <dt>{t("dinners.ticket.service_date")}</dt>
        <dd data-testid="ticket-service-date">{serviceDate}</dd>
        <dt>{t("dinners.ticket.cafe")}</dt>
        <dd>{sale.cafeName}</dd>
        {sale.tillName && (
          <>
            <dt>{t("dinners.ticket.till")}</dt>
            <dd>{sale.tillName}</dd>
          </>
        )}
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
        <dd>{t(`dinners.sale_types.${sale.saleType}`)}</dd>
      </dl>
      <hr className="my-2 border-dashed border-black" />
      <table className="w-full">
        <caption className="sr-only">{t("dinners.ticket.lines")}</caption>
        <thead>
          <tr>
            {/* As wide as its header ("Cant."), with a gap before the service: the header reads "Cant. Servicio". */}
            <th scope="col" className="w-px whitespace-nowrap pr-2 text-left font-normal">
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
              <td className="pr-2 align-top tabular-nums">{line.quantity}</td>
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
      {sale.payments.length > 0 && (
        <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-2 tabular-nums" data-testid="ticket-payments">
          {sale.payments.map((payment, i) => (
            <Fragment key={i}>
              <dt>
                {t("dinners.ticket.paid_with", {
                  method: tDynamic(`cash.methods.${payment.methodCode}`, payment.methodName),
                })}
                {payment.reference && ` · ${payment.reference}`}
              </dt>
              <dd className="text-right">{money(payment.amountCents)}</dd>
              {payment.tenderedCents !== null && payment.changeCents !== null && payment.changeCents > 0 && (
                <>
                  <dt>{t("dinners.ticket.tendered")}</dt>
                  <dd className="text-right">{money(payment.tenderedCents)}</dd>
                  <dt className="font-bold">{t("dinners.ticket.change")}</dt>
                  <dd className="text-right font-bold" data-testid="ticket-change">
                    {money(payment.changeCents)}
                  </dd>
                </>
              )}
            </Fragment>
          ))}
        </dl>
      )}
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
  );
}
