/** Reading the errors a domain service throws. */
import { ValidationFailed } from "../../src/domain/errors";

/** The per-field messages a call is refused with; fails unless it is refused with ValidationFailed. */
export function errorsOf(run: () => unknown): ValidationFailed["errors"] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error("expected ValidationFailed, the call succeeded");
}
