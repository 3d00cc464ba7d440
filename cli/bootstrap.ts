/** What every CLI command starts from: checked settings and a migrated database. */
import { ConfigError, loadConfig, type Config } from "../src/config";
import { migrateDatabase, openDatabase, type Db } from "../src/db";

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function cliConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

export function cliDatabase(config = cliConfig()): Db {
  const db = openDatabase(config.dbPath);
  migrateDatabase(db);
  return db;
}
