/**
 * Undoing an import that failed mid-way, from its undo log (diner_import_undo): each committed chunk wrote, in its
 * own transaction, what undoes it. A writer undoes its own import when it fails; `recoverDinerImports` undoes the
 * import of a writer that stopped (its lease ran out), before each import and at every start.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "bun:sqlite";
import type { Db } from "../../../db";
import type { Actor } from "../../audit";
import { foldText } from "../../../shared/fold";
import type { TranslationParams } from "../../../shared/i18n";
import type { Message } from "../../../shared/message";
import { LEASE_MS, type DinerImportSource, type DinerImportState } from "./contract";
import { auditImport, finishLedger, renewLease } from "./ledger";
import type { DinerValues, ValueKey } from "./world";

/** Why an import is undone: a translation key and its placeholders (the ledger's and the audit's message). */
export interface UndoReason {
  key:
    | "diners.import_rolled_back_changed"
    | "diners.import_rolled_back_error"
    | "diners.import_rolled_back_stopped"
    | "diners.import_stopped_registered";
  params?: TranslationParams;
}

/** A diner an import changed: the values it had and the values it was given (the changed ones only). */
export interface UndoChange {
  id: number;
  before: Partial<DinerValues>;
  after: Partial<DinerValues>;
}

type UndoEntry = [number, number | null, number | null, number | null, number | null, string];

const COLUMN: Record<ValueKey, string> = {
  name: "name",
  phone: "phone",
  subdealershipId: "subdealership_id",
  cafeId: "cafe_id",
  levelId: "level_id",
  active: "active",
};

const bind = (v: unknown) => (typeof v === "boolean" ? (v ? 1 : 0) : v) as string | number | null;

/** What undoing has done so far: the cafes touched, the chunks undone. */
interface Undoing {
  db: Db;
  actor: Actor;
  cafes: Set<number>;
  undid: number;
}

/** Gives a changed diner its values back, unless someone changed it again since (a later edit stays). */
function restoreChange(client: Database, change: UndoChange, now: number, cafes: Set<number>): void {
  const keys = Object.keys(change.before) as ValueKey[];
  const set = keys.map((k) => `${COLUMN[k]} = ?`);
  const values = keys.map((k) => bind(change.before[k]));
  if (keys.includes("name")) {
    set.push("name_folded = ?");
    values.push(foldText(change.before.name!));
  }
  const where = keys.map((k) => `${COLUMN[k]} IS ?`);
  client
    .prepare(`UPDATE diners SET ${set.join(", ")}, updated_at = ? WHERE id = ? AND ${where.join(" AND ")}`)
    .run(...values, now, change.id, ...keys.map((k) => bind(change.after[k])));
  if (change.before.cafeId !== undefined) cafes.add(change.before.cafeId);
  if (change.after.cafeId !== undefined) cafes.add(change.after.cafeId);
}

/**
 * Deletes the diners a chunk created (ids createdFrom to createdTo) and the chunk's audit entries (auditFrom to
 * auditTo). None of those diners has a sale: until the import succeeds nobody sees them (visibleDiners).
 */
function removeCreated(undoing: Undoing, entry: UndoEntry): void {
  const client = undoing.db.$client;
  const [, createdFrom, createdTo, auditFrom, auditTo] = entry;
  if (createdFrom !== null && createdTo !== null) {
    for (const [cafeId] of client
      .prepare("SELECT DISTINCT cafe_id FROM diners WHERE id BETWEEN ? AND ?")
      .values(createdFrom, createdTo) as [number][])
      undoing.cafes.add(cafeId);
    client.prepare("DELETE FROM diners WHERE id BETWEEN ? AND ?").run(createdFrom, createdTo);
  }
  if (auditFrom !== null && auditTo !== null)
    client.prepare("DELETE FROM audit_log WHERE id BETWEEN ? AND ?").run(auditFrom, auditTo);
}

/** Undoes the newest chunk left in the undo log, in the caller's transaction; false when none is left. */
function undoNewestChunk(undoing: Undoing, importId: number): boolean {
  const client = undoing.db.$client;
  const entry = client
    .prepare(
      "SELECT id, created_from, created_to, audit_from, audit_to, changed FROM diner_import_undo WHERE import_id = ? ORDER BY id DESC LIMIT 1",
    )
    .values(importId)[0] as UndoEntry | undefined;
  if (!entry) return false;
  undoing.undid++;
  const now = Date.now();
  removeCreated(undoing, entry);
  for (const change of JSON.parse(entry[5]) as UndoChange[]) restoreChange(client, change, now, undoing.cafes);
  client.prepare("DELETE FROM diner_import_undo WHERE id = ?").run(entry[0]);
  return true;
}

