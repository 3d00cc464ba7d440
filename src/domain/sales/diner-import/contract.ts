/**
 * What the diner import promises its callers (the Dinners page's job, `./mesa import:diners`, the inbox): its
 * limits and pacing, its options and what it reports, and its two refusals, the import engine's.
 */
import { ImportRefused, PlanChanged } from "../../imports/engine";
import { message, type Message } from "../../../shared/message";
import type { DinerImportPreview } from "../../../shared/sales/types";
import type { SheetRows } from "../../spreadsheets/read";
import type { PackedRows } from "../../spreadsheets/packed-rows";

/** The most problems, leavers and changes a preview lists; the counts cover them all. */
export const MAX_LISTED = 200;
/**
 * How long a writer's lease lasts: a writer silent for longer is taken as stopped, and its import is undone (by a
 * running server within a heartbeat after that, by the next import, or at the next start). A writer renews it with
 * every chunk, a fraction of a second apart.
 */
export const LEASE_MS = 15_000;
/**
 * How long one write transaction should hold the database's write lock (unless the caller says: `chunkMs`). Each
 * chunk is sized from how fast the one before it went (FIRST_CHUNK_ROWS first, then between MIN_CHUNK_ROWS and
 * MAX_CHUNK_ROWS): on a slower or busier machine the chunks are smaller, so a sale never waits long behind one.
 * Every commit writes again each index page its rows touched (new diners' names land all over the index by cafe and
 * name), so fewer, larger chunks write less: 200 ms wrote 100,000 diners about a fifth faster than 100 ms in
 * `npm run bench:diners`. An import in the server's own process (the Dinners page's job) holds its event loop
 * meanwhile too, so it asks for less (SERVER_CHUNK_MS).
 */
export const CHUNK_MS = 200;
/** The chunks of an import that runs in the server's process: its requests wait for each one. */
export const SERVER_CHUNK_MS = 50;
export const FIRST_CHUNK_ROWS = 1000;
export const MIN_CHUNK_ROWS = 100;
export const MAX_CHUNK_ROWS = 10_000;
/**
 * The pause between chunks, lock free: longer than a waiting sale's poll (beginImmediate asks every
 * WRITE_LOCK_POLL_MS), so it gets in.
 */
export const CHUNK_PAUSE_MS = 4;
/**
 * After LONG_PAUSE_EVERY_MS of writing, a longer pause: other writers wait with SQLite's own busy handler, which
 * sleeps up to 100 ms between its tries, and may miss the short pauses; in this one they all get in.
 */
export const LONG_PAUSE_EVERY_MS = 2000;
export const LONG_PAUSE_MS = 120;
/** The page cache (KiB) while writing: a chunk's pages (its diners' index entries lie all over) stay in memory. */
export const WRITE_CACHE_KIB = 64 * 1024;
/** How often (in rows) checking reports its progress. */
export const CHECK_PROGRESS_EVERY = 1000;
/** The DNI length when the caller gives none: DNI_LENGTH's default. */
export const DEFAULT_DNI_LENGTH = 8;

/**
 * The sheet an import reads: its rows as arrays (SheetRows), or packed (readFirstSheetPacked), each row then made
 * when it is checked, so a large file is never held as values.
 */
export type DinerSheet = SheetRows | PackedRows;

export interface DinerImportOptions {
  /** Cafe for rows whose cafe cell is blank or whose file has no cafe column (--cafe, the dialog's choice). */
  defaultCafeId?: number | null;
  /** Deactivate the leavers (active diners of the file's subdealerships at its cafes who are not in the file). */
  deactivateLeavers?: boolean;
  onProgress?: (step: "checking" | "saving", done: number, total: number) => void;
  /** Digits of a DNI (the DNI_LENGTH setting, config.dniLength): a DNI of fewer digits is padded with zeros. 8 when not given. */
  dniLength?: number;
  /** Rows per write transaction, for tests (when not given, chunks are sized to hold the lock about `chunkMs`). */
  chunkSize?: number;
  /** How long a chunk should hold the write lock: CHUNK_MS when not given (SERVER_CHUNK_MS in the server). */
  chunkMs?: number;
}

export interface DinerImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  deactivated: number;
}

export interface DinerImportSource {
  fileName: string;
  sha256: string;
  via: "page" | "cli" | "inbox";
  jobId?: number | null;
}

export type DinerImportState = "writing" | "succeeded" | "refused" | "failed" | "rolled_back";

/** Rows to fix: nothing was written; `plan` is the preview that lists them. */
export function refusedRows(preview: DinerImportPreview): ImportRefused<DinerImportPreview> {
  return new ImportRefused(preview, { file: message("diners.import_refused_rows", { count: preview.problemCount }) });
}

/** PlanChanged's words: the diners changed since the preview, so nothing was saved. */
const PLAN_CHANGED = "dinners.import.plan_changed";

/** The data changed since the preview that was confirmed: nothing was written; `plan` is what it would do now. */
export function planChanged(
  preview: DinerImportPreview,
  why: Message = message(PLAN_CHANGED),
): PlanChanged<DinerImportPreview> {
  return new PlanChanged(preview, why);
}
