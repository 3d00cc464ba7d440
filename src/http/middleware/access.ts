/**
 * The one access check: does this request's user satisfy a route's declaration? Guests pass only public and
 * guest routes; signed-in routes also need a verified e-mail (unless the route allows otherwise) and, for
 * sensitive routes, a recent password confirmation. Permission routes need a role that grants the permission
 * (or the super-administrator role); the profile is cached until access changes, so this costs no query.
 */
import type { RequestContext } from "../context";
import type { Access, RouteDefinition } from "../routing";
import { Forbidden, Unauthenticated } from "../../domain/errors";
import { passwordRecentlyConfirmed } from "../auth";
import { can } from "../../domain/access/authorization";

/** A signed-in user opened a page meant for guests (sign-in, registration). */
export class AlreadySignedIn extends Error {}
/** The route needs a verified e-mail address. */
export class EmailNotVerified extends Error {}
/** The route is sensitive and the password was not confirmed recently. */
export class PasswordConfirmationRequired extends Error {}

export function isAllowed(access: Access, ctx: RequestContext): boolean {
  switch (access.kind) {
    case "public":
      return true;
    case "guest":
      return ctx.user === null;
    case "signed-in":
      return ctx.user !== null;
    case "permission":
      return ctx.user !== null && can(ctx.access, access.permission);
  }
}

/** Throws the error that explains why this request may not use `route`. */
export function authorize(route: RouteDefinition, ctx: RequestContext): void {
  const { access } = route;
  if (!isAllowed(access, ctx)) {
    if (access.kind === "guest") throw new AlreadySignedIn();
    if (ctx.user === null) throw new Unauthenticated();
    throw new Forbidden();
  }
  if (ctx.user === null || access.kind === "public" || access.kind === "guest") return;
  if (!ctx.user.emailVerifiedAt && !route.allowUnverified) throw new EmailNotVerified();
  if (route.confirmPassword && !passwordRecentlyConfirmed(ctx)) throw new PasswordConfirmationRequired();
}
