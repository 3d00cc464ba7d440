/**
 * Who is signed in: the session's user, or the remember-me cookie's. Signing in regenerates the session id;
 * signing out ends the session on the server and invalidates remember-me everywhere.
 */
import { randomToken, safeEqual, sha256 } from "../crypto";
import { findUserById, recordSignIn, setRememberTokenHash, type User } from "../domain/accounts/users";
import type { RequestContext } from "./context";
import { accessProfile } from "../domain/access/authorization";

export const REMEMBER_COOKIE = "mesa_remember";
const REMEMBER_DAYS = 30;
export const PASSWORD_CONFIRMED_KEY = "_password_confirmed_at";
/** When this session signed in (ms): an open point of sale keeps it alive up to POS_SESSION_MAX_HOURS after. */
export const SIGNED_IN_AT_KEY = "_signed_in_at";

/** The user, when they may be signed in: active and not on the blacklist. */
function activeUser(ctx: RequestContext, id: number): User | null {
  const user = findUserById(ctx.db, id);
  if (!user || user.status !== "active") return null;
  const profile = accessProfile(ctx.db, user.id);
  if (profile.blacklisted) return null;
  // The rest of the request (access check, navigation) reads the profile just read.
  ctx.keepAccess(user.id, profile);
  return user;
}

/** Resolves the request's user (session first, then remember-me) and applies their language. */
export function authenticate(ctx: RequestContext): void {
  const { session } = ctx;
  // The browser names a session that has ended (idle past its lifetime, or ended elsewhere): as after signing out,
  // the next page drops the history the tab kept of it.
  if (session.isNew && ctx.cookies[ctx.config.sessionCookie]) ctx.clearHistory();
  if (session.userId !== null) {
    const user = activeUser(ctx, session.userId);
    if (user) ctx.user = user;
    else {
      // Deleted, deactivated or barred since the last request: this session ends now, and so does its history.
      session.invalidate();
      ctx.setCookie(REMEMBER_COOKIE, "", { httpOnly: true, maxAgeSeconds: 0 });
      ctx.clearHistory();
    }
  } else if (ctx.cookies[REMEMBER_COOKIE]) {
    const [id, token] = ctx.cookies[REMEMBER_COOKIE].split("|");
    const user = /^\d+$/.test(id ?? "") && token ? activeUser(ctx, Number(id)) : null;
    if (user && user.rememberTokenHash && safeEqual(user.rememberTokenHash, sha256(token))) {
      session.regenerate();
      session.setUser(user.id);
      session.put(SIGNED_IN_AT_KEY, Date.now());
      ctx.user = user;
    } else {
      ctx.setCookie(REMEMBER_COOKIE, "", { httpOnly: true, maxAgeSeconds: 0 });
    }
  }
  if (ctx.user?.language) ctx.locale = ctx.user.language;
}

export function signIn(ctx: RequestContext, user: User, remember: boolean): void {
  ctx.session.regenerate();
  ctx.session.setUser(user.id);
  ctx.session.put(PASSWORD_CONFIRMED_KEY, Date.now());
  ctx.session.put(SIGNED_IN_AT_KEY, Date.now());
  ctx.user = user;
  recordSignIn(ctx.db, user.id);
  if (remember) {
    const token = randomToken(32);
    setRememberTokenHash(ctx.db, user.id, sha256(token));
    ctx.setCookie(REMEMBER_COOKIE, `${user.id}|${token}`, {
      httpOnly: true,
      maxAgeSeconds: REMEMBER_DAYS * 24 * 60 * 60,
    });
  }
  if (user.language) ctx.locale = user.language;
}

export function signOut(ctx: RequestContext): void {
  if (ctx.user) setRememberTokenHash(ctx.db, ctx.user.id, null);
  ctx.services.sessions.destroy(ctx.session.id);
  ctx.session.invalidate();
  ctx.user = null;
  ctx.setCookie(REMEMBER_COOKIE, "", { httpOnly: true, maxAgeSeconds: 0 });
  ctx.clearHistory();
}

/** Whether the password was confirmed recently enough for a sensitive action. */
export function passwordRecentlyConfirmed(ctx: RequestContext): boolean {
  const at = ctx.session.get<number>(PASSWORD_CONFIRMED_KEY);
  return typeof at === "number" && Date.now() - at < ctx.config.passwordConfirmTimeout * 1000;
}
