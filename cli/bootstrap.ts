/**
 * What every CLI command starts from: checked settings and a migrated database, both belonging to one run of a
 * command. `./mesa` runs one command per process, with the process's environment; the tests run many commands in
 * one process, each with the settings of its own workspace. So a command reads the settings of its run, not
 * `process.env` directly, and the databases it opened are closed when the run ends.
 */
import { AsyncLocalStorage } from "node:async_hooks";
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

/** The environment a command's settings come from (variable name → value). */
export type Environment = Record<string, string | undefined>;

interface Invocation {
  env: Environment;
  databases: Db[];
}

const invocations = new AsyncLocalStorage<Invocation>();

/**
 * Runs `work` as one command whose settings come from `env`; every database it opened with cliDatabase is closed
 * when it ends, however it ends.
 */
export async function withInvocation<T>(env: Environment, work: () => Promise<T>): Promise<T> {
  const invocation: Invocation = { env, databases: [] };
  try {
    return await invocations.run(invocation, work);
  } finally {
    for (const db of invocation.databases) db.$client.close();
  }
}

/** The settings of this run (outside a run: the process's environment), checked. */
export function cliConfig(): Config {
  try {
    return loadConfig(invocations.getStore()?.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** The configured database, created when missing and migrated; closed when the run ends. */
export function cliDatabase(config = cliConfig()): Db {
  const db = openDatabase(config.dbPath);
  invocations.getStore()?.databases.push(db);
  migrateDatabase(db);
  return db;
}
