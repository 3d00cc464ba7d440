/**
 * Reading the workbook into the plan: each sheet Mesa recognises by its name, its header row and columns, its rows
 * (examples and blank rows left out), then every row through the Planner.
 */
import type { Scope } from "../../access/scope";
import type { Tx } from "../../audit";
import { ValidationFailed } from "../../errors";
import { message } from "../../../shared/message";
import type { WorkbookRows } from "../../spreadsheets/read";
import { Cells, text } from "./cells";
import { count } from "./counts";
import { COLUMN_BY_NAME, COLUMNS, NO, normalise, PERMISSION, SHEET_BY_NAME, SHEET_COLUMNS, SHEETS } from "./format";
import type { ColumnKey, Language, SheetKind } from "./format";
import { Planner } from "./planner";
import type { ImportAbilities, ImportProblem, SkippedExample } from "./types";

/** Told how far the import got: rows checked of all rows, then services and places saved of all. Called often. */
export type OnProgress = (step: "checking" | "saving", done: number, total: number) => void;

function sheetOrder(workbook: WorkbookRows, name: string): number {
  return workbook.findIndex((s) => s.name === name);
}

interface RecognisedSheet {
  kind: SheetKind;
  name: string;
  headerRow: number;
  rows: { number: number; cells: Cells }[];
}

/** A cell of the Example column that marks its row as an example: anything but blank or a "no". */
function marksExample(cells: Cells): boolean {
  const value = normalise(cells.text("example"));
  return value !== "" && !NO.has(value);
}

function recognise(workbook: WorkbookRows, problems: ImportProblem[], examples: SkippedExample[]): RecognisedSheet[] {
  const found = new Map<SheetKind, RecognisedSheet>();
  for (const sheet of workbook) {
    const kind = SHEET_BY_NAME.get(normalise(sheet.name));
    if (!kind) continue;
    if (found.has(kind)) {
      problems.push({
        sheet: sheet.name,
        row: 1,
        message: message("import.duplicate_sheet", { sheet: sheet.name, other: found.get(kind)!.name }),
      });
      continue;
    }
    const headerIndex = sheet.rows.findIndex((row) => row.some((cell) => text(cell) !== ""));
    const recognised: RecognisedSheet = {
      kind,
      name: sheet.name,
      headerRow: sheet.firstRow + Math.max(headerIndex, 0),
      rows: [],
    };
    found.set(kind, recognised);
    if (headerIndex < 0) continue;
    const language: Language = normalise(sheet.name) === normalise(SHEETS[kind].en) ? "en" : "es";
    const headers = Object.fromEntries(Object.entries(COLUMNS).map(([key, names]) => [key, names[language]])) as Record<
      ColumnKey,
      string
    >;
    const columns = new Map<ColumnKey, { index: number; header: string }>();
    const allowed = new Set(SHEET_COLUMNS[kind].map((c) => c.key));
    sheet.rows[headerIndex].forEach((cell, index) => {
      const header = text(cell);
      const key = COLUMN_BY_NAME.get(normalise(header));
      if (key && allowed.has(key) && !columns.has(key)) columns.set(key, { index, header });
    });
    const missing = SHEET_COLUMNS[kind].filter((c) => c.required && !columns.has(c.key));
    for (const c of missing)
      problems.push({
        sheet: sheet.name,
        row: recognised.headerRow,
        message: message("import.missing_column", { column: headers[c.key] }),
      });
    if (missing.length) continue;
    sheet.rows.slice(headerIndex + 1).forEach((row, i) => {
      // Empty rows are skipped, and so are rows marked as examples (the template's).
      if (!row.some((cell) => text(cell) !== "")) return;
      const number = recognised.headerRow + 1 + i;
      const cells = new Cells(row, columns, headers);
      if (marksExample(cells)) examples.push({ sheet: sheet.name, row: number });
      else recognised.rows.push({ number, cells });
    });
  }
  return (Object.keys(SHEETS) as SheetKind[]).flatMap((kind) => (found.has(kind) ? [found.get(kind)!] : []));
}

export interface Planned {
  planner: Planner;
  examples: SkippedExample[];
}

export function plan(
  db: Tx,
  scope: Scope,
  abilities: ImportAbilities,
  workbook: WorkbookRows,
  defaultTimeZone: string,
  onProgress?: OnProgress,
): Planned {
  const recognisedProblems: ImportProblem[] = [];
  const examples: SkippedExample[] = [];
  const sheets = recognise(workbook, recognisedProblems, examples);
  if (sheets.length === 0 && recognisedProblems.length === 0) {
    throw new ValidationFailed({
      file: message("import.no_sheets", {
        sheets: Object.values(SHEETS)
          .map((n) => `${n.es}/${n.en}`)
          .join(", "),
      }),
    });
  }
  const planner = new Planner(db, scope, defaultTimeZone);
  planner.problems.push(...recognisedProblems);
  const totalRows = sheets.reduce((sum, sheet) => sum + sheet.rows.length, 0);
  let checked = 0;
  for (const sheet of sheets) {
    const seen = new Map<string, number>();
    for (const { number, cells } of sheet.rows) {
      onProgress?.("checking", checked++, totalRows);
      if (sheet.kind === "services") planner.serviceRow(sheet.name, number, cells, seen);
      else if (sheet.kind === "mines") planner.mineRow(sheet.name, number, cells, seen);
      else if (sheet.kind === "units") planner.unitRow(sheet.name, number, cells, seen);
      else if (sheet.kind === "cafes") planner.cafeRow(sheet.name, number, cells, seen);
      else planner.priceRow(sheet.name, number, cells, seen);
    }
  }
  onProgress?.("checking", checked, totalRows);
  planner.checkContainment();
  planner.checkNewPlacesReachable();
  // A sheet that would create or change something needs its permission; one that only repeats what is there does not.
  const counts = count(planner);
  for (const sheet of sheets) {
    const tally = counts[sheet.kind];
    if (tally.created + tally.updated > 0 && !abilities[PERMISSION[sheet.kind]])
      planner.problem(
        sheet.name,
        sheet.headerRow,
        undefined,
        message("import.sheet_not_allowed", { sheet: sheet.name }),
      );
  }
  planner.problems.sort((a, b) => sheetOrder(workbook, a.sheet) - sheetOrder(workbook, b.sheet) || a.row - b.row);
  return { planner, examples };
}
