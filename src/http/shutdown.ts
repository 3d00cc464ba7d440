/**
 * A graceful stop (SIGTERM, SIGINT): Mesa stops accepting connections at once, answers every request already in
 * flight, closes the realtime sockets with 4200 (the Pusher protocol's "reconnect at once", so the tills come back
 * to the next server without waiting), starts no more jobs and lets the running ones end, all within a grace
 * period (SHUTDOWN_GRACE_SECONDS). What is still running when it ends is cut: a request gets no answer and a job
 * is left for the next start-up, which fails it (and undoes a diner import it left half-written). Every write is a
 * transaction, so stopping between two of them is always safe.
 */
import type { Db } from "../db";
import type { JobRunner } from "../domain/jobs/runner";
import type { EmbeddedPusherServer } from "../realtime/embedded-server";

/** What a graceful stop needs of the running Mesa. */
export interface Running {
  /** Bun's server: `stop()` stops listening and resolves once the requests in flight are answered. */
  server: { stop(closeActiveConnections?: boolean): Promise<void>; readonly pendingRequests: number };
  realtime: Pick<EmbeddedPusherServer, "stop" | "connectionCount"> | null;
  jobs: Pick<JobRunner, "stop" | "runningCount">;
  db: Db;
  /** Called once nothing runs any more, before the database is closed: the process gives up its lease. */
  leave?: () => void;
}

/** What the stop did, for its log line. */
export interface StopReport {
  /** The grace period ran out before everything ended. */
  timedOut: boolean;
  /** Requests still unanswered when the grace period ran out (their connections were closed). */
  requestsCut: number;
  /** Jobs still running when it ran out, and jobs that were queued and never started. */
  jobsLeft: number;
  jobsQueued: number;
  /** Realtime connections closed. */
  socketsClosed: number;
  ms: number;
}

export async function stopGracefully(running: Running, graceMs: number): Promise<StopReport> {
  const started = performance.now();
  const answered = running.server.stop(false);
  const socketsClosed = running.realtime?.connectionCount ?? 0;
  running.realtime?.stop();
  let jobsQueued = 0;
  const jobsEnded = running.jobs.stop().then((queued) => {
    jobsQueued = queued;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const graceOver = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
  const outcome = await Promise.race([Promise.all([answered, jobsEnded]).then(() => "done" as const), graceOver]);
  clearTimeout(timer);
  let requestsCut = 0;
  if (outcome === "timeout") {
    requestsCut = running.server.pendingRequests;
    await running.server.stop(true);
  }
  const jobsLeft = running.jobs.runningCount;
  // Closed only when nothing uses it any more (a job cut mid-way may still hold it; exiting is safe all the same).
  if (jobsLeft === 0) {
    running.leave?.();
    running.db.$client.close();
  }
  return {
    timedOut: outcome === "timeout",
    requestsCut,
    jobsLeft,
    jobsQueued,
    socketsClosed,
    ms: Math.round(performance.now() - started),
  };
}

/** The stop as one log line. */
export function describeStop(report: StopReport): string {
  const parts = [`Mesa stopped in ${report.ms} ms`];
  if (report.socketsClosed) parts.push(`${report.socketsClosed} realtime connection(s) told to reconnect`);
  if (report.timedOut) parts.push(`the grace period ran out: ${report.requestsCut} request(s) left unanswered`);
  if (report.jobsLeft) parts.push(`${report.jobsLeft} running job(s) left for the next start-up to fail`);
  if (report.jobsQueued) parts.push(`${report.jobsQueued} queued job(s) not started`);
  return parts.join("; ");
}
