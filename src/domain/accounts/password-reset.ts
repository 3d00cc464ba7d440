/**
 * Password reset: a random token, stored hashed, valid 60 minutes, used once; a new request replaces the
 * previous token, and at most one request per minute per e-mail is honoured. Whether an account exists is never
 * revealed to the person asking.
 */
import { eq } from "drizzle-orm";
import { passwordResetTokens, sessions } from "../../../db/schema";
import type { Config } from "../../config";
import { randomToken, safeEqual, sha256 } from "../../crypto";
import type { Db } from "../../db";
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { field, parseInput, t } from "../validation";
import { hashPassword } from "./passwords";
import { ensurePasswordAcceptable, findUserByEmail, normalizeEmail, type User } from "./users";
import { users } from "../../../db/schema";

export const RESET_TOKEN_MINUTES = 60;
export const RESET_THROTTLE_SECONDS = 60;

export const ResetRequestInput = t.Object({ email: field.emailLookup() });

/**
 * Creates a reset token for the account with this e-mail. Returns null when there is no such active account or
 * when one was requested less than a minute ago (the caller answers the same either way).
 */
export function createResetToken(db: Db, input: unknown, now = Date.now()): { user: User; token: string } | null {
  const { email } = parseInput(ResetRequestInput, input);
  const user = findUserByEmail(db, email);
  if (!user || user.status !== "active") return null;
  const existing = db.select().from(passwordResetTokens).where(eq(passwordResetTokens.email, user.email)).get();
  if (existing && existing.createdAt.getTime() > now - RESET_THROTTLE_SECONDS * 1000) return null;
  const token = randomToken(32);
  db.insert(passwordResetTokens)
    .values({
      email: user.email,
      tokenHash: sha256(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + RESET_TOKEN_MINUTES * 60 * 1000),
    })
    .onConflictDoUpdate({
      target: passwordResetTokens.email,
      set: {
        tokenHash: sha256(token),
        createdAt: new Date(now),
        expiresAt: new Date(now + RESET_TOKEN_MINUTES * 60 * 1000),
      },
    })
    .run();
  return { user, token };
}

export const INVITATION_DAYS = 7;

/** An invitation to choose a first password: a password link valid for 7 days, replacing any pending one. */
export function createInvitationToken(db: Db, user: User, now = Date.now()): string {
  const token = randomToken(32);
  const values = {
    tokenHash: sha256(token),
    createdAt: new Date(now),
    expiresAt: new Date(now + INVITATION_DAYS * 24 * 60 * 60 * 1000),
  };
  db.insert(passwordResetTokens)
    .values({ email: user.email, ...values })
    .onConflictDoUpdate({ target: passwordResetTokens.email, set: values })
    .run();
  return token;
}

export const ResetInput = t.Object({
  token: t.String({ minLength: 1, maxLength: 200 }),
  email: field.emailLookup(),
  password: field.password(),
  password_confirmation: field.password(),
});

/** Sets a new password with a valid token; the token is spent, other sessions and remember-me tokens end. */
export async function resetPassword(db: Db, config: Config, input: unknown, now = Date.now()): Promise<User> {
  const data = parseInput(ResetInput, input, ["password", "password_confirmation"]);
  const email = normalizeEmail(data.email);
  const row = db.select().from(passwordResetTokens).where(eq(passwordResetTokens.email, email)).get();
  const user = findUserByEmail(db, email);
  const valid =
    row !== undefined &&
    user !== undefined &&
    user.status === "active" &&
    row.expiresAt.getTime() > now &&
    safeEqual(row.tokenHash, sha256(data.token));
  if (!valid) throw new ValidationFailed({ email: message("auth.reset_invalid") });
  ensurePasswordAcceptable(config, data.password, data.password_confirmation, [user.name, user.email]);
  const passwordHash = await hashPassword(data.password);
  db.transaction((tx) => {
    // The link reached the mailbox, which proves the address: an invited or unverified account is now verified.
    tx.update(users)
      .set({
        passwordHash,
        rememberTokenHash: null,
        emailVerifiedAt: user.emailVerifiedAt ?? new Date(now),
        updatedAt: new Date(now),
      })
      .where(eq(users.id, user.id))
      .run();
    tx.delete(passwordResetTokens).where(eq(passwordResetTokens.email, email)).run();
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
  });
  return user;
}
