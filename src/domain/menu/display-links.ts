/**
 * Display links: a link that opens a cafe's menu board in the dining room without signing in, until it is revoked.
 * The token is random (32 bytes, base64url) and shown once, when the link is made; only its SHA-256 is kept, so
 * the database alone never opens a board. A token is looked up by its hash and the stored hash compared in
 * constant time. Revoking a link refuses its next request at once and closes the board's realtime connections
 * (the `DisplayLinkRevoked` domain event; src/realtime/subscribers.ts).
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { cafes, displayLinks, users } from "../../../db/schema";
import type { Db } from "../../db";
import { randomToken, safeEqual, sha256 } from "../../crypto";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { Publisher } from "../events";
import type { Limit } from "../rate-limit";
import type { DisplayLinkRow } from "../../shared/menu/types";
export type { DisplayLinkRow } from "../../shared/menu/types";

/** Bytes of randomness in a token (256 bits). */
export const TOKEN_BYTES = 32;
/** A token as it appears in a link: base64url of TOKEN_BYTES bytes. */
export const TOKEN_FORMAT = "[A-Za-z0-9_-]{43}";
const TOKEN = new RegExp(`^${TOKEN_FORMAT}$`);
/** The longest label. */
export const LABEL_MAX = 80;
/**
 * `display-link:<user id>`: links one person makes. A cafe has a few screens; a script minting links by the
 * thousand is held to twenty an hour.
 */
export const CREATE_LIMIT = { max: 20, decaySeconds: 60 * 60 } as const satisfies Limit;

/** A link just made: its row, and the token, shown this once. */
export interface NewDisplayLink {
  link: DisplayLinkRow;
  token: string;
}

function ensureCafeInScope(db: Db, scope: Scope, cafeId: number): { id: number; name: string } {
  const cafe = db.select({ id: cafes.id, name: cafes.name }).from(cafes).where(eq(cafes.id, cafeId)).get();
  if (!cafe || !reachesCafe(scope, cafe.id)) throw new NotFound();
  return cafe;
}

function toRow(row: {
  id: number;
  label: string;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): DisplayLinkRow {
  return {
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The cafe's links, newest first, revoked ones included (they say when). */
export function listDisplayLinks(db: Db, scope: Scope, cafeId: number): DisplayLinkRow[] {
  ensureCafeInScope(db, scope, cafeId);
  return db
    .select({
      id: displayLinks.id,
      label: displayLinks.label,
      createdAt: displayLinks.createdAt,
      createdBy: users.name,
      lastUsedAt: displayLinks.lastUsedAt,
      revokedAt: displayLinks.revokedAt,
    })
    .from(displayLinks)
    .leftJoin(users, eq(users.id, displayLinks.createdBy))
    .where(eq(displayLinks.cafeId, cafeId))
    .orderBy(desc(displayLinks.createdAt), desc(displayLinks.id))
    .all()
    .map(toRow);
}

/** Makes a link for the cafe; the token comes back once and is never kept. */
export function createDisplayLink(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: { label?: unknown },
  now = new Date(),
): NewDisplayLink {
  const cafe = ensureCafeInScope(db, scope, cafeId);
  const label = typeof input.label === "string" ? input.label.trim().replace(/\s+/g, " ") : "";
  if (label === "") throw new ValidationFailed({ label: message("menuBoard.links.label_required") });
  if (label.length > LABEL_MAX)
    throw new ValidationFailed({ label: message("menuBoard.links.label_too_long", { max: LABEL_MAX }) });
  const token = randomToken(TOKEN_BYTES);
  const row = db.transaction((tx) => {
    const link = tx
      .insert(displayLinks)
      .values({ cafeId: cafe.id, label, tokenHash: sha256(token), createdAt: now, createdBy: actor.userId })
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "display_link.created",
        subjectType: "display_link",
        subjectId: link.id,
        places: [{ cafeId: cafe.id }],
        after: { label, cafe: cafe.name },
      },
      now,
    );
    return link;
  });
  const createdBy = actor.userId
    ? (db.select({ name: users.name }).from(users).where(eq(users.id, actor.userId)).get()?.name ?? null)
    : null;
  return { link: toRow({ ...row, createdBy }), token };
}

/**
 * Revokes a link (of a cafe `scope` reaches): its next request is refused, and once the transaction committed its
 * board's realtime connections are closed (DisplayLinkRevoked). Revoking a revoked link changes nothing and
 * announces nothing.
 */
export function revokeDisplayLink(
  db: Db,
  actor: Actor,
  scope: Scope,
  linkId: number,
  events: Publisher,
  now = new Date(),
): DisplayLinkRow {
  const found = db.select({ cafeId: displayLinks.cafeId }).from(displayLinks).where(eq(displayLinks.id, linkId)).get();
  if (!found) throw new NotFound();
  const cafe = ensureCafeInScope(db, scope, found.cafeId);
  const revoked = db.transaction((tx) => {
    const link = tx.select().from(displayLinks).where(eq(displayLinks.id, linkId)).get();
    if (!link) throw new NotFound();
    if (link.revokedAt !== null) return null;
    tx.update(displayLinks).set({ revokedAt: now }).where(eq(displayLinks.id, link.id)).run();
    recordAudit(
      tx,
      actor,
      {
        action: "display_link.revoked",
        subjectType: "display_link",
        subjectId: link.id,
        places: [{ cafeId: cafe.id }],
        before: { label: link.label, cafe: cafe.name },
      },
      now,
    );
    return link.id;
  });
  if (revoked !== null) events.publish({ name: "DisplayLinkRevoked", linkId: revoked, cafeId: cafe.id });
  const row = listDisplayLinks(db, scope, cafe.id).find((l) => l.id === linkId);
  if (!row) throw new NotFound();
  return row;
}

/** What a valid token opens: its link and cafe. */
export interface DisplayLinkGrant {
  linkId: number;
  cafeId: number;
}

/**
 * The link a token belongs to, while it is not revoked; null for a malformed, unknown or revoked token. The token is
 * looked up by its hash (an index), and the stored hash compared with the computed one in constant time. `touch`
 * records the use (at most once a minute, so a board on a screen all day writes little).
 */
export function findDisplayLink(
  db: Db,
  token: string,
  { touch = false, now = new Date() }: { touch?: boolean; now?: Date } = {},
): DisplayLinkGrant | null {
  if (!TOKEN.test(token)) return null;
  const hash = sha256(token);
  const link = db
    .select({
      id: displayLinks.id,
      cafeId: displayLinks.cafeId,
      tokenHash: displayLinks.tokenHash,
      lastUsedAt: displayLinks.lastUsedAt,
    })
    .from(displayLinks)
    .where(and(eq(displayLinks.tokenHash, hash), isNull(displayLinks.revokedAt)))
    .get();
  if (!link || !safeEqual(link.tokenHash, hash)) return null;
  if (touch && (link.lastUsedAt === null || now.getTime() - link.lastUsedAt.getTime() >= 60_000))
    db.update(displayLinks).set({ lastUsedAt: now }).where(eq(displayLinks.id, link.id)).run();
  return { linkId: link.id, cafeId: link.cafeId };
}
