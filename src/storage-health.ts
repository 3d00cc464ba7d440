/**
 * The disk under the database, watched: how much room is left, whether writes fail for want of it, and a log that
 * says so once a minute rather than once a request. A full disk makes SQLite refuse writes with SQLITE_FULL (or an
 * I/O error on write): those become 503 with a clear message (src/http/errors.ts), nothing half-written (every
 * write is a transaction), and writes succeed again by themselves as soon as there is room.
 */
import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import { log as processLog } from "./log";

/** The error codes that mean the disk (or the quota) is full, from SQLite and from the system. */
const FULL_CODES = new Set([
  "SQLITE_FULL",
  "SQLITE_IOERR_WRITE",
  "SQLITE_IOERR_FSYNC",
  "SQLITE_IOERR_SHMSIZE",
  "ENOSPC",
  "EDQUOT",
]);

/** True when `error` (or its cause) says the disk is full. */
export function isStorageFull(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | null | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === "string" && FULL_CODES.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** How long a write failure keeps the database "not accepting writes" for the readiness check. */
export const FAILURE_MEMORY_MS = 30_000;
/** At most one log line about a full disk per this long. */
export const LOG_EVERY_MS = 60_000;
/** How long a reading of the free space is reused. */
const FREE_SPACE_TTL_MS = 2_000;

export interface DiskReading {
  /** Bytes free for Mesa on the database's file system, or null when it cannot be read. */
  freeBytes: number | null;
  /** The threshold (MIN_FREE_DISK_MB) below which the disk counts as nearly full. */
  thresholdBytes: number;
  ok: boolean;
}

export class StorageWatch {
  private lastFailureAt = -Infinity;
  private loggedAt = -Infinity;
  private unlogged = 0;
  private reading: { at: number; free: number | null } | null = null;

  constructor(
    /** The database file (":memory:" has no disk: its reading is always fine). */
    private readonly dbPath: string,
    private readonly thresholdBytes: number,
    private readonly log: (line: string) => void = (line) => processLog.error(line),
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Records a write that failed for want of room: logged at once the first time in a minute, then counted, and the
   * count logged with the next line.
   */
  failed(where: string): void {
    const now = this.now();
    this.lastFailureAt = now;
    this.reading = null;
    if (now - this.loggedAt < LOG_EVERY_MS) {
      this.unlogged++;
      return;
    }
    const more = this.unlogged ? ` (and ${this.unlogged} more refused since the last line)` : "";
    this.log(
      `[${new Date(now).toISOString()}] The disk under ${this.dbPath} is full: ${where} was refused with 503${more}. ` +
        `Free some room; Mesa resumes by itself.`,
    );
    this.loggedAt = now;
    this.unlogged = 0;
  }

  /** Whether a write failed for want of room lately (FAILURE_MEMORY_MS). */
  get failingWrites(): boolean {
    return this.now() - this.lastFailureAt < FAILURE_MEMORY_MS;
  }

  /** The free space on the database's file system against the threshold. */
  disk(): DiskReading {
    if (this.dbPath === ":memory:") return { freeBytes: null, thresholdBytes: this.thresholdBytes, ok: true };
    const now = this.now();
    if (!this.reading || now - this.reading.at > FREE_SPACE_TTL_MS) {
      let free: number | null = null;
      try {
        const stats = statfsSync(dirname(this.dbPath));
        free = Number(stats.bavail) * Number(stats.bsize);
      } catch {
        free = null;
      }
      this.reading = { at: now, free };
    }
    const free = this.reading.free;
    return { freeBytes: free, thresholdBytes: this.thresholdBytes, ok: free === null || free >= this.thresholdBytes };
  }
}
