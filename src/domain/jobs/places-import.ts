/**
 * The places workbook import as a job (docs/places-workbook.md): read the workbook (zip checks, then SheetJS in a
 * worker), check every row and apply everything in one transaction, or nothing (src/domain/places/import.ts).
 * The Management page runs it through the JobRunner with the uploaded file; `./mesa import:places` runs the same
 * code in its own process with a progress bar.
 *
 * Success: the counts of what was created and updated. Failure: "import.failed" with the rows to fix (the first
 * MAX_LISTED_PROBLEMS of them and how many more), or the message about the file itself (not a workbook, too slow to
 * read, no sheet Mesa recognises), with the domain's own error as the cause.
 */
import { readFileSync } from "node:fs";
import { message, ValidationFailed, type Message } from "../errors";
import {
  ImportFailed,
  importPlaces,
  MAX_LISTED_PROBLEMS,
  type ImportAbilities,
  type ImportCounts,
  type ImportProblem,
} from "../places/import";
import { readWorkbook } from "../spreadsheets/read";
import { JobFailed, type JobHandler } from "./runner";

export const PLACES_IMPORT = "places.import";

export interface PlacesImportInput {
  /** The workbook to read: the stored upload, or the file named on the command line. */
  path: string;
  /** The file's name as the person chose it. */
  fileName: string;
  /** What the person who started the import may change (their permissions then). */
  abilities: ImportAbilities;
  /** APP_TIMEZONE: the time zone of a new cafe whose row leaves it blank. */
  timeZone: string;
  /** Check only: nothing is written. */
  dryRun: boolean;
}

export interface PlacesImportResult {
  counts: ImportCounts;
  dryRun: boolean;
}

/** The result of an import that found rows to fix: the first MAX_LISTED_PROBLEMS of them, and how many more. */
export interface PlacesImportProblems {
  problems: ImportProblem[];
  more: number;
}

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

export const placesImportJob: JobHandler<PlacesImportInput, PlacesImportResult> = {
  kind: PLACES_IMPORT,
  async run({ db, actor, scope, input, progress, checkpoint }) {
    progress(0, 1, LABELS.reading);
    let workbook;
    try {
      workbook = await readWorkbook(new Uint8Array(readFileSync(input.path)));
    } catch (error) {
      if (error instanceof ValidationFailed) throw new JobFailed(fileMessage(error), null, { cause: error });
      throw error;
    }
    // Checking and saving keep the process busy in one transaction: the step is announced before it begins.
    progress(0, 0, LABELS.checking);
    await checkpoint();
    try {
      const counts = importPlaces(db, actor, scope, input.abilities, workbook, {
        timeZone: input.timeZone,
        dryRun: input.dryRun,
        onProgress: (step, done, total) => progress(done, total, LABELS[step]),
      });
      return { counts, dryRun: input.dryRun };
    } catch (error) {
      if (error instanceof ImportFailed) {
        const result: PlacesImportProblems = {
          problems: error.problems.slice(0, MAX_LISTED_PROBLEMS),
          more: Math.max(0, error.problems.length - MAX_LISTED_PROBLEMS),
        };
        throw new JobFailed(message("import.failed"), result, { cause: error });
      }
      if (error instanceof ValidationFailed) throw new JobFailed(fileMessage(error), null, { cause: error });
      throw error;
    }
  },
};
