/**
 * The record of a background job (db/schema/jobs.ts): created queued by the person who starts it, marked running,
 * its progress recorded as it goes, and finished as succeeded (with a result) or failed (with a message, and a
 * result when there is something to show, such as the rows to fix). A job belongs to who started it: the lookups a
 * page or route uses take that user's id, and another user's job reads as not found.
 *
 * Uploaded files a job reads are kept under STORAGE_PATH/jobs, never in a public folder, and deleted when the job
 * ends (or at the next start-up, when the process running it stopped). A job may keep its upload past its end for
 * its owner to confirm the next step (a previewed import): the upload then stays on the finished job for at most
 * UPLOAD_KEPT_MS, is handed to the job that confirms it (`takeKeptUpload`), and is deleted when the owner dismisses
 * the job, uploads another file of its kind, or the time is up (`sweepKeptUploads`).
 */
import { and, desc, eq, inArray, isNotNull, lt } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jobs, type JobState } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import type { Scope } from "../access/scope";
import type { Actor } from "../audit";
import { isTranslationKey, type TranslationKey } from "../../shared/i18n";
import { NotFound } from "../errors";
import { message, type Message } from "../../shared/message";
import { boundNumber, boundText } from "../search";
import type { JobProgress } from "../../shared/jobs";
import { liveProcesses } from "./processes";
export type { JobProgress } from "../../shared/jobs";

export type { JobState };

/** A job as Mesa reads it: its record with the JSON columns parsed. */
export interface Job {
  id: number;
  kind: string;
  userId: number;
  actor: Actor;
  scope: Scope;
  input: unknown;
  upload: string | null;
  state: JobState;
  progress: JobProgress;
  result: unknown;
  error: Message | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  dismissedAt: Date | null;
}

/** The message of a job whose process stopped before it finished. */
export const INTERRUPTED = "jobs.interrupted" satisfies TranslationKey;
/** The message of a job whose code failed unexpectedly (the details go to the server log). */
export const CRASHED = "jobs.crashed" satisfies TranslationKey;

/** A finished job: succeeded or failed. */
export function isFinished(state: JobState): boolean {
  return state === "succeeded" || state === "failed";
}

function scopeToJson(scope: Scope): string {
  return JSON.stringify({
    all: scope.all,
    cafeIds: [...scope.cafeIds],
    headquartersIds: [...scope.headquartersIds],
    businessIds: [...scope.businessIds],
  });
}

function scopeFromJson(text: string): Scope {
  const s = JSON.parse(text) as { all: boolean; cafeIds: number[]; headquartersIds: number[]; businessIds: number[] };
  return {
    all: s.all,
    cafeIds: new Set(s.cafeIds),
    headquartersIds: new Set(s.headquartersIds),
    businessIds: new Set(s.businessIds),
  };
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function toJob(row: typeof jobs.$inferSelect): Job {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.userId,
    actor: { userId: row.userId, label: row.actorLabel },
    scope: scopeFromJson(row.scope),
    input: JSON.parse(row.input),
    upload: row.upload,
    state: row.state,
    progress: {
      done: row.progressDone,
      total: row.progressTotal,
      label: isTranslationKey(row.progressLabel) ? row.progressLabel : "",
    },
    result: parse(row.result),
    // The keys were written by Mesa's code; one no longer in the dictionaries reads as the job having crashed.
    error:
      row.errorKey === null
        ? null
        : message(
            isTranslationKey(row.errorKey) ? row.errorKey : CRASHED,
            (parse(row.errorParams) as Record<string, string | number> | null) ?? undefined,
          ),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    dismissedAt: row.dismissedAt,
  };
}

/** What starting a job needs: its kind, who starts it (a signed-in user) with their scope, its input and any upload it owns. */
export interface NewJob {
  kind: string;
  actor: Actor & { userId: number };
  scope: Scope;
  input: unknown;
  upload?: string | null;
  /** The server process that will run it (src/domain/jobs/processes.ts). */
  processId?: string | null;
}

/** Records a new queued job and returns it. */
export function createJob(db: Db, job: NewJob, now = new Date()): Job {
  const row = db
    .insert(jobs)
    .values({
      kind: job.kind,
      userId: job.actor.userId,
      actorLabel: job.actor.label,
      scope: scopeToJson(job.scope),
      input: JSON.stringify(job.input),
      upload: job.upload ?? null,
      state: "queued",
      createdAt: now,
      processId: job.processId ?? null,
    })
    .returning()
    .get();
  return toJob(row);
}

