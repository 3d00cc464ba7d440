/**
 * A date picker: a button showing the date in the page's language opens a calendar (react-day-picker) in a
 * popover, with month and year lists to travel far; a chosen day closes it. The value is a calendar date,
 * "YYYY-MM-DD" ("" for none), with no time zone to shift it. `DateField` is the labelled field.
 */
import { CalendarDays, X } from "lucide-react";
import { useState } from "react";
import { DayPicker } from "react-day-picker";
import { enUS } from "react-day-picker/locale/en-US";
import { es } from "react-day-picker/locale/es";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { intlLocale } from "../../../../src/shared/i18n";
import { FieldFrame, inputClasses, type ControlA11y } from "./field";
import { PopoverContent, PopoverRoot, PopoverTrigger } from "./popover";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local Date of midnight of "YYYY-MM-DD", or undefined. */
export function parseIsoDate(value: string): Date | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** "YYYY-MM-DD" of a local Date. */
export function toIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function DatePicker({
  value,
  onChange,
  min,
  max,
  id,
  disabled,
  className,
  ...aria
}: {
  value: string;
  onChange: (value: string) => void;
  /** The earliest and latest dates offered, "YYYY-MM-DD". */
  min?: string;
  max?: string;
  id?: string;
  disabled?: boolean;
  className?: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const selected = parseIsoDate(value);
  const first = min ? parseIsoDate(min) : undefined;
  const last = max ? parseIsoDate(max) : undefined;
  // Formatted at noon UTC in UTC, so the server and every browser write the same day.
  const shown = ISO_DATE.test(value)
    ? new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(
        new Date(`${value}T12:00:00Z`),
      )
    : null;
  const choose = (date: Date | undefined) => {
    onChange(date ? toIsoDate(date) : "");
    setOpen(false);
  };
  return (
    <div className={cn("flex gap-1", className)}>
      <PopoverRoot open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <button
            type="button"
            id={id}
            disabled={disabled}
            className={cn(inputClasses, "flex items-center gap-2 text-left")}
            data-value={value}
            {...aria}
          >
            <CalendarDays className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className={cn("min-w-0 flex-1 truncate", !shown && "text-muted-foreground")}>
              {shown ?? t("ui.date.choose")}
            </span>
          </button>
        </PopoverTrigger>
        <PopoverContent align="start" className="w-auto p-3" aria-label={t("ui.date.choose")}>
          <DayPicker
            mode="single"
            autoFocus
            selected={selected}
            onSelect={choose}
            defaultMonth={selected ?? last}
            startMonth={first ?? new Date(1980, 0)}
            endMonth={last ?? new Date(new Date().getFullYear() + 10, 11)}
            disabled={[...(first ? [{ before: first }] : []), ...(last ? [{ after: last }] : [])]}
            captionLayout="dropdown"
            locale={locale === "es" ? es : enUS}
            className="mesa-calendar"
          />
        </PopoverContent>
      </PopoverRoot>
      {value && !disabled && (
        <button
          type="button"
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-input bg-card text-muted-foreground hover:bg-accent hover:text-foreground"
          onClick={() => onChange("")}
          aria-label={t("ui.date.clear")}
          title={t("ui.date.clear")}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

/** A labelled date picker with its hint or error message, like Field. */
export function DateField({
  label,
  error,
  hint,
  className,
  ...props
}: Omit<Parameters<typeof DatePicker>[0], keyof ControlA11y> & { label: string; error?: string; hint?: string }) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(a11y) => <DatePicker {...a11y} {...props} />}
    />
  );
}
