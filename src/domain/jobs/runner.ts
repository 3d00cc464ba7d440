/**
 * Running background jobs in the app process. A page starts a job (`JobRunner.start`): it is recorded queued and
 * the request is answered at once; the runner then runs at most two jobs at a time, in the order they were started,
 * each with the actor and scope of who started it. Progress is recorded on the job and announced to its owner as a
 * `JobUpdated` domain event (the realtime subscriber sends it to their private channel), at most every 250 ms and
 * whenever the label changes; so are the start and the end. No queue lives outside SQLite and this process: a job
 * still queued or running when the process stops is marked failed at the next start-up (failInterruptedJobs).
 *
 * A job's code (`JobHandler`) is shared with the command line, which runs it in its own process with a progress bar
 * (cli/progress.ts) instead of a record.
 */
import type { Db } from "../../db";
import type { Scope } from "../access/scope";
import type { Actor } from "../audit";
import type { Message } from "../../shared/message";
import type { DomainEvent } from "../events";
import {
  createJob,
  CRASHED,
  findJob,
  markFailed,
  markRunning,
  markSucceeded,
  recordProgress,
  dropUpload,
  sweepKeptUploads,
  UPLOAD_KEPT_MS,
  type Job,
  type JobProgress,
  type NewJob,
} from "./jobs";
import type { TranslationKey } from "../../shared/i18n";
import { log } from "../../log";

/** What a job's code receives: the database, who started it (actor and scope), its input, and where to report progress. */
export interface JobContext<I> {
  db: Db;
  actor: Actor;
  scope: Scope;
  input: I;
  /**
   * Reports progress: `done` of `total`, `label` a translation key saying what is being done. Cheap, and safe to
   * call from synchronous code inside a transaction: it is recorded and announced once the event loop is free.
   */
  progress(done: number, total: number, label: TranslationKey): void;
  /** Records and announces the latest progress now, before a long synchronous step keeps the process busy. */
  checkpoint(): Promise<void>;
  /**
   * Keeps the job's upload when it ends, for its owner to confirm the next step (jobs.ts: at most UPLOAD_KEPT_MS,
   * then it is deleted). Without this call the upload is deleted when the job ends.
   */
  keepUpload(): void;
}

/** The code of one kind of job: `run` returns its result (JSON), or throws JobFailed when it cannot do the work. */
export interface JobHandler<I = any, R = unknown> {
  kind: string;
  run(context: JobContext<I>): Promise<R>;
}

/** A failure the job's code expected (a refused file, rows to fix): the job fails with this message and result. */
export class JobFailed extends Error {
  constructor(
    readonly error: Message,
    readonly result: unknown = null,
    options?: { cause?: unknown },
  ) {
    super(typeof error === "string" ? error : error.key, options);
  }
}

/** At most this many jobs run at once; the others wait in the order they were started. */
export const MAX_RUNNING = 2;
/** Progress is recorded and announced at most this often (and whenever its label changes). */
const PROGRESS_INTERVAL_MS = 250;
/** How long `checkpoint()` waits for the announcement to leave before the job goes on anyway. */
const CHECKPOINT_WAIT_MS = 250;

/** Announces a job's state and progress to its owner; resolves once the subscribers are done (failures are theirs to report). */
export type JobNotifier = (event: DomainEvent<"JobUpdated">) => Promise<void>;