/** The job with this id, whoever started it, or null. */
export function findJob(db: Db, id: number): Job | null {
  const row = db.select().from(jobs).where(eq(jobs.id, id)).get();
  return row ? toJob(row) : null;
}

/** The job with this id when `userId` started it; anyone else's job, like a missing one, throws NotFound. */
export function findOwnJob(db: Db, userId: number, id: number): Job {
  const row = db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.userId, userId)))
    .get();
  if (!row) throw new NotFound();
  return toJob(row);
}

/** The latest job of `kind` that `userId` started, unless they dismissed it, or null: what a page shows when they come back. */
export function latestJob(db: Db, userId: number, kind: string): Job | null {
  const row = latestJobQuery(db).get({ user: userId, kind });
  return row && row.dismissedAt === null ? toJob(row) : null;
}

/** Read on every visit of a page that shows its import (Management): prepared once per connection. */
const latestJobQuery = preparedQuery((db: Db) =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, boundNumber("user")), eq(jobs.kind, boundText("kind"))))
    .orderBy(desc(jobs.id))
    .limit(1)
    .prepare(),
);

/** Marks a queued job running. */
export function markRunning(db: Db, id: number, now = new Date()): void {
  db.update(jobs)
    .set({ state: "running", startedAt: now })
    .where(and(eq(jobs.id, id), eq(jobs.state, "queued")))
    .run();
}

/** Records the progress of a running job (a finished job keeps what it had). */
export function recordProgress(db: Db, id: number, progress: JobProgress): void {
  db.update(jobs)
    .set({ progressDone: progress.done, progressTotal: progress.total, progressLabel: progress.label })
    .where(and(eq(jobs.id, id), eq(jobs.state, "running")))
    .run();
}

/** Marks a job succeeded with its result. */
export function markSucceeded(db: Db, id: number, result: unknown, now = new Date()): void {
  db.update(jobs)
    .set({ state: "succeeded", result: JSON.stringify(result ?? null), finishedAt: now })
    .where(eq(jobs.id, id))
    .run();
}

/** Marks a job failed with the message that says why, and a result when there is something to show. */
export function markFailed(db: Db, id: number, error: Message, result: unknown = null, now = new Date()): void {
  const { key, params } = typeof error === "string" ? { key: error, params: undefined } : error;
  db.update(jobs)
    .set({
      state: "failed",
      errorKey: key,
      errorParams: params ? JSON.stringify(params) : null,
      result: result === null ? null : JSON.stringify(result),
      finishedAt: now,
    })
    .where(eq(jobs.id, id))
    .run();
}

/** Hides a finished job from its owner's page, until they start another of its kind; an upload it kept is deleted. */
export function dismissJob(db: Db, userId: number, id: number, now = new Date()): void {
  const job = findOwnJob(db, userId, id);
  if (!isFinished(job.state)) return;
  db.update(jobs).set({ dismissedAt: now, upload: null }).where(eq(jobs.id, id)).run();
  removeUpload(job.upload);
}

// ---------------------------------------------------------------------------------------------------------------
// Uploads and start-up

/** The folder of uploaded files that jobs read: STORAGE_PATH/jobs, outside anything the web server serves. */
export function uploadsFolder(storagePath: string): string {
  return join(storagePath, "jobs");
}

/** Keeps an uploaded file for a job under a name Mesa chooses (readable by Mesa's user only); returns its path. */
export function storeUpload(storagePath: string, bytes: Uint8Array, extension: string): string {
  const folder = uploadsFolder(storagePath);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, `${randomUUID()}.${extension}`);
  writeFileSync(path, bytes, { mode: 0o600 });
  return path;
}

/** Deletes a job's uploaded file; one already gone is fine. */
export function removeUpload(path: string | null): void {
  if (path !== null) rmSync(path, { force: true });
}

/** Deletes the upload of a job and forgets it on the job's record. */
export function dropUpload(db: Db, id: number, path: string | null): void {
  if (path === null) return;
  db.update(jobs).set({ upload: null }).where(eq(jobs.id, id)).run();
  removeUpload(path);
}

