/**
 * What `./mesa import:ingredients` and `./mesa import:dishes` do the same way: the file must exist (else a usage
 * mistake, exit code 2); it is read through the one spreadsheet intake (a refused file prints its message, exit code
 * 1); every row is checked and the plan printed; a plan with problems prints each one as "Fila 7 (Insumo): …" and
 * writes nothing (exit code 1); `--dry-run` stops at the plan; otherwise exactly that plan is written, all or
 * nothing. `--json` prints the result as one JSON object instead.
 */
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { Db } from "../../src/db";
import { ValidationFailed } from "../../src/domain/errors";
import { ImportRefused, PlanChanged } from "../../src/domain/imports/engine";
import type { SheetRows } from "../../src/domain/spreadsheets/read";
import { translate, type Locale, type Translate, type TranslationKey } from "../../src/shared/i18n";
import type { ImportProblem } from "../../src/shared/imports";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";

/** What every plan printed here carries. */
export interface PrintablePlan {
  rows: number;
  problems: ImportProblem[];
  moreProblems: number;
  fingerprint: string;
}

/** One importer as the command line runs it. */
export interface WorkbookImporter<Plan extends PrintablePlan> {
  read(bytes: Uint8Array, fileName: string): Promise<SheetRows>;
  preview(db: Db, sheet: SheetRows, t: Translate): Promise<Plan> | Plan;
  /** Writes the plan whose fingerprint was printed (PlanChanged when the data changed meanwhile). */
  write(db: Db, sheet: SheetRows, fingerprint: string, t: Translate): Promise<Plan> | Plan;
  /** The plan's counts as lines. */
  countLines(plan: Plan, t: Translate): string[];
  /** The plan's counts as --json prints them. */
  countsJson(plan: Plan): Record<string, unknown>;
  /** How many changes a plan writes. */
  changes(plan: Plan): number;
  describe(problem: ImportProblem, locale: Locale): string;
  column(column: string | null, locale: Locale): string | null;
  words: {
    nothingWritten: TranslationKey;
    moreProblems: TranslationKey;
    changed: TranslationKey;
    done: TranslationKey;
  };
}

/** What --json prints. */
function jsonOf<Plan extends PrintablePlan>(
  importer: WorkbookImporter<Plan>,
  plan: Plan,
  status: "checked" | "imported" | "refused",
  locale: Locale,
) {
  return {
    status,
    rows: plan.rows,
    ...importer.countsJson(plan),
    problems: plan.problems.map((p) => ({
      row: p.row,
      column: importer.column(p.column, locale),
      message: importer.describe({ ...p, row: null, column: null }, locale),
    })),
    moreProblems: plan.moreProblems,
  };
}

/** Runs one import of `file` as the command line does. */
export async function runWorkbookImport<Plan extends PrintablePlan>(
  importer: WorkbookImporter<Plan>,
  file: string,
  options: { dryRun?: boolean; json?: boolean },
  print: (line: string) => void,
): Promise<void> {
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {}
  if (!isFile) throw new CliError(`No such file: ${file}`, 2);
  const config = cliConfig();
  const t: Translate = (key, params) => translate(config.locale, key, params);
  const db = cliDatabase(config);
  let sheet: SheetRows;
  try {
    sheet = await importer.read(new Uint8Array(readFileSync(file)), basename(file));
  } catch (error) {
    if (error instanceof ValidationFailed && error.errors.file) {
      if (options.json) print(JSON.stringify({ status: "refused", file: say(config.locale, error.errors.file) }));
      throw new CliError(options.json ? "" : say(config.locale, error.errors.file));
    }
    throw error;
  }
  const refuse = (plan: Plan): never => {
    if (options.json) {
      print(JSON.stringify(jsonOf(importer, plan, "refused", config.locale)));
      throw new CliError("");
    }
    const lines = [t(importer.words.nothingWritten), ...plan.problems.map((p) => importer.describe(p, config.locale))];
    if (plan.moreProblems) lines.push(t(importer.words.moreProblems, { count: plan.moreProblems }));
    throw new CliError(lines.join("\n"));
  };

  const preview = await importer.preview(db, sheet, t);
  if (preview.problems.length) refuse(preview);
  if (options.dryRun) {
    print(
      options.json
        ? JSON.stringify(jsonOf(importer, preview, "checked", config.locale))
        : importer.countLines(preview, t).join("\n"),
    );
    return;
  }
  try {
    const written = await importer.write(db, sheet, preview.fingerprint, t);
    print(
      options.json
        ? JSON.stringify(jsonOf(importer, written, "imported", config.locale))
        : [...importer.countLines(written, t), t(importer.words.done, { count: importer.changes(written) })].join("\n"),
    );
  } catch (error) {
    if (error instanceof ImportRefused) refuse(error.plan as Plan);
    if (error instanceof PlanChanged) throw new CliError(t(importer.words.changed));
    throw error;
  }
}
