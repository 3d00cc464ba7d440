/**
 * Workbooks a background job writes for the person who asked (the sales report, what to buy): one at a time per
 * person, into a file reserved for the job under STORAGE_PATH/jobs, and downloaded only by that person while the job
 * keeps it (until they dismiss it, ask for another, or UPLOAD_KEPT_MS is up).
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
  const userId = ctx.user!.id;
  // One at a time per person: the files waiting for their turn stay few.
  const current = latestJob(ctx.db, userId, kind);
  if (current && !isFinished(current.state)) throw new ValidationFailed({ form: busy });
  releaseKeptUploads(ctx.db, userId, kind);
  const path = storeUpload(ctx.config.storagePath, new Uint8Array(0), "xlsx");
  try {
    return ctx.services.jobs.start({
      kind,
      actor: { userId, label: ctx.actor.label },
      scope: ctx.scope,
      input: inputFor(path),
      upload: path,
    });
  } catch (error) {
    removeUpload(path);
    throw error;
  }
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
