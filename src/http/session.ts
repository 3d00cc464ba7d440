/**
 * Server-side sessions kept in the `sessions` table. The cookie carries a random id; the table stores its
 * SHA-256. Flash data lives for exactly one following request, as the page protocol expects of errors.
 */
import { eq } from "drizzle-orm";
import { sessions } from "../../db/schema";
import type { Db } from "../db";
import { randomToken, sha256 } from "../crypto";

type SessionData = Record<string, unknown> & { _flash?: { new: string[]; old: string[] } };

const hashId = sha256;

export class Session {
  private dirty = false;

  constructor(
    public id: string,
    private data: SessionData,
    public userId: number | null,
    readonly isNew: boolean,
    readonly lastActivity: number,
    /** The id the session was loaded under, dropped from the store when the id is regenerated. */
    public previousId: string | null = null,
  ) {}

  get<T = unknown>(key: string): T | undefined {
    return this.data[key] as T | undefined;
  }

  put(key: string, value: unknown): void {
    this.data[key] = value;
    this.dirty = true;
  }

  forget(key: string): void {
    if (key in this.data) {
      delete this.data[key];
      this.dirty = true;
    }
  }

  /** Stores a value that the next request can read, then it is gone. */
  flash(key: string, value: unknown): void {
    const flash = this.data._flash ?? { new: [], old: [] };
    this.data[key] = value;
    flash.new = [...new Set([...flash.new, key])];
    flash.old = flash.old.filter((k) => k !== key);
    this.data._flash = flash;
    this.dirty = true;
  }

  /** The CSRF token of this session, created on first use. */
  csrfToken(): string {
    let token = this.get<string>("_token");
    if (!token) {
      token = randomToken(30);
      this.put("_token", token);
    }
    return token;
  }

  /** Gives the session a new id (on sign-in and sign-out) so a fixed id cannot be reused by an attacker. */
  regenerate(): void {
    this.previousId ??= this.id;
    this.id = randomToken();
    this.dirty = true;
  }

  /** Empties the session and gives it a new id and CSRF token. */
  invalidate(): void {
    this.data = {};
    this.userId = null;
    this.regenerate();
  }

  setUser(userId: number | null): void {
    this.userId = userId;
    this.dirty = true;
  }

  /** Keeps this request's flash data for one more request (when the page will be loaded again in full). */
  reflash(): void {
    const flash = this.data._flash;
    if (!flash || flash.old.length === 0) return;
    this.data._flash = { new: [...new Set([...flash.new, ...flash.old])], old: [] };
    this.dirty = true;
  }

  /** Ages flash data: what was flashed this request survives one more; what the last one flashed goes. */
  ageFlash(): void {
    const flash = this.data._flash;
    if (!flash || (flash.old.length === 0 && flash.new.length === 0)) return;
    for (const key of flash.old) delete this.data[key];
    this.data._flash = { old: flash.new, new: [] };
    this.dirty = true;
  }

  isDirty(): boolean {
    return this.dirty;
  }

  snapshot(): SessionData {
    return this.data;
  }
}

export interface SessionMeta {
  ipAddress: string | null;
  userAgent: string | null;
}

/** Reads and writes sessions; a session idle longer than the lifetime is treated as absent. */
export class SessionStore {
  private readonly findStatement;
  private readonly upsertStatement;
  private readonly touchStatement;
  private readonly deleteStatement;

  constructor(
    private readonly db: Db,
    private readonly lifetimeSeconds: number,
  ) {
    const client = db.$client;
    this.findStatement = client.query<{ data: string; user_id: number | null; last_activity: number }, [string]>(
      "SELECT data, user_id, last_activity FROM sessions WHERE id = ?",
    );
    this.upsertStatement = client.query(
      `INSERT INTO sessions (id, user_id, data, ip_address, user_agent, last_activity) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET user_id = excluded.user_id, data = excluded.data, ip_address = excluded.ip_address,
       user_agent = excluded.user_agent, last_activity = excluded.last_activity`,
    );
    this.touchStatement = client.query("UPDATE sessions SET last_activity = ? WHERE id = ?");
    this.deleteStatement = client.query("DELETE FROM sessions WHERE id = ?");
  }

  /** Loads the session named by the cookie, or starts a fresh one. */
  load(cookieId: string | undefined, now = Date.now()): Session {
    if (cookieId && /^[A-Za-z0-9_-]{40,64}$/.test(cookieId)) {
      const row = this.findStatement.get(hashId(cookieId));
      if (row && row.last_activity * 1000 > now - this.lifetimeSeconds * 1000) {
        return new Session(cookieId, JSON.parse(row.data), row.user_id, false, row.last_activity);
      }
    }
    return new Session(randomToken(), {}, null, true, 0);
  }

  /** Writes the session when it changed; otherwise refreshes its activity time at most once a minute. */
  save(session: Session, meta: SessionMeta, now = Date.now()): void {
    const nowSeconds = Math.floor(now / 1000);
    if (session.previousId) {
      this.deleteStatement.run(hashId(session.previousId));
      session.previousId = null;
    }
    if (session.isDirty() || session.isNew) {
      this.upsertStatement.run(
        hashId(session.id),
        session.userId,
        JSON.stringify(session.snapshot()),
        meta.ipAddress,
        meta.userAgent?.slice(0, 500) ?? null,
        nowSeconds,
      );
    } else if (nowSeconds - session.lastActivity >= 60) {
      this.touchStatement.run(nowSeconds, hashId(session.id));
    }
  }

  destroy(id: string): void {
    this.deleteStatement.run(hashId(id));
  }

  /** Ends every session of a user (deactivation, password change), optionally keeping one. */
  destroyForUser(userId: number, exceptId?: string): number {
    const keep = exceptId ? hashId(exceptId) : "";
    return this.db.$client.query("DELETE FROM sessions WHERE user_id = ? AND id <> ?").run(userId, keep).changes;
  }

  /** Removes sessions idle longer than the lifetime. */
  prune(now = Date.now()): number {
    const cutoff = Math.floor(now / 1000) - this.lifetimeSeconds;
    return this.db.$client.query("DELETE FROM sessions WHERE last_activity < ?").run(cutoff).changes;
  }

  exists(id: string): boolean {
    return (
      this.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.id, hashId(id)))
        .get() !== undefined
    );
  }
}
