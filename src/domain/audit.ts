/**
 * The audit trail: every change to users, roles, permissions, areas and the blacklist is recorded with who made
 * it, when, and the values before and after.
 */
import { desc, sql } from "drizzle-orm";
import { auditLog, users } from "../../db/schema";
import type { Db } from "../db";

/** Who is acting: a signed-in user, or the command line. */
export interface Actor {
  userId: number | null;
  label: string;
}

export const CLI_ACTOR: Actor = { userId: null, label: "cli" };

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export interface AuditEntry {
  action: string;
  subjectType: string;
  subjectId: number | null;
  before?: unknown;
  after?: unknown;
}

export function recordAudit(tx: Tx, actor: Actor, entry: AuditEntry, now = new Date()): void {
  tx.insert(auditLog)
    .values({
      actorId: actor.userId,
      actorLabel: actor.label,
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      createdAt: now,
    })
    .run();
}

export interface AuditRow {
  id: number;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: number | null;
  before: unknown;
  after: unknown;
  createdAt: string;
}

/** The newest entries first, paginated and optionally searched by action or subject. */
export function listAudit(db: Db, options: { page: number; perPage: number; search?: string }): { rows: AuditRow[]; total: number } {
  const search = options.search?.trim() ? `%${options.search.trim()}%` : null;
  const where = search ? sql`${auditLog.action} LIKE ${search} OR ${auditLog.subjectType} LIKE ${search} OR ${auditLog.actorLabel} LIKE ${search}` : undefined;
  const total = db.select({ n: sql<number>`count(*)` }).from(auditLog).where(where).get()?.n ?? 0;
  const rows = db
    .select({ entry: auditLog, actorName: users.name })
    .from(auditLog)
    .leftJoin(users, sql`${users.id} = ${auditLog.actorId}`)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage)
    .all();
  return {
    total,
    rows: rows.map(({ entry, actorName }) => ({
      id: entry.id,
      actor: actorName ?? entry.actorLabel,
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      before: entry.before ? JSON.parse(entry.before) : null,
      after: entry.after ? JSON.parse(entry.after) : null,
      createdAt: entry.createdAt.toISOString(),
    })),
  };
}
