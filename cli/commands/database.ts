/** `./mesa db:migrate` and `./mesa db:seed [--demo]` (db:backup and db:restore are in backup.ts). */
import type { Command } from "commander";
import { printSeedResults, runSeeders } from "../../db/seeds";
import { cliConfig, cliDatabase } from "../bootstrap";
import { bootstrapAccess } from "../../src/domain/access/starting-roles";

export function registerDatabaseCommands(program: Command): void {
  program
    .command("db:migrate")
    .description("Create the database when missing and apply pending migrations")
    .action(() => {
      const config = cliConfig();
      bootstrapAccess(cliDatabase(config));
      console.log(`Database is up to date: ${config.dbPath}`);
    });

  program
    .command("db:seed")
    .description(
      "Load reference data, and the demo data set when DEMO_DATA is on or --demo is given (safe to run again)",
    )
    .option("--demo", "load the demo data set whatever DEMO_DATA says")
    .action(async (opts: { demo?: boolean }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      printSeedResults(await runSeeders(db, config, { demo: opts.demo }));
    });
}
