/**
 * Checking credentials. A wrong password and an unknown e-mail get the same message and take the same time;
 * attempts are throttled per e-mail and address and per address alone (LIMITS in src/domain/rate-limit.ts),
 * counted before the password is checked; a deactivated account cannot sign in.
 */
import type { Db } from "../../db";
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { LIMITS, type RateLimiter } from "../rate-limit";
import { field, parseInput, t } from "../validation";
import { timingDummyHash, verifyPassword } from "./passwords";
import { findUserByEmail, normalizeEmail, type User } from "./users";
import { isUserBlacklisted } from "../access/blacklist";

export const SignInInput = t.Object({
  email: field.emailLookup(),
  password: field.password(),
  remember: t.Optional(t.Boolean()),
});

/** The counter of sign-in attempts for one e-mail from one address. */
export function signInThrottleKey(email: string, address: string | null): string {
  return `sign-in:${normalizeEmail(email)}|${address ?? "unknown"}`;
}

/** The counter of failed sign-ins from one address, whatever the e-mail. */
export function signInAddressKey(address: string | null): string {
  return `sign-in-address:${address ?? "unknown"}`;
}

/**
 * Returns the user whose credentials these are, or throws ValidationFailed / TooManyAttempts. `address` is the
 * client's address as rate limits count it (src/http/client-ip.ts), or null when unknown (the CLI, tests).
 */
export async function checkCredentials(
  db: Db,
  limiter: RateLimiter,
  input: unknown,
  address: string | null,
): Promise<{ user: User; remember: boolean }> {
  const data = parseInput(SignInInput, input, ["password"]);
  const accountKey = signInThrottleKey(data.email, address);
  const addressKey = signInAddressKey(address);
  // Counted before the password hash is checked, so concurrent attempts cannot all pass the same check.
  limiter.take([
    { key: addressKey, limit: LIMITS.signInPerAddress },
    { key: accountKey, limit: LIMITS.signIn },
  ]);

  const user = findUserByEmail(db, data.email);
  const valid = await verifyPassword(data.password, user?.passwordHash ?? (await timingDummyHash()));
  if (!user || !valid) throw new ValidationFailed({ email: message("auth.failed") });
  // A right password is not a guess: the attempt is given back.
  limiter.refund(accountKey);
  limiter.refund(addressKey);
  if (user.status !== "active") throw new ValidationFailed({ email: message("auth.deactivated") });
  if (isUserBlacklisted(db, user)) throw new ValidationFailed({ email: message("auth.blacklisted") });
  limiter.clear(accountKey);
  return { user, remember: data.remember === true };
}
