/**
 * The password hashing cost: production keeps Bun's argon2id defaults, only a process started with NODE_ENV=test
 * hashes at the cheapest cost, and a hash made at either cost verifies.
 */
import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import {
  HASHING_COST,
  hashingCostFor,
  hashPassword,
  PRODUCTION_COST,
  TEST_COST,
  timingDummyHash,
  verifyPassword,
} from "./passwords";

/** The parameters argon2 wrote into a hash: "$argon2id$v=19$m=65536,t=2,p=1$salt$hash" → { m, t, p }. */
function parametersOf(hash: string): { algorithm: string; m: number; t: number; p: number } {
  const match = hash.match(/^\$(argon2id)\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/);
  if (!match) throw new Error(`not an argon2id hash: ${hash}`);
  return { algorithm: match[1], m: Number(match[2]), t: Number(match[3]), p: Number(match[4]) };
}

describe("the hashing cost", () => {
  test("production hashes with Bun's argon2id defaults, never weaker than 64 MiB and 2 passes", async () => {
    expect(PRODUCTION_COST).toEqual({ algorithm: "argon2id" });
    const production = parametersOf(await Bun.password.hash("x", PRODUCTION_COST));
    const defaults = parametersOf(await Bun.password.hash("x", "argon2id"));
    expect(production).toEqual(defaults);
    expect(production.m).toBeGreaterThanOrEqual(65536);
    expect(production.t).toBeGreaterThanOrEqual(2);
  });

  test("only NODE_ENV=test, exactly, gets the cheap cost", () => {
    expect(hashingCostFor("test")).toBe(TEST_COST);
    for (const env of ["production", "development", undefined, "", "Test", "TEST", " test", "test ", "testing"]) {
      expect({ env, cost: hashingCostFor(env) }).toEqual({ env, cost: PRODUCTION_COST });
    }
  });

  test("the costs cannot be changed once loaded", () => {
    expect(Object.isFrozen(PRODUCTION_COST)).toBe(true);
    expect(Object.isFrozen(TEST_COST)).toBe(true);
    expect(() => ((PRODUCTION_COST as { memoryCost?: number }).memoryCost = 8)).toThrow();
  });

  test("a process started for production or development, or without NODE_ENV, hashes at the production cost", () => {
    const script = `import { HASHING_COST, hashPassword } from ${JSON.stringify(resolve(import.meta.dir, "passwords.ts"))};
      console.log(JSON.stringify({ cost: HASHING_COST, hash: await hashPassword("x") }));`;
    for (const nodeEnv of ["production", "development", undefined]) {
      const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: nodeEnv };
      if (nodeEnv === undefined) delete env.NODE_ENV;
      // Run from a folder without a .env file, so only the NODE_ENV given here counts.
      const run = Bun.spawnSync([process.execPath, "-e", script], {
        cwd: tmpdir(),
        env,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect({ nodeEnv, err: run.stderr.toString(), code: run.exitCode }).toEqual({ nodeEnv, err: "", code: 0 });
      const { cost, hash } = JSON.parse(run.stdout.toString());
      expect({ nodeEnv, cost }).toEqual({ nodeEnv, cost: PRODUCTION_COST });
      expect({ nodeEnv, m: parametersOf(hash).m, t: parametersOf(hash).t }).toEqual({ nodeEnv, m: 65536, t: 2 });
    }
  });

  test("the test suite hashes at the cheapest cost argon2id allows", async () => {
    expect(process.env.NODE_ENV).toBe("test");
    expect(HASHING_COST).toBe(TEST_COST);
    expect(parametersOf(await hashPassword("correct-horse-42"))).toEqual({ algorithm: "argon2id", m: 8, t: 1, p: 1 });
    // Bun refuses anything cheaper.
    expect(() => Bun.password.hash("x", { algorithm: "argon2id", memoryCost: 7, timeCost: 1 })).toThrow(
      "Memory cost must be at least 8",
    );
    expect(() => Bun.password.hash("x", { algorithm: "argon2id", memoryCost: 8, timeCost: 0 })).toThrow(
      "Time cost must be greater than 0",
    );
  });

  test("the timing equaliser's hash has the cost in use", async () => {
    expect(parametersOf(await timingDummyHash())).toEqual(parametersOf(await hashPassword("other")));
  });
});

describe("verifying", () => {
  test("a hash made at either cost verifies, and a wrong password does not", async () => {
    for (const cost of [PRODUCTION_COST, TEST_COST]) {
      const hash = await Bun.password.hash("correct-horse-42", cost);
      expect(await verifyPassword("correct-horse-42", hash)).toBe(true);
      expect(await verifyPassword("correct-horse-43", hash)).toBe(false);
    }
  });

  test("a hash that is not a hash is a wrong password, not an error", async () => {
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });
});
