/**
 * Attempt counters kept in the database (they survive restarts). `take` counts an attempt before the work it
 * guards (one statement that increments and returns the count), so concurrent requests cannot all slip past a
 * check made before any of them was counted; `refund` gives one attempt back, `clear` forgets a key after a success.
 */
import type { Db } from "../db";
import { TooManyAttempts } from "./errors";

/** At most `max` attempts in a window of `decaySeconds` that starts with the first attempt. */
export interface Limit {
  readonly max: number;
  readonly decaySeconds: number;
}

/**
 * Every throttle of Mesa. Limits per account are tight: they stop guessing one person's password. Limits per
 * address are generous, because a whole mining camp reaches Mesa through one NAT address and a few hundred people
 * sign in there at shift change; they stop one address from spraying guesses over many accounts or sending mail
 * to many addresses. An address is an IPv4 address or an IPv6 /64 (see src/http/client-ip.ts).
 */
export const LIMITS = {
  /** `sign-in:<e-mail>|<address>`: sign-in attempts for one account from one address; a sign-in clears it. */
  signIn: { max: 5, decaySeconds: 60 },
  /**
   * `sign-in-address:<address>`: failed sign-ins from one address, whatever the e-mail (a right password is given
   * back). A camp of 600 where one person in three mistypes once stays under it.
   */
  signInPerAddress: { max: 200, decaySeconds: 15 * 60 },
  /** `register:<e-mail>`: registration attempts for one e-mail, whoever sends them. */
  registerPerEmail: { max: 10, decaySeconds: 60 * 60 },
  /** `register-address:<address>`: registration attempts from one address (a camp signing up on its first day). */
  registerPerAddress: { max: 100, decaySeconds: 60 * 60 },
  /**
   * `forgot-password:<e-mail>|<address>`: reset-link requests for one e-mail from one address, known or not. Not per
   * e-mail alone, or anyone could keep a worker from getting a link; one link a minute per account still bounds the mail.
   */
  resetRequestPerEmail: { max: 5, decaySeconds: 60 * 60 },
  /** `forgot-password-address:<address>`: reset-link requests from one address, whatever the e-mail. */
  resetRequestPerAddress: { max: 100, decaySeconds: 60 * 60 },
  /** `verification-mail:<user id>`: verification mails a signed-in user asks for again. */
  verificationMail: { max: 6, decaySeconds: 60 },
  /** `confirm-password:<user id>`: password confirmations before sensitive pages; a right password clears it. */
  confirmPassword: { max: 5, decaySeconds: 60 },
  /** `password-update:<user id>`: password changes in the settings, right or wrong. */
  passwordUpdate: { max: 6, decaySeconds: 60 },
  /**
   * `diner-lookup:<user id>`: the point of sale's searches by document number, which find diners of every cafe. A
   * till at its busiest looks up a few documents a minute; a script walking through DNIs to learn who eats where
   * is held to two a second.
   */
  dinerLookup: { max: 120, decaySeconds: 60 },
} as const satisfies Record<string, Limit>;

export class RateLimiter {
  constructor(private readonly db: Db) {}

  private row(key: string, now: number): { attempts: number; resetAt: number } | null {
    const row = this.db.$client
      .query<{ attempts: number; reset_at: number }, [string]>(
        "SELECT attempts, reset_at FROM rate_limits WHERE key = ?",
      )
      .get(key);
    if (!row || row.reset_at <= now) return null;
    return { attempts: row.attempts, resetAt: row.reset_at };
  }

  /** Adds one attempt in one statement and returns the new count; an ended window starts again at 1. */
  private count(key: string, decaySeconds: number, now: number): { attempts: number; resetAt: number } {
    const row = this.db.$client
      .query<{ attempts: number; reset_at: number }, [string, number, number]>(
        `INSERT INTO rate_limits (key, attempts, reset_at) VALUES (?1, 1, ?2)
         ON CONFLICT(key) DO UPDATE SET
           attempts = CASE WHEN reset_at <= ?3 THEN 1 ELSE attempts + 1 END,
           reset_at = CASE WHEN reset_at <= ?3 THEN excluded.reset_at ELSE reset_at END
         RETURNING attempts, reset_at`,
      )
      .get(key, now + decaySeconds * 1000, now)!;
    return { attempts: row.attempts, resetAt: row.reset_at };
  }

  /** Counts one attempt; the window starts with the first attempt and lasts `decaySeconds`. */
  hit(key: string, decaySeconds: number, now = Date.now()): number {
    return this.count(key, decaySeconds, now).attempts;
  }

  /**
   * Counts one attempt against each limit, in the order given, before the work it guards (Mesa lists the address
   * first, so a refused address adds no row for each e-mail tried). When one limit is passed, the attempt is given
   * back to every counter it touched and TooManyAttempts is thrown: a refused attempt counts against nothing.
   */
  take(checks: { key: string; limit: Limit }[], now = Date.now()): void {
    const counted: string[] = [];
    for (const { key, limit } of checks) {
      const { attempts, resetAt } = this.count(key, limit.decaySeconds, now);
      counted.push(key);
      if (attempts > limit.max) {
        for (const done of counted) this.refund(done);
        throw new TooManyAttempts(Math.max(1, Math.ceil((resetAt - now) / 1000)));
      }
    }
  }

  /** Gives back one attempt counted by `take` or `hit` (a right password, say). */
  refund(key: string): void {
    this.db.$client.query("UPDATE rate_limits SET attempts = attempts - 1 WHERE key = ? AND attempts > 0").run(key);
  }

  /** Seconds until the window of `key` ends (0 when none is open). */
  availableIn(key: string, now = Date.now()): number {
    const current = this.row(key, now);
    return current ? Math.max(1, Math.ceil((current.resetAt - now) / 1000)) : 0;
  }

  /** Whether `maxAttempts` attempts were already counted in the open window. */
  tooMany(key: string, maxAttempts: number, now = Date.now()): boolean {
    return (this.row(key, now)?.attempts ?? 0) >= maxAttempts;
  }

  /** Throws TooManyAttempts when the limit is reached (a check only: call `hit` with no await in between, or use `take`). */
  ensureNotLimited(key: string, maxAttempts: number, now = Date.now()): void {
    if (this.tooMany(key, maxAttempts, now)) throw new TooManyAttempts(this.availableIn(key, now));
  }

  /** Forgets counters whose window has ended. */
  prune(now = Date.now()): number {
    return this.db.$client.query("DELETE FROM rate_limits WHERE reset_at <= ?").run(now).changes;
  }

  /** Forgets a key (after a success). */
  clear(key: string): void {
    this.db.$client.query("DELETE FROM rate_limits WHERE key = ?").run(key);
  }
}
