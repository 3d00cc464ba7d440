/**
 * The point of sale (Dinners): one of the cashier's cafes, the sale's receipt and sale type, the service date, the
 * cafe's priced services with quantities, and one input for a scanner or a typed name. The usual credit sale is
 * one scan: the service of the current window is preselected, the scanner types the document and Enter, the page
 * finds the diner (GET diners.search) and sells at once (POST sales.store through the page protocol, with a key
 * made for the attempt and kept for its retries). Below, the last diner served and the day's sales, kept live by
 * the cafe's realtime channel. The page keeps its session alive through a shift.
 *
 * The scan box keeps the focus: an unknown document or a misread is said in a notice beside it (F3 registers the
 * document), never by a dialog that would take the next scan into a name. After a cash or visitor sale the sale type
 * goes back to credit (unless the cafe sells cash only, `keepCash`), and cash is shown and announced unmistakably.
 * The keys (POS_KEYS: F2 scan box, F3 new diner, F4 print the last ticket, F8 credit or cash, F9 visitor) are fixed
 * and shown beside what they do; they stay quiet while a dialog is open or another field has the focus. The page's
 * notices (a sale recorded, a void, settings saved) show under the scan box, in the flow of the page, never floating
 * over its buttons (FlashMessages leaves them to the element marked `data-flash-inline`).
 */
import { Head, router, usePage } from "@inertiajs/react";
import { intlLocale } from "../../../../src/shared/i18n";
import { Banknote, CircleAlert, CircleCheck, CreditCard, RotateCw, Settings2, UserPlus, UserRound } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Message } from "../../../../src/shared/message";
import { DinerSearch, type DinerSearchHandle } from "../../components/dinners/diner-search";
import { DinerImport, type DinerImportProp } from "../../components/dinners/import-dialog";
import { Kbd, POS_KEYS } from "../../components/dinners/kbd";
import { NewDinerDialog } from "../../components/dinners/new-diner-dialog";
import { OtherUnitDialog } from "../../components/dinners/other-unit-dialog";
import { PaymentDialog, type PaymentRequest } from "../../components/dinners/payment-dialog";
import { PricesDialog } from "../../components/dinners/prices-dialog";
import { newSaleKey } from "../../components/dinners/sale-key";
import { TicketSlip, ticketPrintStyle } from "../../components/dinners/ticket-slip";
import { LastDiner, SalesTable } from "../../components/dinners/sales-table";
import { maxQuantity, ServicePicker } from "../../components/dinners/service-picker";
import type { DinerView, DinnersProps, SaleType, SaleView } from "../../components/dinners/types";
import { VisitorDialog, type Visitor } from "../../components/dinners/visitor-dialog";
import { VoidDialog } from "../../components/dinners/void-dialog";
import { SalesReportButton } from "../../components/sales/report-dialog";
import { visitWith } from "../../components/data-table";
import { Button } from "../../components/ui/button";
import { DatePicker } from "../../components/ui/date-picker";
import { PageHeader } from "../../components/ui/page-header";
import { Select } from "../../components/ui/select";
import { useI18n } from "../../hooks/use-i18n";
import { useKeepAlive } from "../../hooks/use-keep-alive";
import { usePosClock } from "../../hooks/use-pos-clock";
import { usePosLive } from "../../hooks/use-pos-live";
import { usePosPrint } from "../../hooks/use-pos-print";
import { useRoute } from "../../hooks/use-route";
import { useTill } from "../../hooks/use-till";
import { cn } from "../../lib/utils";
import { applyFactor } from "../../../../src/shared/money";

/** What the request carries (the contract of sales.store). */
interface SalePayload {
  key: string;
  cafe_id: number;
  receipt_type: "ticket";
  document_type: string;
  document_number: string;
  visitor_name?: string;
  service_date: string;
  sale_type: SaleType;
  other_unit_confirmed: boolean;
  /** The till this device runs as (remembered per cafe on the device). */
  till_id?: number;
  /** A cash-type sale's payments, once collected in the payment dialog. */
  payments?: PaymentRequest[];
  lines: { service_id: number; quantity: number }[];
}

interface Notice {
  tone: "error" | "warning";
  title: string;
  messages: string[];
  actions?: ReactNode;
  /** What F3 registers while the notice shows (an unknown document, or a name nobody has). */
  register?: { document: string; name: string };
}

