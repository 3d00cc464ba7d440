/**
 * A diner whose home cafe is another cafe: the sale is charged at the other-unit factor, so the cashier confirms
 * it on purpose. The safe choice (Cancel) has the focus: a reflex Enter sells nothing. The next diner's scan, typed
 * while the dialog is open, closes it and goes to the point of sale's input as a scan (`onScan`), so it never
 * confirms the double price either. Selling ×factor takes the confirm button itself (a click, or Tab and Enter).
 */
import { useRef, type KeyboardEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import type { DinerView } from "./types";

export function OtherUnitDialog({
  diner,
  cafeName,
  factor,
  totalCents,
  busy,
  onConfirm,
  onCancel,
  onScan,
}: {
  diner: DinerView;
  cafeName: string;
  factor: number;
  /** What the sale comes to at the factor (the server prices it again). */
  totalCents: number;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** A scan typed into the dialog (characters, then Enter): the dialog is left and the scan looked up. */
  onScan: (text: string) => void;
}) {
  const { t, money, number } = useI18n();
  const typed = useRef("");
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.key.length === 1 && event.key !== " ") {
      typed.current += event.key;
      event.preventDefault();
    } else if (event.key === "Enter" && typed.current.trim() !== "") {
      event.preventDefault();
      event.stopPropagation();
      onScan(typed.current);
      typed.current = "";
    }
  };
  return (
    <Dialog
      open
      onClose={onCancel}
      title={t("dinners.other_unit.title")}
      description={t("dinners.other_unit.description", {
        name: diner.name,
        home: diner.cafeName,
        cafe: cafeName,
      })}
      closeLabel={t("dinners.close")}
    >
      <div onKeyDownCapture={onKeyDownCapture}>
        <div className="space-y-2 rounded-lg border bg-muted/40 p-3 text-sm" data-testid="other-unit">
          <p>
            <span className="font-medium">{diner.name}</span> · {diner.documentType.toUpperCase()}{" "}
            {diner.documentNumber}
          </p>
          <p className="text-muted-foreground">{diner.cafePath}</p>
          <p>{t("dinners.other_unit.factor", { factor: number(factor) })}</p>
          <p className="text-lg font-semibold tabular-nums">
            {t("dinners.other_unit.total", { total: money(totalCents) })}
          </p>
        </div>
        <p className="pt-2 text-xs text-muted-foreground">{t("dinners.other_unit.safe", { factor: number(factor) })}</p>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" data-autofocus onClick={onCancel}>
            {t("dinners.cancel")}
          </Button>
          <Button onClick={onConfirm} disabled={busy}>
            {t("dinners.other_unit.confirm", { factor: number(factor) })}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
