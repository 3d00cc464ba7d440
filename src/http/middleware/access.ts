/**
 * The one permission check: does this request's user satisfy a route's declared access?
 * Guests pass only public and guest routes. Users and permissions arrive with the accounts and
 * access-control areas; until then no request is signed in.
 */
import type { RequestContext } from "../context";
import type { Access } from "../routing";
import { Forbidden, Unauthenticated } from "../../domain/errors";

function signedInUserId(ctx: RequestContext): number | null {
  return ctx.session.userId;
}

export function isAllowed(access: Access, ctx: RequestContext): boolean {
  const userId = signedInUserId(ctx);
  switch (access.kind) {
    case "public":
      return true;
    case "guest":
      return userId === null;
    case "signed-in":
      return userId !== null;
    case "permission":
      return false;
  }
}

/** Throws Unauthenticated for guests on protected routes and Forbidden for users without the permission. */
export function authorize(access: Access, ctx: RequestContext): void {
  if (isAllowed(access, ctx)) return;
  if (access.kind === "guest") throw new Forbidden();
  if (signedInUserId(ctx) === null) throw new Unauthenticated();
  throw new Forbidden();
}
