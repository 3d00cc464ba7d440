/**
 * Mesa's log: one JSON object per line on standard output, through pino — a request's line (`LOG_REQUESTS`), an
 * error with its stack, a warning. Every line has `time` (ISO 8601), `level` (a word) and `msg`; a request's line
 * and an error met while answering it carry the request's id (`reqId`, also sent back as X-Request-ID).
 *
 * What never goes into it: request bodies, query strings, cookies and headers are not logged at all; a request is
 * logged by its route's pattern (`/diners/{diner}`), never its path, so no document number, token or name in a URL
 * reaches the log. The redaction below is a second guard for a field someone adds by mistake.
 */
import { writeSync } from "node:fs";
import pino, { type Logger } from "pino";

export type { Logger };

/** The levels LOG_LEVEL takes, quietest last. */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const REDACTED = [
  "password",
  "*.password",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "document_number",
  "*.document_number",
  "documentNumber",
  "*.documentNumber",
  "headers",
  "*.headers",
  "cookie",
  "*.cookie",
  "body",
  "*.body",
];

/** A logger writing to `destination` (standard output when not given). */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { app: "mesa" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED, censor: "[withheld]" },
    },
    destination,
  );
}

/** Where the process's log lines go: standard output, written at once (a line is never lost to a sudden exit). */
let write: (line: string) => void = (line) => void writeSync(1, line);

/**
 * The process's log. The server, the realtime server and background work write to it; its level is the setting's
 * (`configureLog`, called once the settings are read). The command line speaks to people instead (cli/), not here.
 */
export const log: Logger = createLogger("info", { write: (line: string) => write(line) });

/** Sends the process's log lines to `destination` instead, until the returned function puts standard output back. */
export function logInto(destination: (line: string) => void): () => void {
  const before = write;
  write = destination;
  return () => {
    write = before;
  };
}

/** Sets the process's log level from the settings. */
export function configureLog(level: LogLevel): void {
  log.level = level;
}
