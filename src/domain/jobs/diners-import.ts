/**
 * The diner spreadsheet import of the Dinners page's Excel dialog as a job (docs/diner-imports.md), in two steps
 * that each read the same stored upload with the one spreadsheet intake (readFirstSheetPacked, DINER_INTAKE):
 *
 * - `preview`: checks every row and works out what importing would create, update or leave alone, the leavers and
 *   the blacklisted documents, writing nothing (src/domain/sales/diner-import/, previewDinerImportAsync). When there is
 *   something to confirm and no problem, the job keeps its upload for its owner to confirm; otherwise the upload is
 *   deleted. The preview's fingerprint depends on whether the leavers are deactivated, and the dialog lets the
 *   person decide that after seeing them: when there are leavers, the fingerprint of the other choice is worked
 *   out too, so either choice confirms a plan the server recorded.
 * - `apply`: started when the person confirms, with the plan of their choice; it writes exactly that plan
 *   (importDiners with `expectedPlan`). When the diners changed meanwhile it writes nothing and fails with
 *   "dinners.import.plan_changed" and the new preview, keeping the upload again so that one can be confirmed.
 *
 * A file refused as a whole (not a spreadsheet, empty, encrypted, damaged, too large, too many rows, too slow) is
 * recorded in the import ledger (recordRefusedImport) and the job fails with the file's one message. Every import
 * names the file by the SHA-256 of its stored bytes. Results: `{ preview, plans }`, and after applying
 * `{ counts, importId, preview }`.
 */
