/**
 * Money is kept as integer cents (céntimos). People type soles with up to two decimals ("12.50", "12,5", "12");
 * parsing is exact (string arithmetic, never floating point).
 */
import { intlLocale, type Locale } from "./i18n";

/** The largest amount accepted from a person: S/ 9,999,999.99. */
export const MAX_CENTS = 999_999_999;

/** "12.50" → 1250, "12,5" → 1250, "0.05" → 5, "S/ 3" → 300; null when the text is not an amount in soles. */
export function parseSoles(text: string): number | null {
  if (typeof text !== "string") return null;
  const cleaned = text
    .trim()
    .replace(/^S\/\.?\s*/i, "")
    .replace(",", ".");
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) && cents <= MAX_CENTS ? cents : null;
}

/** 1250 → "12.50", 5 → "0.05", -250 → "-2.50": soles with two decimals, for inputs (display goes through Intl). */
export function centsToSoles(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

const moneyFormats = new Map<string, { number: Intl.NumberFormat; symbol: string }>();

/**
 * Mesa's one money formatter, for pages, workbooks' texts, mail and the command line: 1750 cents → "S/ 17.50" in
 * both languages (Intl alone writes "PEN 17.50" in English), with the language's separators ("S/ 1,250.00") and a
 * no-break space after the symbol, so an amount never wraps. Another currency shows its narrow symbol ("$ 5.00").
 */
export function formatMoney(cents: number, locale: Locale, currency = "PEN"): string {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const symbol =
      currency === "PEN"
        ? "S/"
        : (new Intl.NumberFormat("es-PE", { style: "currency", currency, currencyDisplay: "narrowSymbol" })
            .formatToParts(0)
            .find((p) => p.type === "currency")?.value ?? currency);
    const number = new Intl.NumberFormat(intlLocale[locale], { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormats.set(key, (format = { number, symbol }));
  }
  const amount = format.number.format(Math.abs(cents) / 100);
  const negative = cents < 0 && amount !== format.number.format(0);
  return `${negative ? "-" : ""}${format.symbol}\u00a0${amount}`;
}

/**
 * The IGV inside an amount that includes it, at `rateBasisPoints` (1800 = 18 %), rounded to the cent; the base is
 * the rest, so base + IGV is the amount exactly. Each line is split on its own and the sale adds its lines up.
 */
export function splitIgv(totalCents: number, rateBasisPoints: number): { baseCents: number; igvCents: number } {
  const igvCents = Math.round((totalCents * rateBasisPoints) / (10_000 + rateBasisPoints));
  return { baseCents: totalCents - igvCents, igvCents };
}

/** A price times a factor in hundredths (200 = ×2), rounded to the cent. */
export function applyFactor(priceCents: number, factorPercent: number): number {
  return Math.round((priceCents * factorPercent) / 100);
}

/** Cents as a number of soles (1250 → 12.5), for a spreadsheet's number cells; pages show `formatMoney`. */
export function solesAmount(cents: number): number {
  return cents / 100;
}

/** Soles as a spreadsheet shows them: a number with the currency's format, never text. */
export const SOLES_FORMAT = '"S/" #,##0.00';
