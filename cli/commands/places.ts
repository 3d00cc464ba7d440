/**
 * `./mesa import:places FILE [--dry-run] [--yes]`: loads mines, units, cafes, services and prices from an .xlsx
 * workbook (docs/places-workbook.md) with the same job code as the Management page (src/domain/jobs/places-import.ts),
 * run here in this process, as the `cli` actor with every place in scope and every permission.
 *
 * Like the page, it shows before it writes: it checks the workbook and prints what importing would create, change or
 * leave alone (and the example rows it skips), then asks on the terminal before writing. `--yes` writes without
 * asking; with no terminal to ask on and no `--yes` it writes nothing (exit code 2); `--dry-run` only prints the
 * preview. What it writes is exactly what it printed: when the database changes in between so the plan differs, it
 * writes nothing, prints the new preview and exits with code 1.
 *
 * Its progress goes to standard error: a bar on a terminal, plain lines otherwise. Problems are printed one per line
 * ("Comedores, fila 7 (Empresa): …") in the configured language and nothing is written (exit code 1). A missing
 * file is a usage mistake (exit code 2); so is a refusal to ask without a terminal.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { translate, type Locale, type Translate } from "../../src/shared/i18n";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import type { Db } from "../../src/db";
import {
  IMPORT_FAILED,
  PLAN_CHANGED,
  placesImportJob,
  type PlacesImportInput,
  type PlacesImportResult,
} from "../../src/domain/jobs/places-import";
import { JobFailed } from "../../src/domain/jobs/runner";
import {
  ALL_ABILITIES,
  describeChange,
  describeCounts,
  describeExamples,
  describeProblem,
  previewWrites,
  type ImportPreview,
} from "../../src/domain/places/import";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";
import { progressReporter } from "../progress";

/** Where the command talks: its output lines, its progress stream, and a question on the terminal (null: none). */
export interface ImportPlacesIo {
  print(line: string): void;
  progress: { isTTY?: boolean; write(text: string): unknown };
  ask: ((question: string) => Promise<string>) | null;
}

/** The process's own: standard output, standard error, and standard input when it is a terminal. */
function processIo(): ImportPlacesIo {
  return {
    print: (line) => console.log(line),
    progress: process.stderr,
    ask: process.stdin.isTTY
      ? async (question) => {
          const prompt = createInterface({ input: process.stdin, output: process.stdout });
          try {
            return await prompt.question(question);
          } finally {
            prompt.close();
          }
        }
      : null,
  };
}

const YES = /^(y|yes|s|si|sí)$/i;

/** The preview as lines: one per kind, the example rows skipped, then each change indented. */
export function previewText(preview: ImportPreview, t: Translate): string[] {
  const lines = describeCounts(preview.counts, t);
  const examples = describeExamples(preview, t);
  if (examples) lines.push(examples);
  for (const change of preview.changes) lines.push(`  ${describeChange(change, t)}`);
  if (preview.moreChanges) lines.push(`  ${t("import.more_changes", { count: preview.moreChanges })}`);
  return lines;
}

function problemsText(preview: ImportPreview, t: Translate): string[] {
  const lines = preview.problems.map((p) => describeProblem(p, t));
  if (preview.moreProblems) lines.push(t("import.more_problems", { count: preview.moreProblems }));
  return lines;
}

/** Checks FILE, prints its preview, asks (unless --yes or --dry-run), and writes exactly that preview's plan. */
export async function importPlacesCommand(
  file: string,
  options: { dryRun?: boolean; yes?: boolean },
  io: ImportPlacesIo = processIo(),
): Promise<void> {
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {}
  if (!isFile) throw new CliError(`No such file: ${file}`, 2);
  const config = cliConfig();
  const t: Translate = (key, params) => translate(config.locale, key, params);
  const db = cliDatabase(config);
  const input: PlacesImportInput = {
    step: "preview",
    path: file,
    fileName: basename(file),
    abilities: ALL_ABILITIES,
    timeZone: config.timezone,
  };

  const preview = (await runStep(db, input, io, config.locale)).preview!;
  io.print(previewText(preview, t).join("\n"));
  if (!previewWrites(preview)) {
    io.print(t("import.nothing_to_import"));
    return;
  }
  if (options.dryRun) {
    io.print(t("import.checked"));
    return;
  }
  if (!options.yes) {
    if (!io.ask) throw new CliError(t("import.needs_yes"), 2);
    if (!YES.test((await io.ask(t("import.confirm_prompt"))).trim())) throw new CliError(t("import.declined"));
  }
  const { counts } = await runStep(db, { ...input, step: "apply", plan: preview.plan }, io, config.locale);
  io.print([t("import.done"), ...describeCounts(counts!, t)].join("\n"));
}

/** Runs one step of the import job here, with a progress report; its failures become the command's. */
async function runStep(db: Db, input: PlacesImportInput, io: ImportPlacesIo, locale: Locale) {
  const t: Translate = (key, params) => translate(locale, key, params);
  const progress = progressReporter(io.progress, t);
  try {
    const result: PlacesImportResult = await placesImportJob.run({
      db,
      actor: CLI_ACTOR,
      scope: EVERYTHING,
      input,
      progress: (done, total, label) => progress.update(done, total, label),
      // Nobody else follows this run: the bar is drawn as it goes.
      checkpoint: async () => {},
      // The file is the person's own; nothing to keep.
      keepUpload: () => {},
    });
    progress.finish();
    return result;
  } catch (error) {
    progress.finish();
    if (!(error instanceof JobFailed)) throw error;
    const preview = (error.result as PlacesImportResult | null)?.preview;
    const key = typeof error.error === "string" ? error.error : error.error.key;
    if (preview && key === PLAN_CHANGED) {
      const lines = [t("import.plan_changed"), ...previewText(preview, t)];
      if (preview.problems.length) lines.push(t("import.failed"), ...problemsText(preview, t));
      throw new CliError(lines.join("\n"));
    }
    // Every problem, one per line (up to the listed many, then how many more).
    if (preview && key === IMPORT_FAILED)
      throw new CliError([t("import.failed"), ...problemsText(preview, t)].join("\n"));
    // The file itself is refused (too large, not a workbook, no recognised sheet).
    throw new CliError(say(locale, error.error));
  }
}

export function registerPlacesCommands(program: Command): void {
  program
    .command("import:places")
    .description(
      "Import mines, units, cafes, services and prices from an .xlsx workbook: shows what it will do, then asks",
    )
    .argument("<file>", "the .xlsx workbook")
    .option("--dry-run", "only show what importing would do; save nothing")
    .option("--yes", "import without asking (needed when there is no terminal to ask on)")
    .action((file: string, options: { dryRun?: boolean; yes?: boolean }) => importPlacesCommand(file, options));
}
