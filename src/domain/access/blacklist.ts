/**
 * The blacklist: people barred by document (type and number, src/shared/documents.ts), with the reason, the date
 * and who decided. A listed person cannot be sold meals; a user account linked to the entry (directly, or by having
 * the same document) cannot sign in, and its sessions end when the entry is added. An account linked directly must
 * be the same person's: its document is the entry's, or, when it has none, its name is the entry's. Removing the
 * entry restores access.
 */
import { and, asc, desc, eq, exists, or, sql } from "drizzle-orm";
import { areas, assignments, blacklist, sessions, users, visibleDiners } from "../../../db/schema";
import { alias } from "drizzle-orm/sqlite-core";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, placesOfUser, recordAudit, type Actor } from "../audit";
import {
  documentProblem,
  isDocumentType,
  normalizeDocumentNumber,
  sameDocument,
  type Document,
  type DocumentSettings,
  type DocumentType,
} from "../../shared/documents";
import { Forbidden, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { foldText, LIMIT, OFFSET, readList, searchMatch, searchPattern, type ListResult } from "../search";
import { documentFields, parseWithDocument, t } from "../validation";
import { ensureNotLastSuper, mayChangeUser } from "./assignments";
import { reachesCafe, type Scope } from "./scope";
import { areaScopeCondition } from "./areas";
import { bumpAccessVersion } from "./authorization";
import { NO_EVENTS, type Publisher } from "../events";
import { emailLookalike } from "../accounts/email-address";
import type { User } from "../accounts/users";
import type { BlacklistRow } from "../../shared/access/types";
export type { BlacklistRow } from "../../shared/access/types";

export type BlacklistEntry = typeof blacklist.$inferSelect;

const blacklistSearch = () => searchMatch([blacklist.documentNumber, blacklist.name, blacklist.reason]);

const countEntries = preparedQuery((db, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(blacklist)
    .where(searched ? blacklistSearch() : undefined)
    .prepare(),
);

/** Who decided an entry, and the account it bars: linked directly, or the first with its document. */
const decider = alias(users, "d");
const linked = alias(users, "u");

const entriesPage = preparedQuery((db, searched: boolean) =>
  db
    .select({
      entry: blacklist,
      decided: decider.name,
      userId: linked.id,
      userName: linked.name,
      userEmail: linked.email,
    })
    .from(blacklist)
    .leftJoin(decider, eq(decider.id, blacklist.decidedBy))
    .leftJoin(
      linked,
      sql`${linked.id} = COALESCE(${blacklist.userId}, (SELECT id FROM users WHERE document_type = ${blacklist.documentType} AND document_number = ${blacklist.documentNumber} LIMIT 1))`,
    )
    .where(searched ? blacklistSearch() : undefined)
    .orderBy(desc(blacklist.id))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

/** Lists the blacklist; a linked account is named only when the actor may change it (otherwise `outsideScope`). */
export function listBlacklist(
  db: Db,
  scope: Scope,
  options: { search?: string; page: number; perPage: number },
): ListResult<BlacklistRow> {
  const search = searchPattern(options.search);
  const searched = search !== null;
  const found = readList(
    options,
    () => countEntries(db, searched).get({ search })?.n ?? 0,
    (window) => entriesPage(db, searched).all({ search, ...window }),
  );
  return {
    ...found,
    rows: found.rows.map(({ entry, decided, userId, userName, userEmail }) => ({
      id: entry.id,
      documentType: entry.documentType,
      documentNumber: entry.documentNumber,
      name: entry.name,
      reason: entry.reason,
      createdAt: entry.createdAt.toISOString(),
      decidedBy: decided,
      ...(userId && !mayChangeUser(db, scope, userId)
        ? { user: null, outsideScope: true }
        : {
            user: userId
              ? { id: userId, name: userName!, email: userEmail!, emailLookalike: emailLookalike(userEmail!) }
              : null,
            outsideScope: false,
          }),
    })),
  };
}

export const BlacklistInput = t.Object({
  ...documentFields({ optional: false }),
  name: t.String({ minLength: 2, maxLength: 120 }),
  reason: t.String({ minLength: 3, maxLength: 500 }),
  user_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  /** The account to link, by e-mail (the form's way of saying user_id). */
  user_email: t.Optional(t.String({ maxLength: 254 })),
});

/** The accounts with this document (the blacklist bars them too). */
function usersWithDocument(db: Db, document: Document): number[] {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.documentType, document.type), eq(users.documentNumber, document.number)))
    .all()
    .map((r) => r.id);
}

