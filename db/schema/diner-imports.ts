import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jobs } from "./jobs";
import { users } from "./users";

/**
 * The ledger of diner imports (src/domain/sales/diner-import.ts): every import of a diners spreadsheet, from the
 * page, the command line or the inbox, with its file (known by its bytes' SHA-256), who ran it, its state, its
 * counts and its message. An import writes in short chunks; while it writes it holds a lease that each chunk
 * renews, and `diner_import_undo` keeps, per chunk, what undoes it, so an import that stops mid-way is put back.
 */
export const DINER_IMPORT_STATES = ["writing", "succeeded", "refused", "failed", "rolled_back"] as const;
export type DinerImportState = (typeof DINER_IMPORT_STATES)[number];
export const DINER_IMPORT_VIAS = ["page", "cli", "inbox"] as const;
export type DinerImportVia = (typeof DINER_IMPORT_VIAS)[number];

export const dinerImports = sqliteTable(
  "diner_imports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    fileName: text("file_name").notNull(),
    /** Hex SHA-256 of the file's bytes: the same bytes are the same file, whatever its name. */
    sha256: text("sha256").notNull(),
    via: text("via", { enum: DINER_IMPORT_VIAS }).notNull(),
    jobId: integer("job_id").references(() => jobs.id, { onDelete: "set null" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** The actor as the audit names them ("cli", or the user's e-mail then). */
    actorLabel: text("actor_label").notNull(),
    state: text("state", { enum: DINER_IMPORT_STATES }).notNull(),
    rows: integer("rows").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    deactivated: integer("deactivated").notNull().default(0),
    problemCount: integer("problem_count").notNull().default(0),
    /** Why it was refused, failed or rolled back (or a note on a success): a translation key and its placeholders. */
    messageKey: text("message_key"),
    messageParams: text("message_params"),
    /** Who writes it now (a random token) and until when; a writer whose lease ran out is undone by recovery. */
    leaseOwner: text("lease_owner"),
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }),
    /**
     * Set while it writes when someone asks it to stop (a person registered by hand a document it holds): a
     * translation key and its placeholders. The writer stops at its next chunk and undoes what it wrote.
     */
    stopKey: text("stop_key"),
    stopParams: text("stop_params"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("diner_imports_sha256_index").on(t.sha256, t.id),
    index("diner_imports_state_index").on(t.state),
    check("diner_imports_state_check", sql`${t.state} IN ('writing', 'succeeded', 'refused', 'failed', 'rolled_back')`),
    check("diner_imports_via_check", sql`${t.via} IN ('page', 'cli', 'inbox')`),
  ],
);

/**
 * What undoes one committed chunk of an import, written in the chunk's own transaction: the ids of the diners it
 * created (a range: a chunk's inserts are consecutive), the ids of the audit entries it wrote (a range too), and
 * each diner it changed with the values before and after (JSON). Deleted when the import succeeds or is undone.
 */
export const dinerImportUndo = sqliteTable(
  "diner_import_undo",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    importId: integer("import_id")
      .notNull()
      .references(() => dinerImports.id, { onDelete: "cascade" }),
    createdFrom: integer("created_from"),
    createdTo: integer("created_to"),
    auditFrom: integer("audit_from"),
    auditTo: integer("audit_to"),
    /** JSON: [{ id, before: {...}, after: {...} }] of the diners the chunk changed. */
    changed: text("changed").notNull().default("[]"),
  },
  (t) => [index("diner_import_undo_import_index").on(t.importId, t.id)],
);
