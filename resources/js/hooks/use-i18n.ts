/** Translation and formatting bound to the page's language, time zone and currency. */
import { usePage } from "@inertiajs/react";
import { useMemo } from "react";
import { hasTranslation, translate } from "../../../src/i18n";
import { roleDescription, roleLabel } from "../../../src/domain/access/built-in-roles";
import { permissionLabel } from "../../../src/domain/access/permissions";
import { formatDate, formatDateTime, formatMoney, formatNumber, type FormatSettings } from "../lib/format";
import type { SharedProps } from "../types";

export function useI18n() {
  const { locale, settings } = usePage<SharedProps>().props;
  return useMemo(() => {
    const s: FormatSettings = { locale, timezone: settings.timezone, currency: settings.currency };
    return {
      locale,
      t: (key: string, params?: Record<string, string | number>) => translate(locale, key, params),
      /** A role's name for people: a built-in role's label in this language, any other role's own name. */
      roleName: (name: string) => roleLabel(name, locale),
      /** A role's description: a built-in role's in this language while unedited, any other as written. */
      roleAbout: (name: string, description: string) => roleDescription(name, description, locale),
      /** A permission's label (users.view → "Ver usuarios"). */
      permissionName: (name: string) => permissionLabel(name, locale),
      /** The header of a group of permissions (their product area). */
      permissionArea: (area: string) =>
        hasTranslation(locale, `access.permission_areas.${area}`)
          ? translate(locale, `access.permission_areas.${area}`)
          : area,
      money: (cents: number) => formatMoney(cents, s),
      number: (value: number, digits?: number) => formatNumber(value, s, digits),
      date: (value: Date | string | number) => formatDate(value, s),
      /** Date and time in the settings' time zone, or in `timeZone` (a cafe's) when given. */
      dateTime: (value: Date | string | number, timeZone?: string) =>
        formatDateTime(value, timeZone ? { ...s, timezone: timeZone } : s),
    };
  }, [locale, settings.timezone, settings.currency]);
}