/** A person's name as the blacklist compares it: accents, case and repeated spaces ignored. */
function comparableName(name: string): string {
  return foldText(name).replace(/\s+/g, " ").trim();
}

/**
 * Why `account` cannot be linked to an entry for `document` and `name`, or null when it is the same person's: an
 * account with a document must have the entry's (type and number); one without must bear the entry's name.
 */
export function otherPersonProblem(
  account: Pick<User, "name" | "documentType" | "documentNumber">,
  document: Document,
  name: string,
): Message | null {
  if (account.documentType !== null && account.documentNumber !== null) {
    return sameDocument({ type: account.documentType, number: account.documentNumber }, document)
      ? null
      : message("access.blacklist_other_document");
  }
  return comparableName(account.name) === comparableName(name) ? null : message("access.blacklist_other_name");
}

/**
 * Bars a person by document (the DNI length from `settings`). Every account it bars (the linked one, and any with
 * the same document) loses its sessions in the same transaction; then UserBarred is published to `events` for each,
 * whose subscribers sign them out in their open tabs and close their realtime connections. A limited actor links
 * only accounts they may change (inside their places and nowhere else); an account they cannot see reads as
 * unknown, by id and by e-mail alike, and a document that belongs to an account outside their places is refused,
 * so no one bars people beyond their reach. An account linked by id or e-mail must be the same person's
 * (otherPersonProblem), or the link's field says so.
 */
export function addToBlacklist(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  settings: DocumentSettings,
  events: Publisher = NO_EVENTS,
  now = new Date(),
): BlacklistEntry {
  const { data, document: parsed } = parseWithDocument(BlacklistInput, input, settings);
  // The schema requires the number, so a parsed input has a document.
  const document = parsed!;
  if (isDocumentBlacklisted(db, document))
    throw new ValidationFailed({ document_number: message("access.already_blacklisted") });
  let userId: number | null = data.user_id ?? null;
  let linkField: "user_id" | "user_email" = "user_id";
  if (
    userId !== null &&
    !(db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get() && mayChangeUser(db, scope, userId))
  ) {
    throw new ValidationFailed({ user_id: message("access.user_not_found") });
  }
  if (userId === null && data.user_email) {
    linkField = "user_email";
    userId =
      db.select({ id: users.id }).from(users).where(eq(users.email, data.user_email.trim().toLowerCase())).get()?.id ??
      null;
    if (userId === null || !mayChangeUser(db, scope, userId))
      throw new ValidationFailed({ user_email: message("access.user_not_found") });
  }
  if (userId !== null) {
    const account = db
      .select({ name: users.name, documentType: users.documentType, documentNumber: users.documentNumber })
      .from(users)
      .where(eq(users.id, userId))
      .get()!;
    const problem = otherPersonProblem(account, document, data.name);
    if (problem) throw new ValidationFailed({ [linkField]: problem });
  }
  const withDocument = usersWithDocument(db, document);
  if (withDocument.some((id) => !mayChangeUser(db, scope, id)))
    throw new ValidationFailed({ document_number: message("access.blacklist_document_outside_scope") });
  userId ??= withDocument[0] ?? null;
  // The entry bars the linked account and every account with its document (isUserBlacklisted).
  const barred = [...new Set([...(userId === null ? [] : [userId]), ...withDocument])];
  const added = db.transaction((tx) => {
    for (const id of barred) ensureNotLastSuper(tx, id);
    const entry = tx
      .insert(blacklist)
      .values({
        documentType: document.type,
        documentNumber: document.number,
        name: data.name,
        reason: data.reason,
        nameFolded: foldText(data.name),
        reasonFolded: foldText(data.reason),
        userId,
        decidedBy: actor.userId,
        createdAt: now,
      })
      .returning()
      .get();
    for (const id of barred) tx.delete(sessions).where(eq(sessions.userId, id)).run();
    bumpAccessVersion(tx);
    // The entry is about the linked user's places; without a linked user it is company-wide.
    const places = userId === null ? COMPANY_WIDE : placesOfUser(tx, userId);
    recordAudit(tx, actor, {
      action: "blacklist.added",
      subjectType: "blacklist",
      subjectId: entry.id,
      places,
      after: {
        documentType: document.type,
        documentNumber: document.number,
        name: data.name,
        reason: data.reason,
        userId,
      },
    });
    return entry;
  });
  // Committed.
  for (const id of barred) events.publish({ name: "UserBarred", userId: id, entryId: added.id });
  return added;
}

