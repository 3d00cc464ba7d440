/**
 * The places workbook import as a job (docs/places-workbook.md), in two steps that each read the same stored
 * workbook (zip checks, then SheetJS in a worker):
 *
 * - `preview`: checks every row and works out what importing would create, change or leave alone, writing nothing
 *   (src/domain/places/import/, previewPlacesImport). When there is something to import and no problem, the job
 *   keeps its upload for its owner to confirm; otherwise the upload is deleted.
 * - `apply`: started when the person confirms a preview, with the preview's plan fingerprint; it writes exactly
 *   that plan in one transaction. When the places changed meanwhile so the plan differs, it writes nothing and
 *   fails with "import.plan_changed" and the new preview (keeping the upload again, so the new preview can be
 *   confirmed in turn).
 *
 * The Management page runs both through the JobRunner; `./mesa import:places` runs the same code in its own
 * process with a progress bar. Results: `{ preview }`, and after applying `{ counts }`. Failures: the
 * message about the file itself (not a workbook, too slow to read, no sheet Mesa recognises) with the domain's own
 * error as the cause; "import.failed" with the preview listing the rows to fix; "import.plan_changed".
 */
import { readFileSync } from "node:fs";
import { ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import {
  canConfirm,
  importPlaces,
  PLAN_CHANGED,
  PlanChanged,
  previewPlacesImport,
  type ImportAbilities,
  type ImportCounts,
  type ImportPreview,
} from "../places/import";
import { readWorkbook, type WorkbookRows } from "../spreadsheets/read";
import { JobFailed, type JobContext, type JobHandler } from "./runner";

export const PLACES_IMPORT = "places.import";

export interface PlacesImportInput {
  /** Check and show (`preview`), or write a confirmed preview's plan (`apply`). */
  step: "preview" | "apply";
  /** The workbook to read: the stored upload, or the file named on the command line. */
  path: string;
  /** The file's name as the person chose it. */
  fileName: string;
  /** What the person may change (their permissions when they uploaded it, or when they confirmed). */
  abilities: ImportAbilities;
  /** APP_TIMEZONE: the time zone of a new cafe whose row leaves it blank. */
  timeZone: string;
  /** `apply`: the fingerprint of the preview the person confirmed; nothing else is written. */
  plan?: string;
}

/** What a places import job leaves: the preview it worked out (or found instead of the confirmed one), or what it wrote. */
export interface PlacesImportResult {
  preview?: ImportPreview;
  counts?: ImportCounts;
}

/** The job's failure when the workbook has rows to fix (the result's preview lists them). */
export const IMPORT_FAILED = "import.failed";
/** The job's failure when the plan differs from the confirmed preview (the result holds the new preview). */
export { PLAN_CHANGED };

/** Progress labels (translation keys) of the import's steps. */
const LABELS = {
  reading: "import.progress_reading",
  checking: "import.progress_checking",
  saving: "import.progress_saving",
} as const;

/** The one message of a refused file (its errors are keyed `file`). */
function fileMessage(error: ValidationFailed): Message {
  return error.errors.file ?? Object.values(error.errors)[0];
}

async function read(path: string, progress: JobContext<unknown>["progress"]): Promise<WorkbookRows> {
  progress(0, 1, LABELS.reading);
  try {
    return await readWorkbook(new Uint8Array(readFileSync(path)));
  } catch (error) {
    if (error instanceof ValidationFailed) throw new JobFailed(fileMessage(error), null, { cause: error });
    throw error;
  }
}

export const placesImportJob: JobHandler<PlacesImportInput, PlacesImportResult> = {
  kind: PLACES_IMPORT,
  async run({ db, actor, scope, input, progress, checkpoint, keepUpload }) {
    const workbook = await read(input.path, progress);
    // Checking and saving keep the process busy in one transaction: the step is announced before it begins.
    progress(0, 0, LABELS.checking);
    await checkpoint();
    const options = {
      timeZone: input.timeZone,
      onProgress: (step: "checking" | "saving", done: number, total: number) => progress(done, total, LABELS[step]),
    };
    try {
      if (input.step === "preview") {
        const preview = previewPlacesImport(db, scope, input.abilities, workbook, options);
        if (preview.problems.length) throw new JobFailed(message(IMPORT_FAILED), { preview });
        if (canConfirm(preview)) keepUpload();
        return { preview };
      }
      if (!input.plan) throw new Error("a places import is applied with the plan its owner confirmed");
      const counts = importPlaces(db, actor, scope, input.abilities, workbook, {
        ...options,
        expectedPlan: input.plan,
      });
      return { counts };
    } catch (error) {
      if (error instanceof PlanChanged) {
        const preview = (error as PlanChanged<ImportPreview>).plan;
        if (canConfirm(preview)) keepUpload();
        throw new JobFailed(error.detail, { preview }, { cause: error });
      }
      if (error instanceof ValidationFailed) throw new JobFailed(fileMessage(error), null, { cause: error });
      throw error;
    }
  },
};
