/**
 * The places workbook: mines, units, cafes, services and prices loaded from an .xlsx file (docs/places-workbook.md).
 * Sheets and headers are recognised in Spanish or English, whatever the case or accents; rows marked in the
 * Example column are skipped. An import is shown before it is written: `previewPlacesImport` checks every row
 * against the database and the rest of the workbook and says what would be created, changed or left alone (and
 * each problem, with its sheet, row and column), with a fingerprint of the plan. `importPlaces` then writes that
 * plan in one transaction, and only that plan: given the fingerprint the person confirmed, it refuses (PlanChanged,
 * with the new preview) when the database changed so that the plan differs. Records are upserted by their natural
 * key (mine name, unit name within its mine, cafe name within its unit, service code), service lists only add
 * assignments, and the containment rule (a unit offers only what its mine offers, a cafe only what its unit
 * offers) holds afterwards. Price changes keep their history; the import itself is one audit record.
 *
 * Scope: rows that touch an existing place outside the actor's scope fail as "not found". Without an all-places
 * scope a new cafe needs a business of the actor's headquarters areas, and a new mine or unit a new such cafe in
 * it (in the same workbook), so everything created stays within reach. A sheet that creates or changes something
 * needs its permission: places.manage (mines, units, cafes), services.manage (services), prices.manage (prices); a
 * sheet that only repeats what is there (a re-imported export) needs none.
 *
 * It runs the steps of the one import engine (src/domain/imports/engine.ts), one file each: format.ts (sheets,
 * columns and words), cells.ts, sheets.ts (recognising the sheets and checking each row through planner.ts),
 * counts.ts (counts, changes and the preview's fingerprint), apply.ts (the writes), describe.ts (the preview in
 * words) and template.ts (the template and the sheets an export writes).
 */
import type { Scope } from "../../access/scope";
import type { Actor } from "../../audit";
import { ImportRefused, PlanChanged } from "../../imports/engine";
import { message } from "../../../shared/message";
import type { Db } from "../../../db";
import type { WorkbookRows } from "../../spreadsheets/read";
import { apply } from "./apply";
import { count, preview } from "./counts";
import { problemErrors } from "./describe";
import { plan, type OnProgress } from "./sheets";
import type { ImportAbilities, ImportCounts, ImportPreview } from "./types";

export * from "./types";
export { describeChange, describeCounts, describeExamples, describeProblem, describeProblems } from "./describe";
export * from "./template";
export { ImportRefused, PlanChanged } from "../../imports/engine";

/** PlanChanged's words: the places changed since the preview, so nothing was saved. */
export const PLAN_CHANGED = "import.plan_changed";

export interface ImportOptions {
  /** APP_TIMEZONE: the time zone of a new cafe whose row leaves it blank. */
  timeZone: string;
  now?: Date;
  /** Told how far the import got: rows checked of all rows, then services and places saved of all. Called often. */
  onProgress?: OnProgress;
}

/**
 * What importing a places workbook (rows as read by readWorkbook) would do, worked out in one read transaction
 * without writing anything: see ImportPreview. Problems are part of the preview; throws ValidationFailed keyed
 * `file` only when the workbook has no sheet Mesa recognises.
 */
export function previewPlacesImport(
  db: Db,
  scope: Scope,
  abilities: ImportAbilities,
  workbook: WorkbookRows,
  options: ImportOptions,
): ImportPreview {
  return db.transaction((tx) => preview(plan(tx, scope, abilities, workbook, options.timeZone, options.onProgress)), {
    behavior: "deferred",
  });
}

/**
 * Imports a places workbook: checks every row, then writes everything in one transaction, or nothing. With
 * `expectedPlan` (the `plan` of the preview the person confirmed) it writes only that plan: when the workbook
 * would now do anything else, or has problems, it throws PlanChanged with the new preview. Without it, it throws
 * ImportRefused with the preview, its errors keyed `rows.<sheet>.<row>[.<column>]`. Throws ValidationFailed keyed `file` when the workbook has no sheet Mesa
 * recognises. Returns what was created, updated and left unchanged.
 */
export function importPlaces(
  db: Db,
  actor: Actor,
  scope: Scope,
  abilities: ImportAbilities,
  workbook: WorkbookRows,
  options: ImportOptions & { expectedPlan?: string },
): ImportCounts {
  const now = options.now ?? new Date();
  // Checked and written in one immediate transaction, so nothing changes between the check and the write.
  return db.transaction(
    (tx) => {
      const planned = plan(tx, scope, abilities, workbook, options.timeZone, options.onProgress);
      const { planner } = planned;
      if (options.expectedPlan !== undefined) {
        const current = preview(planned);
        if (current.plan !== options.expectedPlan || current.problems.length)
          throw new PlanChanged(current, message(PLAN_CHANGED));
      }
      if (planner.problems.length) throw new ImportRefused(preview(planned), problemErrors(planner.problems));
      const counts = count(planner);
      apply(tx, actor, planner, counts, now, options.onProgress);
      return counts;
    },
    { behavior: "immediate" },
  );
}
