/**
 * `./mesa import:diners FILE [--dry-run] [--json] [--cafe NAME] [--deactivate-leavers]`: loads diners from a
 * spreadsheet (.xlsx, .xls, .ods or .csv, its first sheet) with the same domain code as the Dinners page's Excel
 * dialog (src/domain/sales/diner-import.ts), as the `cli` actor with every place in scope and every permission.
 *
 * It reads the file, checks every row (previewDinerImport) and, unless --dry-run, writes it all or nothing
 * (importDiners, with the preview's plan: what it reports is what it wrote). `--cafe` is the home cafe of rows
 * whose cafe cell is blank (or of every row when the file has no cafe column), named as `./mesa diner:create`
 * names cafes: "Cafe", or "Unit/Cafe" when the name repeats. `--deactivate-leavers` deactivates the active diners
 * of the file's subdealerships at its cafes who are not in the file; without it they are listed and left alone.
 *
 * The summary goes to standard output (with --json as JSON: counts, leavers, each error with its row, column and
 * message in the configured language, the file and the result); a refused file's summary goes to standard error.
 * Exit codes: 0 when it imported (or, with --dry-run, could import) the file; 1 when the file is refused, nothing
 * written; 2 for usage mistakes (no FILE, an unknown option, a --cafe that names no cafe or more than one).
 * A progress bar is drawn on standard error when it is a terminal (never with --json).
 *
 * `--inbox DIR` takes each complete file in DIR once (for cron) and `--watch DIR` keeps doing so until SIGINT or
 * SIGTERM, finishing the file at hand. A file is complete when its size and modification time have not changed for
 * `--settle` seconds. A file is known by its bytes (SHA-256): bytes the ledger says were imported, refused or failed
 * before are not imported again, only moved; a corrected file is new bytes, whatever its name. Each file ends in
 * DIR/done/ or DIR/failed/ (its name kept, a timestamp added when the name is taken) with NAME.report.json (the
 * --json summary) and NAME.report.txt (the same in words) beside it. Imports a stopped process left half-written
 * are undone by the domain (recoverDinerImports) before each file, so their file is imported again from scratch.
 * `--inbox` exits with 0 when every file it took succeeded, 1 when any failed.
 */
import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  watch,
  writeFileSync,
  type FSWatcher,
  type Stats,
} from "node:fs";
import { basename, extname, join, relative, resolve } from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import type { Config } from "../../src/config";
import type { Db } from "../../src/db";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { Conflict, ValidationFailed } from "../../src/domain/errors";
import { type Message } from "../../src/shared/message";
import {
  ImportRefused,
  importDiners,
  importOfFile,
  PlanChanged,
  previewDinerImport,
  recordRefusedImport,
  recoverDinerImports,
  type DinerImportOptions,
  type DinerImportPreview,
  type DinerImportSource,
} from "../../src/domain/sales/diner-import";
import { DINER_INTAKE, readFirstSheetPacked, type SpreadsheetFormat } from "../../src/domain/spreadsheets/read";
import { intlLocale, translate, type Locale, type Translate } from "../../src/shared/i18n";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";
import { progressReporter, type ProgressReporter } from "../progress";
import { resolveCafe } from "./pos";

// ---------------------------------------------------------------------------------------------------------------
// Words

/** The command's own words: src/shared/i18n/locales/<language>/diner-import-cli.json, keys under "dinerImportCli.". */
const AREA = "dinerImportCli.";

/** The command's words in `locale`: its own keys and every other (the domain's messages, the progress line). */
export function commandWords(locale: Locale): Translate {
  return (key, params) => translate(locale, key, params);
}

// ---------------------------------------------------------------------------------------------------------------
// The summary: what --json prints and NAME.report.json holds

/**
 * How an import ended: `imported`; `checked` (a dry run that found no problem); `refused` (the file or some rows
 * have problems: nothing written); `plan_changed` (the diners changed under it each time it tried: nothing written);
 * `failed` (an unexpected error: what was written is undone); `busy` (another import is writing:
 * nothing tried; the inbox leaves the file for its next look); and, in the inbox, `already_imported` or `already_refused` for
 * bytes the ledger has seen (not imported again).
 */
export type DinerImportOutcome =
  "imported" | "checked" | "refused" | "plan_changed" | "failed" | "busy" | "already_imported" | "already_refused";

