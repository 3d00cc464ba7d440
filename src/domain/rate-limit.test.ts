import { describe, expect, test } from "bun:test";
import { migrateDatabase, openDatabase } from "../db";
import { TooManyAttempts } from "./errors";
import { RateLimiter } from "./rate-limit";

describe("rate limiter", () => {
  const fresh = () => {
    const db = openDatabase(":memory:");
    migrateDatabase(db);
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
