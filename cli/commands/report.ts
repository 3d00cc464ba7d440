/**
 * `./mesa report:sales --from D --to D [--cafe C ...] [--subdealership S] --out FILE.xlsx [--json]`: the sales report
 * workbook of the report dialog (src/domain/sales/report-workbook.ts), for scheduled monthly billing. It runs the
 * same job code as the dialog (src/domain/jobs/sales-report.ts) in this process, as the `cli` actor with every cafe
 * in scope, with its progress on standard error (a bar on a terminal, plain lines otherwise).
 *
 * The workbook is written next to FILE under a temporary name and put in its place once complete, so a run that
 * fails leaves FILE as it was. Standard output says what was written and its totals in the configured language, or
 * with `--json` the totals as JSON (amounts in cents). Cafes are named as in `sale:list` ("Cafe", "Unit/Cafe"), the
 * subdealership by name, RUC or "Dealership/Subdealership".
 *
 * Exit codes: 0 written; 1 a cafe or subdealership that names nothing (or more than one), or the workbook could not
 * be written; 2 a usage mistake (a missing or unknown option, a bad date, a range backwards or longer than a year,
 * FILE in a folder that does not exist).
 */
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { ValidationFailed } from "../../src/domain/errors";
import { salesReportJob, type SalesReportInput, type SalesReportResult } from "../../src/domain/jobs/sales-report";
import { centsToSoles } from "../../src/shared/money";
import { dateIn, isCalendarDate } from "../../src/shared/calendar";
import { parseSalesFilter, type SalesFilter } from "../../src/domain/sales/report";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { say } from "../output";
import { progressReporter } from "../progress";
import { resolveCafe, resolveSubdealership } from "./pos";

export interface ReportSalesOptions {
  from: string;
  to: string;
  cafe?: string[];
  subdealership?: string;
  out: string;
  json?: boolean;
}

function parseDate(value: string): string {
  if (!isCalendarDate(value.trim())) throw new InvalidArgumentError("Write the date as YYYY-MM-DD, e.g. 2026-11-01.");
  return value.trim();
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** What the command prints with --json. */
export interface ReportSalesJson {
  file: string;
  from: string;
  to: string;
  cafes: string[];
  subdealership: string | null;
  totals: SalesReportResult["totals"];
  billing: SalesReportResult["billing"];
  lines: number;
  sheets: string[];
  bytes: number;
}

/** Writes the report of the options' filter to `--out` and prints its totals. */
export async function reportSalesCommand(options: ReportSalesOptions): Promise<void> {
  const config = cliConfig();
  const locale = config.locale;
  const t = (key: TranslationKey, params?: TranslationParams) => translate(locale, key, params);
  const out = resolve(options.out);
  if (!out.toLowerCase().endsWith(".xlsx")) throw new CliError(t("reports.cli.out_xlsx"), 2);
  if (!existsSync(dirname(out)) || !statSync(dirname(out)).isDirectory())
    throw new CliError(t("reports.cli.no_folder", { folder: dirname(out) }), 2);

  const db = cliDatabase(config);
  const cafes = (options.cafe ?? []).map((written) => {
    const found = resolveCafe(db, written);
    if (!found.ok) throw new CliError(found.problem);
    return found.value;
  });
  let subdealership: { id: number; name: string } | null = null;
  if (options.subdealership !== undefined) {
    const found = resolveSubdealership(db, options.subdealership);
    if (!found.ok) throw new CliError(found.problem);
    subdealership = found.value;
  }
  let filter: SalesFilter;
  try {
    filter = parseSalesFilter(
      {
        from: options.from,
        to: options.to,
        cafe_ids: cafes.map((c) => c.id),
        subdealership_id: subdealership?.id,
      },
      dateIn(config.timezone),
    );
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const options: Record<string, string> = { cafe_ids: "cafe", subdealership_id: "subdealership" };
    const lines = Object.entries(error.errors).map(([field, m]) => `  --${options[field] ?? field}: ${say(locale, m)}`);
    throw new CliError(`${t("reports.cli.bad_filter")}\n${lines.join("\n")}`, 2);
  }

  // Written beside the file and renamed into place once complete.
  const partial = join(dirname(out), `.${basename(out)}.${process.pid}.partial`);
  const input: SalesReportInput = {
    filter,
    path: partial,
    locale,
    generatedBy: CLI_ACTOR.label,
    timeZone: config.timezone,
  };
  const progress = progressReporter(process.stderr, t);
  let result: SalesReportResult;
  try {
    result = await salesReportJob.run({
      db,
      actor: CLI_ACTOR,
      scope: EVERYTHING,
      input,
      progress: (done, total, label) => progress.update(done, total, label),
      // Nobody else follows this run: the bar is drawn as it goes.
      checkpoint: async () => {},
      // The file is the person's own, written where they asked.
      keepUpload: () => {},
    });
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    progress.finish();
  }

  if (options.json) {
    const json: ReportSalesJson = {
      file: out,
      from: filter.from,
      to: filter.to,
      cafes: cafes.map((c) => c.name),
      subdealership: subdealership?.name ?? null,
      totals: result.totals,
      billing: result.billing,
      lines: result.lines,
      sheets: result.sheets,
      bytes: result.bytes,
    };
    console.log(JSON.stringify(json, null, 2));
    return;
  }
  const { totals, billing } = result;
  const soles = (cents: number) => `S/ ${centsToSoles(cents)}`;
  console.log(
    [
      t("reports.cli.written", { file: out, lines: result.lines, sheets: result.sheets.length }),
      t("reports.cli.totals", {
        sales: totals.sales,
        meals: totals.meals,
        base: soles(totals.baseCents),
        igv: soles(totals.igvCents),
        total: soles(totals.totalCents),
      }),
      t("reports.cli.billing", {
        count: billing.subdealerships,
        total: soles(billing.totalCents),
        surcharge: soles(billing.surchargeCents),
      }),
      t("reports.cli.voided", { count: totals.voidedSales, total: soles(totals.voidedCents) }),
    ].join("\n"),
  );
}

export function registerReportCommands(program: Command): void {
  program
    .command("report:sales")
    .description(
      "Write the sales report workbook (report, summary, daily, billing and detail sheets) of a period, as the report dialog does",
    )
    .requiredOption("--from <date>", "the first service date, YYYY-MM-DD", parseDate)
    .requiredOption("--to <date>", "the last service date, YYYY-MM-DD (at most 366 days after --from)", parseDate)
    .option(
      "--cafe <cafe>",
      'only this cafe: "Cafe", or "Unit/Cafe" when several units have a cafe of that name (repeat for more)',
      collect,
    )
    .option("--subdealership <name>", 'only this subdealership: its name, its RUC, or "Dealership/Subdealership"')
    .requiredOption("--out <file>", "the .xlsx file to write (replaced once the new one is complete)")
    .option("--json", "print the totals as JSON (amounts in cents)")
    .action((options: ReportSalesOptions) => reportSalesCommand(options));
}