export interface DinerImportSummary {
  /** `sheet`: the sheet read (the first visible one; a CSV's is named after the file), once the file was read. */
  file: {
    name: string;
    path: string;
    sha256: string;
    bytes: number;
    format: SpreadsheetFormat | null;
    sheet: string | null;
  };
  /** The row of the sheet its headers are in (after a title above them), or null. */
  headerRow: number | null;
  result: DinerImportOutcome;
  /** Whether this went well: imported (now or before), or a dry run without problems. */
  ok: boolean;
  dryRun: boolean;
  /** The ledger entry (diner_imports) of this import, or of the earlier one for `already_…`. */
  importId: number | null;
  /** Data rows read (blank rows skipped). */
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  leavers: {
    count: number;
    /** Whether they are (or, with --dry-run, would be) deactivated. */
    deactivate: boolean;
    list: DinerImportPreview["leavers"];
  };
  /** The problems in the configured language; `row` and `column` are null for a problem of the whole file. */
  errors: { row: number | null; column: string | null; message: string }[];
  /** All of them (`errors` lists the first 200). */
  errorCount: number;
  unknownColumns: string[];
  blacklisted: DinerImportPreview["blacklisted"];
  /** The first 200 diners created or changed, with the fields that change. */
  changes: DinerImportPreview["changes"];
  /** The result in words, in the configured language. */
  message: string;
  finishedAt: string;
  /** Where the inbox moved the file (null when it was left in place). */
  movedTo?: string | null;
}

interface ImportSettings {
  dryRun: boolean;
  defaultCafeId: number | null;
  deactivateLeavers: boolean;
}

/** One run of the command: its database, settings, words and progress report. */
interface Session {
  db: Db;
  config: Config;
  t: Translate;
  progress: ProgressReporter;
  settings: ImportSettings;
}

const QUIET: ProgressReporter = { update() {}, finish() {} };

const documentLabel = (type: string, number: string) => `${type.toUpperCase()} ${number}`;

function emptySummary(path: string, bytes: Uint8Array, sha256: string, dryRun: boolean): DinerImportSummary {
  return {
    file: { name: basename(path), path: resolve(path), sha256, bytes: bytes.length, format: null, sheet: null },
    headerRow: null,
    result: "failed",
    ok: false,
    dryRun,
    importId: null,
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    deactivated: 0,
    leavers: { count: 0, deactivate: false, list: [] },
    errors: [],
    errorCount: 0,
    unknownColumns: [],
    blacklisted: [],
    changes: [],
    message: "",
    finishedAt: "",
  };
}

/** The preview's findings in the summary: counts, leavers, problems in words, unknown columns, blacklist, changes. */
function withPreview(summary: DinerImportSummary, preview: DinerImportPreview, session: Session): DinerImportSummary {
  const locale = session.config.locale;
  return {
    ...summary,
    file: { ...summary.file, sheet: preview.sheet },
    headerRow: preview.headerRow,
    rows: preview.rows,
    created: preview.created,
    updated: preview.updated,
    unchanged: preview.unchanged,
    leavers: { count: preview.leaverCount, deactivate: session.settings.deactivateLeavers, list: preview.leavers },
    errors: preview.problems.map((p) => ({ row: p.row, column: p.column, message: say(locale, p.message) })),
    errorCount: preview.problemCount,
    unknownColumns: preview.unknownColumns,
    blacklisted: preview.blacklisted,
    changes: preview.changes,
  };
}

