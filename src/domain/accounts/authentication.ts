/**
 * Checking credentials. A wrong password and an unknown e-mail get the same message and take the same time;
 * failed attempts are throttled at 5 per minute per e-mail and address; a deactivated account cannot sign in.
 */
import type { Db } from "../../db";
import { message, ValidationFailed } from "../errors";
import type { RateLimiter } from "../rate-limit";
import { field, parseInput, t } from "../validation";
import { timingDummyHash, verifyPassword } from "./passwords";
import { findUserByEmail, normalizeEmail, type User } from "./users";
import { isUserBlacklisted } from "../access/blacklist";

export const SIGN_IN_MAX_ATTEMPTS = 5;
export const SIGN_IN_DECAY_SECONDS = 60;

export const SignInInput = t.Object({
  email: field.email(),
  password: field.password(),
  remember: t.Optional(t.Boolean()),
});

export function signInThrottleKey(email: string, ip: string | null): string {
  return `sign-in:${normalizeEmail(email)}|${ip ?? "unknown"}`;
}

/** Returns the user whose credentials these are, or throws ValidationFailed / TooManyAttempts. */
export async function checkCredentials(db: Db, limiter: RateLimiter, input: unknown, ip: string | null): Promise<{ user: User; remember: boolean }> {
  const data = parseInput(SignInInput, input, ["password"]);
  const key = signInThrottleKey(data.email, ip);
  limiter.ensureNotLimited(key, SIGN_IN_MAX_ATTEMPTS);

  const user = findUserByEmail(db, data.email);
  const valid = await verifyPassword(data.password, user?.passwordHash ?? (await timingDummyHash()));
  if (!user || !valid) {
    limiter.hit(key, SIGN_IN_DECAY_SECONDS);
    throw new ValidationFailed({ email: message("auth.failed") });
  }
  if (user.status !== "active") throw new ValidationFailed({ email: message("auth.deactivated") });
  if (isUserBlacklisted(db, user)) throw new ValidationFailed({ email: message("auth.blacklisted") });
  limiter.clear(key);
  return { user, remember: data.remember === true };
}
