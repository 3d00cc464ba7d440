/**
 * Writing a plan in chunks: each its own IMMEDIATE transaction sized to hold the write lock about CHUNK_MS, with a
 * pause between them in which sales get in, and a longer one now and then for other writers. Each chunk writes the
 * diners, their audit entries, and what undoes it (diner_import_undo), and renews the import's lease. Every update
 * is guarded by the values it was planned from: a diner changed meanwhile undoes the import (undo.ts).
 */
import { randomUUID } from "node:crypto";
import type { Database } from "bun:sqlite";
import { immediateTransaction, type Db } from "../../../db";
import type { Scope } from "../../access/scope";
import type { Actor } from "../../audit";
import { Conflict } from "../../errors";
import { foldText } from "../../../shared/fold";
import { message, type Message } from "../../../shared/message";
import {
  CHUNK_MS,
  CHUNK_PAUSE_MS,
  FIRST_CHUNK_ROWS,
  LEASE_MS,
  LONG_PAUSE_EVERY_MS,
  LONG_PAUSE_MS,
  MAX_CHUNK_ROWS,
  MIN_CHUNK_ROWS,
  planChanged,
  refusedRows,
  WRITE_CACHE_KIB,
  type DinerImportCounts,
  type DinerImportOptions,
  type DinerImportSource,
  type DinerSheet,
} from "./contract";
import { auditImport, finishLedger, insertLedger, renewLease } from "./ledger";
import { planAsync, planToWrite, type Planned, type Write } from "./plan";
import { recoverDinerImports, undoImportAsync, type UndoChange, type UndoReason } from "./undo";
import type { DinerRow, DinerValues, ValueKey } from "./world";

/** Someone changed the diners meanwhile: a guarded update found other values, or an insert found the document taken. */
class ChangedMeanwhile extends Error {}

/** The import's lease was taken over (its writer was taken as stopped and recovery undoes it). */
class LeaseLost extends Error {}

/**
 * Someone asked the import to stop (a person registered by hand with a document it holds: stopImportHolding), or
 * a document it was about to create was registered meanwhile; `reason` says who and which document.
 */
class StopRequested extends Error {
  constructor(readonly reason: UndoReason) {
    super("The import was asked to stop");
  }
}

function isConflict(error: unknown): boolean {
  return (
    error instanceof ChangedMeanwhile ||
    (error instanceof Error && /UNIQUE constraint failed: diners\.|FOREIGN KEY constraint failed/.test(error.message))
  );
}

const SQL = {
  updateDiner: `UPDATE diners SET name = ?, name_folded = ?, phone = ?, subdealership_id = ?, cafe_id = ?, level_id = ?,
    active = ?, updated_at = ? WHERE id = ? AND name = ? AND phone = ? AND subdealership_id = ? AND cafe_id = ?
    AND level_id IS ? AND active = ?`,
  insertUndo: `INSERT INTO diner_import_undo (import_id, created_from, created_to, audit_from, audit_to, changed)
    VALUES (?, ?, ?, ?, ?, ?)`,
};

type Bound = string | number | null;

/** Rows per INSERT statement: one statement's fixed cost (binding, stepping, resetting) is shared by this many rows. */
const ROWS_PER_STATEMENT = 64;

/**
 * Inserts `rows` (each `width` values) into `table` with multi-row prepared statements, and returns the rowid of
 * the first: the rows of one transaction get consecutive rowids (AUTOINCREMENT, and no other writer inside it),
 * which is checked. A table WITHOUT ROWID (`rowids` false) has none to return.
 */
function insertRows(
  client: Database,
  table: string,
  columns: string,
  width: number,
  rows: Bound[][],
  rowids = true,
): number {
  if (rows.length === 0) return 0;
  const tuple = `(${Array(width).fill("?").join(", ")})`;
  const statementFor = (n: number) =>
    client.prepare(`INSERT INTO ${table} (${columns}) VALUES ${Array(n).fill(tuple).join(", ")}`);
  const full = statementFor(ROWS_PER_STATEMENT);
  let first = 0;
  let last = 0;
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const batch = rows.slice(at, at + ROWS_PER_STATEMENT);
    const statement = batch.length === ROWS_PER_STATEMENT ? full : statementFor(batch.length);
    last = Number(statement.run(...batch.flat()).lastInsertRowid);
    if (at === 0) first = last - batch.length + 1;
  }
  if (rowids && last !== first + rows.length - 1)
    throw new Error(`The rows inserted into ${table} are not consecutive`);
  return first;
}

