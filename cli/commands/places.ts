/**
 * `./mesa import:places FILE [--dry-run]`: loads mines, units, cafes, services and prices from an .xlsx workbook
 * (docs/places-workbook.md) with the same checks as the Management page, as the `cli` actor with every place in
 * scope and every permission. Problems are printed one per line ("Comedores, fila 7 (Empresa): …") in the
 * configured language and nothing is written (exit code 1); otherwise the counts are printed. A missing or
 * unreadable file is a usage mistake (exit code 2).
 */
import { readFileSync, statSync } from "node:fs";
import type { Command } from "commander";
import { translate } from "../../resources/js/lib/i18n";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { ValidationFailed } from "../../src/domain/errors";
import { ALL_ABILITIES, describeCounts, describeProblem, ImportFailed, importPlaces } from "../../src/domain/places/import";
import { readWorkbook } from "../../src/domain/spreadsheets/read";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";

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
      try {
        const workbook = await readWorkbook(new Uint8Array(readFileSync(file)));
        const db = cliDatabase(config);
        const counts = importPlaces(db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, workbook, { timeZone: config.timezone, dryRun: options.dryRun === true });
        console.log(options.dryRun ? `${t("import.checked")}\n${describeCounts(counts, t)}` : describeCounts(counts, t));
      } catch (error) {
        if (error instanceof ImportFailed) {
          throw new CliError([t("import.failed"), ...error.problems.map((p) => describeProblem(p, t))].join("\n"));
        }
        // The file itself is refused (too large, not a workbook, no recognised sheet).
        if (error instanceof ValidationFailed) throw new CliError(Object.values(error.errors).map((m) => say(config.locale, m)).join("\n"));
        throw error;
      }
    });
}
