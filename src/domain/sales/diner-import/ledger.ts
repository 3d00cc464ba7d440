/**
 * The import ledger (diner_imports): one entry per import, its state, counts and message, and the lease of the
 * import that is writing; and the audit entry that says what an import did.
 */
import type { Database } from "bun:sqlite";
import type { Db } from "../../../db";
import { COMPANY_WIDE, recordAudit, type Actor } from "../../audit";
import type { Document } from "../../../shared/documents";
import type { TranslationKey, TranslationParams } from "../../../shared/i18n";
import type { Message } from "../../../shared/message";
import { LEASE_MS, type DinerImportCounts, type DinerImportSource, type DinerImportState } from "./contract";

type MessageParts = { key: string | null; params: string | null };

function messageParts(m: Message | null): MessageParts {
  if (m === null) return { key: null, params: null };
  if (typeof m === "string") return { key: m, params: null };
  return { key: m.key, params: m.params ? JSON.stringify(m.params) : null };
}

export function insertLedger(
  db: Db,
  actor: Actor,
  source: DinerImportSource,
  state: DinerImportState,
  fields: {
    rows?: number;
    counts?: DinerImportCounts;
    problemCount?: number;
    message?: Message | null;
    leaseOwner?: string | null;
    leaseUntil?: number | null;
    finished: boolean;
  },
  now: number,
): number {
  const m = messageParts(fields.message ?? null);
  const counts = fields.counts ?? { created: 0, updated: 0, unchanged: 0, deactivated: 0 };
  const result = db.$client
    .prepare(
      `INSERT INTO diner_imports (file_name, sha256, via, job_id, actor_id, actor_label, state, rows, created, updated,
        unchanged, deactivated, problem_count, message_key, message_params, lease_owner, lease_until, started_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      source.fileName,
      source.sha256,
      source.via,
      source.jobId ?? null,
      actor.userId,
      actor.label,
      state,
      fields.rows ?? 0,
      counts.created,
      counts.updated,
      counts.unchanged,
      counts.deactivated,
      fields.problemCount ?? 0,
      m.key,
      m.params,
      fields.leaseOwner ?? null,
      fields.leaseUntil ?? null,
      now,
      fields.finished ? now : null,
    );
  return Number(result.lastInsertRowid);
}

export function finishLedger(
  db: Db,
  importId: number,
  state: DinerImportState,
  counts: DinerImportCounts | null,
  m: Message | null,
  now: number,
): void {
  const parts = messageParts(m);
  db.$client
    .prepare(
      `UPDATE diner_imports SET state = ?, message_key = ?, message_params = ?, lease_owner = NULL, lease_until = NULL,
        finished_at = ?, created = COALESCE(?, created), updated = COALESCE(?, updated),
        unchanged = COALESCE(?, unchanged), deactivated = COALESCE(?, deactivated) WHERE id = ?`,
    )
    .run(
      state,
      parts.key,
      parts.params,
      now,
      counts?.created ?? null,
      counts?.updated ?? null,
      counts?.unchanged ?? null,
      counts?.deactivated ?? null,
      importId,
    );
}

export function auditImport(
  db: Db,
  actor: Actor,
  importId: number,
  source: DinerImportSource,
  cafeIds: readonly number[],
  after: Record<string, unknown>,
  now: Date,
): void {
  recordAudit(
    db,
    actor,
    {
      action: "diner.import",
      subjectType: "diner_import",
      subjectId: importId,
      places: cafeIds.length ? cafeIds.map((cafeId) => ({ cafeId })) : COMPANY_WIDE,
      after: { file: source.fileName, sha256: source.sha256, via: source.via, jobId: source.jobId ?? null, ...after },
    },
    now,
  );
}

/** Records an import refused before its rows could be read (file-level message), in the ledger and the audit. */
export function recordRefusedImport(db: Db, actor: Actor, source: DinerImportSource, reason: Message): number {
  const now = new Date();
  return db.transaction(
    () => {
      const id = insertLedger(db, actor, source, "refused", { message: reason, finished: true }, now.getTime());
      auditImport(db, actor, id, source, [], { result: "refused", message: reason }, now);
      return id;
    },
    { behavior: "immediate" },
  );
}

/** The ledger entry of a file's bytes (the inbox's "seen before" check): the latest one, or null. */
export function importOfFile(
  db: Db,
  sha256: string,
): { id: number; state: DinerImportState; finishedAt: Date | null } | null {
  const row = db.$client
    .prepare("SELECT id, state, finished_at FROM diner_imports WHERE sha256 = ? ORDER BY id DESC LIMIT 1")
    .values(sha256)[0] as [number, DinerImportState, number | null] | undefined;
  return row ? { id: row[0], state: row[1], finishedAt: row[2] === null ? null : new Date(row[2]) } : null;
}

/** What a writer learns when it renews its lease: null when someone else took it over, else whether to stop. */
export type Lease = { stop: { key: TranslationKey; params?: TranslationParams } | null } | null;

/**
 * Renews an import's lease while `token` holds it. Null when someone else took it over (recovery, which finishes
 * it); otherwise the stop someone asked for meanwhile (requestStop), or null to go on.
 */
export function renewLease(client: Database, importId: number, token: string): Lease {
  const row = client
    .prepare(
      `UPDATE diner_imports SET lease_until = ? WHERE id = ? AND state = 'writing' AND lease_owner = ?
        RETURNING stop_key, stop_params`,
    )
    .values(Date.now() + LEASE_MS, importId, token)[0] as [string | null, string | null] | undefined;
  if (!row) return null;
  if (row[0] === null) return { stop: null };
  return { stop: { key: row[0] as TranslationKey, params: row[1] === null ? undefined : JSON.parse(row[1]) } };
}

/**
 * When an unfinished import holds `document` (a diner it created, not visible yet: see visibleDiners), asks that
 * import to stop, saying why, and deletes that diner so the document is free, in the caller's transaction:
 * registering a person by hand wins over the import, which stops at its next chunk and undoes what it wrote (the
 * diner had no sale: nobody could find it). False when no unfinished import holds the document.
 */
export function stopImportHolding(client: Database, document: Document, reason: Message): boolean {
  const held = client
    .prepare(
      `SELECT d.id, i.id FROM diners d JOIN diner_imports i ON i.id = d.import_id
        WHERE d.document_type = ? AND d.document_number = ? AND i.state = 'writing'`,
    )
    .values(document.type, document.number)[0] as [number, number] | undefined;
  if (!held) return false;
  const [dinerId, importId] = held;
  const m = messageParts(reason);
  client
    .prepare("UPDATE diner_imports SET stop_key = ?, stop_params = ? WHERE id = ? AND stop_key IS NULL")
    .run(m.key, m.params, importId);
  client.prepare("DELETE FROM diners WHERE id = ?").run(dinerId);
  return true;
}
