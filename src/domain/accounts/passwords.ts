/** Password hashing (argon2id through Bun.password) and the password policy. */
import { message, type Message } from "../../shared/message";
import { COMMON_PASSWORDS } from "./common-passwords";

/** Argon2id parameters as Bun.password takes them (memory in KiB, passes); left out means Bun's default. */
export type HashingCost = Readonly<{ algorithm: "argon2id"; memoryCost?: number; timeCost?: number }>;

/** Production's cost: Bun's argon2id defaults (64 MiB of memory, 2 passes), unchanged. */
export const PRODUCTION_COST: HashingCost = Object.freeze({ algorithm: "argon2id" });

/** The cheapest cost argon2id allows (8 KiB, 1 pass): for the test suite only, never for a real password. */
export const TEST_COST: HashingCost = Object.freeze({ algorithm: "argon2id", memoryCost: 8, timeCost: 1 });

/** The cost for a process started with this NODE_ENV: the cheap one only for exactly "test". */
export function hashingCostFor(nodeEnv: string | undefined): HashingCost {
  return nodeEnv === "test" ? TEST_COST : PRODUCTION_COST;
}

/**
 * The cost this process hashes with, decided once when the module loads and never changed afterwards: the test
 * suite (tests/support/preload.ts sets NODE_ENV=test before anything loads, the CLI tests start their processes
 * with it, and so does the browser tests' fixture process, which makes their people; their server runs as in
 * production, so a password typed into its forms hashes at the production cost) hashes in well under a millisecond
 * instead of about 0.3 s. Anything else, unset and development included, gets the production cost. Verifying needs
 * no cost: argon2 writes its parameters into the hash, so a hash made at either cost verifies anywhere.
 */
export const HASHING_COST: HashingCost = hashingCostFor(process.env.NODE_ENV);

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, HASHING_COST);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/**
 * A hash to check against when the account does not exist, so a sign-in for an unknown e-mail takes as long
 * as one with a wrong password. Made by hashPassword, so it has the cost this process hashes with.
 */
let dummyHash: Promise<string> | null = null;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword("mesa-timing-equaliser");
  return dummyHash;
}

/** Why a new password is not acceptable, or null when it is. */
export function passwordProblem(password: string, minLength: number, personal: string[] = []): Message | null {
  if (password.length < minLength) return message("validation.password.min", { min: minLength });
  if (password.length > 200) return message("validation.max_length", { max: 200 });
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || /^(.)\1+$/.test(password)) return message("validation.password.common");
  for (const value of personal) {
    const part = value.toLowerCase().split("@")[0].trim();
    if (part.length >= 4 && lower.includes(part)) return message("validation.password.personal");
  }
  return null;
}
