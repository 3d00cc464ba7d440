import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * Background jobs: long work (a places workbook import, later report workbooks and purchase requirements) that a
 * person starts from a page and the app process runs after the request has been answered. The row is the whole
 * record: who started it (with the scope they had then), what kind of job with what input, its state, its progress
 * as done of total with a label, and its result or the message of its failure.
 */
import { JOB_STATES, type JobState } from "../../src/shared/jobs";
export { JOB_STATES, type JobState };

export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** What the job does, e.g. "places.import"; the runner finds its code by this name. */
    kind: text("kind").notNull(),
    /** Who started it: only they see its progress and result. */
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The actor's label as the audit records it (their e-mail when they started the job). */
    actorLabel: text("actor_label").notNull(),
    /** JSON: the data scope of who started it, when they started it; the job acts within it. */
    scope: text("scope").notNull(),
    /** JSON: the kind's input, e.g. the stored workbook's path and file name. */
    input: text("input").notNull(),
    /** An uploaded file the job owns (under STORAGE_PATH/jobs); deleted when the job ends, or kept up to 30 minutes for its owner to confirm an import preview (decision 011). */
    upload: text("upload"),
    state: text("state", { enum: JOB_STATES }).notNull().default("queued"),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    /** A translation key saying what the job is doing, e.g. "import.progress_checking". */
    progressLabel: text("progress_label").notNull().default(""),
    /** JSON: what the job produced (a success's counts, or the rows to fix of a failure). */
    result: text("result"),
    /** Why it failed: a translation key and its placeholders (JSON). */
    errorKey: text("error_key"),
    errorParams: text("error_params"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** When its owner closed the finished job's message on the page; the page then stops showing it. */
    dismissedAt: integer("dismissed_at", { mode: "timestamp_ms" }),
    /**
     * The Mesa process that runs it (a row of `processes`): while that process renews its lease, nobody else fails
     * the job. Null on jobs recorded before processes had leases.
     */
    processId: text("process_id"),
  },
  (t) => [
    check("jobs_state_check", sql`${t.state} IN ('queued', 'running', 'succeeded', 'failed')`),
    index("jobs_user_kind_index").on(t.userId, t.kind, t.id),
    index("jobs_state_index").on(t.state),
  ],
);

/**
 * The Mesa servers running on this database, each renewing its lease (`seen_at`) every few seconds while it runs
 * and removing its row when it stops gracefully. A process whose lease ran out is gone: its jobs are failed and its
 * imports undone by whichever process notices first. `./mesa db:restore` refuses while one is alive.
 */
export const processes = sqliteTable("processes", {
  /** A random id the process chose when it started. */
  id: text("id").primaryKey(),
  pid: integer("pid").notNull(),
  /** The machine's name, and where the process listens (host:port). */
  hostname: text("hostname").notNull(),
  address: text("address").notNull(),
  startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
  /** The lease: the process was alive then, and renews it every PROCESS_HEARTBEAT_MS. */
  seenAt: integer("seen_at", { mode: "timestamp_ms" }).notNull(),
});
