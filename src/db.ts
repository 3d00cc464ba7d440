/**
 * Opens the SQLite database with the pragmas Mesa relies on and applies pending migrations.
 * One connection per process: bun:sqlite is synchronous and SQLite serialises writers anyway.
 */
import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as schema from "../db/schema";
import { FOLD_FUNCTION, foldSqlValue } from "./domain/search";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export const MIGRATIONS_FOLDER = resolve(import.meta.dir, "../db/migrations");

/** Opens (creating when missing) the database at `path`; ":memory:" gives a private in-memory database. */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const client = new Database(path, { create: true, strict: true });
  client.exec("PRAGMA journal_mode = WAL");
  client.exec("PRAGMA synchronous = FULL");
  client.exec("PRAGMA foreign_keys = ON");
  client.exec("PRAGMA busy_timeout = 5000");
  // Searches compare folded text (lower case, no accents): SQLite's own LIKE folds ASCII letters only.
  client.function(FOLD_FUNCTION, { deterministic: true }, foldSqlValue);
  reuseStatements(client);
  return drizzle({ client, schema }) as Db;
}

/** How many prepared statements a connection keeps for reuse (most recently used first). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * drizzle prepares its SQL afresh for every query; preparing is most of a small query's cost. The connection keeps
 * the statements it prepared, by their SQL text, and hands the same one back when the same SQL comes again (the
 * values are bound at each run, so a statement serves any values). bun:sqlite runs a statement to its end before
 * the next one starts, so reusing one is safe; the least recently used one is dropped past STATEMENT_CACHE_SIZE
 * (lists with a varying number of ids make new SQL).
 */
function reuseStatements(client: Database): void {
  const prepare = client.prepare.bind(client) as (sql: string) => ReturnType<Database["prepare"]>;
  const kept = new Map<string, ReturnType<Database["prepare"]>>();
  (client as { prepare: unknown }).prepare = (sql: string, ...rest: unknown[]) => {
    if (rest.length > 0) return (client.constructor.prototype.prepare as Function).call(client, sql, ...rest);
    let statement = kept.get(sql);
    if (statement) {
      kept.delete(sql);
    } else {
      statement = prepare(sql);
      if (kept.size >= STATEMENT_CACHE_SIZE) kept.delete(kept.keys().next().value as string);
    }
    kept.set(sql, statement);
    return statement;
  };
}

/** Applies every migration under db/migrations that has not run yet. */
export function migrateDatabase(db: Db): void {
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** True when a trivial query answers; used by the health check. */
export function isDatabaseReachable(db: Db): boolean {
  try {
    return db.$client.query("SELECT 1 AS ok").get() !== null;
  } catch {
    return false;
  }
}