/**
 * Writes one chunk in the caller's transaction: the diners, their audit entries (those the Dinners page writes, in
 * recordAudit's format, but inserted many rows per statement: this runs for every row), and the chunk's undo record.
 */
function writeChunk(client: Database, actor: Actor, importId: number, writes: Write[], now: number): void {
  const updateDiner = client.prepare(SQL.updateDiner);
  const audits: Bound[][] = [];
  const auditCafes: number[][] = [];
  const audit = (action: string, subjectId: number, before: unknown, after: unknown, cafes: number[]) => {
    audits.push([
      actor.userId,
      actor.label,
      action,
      "diner",
      subjectId,
      before === null ? null : JSON.stringify(before),
      JSON.stringify(after),
      now,
    ]);
    auditCafes.push(cafes);
  };

  const creates = writes.filter((w) => w.kind === "create");
  const firstDiner = insertRows(
    client,
    "diners",
    "document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id, active, import_id, created_at, updated_at",
    12,
    creates.map((w) => {
      const v = w.values;
      return [
        w.documentType,
        w.documentNumber,
        v.name,
        foldText(v.name),
        v.phone,
        v.subdealershipId,
        v.cafeId,
        v.levelId,
        1,
        importId,
        now,
        now,
      ];
    }),
  );
  creates.forEach((w, i) => {
    const v = w.values;
    audit(
      "diner.created",
      firstDiner + i,
      null,
      {
        name: v.name,
        documentType: w.documentType,
        documentNumber: w.documentNumber,
        phone: v.phone,
        subdealershipId: v.subdealershipId,
        cafeId: v.cafeId,
        levelId: v.levelId,
        active: v.active,
      },
      [v.cafeId],
    );
  });

  const undo: UndoChange[] = [];
  const update = (before: DinerRow, values: DinerValues, changed: readonly ValueKey[], action: string) => {
    const result = updateDiner.run(
      values.name,
      foldText(values.name),
      values.phone,
      values.subdealershipId,
      values.cafeId,
      values.levelId,
      values.active ? 1 : 0,
      now,
      before.id,
      before.name,
      before.phone,
      before.subdealershipId,
      before.cafeId,
      before.levelId,
      before.active ? 1 : 0,
    );
    if (result.changes !== 1) throw new ChangedMeanwhile(`Diner ${before.id} changed meanwhile`);
    const was = Object.fromEntries(changed.map((k) => [k, before[k]])) as Partial<DinerValues>;
    const is = Object.fromEntries(changed.map((k) => [k, values[k]])) as Partial<DinerValues>;
    undo.push({ id: before.id, before: was, after: is });
    audit(
      action,
      before.id,
      was,
      is,
      before.cafeId === values.cafeId ? [values.cafeId] : [before.cafeId, values.cafeId],
    );
  };
  for (const w of writes) {
    if (w.kind === "update") update(w.before, w.values, w.changed, "diner.updated");
    else if (w.kind === "deactivate") update(w.before, { ...w.before, active: false }, ["active"], "diner.deactivated");
  }

  const firstAudit = insertRows(
    client,
    "audit_log",
    "actor_id, actor_label, action, subject_type, subject_id, before, after, created_at",
    8,
    audits,
  );
  const places: Bound[][] = [];
  auditCafes.forEach((cafes, i) => {
    for (const cafeId of cafes) places.push([firstAudit + i, "cafe", cafeId]);
  });
  insertRows(client, "audit_places", "audit_id, kind, place_id", 3, places, false);
  client
    .prepare(SQL.insertUndo)
    .run(
      importId,
      creates.length ? firstDiner : null,
      creates.length ? firstDiner + creates.length - 1 : null,
      audits.length ? firstAudit : null,
      audits.length ? firstAudit + audits.length - 1 : null,
      JSON.stringify(undo),
    );
}

/**
 * Runs `work` (one chunk's transaction) without waiting for the disk at its commit when `relaxed`: with WAL,
 * synchronous=NORMAL keeps every commit atomic and loses, on a power cut, only the last commits. A chunk other than
 * the last needs no more: its undo record is in its own transaction, so whatever survives is undone by recovery (the
 * import is still "writing"); the last chunk, which says the import succeeded, commits with the connection's own
 * setting (FULL). This saves one disk flush per chunk.
 */
