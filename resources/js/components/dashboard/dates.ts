/** Dates of the dashboard as people read them, in the page's language: service dates are days, not moments. */
import { intlLocale, type Locale } from "../../../../src/shared/i18n";

/** "2026-11-24" → "24 nov." in the page's language (the date itself, not a moment: no time zone shift). */
export function dayLabel(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

/** "2026-11-01" → "Noviembre de 2026" / "November 2026". */
export function monthName(date: string, locale: Locale): string {
  const text = new Intl.DateTimeFormat(intlLocale[locale], {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
  return text.charAt(0).toUpperCase() + text.slice(1);
}
