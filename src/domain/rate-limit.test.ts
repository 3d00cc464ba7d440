import { describe, expect, test } from "bun:test";
import { openDatabase } from "../db";
import { migratedDatabase } from "../../tests/support/database";
import { TooManyAttempts } from "./errors";
import { RateLimiter } from "./rate-limit";

describe("rate limiter", () => {
  const fresh = () => {
    const db = migratedDatabase();
    return new RateLimiter(db);
  };

  test("counts attempts in a window and refuses past the limit, then the window ends", () => {
    const limiter = fresh();
    for (let i = 0; i < 5; i++) limiter.hit("k", 60, 1_000);
    expect(limiter.tooMany("k", 5, 2_000)).toBe(true);
    expect(() => limiter.ensureNotLimited("k", 5, 2_000)).toThrow(TooManyAttempts);
    expect(limiter.availableIn("k", 2_000)).toBe(59);
    expect(limiter.tooMany("k", 5, 61_001)).toBe(false);
  });

  test("clear forgets a key; prune removes only ended windows", () => {
    const limiter = fresh();
    limiter.hit("a", 60, 0);
    limiter.hit("b", 600, 0);
    expect(limiter.prune(61_000)).toBe(1);
    expect(limiter.tooMany("b", 1, 61_000)).toBe(true);
    limiter.clear("b");
    expect(limiter.tooMany("b", 1, 61_000)).toBe(false);
  });
});

describe("take", () => {
  const fresh = () => {
    const db = migratedDatabase();
    return { db, limiter: new RateLimiter(db) };
  };
  const five = { max: 5, decaySeconds: 60 };
  const attemptsOf = (db: ReturnType<typeof openDatabase>, key: string) =>
    db.$client.query<{ attempts: number }, [string]>("SELECT attempts FROM rate_limits WHERE key = ?").get(key)
      ?.attempts ?? 0;

  test("counts before the work: the attempt past the limit is refused with the seconds left, and counts nothing", () => {
    const { db, limiter } = fresh();
    for (let i = 0; i < 5; i++) limiter.take([{ key: "k", limit: five }], 1_000);
    const refused = (() => {
      try {
        limiter.take([{ key: "k", limit: five }], 2_000);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(TooManyAttempts);
    expect((refused as TooManyAttempts).retryAfterSeconds).toBe(59);
    expect(attemptsOf(db, "k")).toBe(5);
    // The window does not move with refused attempts, and a new one starts after it ended.
    limiter.take([{ key: "k", limit: five }], 61_000);
    expect(attemptsOf(db, "k")).toBe(1);
  });

  test("one limit reached: the attempt is given back to the others", () => {
    const { db, limiter } = fresh();
    const one = { max: 1, decaySeconds: 60 };
    limiter.take(
      [
        { key: "account", limit: one },
        { key: "address", limit: five },
      ],
      0,
    );
    expect(() =>
      limiter.take(
        [
          { key: "account", limit: one },
          { key: "address", limit: five },
        ],
        0,
      ),
    ).toThrow(TooManyAttempts);
    expect(() =>
      limiter.take(
        [
          { key: "other", limit: five },
          { key: "account", limit: one },
        ],
        0,
      ),
    ).toThrow(TooManyAttempts);
    expect(attemptsOf(db, "account")).toBe(1);
    expect(attemptsOf(db, "address")).toBe(1);
    expect(attemptsOf(db, "other")).toBe(0);
  });

  test("refund gives one attempt back and never goes below zero", () => {
    const { db, limiter } = fresh();
    limiter.hit("k", 60, 0);
    limiter.hit("k", 60, 0);
    limiter.refund("k");
    expect(attemptsOf(db, "k")).toBe(1);
    limiter.refund("k");
    limiter.refund("k");
    limiter.refund("missing");
    expect(attemptsOf(db, "k")).toBe(0);
  });

  test("hit counts in one statement and returns the count", () => {
    const { limiter } = fresh();
    expect(limiter.hit("k", 60, 0)).toBe(1);
    expect(limiter.hit("k", 60, 10)).toBe(2);
    expect(limiter.availableIn("k", 10)).toBe(60);
    expect(limiter.hit("k", 60, 60_000)).toBe(1);
  });
});
