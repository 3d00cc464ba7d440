/** Reading the errors a domain service throws. */
import { ValidationFailed } from "../../src/domain/errors";
import { translate, type Locale } from "../../src/shared/i18n";

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

/** The per-field texts a call is refused with, in `locale` (English unless said). */
export function refusalOf(run: () => unknown, locale: Locale = "en"): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errorsOf(run)).map(([field, m]) => [
      field,
      typeof m === "string" ? translate(locale, m) : translate(locale, m.key, m.params),
    ]),
  );
}
