/**
 * The dishes workbook import of the Food page as a job (docs/recipes-workbook.md), in two steps that each read the
 * same stored upload through the one spreadsheet intake (readDishSheet, DISH_INTAKE):
 *
 * - `preview`: checks every row and works out which dishes and recipes importing would create, change or leave
 *   alone, writing nothing (src/domain/food/dish-import.ts, previewDishImport; the check gives the event loop a turn
 *   every few milliseconds). When there is something to import and no problem, the job keeps its upload for its
 *   owner to confirm; otherwise the upload is deleted.
 * - `apply`: started when the person confirms a preview, with the fingerprint recorded with it; it writes exactly
 *   that plan (importDishes): staged in short chunks, published in one short transaction, so nothing of it is seen
 *   before it is whole. When the catalogue changed meanwhile so the plan differs, it writes nothing and fails with
 *   "foodImportDishes.changed" and the new preview, keeping the upload again so that one can be confirmed.
 *
 * Results: `{ plan }`, and after applying `{ plan, written: true }`. Failures: the file's own message (not a
 * spreadsheet, too large, too slow to read); "foodImportDishes.failed" with the plan listing the rows to fix;
 * "foodImportDishes.changed" with the new plan; "foodImportDishes.busy" when other writes kept changing the catalogue.
 */
import { and, eq } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { jobs } from "../../../db/schema";
import type { Db } from "../../db";
import { Conflict, ValidationFailed } from "../errors";
import { ImportRefused, PlanChanged } from "../imports/engine";
import { message, type Message } from "../../shared/message";
import {
  changesOf,
  importDishes,
  previewDishImport,
  readDishSheet,
  type DishImportOptions,
  type DishImportPlan,
} from "../food/dish-import";
import type { SheetRows } from "../spreadsheets/read";
import { JobFailed, type JobHandler } from "./runner";

export const DISHES_IMPORT = "food.dishes.import";

export interface DishesImportInput {
  /** Check and show (`preview`), or write a confirmed preview's plan (`apply`). */
  step: "preview" | "apply";
  /** The stored upload (STORAGE_PATH/jobs). */
  path: string;
  /** The file's name as the person chose it. */
  fileName: string;
  /** `apply`: the fingerprint of the preview the person confirmed; nothing else is written. */
  plan?: string;
}

/** What a dishes import job leaves: the plan it worked out (or found instead of the confirmed one), or wrote. */
export interface DishesImportResult {
  plan: DishImportPlan;
  /** The plan was written. */
  written?: boolean;
}

/** The job's failure when the file has rows to fix (the result's plan lists them). */
export const IMPORT_FAILED = "foodImportDishes.failed";
/** The job's failure when the catalogue changed since the confirmed preview (the result holds the new plan). */
export const PLAN_CHANGED = "foodImportDishes.changed";

/** Progress labels (translation keys) of the import's steps. */
export const PROGRESS_LABELS = {
  reading: "foodImportDishes.progress_reading",
  checking: "foodImportDishes.progress_checking",
  saving: "foodImportDishes.progress_saving",
} as const;

/** Whether confirming `plan` would write something. */
export function planConfirmable(plan: DishImportPlan): boolean {
  return plan.problems.length === 0 && plan.moreProblems === 0 && changesOf(plan.counts) > 0;
}

/** The one message of a refused file (its errors are keyed `file`). */
function fileMessage(error: ValidationFailed): Message {
  return error.errors.file ?? Object.values(error.errors)[0];
}

/** The id of the job running on this upload (each upload is a file of its own, held by one job at a time). */
function jobOfUpload(db: Db, path: string): number | null {
  return (
    db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.upload, path), eq(jobs.state, "running")))
      .get()?.id ?? null
  );
}

export const dishesImportJob: JobHandler<DishesImportInput, DishesImportResult> = {
  kind: DISHES_IMPORT,
  async run({ db, actor, input, progress, checkpoint, keepUpload }) {
    progress(0, 1, PROGRESS_LABELS.reading);
    await checkpoint();
    let sheet: SheetRows;
    try {
      sheet = await readDishSheet(new Uint8Array(readFileSync(input.path)), input.fileName);
    } catch (error) {
      if (error instanceof ValidationFailed) throw new JobFailed(fileMessage(error), null, { cause: error });
      throw error;
    }
    const options: DishImportOptions = {
      onProgress: (step, done, total) => progress(done, total, PROGRESS_LABELS[step]),
      jobId: jobOfUpload(db, input.path),
    };
    progress(0, 0, PROGRESS_LABELS.checking);
    await checkpoint();

    if (input.step === "preview") {
      const plan = await previewDishImport(db, sheet, options);
      if (plan.problems.length) throw new JobFailed(message(IMPORT_FAILED), { plan });
      if (planConfirmable(plan)) keepUpload();
      return { plan };
    }

    if (!input.plan) throw new Error("a dishes import is applied with the plan its owner confirmed");
    try {
      const plan = await importDishes(db, actor, sheet, { ...options, fingerprint: input.plan });
      return { plan, written: true };
    } catch (error) {
      if (error instanceof PlanChanged) {
        const plan = (error as PlanChanged<DishImportPlan>).plan;
        if (planConfirmable(plan)) keepUpload();
        throw new JobFailed(message(PLAN_CHANGED), { plan }, { cause: error });
      }
      if (error instanceof ImportRefused)
        throw new JobFailed(
          message(IMPORT_FAILED),
          { plan: (error as ImportRefused<DishImportPlan>).plan },
          { cause: error },
        );
      if (error instanceof Conflict) throw new JobFailed(error.detail, null, { cause: error });
      throw error;
    }
  },
};
