/**
 * A date of the report dialog that can be typed or picked: a text box ("31/12/2026" in Spanish, "2026-12-31" in
 * English; day first or ISO both read, see report-dates.ts) and a calendar button beside it. A typed date counts once
 * it is a real date; until then the field says how to write it and `onInvalid(true)` keeps the report from starting.
 *
 *   <ReportDateField label="Desde" value={from} onChange={setFrom} onInvalid={setFromInvalid} />
 */
import { CalendarDays } from "lucide-react";
import { useEffect, useState } from "react";
import { DayPicker } from "react-day-picker";
import { enUS } from "react-day-picker/locale/en-US";
import { es } from "react-day-picker/locale/es";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { parseIsoDate, toIsoDate } from "../ui/date-picker";
import { FieldFrame, inputClasses } from "../ui/field";
import { PopoverContent, PopoverRoot, PopoverTrigger } from "../ui/popover";
import { parseTypedDate, typedDate } from "./report-dates";

export function ReportDateField({
  label,
  value,
  onChange,
  onInvalid,
  min,
  max,
  error,
  testId,
}: {
  label: string;
  /** "YYYY-MM-DD" or "". */
  value: string;
  onChange: (value: string) => void;
  onInvalid: (invalid: boolean) => void;
  min?: string;
  max?: string;
  error?: string;
  testId: string;
}) {
  const { t, locale } = useI18n();
  const [text, setText] = useState(() => typedDate(value, locale));
  const [invalid, setInvalid] = useState(false);
  const [open, setOpen] = useState(false);

  // A date chosen elsewhere (a preset, the calendar, the server's default) is shown as typed text.
  useEffect(() => {
    if (parseTypedDate(text) !== value) {
      setText(typedDate(value, locale));
      setInvalid(false);
      onInvalid(false);
    }
  }, [value, locale]);

  const type = (next: string) => {
    setText(next);
    const date = parseTypedDate(next);
    const bad = next.trim() !== "" && date === null;
    setInvalid(bad);
    onInvalid(bad);
    if (date !== null && date !== value) onChange(date);
  };

  const selected = parseIsoDate(value);
  const first = min ? parseIsoDate(min) : undefined;
  const last = max ? parseIsoDate(max) : undefined;
  const shownError = invalid ? t("reports.dialog.date_invalid", { example: typedDate("2026-12-31", locale) }) : error;

  return (
    <FieldFrame
      label={label}
      error={shownError}
      hint={t("reports.dialog.date_hint", { format: locale === "es" ? "dd/mm/aaaa" : "yyyy-mm-dd" })}
      control={(a11y) => (
        <div className="flex gap-1">
          <input
            {...a11y}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            className={cn(inputClasses, "tabular-nums")}
            value={text}
            onChange={(event) => type(event.target.value)}
            onBlur={() => {
              // A finished date is written the usual way once the person leaves the field.
              const date = parseTypedDate(text);
              if (date !== null) setText(typedDate(date, locale));
            }}
            placeholder={locale === "es" ? "dd/mm/aaaa" : "yyyy-mm-dd"}
            data-testid={testId}
            data-value={value}
          />
          <PopoverRoot open={open} onOpenChange={setOpen}>
            <PopoverTrigger asChild>
              <button
                type="button"
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-input bg-card text-muted-foreground hover:bg-accent hover:text-foreground"
                aria-label={t("reports.dialog.pick_date", { field: label })}
                title={t("reports.dialog.pick_date", { field: label })}
                data-testid={`${testId}-calendar`}
              >
                <CalendarDays className="size-4" aria-hidden="true" />
              </button>
            </PopoverTrigger>
            <PopoverContent align="end" className="w-auto p-3" aria-label={t("ui.date.choose")}>
              <DayPicker
                mode="single"
                autoFocus
                selected={selected}
                onSelect={(date) => {
                  if (date) onChange(toIsoDate(date));
                  setOpen(false);
                }}
                defaultMonth={selected ?? last}
                startMonth={new Date(2000, 0)}
                endMonth={new Date(new Date().getFullYear() + 1, 11)}
                disabled={[...(first ? [{ before: first }] : []), ...(last ? [{ after: last }] : [])]}
                captionLayout="dropdown"
                locale={locale === "es" ? es : enUS}
                className="mesa-calendar"
              />
            </PopoverContent>
          </PopoverRoot>
        </div>
      )}
    />
  );
}
