/** Translation and formatting bound to the page's language, time zone and currency. */
import { usePage } from "@inertiajs/react";
import { useMemo } from "react";
import { translate } from "../../../src/i18n";
import { formatDate, formatDateTime, formatMoney, formatNumber, type FormatSettings } from "../lib/format";
import type { SharedProps } from "../types";

export function useI18n() {
  const { locale, settings } = usePage<SharedProps>().props;
  return useMemo(() => {
    const s: FormatSettings = { locale, timezone: settings.timezone, currency: settings.currency };
    return {
      locale,
      t: (key: string, params?: Record<string, string | number>) => translate(locale, key, params),
      money: (cents: number) => formatMoney(cents, s),
      number: (value: number, digits?: number) => formatNumber(value, s, digits),
      date: (value: Date | string | number) => formatDate(value, s),
      /** Date and time in the settings' time zone, or in `timeZone` (a cafe's) when given. */
      dateTime: (value: Date | string | number, timeZone?: string) =>
        formatDateTime(value, timeZone ? { ...s, timezone: timeZone } : s),
    };
  }, [locale, settings.timezone, settings.currency]);
}
