/** Printing domain errors on the command line, in the configured language. */
import { translate, type Locale } from "../src/shared/i18n";
import { ValidationFailed } from "../src/domain/errors";
import { type Message } from "../src/shared/message";
import { CliError } from "./bootstrap";

export function say(locale: Locale, message: Message): string {
  return typeof message === "string" ? translate(locale, message) : translate(locale, message.key, message.params);
}

/** Turns a validation failure into a CLI error listing each field's message. */
export function explainValidation(error: unknown, locale: Locale): never {
  if (error instanceof ValidationFailed) {
    const lines = Object.entries(error.errors).map(([field, m]) => `  ${field}: ${say(locale, m)}`);
    throw new CliError(`${translate(locale, "validation.failed")}\n${lines.join("\n")}`);
  }
  throw error;
}

/** Prints rows as an aligned table. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (c ?? "").padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
