/**
 * `./mesa import:ingredients FILE [--dry-run] [--json]`: loads ingredients from an .xlsx, .xls, .ods or .csv file (the columns of the
 * Ingredients page's template, in Spanish or English; docs/food.md) with the same domain code as the page's upload,
 * as the `cli` actor. It reads the workbook through the one spreadsheet intake, checks every row, prints what it
 * would create, change or leave alone (and the categories it would add), then writes exactly that plan, all or
 * nothing; `--dry-run` only prints it. A row with a problem is printed as "Fila 7 (Kcal por 100 g): …" in the
 * configured language and nothing is written (exit code 1). `--json` prints the result as one JSON object instead.
 * A missing file is a usage mistake (exit code 2). The steps are workbook-import.ts's, shared with `import:dishes`.
 */
import type { Command } from "commander";
import { CLI_ACTOR } from "../../src/domain/audit";
import {
  describeProblem,
  importIngredients,
  ingredientColumnWords,
  previewIngredientsImport,
  readIngredientSheet,
  type IngredientImportPlan,
} from "../../src/domain/food/import";
import { runWorkbookImport, type WorkbookImporter } from "./workbook-import";

const ingredientsImporter: WorkbookImporter<IngredientImportPlan> = {
  read: readIngredientSheet,
  preview: (db, sheet) => previewIngredientsImport(db, sheet),
  write: (db, sheet, fingerprint) => importIngredients(db, CLI_ACTOR, sheet, { fingerprint }),
  countLines(plan, t) {
    const lines = [
      t("food.import.counts.rows", { count: plan.rows }),
      t("food.import.counts.created", { count: plan.counts.created }),
      t("food.import.counts.updated", { count: plan.counts.updated }),
      t("food.import.counts.unchanged", { count: plan.counts.unchanged }),
    ];
    if (plan.counts.newCategories.length)
      lines.push(
        t("food.import.counts.categories", {
          count: plan.counts.newCategories.length,
          names: plan.counts.newCategories.join(", "),
        }),
      );
    return lines;
  },
  countsJson: (plan) => ({
    created: plan.counts.created,
    updated: plan.counts.updated,
    unchanged: plan.counts.unchanged,
    newCategories: plan.counts.newCategories,
  }),
  changes: (plan) => plan.counts.created + plan.counts.updated,
  describe: describeProblem,
  column: ingredientColumnWords,
  words: {
    nothingWritten: "food.import.nothing_written",
    moreProblems: "food.import.more_problems",
    changed: "food.import.changed",
    done: "food.import.done",
  },
};

export async function importIngredientsCommand(
  file: string,
  options: { dryRun?: boolean; json?: boolean },
  print: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  await runWorkbookImport(ingredientsImporter, file, options, print);
}

export function registerFoodCommands(program: Command): void {
  program
    .command("import:ingredients")
    .description(
      "Import ingredients with their composition from a spreadsheet, all or nothing: prints what it creates and changes",
    )
    .argument("<file>", "the .xlsx, .xls, .ods or .csv file (first sheet, a header row in Spanish or English)")
    .option("--dry-run", "only check the workbook and print what importing would do; save nothing")
    .option("--json", "print the result as JSON")
    .action((file: string, options: { dryRun?: boolean; json?: boolean }) => importIngredientsCommand(file, options));
}
