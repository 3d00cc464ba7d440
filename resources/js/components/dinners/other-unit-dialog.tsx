/**
 * A diner whose home cafe is another cafe: the sale is charged at the other-unit factor, so the cashier confirms
 * it. The confirm button has the focus, so the scanner's flow goes on with Enter; Escape or Cancel leaves it.
 */
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
}: {
  diner: DinerView;
  cafeName: string;
  factor: number;
  /** What the sale comes to at the factor (the server prices it again). */
  totalCents: number;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t, money, number } = useI18n();
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
      <div className="space-y-2 rounded-lg border bg-muted/40 p-3 text-sm" data-testid="other-unit">
        <p>
          <span className="font-medium">{diner.name}</span> · {diner.documentType.toUpperCase()} {diner.documentNumber}
        </p>
        <p className="text-muted-foreground">{diner.cafePath}</p>
        <p>{t("dinners.other_unit.factor", { factor: number(factor) })}</p>
        <p className="text-lg font-semibold tabular-nums">
          {t("dinners.other_unit.total", { total: money(totalCents) })}
        </p>
      </div>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          {t("dinners.cancel")}
        </Button>
        <Button data-autofocus onClick={onConfirm} disabled={busy}>
          {t("dinners.other_unit.confirm")}
        </Button>
      </div>
    </Dialog>
  );
}
