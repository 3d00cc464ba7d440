/**
 * Numbers, money and dates for people: always through Intl, with the user's language and the cafe's time zone
 * and currency. Money arrives as integer cents (see src/shared/money.ts).
 */
import { formatMoney as formatCents } from "../../../src/shared/money";
import { intlLocale, type Locale } from "../../../src/shared/i18n";

export interface FormatSettings {
  locale: Locale;
  timezone: string;
  currency: string;
}

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

/** 1250 cents → "S/ 12.50" in both languages: Mesa's one money formatter (src/shared/money.ts). */
export function formatMoney(cents: number, s: FormatSettings): string {
  return formatCents(cents, s.locale, s.currency);
}

export function formatNumber(value: number, s: Pick<FormatSettings, "locale">, fractionDigits?: number): string {
  const f = cached(
    `number|${s.locale}|${fractionDigits ?? ""}`,
    () =>
      new Intl.NumberFormat(
        intlLocale[s.locale],
        fractionDigits === undefined
          ? {}
          : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits },
      ),
  );
  return f.format(value);
}

/** A calendar date in the configured time zone, e.g. "22 nov. 2026". */
export function formatDate(value: Date | string | number, s: FormatSettings): string {
  const f = cached(
    `date|${s.locale}|${s.timezone}`,
    () => new Intl.DateTimeFormat(intlLocale[s.locale], { dateStyle: "medium", timeZone: s.timezone }),
  );
  return f.format(new Date(value));
}

/** Date and time in the configured time zone. */
export function formatDateTime(value: Date | string | number, s: FormatSettings): string {
  const f = cached(
    `datetime|${s.locale}|${s.timezone}`,
    () =>
      new Intl.DateTimeFormat(intlLocale[s.locale], {
        dateStyle: "medium",
        timeStyle: "short",
        hourCycle: "h23",
        timeZone: s.timezone,
      }),
  );
  return f.format(new Date(value));
}

/** A time of day on the 24-hour clock in the configured time zone ("13:05:09"), in both languages. */
export function formatTime(value: Date | string | number, s: FormatSettings): string {
  const f = cached(
    `time|${s.locale}|${s.timezone}`,
    () =>
      new Intl.DateTimeFormat(intlLocale[s.locale], { timeStyle: "medium", hourCycle: "h23", timeZone: s.timezone }),
  );
  return f.format(new Date(value));
}
