/**
 * The blacklist: people barred by document number, with the reason, the date and who decided. A listed person
 * cannot be sold meals; a user account linked to the entry (directly, or by its document number) cannot sign in,
 * and its sessions end when the entry is added. Removing the entry restores access.
 */
import { and, desc, eq, or, sql } from "drizzle-orm";
import { blacklist, sessions, users } from "../../../db/schema";
import type { Db } from "../../db";
import { recordAudit, type Actor } from "../audit";
import { message, NotFound, ValidationFailed } from "../errors";
import { parseInput, t } from "../validation";
import { ensureNotLastSuper } from "./assignments";
import { bumpAccessVersion } from "./authorization";

export type BlacklistEntry = typeof blacklist.$inferSelect;

export interface BlacklistRow {
  id: number;
  documentNumber: string;
  name: string;
  reason: string;
  createdAt: string;
  decidedBy: string | null;
  user: { id: number; name: string; email: string } | null;
}

export function listBlacklist(db: Db, options: { search?: string; page: number; perPage: number }): { rows: BlacklistRow[]; total: number } {
  const like = `%${(options.search ?? "").trim()}%`;
  const where = options.search?.trim() ? or(sql`${blacklist.documentNumber} LIKE ${like}`, sql`${blacklist.name} LIKE ${like}`, sql`${blacklist.reason} LIKE ${like}`) : undefined;
  const total = db.select({ n: sql<number>`count(*)` }).from(blacklist).where(where).get()?.n ?? 0;
  const rows = db.$client
    .query<
      { id: number; document_number: string; name: string; reason: string; created_at: number; decided: string | null; user_id: number | null; user_name: string | null; user_email: string | null },
      [string | null, string, number, number]
    >(
      `SELECT b.id, b.document_number, b.name, b.reason, b.created_at, d.name AS decided,
              u.id AS user_id, u.name AS user_name, u.email AS user_email
       FROM blacklist b
       LEFT JOIN users d ON d.id = b.decided_by
       LEFT JOIN users u ON u.id = COALESCE(b.user_id, (SELECT id FROM users WHERE document_number = b.document_number LIMIT 1))
       WHERE (?1 IS NULL OR b.document_number LIKE ?2 OR b.name LIKE ?2 OR b.reason LIKE ?2)
       ORDER BY b.id DESC LIMIT ?3 OFFSET ?4`,
    )
    .all(options.search?.trim() ? "1" : null, like, options.perPage, (options.page - 1) * options.perPage);
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      documentNumber: r.document_number,
      name: r.name,
      reason: r.reason,
      createdAt: new Date(r.created_at).toISOString(),
      decidedBy: r.decided,
      user: r.user_id ? { id: r.user_id, name: r.user_name!, email: r.user_email! } : null,
    })),
  };
}

export const BlacklistInput = t.Object({
  document_number: t.String({ minLength: 4, maxLength: 20, pattern: "^[A-Za-z0-9-]+$" }),
  name: t.String({ minLength: 2, maxLength: 120 }),
  reason: t.String({ minLength: 3, maxLength: 500 }),
  user_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  /** The account to link, by e-mail (the form's way of saying user_id). */
  user_email: t.Optional(t.String({ maxLength: 254 })),
});

/** Bars a person; a linked user's sessions end at once. */
export function addToBlacklist(db: Db, actor: Actor, input: unknown, now = new Date()): BlacklistEntry {
  const data = parseInput(BlacklistInput, input);
  const documentNumber = data.document_number.toUpperCase();
  if (db.select({ id: blacklist.id }).from(blacklist).where(eq(blacklist.documentNumber, documentNumber)).get()) {
    throw new ValidationFailed({ document_number: message("access.already_blacklisted") });
  }
  let userId: number | null = data.user_id ?? null;
  if (userId !== null && !db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get()) throw new ValidationFailed({ user_id: message("access.user_not_found") });
  if (userId === null && data.user_email) {
    userId = db.select({ id: users.id }).from(users).where(eq(users.email, data.user_email.trim().toLowerCase())).get()?.id ?? null;
    if (userId === null) throw new ValidationFailed({ user_email: message("access.user_not_found") });
  }
  userId ??= db.select({ id: users.id }).from(users).where(eq(users.documentNumber, documentNumber)).get()?.id ?? null;
  return db.transaction((tx) => {
    if (userId !== null) ensureNotLastSuper(tx, userId);
    const entry = tx
      .insert(blacklist)
      .values({ documentNumber, name: data.name, reason: data.reason, userId, decidedBy: actor.userId, createdAt: now })
      .returning()
      .get();
    if (userId !== null) tx.delete(sessions).where(eq(sessions.userId, userId)).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, { action: "blacklist.added", subjectType: "blacklist", subjectId: entry.id, after: { documentNumber, name: data.name, reason: data.reason, userId } });
    return entry;
  });
}

export function removeFromBlacklist(db: Db, actor: Actor, id: number): void {
  const entry = db.select().from(blacklist).where(eq(blacklist.id, id)).get();
  if (!entry) throw new NotFound();
  db.transaction((tx) => {
    tx.delete(blacklist).where(eq(blacklist.id, id)).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, { action: "blacklist.removed", subjectType: "blacklist", subjectId: id, before: { documentNumber: entry.documentNumber, name: entry.name, reason: entry.reason, userId: entry.userId } });
  });
}

/** Whether a document number is barred (the point of sale checks diners against this). */
export function isDocumentBlacklisted(db: Db, documentNumber: string): BlacklistEntry | undefined {
  return db.select().from(blacklist).where(eq(blacklist.documentNumber, documentNumber.trim().toUpperCase())).get();
}

/** Whether a user is barred, by link or by their document number. */
export function isUserBlacklisted(db: Db, user: { id: number; documentNumber: string | null }): boolean {
  const condition = user.documentNumber ? or(eq(blacklist.userId, user.id), eq(blacklist.documentNumber, user.documentNumber.toUpperCase())) : eq(blacklist.userId, user.id);
  return db.select({ id: blacklist.id }).from(blacklist).where(and(condition)).get() !== undefined;
}