import { and, eq } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { jobs } from "../../../db/schema";
import type { Db } from "../../db";
import { Conflict, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import {
  ImportRefused,
  importDiners,
  PlanChanged,
  previewDinerImportAsync,
  recordRefusedImport,
  SERVER_CHUNK_MS,
  type DinerImportCounts,
  type DinerImportOptions,
  type DinerImportPreview,
  type DinerImportSource,
  type DinerSheet,
} from "../sales/diner-import";
import { DINER_INTAKE, readFirstSheetPacked } from "../spreadsheets/read";
import { JobFailed, type JobContext, type JobHandler } from "./runner";

export const DINERS_IMPORT = "diners.import";

export interface DinersImportInput {
  /** Check and show (`preview`), or write a confirmed preview's plan (`apply`). */
  step: "preview" | "apply";
  /** The stored upload (STORAGE_PATH/jobs). */
  path: string;
  /** The file's name as the person chose it. */
  fileName: string;
  /** The cafe of rows whose cafe cell is blank (or of every row when the file has no cafe column). */
  defaultCafeId: number | null;
  /** Whether the leavers are deactivated (chosen on upload for the first preview, on confirming for the write). */
  deactivateLeavers: boolean;
  /** DNI_LENGTH: a DNI of fewer digits, in a number cell or a text cell, gets its leading zeros back. */
  dniLength: number;
  /** `apply`: the fingerprint of the preview the person confirmed; nothing else is written. */
  plan?: string;
}

/** The fingerprints a preview may be confirmed with: leaving the leavers alone, and deactivating them (when any). */
export interface DinersImportPlans {
  keep: string;
  deactivate: string | null;
}

/** What a diner import job leaves: the preview (with its plans), the file's refusal, or what it wrote. */
export interface DinersImportResult {
  preview?: DinerImportPreview;
  plans?: DinersImportPlans;
  /** The file was refused as a whole (the job's message says why); its ledger entry. */
  refused?: { importId: number };
  counts?: DinerImportCounts;
  importId?: number;
}

/** The job's failure when the file has rows to fix (the result's preview lists them). */
export const IMPORT_FAILED = "dinners.import.failed";
/** The job's failure when the diners changed since the confirmed preview (the result holds the new preview). */
export const PLAN_CHANGED = "dinners.import.plan_changed";

/** Progress labels (translation keys) of the import's steps. */
export const PROGRESS_LABELS = {
  reading: "dinners.import.progress_reading",
  checking: "dinners.import.progress_checking",
  saving: "dinners.import.progress_saving",
} as const;

/** Whether confirming `preview` would write something: diners to create or update, or leavers to deactivate. */
export function previewConfirmable(preview: DinerImportPreview): boolean {
  return preview.problemCount === 0 && (preview.created > 0 || preview.updated > 0 || preview.leaverCount > 0);
}

/** The plan confirmed with this choice about the leavers, or null when that choice was not offered. */
export function planFor(plans: DinersImportPlans, deactivateLeavers: boolean): string | null {
  return deactivateLeavers ? plans.deactivate : plans.keep;
}

/** The one message of a refused file (its errors are keyed `file`). */
function fileMessage(error: ValidationFailed): Message {
  return error.errors.file ?? Object.values(error.errors)[0];
}

/** The SHA-256 of the stored bytes, in hex: how the ledger knows a file. */
export function sha256Of(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
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

/** Both fingerprints: the one of `preview` (worked out with `deactivateLeavers`) and, when there are leavers, the other. */
async function plansOf(
  db: Db,
  context: JobContext<DinersImportInput>,
  sheet: DinerSheet,
  options: DinerImportOptions,
  preview: DinerImportPreview,
): Promise<DinersImportPlans> {
  const deactivating = options.deactivateLeavers === true;
  if (preview.leaverCount === 0 || preview.problemCount > 0)
    return { keep: preview.plan, deactivate: deactivating ? preview.plan : null };
  const other = await previewDinerImportAsync(db, context.scope, sheet, {
    ...options,
    deactivateLeavers: !deactivating,
    onProgress: undefined,
  });
  return deactivating ? { keep: other.plan, deactivate: preview.plan } : { keep: preview.plan, deactivate: other.plan };
}

export const dinersImportJob: JobHandler<DinersImportInput, DinersImportResult> = {
  kind: DINERS_IMPORT,
  async run(context) {
    const { db, actor, scope, input, progress, checkpoint, keepUpload } = context;
    progress(0, 1, PROGRESS_LABELS.reading);
    const bytes = new Uint8Array(readFileSync(input.path));
    const source: DinerImportSource = {
      fileName: input.fileName,
      sha256: sha256Of(bytes),
      via: "page",
      jobId: jobOfUpload(db, input.path),
    };
    let sheet: DinerSheet;
    try {
      // Packed: the rows are made one at a time as they are checked, so a large file is never held as values.
      sheet = (await readFirstSheetPacked(bytes, input.fileName, DINER_INTAKE)).sheet;
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      const reason = fileMessage(error);
      const importId = recordRefusedImport(db, actor, source, reason);
      throw new JobFailed(reason, { refused: { importId } }, { cause: error });
    }

    // Checking and saving keep the process busy: the step is announced before it begins.
    progress(0, 0, PROGRESS_LABELS.checking);
    await checkpoint();
    const options: DinerImportOptions = {
      defaultCafeId: input.defaultCafeId,
      deactivateLeavers: input.deactivateLeavers,
      dniLength: input.dniLength,
      // This job runs in the server's process: every request waits for each chunk, so they are short.
      chunkMs: SERVER_CHUNK_MS,
      onProgress: (step, done, total) => progress(done, total, PROGRESS_LABELS[step]),
    };
    /** A new preview to confirm instead (the diners changed, or another import was writing). */
    const offerAgain = async (preview: DinerImportPreview, reason: Message, cause: unknown): Promise<never> => {
      const plans = await plansOf(db, context, sheet, options, preview);
      if (previewConfirmable(preview)) keepUpload();
      throw new JobFailed(reason, { preview, plans }, { cause });
    };

    if (input.step === "preview") {
      // The check yields to the event loop every thousand rows, so sales in this process are not held up.
      const preview = await previewDinerImportAsync(db, scope, sheet, options);
      if (preview.problemCount > 0) throw new JobFailed(message(IMPORT_FAILED), { preview });
      const plans = await plansOf(db, context, sheet, options, preview);
      if (previewConfirmable(preview)) keepUpload();
      return { preview, plans };
    }

    if (!input.plan) throw new Error("a diner import is applied with the plan its owner confirmed");
    try {
      const { counts, importId } = await importDiners(db, actor, scope, sheet, {
        ...options,
        expectedPlan: input.plan,
        source,
      });
      return { counts, importId };
    } catch (error) {
      if (error instanceof PlanChanged)
        return await offerAgain(error.plan as DinerImportPreview, message(PLAN_CHANGED), error);
      if (error instanceof ImportRefused)
        throw new JobFailed(message(IMPORT_FAILED), { preview: error.plan as DinerImportPreview }, { cause: error });
      // Another import is writing: nothing was written, and this one may be confirmed again once it is done.
      if (error instanceof Conflict)
        return await offerAgain(await previewDinerImportAsync(db, scope, sheet, options), error.detail, error);
      throw error;
    }
  },
};