/** Records the import undone (rolled_back, or failed when nothing had been written), unless the lease was lost. */
function finishUndo(
  undoing: Undoing,
  importId: number,
  token: string,
  source: DinerImportSource,
  reason: UndoReason,
): void {
  const { db, actor, cafes } = undoing;
  const state: DinerImportState = undoing.undid === 0 ? "failed" : "rolled_back";
  const final: Message = reason;
  db.transaction(
    () => {
      if (!renewLease(db.$client, importId, token)) return;
      const at = new Date();
      finishLedger(db, importId, state, { created: 0, updated: 0, unchanged: 0, deactivated: 0 }, final, at.getTime());
      auditImport(
        db,
        actor,
        importId,
        source,
        [...cafes].sort((a, b) => a - b),
        { result: state, message: final },
        at,
      );
    },
    { behavior: "immediate" },
  );
}

/**
 * Undoes an import's committed chunks, newest first, each in its own short transaction (steps yielded one by one),
 * then records it rolled_back (failed when nothing had been written). Created diners are deleted, except those sold
 * to meanwhile, which are deactivated (the ledger says so); changed diners get their values back unless someone
 * changed them again since; the chunks' audit entries go. Yields once per step; returns whether it finished
 * (false: the lease was lost to someone else, who finishes it).
 */
function* undoSteps(db: Db, importId: number, token: string, reason: UndoReason): Generator<void, boolean> {
  const client = db.$client;
  const ledger = client
    .prepare("SELECT actor_id, actor_label, file_name, sha256, via, job_id FROM diner_imports WHERE id = ?")
    .values(importId)[0] as [number | null, string, string, string, DinerImportSource["via"], number | null];
  const actor: Actor = { userId: ledger[0], label: ledger[1] };
  const source: DinerImportSource = { fileName: ledger[2], sha256: ledger[3], via: ledger[4], jobId: ledger[5] };
  const undoing: Undoing = { db, actor, cafes: new Set(), undid: 0 };
  for (;;) {
    const step = db.transaction(
      () => {
        if (!renewLease(client, importId, token)) return "lost" as const;
        return undoNewestChunk(undoing, importId) ? ("step" as const) : ("done" as const);
      },
      { behavior: "immediate" },
    );
    if (step === "lost") return false;
    if (step === "done") break;
    yield;
  }
  finishUndo(undoing, importId, token, source, reason);
  return true;
}

/** Undoes an import, yielding to the event loop between its steps. */
export async function undoImportAsync(db: Db, importId: number, token: string, reason: UndoReason): Promise<boolean> {
  const steps = undoSteps(db, importId, token, reason);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Takes over the imports whose writer stopped mid-way (its lease ran out), so a writer that wakes up stops at its
 * next chunk, and returns each one's undoing steps. The reason is the stop someone asked for, if any.
 */
function* takeOverStale(db: Db, now: Date): Generator<Generator<void, boolean>> {
  const client = db.$client;
  const stale = client
    .prepare(
      `SELECT id, lease_owner, stop_key, stop_params FROM diner_imports
        WHERE state = 'writing' AND (lease_until IS NULL OR lease_until < ?)`,
    )
    .values(now.getTime()) as [number, string | null, string | null, string | null][];
  for (const [importId, owner, stopKey, stopParams] of stale) {
    const token = randomUUID();
    const taken = db.transaction(
      () =>
        client
          .prepare(
            "UPDATE diner_imports SET lease_owner = ?, lease_until = ? WHERE id = ? AND state = 'writing' AND lease_owner IS ?",
          )
          .run(token, Date.now() + LEASE_MS, importId, owner).changes === 1,
      { behavior: "immediate" },
    );
    if (!taken) continue;
    const reason: UndoReason = stopKey
      ? ({ key: stopKey, params: stopParams ? JSON.parse(stopParams) : undefined } as UndoReason)
      : { key: "diners.import_rolled_back_stopped" };
    yield undoSteps(db, importId, token, reason);
  }
}

/**
 * Undoes the writes of imports whose writer stopped mid-way (its lease ran out), at once: run at start-up, before
 * the server listens, and before each import. Returns how many imports it undid.
 */
export function recoverDinerImports(db: Db, now: Date = new Date()): number {
  let recovered = 0;
  for (const steps of takeOverStale(db, now)) {
    let step = steps.next();
    while (!step.done) step = steps.next();
    if (step.value) recovered++;
  }
  return recovered;
}

/**
 * The same, yielding to the event loop between its short transactions: a running server's heartbeat undoes, within
 * seconds of its lease running out, the import of a writer that died (a killed `./mesa import:diners`, another
 * server), while it goes on answering.
 */
export async function recoverDinerImportsAsync(db: Db, now: Date = new Date()): Promise<number> {
  let recovered = 0;
  for (const steps of takeOverStale(db, now)) {
    let step = steps.next();
    while (!step.done) {
      await new Promise((resolve) => setImmediate(resolve));
      step = steps.next();
    }
    if (step.value) recovered++;
  }
  return recovered;
}
