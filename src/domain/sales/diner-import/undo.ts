/**
 * Undoing an import that failed mid-way, from its undo log (diner_import_undo): each committed chunk wrote, in its
 * own transaction, what undoes it. A writer undoes its own import when it fails; `recoverDinerImports` undoes the
 * import of a writer that stopped (its lease ran out), before each import and at every start.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "bun:sqlite";
import type { Db } from "../../../db";
import { recordAudit, type Actor } from "../../audit";
import { foldText } from "../../../shared/fold";
import type { TranslationParams } from "../../../shared/i18n";
import { message, type Message } from "../../../shared/message";
import { LEASE_MS, type DinerImportSource, type DinerImportState } from "./contract";
import { auditImport, finishLedger, renewLease } from "./ledger";
import type { DinerValues, ValueKey } from "./world";

/** Why an import is undone; each reason has a `_kept` text for when some diners are kept. */
export interface UndoReason {
  key: "diners.import_rolled_back_changed" | "diners.import_rolled_back_error" | "diners.import_rolled_back_stopped";
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

/** What undoing has done so far: the diners kept (sold to meanwhile), the cafes touched, the chunks undone. */
interface Undoing {
  db: Db;
  actor: Actor;
  kept: { id: number; name: string }[];
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
 * auditTo). A diner sold to meanwhile cannot be deleted: it is deactivated instead, keeping the entry of its creation.
 */
function removeCreated(undoing: Undoing, entry: UndoEntry, now: number): void {
  const client = undoing.db.$client;
  const [, createdFrom, createdTo, auditFrom, auditTo] = entry;
  let keptHere: { id: number; name: string; cafeId: number }[] = [];
  if (createdFrom !== null && createdTo !== null) {
    for (const [cafeId] of client
      .prepare("SELECT DISTINCT cafe_id FROM diners WHERE id BETWEEN ? AND ?")
      .values(createdFrom, createdTo) as [number][])
      undoing.cafes.add(cafeId);
    keptHere = (
      client
        .prepare(
          "SELECT d.id, d.name, d.cafe_id FROM diners d WHERE d.id BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM sales s WHERE s.diner_id = d.id)",
        )
        .values(createdFrom, createdTo) as [number, string, number][]
    ).map(([id, name, cafeId]) => ({ id, name, cafeId }));
  }
  const keptIds = JSON.stringify(keptHere.map((d) => d.id));
  if (auditFrom !== null && auditTo !== null)
    client
      .prepare(
        `DELETE FROM audit_log WHERE id BETWEEN ? AND ?
          AND NOT (action = 'diner.created' AND subject_id IN (SELECT value FROM json_each(?)))`,
      )
      .run(auditFrom, auditTo, keptIds);
  if (createdFrom !== null && createdTo !== null)
    client
      .prepare("DELETE FROM diners WHERE id BETWEEN ? AND ? AND id NOT IN (SELECT value FROM json_each(?))")
      .run(createdFrom, createdTo, keptIds);
  for (const d of keptHere) {
    if (
      client.prepare("UPDATE diners SET active = 0, updated_at = ? WHERE id = ? AND active = 1").run(now, d.id).changes
    )
      recordAudit(
        undoing.db,
        undoing.actor,
        {
          action: "diner.deactivated",
          subjectType: "diner",
          subjectId: d.id,
          places: [{ cafeId: d.cafeId }],
          before: { active: true },
          after: { active: false },
        },
        new Date(now),
      );
    undoing.kept.push({ id: d.id, name: d.name });
  }
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
  removeCreated(undoing, entry, now);
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
  const { db, actor, kept, cafes } = undoing;
  const state: DinerImportState = undoing.undid === 0 ? "failed" : "rolled_back";
  const final: Message = kept.length
    ? message(`${reason.key}_kept`, {
        ...reason.params,
        count: kept.length,
        names: kept
          .slice(0, 10)
          .map((d) => d.name)
          .join(", "),
      })
    : reason;
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
  const undoing: Undoing = { db, actor, kept: [], cafes: new Set(), undid: 0 };
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
 * Undoes the writes of imports whose writer stopped mid-way (its lease ran out); run at every start and before
 * each import. Returns how many imports it undid.
 */
export function recoverDinerImports(db: Db, now: Date = new Date()): number {
  const client = db.$client;
  const stale = client
    .prepare(
      "SELECT id, lease_owner FROM diner_imports WHERE state = 'writing' AND (lease_until IS NULL OR lease_until < ?)",
    )
    .values(now.getTime()) as [number, string | null][];
  let recovered = 0;
  for (const [importId, owner] of stale) {
    const token = randomUUID();
    // Taking the lease over, so a writer that wakes up stops at its next chunk.
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
    const steps = undoSteps(db, importId, token, { key: "diners.import_rolled_back_stopped" });
    let step = steps.next();
    while (!step.done) step = steps.next();
    if (step.value) recovered++;
  }
  return recovered;
}