type Modal =
  | { kind: "other-unit"; diner: DinerView }
  | { kind: "new-diner"; document: string; name: string }
  | { kind: "visitor"; document: string }
  | { kind: "void"; sale: SaleView }
  | { kind: "payment"; payload: SalePayload }
  | { kind: "prices" }
  | null;

/** Inputs that are not typed into (the sale type's radios): the page's keys work there. */
const NOT_TYPED = new Set(["radio", "checkbox", "button", "submit", "reset"]);

export default function DinnersIndex({
  cafes,
  pos,
  date,
  sales,
  last,
  levels,
  subdealerships,
  documentTypes,
  posSettings: settings,
  can,
  userId,
  dinerImport,
}: DinnersProps & {
  /** The Excel dialog's import (null without diners.import). */
  dinerImport: DinerImportProp | null;
}) {
  const { t, tDynamic, money, locale, date: formatDay } = useI18n();
  const said = (m: Message) => (typeof m === "string" ? m : tDynamic(m.key, m.key, m.params));
  const route = useRoute();
  const flash = usePage().flash as { success?: unknown; error?: unknown } | undefined;
  const search = useRef<DinerSearchHandle>(null);
  const [saleType, setSaleType] = useState<SaleType>("credit");
  /** The sale type went back to credit by itself after a cash sale (said in the status until it changes again). */
  const [backToCredit, setBackToCredit] = useState(false);
  /** The sale type before the visitor dialog switched to cash: given back when the dialog closes without a sale. */
  const beforeVisitor = useRef<SaleType | null>(null);
  const current = usePosClock(pos, date);
  const preselected = (): Record<number, number> => (current !== null ? { [current]: 1 } : {});
  const [quantities, setQuantities] = useState<Record<number, number>>(preselected);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [modal, setModal] = useState<Modal>(null);
  const [sending, setSending] = useState(false);
  const [visitorErrors, setVisitorErrors] = useState<Record<string, string>>({});
  const [paymentErrors, setPaymentErrors] = useState<Record<string, string>>({});
  const [tillId, chooseTill] = useTill(pos);
  /** The attempt on its way or that failed on the way: a retry sends it again with its key. */
  const attempt = useRef<SalePayload | null>(null);

  useKeepAlive(settings.keepAliveMinutes);
  usePosLive(pos?.cafe.id ?? null, date);
  const printer = usePosPrint();

  // Another cafe, or the next service window: its service is preselected.
  useEffect(() => setQuantities(preselected()), [pos?.cafe.id, current]);

  // The page's keys (POS_KEYS), read from a ref so the listener, set once, always calls this render's actions.
  const actions = useRef<Record<string, () => void>>({});
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = actions.current[event.key];
      if (!action || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      // A dialog has its own keys; a field typed into (a quantity, the date) other than the scan box is left alone.
      if (target?.closest('[role="dialog"], [role="alertdialog"]')) return;
      const typing =
        target !== null &&
        !target.hasAttribute("data-pos-scan") &&
        (target.isContentEditable ||
          target.tagName === "TEXTAREA" ||
          target.tagName === "SELECT" ||
          (target instanceof HTMLInputElement && !NOT_TYPED.has(target.type)));
      if (typing && event.key !== POS_KEYS.scan) return;
      event.preventDefault();
      if (!event.repeat) action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const priced = useMemo(() => (pos?.services ?? []).filter((s) => s.priceCents !== null), [pos]);
  const lines = priced
    .filter((s) => (quantities[s.id] ?? 0) > 0)
    .map((s) => ({ service_id: s.id, quantity: quantities[s.id] }));
  const subtotal = priced.reduce((sum, s) => sum + (s.priceCents ?? 0) * (quantities[s.id] ?? 0), 0);
  const today = pos?.cafe.today ?? date;

  const changeSaleType = (next: SaleType) => {
    setSaleType(next);
    setBackToCredit(false);
    const max = maxQuantity(next);
    setQuantities((q) => Object.fromEntries(Object.entries(q).map(([id, n]) => [id, Math.min(n, max)])));
  };

  /** After a sale: the input, empty and focused, for the next diner. */
  const refocus = useRef(false);
  const ready = () => {
    setModal(null);
    search.current?.clear();
    search.current?.focus();
    refocus.current = true;
  };
  // A dialog that closes gives the focus back to what opened it (a button), in a timer its unmounting sets: the
  // input takes it back in a timer set after that one.
  useEffect(() => {
    if (modal !== null || !refocus.current) return;
    refocus.current = false;
    const timer = window.setTimeout(() => search.current?.focus(), 0);
    return () => window.clearTimeout(timer);
  }, [modal]);

  const failed = (title: string, messages: string[], actions?: ReactNode) => {
    setNotice({ tone: "error", title, messages, actions });
    search.current?.focus();
  };

  /** What the page reckons a sale comes to (the server works it out again): its lines at the cafe's prices. */
  const totalOf = (payload: SalePayload) => {
    const percent = payload.other_unit_confirmed ? Math.round(settings.otherUnitFactor * 100) : 100;
    return payload.lines.reduce((sum, line) => {
      const price = priced.find((s) => s.id === line.service_id)?.priceCents ?? 0;
      return sum + applyFactor(price, percent) * line.quantity;
    }, 0);
  };

  /**
   * Sends one attempt (a retry sends the same payload, with its key). A cash-type sale is collected first: the
   * payment dialog adds its payments, then it is sent.
   */
  const send = (payload: SalePayload) => {
    if (!pos) return;
    if (payload.sale_type === "cash" && payload.payments === undefined) {
      setPaymentErrors({});
      // From another dialog (a visitor, another unit) too: this one takes its place and the focus (returnFocus).
      setModal({ kind: "payment", payload });
      return;
    }
    attempt.current = payload;
    setVisitorErrors({});
    setPaymentErrors({});
    router.post(
      route("sales.store"),
      { ...payload },
      {
        preserveScroll: true,
        preserveState: true,
        only: ["sales", "last"],
        onStart: () => setSending(true),
        onFinish: () => setSending(false),
        onSuccess: (page) => {
          if (Object.keys((page.props.errors ?? {}) as object).length > 0) return;
          attempt.current = null;
          setNotice(null);
          beforeVisitor.current = null;
          if (payload.sale_type === "cash") {
            setQuantities(preselected());
            // The next worker is charged to their subdealership, unless the cafe sells cash only.
            if (!pos.cafe.keepCash) {
              setSaleType("credit");
              setBackToCredit(true);
            }
          }
          ready();
          const sold = (page.flash as { sale?: { id: number; ticket: string } } | undefined)?.sale;
          if (sold && pos.cafe.autoPrint) {
            const fresh = page.props as { last?: SaleView | null; sales?: { rows: SaleView[] } | null };
            void printer.print(sold.id, [fresh.last, ...(fresh.sales?.rows ?? [])]);
          }
        },
        onError: (errors) => {
          // Refused: nothing was written, so the next attempt gets a new key.
          attempt.current = null;
          const messages = Object.values(errors as Record<string, string>).filter(Boolean);
          // A refused cash-type sale is said in the payment dialog, which stays open to collect it again.
          if (payload.payments !== undefined) {
            setPaymentErrors(errors as Record<string, string>);
            return;
          }
          setModal(null);
          failed(t("dinners.refused"), messages);
        },
        onNetworkError: () => {
          failed(t("dinners.not_sent"), [t("dinners.offline")], retryButton());
          return false;
        },
        onHttpException: (response) => {
          const status = response.status;
          if (status === 419) {
            window.location.reload();
            return false;
          }
          attempt.current = null;
          failed(t("dinners.refused"), [t("dinners.request_failed", { status })]);
          return false;
        },
      },
    );
  };

  const retryButton = () => (
    <Button
      variant="outline"
      size="sm"
      onClick={() => {
        if (attempt.current) send(attempt.current);
      }}
    >
      <RotateCw className="size-4" aria-hidden="true" />
      {t("dinners.retry")}
    </Button>
  );

  /** Checks what the page can check before sending: a cafe that can sell, and at least one service. */
  const canSell = (): boolean => {
    if (!pos) return false;
    if (!pos.cafe.business) {
      failed(t("dinners.cannot_sell"), [t("sales.cafe_without_business", { cafe: pos.cafe.name })]);
      return false;
    }
    if (lines.length === 0) {
      failed(t("dinners.cannot_sell"), [t("dinners.choose_service")]);
      return false;
    }
    return true;
  };

  const payloadFor = (
    buyer: { documentType: string; documentNumber: string; visitorName?: string },
    otherUnit: boolean,
  ): SalePayload => ({
    key: newSaleKey(),
    cafe_id: pos!.cafe.id,
    receipt_type: "ticket",
    document_type: buyer.documentType,
    document_number: buyer.documentNumber,
    ...(buyer.visitorName !== undefined ? { visitor_name: buyer.visitorName } : {}),
    service_date: date,
    ...(tillId !== null ? { till_id: tillId } : {}),
    // A visitor always pays at the till.
    sale_type: buyer.visitorName !== undefined ? "cash" : saleType,
    other_unit_confirmed: otherUnit,
    lines,
  });

  const sellTo = (diner: DinerView, otherUnit = false) =>
    send(payloadFor({ documentType: diner.documentType, documentNumber: diner.documentNumber }, otherUnit));

  /** A diner was found or chosen: refused, asked about (other unit) or sold to at once. */
  const pick = (diner: DinerView) => {
    setNotice(null);
    if (!pos) return;
    if (diner.barredReason !== null)
      return failed(t("dinners.refused"), [t("sales.person_barred", { name: diner.name, reason: diner.barredReason })]);
    if (!diner.active) return failed(t("dinners.refused"), [t("sales.diner_inactive", { name: diner.name })]);
    if (!canSell()) return;
    if (diner.cafeId !== pos.cafe.id) return setModal({ kind: "other-unit", diner });
    sellTo(diner);
  };

  const openVisitor = (document: string) => {
    if (saleType !== "cash") {
      beforeVisitor.current = saleType;
      changeSaleType("cash");
    }
    setModal({ kind: "visitor", document });
  };

  /**
   * A document nobody has, or a name nobody has: said beside the scan box, which keeps the focus (what it holds is
   * selected, so the next scan replaces it). F3 or the notice's button registers the diner.
   */
  const unknown = (text: string, isDocument: boolean, note?: Message | null) => {
    const register = (document: string, name: string) =>
      can.manageDiners && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => setModal({ kind: "new-diner", document, name })}
          aria-keyshortcuts={POS_KEYS.register}
        >
          <UserPlus className="size-4" aria-hidden="true" />
          {t("dinners.new_diner.open")}
          <Kbd>{POS_KEYS.register}</Kbd>
        </Button>
      );
    const visitor = (document: string) => (
      <Button variant="outline" size="sm" onClick={() => openVisitor(document)} aria-keyshortcuts={POS_KEYS.visitor}>
        <UserRound className="size-4" aria-hidden="true" />
        {t("dinners.visitor.open")}
        <Kbd>{POS_KEYS.visitor}</Kbd>
      </Button>
    );
    if (isDocument) {
      setNotice({
        tone: "warning",
        title: t("dinners.unknown_title"),
        messages: [
          t("sales.diner_unknown", { document: text }),
          ...(note ? [said(note)] : []),
          can.manageDiners ? t("dinners.unknown_register", { key: POS_KEYS.register }) : t("dinners.unknown_ask"),
        ],
        actions: (
          <>
            {register(text, "")}
            {visitor(text)}
          </>
        ),
        register: { document: text, name: "" },
      });
      search.current?.focus();
      return;
    }
    setNotice({
      tone: "warning",
      title: t("dinners.no_one_named", { name: text }),
      messages: [t("dinners.no_one_named_hint")],
      actions: register("", text),
      register: { document: "", name: text },
    });
    search.current?.focus();
  };

  /** Digits no document has this many of: what is wrong, nothing asked; the scan box keeps the focus for a rescan. */
  const misread = (problem: Message) => {
    setNotice({ tone: "error", title: t("dinners.scan.misread_title"), messages: [said(problem)] });
    search.current?.focus();
  };

  const printLast = () => {
    if (!last) return failed(t("dinners.last.cannot_print"), [t("dinners.last.nothing_to_print")]);
    void printer.print(last.id, [last]);
  };

  actions.current = {
    [POS_KEYS.scan]: () => search.current?.focus(),
    [POS_KEYS.register]: () => {
      if (!pos || !can.manageDiners) return;
      const { document, name } = notice?.register ?? { document: "", name: "" };
      setModal({ kind: "new-diner", document, name });
    },
    [POS_KEYS.print]: printLast,
    [POS_KEYS.saleType]: () => pos && changeSaleType(saleType === "cash" ? "credit" : "cash"),
    [POS_KEYS.visitor]: () => pos && openVisitor(notice?.register?.document ?? ""),
  };

  const canVoid = (sale: SaleView) => can.voidAny || (sale.cashierId === userId && sale.serviceDate === today);

  if (!pos) {
    return (
      <div className="space-y-6">
        <Head title={t("dinners.title")} />
        <PageHeader title={t("dinners.title")} description={t("dinners.description")} />
        <p className="rounded-xl border bg-card p-6 text-sm text-muted-foreground">{t("dinners.no_cafes")}</p>
      </div>
    );
  }

  const factor = settings.otherUnitFactor;
  return (
    <div className="space-y-6">
      <Head title={t("dinners.title")} />
      <PageHeader
        title={t("dinners.title")}
        description={pos.cafe.path}
        actions={
          // The day's sales come only to those who may see sales (sales.view): they may also make the report.
          (dinerImport || can.managePrices || sales !== null) && (
            <>
              {sales !== null && <SalesReportButton initial={{ cafe_ids: String(pos.cafe.id) }} />}
              {dinerImport && <DinerImport state={dinerImport} cafes={cafes} cafeId={pos.cafe.id} />}
              {can.managePrices && (
                <Button variant="outline" onClick={() => setModal({ kind: "prices" })}>
                  <Settings2 className="size-4" aria-hidden="true" />
                  {t("dinners.prices.open")}
                </Button>
              )}
            </>
          )
        }
      />

      <section
        aria-label={t("dinners.sale")}
        className={cn(
          "space-y-4 rounded-xl border bg-card p-4 shadow-xs",
          // Cash is never mistaken for credit: the whole sale is framed in the cash colour.
          saleType === "cash" && "border-amber-500 ring-2 ring-amber-500/50",
        )}
        data-sale-type={saleType}
      >
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto_minmax(0,1.2fr)]">
          <div className="min-w-0 space-y-1.5">
            <label htmlFor="pos-cafe" className="text-sm font-medium">
              {t("dinners.cafe")}
            </label>
            <Select
              id="pos-cafe"
              value={String(pos.cafe.id)}
              onValueChange={(value) => router.get(route("dinners.index", { cafe: value }))}
              options={cafes.map((c) => ({ value: String(c.id), label: c.path }))}
            />
          </div>
          <div className="min-w-0 space-y-1.5">
            <label htmlFor="pos-till" className="text-sm font-medium">
              {t("dinners.till")}
            </label>
            <Select
              id="pos-till"
              value={tillId === null ? "" : String(tillId)}
              onValueChange={(value) => chooseTill(Number(value))}
              options={pos.tills.map((till) => ({ value: String(till.id), label: till.name }))}
              disabled={pos.tills.length < 2}
            />
          </div>
          <div className="min-w-0 space-y-1.5">
            <label htmlFor="pos-receipt" className="text-sm font-medium">
              {t("dinners.receipt_type")}
            </label>
            <Select
              id="pos-receipt"
              value="ticket"
              onValueChange={() => undefined}
              options={[{ value: "ticket", label: t("sales.receipt_types.ticket") }]}
            />
          </div>
          <fieldset className="min-w-0 space-y-1.5">
            <legend className="mb-1.5 text-sm font-medium">
              {t("dinners.sale_type")}
              <Kbd>{POS_KEYS.saleType}</Kbd>
            </legend>
            <div className="inline-flex h-9 rounded-md border border-input bg-muted/40 p-0.5">
              {(["credit", "cash"] as const).map((type) => {
                const Icon = type === "cash" ? Banknote : CreditCard;
                return (
                  <label
                    key={type}
                    className={cn(
                      "flex cursor-pointer items-center gap-1.5 whitespace-nowrap rounded px-3 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                      saleType !== type
                        ? "text-muted-foreground"
                        : type === "cash"
                          ? "bg-amber-400 text-black shadow-xs"
                          : "bg-primary text-primary-foreground shadow-xs",
                    )}
                  >
                    <input
                      type="radio"
                      name="sale_type"
                      value={type}
                      className="sr-only"
                      checked={saleType === type}
                      onChange={() => changeSaleType(type)}
                      aria-keyshortcuts={POS_KEYS.saleType}
                    />
                    <Icon className="size-4" aria-hidden="true" />
                    {t(`dinners.sale_types.${type}`)}
                  </label>
                );
              })}
            </div>
          </fieldset>
          {can.backdate ? (
            <div className="min-w-0 space-y-1.5">
              <label htmlFor="pos-date" className="text-sm font-medium">
                {t("dinners.service_date")}
              </label>
              <DatePicker
                id="pos-date"
                value={date}
                max={today}
                onChange={(value) => visitWith({ date: value && value !== today ? value : null, page: null })}
              />
            </div>
          ) : (
            // Only today: shown, not chosen.
            <dl className="min-w-0 space-y-1.5">
              <dt className="text-sm font-medium">{t("dinners.service_date")}</dt>
              <dd className="flex h-9 items-center text-sm" data-testid="pos-date">
                {new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(
                  new Date(`${date}T12:00:00Z`),
                )}
              </dd>
            </dl>
          )}
        </div>
        <p
          role="status"
          className={cn(
            "rounded-md px-3 py-2 text-sm",
            saleType === "cash"
              ? "bg-amber-400 font-semibold text-black"
              : "border border-dashed text-muted-foreground",
          )}
          data-testid="pos-sale-type"
        >
          {saleType === "cash"
            ? t(pos.cafe.keepCash ? "dinners.sale_type_status.cash_kept" : "dinners.sale_type_status.cash")
            : t(backToCredit ? "dinners.sale_type_status.back_to_credit" : "dinners.sale_type_status.credit")}
        </p>
        {date !== today && (
          <p className="rounded-md bg-amber-500/15 px-3 py-2 text-sm text-amber-900 dark:text-amber-200">
            {t("dinners.backdated", { date: formatDay(`${date}T12:00:00Z`) })}
          </p>
        )}
        {!pos.cafe.business && (
          <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {t("sales.cafe_without_business", { cafe: pos.cafe.name })}
          </p>
        )}

        <ServicePicker
          services={pos.services}
          quantities={quantities}
          saleType={saleType}
          onChange={(serviceId, quantity) => setQuantities((q) => ({ ...q, [serviceId]: quantity }))}
          onScan={(text) => search.current?.typeIn(text)}
        />

        <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_auto] lg:items-start">
          <DinerSearch
            ref={search}
            onPick={pick}
            onUnknown={unknown}
            onInvalid={misread}
            dniLength={settings.dniLength}
            onFailure={() => failed(t("dinners.not_sent"), [t("dinners.offline")])}
            busy={sending}
          />
          <div className="flex flex-wrap items-center gap-2 lg:pt-7">
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="pos-subtotal">
              {t("dinners.subtotal", { total: money(subtotal) })}
            </p>
            <Button variant="outline" onClick={() => openVisitor("")} aria-keyshortcuts={POS_KEYS.visitor}>
              <UserRound className="size-4" aria-hidden="true" />
              {t("dinners.visitor.open")}
              <Kbd>{POS_KEYS.visitor}</Kbd>
            </Button>
            {can.manageDiners && (
              <Button
                variant="outline"
                onClick={() => setModal({ kind: "new-diner", document: "", name: "" })}
                aria-keyshortcuts={POS_KEYS.register}
              >
                <UserPlus className="size-4" aria-hidden="true" />
                {t("dinners.new_diner.open")}
                <Kbd>{POS_KEYS.register}</Kbd>
              </Button>
            )}
          </div>
        </div>

        {/* The page's notices, here rather than floating over the page (see FlashMessages). */}
        <div data-flash-inline="" aria-live="polite" className="min-h-5 text-sm">
          {!notice && typeof flash?.success === "string" && (
            <p className="flex items-start gap-2 text-emerald-800 dark:text-emerald-300">
              <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span data-flash="success">{flash.success}</span>
            </p>
          )}
          {typeof flash?.error === "string" && (
            <p role="alert" className="flex items-start gap-2 text-destructive">
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span data-flash="error">{flash.error}</span>
            </p>
          )}
        </div>

        {notice && (
          <div
            role="alert"
            className={cn(
              "flex flex-wrap items-start gap-3 rounded-md border px-3 py-2 text-sm",
              notice.tone === "error"
                ? "border-destructive/40 bg-destructive/10 text-destructive"
                : "border-amber-500/40 bg-amber-500/10 text-amber-900 dark:text-amber-200",
            )}
            data-testid="pos-alert"
          >
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p className="font-medium">{notice.title}</p>
              {notice.messages.length === 1 ? (
                <p>{notice.messages[0]}</p>
              ) : (
                <ul className="list-disc pl-5">
                  {notice.messages.map((m, i) => (
                    <li key={i}>{m}</li>
                  ))}
                </ul>
              )}
            </div>
            {notice.actions && <div className="flex flex-wrap gap-2">{notice.actions}</div>}
          </div>
        )}
      </section>

      <LastDiner sale={last} onPrint={printLast} printKey={POS_KEYS.print} />

      <section aria-labelledby="pos-keys-heading" className="text-sm text-muted-foreground">
        <h2 id="pos-keys-heading" className="sr-only">
          {t("dinners.keys.title")}
        </h2>
        <ul className="flex flex-wrap gap-x-4 gap-y-1" data-testid="pos-keys">
          {(["scan", "register", "print", "saleType", "visitor"] as const)
            .filter((action) => action !== "register" || can.manageDiners)
            .map((action) => (
              <li key={action}>
                <kbd className="mr-1 rounded border bg-muted px-1 font-mono text-xs text-foreground">
                  {POS_KEYS[action]}
                </kbd>
                {t(`dinners.keys.${action}`)}
              </li>
            ))}
        </ul>
      </section>

      {sales && (
        <SalesTable
          sales={sales}
          canVoid={canVoid}
          onVoid={(sale) => setModal({ kind: "void", sale })}
          onPrint={(sale) => void printer.print(sale.id, [sale])}
        />
      )}

      {modal?.kind === "other-unit" && (
        <OtherUnitDialog
          diner={modal.diner}
          cafeName={pos.cafe.name}
          factor={factor}
          totalCents={Math.round(subtotal * factor)}
          busy={sending}
          onConfirm={() => sellTo(modal.diner, true)}
          onCancel={() => {
            setModal(null);
            search.current?.focus();
          }}
          onScan={(text) => {
            // The next diner's scan: the dialog is left, and the scan goes where scans go.
            setModal(null);
            search.current?.scan(text);
          }}
        />
      )}
      {modal?.kind === "new-diner" && (
        <NewDinerDialog
          document={modal.document}
          name={modal.name}
          cafeId={pos.cafe.id}
          cafes={cafes}
          subdealerships={subdealerships}
          levels={levels}
          documentTypes={documentTypes}
          dniLength={settings.dniLength}
          onCreated={(diner) => {
            setModal(null);
            setNotice(null);
            pick(diner);
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === "visitor" && (
        <VisitorDialog
          document={modal.document}
          documentTypes={documentTypes}
          dniLength={settings.dniLength}
          errors={visitorErrors}
          busy={sending}
          onSell={(visitor: Visitor) => {
            // Said in the dialog, which covers the page's own alert.
            if (lines.length === 0) return setVisitorErrors({ lines: t("dinners.choose_service") });
            if (!canSell()) return;
            send(
              payloadFor(
                {
                  documentType: visitor.documentType,
                  documentNumber: visitor.documentNumber,
                  visitorName: visitor.name,
                },
                false,
              ),
            );
          }}
          onClose={() => {
            setModal(null);
            setVisitorErrors({});
            // Closed without a sale: the sale type the visitor dialog replaced comes back.
            if (beforeVisitor.current) changeSaleType(beforeVisitor.current);
            beforeVisitor.current = null;
          }}
        />
      )}
      {modal?.kind === "payment" && (
        <PaymentDialog
          totalCents={totalOf(modal.payload)}
          methods={pos.paymentMethods}
          errors={paymentErrors}
          busy={sending}
          onPay={(payments) => send({ ...modal.payload, payments })}
          onClose={() => {
            setModal(null);
            setPaymentErrors({});
            // A visitor's sale not collected: the sale type the visitor dialog replaced comes back.
            if (beforeVisitor.current) changeSaleType(beforeVisitor.current);
            beforeVisitor.current = null;
            search.current?.focus();
          }}
        />
      )}
      {modal?.kind === "void" && <VoidDialog sale={modal.sale} onClose={() => setModal(null)} />}
      {modal?.kind === "prices" && <PricesDialog pos={pos} onClose={() => setModal(null)} />}
      {printer.slip && (
        <>
          <style>{ticketPrintStyle("pos-ticket")}</style>
          <TicketSlip sale={printer.slip} id="pos-ticket" className="hidden print:block" />
        </>
      )}
    </div>
  );
}