function withoutSync<T>(client: Database, relaxed: boolean, work: () => T): T {
  if (!relaxed) return work();
  const { synchronous } = client.prepare("PRAGMA synchronous").get() as { synchronous: number };
  if (synchronous <= 1) return work();
  client.exec("PRAGMA synchronous = NORMAL");
  try {
    return work();
  } finally {
    client.exec(`PRAGMA synchronous = ${synchronous}`);
  }
}

/** Records in the ledger and the audit that the import was refused (`reason` says why). */
function recordRefusal(db: Db, actor: Actor, source: DinerImportSource, planned: Planned, reason: Message): void {
  const { preview, counts, cafeIds } = planned;
  db.transaction(
    () => {
      const at = new Date();
      const id = insertLedger(
        db,
        actor,
        source,
        "refused",
        { rows: preview.rows, counts, problemCount: preview.problemCount, message: reason, finished: true },
        at.getTime(),
      );
      auditImport(
        db,
        actor,
        id,
        source,
        cafeIds,
        { rows: preview.rows, counts, result: "refused", message: reason },
        at,
      );
    },
    { behavior: "immediate" },
  );
}

/** Takes the lease (only one import writes at a time) and records the import as writing; Conflict when busy. */
function startWriting(db: Db, actor: Actor, source: DinerImportSource, planned: Planned, token: string): number {
  const { preview, counts } = planned;
  return db.transaction(
    () => {
      const busy = db.$client.prepare("SELECT id FROM diner_imports WHERE state = 'writing' LIMIT 1").values()[0];
      if (busy) throw new Conflict(message("diners.import_busy"));
      return insertLedger(
        db,
        actor,
        source,
        "writing",
        { rows: preview.rows, counts, leaseOwner: token, leaseUntil: Date.now() + LEASE_MS, finished: false },
        Date.now(),
      );
    },
    { behavior: "immediate" },
  );
}

interface Writing {
  db: Db;
  actor: Actor;
  source: DinerImportSource;
  planned: Planned;
  importId: number;
  token: string;
  options: DinerImportOptions;
}

/**
 * When a chunk could not create a diner because its document was registered meanwhile (by hand, between the
 * preview and this chunk), the stop that says who and which document; null for any other failure.
 */
function registeredMeanwhile(client: Database, importId: number, chunk: Write[]): StopRequested | null {
  // Not this import's own diners: the chunk's first statements may have inserted some before the one that failed.
  const find = client.prepare(
    "SELECT name FROM diners WHERE document_type = ? AND document_number = ? AND import_id IS NOT ?",
  );
  for (const w of chunk) {
    if (w.kind !== "create") continue;
    const taken = find.values(w.documentType, w.documentNumber, importId)[0] as [string] | undefined;
    if (taken)
      return new StopRequested({
        key: "diners.import_stopped_registered",
        params: { name: taken[0], document: `${w.documentType.toUpperCase()} ${w.documentNumber}` },
      });
  }
  return null;
}

/**
 * Writes the plan's writes chunk by chunk, each in its own transaction; the last one also records the import as
 * succeeded and drops its undo log.
 */
