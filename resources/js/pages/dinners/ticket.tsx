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
import { requestJson } from "../../lib/json-client";
import { TicketSlip, ticketPrintStyle } from "../../components/dinners/ticket-slip";
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

export default function Ticket({ sale, prints, autoprint }: Props) {
  const { t } = useI18n();
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

  const title = t("dinners.ticket.title", { ticket: sale.ticket });

  return (
    <PageRoot className="space-y-4">
      <Head title={title} />
      <style>{ticketPrintStyle("ticket")}</style>
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
      <TicketSlip sale={sale} id="ticket" />
    </PageRoot>
  );
}
