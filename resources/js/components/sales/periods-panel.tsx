/**
 * The Closed months tab of the Sales page: the months closed at the person's cafes (newest first), closing a month
 * that has ended (sales.close_period, after a confirmation that says what it stops), and reopening one with a reason
 * (sales.reopen_period). It posts to the period routes (src/http/routes/periods.ts), which come back to this page.
 */
import { useForm } from "@inertiajs/react";
import { Lock, LockOpen } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import { intlLocale } from "../../../../src/shared/i18n";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Table } from "../data-table";
import { useConfirm } from "../ui/alert-dialog";
import { Button, IconButton } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import type { ClosedPeriod, SalesFilterOptions } from "./types";

/** How many ended months the close form offers. */
const MONTHS_OFFERED = 12;

/** The months before `today`'s, newest first, as "YYYY-MM". */
function endedMonths(today: string, count: number): string[] {
  const [year, month] = today.split("-").map(Number);
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(year, month - 2 - i, 15));
    return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
  });
}

function useMonthName() {
  const { locale } = useI18n();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(intlLocale[locale], { month: "long", year: "numeric", timeZone: "UTC" });
    return (month: string) => format.format(new Date(`${month}-15T12:00:00Z`));
  }, [locale]);
}

export function PeriodsPanel({
  closed,
  cafes,
  today,
  can,
}: {
  closed: ClosedPeriod[];
  cafes: SalesFilterOptions["cafes"];
  today: string;
  can: { close: boolean; reopen: boolean };
}) {
  const { t, dateTime } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const monthName = useMonthName();
  // A cafe is always chosen (the first one to start with): a select without a value would change from uncontrolled.
  const form = useForm({ cafe_id: cafes.length ? String(cafes[0].id) : "", month: endedMonths(today, 1)[0] });
  const { cafe_id: cafeId, month } = form.data;
  const errors = form.errors as Record<string, string>;
  const [reopening, setReopening] = useState<ClosedPeriod | null>(null);
  const cafeName = (id: string) => cafes.find((cafe) => String(cafe.id) === id)?.name ?? "";

  const close = async (event: FormEvent) => {
    event.preventDefault();
    if (!cafeId) return;
    const confirmed = await confirm({
      title: t("sales.page.periods.confirm_close", { month: monthName(month), cafe: cafeName(cafeId) }),
      description: t("sales.page.periods.close_consequence"),
      confirmLabel: t("sales.page.periods.close"),
      destructive: false,
    });
    if (!confirmed) return;
    form.transform((data) => ({ cafe_id: Number(data.cafe_id), month: data.month }));
    form.post(route("sales.periods.close"), { preserveScroll: true });
  };

  return (
    <div className="space-y-4">
      <p className="max-w-3xl text-sm text-muted-foreground">{t("sales.page.periods.about")}</p>
      {can.close && cafes.length > 0 && (
        <form
          onSubmit={close}
          className="flex flex-wrap items-end gap-3 rounded-xl border bg-card p-3 sm:p-4"
          aria-label={t("sales.page.periods.close_form")}
        >
          <SelectField
            label={t("sales.page.filters.cafe")}
            className="min-w-56 flex-1 sm:max-w-sm"
            value={cafeId}
            error={errors.cafe_id}
            searchable={cafes.length > 8}
            options={cafes.map((cafe) => ({
              value: String(cafe.id),
              label: cafe.name,
              group: `${cafe.mine} › ${cafe.unit}`,
            }))}
            onValueChange={(value) => form.setData("cafe_id", value)}
          />
          <SelectField
            label={t("sales.page.periods.month")}
            className="min-w-48"
            value={month}
            error={errors.month}
            options={endedMonths(today, MONTHS_OFFERED).map((m) => ({ value: m, label: monthName(m) }))}
            onValueChange={(value) => form.setData("month", value)}
          />
          <Button type="submit" disabled={!cafeId}>
            <Lock className="size-4" aria-hidden="true" />
            {t("sales.page.periods.close")}
          </Button>
        </form>
      )}
      <Table
        caption={t("sales.page.periods.title")}
        headers={[
          t("sales.page.filters.cafe"),
          t("sales.page.periods.month"),
          t("sales.page.periods.closed_at"),
          t("sales.page.periods.closed_by"),
          ...(can.reopen ? [t("sales.page.periods.actions")] : []),
        ]}
        actions={can.reopen}
        empty={closed.length === 0 ? t("sales.page.periods.none") : null}
      >
        {closed.map((period) => (
          <tr key={`${period.cafeId}-${period.month}`} data-testid="closed-period">
            <td className="font-medium">{period.cafeName}</td>
            <td className="capitalize">{monthName(period.month)}</td>
            <td className="sm:whitespace-nowrap">{dateTime(period.closedAt)}</td>
            <td>{period.closedByName}</td>
            {can.reopen && (
              <td>
                <IconButton
                  label={t("sales.page.periods.reopen_of", { month: monthName(period.month), cafe: period.cafeName })}
                  onClick={() => setReopening(period)}
                >
                  <LockOpen className="size-4" aria-hidden="true" />
                </IconButton>
              </td>
            )}
          </tr>
        ))}
      </Table>
      {reopening && (
        <ReopenDialog period={reopening} monthName={monthName(reopening.month)} onClose={() => setReopening(null)} />
      )}
    </div>
  );
}

function ReopenDialog({
  period,
  monthName,
  onClose,
}: {
  period: ClosedPeriod;
  monthName: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ cafe_id: period.cafeId, month: period.month, reason: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("sales.periods.reopen"), { preserveScroll: true, onSuccess: () => onClose() });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("sales.page.periods.reopen_title", { month: monthName, cafe: period.cafeName })}
      description={t("sales.page.periods.reopen_consequence")}
      closeLabel={t("sales.page.periods.cancel")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <Field
          label={t("sales.page.periods.reason")}
          name="reason"
          required
          minLength={3}
          maxLength={500}
          value={form.data.reason}
          onChange={(e) => form.setData("reason", e.target.value)}
          error={form.errors.reason}
        />
        <OtherErrors errors={form.errors} fields={["reason"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("sales.page.periods.cancel")}
          submitLabel={t("sales.page.periods.reopen")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
