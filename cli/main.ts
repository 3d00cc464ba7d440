/**
 * `./mesa`: Mesa's command line. Every command group lives in cli/commands and calls the same domain code as the
 * web app. Unknown commands and bad options print a clear message and exit with code 2.
 */
import { Command, CommanderError } from "commander";
import { registerAccessCommands } from "./commands/access";
import { registerAssetCommands } from "./commands/assets";
import { registerBackupCommands } from "./commands/backup";
import { registerCashCommands } from "./commands/cash";
import { registerDatabaseCommands } from "./commands/database";
import { registerDinerImportCommands } from "./commands/diners-import";
import { registerDishImportCommands } from "./commands/dish-import";
import { registerDishCommands } from "./commands/dishes";
import { registerFoodCommands } from "./commands/food";
import { registerMenuRequirementsCommands } from "./commands/menu-requirements";
import { registerMenuCommands } from "./commands/menu";
import { registerPlacesCommands } from "./commands/places";
import { registerPosCommands } from "./commands/pos";
import { registerReportCommands } from "./commands/report";
import { registerRouteCommands } from "./commands/routes";
import { registerUserCommands } from "./commands/users";
import { CliError, withInvocation, type Environment } from "./bootstrap";
import { writeSync } from "node:fs";
import { logInto } from "../src/log";

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("mesa")
    .description("Mesa command line: database, routes, assets and administration")
    .showHelpAfterError("(run ./mesa --help for the list of commands)")
    .exitOverride();
  registerDatabaseCommands(program);
  registerBackupCommands(program);
  registerRouteCommands(program);
  registerUserCommands(program);
  registerAccessCommands(program);
  registerPlacesCommands(program);
  registerPosCommands(program);
  registerCashCommands(program);
  registerDinerImportCommands(program);
  registerReportCommands(program);
  registerFoodCommands(program);
  registerDishCommands(program);
  registerDishImportCommands(program);
  registerMenuRequirementsCommands(program);
  registerMenuCommands(program);
  registerAssetCommands(program);
  return program;
}

/**
 * Runs the command `argv` (without the program name) and returns its exit code. Its settings come from `env`: the
 * process's environment for `./mesa`, a workspace's in the tests (tests/support/cli.ts).
 */
export function run(argv: string[], env: Environment = process.env): Promise<number> {
  return withInvocation(env, () => parseAndRun(argv));
}

async function parseAndRun(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return 0;
      return 2;
    }
    if (error instanceof CliError) {
      console.error(error.message);
      return error.exitCode;
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}

if (import.meta.main) {
  // A command's standard output is its answer (a table, --json): the log it may write (a failed broadcast, say) goes
  // to standard error.
  logInto((line) => void writeSync(2, line));
  process.exitCode = await run(process.argv.slice(2));
}