function updated(job: Pick<Job, "id" | "userId" | "kind" | "state" | "progress">): DomainEvent<"JobUpdated"> {
  return {
    name: "JobUpdated",
    jobId: job.id,
    userId: job.userId,
    kind: job.kind,
    state: job.state,
    progress: job.progress,
  };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly queue: number[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private stopping = false;
  /** The server process running this runner's jobs (src/domain/jobs/processes.ts), once it is registered. */
  processId: string | null = null;
  /** When each running job last reported progress (or started), for the readiness check. */
  private readonly activity = new Map<number, number>();

  constructor(
    private readonly db: Db,
    handlers: JobHandler[],
    private readonly notify: JobNotifier,
  ) {
    for (const handler of handlers) this.handlers.set(handler.kind, handler);
  }

  /** Records a job for the signed-in person who starts it, queues it and returns it (queued); the caller answers at once. */
  start(job: NewJob): Job {
    if (!this.handlers.has(job.kind)) throw new Error(`no job handler for "${job.kind}"`);
    this.sweep();
    const created = createJob(this.db, { ...job, processId: this.processId });
    void this.announce(created);
    this.queue.push(created.id);
    // Started on the next turn of the event loop, so the request that queued it is answered first.
    setTimeout(() => this.pump(), 0);
    return created;
  }

  /** Resolves once no job is queued or running. */
  idle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * For a graceful stop: starts no more jobs (those still queued stay queued, and the next start-up fails them as
   * left unfinished) and resolves once the running ones have ended. Resolves with how many were still queued.
   */
  async stop(): Promise<number> {
    this.stopping = true;
    const queued = this.queue.length;
    this.queue.length = 0;
    await this.idle();
    return queued;
  }

  /** How many jobs run now. */
  get runningCount(): number {
    return this.running;
  }

  /**
   * Whether the jobs move, for the readiness check: how many run and wait, and how long the quietest running job
   * has gone without reporting progress.
   */
  health(now = Date.now()): { running: number; queued: number; quietestMs: number } {
    let quietestMs = 0;
    for (const at of this.activity.values()) quietestMs = Math.max(quietestMs, now - at);
    return { running: this.running, queued: this.queue.length, quietestMs };
  }

  private pump(): void {
    while (!this.stopping && this.running < MAX_RUNNING && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.running++;
      this.execute(id)
        .catch((error) => log.error({ err: error, job: id }, "a job could not be run"))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.queue.length === 0) {
            for (const resolve of this.idleWaiters.splice(0)) resolve();
          }
        });
    }
  }

  /** Deletes the uploads finished jobs kept past their time (also at start-up and a while after each is kept). */
  private sweep(): void {
    try {
      sweepKeptUploads(this.db);
    } catch (error) {
      log.error({ err: error }, "deleting expired job uploads failed");
    }
  }

  /** Announces without waiting; the notifier reports its own failures. */
  private announce(job: Pick<Job, "id" | "userId" | "kind" | "state" | "progress">): Promise<void> {
    return this.notify(updated(job)).catch((error) => log.warn({ err: error, job: job.id }, "announcing a job failed"));
  }

  /** Runs one job from its record to its end; whatever happens, the job ends succeeded or failed and its upload is deleted. */
  private async execute(id: number): Promise<void> {
    const job = findJob(this.db, id);
    if (!job || job.state !== "queued") return;
    const handler = this.handlers.get(job.kind)!;
    markRunning(this.db, id);
    this.activity.set(id, Date.now());
    void this.announce({ ...job, state: "running" });

    let latest: JobProgress = job.progress;
    let announced = latest;
    let announcedAt = 0;
    let scheduled: ReturnType<typeof setTimeout> | null = null;
    let finished = false;
    let keep = false;
    // Records and announces the latest progress, unless the job has ended or nothing changed since the last time.
    const flush = (): Promise<void> => {
      if (scheduled) clearTimeout(scheduled);
      scheduled = null;
      if (finished || latest === announced) return Promise.resolve();
      announced = latest;
      announcedAt = Date.now();
      recordProgress(this.db, id, latest);
      return this.announce({ ...job, state: "running", progress: latest });
    };
    const context: JobContext<unknown> = {
      db: this.db,
      actor: job.actor,
      scope: job.scope,
      input: job.input,
      progress: (done, total, label) => {
        latest = { done, total, label };
        this.activity.set(id, Date.now());
        if (scheduled) return;
        // Never written here: this may run inside the job's own transaction.
        const wait = label === announced.label ? Math.max(0, PROGRESS_INTERVAL_MS - (Date.now() - announcedAt)) : 0;
        scheduled = setTimeout(() => void flush(), wait);
      },
      checkpoint: () => Promise.race([flush(), pause(CHECKPOINT_WAIT_MS)]),
      keepUpload: () => {
        keep = job.upload !== null;
      },
    };

    let outcome: { result: unknown } | { error: Message; result: unknown };
    try {
      outcome = { result: await handler.run(context) };
    } catch (error) {
      if (error instanceof JobFailed) outcome = { error: error.error, result: error.result };
      else {
        log.error({ err: error, job: id, kind: job.kind }, "a job failed");
        outcome = { error: CRASHED, result: null };
      }
    }
    finished = true;
    this.activity.delete(id);
    if (scheduled) clearTimeout(scheduled);
    recordProgress(this.db, id, latest);
    try {
      if ("error" in outcome) markFailed(this.db, id, outcome.error, outcome.result);
      else markSucceeded(this.db, id, outcome.result);
    } catch (error) {
      // A result that cannot be stored (not JSON) is the job's crash too.
      log.error({ err: error, job: id, kind: job.kind }, "a job's result could not be recorded");
      markFailed(this.db, id, CRASHED);
    }
    // A crash never keeps the upload: nothing was offered to confirm.
    if (keep && !("error" in outcome && outcome.error === CRASHED)) {
      // Deleted once its time is up, unless confirmed or dismissed first (the timer does not hold the process open).
      setTimeout(() => this.sweep(), UPLOAD_KEPT_MS + 1000).unref?.();
    } else {
      try {
        dropUpload(this.db, id, job.upload);
      } catch (error) {
        log.error({ err: error, job: id }, "a job's upload could not be deleted");
      }
    }
    void this.announce(findJob(this.db, id)!);
  }
}
