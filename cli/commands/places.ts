/**
 * `./mesa import:places FILE [--dry-run]`: loads mines, units, cafes, services and prices from an .xlsx workbook
 * (docs/places-workbook.md) with the same job code as the Management page (src/domain/jobs/places-import.ts), run
 * here in this process, as the `cli` actor with every place in scope and every permission. Its progress goes to
 * standard error: a bar on a terminal, plain lines otherwise. Problems are printed one per line ("Comedores, fila 7
 * (Empresa): …") in the configured language and nothing is written (exit code 1); otherwise the counts are printed.
 * A missing or unreadable file is a usage mistake (exit code 2).
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { translate } from "../../src/i18n";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { placesImportJob } from "../../src/domain/jobs/places-import";
import { JobFailed } from "../../src/domain/jobs/runner";
import { ALL_ABILITIES, describeCounts, describeProblem, ImportFailed } from "../../src/domain/places/import";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";
import { progressReporter } from "../progress";

export function registerPlacesCommands(program: Command): void {
  program
    .command("import:places")
    .description("Import mines, units, cafes, services and prices from an .xlsx workbook (all or nothing)")
    .argument("<file>", "the .xlsx workbook")
    .option("--dry-run", "check the workbook without saving anything")
    .action(async (file: string, options: { dryRun?: boolean }) => {
      let isFile = false;
      try {
        isFile = statSync(file).isFile();
      } catch {}
      if (!isFile) throw new CliError(`No such file: ${file}`, 2);
      const config = cliConfig();
      const t = (key: string, params?: Record<string, string | number>) => translate(config.locale, key, params);
      const dryRun = options.dryRun === true;
      const db = cliDatabase(config);
      const progress = progressReporter(process.stderr, t);
      try {
        const { counts } = await placesImportJob.run({
          db,
          actor: CLI_ACTOR,
          scope: EVERYTHING,
          input: { path: file, fileName: basename(file), abilities: ALL_ABILITIES, timeZone: config.timezone, dryRun },
          progress: (done, total, label) => progress.update(done, total, label),
          // Nobody else follows this run: the bar is drawn as it goes.
          checkpoint: async () => {},
        });
        progress.finish();
        console.log(dryRun ? `${t("import.checked")}\n${describeCounts(counts, t)}` : describeCounts(counts, t));
      } catch (error) {
        progress.finish();
        if (error instanceof JobFailed) {
          // Every problem, one per line (the page lists the first ones).
          if (error.cause instanceof ImportFailed)
            throw new CliError(
              [t("import.failed"), ...error.cause.problems.map((p) => describeProblem(p, t))].join("\n"),
            );
          // The file itself is refused (too large, not a workbook, no recognised sheet).
          throw new CliError(say(config.locale, error.error));
        }
        throw error;
      }
    });
}
