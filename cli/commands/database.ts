/** `./mesa db:migrate` and `./mesa db:seed`. */
import type { Command } from "commander";
import { runSeeders } from "../../db/seeds";
import { cliConfig, cliDatabase } from "../bootstrap";

export function registerDatabaseCommands(program: Command): void {
  program
    .command("db:migrate")
    .description("Create the database when missing and apply pending migrations")
    .action(() => {
      const config = cliConfig();
      cliDatabase(config);
      console.log(`Database is up to date: ${config.dbPath}`);
    });

  program
    .command("db:seed")
    .description("Load reference data and the demo data set (safe to run again)")
    .action(() => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const results = runSeeders(db, config);
      if (results.length === 0) console.log("No seeders are registered yet; the database is migrated and empty.");
      for (const { seeder, lines } of results) {
        console.log(`${seeder}:`);
        for (const line of lines) console.log(`  ${line}`);
      }
    });
}
