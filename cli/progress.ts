/**
 * The progress of a job run on the command line, on standard error so standard output holds only the result. On a
 * terminal it is one bar redrawn in place and wiped at the end; otherwise (a pipe, a log file, cron) it is plain
 * lines: one when the step changes and one each further tenth of the way, never the same line twice in a row.
 */
import type { Translate, TranslationKey } from "../src/shared/i18n";

export interface ProgressReporter {
  /** Reports `done` of `total` for the step `label` (a translation key), like a job's `progress`. */
  update(done: number, total: number, label: TranslationKey): void;
  /** Ends the report: wipes the bar (the result is printed next). */
  finish(): void;
}

const BAR_WIDTH = 24;
/** A terminal's bar is redrawn at most this often (and whenever the step changes). */
const REDRAW_MS = 80;

/** What the step is at, in words: "Checking the rows: 120 of 2000", or "Reading the workbook…" when there is nothing to count. */
export function progressText(t: Translate, done: number, total: number, label: TranslationKey): string {
  return total > 1 ? t("jobs.progress_count", { label: t(label), done, total }) : `${t(label)}…`;
}

/** A reporter writing to `stream`: a bar when it is a terminal, plain lines otherwise. */
export function progressReporter(
  stream: { isTTY?: boolean; write(text: string): unknown },
  t: Translate,
): ProgressReporter {
  let label: TranslationKey | "" = "";
  let tenth = 0;
  let lastLine = "";
  let drawnAt = 0;
  let drawn = false;

  if (stream.isTTY) {
    return {
      update(done, total, next) {
        const now = Date.now();
        if (next === label && now - drawnAt < REDRAW_MS && done < total) return;
        label = next;
        drawnAt = now;
        const share = total > 0 ? Math.min(1, done / total) : 0;
        const filled = Math.round(share * BAR_WIDTH);
        const bar =
          total > 1
            ? `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)} %  `
            : "";
        stream.write(`\r\x1b[2K${bar}${progressText(t, done, total, next)}`);
        drawn = true;
      },
      finish() {
        if (drawn) stream.write("\r\x1b[2K");
        drawn = false;
      },
    };
  }

  return {
    update(done, total, next) {
      const nextTenth = total > 0 ? Math.floor((10 * done) / total) : 0;
      if (next === label && nextTenth <= tenth) return;
      label = next;
      tenth = nextTenth;
      const line = progressText(t, done, total, next);
      if (line === lastLine) return;
      lastLine = line;
      stream.write(`${line}\n`);
    },
    finish() {},
  };
}
