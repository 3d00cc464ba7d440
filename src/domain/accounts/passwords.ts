/** Password hashing (argon2id through Bun.password) and the password policy. */
import { message, type Message } from "../errors";
import { COMMON_PASSWORDS } from "./common-passwords";

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
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
 * as one with a wrong password.
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
