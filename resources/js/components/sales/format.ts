/** Service dates and times of sale as the Sales page shows them, in the page's language. */
import { useMemo } from "react";
import { intlLocale } from "../../../../src/shared/i18n";
import { useI18n } from "../../hooks/use-i18n";
import { dateIn } from "../../../../src/shared/calendar";

const formats = new Map<string, Intl.DateTimeFormat>();

function kept(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = formats.get(key);
  if (!format) formats.set(key, (format = make()));
  return format;
}

/** `serviceDate("2026-11-22")`: a calendar date with no time zone to shift it; `time(iso, zone)`: a cafe's clock. */
export function useSalesFormat() {
  const { locale } = useI18n();
  return useMemo(
    () => ({
      serviceDate: (date: string) =>
        kept(
          `date|${locale}`,
          () => new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "medium", timeZone: "UTC" }),
        ).format(new Date(`${date}T12:00:00Z`)),
      time: (iso: string, timeZone: string) =>
        kept(
          `time|${locale}|${timeZone}`,
          () => new Intl.DateTimeFormat(intlLocale[locale], { timeStyle: "short", hourCycle: "h23", timeZone }),
        ).format(new Date(iso)),
      /** The day a clock in `timeZone` showed at `iso` (YYYY-MM-DD). */
      dayAt: (iso: string, timeZone: string) => dateIn(timeZone, new Date(iso)),
    }),
    [locale],
  );
}
