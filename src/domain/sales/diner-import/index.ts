/**
 * Diner spreadsheets (issue 15): the weekly lists of workers client companies send, loaded from the Dinners page's
 * Excel dialog, `./mesa import:diners` and the inbox. The first sheet's first non-blank row is the header, in
 * Spanish or English, in any order, case, accents or spacing; each row below it is a diner, upserted by document.
 *
 * Check first, then all or nothing. `previewDinerImport` reads every row against the database (subdealerships,
 * cafes, levels, diners and the blacklist, each loaded once into a map) and says what would be created, updated or
 * left unchanged, every problem by row and column, the blacklisted documents, the leavers, and `plan`, a fingerprint
 * of exactly what would be written. `importDiners` checks again and, when there is no problem (and the plan is the
 * one confirmed), writes; a sheet this process checked, when nothing the check read has changed since (the command
 * line, the inbox), is written as checked, without checking it again (planToWrite).
 *
 * Short locks: the write is cut in chunks, each its own IMMEDIATE transaction sized to hold the write lock about
 * CHUNK_MS, with a pause between them in which sales get in (another process's sale asks for the lock every
 * millisecond: beginImmediate in src/db.ts), and a longer one now and then for other writers. Each chunk writes, in
 * the same transaction, what undoes it (diner_import_undo), and renews the import's lease in the ledger
 * (diner_imports). Should anything fail mid-way — a diner changed by someone else meanwhile (every update is guarded
 * by the values it was planned from), an exception, a crash — the undo log puts the diners and their audit entries
 * back, and the ledger says rolled_back. A crashed writer's import is undone once its lease has run out: by a
 * running server's heartbeat (`recoverDinerImportsAsync`), before each import and at every start
 * (`recoverDinerImports`). Only one import writes at a time.
 *
 * Invisible until whole (docs/decisions/018): every diner an import creates carries its import (diners.import_id),
 * and the view every read uses (visibleDiners) leaves out the diners of an import that is still writing, so none
 * of them is found, listed or sold to until the import's last commit, which says it succeeded, shows them all at
 * once. The chunks write the new diners first and the changes to existing diners last. A person registered by hand
 * meanwhile with a document the import holds wins: the import stops (stopImportHolding) and undoes what it wrote.
 *
 * Cells: an empty cell keeps the stored value. The default cafe (the dialog's choice, `--cafe`) stands for a blank
 * cafe cell or a missing cafe column on every row, so a diner listed in a file for that cafe is moved there. A
 * diner listed while inactive is active again: the list names the people who work now, as the leavers are those
 * it no longer names.
 *
 * One file per step of the import engine (src/domain/imports/engine.ts): contract.ts (limits, options, the two
 * refusals), cells.ts and header.ts (reading the file), world.ts (the database, loaded once), check-row.ts and
 * plan.ts (checking and the preview with its fingerprint), write.ts (the chunks), ledger.ts and undo.ts.
 */
import type { Db } from "../../../db";
import type { Scope } from "../../access/scope";
import type { DinerImportPreview } from "../../../shared/sales/types";
import type { DinerImportOptions, DinerSheet } from "./contract";
import { plan, planAsync } from "./plan";

export type { DinerField, DinerImportPreview, DinerImportProblem } from "../../../shared/sales/types";
export { ImportRefused, PlanChanged } from "../../imports/engine";
export {
  CHUNK_MS,
  CHUNK_PAUSE_MS,
  LEASE_MS,
  MAX_LISTED,
  SERVER_CHUNK_MS,
  type DinerImportCounts,
  type DinerImportOptions,
  type DinerImportSource,
  type DinerImportState,
  type DinerSheet,
} from "./contract";
export { importOfFile, recordRefusedImport, stopImportHolding } from "./ledger";
export { recoverDinerImports, recoverDinerImportsAsync } from "./undo";
export { importDiners } from "./write";

/** What importing `sheet` would do, without writing anything. */
export function previewDinerImport(
  db: Db,
  scope: Scope,
  sheet: DinerSheet,
  options: DinerImportOptions = {},
): DinerImportPreview {
  return plan(db, scope, sheet, options).preview;
}

/**
 * previewDinerImport, yielding to the event loop every CHECK_PROGRESS_EVERY rows: for a background job, so the
 * process keeps serving (sales among them) while a large file is checked.
 */
export async function previewDinerImportAsync(
  db: Db,
  scope: Scope,
  sheet: DinerSheet,
  options: DinerImportOptions = {},
): Promise<DinerImportPreview> {
  return (await planAsync(db, scope, sheet, options)).preview;
}
