/**
 * The one place where errors become responses. Page requests get an error page (or, for validation, a
 * redirect back with the errors flashed); JSON clients get a JSON body with the same status.
 */
import { Conflict, Forbidden, NotFound, TooManyAttempts, Unauthenticated, ValidationFailed } from "../domain/errors";
import { message } from "../shared/message";
import { MalformedBody, PayloadTooLarge, UnsupportedMediaType } from "./body";
import type { RequestContext } from "./context";
import { AlreadySignedIn, EmailNotVerified, PasswordConfirmationRequired } from "./middleware/access";
import { isStorageFull } from "../storage-health";
import { log } from "../log";

/** A state-changing request without a valid CSRF token. */
export class TokenMismatch extends Error {}

/** The statuses an error page has words for (`errors.title.<status>`, `errors.description.<status>`). */
export type TitledStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 419 | 423 | 429 | 500 | 503;

export function statusOf(error: unknown): TitledStatus | 422 {
  if (error instanceof ValidationFailed) return 422;
  if (error instanceof Unauthenticated) return 401;
  if (error instanceof Forbidden) return 403;
  if (error instanceof NotFound) return 404;
  if (error instanceof Conflict) return 409;
  if (error instanceof PayloadTooLarge) return 413;
  if (error instanceof UnsupportedMediaType) return 415;
  if (error instanceof TokenMismatch) return 419;
  if (error instanceof MalformedBody) return 400;
  if (error instanceof TooManyAttempts) return 429;
  if (error instanceof EmailNotVerified) return 403;
  if (error instanceof PasswordConfirmationRequired) return 423;
  if (error instanceof AlreadySignedIn) return 403;
  // A full disk: nothing was written (every write is a transaction); it works again once there is room.
  if (isStorageFull(error)) return 503;
  return 500;
}

/** Where to return after signing in or confirming the password: the page asked for, or the page a form was sent from. */
function rememberIntended(ctx: RequestContext): void {
  if (ctx.method === "GET") {
    ctx.session.put("_intended", ctx.url.pathname + ctx.url.search);
    return;
  }
  const referer = ctx.request.headers.get("referer");
  try {
    const from = referer ? new URL(referer) : null;
    if (from && from.origin === ctx.url.origin) ctx.session.put("_intended", from.pathname + from.search);
  } catch {}
}

/**
 * True for SQLite's refusal of a duplicate. Services check uniqueness before they write, so this is only reached
 * when another process (the CLI, say) wrote the same name in between: the person is told to try again.
 */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

export async function errorResponse(ctx: RequestContext, caught: unknown): Promise<Response> {
  const duplicate = isUniqueViolation(caught);
  // Logged all the same: a duplicate that no concurrent write explains is a bug to look into.
  if (duplicate)
    log.error({ reqId: ctx.requestId, method: ctx.method, route: ctx.route.name, err: caught }, "unique constraint");
  const error = duplicate ? new Conflict(message("errors.changed_meanwhile")) : caught;
  const status = statusOf(error);
  const diskFull = status === 503 && isStorageFull(error);
  // Said once a minute, not once a request: a full disk refuses every write at once.
  if (diskFull) ctx.services.storage.failed(`${ctx.method} ${ctx.route.uri}`);
  if (status === 500)
    log.error({ reqId: ctx.requestId, method: ctx.method, route: ctx.route.name, err: error }, "request failed");

  if (error instanceof ValidationFailed) {
    if (ctx.wantsJson) {
      const errors = Object.fromEntries(Object.entries(error.errors).map(([field, m]) => [field, ctx.say(m)]));
      return Response.json({ message: ctx.t("validation.failed"), errors }, { status: 422 });
    }
    ctx.flashErrors(error.errors);
    return ctx.back();
  }
  if (error instanceof Conflict && !ctx.wantsJson) {
    // 409 belongs to the page protocol (asset version, external redirects), so a conflict goes back as a form error.
    ctx.flashErrors({ form: error.detail });
    return ctx.back();
  }
  if (!ctx.wantsJson) {
    if (error instanceof Unauthenticated) {
      rememberIntended(ctx);
      return ctx.redirect(ctx.urlFor("login"));
    }
    if (error instanceof AlreadySignedIn) return ctx.redirect(ctx.urlFor("dashboard"));
    if (error instanceof EmailNotVerified) return ctx.redirect(ctx.urlFor("verification.notice"));
    if (error instanceof PasswordConfirmationRequired) {
      rememberIntended(ctx);
      return ctx.redirect(ctx.urlFor("password.confirm"));
    }
  }

  const headers: Record<string, string> = {};
  let retryAfter: number | undefined;
  if (error instanceof TooManyAttempts) {
    retryAfter = error.retryAfterSeconds;
    headers["retry-after"] = String(retryAfter);
  }
  if (diskFull) headers["retry-after"] = "60";
  if (ctx.wantsJson) {
    const message =
      error instanceof Conflict
        ? ctx.say(error.detail)
        : diskFull
          ? ctx.t("errors.disk_full")
          : status === 422
            ? ctx.t("validation.failed")
            : ctx.t(`errors.title.${status}`);
    return Response.json({ message }, { status, headers });
  }
  const response = await ctx.render("error", { status, retryAfter: retryAfter ?? null }, { status });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}
