/**
 * Opens the SQLite database with the pragmas Mesa relies on and applies pending migrations.
 * One connection per process: bun:sqlite is synchronous and SQLite serialises writers anyway.
 */
import { Database } from "bun:sqlite";
import { getTableName } from "drizzle-orm";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as schema from "../db/schema";
import { FOLDED_COPIES } from "../db/schema/folded";
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
  const prepare = client.prepare.bind(client) as (sql: string, ...rest: unknown[]) => ReturnType<Database["prepare"]>;
  const kept = new Map<string, ReturnType<Database["prepare"]>>();
  (client as { prepare: unknown }).prepare = (sql: string, ...rest: unknown[]) => {
    if (rest.length > 0) return prepare(sql, ...rest);
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

/**
 * A query prepared once per connection and shape, then run with its values: `build(db, ...shape)` writes the
 * statement with drizzle and `sql.placeholder()` for every value and returns its `.prepare()`; the result is kept
 * per connection (a WeakMap, so a test's database takes its statements with it) and per shape — the few variants
 * a list's SQL really has, such as "with a search" or "limited to a scope" — so drizzle builds each SQL text once
 * and SQLite prepares it once. Values that vary in number (a scope's ids) travel as one JSON placeholder read with
 * `json_each`, so they do not change the SQL.
 *
 *   const byId = preparedQuery((db) => db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare());
 *   byId(db).get({ id });
 */
export function preparedQuery<Shape extends (string | number | boolean)[], Q>(
  build: (db: Db, ...shape: Shape) => Q,
): (db: Db, ...shape: Shape) => Q {
  const perConnection = new WeakMap<object, Map<string, Q>>();
  return (db, ...shape) => {
    let kept = perConnection.get(db);
    if (!kept) perConnection.set(db, (kept = new Map()));
    const key = shape.join("|");
    let query = kept.get(key);
    if (query === undefined) kept.set(key, (query = build(db, ...shape)));
    return query;
  };
}

/** Applies every migration under db/migrations that has not run yet, then fills the folded copies not known yet. */
export function migrateDatabase(db: Db): void {
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  fillFoldedCopies(db);
}

/**
 * Writes the folded copies (db/schema/folded.ts) that are NULL: those of the rows that were there when the copies
 * were added, and of rows written since without them (seeds, tests, another program). Returns how many it filled.
 */
export function fillFoldedCopies(db: Db): number {
  let filled = 0;
  for (const { column, folded } of FOLDED_COPIES) {
    filled += db.$client
      .prepare(
        `UPDATE "${getTableName(column.table)}" SET "${folded.name}" = ${FOLD_FUNCTION}("${column.name}") WHERE "${folded.name}" IS NULL AND "${column.name}" IS NOT NULL`,
      )
      .run().changes;
  }
  return filled;
}

/** True when a trivial query answers; used by the health check. */
export function isDatabaseReachable(db: Db): boolean {
  try {
    return db.$client.query("SELECT 1 AS ok").get() !== null;
  } catch {
    return false;
  }
}