function finished(
  summary: DinerImportSummary,
  result: DinerImportOutcome,
  session: Session,
  params: Record<string, string | number> = {},
  words?: string,
): DinerImportSummary {
  const ok = result === "imported" || result === "checked" || result === "already_imported";
  return {
    ...summary,
    result,
    ok,
    message: words ?? session.t(`${AREA}result_${result}`, params),
    finishedAt: new Date().toISOString(),
  };
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** How many times an import is tried again when the diners changed between its check and its write. */
const PLAN_ATTEMPTS = 3;

/**
 * Reads, checks and (unless a dry run) imports one file's bytes; never throws for a refused or failed file (the
 * summary says so). Half-written imports of stopped processes are undone first.
 */
async function importBytes(
  session: Session,
  path: string,
  bytes: Uint8Array,
  sha256: string,
  via: "cli" | "inbox",
): Promise<DinerImportSummary> {
  const { db, config, progress, settings } = session;
  const fileName = basename(path);
  const source: DinerImportSource = { fileName, sha256, via, jobId: null };
  let summary = emptySummary(path, bytes, sha256, settings.dryRun);
  const options: DinerImportOptions = {
    defaultCafeId: settings.defaultCafeId,
    deactivateLeavers: settings.deactivateLeavers,
    dniLength: config.dniLength,
    onProgress: (step, done, total) => progress.update(done, total, `${AREA}${step}`),
  };
  /** A refusal of the whole file (its message, not its rows), recorded in the ledger unless a dry run. */
  const refusedFile = (reason: Message) => {
    if (!settings.dryRun) summary.importId = recordRefusedImport(db, CLI_ACTOR, source, reason);
    summary.errors = [{ row: null, column: null, message: say(config.locale, reason) }];
    summary.errorCount = 1;
    return finished(summary, "refused", session);
  };

  try {
    recoverDinerImports(db);
    progress.update(0, 1, `${AREA}reading`);
    let read: Awaited<ReturnType<typeof readFirstSheetPacked>>;
    try {
      read = await readFirstSheetPacked(bytes, fileName, DINER_INTAKE);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      return refusedFile(error.errors.file ?? Object.values(error.errors)[0]);
    }
    summary.file.format = read.format;

    let preview = previewDinerImport(db, EVERYTHING, read.sheet, options);
    summary = withPreview(summary, preview, session);
    if (settings.dryRun) return finished(summary, preview.problemCount > 0 ? "refused" : "checked", session);

    for (let attempt = 1; ; attempt++) {
      try {
        // What is written is what was checked (the plan); a file with problems is handed over without a plan, to be
        // checked again, refused and recorded as refused.
        const { counts, importId } = await importDiners(db, CLI_ACTOR, EVERYTHING, read.sheet, {
          ...options,
          source,
          ...(preview.problemCount === 0 ? { expectedPlan: preview.plan } : {}),
        });
        return finished(
          { ...summary, ...counts, importId, leavers: { ...summary.leavers, deactivate: counts.deactivated > 0 } },
          "imported",
          session,
          { id: importId },
        );
      } catch (error) {
        if (error instanceof ImportRefused)
          return finished(withPreview(summary, error.plan as DinerImportPreview, session), "refused", session);
        if (error instanceof PlanChanged) {
          // The diners changed between the check and the write: report and write the new plan.
          preview = error.plan as DinerImportPreview;
          summary = withPreview(summary, preview, session);
          if (attempt >= PLAN_ATTEMPTS) return finished(summary, "plan_changed", session);
          continue;
        }
        // Another import is writing (one at a time): nothing was tried.
        if (error instanceof Conflict) return finished(summary, "busy", session, {}, say(config.locale, error.detail));
        throw error;
      }
    }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    console.error(error instanceof Error ? (error.stack ?? text) : text);
    return finished(summary, "failed", session, { error: text });
  } finally {
    progress.finish();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Words for people

/** How many leavers the summary of an import (not a dry run, not a report) names; the JSON lists up to 200. */
const LEAVERS_SHOWN = 20;

/**
 * The summary as lines, in the configured language. `full` (a dry run, the inbox's report) lists every leaver the
 * preview lists and each change; otherwise the first LEAVERS_SHOWN leavers and no changes.
 */
export function summaryLines(summary: DinerImportSummary, t: Translate, full: boolean): string[] {
  const lines: string[] = [];
  const indent = (line: string) => `  ${line}`;
  if (summary.file.format)
    lines.push(
      t(`${AREA}file_line`, {
        file: summary.file.name,
        sheet: summary.file.sheet ?? "",
        format: summary.file.format,
        rows: t(`${AREA}rows`, { count: summary.rows }),
      }),
    );
  if (summary.result === "already_imported" || summary.result === "already_refused") return [summary.message];

  if (summary.errorCount > 0) {
    lines.push(t(`${AREA}problems`, { count: summary.errorCount }));
    for (const e of summary.errors) {
      const params = { row: e.row ?? 0, column: e.column ?? "", message: e.message };
      const key = e.row === null ? "problem_file" : e.column ? "problem_row_column" : "problem_row";
      lines.push(indent(t(`${AREA}${key}`, params)));
    }
    const more = summary.errorCount - summary.errors.length;
    if (more > 0) lines.push(indent(t(`${AREA}more_problems`, { count: more })));
    if (summary.unknownColumns.length)
      lines.push(t(`${AREA}unknown_columns`, { columns: summary.unknownColumns.join(", ") }));
    lines.push(summary.message);
    return lines;
  }

  if (summary.result === "imported" || summary.result === "checked") {
    lines.push(t(`${AREA}created`, { count: summary.created }));
    lines.push(t(`${AREA}updated`, { count: summary.updated }));
    lines.push(t(`${AREA}unchanged`, { count: summary.unchanged }));
    if (summary.deactivated > 0) lines.push(t(`${AREA}deactivated`, { count: summary.deactivated }));
  }
  if (summary.unknownColumns.length)
    lines.push(t(`${AREA}unknown_columns`, { columns: summary.unknownColumns.join(", ") }));
  if (summary.blacklisted.length) {
    lines.push(t(`${AREA}blacklisted`, { count: summary.blacklisted.length }));
    for (const b of summary.blacklisted)
      lines.push(
        indent(
          t(`${AREA}blacklisted_line`, {
            row: b.row,
            document: documentLabel(b.documentType, b.documentNumber),
            name: b.name,
            reason: b.reason,
          }),
        ),
      );
  }
  const { leavers } = summary;
  if (leavers.count > 0 && summary.deactivated === 0) {
    lines.push(t(`${AREA}leavers`, { count: leavers.count }));
    const listed = full ? leavers.list : leavers.list.slice(0, LEAVERS_SHOWN);
    for (const l of listed)
      lines.push(
        indent(
          t(`${AREA}leaver_line`, {
            document: documentLabel(l.documentType, l.documentNumber),
            name: l.name,
            subdealership: l.subdealership,
            cafe: l.cafe,
          }),
        ),
      );
    if (leavers.count > listed.length)
      lines.push(indent(t(`${AREA}more_leavers`, { count: leavers.count - listed.length })));
    if (summary.result === "checked" || summary.result === "imported")
      lines.push(t(`${AREA}${leavers.deactivate ? "leavers_will_go" : "leavers_kept"}`));
  }
  if (full && summary.changes.length) {
    lines.push(t(`${AREA}changes`));
    for (const c of summary.changes) {
      const params = { row: c.row, document: c.documentNumber, name: c.name, fields: c.fields.join(", ") };
      lines.push(indent(t(`${AREA}${c.kind === "create" ? "change_create" : "change_update"}`, params)));
    }
    const more = summary.created + summary.updated - summary.changes.length;
    if (more > 0) lines.push(indent(t(`${AREA}more_changes`, { count: more })));
  }
  lines.push(summary.message);
  return lines;
}

/** NAME.report.txt: what, when, where it went, then the summary with its changes. */
export function reportText(summary: DinerImportSummary, t: Translate, config: Config): string {
  const when = new Intl.DateTimeFormat(intlLocale[config.locale], {
    dateStyle: "medium",
    timeStyle: "medium",
    hourCycle: "h23",
    timeZone: config.timezone,
  }).format(new Date(summary.finishedAt));
  const head = [
    t(`${AREA}report_title`),
    t(`${AREA}report_file`, { file: summary.file.name }),
    t(`${AREA}report_sha256`, { sha256: summary.file.sha256 }),
    t(`${AREA}report_finished`, { when }),
  ];
  if (summary.movedTo) head.push(t(`${AREA}report_moved`, { path: summary.movedTo }));
  return `${[...head, "", ...summaryLines(summary, t, true)].join("\n")}\n`;
}

/** The counts on one line, for the inbox's log. */
function countsLine(summary: DinerImportSummary, t: Translate): string {
  const parts = [
    t(`${AREA}created`, { count: summary.created }),
    t(`${AREA}updated`, { count: summary.updated }),
    t(`${AREA}unchanged`, { count: summary.unchanged }),
  ];
  if (summary.deactivated) parts.push(t(`${AREA}deactivated`, { count: summary.deactivated }));
  return parts.join(", ");
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

// ---------------------------------------------------------------------------------------------------------------
// One file

/** FILE, checked and (unless --dry-run) imported; its summary printed; exit code 1 when it did not go well. */
async function importOneFile(session: Session, file: string, asJson: boolean): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  const summary = await importBytes(session, file, bytes, sha256Of(bytes), "cli");
  if (asJson) {
    console.log(json(summary));
    if (!summary.ok) throw new CliError(summary.message);
    return;
  }
  const text = summaryLines(summary, session.t, summary.dryRun).join("\n");
  if (!summary.ok) throw new CliError(text);
  console.log(text);
}

// ---------------------------------------------------------------------------------------------------------------
// The inbox

const DONE = "done";
const FAILED = "failed";

/** A file's size and modification time, and since when (ms) they have been so. */
interface Seen {
  size: number;
  mtimeMs: number;
  since: number;
}

/** The inbox's candidates: regular files of DIR itself, not hidden, not an office program's lock file (~$…). */
function candidates(dir: string): { name: string; stats: Stats }[] {
  const found: { name: string; stats: Stats }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith(".") || entry.name.startsWith("~$")) continue;
    try {
      found.push({ name: entry.name, stats: statSync(join(dir, entry.name)) });
    } catch {
      // Gone meanwhile (taken by another process, or deleted).
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The files of DIR complete by now (size and modification time unchanged for `settleMs`), as `seen` remembers them
 * from earlier looks; `pending` tells whether some file is still settling.
 */
function settledFiles(dir: string, seen: Map<string, Seen>, settleMs: number): { ready: string[]; pending: boolean } {
  const now = Date.now();
  const ready: string[] = [];
  let pending = false;
  const present = new Set<string>();
  for (const { name, stats } of candidates(dir)) {
    present.add(name);
    const before = seen.get(name);
    if (before && before.size === stats.size && before.mtimeMs === stats.mtimeMs) {
      if (now - before.since >= settleMs) ready.push(name);
      else pending = true;
    } else {
      seen.set(name, { size: stats.size, mtimeMs: stats.mtimeMs, since: now });
      if (settleMs <= 0) ready.push(name);
      else pending = true;
    }
  }
  for (const name of seen.keys()) if (!present.has(name)) seen.delete(name);
  return { ready, pending };
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** `name` in `folder`, or with the time (and a number) added before its extension when that name or its reports are taken. */
function freeName(folder: string, name: string, at: Date): string {
  const taken = (candidate: string) =>
    [candidate, `${candidate}.report.json`, `${candidate}.report.txt`].some((n) => {
      try {
        statSync(join(folder, n));
        return true;
      } catch {
        return false;
      }
    });
  if (!taken(name)) return name;
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  for (let n = 1; ; n++) {
    const candidate = `${stem}.${stamp}${n === 1 ? "" : `-${n}`}${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/** Writes `text` to `path` whole or not at all (a hidden temporary file renamed over it). */
function writeWhole(path: string, text: string): void {
  const temporary = join(resolve(path, ".."), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

interface InboxOutcome {
  summary: DinerImportSummary | null;
  /** Whether the file was left in place for a later pass (another import of its bytes under way, or it changed). */
  leftInPlace: boolean;
}

/**
 * Takes one settled file of the inbox: imports it unless the ledger knows its bytes, then moves it to done/ or
 * failed/ with its two reports. Never throws: a file's failure is its own.
 */
async function takeInboxFile(session: Session, dir: string, name: string): Promise<InboxOutcome> {
  const { db, t } = session;
  const path = join(dir, name);
  let bytes: Uint8Array;
  let before: Stats;
  try {
    before = statSync(path);
    bytes = new Uint8Array(readFileSync(path));
    const after = statSync(path);
    // Written to while it was read: not complete after all.
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || bytes.length !== after.size)
      return { summary: null, leftInPlace: true };
  } catch {
    return { summary: null, leftInPlace: true };
  }
  const sha256 = sha256Of(bytes);

  let summary: DinerImportSummary;
  recoverDinerImports(db);
  const known = importOfFile(db, sha256);
  if (known?.state === "writing") {
    console.error(t(`${AREA}inbox_busy`, { file: name }));
    return { summary: null, leftInPlace: true };
  }
  if (known && known.state !== "rolled_back") {
    const when = known.finishedAt ? formatWhen(session, known.finishedAt) : "—";
    const result = known.state === "succeeded" ? "already_imported" : "already_refused";
    summary = finished(emptySummary(path, bytes, sha256, false), result, session, { id: known.id, when });
    summary.importId = known.id;
  } else {
    summary = await importBytes(session, path, bytes, sha256, "inbox");
    if (summary.result === "busy") {
      console.error(t(`${AREA}inbox_busy`, { file: name }));
      return { summary: null, leftInPlace: true };
    }
  }

  const folder = join(dir, summary.ok ? DONE : FAILED);
  try {
    mkdirSync(folder, { recursive: true });
    const target = freeName(folder, name, new Date());
    summary.movedTo = join(folder, target);
    writeWhole(`${summary.movedTo}.report.json`, `${json(summary)}\n`);
    writeWhole(`${summary.movedTo}.report.txt`, reportText(summary, t, session.config));
    renameSync(path, summary.movedTo);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    console.error(t(`${AREA}inbox_move_failed`, { file: name, folder, error: text }));
    summary.movedTo = null;
  }
  return { summary, leftInPlace: false };
}

function formatWhen(session: Session, at: Date): string {
  return new Intl.DateTimeFormat(intlLocale[session.config.locale], {
    dateStyle: "medium",
    timeStyle: "short",
    hourCycle: "h23",
    timeZone: session.config.timezone,
  }).format(at);
}

/** One line of the inbox's log for a file it took. */
function inboxLine(session: Session, dir: string, summary: DinerImportSummary): string {
  const { t } = session;
  const folder = summary.movedTo ? relative(dir, summary.movedTo) : "—";
  const result =
    summary.result === "imported" ? `${summary.message} ${countsLine(summary, t)}` : summaryOneLine(summary, t);
  return t(`${AREA}inbox_line`, { file: summary.file.name, folder, result });
}

/** A refusal in one line: the result and the first problem. */
function summaryOneLine(summary: DinerImportSummary, t: Translate): string {
  const first = summary.errors[0];
  if (!first) return summary.message;
  const key = first.row === null ? "problem_file" : first.column ? "problem_row_column" : "problem_row";
  const problem = t(`${AREA}${key}`, { row: first.row ?? 0, column: first.column ?? "", message: first.message });
  const more = summary.errorCount > 1 ? ` ${t(`${AREA}more_problems`, { count: summary.errorCount - 1 })}` : "";
  return `${summary.message} ${problem}${more}`;
}

interface InboxOptions {
  settleMs: number;
  pollMs: number;
  asJson: boolean;
}

/** `--inbox DIR`: one pass over the files there (waiting for those still being written to settle). */
async function inboxPass(session: Session, dir: string, options: InboxOptions): Promise<void> {
  const seen = new Map<string, Seen>();
  const taken: DinerImportSummary[] = [];
  let look = settledFiles(dir, seen, options.settleMs);
  // Files still changing are looked at again once they had time to settle; a file written without end is left.
  for (let round = 0; look.pending && round < 3; round++) {
    await sleep(options.settleMs + 10);
    look = settledFiles(dir, seen, options.settleMs);
  }
  for (const name of look.ready) {
    const { summary } = await takeInboxFile(session, dir, name);
    if (!summary) continue;
    taken.push(summary);
    if (!options.asJson) console.log(inboxLine(session, dir, summary));
  }
  const failed = taken.filter((s) => !s.ok).length;
  if (options.asJson)
    console.log(json({ folder: resolve(dir), files: taken, succeeded: taken.length - failed, failed }));
  else if (taken.length === 0) console.log(session.t(`${AREA}inbox_empty`, { folder: dir }));
  if (failed > 0) throw new CliError(session.t(`${AREA}inbox_failed`, { count: failed, folder: join(dir, FAILED) }));
}

/**
 * `--watch DIR`: takes files as they settle, looking when the folder changes (fs.watch) and every `pollMs` in any
 * case, until SIGINT or SIGTERM; the file at hand is finished first. A second signal stops at once (an import it
 * cuts short is undone at the next start).
 */
async function watchFolder(session: Session, dir: string, options: InboxOptions): Promise<void> {
  const { t } = session;
  let stopping = false;
  let wake: (() => void) | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(signal === "SIGINT" ? 130 : 143);
    stopping = true;
    console.error(t(`${AREA}stopping`));
    wake?.();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, () => wake?.());
    watcher.on("error", () => {});
  } catch {
    // No change notifications here (some network file systems): polling alone.
  }
  const seen = new Map<string, Seen>();
  if (!options.asJson) console.error(t(`${AREA}watching`, { folder: dir }));
  try {
    while (!stopping) {
      const look = settledFiles(dir, seen, options.settleMs);
      for (const name of look.ready) {
        if (stopping) break;
        const { summary, leftInPlace } = await takeInboxFile(session, dir, name);
        if (leftInPlace) seen.delete(name);
        if (!summary) continue;
        console.log(options.asJson ? JSON.stringify(summary) : inboxLine(session, dir, summary));
      }
      if (stopping) break;
      const wait = look.pending ? Math.min(options.pollMs, options.settleMs + 10) : options.pollMs;
      await new Promise<void>((done) => {
        const timer = setTimeout(finish, wait);
        function finish() {
          clearTimeout(timer);
          wake = null;
          done();
        }
        wake = finish;
      });
    }
  } finally {
    watcher?.close();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The command

export interface ImportDinersOptions {
  dryRun?: boolean;
  json?: boolean;
  cafe?: string;
  deactivateLeavers?: boolean;
  inbox?: string;
  watch?: string;
  settle: number;
  poll: number;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Checks the usage, resolves --cafe, then imports FILE, the inbox once, or the inbox until stopped. */
export async function importDinersCommand(file: string | undefined, options: ImportDinersOptions): Promise<void> {
  const folder = options.inbox ?? options.watch;
  if (options.inbox !== undefined && options.watch !== undefined)
    throw new CliError("Give --inbox DIR (one pass) or --watch DIR (until stopped), not both.", 2);
  if (folder !== undefined) {
    if (file !== undefined) throw new CliError("Give a FILE or a folder (--inbox/--watch), not both.", 2);
    if (options.dryRun) throw new CliError("--dry-run checks one FILE; the inbox imports what it takes.", 2);
    if (!isDirectory(folder)) throw new CliError(`No such folder: ${folder}`, 2);
  } else {
    if (file === undefined)
      throw new CliError("Give the FILE to import (or --inbox DIR / --watch DIR). See ./mesa import:diners --help.", 2);
    if (!isFile(file)) throw new CliError(`No such file: ${file}`, 2);
  }

  const config = cliConfig();
  const db = cliDatabase(config);
  let defaultCafeId: number | null = null;
  if (options.cafe !== undefined) {
    const cafe = resolveCafe(db, options.cafe);
    if (!cafe.ok) throw new CliError(cafe.problem, 2);
    defaultCafeId = cafe.value.id;
  }
  const t = commandWords(config.locale);
  const session: Session = {
    db,
    config,
    t,
    progress: process.stderr.isTTY && !options.json ? progressReporter(process.stderr, t) : QUIET,
    settings: {
      dryRun: Boolean(options.dryRun),
      defaultCafeId,
      deactivateLeavers: Boolean(options.deactivateLeavers),
    },
  };
  // Imports a stopped process left half-written are undone before anything else.
  recoverDinerImports(db);
  const inbox = {
    settleMs: options.settle * 1000,
    pollMs: Math.max(50, options.poll * 1000),
    asJson: Boolean(options.json),
  };
  if (options.inbox !== undefined) return inboxPass(session, options.inbox, inbox);
  if (options.watch !== undefined) return watchFolder(session, options.watch, inbox);
  return importOneFile(session, file!, Boolean(options.json));
}

function parseSeconds(value: string): number {
  const seconds = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds < 0 || seconds > 3600)
    throw new InvalidArgumentError("Give a number of seconds between 0 and 3600, e.g. 2 or 0.5.");
  return seconds;
}

export function registerDinerImportCommands(program: Command): void {
  program
    .command("import:diners")
    .description(
      "Import diners from a spreadsheet (.xlsx, .xls, .ods or .csv), all or nothing; or take the files dropped in a folder",
    )
    .argument("[file]", "the spreadsheet (its first sheet is read)")
    .option("--dry-run", "only check the file and show what importing would do; save nothing")
    .option("--json", "print the summary as JSON")
    .option("--cafe <cafe>", 'home cafe of rows without one: "Cafe", or "Unit/Cafe" when the name repeats')
    .option("--deactivate-leavers", "deactivate the active diners of the file's subdealerships at its cafes not in it")
    .option("--inbox <dir>", "import each complete file in DIR once, moving it to DIR/done or DIR/failed with a report")
    .option("--watch <dir>", "like --inbox, but keep watching DIR until stopped (SIGINT, SIGTERM)")
    .addOption(
      new Option("--settle <seconds>", "a file in the inbox is complete once unchanged this long")
        .argParser(parseSeconds)
        .default(2),
    )
    .addOption(
      new Option("--poll <seconds>", "with --watch, look at the folder at least this often")
        .argParser(parseSeconds)
        .default(5),
    )
    .action((file: string | undefined, options: ImportDinersOptions) => importDinersCommand(file, options));
}
