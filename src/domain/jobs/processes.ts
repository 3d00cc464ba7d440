/**
 * Which Mesa servers run on this database. Each server registers itself when it starts, renews its lease every
 * PROCESS_HEARTBEAT_MS while it runs and removes its row when it stops gracefully. The jobs a server runs carry its
 * id, so that another server — at its start-up or on its own heartbeat — fails only the jobs whose process is gone
 * (no row, or a lease older than PROCESS_LEASE_MS), never those of a live neighbour. `./mesa db:restore` refuses
 * while a server is alive.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { eq, gt } from "drizzle-orm";
import { processes } from "../../../db/schema";
import type { Db } from "../../db";

/** How often a running server renews its lease. */
export const PROCESS_HEARTBEAT_MS = 5_000;
/** A server whose lease is older than this is gone (three missed heartbeats). */
export const PROCESS_LEASE_MS = 15_000;

export interface MesaProcess {
  id: string;
  pid: number;
  hostname: string;
  address: string;
  startedAt: Date;
  seenAt: Date;
}

/** Records this process as a running server listening at `address`; returns its id. */
export function registerProcess(db: Db, address: string, now = new Date()): string {
  const id = randomUUID();
  db.insert(processes)
    .values({ id, pid: process.pid, hostname: hostname(), address, startedAt: now, seenAt: now })
    .run();
  return id;
}

/**
 * Renews the lease. A row that is gone (another process took this one for dead, after a long pause) is written
 * again: the process is alive, and its jobs are whatever state the other process left them in.
 */
export function renewLease(db: Db, id: string, address: string, now = new Date()): void {
  const renewed = db.$client.query("UPDATE processes SET seen_at = ? WHERE id = ?").run(now.getTime(), id).changes;
  if (renewed === 0)
    db.insert(processes)
      .values({ id, pid: process.pid, hostname: hostname(), address, startedAt: now, seenAt: now })
      .run();
}

/** Removes the process's row (a graceful stop). */
export function endProcess(db: Db, id: string): void {
  db.delete(processes).where(eq(processes.id, id)).run();
}

/** The servers whose lease is current. */
export function liveProcesses(db: Db, now = new Date()): MesaProcess[] {
  return db
    .select()
    .from(processes)
    .where(gt(processes.seenAt, new Date(now.getTime() - PROCESS_LEASE_MS)))
    .all();
}

/** Forgets the servers whose lease ran out; returns how many. */
export function forgetGoneProcesses(db: Db, now = new Date()): number {
  return db.$client.query("DELETE FROM processes WHERE seen_at <= ?").run(now.getTime() - PROCESS_LEASE_MS).changes;
}
