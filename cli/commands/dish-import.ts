/**
 * `./mesa import:dishes FILE [--dry-run] [--json]`: loads dishes and their recipes from an .xlsx, .xls, .ods or .csv
 * file (the columns of the Food page's template, in Spanish or English; docs/recipes-workbook.md) with the same domain
 * code as the page's upload, as the `cli` actor. It reads the workbook through the one spreadsheet intake, checks
 * every row, prints which dishes it would create, change or leave alone and which recipes it would create, replace or
 * leave alone, then writes exactly that plan, all or nothing; `--dry-run` only prints it. A row with a problem is
 * printed as "Fila 7 (Insumo): …" in the configured language and nothing is written (exit code 1). `--json` prints
 * the result as one JSON object instead. A missing file is a usage mistake (exit code 2).
 */
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { translate, type Translate } from "../../src/shared/i18n";
import { CLI_ACTOR } from "../../src/domain/audit";
import { ValidationFailed } from "../../src/domain/errors";
import {
  columnWords,
  describeDishProblem,
  DishImportRefused,
  DishPlanChanged,
  importDishes,
  previewDishImport,
  readDishSheet,
  type DishImportPlan,
} from "../../src/domain/food/dish-import";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";

/** What a plan writes: dishes and recipes created or changed. */
const changesOf = (plan: DishImportPlan) =>
  plan.counts.dishesCreated + plan.counts.dishesUpdated + plan.counts.recipesCreated + plan.counts.recipesReplaced;

/** The plan's counts as lines. */
function countLines(plan: DishImportPlan, t: Translate): string[] {
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
}

/** What --json prints. */
function jsonOf(plan: DishImportPlan, status: "checked" | "imported" | "refused", locale: "es" | "en") {
  return {
    status,
    rows: plan.rows,
    ...plan.counts,
    problems: plan.problems.map((p) => ({
      row: p.row,
      column: columnWords(p.column, locale),
      message: describeDishProblem({ ...p, row: null, column: null }, locale),
    })),
    moreProblems: plan.moreProblems,
  };
}

export async function importDishesCommand(
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
    sheet = await readDishSheet(new Uint8Array(readFileSync(file)), basename(file));
  } catch (error) {
    if (error instanceof ValidationFailed && error.errors.file) {
      if (options.json) print(JSON.stringify({ status: "refused", file: say(config.locale, error.errors.file) }));
      throw new CliError(options.json ? "" : say(config.locale, error.errors.file));
    }
    throw error;
  }
  const refuse = (plan: DishImportPlan): never => {
    if (options.json) {
      print(JSON.stringify(jsonOf(plan, "refused", config.locale)));
      throw new CliError("");
    }
    const lines = [
      t("foodImportDishes.nothing_written"),
      ...plan.problems.map((p) => describeDishProblem(p, config.locale)),
    ];
    if (plan.moreProblems) lines.push(t("foodImportDishes.more_problems", { count: plan.moreProblems }));
    throw new CliError(lines.join("\n"));
  };

  const preview = previewDishImport(db, sheet);
  if (preview.problems.length) refuse(preview);
  if (options.dryRun) {
    print(options.json ? JSON.stringify(jsonOf(preview, "checked", config.locale)) : countLines(preview, t).join("\n"));
    return;
  }
  try {
    const written = importDishes(db, CLI_ACTOR, sheet, { fingerprint: preview.fingerprint });
    print(
      options.json
        ? JSON.stringify(jsonOf(written, "imported", config.locale))
        : [...countLines(written, t), t("foodImportDishes.done", { count: changesOf(written) })].join("\n"),
    );
  } catch (error) {
    if (error instanceof DishImportRefused) refuse(error.plan);
    if (error instanceof DishPlanChanged) throw new CliError(t("foodImportDishes.changed"));
    throw error;
  }
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