/**
 * Lifts a bar. A limited actor may not lift one that reaches an account outside their places; a bar that reaches no
 * account bars a person in every cafe (company-wide), so only `companyWide` actors — the super-administrator, or
 * holders of blacklist.manage in a headquarters area — lift it.
 */
export function removeFromBlacklist(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  options: { companyWide: boolean },
): void {
  const entry = db.select().from(blacklist).where(eq(blacklist.id, id)).get();
  if (!entry) throw new NotFound();
  const document = { type: entry.documentType, number: entry.documentNumber };
  const withDocument = usersWithDocument(db, document);
  const reached = [...(entry.userId ? [entry.userId] : []), ...withDocument];
  if (reached.some((userId) => !mayChangeUser(db, scope, userId))) throw new Forbidden();
  if (reached.length === 0 && !scope.all && !options.companyWide) throw new Forbidden();
  // The linked user, as the list shows them: directly, or by the document.
  const linkedUserId = entry.userId ?? withDocument[0] ?? null;
  db.transaction((tx) => {
    tx.delete(blacklist).where(eq(blacklist.id, id)).run();
    bumpAccessVersion(tx);
    const places = linkedUserId === null ? COMPANY_WIDE : placesOfUser(tx, linkedUserId);
    recordAudit(tx, actor, {
      action: "blacklist.removed",
      subjectType: "blacklist",
      subjectId: id,
      places,
      before: {
        documentType: entry.documentType,
        documentNumber: entry.documentNumber,
        name: entry.name,
        reason: entry.reason,
        userId: entry.userId,
      },
    });
  });
}

/** The entry barring a document, if any (the point of sale checks diners against this). */
export function isDocumentBlacklisted(db: Db, document: Document): BlacklistEntry | undefined {
  return db
    .select()
    .from(blacklist)
    .where(
      and(
        eq(blacklist.documentType, document.type),
        eq(blacklist.documentNumber, normalizeDocumentNumber(document.number)),
      ),
    )
    .get();
}

/** Whether a user is barred, by link or by their document. */
export function isUserBlacklisted(
  db: Db,
  user: { id: number; documentType: DocumentType | null; documentNumber: string | null },
): boolean {
  const condition =
    user.documentType && user.documentNumber
      ? or(
          eq(blacklist.userId, user.id),
          and(eq(blacklist.documentType, user.documentType), eq(blacklist.documentNumber, user.documentNumber)),
        )
      : eq(blacklist.userId, user.id);
  return db.select({ id: blacklist.id }).from(blacklist).where(condition).get() !== undefined;
}

/**
 * A document as the blacklist form's lookup reads it: a known type and a number complete and valid for that type
 * (normalized), or null for anything else — partial input included, so a half-typed number looks nothing up.
 */
export function completeDocument(type: unknown, number: unknown, settings: DocumentSettings): Document | null {
  if (!isDocumentType(type) || typeof number !== "string" || number.length > 40) return null;
  const document = { type, number: normalizeDocumentNumber(number) };
  return documentProblem(document, settings) === null ? document : null;
}

/**
 * The name of the diner or user with exactly this document, when the actor's scope reaches them — a diner whose
 * home cafe is one of their cafes, a user holding a role in one of their places — for the blacklist form to offer.
 * A diner comes first (the blacklist bars meals at the till), then a user. Only the name: nothing else about them.
 */
export function nameForDocument(db: Db, scope: Scope, document: Document): string | null {
  const diner = db
    .select({ name: visibleDiners.name, cafeId: visibleDiners.cafeId })
    .from(visibleDiners)
    .where(and(eq(visibleDiners.documentType, document.type), eq(visibleDiners.documentNumber, document.number)))
    .get();
  if (diner && reachesCafe(scope, diner.cafeId)) return diner.name;
  const user = db
    .select({ name: users.name })
    .from(users)
    .where(
      and(
        eq(users.documentType, document.type),
        eq(users.documentNumber, document.number),
        scope.all
          ? undefined
          : exists(
              db
                .select({ userId: assignments.userId })
                .from(assignments)
                .innerJoin(areas, eq(areas.id, assignments.areaId))
                .where(and(eq(assignments.userId, users.id), areaScopeCondition(scope))),
            ),
      ),
    )
    .orderBy(asc(users.id))
    .get();
  return user?.name ?? null;
}
