/**
 * Attempt counters kept in the database (they survive restarts): `hit` counts an attempt in a window,
 * `tooMany` says whether the limit is reached, `clear` forgets the key after a success.
 */
import type { Db } from "../db";
import { TooManyAttempts } from "./errors";

export class RateLimiter {
  constructor(private readonly db: Db) {}

  private row(key: string, now: number): { attempts: number; resetAt: number } | null {
    const row = this.db.$client
      .query<{ attempts: number; reset_at: number }, [string]>("SELECT attempts, reset_at FROM rate_limits WHERE key = ?")
      .get(key);
    if (!row || row.reset_at <= now) return null;
    return { attempts: row.attempts, resetAt: row.reset_at };
  }

  /** Counts one attempt; the window starts with the first attempt and lasts `decaySeconds`. */
  hit(key: string, decaySeconds: number, now = Date.now()): number {
    const current = this.row(key, now);
    const attempts = (current?.attempts ?? 0) + 1;
    const resetAt = current?.resetAt ?? now + decaySeconds * 1000;
    this.db.$client
      .query("INSERT INTO rate_limits (key, attempts, reset_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET attempts = excluded.attempts, reset_at = excluded.reset_at")
      .run(key, attempts, resetAt);
    return attempts;
  }

  /** Seconds until the window of `key` ends (0 when none is open). */
  availableIn(key: string, now = Date.now()): number {
    const current = this.row(key, now);
    return current ? Math.max(1, Math.ceil((current.resetAt - now) / 1000)) : 0;
  }

  tooMany(key: string, maxAttempts: number, now = Date.now()): boolean {
    return (this.row(key, now)?.attempts ?? 0) >= maxAttempts;
  }

  /** Throws TooManyAttempts when the limit is reached. */
  ensureNotLimited(key: string, maxAttempts: number, now = Date.now()): void {
    if (this.tooMany(key, maxAttempts, now)) throw new TooManyAttempts(this.availableIn(key, now));
  }

  /** Forgets counters whose window has ended. */
  prune(now = Date.now()): number {
    return this.db.$client.query("DELETE FROM rate_limits WHERE reset_at <= ?").run(now).changes;
  }

  clear(key: string): void {
    this.db.$client.query("DELETE FROM rate_limits WHERE key = ?").run(key);
  }
}
