/**
 * The shapes every spreadsheet import shows its person (src/domain/imports/engine.ts runs them).
 */
import type { Message } from "./message";

/** One thing to fix in a file: where (the row as the spreadsheet numbers it, the column's header) and what. */
export interface ImportProblem {
  row: number | null;
  column: string | null;
  message: Message;
}
