/**
 * `./mesa import:ingredients FILE [--dry-run] [--json]`: loads ingredients from an .xlsx, .xls, .ods or .csv file (the columns of the
 * Ingredients page's template, in Spanish or English; docs/food.md) with the same domain code as the page's upload,
 * as the `cli` actor. It reads the workbook through the one spreadsheet intake, checks every row, prints what it
 * would create, change or leave alone (and the categories it would add), then writes exactly that plan, all or
 * nothing; `--dry-run` only prints it. A row with a problem is printed as "Fila 7 (Kcal por 100 g): …" in the
 * configured language and nothing is written (exit code 1). `--json` prints the result as one JSON object instead.
 * A missing file is a usage mistake (exit code 2).
 */
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { translate, type Translate, translateDynamic } from "../../src/shared/i18n";
import { CLI_ACTOR } from "../../src/domain/audit";
import { ValidationFailed } from "../../src/domain/errors";
import {
  describeProblem,
  importIngredients,
  ImportRefused,
  PlanChanged,
  previewIngredientsImport,
  readIngredientSheet,
  type IngredientImportPlan,
} from "../../src/domain/food/import";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";

/** The plan's counts as lines. */
function countLines(plan: IngredientImportPlan, t: Translate): string[] {
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
}

/** What --json prints. */
function jsonOf(plan: IngredientImportPlan, status: "checked" | "imported" | "refused", locale: "es" | "en") {
  return {
    status,
    rows: plan.rows,
    created: plan.counts.created,
    updated: plan.counts.updated,
    unchanged: plan.counts.unchanged,
    newCategories: plan.counts.newCategories,
    problems: plan.problems.map((p) => ({
      row: p.row,
      column: p.column?.startsWith("food.") ? translateDynamic(locale, p.column, p.column) : p.column,
      message: describeProblem({ ...p, row: null, column: null }, locale),
    })),
    moreProblems: plan.moreProblems,
  };
}

export async function importIngredientsCommand(
  file: string,
  options: { dryRun?: boolean; json?: boolean },
  print: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {}
  if (!isFile) throw new CliError(`No such file: ${file}`, 2);
  const config = cliConfig();
  const t: Translate = (key, params) => translate(config.locale, key, params);
  const db = cliDatabase(config);
  let sheet;
  try {
    sheet = await readIngredientSheet(new Uint8Array(readFileSync(file)), basename(file));
  } catch (error) {
    if (error instanceof ValidationFailed && error.errors.file) {
      if (options.json) print(JSON.stringify({ status: "refused", file: say(config.locale, error.errors.file) }));
      throw new CliError(options.json ? "" : say(config.locale, error.errors.file));
    }
    throw error;
  }
  const refuse = (plan: IngredientImportPlan): never => {
    if (options.json) {
      print(JSON.stringify(jsonOf(plan, "refused", config.locale)));
      throw new CliError("");
    }
    const lines = [t("food.import.nothing_written"), ...plan.problems.map((p) => describeProblem(p, config.locale))];
    if (plan.moreProblems) lines.push(t("food.import.more_problems", { count: plan.moreProblems }));
    throw new CliError(lines.join("\n"));
  };

  const preview = previewIngredientsImport(db, sheet);
  if (preview.problems.length) refuse(preview);
  if (options.dryRun) {
    print(options.json ? JSON.stringify(jsonOf(preview, "checked", config.locale)) : countLines(preview, t).join("\n"));
    return;
  }
  try {
    const written = importIngredients(db, CLI_ACTOR, sheet, { fingerprint: preview.fingerprint });
    print(
      options.json
        ? JSON.stringify(jsonOf(written, "imported", config.locale))
        : [
            ...countLines(written, t),
            t("food.import.done", { count: written.counts.created + written.counts.updated }),
          ].join("\n"),
    );
  } catch (error) {
    if (error instanceof ImportRefused) refuse(error.plan);
    if (error instanceof PlanChanged) throw new CliError(t("food.import.changed"));
    throw error;
  }
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