/**
 * Jobs a stopped process left queued or running can never finish: those whose process is gone (no row in
 * `processes`, or a lease that ran out; and those recorded before jobs had a process) are marked failed with a
 * message that says so, and their uploads are deleted; so are kept uploads whose time is up. A live server's jobs
 * are left alone, so two servers on one database keep each other's jobs. Run at start-up and on every heartbeat.
 * Returns how many jobs were marked failed.
 */
export function failInterruptedJobs(db: Db, now = new Date()): number {
  const alive = new Set(liveProcesses(db, now).map((p) => p.id));
  const stopped = db.transaction((tx) => {
    const orphaned = tx
      .select({ id: jobs.id, upload: jobs.upload, processId: jobs.processId })
      .from(jobs)
      .where(inArray(jobs.state, ["queued", "running"]))
      .all()
      .filter((job) => job.processId === null || !alive.has(job.processId));
    if (orphaned.length)
      tx.update(jobs)
        .set({ state: "failed", errorKey: INTERRUPTED, errorParams: null, finishedAt: now, upload: null })
        .where(
          and(
            inArray(jobs.state, ["queued", "running"]),
            inArray(
              jobs.id,
              orphaned.map((job) => job.id),
            ),
          ),
        )
        .run();
    return orphaned;
  });
  for (const job of stopped) removeUpload(job.upload);
  sweepKeptUploads(db, now);
  return stopped.length;
}

// ---------------------------------------------------------------------------------------------------------------
// Uploads kept for a confirmation

/** How long a finished job keeps its upload for its owner to confirm the next step: 30 minutes. */
export const UPLOAD_KEPT_MS = 30 * 60 * 1000;

/** When the upload a finished job kept is deleted, or null when it kept none (or is not finished). */
export function uploadExpiresAt(job: Pick<Job, "state" | "upload" | "finishedAt">): Date | null {
  if (!isFinished(job.state) || job.upload === null || job.finishedAt === null) return null;
  return new Date(job.finishedAt.getTime() + UPLOAD_KEPT_MS);
}

/** Whether a finished job still holds an upload that may be confirmed now. */
export function holdsUpload(job: Pick<Job, "state" | "upload" | "finishedAt">, now = new Date()): boolean {
  const expires = uploadExpiresAt(job);
  return expires !== null && expires.getTime() > now.getTime();
}

/**
 * Hands the upload a finished job kept to whoever confirms it (the caller checked the job is the person's own):
 * the job no longer holds it, and its path is returned; null when it holds none or its time is up (then it is
 * deleted).
 */
export function takeKeptUpload(db: Db, job: Job, now = new Date()): string | null {
  if (!isFinished(job.state) || job.upload === null) return null;
  db.update(jobs).set({ upload: null }).where(eq(jobs.id, job.id)).run();
  if (holdsUpload(job, now)) return job.upload;
  removeUpload(job.upload);
  return null;
}

/** Deletes the uploads `userId`'s finished jobs of `kind` kept (they upload a new file: one waits at a time). */
export function releaseKeptUploads(db: Db, userId: number, kind: string): void {
  const kept = db
    .select({ id: jobs.id, upload: jobs.upload })
    .from(jobs)
    .where(
      and(
        eq(jobs.userId, userId),
        eq(jobs.kind, kind),
        inArray(jobs.state, ["succeeded", "failed"]),
        isNotNull(jobs.upload),
      ),
    )
    .all();
  for (const job of kept) {
    db.update(jobs).set({ upload: null }).where(eq(jobs.id, job.id)).run();
    removeUpload(job.upload);
  }
}

/** Deletes the uploads finished jobs kept longer than UPLOAD_KEPT_MS. Returns how many. */
export function sweepKeptUploads(db: Db, now = new Date()): number {
  const expired = db
    .select({ id: jobs.id, upload: jobs.upload })
    .from(jobs)
    .where(
      and(
        inArray(jobs.state, ["succeeded", "failed"]),
        isNotNull(jobs.upload),
        lt(jobs.finishedAt, new Date(now.getTime() - UPLOAD_KEPT_MS)),
      ),
    )
    .all();
  for (const job of expired) {
    db.update(jobs).set({ upload: null }).where(eq(jobs.id, job.id)).run();
    removeUpload(job.upload);
  }
  return expired.length;
}
