/**
 * A places workbook's cells read as the import needs them: text, service code lists, prices and time zones.
 */
import { MAX_CENTS, parseSoles } from "../../../shared/money";
import type { CellValue } from "../../spreadsheets/read";
import type { ColumnKey } from "./format";

export function text(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  // An export writes text that would start a formula behind an apostrophe (neutraliseFormula): read it back as it was.
  const cell = /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return cell.replace(/\s+/g, " ").trim();
}

/** Service codes as written in a list cell: "des, alm; CEN" → DES, ALM, CEN. */
export function codeList(value: CellValue | undefined): string[] {
  return [
    ...new Set(
      text(value)
        .split(/[,;]/)
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
}

/** A price in soles as cents: a number cell with at most two decimals, or text such as "12.50" / "12,5". */
export function priceCents(value: CellValue | undefined): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null;
    const cents = Math.round(value * 100);
    // 12.345 has more than two decimals: refused rather than rounded.
    if (Math.abs(value * 100 - cents) > 1e-6 || cents > MAX_CENTS) return null;
    return cents;
  }
  return parseSoles(text(value));
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The cells of one row, read by column. */
export class Cells {
  constructor(
    private readonly row: CellValue[],
    private readonly columns: Map<ColumnKey, { index: number; header: string }>,
    private readonly headers: Record<ColumnKey, string>,
  ) {}

  has(key: ColumnKey): boolean {
    return this.columns.has(key);
  }

  value(key: ColumnKey): CellValue | undefined {
    const column = this.columns.get(key);
    return column ? this.row[column.index] : undefined;
  }

  text(key: ColumnKey): string {
    return text(this.value(key));
  }

  /** The column's header as the file names it (for messages). */
  header(key: ColumnKey): string {
    return this.columns.get(key)?.header ?? this.headers[key];
  }
}
