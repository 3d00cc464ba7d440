import { addDays, dateIn } from "../../../../src/shared/calendar";
/**
 * Dates of the report dialog: the ranges its presets choose (this month up to today, last month, the last 7 days),
 * counted in the cafe's time zone (the `TIMEZONE` setting, America/Lima by default) rather than the browser's, and
 * the dates a person types ("31/12/2026", "31-12-2026", "31122026", "2026-12-31").
 *
 *   presetRange("last_month", new Date(), "America/Lima")   // { from: "2026-11-01", to: "2026-11-30" }
 *   parseTypedDate("1/12/2026")                             // "2026-12-01"
 */

export const REPORT_PRESETS = ["this_month", "last_month", "last_7_days"] as const;
export type ReportPreset = (typeof REPORT_PRESETS)[number];

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** The service dates a preset chooses, both included, as of `now` in `timeZone`. */
export function presetRange(preset: ReportPreset, now: Date, timeZone: string): { from: string; to: string } {
  const today = dateIn(timeZone, now);
  const [year, month] = today.split("-").map(Number);
  switch (preset) {
    case "this_month":
      return { from: iso(year, month, 1), to: today };
    case "last_month": {
      const firstOfThis = iso(year, month, 1);
      const lastOfPrevious = addDays(firstOfThis, -1);
      return { from: `${lastOfPrevious.slice(0, 8)}01`, to: lastOfPrevious };
    }
    case "last_7_days":
      return { from: addDays(today, -6), to: today };
  }
}

/** The preset whose range is exactly `from`–`to` today, if any. */
export function presetOf(from: string, to: string, now: Date, timeZone: string): ReportPreset | null {
  return (
    REPORT_PRESETS.find((preset) => {
      const range = presetRange(preset, now, timeZone);
      return range.from === from && range.to === to;
    }) ?? null
  );
}

function realDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? iso(year, month, day) : null;
}

/**
 * A typed date as "YYYY-MM-DD", or null when it is not one: day first as Peru writes it (d/m/yyyy with "/", "-" or
 * "." between, or eight digits ddmmyyyy), or the ISO form yyyy-mm-dd. A day that does not exist (31/02) is null.
 */
export function parseTypedDate(text: string): string | null {
  const value = text.trim();
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (match) return realDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(value);
  if (match) return realDate(Number(match[3]), Number(match[2]), Number(match[1]));
  return null;
}

/** A date as it is typed in the person's language: "31/12/2026" in Spanish, "2026-12-31" in English. */
export function typedDate(date: string, locale: "es" | "en"): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return "";
  return locale === "es" ? date.split("-").reverse().join("/") : date;
}
