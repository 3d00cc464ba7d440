/** Translation and formatting bound to the page's language, time zone and currency. */
import { usePage } from "@inertiajs/react";
import { useMemo } from "react";
import { translate, translateDynamic, type TranslationKey, type TranslationParams } from "../../../src/shared/i18n";
import { roleDescription, roleLabel } from "../../../src/shared/access/built-in-roles";
import { permissionLabel } from "../../../src/shared/access/permissions";
import { levelLabel } from "../../../src/shared/food/built-in-levels";
import { formatDate, formatDateTime, formatMoney, formatNumber, formatTime, type FormatSettings } from "../lib/format";
import type { SharedProps } from "../types";

export function useI18n() {
  const { locale, settings } = usePage<SharedProps>().props;
  return useMemo(() => {
    const s: FormatSettings = { locale, timezone: settings.timezone, currency: settings.currency };
    return {
      locale,
      /** The text of `key`, checked by the compiler; a key from data goes through `tDynamic`. */
      t: (key: TranslationKey, params?: TranslationParams) => translate(locale, key, params),
      /** The text of a key that comes from data (see translateDynamic), or `fallback` when it has none. */
      tDynamic: (key: string, fallback: string, params?: TranslationParams) =>
        translateDynamic(locale, key, fallback, params),
      /** A role's name for people: a built-in role's label in this language, any other role's own name. */
      roleName: (name: string) => roleLabel(name, locale),
      /** A role's description: a built-in role's in this language while unedited, any other as written. */
      roleAbout: (name: string, description: string) => roleDescription(name, description, locale),
      /** A diner level's name: a built-in level's label in this language (Laborer → "Obrero"), any other as named. */
      levelName: (name: string) => levelLabel(name, locale),
      /** A permission's label (users.view → "Ver usuarios"). */
      permissionName: (name: string) => permissionLabel(name, locale),
      /** The header of a group of permissions (their product area). */
      permissionArea: (area: string) => translateDynamic(locale, `access.permission_areas.${area}`, area),
      money: (cents: number) => formatMoney(cents, s),
      number: (value: number, digits?: number) => formatNumber(value, s, digits),
      date: (value: Date | string | number) => formatDate(value, s),
      /** Date and time in the settings' time zone, or in `timeZone` (a cafe's) when given. */
      dateTime: (value: Date | string | number, timeZone?: string) =>
        formatDateTime(value, timeZone ? { ...s, timezone: timeZone } : s),
      /** A time of day on the 24-hour clock ("13:05:09"). */
      time: (value: Date | string | number) => formatTime(value, s),
    };
  }, [locale, settings.timezone, settings.currency]);
}
