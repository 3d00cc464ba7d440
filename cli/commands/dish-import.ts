/**
 * `./mesa import:dishes FILE [--dry-run] [--json]`: loads dishes and their recipes from an .xlsx, .xls, .ods or .csv
 * file (the columns of the Food page's template, in Spanish or English; docs/recipes-workbook.md) with the same domain
 * code as the page's import job, in this process, as the `cli` actor. It reads the workbook through the one
 * spreadsheet intake, checks every row, prints which dishes it would create, change or leave alone and which recipes
 * it would create, replace or leave alone, then writes exactly that plan, all or nothing: staged in short chunks and
 * published in one short transaction, so a running Mesa keeps answering meanwhile. `--dry-run` only prints it. A row
 * with a problem is printed as "Fila 7 (Insumo): …" in the configured language and nothing is written (exit code 1).
 * `--json` prints the result as one JSON object instead. A missing file is a usage mistake (exit code 2). On a
 * terminal, a progress bar shows the check and the writing on standard error.
 */
import type { Command } from "commander";
import { CLI_ACTOR } from "../../src/domain/audit";
import {
  changesOf,
  columnWords,
  describeDishProblem,
  importDishes,
  previewDishImport,
  readDishSheet,
  type DishImportPlan,
  type DishImportProgress,
} from "../../src/domain/food/dish-import";
import { PROGRESS_LABELS } from "../../src/domain/jobs/dishes-import";
import type { Translate } from "../../src/shared/i18n";
import { progressReporter } from "../progress";
import { runWorkbookImport, type WorkbookImporter } from "./workbook-import";

/** The progress bar, on a terminal only (a pipe or a log keeps its standard error for the problems). */
async function withProgress<T>(
  t: Translate,
  quiet: boolean,
  work: (progress: DishImportProgress) => Promise<T>,
): Promise<T> {
  if (quiet || !process.stderr.isTTY) return work({});
  const bar = progressReporter(process.stderr, t);
  try {
    return await work({ onProgress: (step, done, total) => bar.update(done, total, PROGRESS_LABELS[step]) });
  } finally {
    bar.finish();
  }
}

function dishesImporter(json: boolean): WorkbookImporter<DishImportPlan> {
  return {
    read: readDishSheet,
    preview: (db, sheet, t) => withProgress(t, json, (progress) => previewDishImport(db, sheet, progress)),
    write: (db, sheet, fingerprint, t) =>
      withProgress(t, json, (progress) => importDishes(db, CLI_ACTOR, sheet, { ...progress, fingerprint })),
    countLines(plan, t) {
      const c = plan.counts;
      return [
        t("foodImportDishes.counts.rows", { count: plan.rows }),
        t("foodImportDishes.counts.dishes_created", { count: c.dishesCreated }),
        t("foodImportDishes.counts.dishes_updated", { count: c.dishesUpdated }),
        t("foodImportDishes.counts.dishes_unchanged", { count: c.dishesUnchanged }),
        t("foodImportDishes.counts.recipes_created", { count: c.recipesCreated }),
        t("foodImportDishes.counts.recipes_replaced", { count: c.recipesReplaced }),
        t("foodImportDishes.counts.recipes_unchanged", { count: c.recipesUnchanged }),
      ];
    },
    countsJson: (plan) => ({ ...plan.counts }),
    changes: (plan) => changesOf(plan.counts),
    describe: describeDishProblem,
    column: columnWords,
    words: {
      nothingWritten: "foodImportDishes.nothing_written",
      moreProblems: "foodImportDishes.more_problems",
      changed: "foodImportDishes.changed",
      done: "foodImportDishes.done",
    },
  };
}

export async function importDishesCommand(
  file: string,
  options: { dryRun?: boolean; json?: boolean },
  print: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  await runWorkbookImport(dishesImporter(options.json === true), file, options, print);
}

export function registerDishImportCommands(program: Command): void {
  program
    .command("import:dishes")
    .description(
      "Import dishes and their recipes from a spreadsheet, all or nothing: prints the dishes and recipes it creates and replaces",
    )
    .argument(
      "<file>",
      "the .xlsx, .xls, .ods or .csv file (first sheet, one recipe line per row, headers in Spanish or English)",
    )
    .option("--dry-run", "only check the workbook and print what importing would do; save nothing")
    .option("--json", "print the result as JSON")
    .action((file: string, options: { dryRun?: boolean; json?: boolean }) => importDishesCommand(file, options));
}
