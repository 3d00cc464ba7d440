/**
 * Copying days of the schedule to later dates: a day, a week or a cycle of weeks (the source range), pasted from a
 * target date on, once or several times in a row. The target drafts are replaced; published days among them are
 * overwritten only after the person confirms, in a dialog that says so.
 */
import { useState, type FormEvent } from "react";
import { addDays, daysBetween } from "../../../../src/shared/calendar";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { currentSocketId } from "../../lib/realtime";
import { fieldErrors, requestJson } from "../../lib/json-client";
import { ConfirmDialog } from "../ui/alert-dialog";
import { DateField } from "../ui/date-picker";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { notify } from "../ui/toaster";

export function ScheduleCopyDialog({
  cafeId,
  from: initialFrom,
  onClose,
  onCopied,
}: {
  cafeId: number;
  /** The first day shown: the source starts there. */
  from: string;
  onClose: () => void;
  onCopied: () => void;
}) {
  const { t, date } = useI18n();
  const route = useRoute();
  const [from, setFrom] = useState(initialFrom);
  const [to, setTo] = useState(addDays(initialFrom, 6));
  const [target, setTarget] = useState(addDays(initialFrom, 7));
  const [times, setTimes] = useState("1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [published, setPublished] = useState<{ message: string; dates: string[] } | null>(null);

  const send = async (overwrite: boolean) => {
    setBusy(true);
    const { status, body } = await requestJson<{ message?: string; published?: string[] }>(
      "POST",
      route("menu.schedule.copy", { cafe: cafeId }),
      { from, to, target, times: Number(times), overwrite_published: overwrite },
      { socketId: currentSocketId() },
    );
    setBusy(false);
    if (status === 200) {
      notify.success(body?.message ?? "");
      onCopied();
      onClose();
    } else if (status === 409 && body?.published) {
      setPublished({ message: body.message ?? "", dates: body.published });
    } else if (status === 422) {
      setErrors(fieldErrors(body));
    } else {
      notify.error(body?.message ?? t("menuSchedule.errors.save_failed"));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    void send(false);
  };

  // The source's length in words: a day, a week, or a cycle of whole weeks.
  const length = from && to ? daysBetween(from, to) + 1 : 0;
  const shape =
    length === 1
      ? t("menuSchedule.copy.single_day")
      : length === 7
        ? t("menuSchedule.copy.week")
        : length > 7 && length % 7 === 0
          ? t("menuSchedule.copy.cycle", { weeks: length / 7 })
          : null;

  return (
    <>
      <Dialog
        open={published === null}
        onClose={onClose}
        title={t("menuSchedule.copy.title")}
        description={t("menuSchedule.copy.description")}
        closeLabel={t("ui.close")}
      >
        <form onSubmit={submit} className="space-y-4" noValidate data-testid="copy-form">
          <div className="grid gap-3 sm:grid-cols-2">
            <DateField label={t("menuSchedule.copy.from")} value={from} onChange={setFrom} error={errors.from} />
            <DateField label={t("menuSchedule.copy.to")} value={to} onChange={setTo} min={from} error={errors.to} />
          </div>
          {shape && <p className="text-xs text-muted-foreground">{shape}</p>}
          <div className="grid gap-3 sm:grid-cols-2">
            <DateField
              label={t("menuSchedule.copy.target")}
              value={target}
              onChange={setTarget}
              min={to ? addDays(to, 1) : undefined}
              error={errors.target}
            />
            <Field
              label={t("menuSchedule.copy.times")}
              type="number"
              min={1}
              max={26}
              value={times}
              onChange={(event) => setTimes(event.target.value)}
              hint={t("menuSchedule.copy.times_hint")}
              error={errors.times}
            />
          </div>
          {errors.form && <p className="text-sm text-destructive">{errors.form}</p>}
          <DialogActions
            onCancel={onClose}
            cancelLabel={t("ui.cancel")}
            submitLabel={t("menuSchedule.copy.submit")}
            busy={busy}
          />
        </form>
      </Dialog>
      <ConfirmDialog
        open={published !== null}
        title={t("menuSchedule.copy.confirm_title")}
        description={published?.message ?? ""}
        confirmLabel={t("menuSchedule.copy.confirm")}
        busy={busy}
        onConfirm={() => void send(true)}
        onCancel={() => setPublished(null)}
      >
        <p className="text-sm text-muted-foreground">{t("menuSchedule.copy.confirm_description")}</p>
        {published && (
          <ul className="max-h-32 list-disc overflow-auto pl-5 text-sm">
            {published.dates.map((d) => (
              <li key={d}>{date(`${d}T12:00:00Z`)}</li>
            ))}
          </ul>
        )}
      </ConfirmDialog>
    </>
  );
}