async function writeInChunks({ db, actor, source, planned, importId, token, options }: Writing): Promise<void> {
  const { counts, cafeIds, preview } = planned;
  // The new diners first, the changes to existing diners last: those show as their chunk commits (the new diners
  // only when the import is whole), so the fewer chunks after them, the shorter the time a half-done import shows.
  const writes = [
    ...planned.writes.filter((w) => w.kind === "create"),
    ...planned.writes.filter((w) => w.kind !== "create"),
  ];
  const client = db.$client;
  const now = new Date();
  let size = Math.max(1, options.chunkSize ?? FIRST_CHUNK_ROWS);
  const chunkMs = options.chunkMs ?? CHUNK_MS;
  let written = 0;
  /** The writing time since the last long pause. */
  let sinceLongPause = 0;
  options.onProgress?.("saving", 0, writes.length);
  while (written < writes.length) {
    const chunk = writes.slice(written, written + size);
    const last = written + chunk.length >= writes.length;
    let lockedAt = 0;
    withoutSync(client, !last, () =>
      immediateTransaction(client, () => {
        lockedAt = performance.now();
        const lease = renewLease(client, importId, token);
        if (!lease) throw new LeaseLost("The import's lease was taken over");
        if (lease.stop) throw new StopRequested(lease.stop as UndoReason);
        try {
          writeChunk(client, actor, importId, chunk, now.getTime());
        } catch (error) {
          throw registeredMeanwhile(client, importId, chunk) ?? error;
        }
        if (last) {
          // Done: the import succeeds with its last chunk, and its undo log goes.
          finishLedger(db, importId, "succeeded", counts, null, Date.now());
          auditImport(db, actor, importId, source, cafeIds, { rows: preview.rows, counts, result: "succeeded" }, now);
          client.prepare("DELETE FROM diner_import_undo WHERE import_id = ?").run(importId);
        }
      }),
    );
    const held = performance.now() - lockedAt;
    written += chunk.length;
    options.onProgress?.("saving", written, writes.length);
    if (last) break;
    // The next chunk is sized to hold the lock about chunkMs, as fast as this one went (at most twice as many rows).
    if (options.chunkSize === undefined)
      size = Math.round(
        Math.min(MAX_CHUNK_ROWS, 2 * chunk.length, Math.max(MIN_CHUNK_ROWS, (chunk.length * chunkMs) / held)),
      );
    sinceLongPause += held;
    const pause = sinceLongPause >= LONG_PAUSE_EVERY_MS ? LONG_PAUSE_MS : CHUNK_PAUSE_MS;
    if (pause === LONG_PAUSE_MS) sinceLongPause = 0;
    // Each chunk leaves its rows, statements' values and audit texts behind; a collection asked for now (without
    // waiting for it) keeps a 100,000-row import's peak near 230 MiB instead of 320–370 (npm run bench:diners), at no
    // measurable cost to its rate.
    Bun.gc(false);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Checks again, and writes when there is no problem (and, when expectedPlan is given, the plan is still that one).
 * Throws ImportRefused (rows to fix), PlanChanged (the data changed since the preview, or while writing: what was
 * written is undone), or Conflict when another import is writing. Any other failure is thrown after what was
 * written has been undone. Every outcome is recorded in the ledger.
 */
export async function importDiners(
  db: Db,
  actor: Actor,
  scope: Scope,
  sheet: DinerSheet,
  options: DinerImportOptions & { source: DinerImportSource; expectedPlan?: string },
): Promise<{ counts: DinerImportCounts; importId: number }> {
  const { source } = options;
  recoverDinerImports(db);
  const planned = await planToWrite(db, scope, sheet, options);
  const { preview, counts } = planned;
  if (options.expectedPlan !== undefined && preview.plan !== options.expectedPlan) {
    recordRefusal(db, actor, source, planned, message("diners.import_refused_plan_changed"));
    throw planChanged(preview);
  }
  if (preview.problemCount) {
    recordRefusal(db, actor, source, planned, message("diners.import_refused_rows", { count: preview.problemCount }));
    throw refusedRows(preview);
  }
  // Nothing to write (the same file again): the ledger remembers the file; no audit entry, no write to the diners.
  if (planned.writes.length === 0) {
    const importId = insertLedger(
      db,
      actor,
      source,
      "succeeded",
      { rows: preview.rows, counts, finished: true },
      Date.now(),
    );
    options.onProgress?.("saving", 0, 0);
    return { counts, importId };
  }

  const token = randomUUID();
  const importId = startWriting(db, actor, source, planned, token);
  const client = db.$client;
  const { cache_size: cacheSize } = client.prepare("PRAGMA cache_size").get() as { cache_size: number };
  client.prepare(`PRAGMA cache_size = -${WRITE_CACHE_KIB}`).run();
  try {
    await writeInChunks({ db, actor, source, planned, importId, token, options });
  } catch (error) {
    if (error instanceof LeaseLost) throw error;
    const changed = isConflict(error) || error instanceof StopRequested;
    const reason: UndoReason =
      error instanceof StopRequested
        ? error.reason
        : isConflict(error)
          ? { key: "diners.import_rolled_back_changed" }
          : {
              key: "diners.import_rolled_back_error",
              params: { detail: error instanceof Error ? error.message : String(error) },
            };
    const finished = await undoImportAsync(db, importId, token, reason);
    if (finished && changed)
      throw planChanged(
        (await planAsync(db, scope, sheet, options)).preview,
        error instanceof StopRequested ? message(error.reason.key, error.reason.params) : undefined,
      );
    throw error;
  } finally {
    client.prepare(`PRAGMA cache_size = ${cacheSize}`).run();
  }
  return { counts, importId };
}
