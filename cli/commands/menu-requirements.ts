/**
 * `./mesa menu:requirements --cafe C --from D --to D --out FILE.xlsx [--json]`: the purchasing workbook of a cafe's
 * published menu, as the Compras page's Excel button makes it (src/domain/jobs/menu-requirements.ts), run in this
 * process as the `cli` actor with every cafe in scope, its progress on standard error.
 *
 * The workbook is written next to FILE under a temporary name and put in its place once complete, so a run that
 * fails leaves FILE as it was. Standard output says what was written (providers, ingredients, those without an offer,
 * the total net of IGV), or with `--json` the same as JSON (amounts in cents). The cafe is named as in `sale:list`
 * ("Cafe", "Unit/Cafe").
 *
 * Exit codes: 0 written; 1 a cafe that names nothing (or more than one), a cafe without a city, or the workbook could
 * not be written; 2 a usage mistake (a missing option, a bad date, a range backwards or longer than 62 days, FILE not
 * an .xlsx or in a folder that does not exist).
 */
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { ValidationFailed } from "../../src/domain/errors";
import { JobFailed } from "../../src/domain/jobs/runner";
import {
  menuRequirementsJob,
  type MenuRequirementsInput,
  type MenuRequirementsResult,
} from "../../src/domain/jobs/menu-requirements";
import { checkRange } from "../../src/domain/menu/expected-servings";
import { centsToSoles } from "../../src/shared/money";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";
import { progressReporter } from "../progress";
import { resolveCafe } from "./pos";

export interface MenuRequirementsOptions {
  cafe: string;
  from: string;
  to: string;
  out: string;
  json?: boolean;
}

/** Writes the purchasing workbook of the options' cafe and range to `--out` and prints what it holds. */
export async function menuRequirementsCommand(options: MenuRequirementsOptions): Promise<void> {
  const config = cliConfig();
  const locale = config.locale;
  const t = (key: TranslationKey, params?: TranslationParams) => translate(locale, key, params);
  const out = resolve(options.out);
  if (!out.toLowerCase().endsWith(".xlsx")) throw new CliError(t("menuRequirements.cli.out_xlsx"), 2);
  if (!existsSync(dirname(out)) || !statSync(dirname(out)).isDirectory())
    throw new CliError(t("menuRequirements.cli.no_folder", { folder: dirname(out) }), 2);
  let range: { from: string; to: string };
  try {
    range = checkRange(options.from, options.to);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const lines = Object.entries(error.errors).map(([field, m]) => `  --${field}: ${say(locale, m)}`);
    throw new CliError(`${t("menuRequirements.cli.bad_range")}\n${lines.join("\n")}`, 2);
  }

  const db = cliDatabase(config);
  const found = resolveCafe(db, options.cafe);
  if (!found.ok) throw new CliError(found.problem);
  const cafe = found.value;

  // Written beside the file and renamed into place once complete.
  const partial = join(dirname(out), `.${basename(out)}.${process.pid}.partial`);
  const input: MenuRequirementsInput = {
    cafeId: cafe.id,
    ...range,
    path: partial,
    locale,
    generatedBy: CLI_ACTOR.label,
    timeZone: config.timezone,
    igvRate: config.igvRateBasisPoints,
  };
  const progress = progressReporter(process.stderr, t);
  let result: MenuRequirementsResult;
  try {
    result = await menuRequirementsJob.run({
      db,
      actor: CLI_ACTOR,
      scope: EVERYTHING,
      input,
      progress: (done, total, label) => progress.update(done, total, label),
      checkpoint: async () => {},
      keepUpload: () => {},
    });
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof JobFailed) throw new CliError(say(locale, error.error));
    throw error;
  } finally {
    progress.finish();
  }

  if (options.json) {
    console.log(JSON.stringify({ file: out, cafe: result.cafeName, ...result }, null, 2));
    return;
  }
  console.log(
    t("menuRequirements.cli.written", {
      file: out,
      count: result.providers,
      lines: result.lines,
      missing: result.missing,
      total: `S/ ${centsToSoles(result.totalCents)}`,
    }),
  );
}

export function registerMenuRequirementsCommands(program: Command): void {
  program
    .command("menu:requirements")
    .description("Write what to buy for a cafe's published menu (a sheet per provider) as the Compras page does")
    .requiredOption("--cafe <cafe>", 'the cafe: "Cafe", or "Unit/Cafe" when several units have a cafe of that name')
    .requiredOption("--from <date>", "the first day, YYYY-MM-DD")
    .requiredOption("--to <date>", "the last day, YYYY-MM-DD (at most 62 days from --from)")
    .requiredOption("--out <file>", "the .xlsx file to write (replaced once the new one is complete)")
    .option("--json", "print what was written as JSON (amounts in cents)")
    .action((options: MenuRequirementsOptions) => menuRequirementsCommand(options));
}
