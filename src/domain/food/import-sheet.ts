/**
 * What the food workbooks (ingredients, dishes) read the same way: a cell as text, the header row matched in either
 * language, the problems listed up to a limit, each row's problems in column order, and a problem in words. Each
 * importer brings its own columns and words (`food.import.*`, `foodImportDishes.*`).
 */
import { translate, translateDynamic, type Locale, type TranslationKey } from "../../shared/i18n";
import type { ImportProblem } from "../../shared/imports";
import { message, type Message } from "../../shared/message";
import { foldText } from "../search";
import type { CellValue, SheetRows } from "../spreadsheets/read";

/** A column of a workbook: the field it fills, the key of its header, and whether the sheet must have it. */
export interface SheetColumn<F extends string> {
  field: F;
  header: TranslationKey;
  required?: boolean;
}

/** A cell as text: trimmed, spaces made one, a neutralised formula read back without its apostrophe. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  const cell = /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return cell.replace(/\s+/g, " ").trim();
}

/** The problems of a file, the first `max` listed and the rest counted. */
export class ProblemList {
  readonly problems: ImportProblem[] = [];
  more = 0;

  constructor(private readonly max: number) {}

  report(row: number | null, column: string | null, problem: Message): void {
    if (this.problems.length < this.max) this.problems.push({ row, column, message: problem });
    else this.more++;
  }

  get any(): boolean {
    return this.problems.length > 0;
  }

  /** Reports a row's problems (keyed by field) in the order of the columns. */
  reportRow<F extends string>(
    row: number,
    errors: Partial<Record<F, Message>>,
    order: ReadonlyMap<F, number>,
    headerOf: (field: F) => string,
  ): number {
    const fields = (Object.keys(errors) as F[]).sort((a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99));
    for (const field of fields) this.report(row, headerOf(field), errors[field]!);
    return fields.length;
  }
}

/** The words a workbook's header problems are said in. */
export interface HeaderWords {
  empty: TranslationKey;
  unknownColumn: TranslationKey;
  repeatedColumn: TranslationKey;
  missingColumn: TranslationKey;
  tooManyRows: TranslationKey;
}

/** The header row found: where it is, the column of each field, and the rows under it. */
export interface SheetHeader<F extends string> {
  /** The spreadsheet's number of the header row. */
  firstRow: number;
  columns: Map<F, { at: number; header: string }>;
  body: SheetRows["rows"];
  /** A field's column as the workbook wrote it, or its header key when the sheet lacks it. */
  headerOf(field: F): string;
  /** Each field's place in the template's order (problems are listed in it). */
  order: ReadonlyMap<F, number>;
}

/**
 * Finds the header row (the first that is not blank) and the field of each of its columns (by their header in
 * either language, or the field's own key), reporting unknown, repeated and missing columns and a sheet past
 * `maxRows`. Returns null when the sheet is empty or its header has problems.
 */
export function readHeader<F extends string>(
  sheet: SheetRows | undefined,
  columns: readonly SheetColumn<F>[],
  words: HeaderWords,
  maxRows: number,
  problems: ProblemList,
  /** The importer's own checks of the columns found (reported before a sheet's size). */
  checkColumns?: (found: ReadonlyMap<F, unknown>, firstRow: number) => void,
): SheetHeader<F> | null {
  const all = sheet?.rows ?? [];
  const headerAt = all.findIndex((row) => row.some((cell) => cellText(cell) !== ""));
  if (!sheet || headerAt < 0) {
    problems.report(null, null, message(words.empty));
    return null;
  }
  const firstRow = sheet.firstRow + headerAt;
  const index = new Map<string, F>();
  for (const column of columns) {
    index.set(foldText(column.field), column.field);
    for (const locale of ["es", "en"] as const) index.set(foldText(translate(locale, column.header)), column.field);
  }
  const found = new Map<F, { at: number; header: string }>();
  all[headerAt].forEach((cell, at) => {
    const header = cellText(cell);
    if (!header) return;
    const field = index.get(foldText(header));
    if (!field) return problems.report(firstRow, header, message(words.unknownColumn));
    if (found.has(field)) return problems.report(firstRow, header, message(words.repeatedColumn));
    found.set(field, { at, header });
  });
  for (const column of columns)
    if (column.required && !found.has(column.field))
      problems.report(firstRow, column.header, message(words.missingColumn));
  checkColumns?.(found, firstRow);
  const body = all.slice(headerAt + 1);
  if (body.length > maxRows) problems.report(null, null, message(words.tooManyRows, { max: maxRows }));
  if (problems.any) return null;
  return {
    firstRow,
    columns: found,
    body,
    headerOf: (field) => found.get(field)?.header ?? columns.find((c) => c.field === field)?.header ?? field,
    order: new Map(columns.map((c, i) => [c.field, i])),
  };
}

/** A problem's column in the reader's words: a header as written, or a column's key (under `prefix`) translated. */
export function problemColumn(column: string | null, locale: Locale, prefix: string): string | null {
  return column?.startsWith(prefix) ? translateDynamic(locale, column, column) : column;
}

/** The words a problem's place is said in: "Fila 7 (Insumo)", "Fila 7". */
export interface ProblemWords {
  atRowColumn: TranslationKey;
  atRow: TranslationKey;
  /** What the keys of the importer's columns start with. */
  columnPrefix: string;
}

/** A problem in words: "Fila 7 (Kcal por 100 g): Debe ser al menos 0." */
export function describeImportProblem(problem: ImportProblem, locale: Locale, words: ProblemWords): string {
  const said =
    typeof problem.message === "string"
      ? problem.message
      : translate(locale, problem.message.key, problem.message.params);
  const column = problemColumn(problem.column, locale, words.columnPrefix);
  const where =
    problem.row !== null && column
      ? translate(locale, words.atRowColumn, { row: problem.row, column })
      : problem.row !== null
        ? translate(locale, words.atRow, { row: problem.row })
        : null;
  return where ? `${where}: ${said}` : said;
}
