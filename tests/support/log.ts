/** The process's log (src/log.ts) while a test runs: its lines collected, parsed, instead of written. */
import { logInto } from "../../src/log";

export interface CapturedLog {
  /** Every line so far, parsed (`msg`, `level`, `err` with its `message` and `stack`, …). */
  lines: Record<string, any>[];
  /** Everything written, as text: to look for what must not be there. */
  text(): string;
  restore(): void;
}

/** Collects the log's lines from now until `restore()`. */
export function captureLog(): CapturedLog {
  const raw: string[] = [];
  const lines: Record<string, any>[] = [];
  const restore = logInto((line) => {
    raw.push(line);
    lines.push(JSON.parse(line));
  });
  return { lines, text: () => raw.join(""), restore };
}
