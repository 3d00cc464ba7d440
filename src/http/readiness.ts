/**
 * Readiness (`GET /ready`), for a load balancer or a supervisor: whether this Mesa can do its work now, not only
 * whether it runs (`/up`). It is ready when the database answers and takes the write lock and no write failed
 * lately for want of room, when the disk has at least MIN_FREE_DISK_MB free, and when the jobs move (no running
 * job silent for JOB_SILENT_MS).
 */
import { beginImmediate, isDatabaseReachable } from "../db";
import type { AppServices } from "./context";

/** A running job that reports no progress for this long counts as stuck. */
export const JOB_SILENT_MS = 10 * 60_000;
/** How long the check waits for the write lock (a diner import's chunk holds it for tens of milliseconds). */
const LOCK_WAIT_MS = 500;

export interface Readiness {
  ready: boolean;
  database: { ok: boolean; reason: "ok" | "unreachable" | "locked" | "writes_failing" };
  disk: { ok: boolean; freeMib: number | null; thresholdMib: number };
  jobs: { ok: boolean; running: number; queued: number };
}

/** Whether the write lock can be had now (a transaction of this connection under way already has it). */
function takesWriteLock(services: AppServices): boolean {
  const client = services.db.$client;
  if (client.inTransaction) return true;
  try {
    beginImmediate(client, LOCK_WAIT_MS);
    client.exec("ROLLBACK");
    return true;
  } catch {
    return false;
  }
}

export function readiness(services: AppServices): Readiness {
  const reachable = isDatabaseReachable(services.db);
  const reason = !reachable
    ? "unreachable"
    : services.storage.failingWrites
      ? "writes_failing"
      : takesWriteLock(services)
        ? "ok"
        : "locked";
  const disk = services.storage.disk();
  const mib = (bytes: number) => Math.floor(bytes / 1048576);
  const jobs = services.jobs.health();
  const result = {
    database: { ok: reason === "ok", reason },
    disk: {
      ok: disk.ok,
      freeMib: disk.freeBytes === null ? null : mib(disk.freeBytes),
      thresholdMib: mib(disk.thresholdBytes),
    },
    jobs: { ok: jobs.quietestMs < JOB_SILENT_MS, running: jobs.running, queued: jobs.queued },
  } satisfies Omit<Readiness, "ready">;
  return { ready: result.database.ok && result.disk.ok && result.jobs.ok, ...result };
}
