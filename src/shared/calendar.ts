/**
 * The cafe's clock and the arithmetic of a sale, free of database imports so the browser shares them: today's date
 * and the time of day in a cafe's time zone, service windows (which may cross midnight), and IGV included in a
 * price split into taxable base and tax so that a sale's lines add up to its total exactly.
 */

// Building an Intl.DateTimeFormat costs a hundred times what formatting with one does: one is kept per time zone.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function kept(formats: Map<string, Intl.DateTimeFormat>, timeZone: string, make: () => Intl.DateTimeFormat) {
  let format = formats.get(timeZone);
  if (!format) formats.set(timeZone, (format = make()));
  return format;
}

/** The calendar date (YYYY-MM-DD) at `now` in `timeZone`. */
export function dateIn(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  const format = kept(
    dateFormats,
    timeZone,
    () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
  );
  return format.format(now);
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock at `now` in `timeZone`: "YYYY-MM-DD HH:MM:SS". */
export function clockIn(timeZone: string, now: Date = new Date()): string {
  const format = kept(
    clockFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat("en-CA", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      }),
  );
  const part = (type: string) => format.formatToParts(now).find((p) => p.type === type)?.value ?? "00";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}:${part("second")}`;
}

/**
 * The moment a wall-clock time names in `timeZone`: "2026-12-01 10:32", with seconds or a "T" too; with "Z" or an
 * offset ("+05:00") it names that moment whatever the zone. Null when the text is not such a time.
 */
export function momentIn(timeZone: string, text: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/.exec(text.trim());
  if (!m || !isCalendarDate(m[1])) return null;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const [year, month, day] = m[1].split("-").map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (m[5]) {
    const offset =
      m[5] === "Z" ? 0 : (m[5][0] === "-" ? -1 : 1) * (Number(m[5].slice(1, 3)) * 60 + Number(m[5].slice(4)));
    return new Date(asUtc - offset * 60_000);
  }
  // The zone's offset is read at a first guess and again at the moment it gives (they differ across a change).
  let moment = asUtc;
  for (let i = 0; i < 2; i++) {
    const [d, t] = clockIn(timeZone, new Date(moment)).split(" ");
    const [y, mo, da] = d.split("-").map(Number);
    const [h, mi, se] = t.split(":").map(Number);
    moment = asUtc - (Date.UTC(y, mo - 1, da, h, mi, se) - Math.floor(moment / 1000) * 1000);
  }
  return new Date(moment);
}

/** Minutes after midnight at `now` in `timeZone` (04:30 → 270). */
export function minuteOfDay(timeZone: string, now: Date = new Date()): number {
  const format = kept(
    timeFormats,
    timeZone,
    () => new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
  );
  const parts = format.formatToParts(now);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

/** A service window in minutes after midnight; `end` before `start` crosses midnight (22:00–02:00). */
export interface ServiceWindow {
  start: number;
  end: number;
}

/** Whether `minute` lies in the window: from its start (included) to its end (excluded). */
export function windowHolds(window: ServiceWindow, minute: number): boolean {
  if (window.start === window.end) return false;
  return window.start < window.end
    ? minute >= window.start && minute < window.end
    : minute >= window.start || minute < window.end;
}

/** "04:30" → 270; null for anything that is not a time of day HH:MM. */
export function parseTimeOfDay(text: string): number | null {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** 270 → "04:30". */
export function formatTimeOfDay(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** "YYYY-MM-DD" plus `days` (calendar arithmetic in UTC). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Days from `from` to `to` (0 for the same day; negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The Monday of the week of `date`. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** Days from `from` to `to`, both included (1 for the same day). */
export function dayCount(from: string, to: string): number {
  return daysBetween(from, to) + 1;
}

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** The day before a spreadsheet's day 1: Excel's serial dates are the days since this one. */
export const EXCEL_DAY_ZERO = "1899-12-30";
