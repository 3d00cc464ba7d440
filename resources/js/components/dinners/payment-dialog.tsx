/**
 * Collecting a cash-type ("Contado") sale (docs/cash.md): the total, the method (the cafe's), and for cash what the
 * diner hands over, with the change shown before the cashier confirms ("Vuelto: S/ 3.50"); for a method that needs
 * one, its operation or voucher number. What is typed comes first (the dialog opens on it: cash, the usual case,
 * is typed at once); the other methods follow. The quick keys set the common tenders (F5 exact, F6 S/ 10, F7 S/ 20, F8 S/ 50,
 * F9 S/ 100); Enter collects, Escape goes back. The total shown is the page's reckoning of the cafe's prices: the
 * server works it out again, and refuses a payment that does not match it with a message said here.
 */
import { useEffect, useState, type FormEvent } from "react";
import { centsToSoles, parseSoles } from "../../../../src/shared/money";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { Kbd } from "./kbd";
import type { PosPaymentMethod } from "./types";

/** A payment as the sale request carries it. */
export type PaymentRequest = {
  method: string;
  amount_cents: number;
  tendered_cents?: number;
  reference?: string;
};

/** The quick tenders, by key: "exact" is the total itself. */
const QUICK: { key: string; cents: number | "exact" }[] = [
  { key: "F5", cents: "exact" },
  { key: "F6", cents: 1000 },
  { key: "F7", cents: 2000 },
  { key: "F8", cents: 5000 },
  { key: "F9", cents: 10000 },
];

/** The errors said at their field; any other one (the till, the diner, a service) is said together above the buttons. */
const SAID_AT_FIELDS = ["payments", "payments.0.tendered_cents", "payments.0.reference"];

export function PaymentDialog({
  totalCents,
  methods,
  errors,
  busy,
  onPay,
  onClose,
}: {
  totalCents: number;
  methods: PosPaymentMethod[];
  /** The server's answer to the last attempt, by field. */
  errors: Record<string, string>;
  busy: boolean;
  onPay: (payments: PaymentRequest[]) => void;
  onClose: () => void;
}) {
  const { tDynamic, t, money } = useI18n();
  // A built-in method's name in the reader's language; one an administrator added, as they wrote it.
  const methodName = (m: PosPaymentMethod) => tDynamic(`cash.methods.${m.code}`, m.name);
  const [code, setCode] = useState(methods.find((m) => m.code === "cash")?.code ?? methods[0]?.code ?? "");
  const [tendered, setTendered] = useState("");
  const [reference, setReference] = useState("");
  const [tried, setTried] = useState(false);
  const method = methods.find((m) => m.code === code) ?? null;
  const tenderedCents = tendered.trim() === "" ? totalCents : parseSoles(tendered);
  const short = method?.inDrawer && tenderedCents !== null && tenderedCents < totalCents;
  const change = method?.inDrawer && tenderedCents !== null && !short ? tenderedCents - totalCents : null;
  const tenderError =
    !method?.inDrawer || !tried
      ? undefined
      : tenderedCents === null
        ? t("dinners.payment.tendered_invalid")
        : short
          ? t("dinners.payment.short", { amount: money(totalCents - tenderedCents) })
          : undefined;
  const referenceError =
    tried && method?.needsReference && reference.trim() === ""
      ? t("dinners.payment.reference_required", { method: methodName(method) })
      : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (busy || !method) return;
    if (method.inDrawer && (tenderedCents === null || tenderedCents < totalCents)) return;
    if (method.needsReference && reference.trim() === "") return;
    onPay([
      {
        method: method.code,
        amount_cents: totalCents,
        ...(method.inDrawer ? { tendered_cents: tenderedCents! } : {}),
        ...(reference.trim() !== "" ? { reference: reference.trim() } : {}),
      },
    ]);
  };

  const quick = (cents: number | "exact") => setTendered(centsToSoles(cents === "exact" ? totalCents : cents));
  // The quick tenders' keys, while the dialog is open and the method goes into the drawer (F5 would reload the page).
  const inDrawer = method?.inDrawer === true;
  useEffect(() => {
    if (!inDrawer) return;
    const onKey = (event: KeyboardEvent) => {
      const tender = QUICK.find((q) => q.key === event.key);
      if (!tender || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      setTendered(centsToSoles(tender.cents === "exact" ? totalCents : tender.cents));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [inDrawer, totalCents]);

  return (
    <Dialog
      open
      onClose={onClose}
      title={t("dinners.payment.title")}
      description={t("dinners.payment.description")}
      closeLabel={t("dinners.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <p className="flex items-baseline justify-between rounded-md bg-muted px-3 py-2">
          <span className="text-sm">{t("dinners.payment.total")}</span>
          <span className="text-2xl font-bold tabular-nums" data-testid="payment-total">
            {money(totalCents)}
          </span>
        </p>
        {method?.inDrawer && (
          <div className="space-y-2">
            <Field
              label={t("dinners.payment.tendered")}
              hint={t("dinners.payment.tendered_hint")}
              value={tendered}
              onChange={(e) => setTendered(e.target.value)}
              error={tenderError ?? errors["payments.0.tendered_cents"]}
              inputMode="decimal"
              autoComplete="off"
              autoFocus
            />
            <div className="flex flex-wrap gap-1.5">
              {QUICK.map((q) => (
                <Button
                  key={q.key}
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => quick(q.cents)}
                  aria-keyshortcuts={q.key}
                  disabled={q.cents !== "exact" && q.cents < totalCents}
                >
                  {q.cents === "exact" ? t("dinners.payment.exact") : money(q.cents)}
                  <Kbd>{q.key}</Kbd>
                </Button>
              ))}
            </div>
            <p
              role="status"
              className={cn(
                "rounded-md px-3 py-2 text-lg font-semibold tabular-nums",
                change !== null ? "bg-amber-400 text-black" : "bg-destructive/10 text-destructive",
              )}
              data-testid="payment-change"
            >
              {change !== null
                ? t("cash.change", { amount: money(change) })
                : tenderedCents === null
                  ? t("dinners.payment.tendered_invalid")
                  : t("dinners.payment.short", { amount: money(totalCents - tenderedCents) })}
            </p>
          </div>
        )}
        {method?.needsReference && (
          <Field
            label={t("dinners.payment.reference")}
            hint={t("dinners.payment.reference_hint")}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            error={referenceError ?? errors["payments.0.reference"]}
            autoComplete="off"
            autoFocus={!method.inDrawer}
          />
        )}
        <fieldset className="space-y-1.5">
          <legend className="mb-1.5 text-sm font-medium">{t("dinners.payment.method")}</legend>
          <div className="flex flex-wrap gap-1.5" role="radiogroup" aria-label={t("dinners.payment.method")}>
            {methods.map((m) => (
              <label
                key={m.code}
                className={cn(
                  "flex h-9 cursor-pointer items-center rounded-md border px-3 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                  code === m.code ? "border-primary bg-primary text-primary-foreground" : "border-input",
                )}
              >
                <input
                  type="radio"
                  name="payment_method"
                  value={m.code}
                  className="sr-only"
                  checked={code === m.code}
                  onChange={() => setCode(m.code)}
                />
                {methodName(m)}
              </label>
            ))}
          </div>
        </fieldset>
        <OtherErrors errors={errors} fields={SAID_AT_FIELDS} />
        {errors.payments && (
          <p role="alert" className="text-sm text-destructive">
            {errors.payments}
          </p>
        )}
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("dinners.cancel")}
          submitLabel={t("dinners.payment.pay")}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
