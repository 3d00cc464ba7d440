/**
 * Workbooks and the background jobs of one person, both ways:
 * - a workbook a job writes for the person who asked (the sales report, what to buy): one at a time per person,
 *   into a file reserved for the job under STORAGE_PATH/jobs, and downloaded only by that person while the job
 *   keeps it (until they dismiss it, ask for another, or UPLOAD_KEPT_MS is up);
 * - a spreadsheet a person uploads to import (places, diners, dishes): one import at a time per person, its file
 *   kept for the job while its preview waits to be confirmed, and only that person's own job confirmed.
 */
import { statSync } from "node:fs";
import { NotFound, ValidationFailed } from "../domain/errors";
import {
  findOwnJob,
  holdsUpload,
  isFinished,
  latestJob,
  releaseKeptUploads,
  removeUpload,
  storeUpload,
  type Job,
} from "../domain/jobs/jobs";
import type { Message } from "../shared/message";
import type { RequestContext } from "./context";

/** The format of a `{job}` parameter: a positive whole number. */
export const JOB_ID = "[1-9]\\d{0,15}";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The signed-in person's own `kind` job with this id, or null (someone else's reads as none, like a missing one). */
export function ownJob(ctx: RequestContext, kind: string, id: number): Job | null {
  try {
    const job = findOwnJob(ctx.db, ctx.user!.id, id);
    return job.kind === kind ? job : null;
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

/** Refuses, on `field` with `busy`, a new `kind` job while the person's last one is still queued or running. */
export function requireNoJobRunning(ctx: RequestContext, kind: string, field: string, busy: Message): void {
  const current = latestJob(ctx.db, ctx.user!.id, kind);
  if (current && !isFinished(current.state)) throw new ValidationFailed({ [field]: busy });
}

/**
 * Keeps an uploaded file for a new `kind` import under STORAGE_PATH/jobs and returns its path. One file waits for
 * confirmation at a time: the person's preview not confirmed yet is dropped with its file.
 */
export function keepUpload(ctx: RequestContext, kind: string, bytes: Uint8Array, extension: string): string {
  releaseKeptUploads(ctx.db, ctx.user!.id, kind);
  return storeUpload(ctx.config.storagePath, bytes, extension);
}

/** Starts a `kind` job for the signed-in person on the file `upload`, deleted if the job cannot be started. */
export function startJobOn<I>(ctx: RequestContext, kind: string, input: I, upload: string): Job {
  try {
    return ctx.services.jobs.start({
      kind,
      actor: { userId: ctx.user!.id, label: ctx.actor.label },
      scope: ctx.scope,
      input,
      upload,
    });
  } catch (error) {
    removeUpload(upload);
    throw error;
  }
}

/**
 * Starts a `kind` job writing a workbook for the signed-in person, with the input `inputFor` makes for the file
 * reserved for it. While their last one has not finished, it is refused on the `form` field with `busy`; their last
 * finished one's file makes way for this one's.
 */
export function startWorkbookJob<I>(
  ctx: RequestContext,
  kind: string,
  busy: Message,
  inputFor: (path: string) => I,
): Job {
  // One at a time per person: the files waiting for their turn stay few.
  requireNoJobRunning(ctx, kind, "form", busy);
  const path = keepUpload(ctx, kind, new Uint8Array(0), "xlsx");
  return startJobOn(ctx, kind, inputFor(path), path);
}

/**
 * The workbook of the `{job}` parameter as a download: only the person's own finished `kind` job, while its file is
 * kept (the job's result names the file); anything else reads as missing (NotFound).
 */
export function workbookDownload(ctx: RequestContext, kind: string): Response {
  const job = findOwnJob(ctx.db, ctx.user!.id, Number(ctx.params.job));
  if (job.kind !== kind || job.state !== "succeeded" || !holdsUpload(job)) throw new NotFound();
  const path = job.upload!;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new NotFound();
  }
  const { fileName } = job.result as { fileName: string };
  return new Response(Bun.file(path), {
    headers: {
      "content-type": XLSX_TYPE,
      "content-length": String(size),
      "content-disposition": `attachment; filename="${fileName.replace(/[^\w.-]/g, "_")}"`,
      "cache-control": "no-store",
    },
  });
}
