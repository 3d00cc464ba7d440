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
  return drizzle({ client, schema }) as Db;
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
