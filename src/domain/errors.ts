/**
 * Typed errors the domain and the HTTP layer throw. Each maps to one status in src/http/errors.ts, so a
 * service never thinks about HTTP and a route never invents a status.
 */
import type { Message } from "../shared/message";

export class DomainError extends Error {}

/** The thing asked for does not exist (or lies outside the actor's scope, which must look the same). */
export class NotFound extends DomainError {
  constructor(message = "Not found") {
    super(message);
  }
}

/** Signed in, but without the permission or scope this needs. */
export class Forbidden extends DomainError {
  constructor(message = "Forbidden") {
    super(message);
  }
}

/** Not signed in where a signed-in user is required. */
export class Unauthenticated extends DomainError {
  constructor(message = "Unauthenticated") {
    super(message);
  }
}

/** Input that breaks a rule: one message per field, keyed by the field's name (dot paths for nested fields). */
export class ValidationFailed extends DomainError {
  constructor(readonly errors: Record<string, Message>) {
    super(`Validation failed: ${Object.keys(errors).join(", ")}`);
  }
}

/** The request is valid but collides with the current state (a duplicate, a dependant that blocks a delete). */
export class Conflict extends DomainError {
  constructor(readonly detail: Message) {
    super(typeof detail === "string" ? detail : detail.key);
  }
}

/** Too many attempts; `retryAfterSeconds` tells when to try again. */
export class TooManyAttempts extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many attempts");
  }
}
