/**
 * Opens the SQLite database with the pragmas Mesa relies on and applies pending migrations.
 * One connection per process: bun:sqlite is synchronous and SQLite serialises writers anyway.
 */
import { Database } from "bun:sqlite";
import { Column, getTableName, is, noopDecoder, SQL, Subquery } from "drizzle-orm";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as schema from "../db/schema";
import { FOLDED_COPIES } from "../db/schema/folded";
import { FOLD_FUNCTION, foldSqlValue } from "./domain/search";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** The handle drizzle gives inside `db.transaction`. */
export type DbTransaction = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const MIGRATIONS_FOLDER = resolve(import.meta.dir, "../db/migrations");

/** How long a statement waits for another connection's lock before it fails with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating when missing) the database at `path`; ":memory:" gives a private in-memory database. */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return connect(new Database(path, { create: true, strict: true }));
}

/**
 * A private in-memory database holding a copy of `image` (what a connection's `serialize()` gave), set up as
 * openDatabase sets up a connection. Copying a migrated database takes about a millisecond where running every
 * migration takes tens: the test suite's fresh databases are copies of one it migrated once.
 */
export function openDatabaseCopy(image: Uint8Array): Db {
  return connect(Database.deserialize(image, { strict: true }));
}

/** Mesa's tables through drizzle on a connection as it is (no pragma set): a read-only snapshot's, for one. */
export function drizzleOn(client: Database): Db {
  return drizzle({ client, schema }) as Db;
}

/** The pragmas and functions Mesa relies on, set on a new connection, which drizzle then wraps. */
function connect(client: Database): Db {
  client.exec("PRAGMA journal_mode = WAL");
  client.exec("PRAGMA synchronous = FULL");
  client.exec("PRAGMA foreign_keys = ON");
  client.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // The statement journals of the triggers that keep the daily sales totals stay in memory, not in temporary files.
  client.exec("PRAGMA temp_store = MEMORY");
  // Searches compare folded text (lower case, no accents): SQLite's own LIKE folds ASCII letters only.
  client.function(FOLD_FUNCTION, { deterministic: true }, foldSqlValue);
  reuseStatements(client);
  return drizzleOn(client);
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
): (db: Db | DbTransaction, ...shape: Shape) => Q {
  const perConnection = new WeakMap<object, Map<string, Q>>();
  return (db, ...shape) => {
    // A transaction runs on its database's session (the one connection), so a statement prepared through either
    // serves both; `build` only builds a query, which a transaction does as the database does.
    const session = (db as unknown as { session: object }).session;
    let kept = perConnection.get(session);
    if (!kept) perConnection.set(session, (kept = new Map()));
    const key = shape.join("|");
    let query = kept.get(key);
    if (query === undefined) kept.set(key, (query = withPlannedRows(build(db as Db, ...shape))));
    return query;
  };
}

/** What a prepared drizzle select keeps of its selection (drizzle-orm/bun-sqlite's PreparedQuery). */
interface PreparedSelect {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
  values(placeholders?: Record<string, unknown>): unknown[][];
  all(placeholders?: Record<string, unknown>): unknown[];
  get(placeholders?: Record<string, unknown>): unknown;
}

type Decode = ((value: unknown) => unknown) | null;

/** How drizzle turns a selected field's value from SQLite into JavaScript (null: as it is). */
function decoderOf(field: unknown): Decode {
  type Decoder = { mapFromDriverValue(value: unknown): unknown };
  // drizzle keeps an SQL expression's decoder on it (sql<T>`…`.mapWith(…)), internal to its types.
  const decoderOfSql = (expression: unknown) => (expression as { decoder?: Decoder }).decoder;
  let decoder: Decoder | undefined;
  if (is(field, Column)) decoder = field;
  else if (is(field, SQL)) decoder = decoderOfSql(field);
  else if (is(field, Subquery)) decoder = decoderOfSql((field._ as unknown as { sql: SQL }).sql);
  else decoder = decoderOfSql((field as { sql: SQL }).sql);
  if (!decoder || decoder === noopDecoder) return null;
  return (value) => decoder.mapFromDriverValue(value);
}

/**
 * Maps a prepared select's rows with a plan worked out once, giving what drizzle's own mapping gives (the same
 * nested objects, decoders and nulled left-joined tables): drizzle works the plan out again for every field of
 * every row, which costs as much as SQLite reading a page of rows.
 */
function withPlannedRows<Q>(query: Q): Q {
  const prepared = query as PreparedSelect;
  if (!Array.isArray(prepared.fields) || prepared.customResultMapper || typeof prepared.values !== "function")
    return query;
  const joins = prepared.joinsNotNullableMap;
  const plan = prepared.fields.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    key: path[path.length - 1],
    decode: decoderOf(field),
    // A field of a joined table's object: the object becomes null when that table's row is missing.
    table: joins && is(field, Column) && path.length === 2 ? getTableName(field.table) : null,
  }));
  const mapRow = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    let nullify: Record<string, string | false> | null = null;
    for (let i = 0; i < plan.length; i++) {
      const { parents, key, decode, table } = plan[i];
      let node = result;
      for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
      const raw = row[i];
      const value = (node[key] = raw === null ? null : decode ? decode(raw) : raw);
      if (table !== null) {
        nullify ??= {};
        const objectName = parents[0];
        if (!(objectName in nullify)) nullify[objectName] = value === null ? table : false;
        else if (typeof nullify[objectName] === "string" && nullify[objectName] !== table) nullify[objectName] = false;
      }
    }
    if (nullify)
      for (const objectName in nullify) {
        const table = nullify[objectName];
        if (typeof table === "string" && !joins![table]) result[objectName] = null;
      }
    return result;
  };
  prepared.all = (placeholders) => prepared.values(placeholders).map(mapRow);
  prepared.get = (placeholders) => {
    const row = prepared.values(placeholders)[0];
    return row === undefined ? undefined : mapRow(row);
  };
  return query;
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

/** What an error of opening or migrating a database file means, in words, by its SQLite or system error code. */
const FILE_PROBLEMS: Record<string, string> = {
  SQLITE_CANTOPEN: "it cannot be opened (the path is a folder, or its folder is missing or cannot be written)",
  SQLITE_NOTADB: "it is not a SQLite database",
  SQLITE_CORRUPT: "it is damaged (restore a backup: ./mesa db:restore)",
  SQLITE_READONLY: "it cannot be written: Mesa writes to it and, beside it, to its -wal and -shm files",
  SQLITE_PERM: "the system does not allow Mesa to use it",
  SQLITE_FULL: "the disk is full",
  EACCES: "permission denied: Mesa must be able to read and write it and its folder",
  EPERM: "permission denied: Mesa must be able to read and write it and its folder",
  EROFS: "it is on a read-only file system",
  ENOTDIR: "a part of its path is a file, not a folder",
  // Its folder cannot be made: a file stands where the folder should be.
  EEXIST: "a part of its path is a file, not a folder",
  ENOSPC: "the disk is full",
};

/**
 * Opens and migrates the database file Mesa starts on, or throws DatabaseFileError naming the file and what is
 * wrong with it (a folder in its place, not a database, not writable, a full disk) rather than a stack trace.
 */
export function openStartingDatabase(path: string): Db {
  try {
    if (existsSync(path)) accessSync(path, constants.R_OK | constants.W_OK);
    const db = openDatabase(path);
    migrateDatabase(db);
    return db;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // SQLite's extended codes (SQLITE_READONLY_DIRECTORY) mean what their primary code means.
    const problem =
      typeof code === "string" ? (FILE_PROBLEMS[code] ?? FILE_PROBLEMS[code.split("_").slice(0, 2).join("_")]) : null;
    if (!problem) throw error;
    throw new DatabaseFileError(path, problem, { cause: error });
  }
}

/** The database file cannot be used: the message names it and what is wrong. */
export class DatabaseFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Mesa cannot use its database ${path}: ${problem}.`, options);
  }
}

/** True when a trivial query answers; used by the health check. */
export function isDatabaseReachable(db: Db): boolean {
  try {
    return db.$client.query("SELECT 1 AS ok").get() !== null;
  } catch {
    return false;
  }
}

interface GroupedWork {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The work waiting for the next group commit, per connection. */
const groups = new WeakMap<Db, GroupedWork[]>();
/** Who hears how much work each group commit of a connection carried (the metrics). */
const groupObservers = new WeakMap<Db, (size: number) => void>();

/** Tells `observe` how many pieces of work each group commit on `db` carries. */
export function observeGroupCommits(db: Db, observe: (size: number) => void): void {
  groupObservers.set(db, observe);
}

/**
 * Group commit: runs `work` (synchronous, usually a domain service with its own transaction) in a transaction shared
 * with the other work handed in during the same turn of the event loop, each in its own savepoint, so that one
 * COMMIT — and the one fsync that makes it durable — serves them all. Work that throws is rolled back alone; the
 * others commit. Each promise settles only after the COMMIT, so nothing is answered before it is durable; when the
 * COMMIT itself fails, every one of them fails. For the busiest writes (sales): under load, requests arrive while
 * a commit waits for the disk, and the next group takes them all.
 *
 * Work must not publish domain events itself (they would go out before the COMMIT): it collects them, and the
 * caller publishes them once the promise resolves.
 */
export function groupCommit<T>(db: Db, work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let group = groups.get(db);
    if (!group) {
      groups.set(db, (group = []));
      setImmediate(() => commitGroup(db));
    }
    group.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
}

function commitGroup(db: Db): void {
  const group = groups.get(db) ?? [];
  groups.delete(db);
  const client = db.$client;
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    beginImmediate(client);
  } catch (error) {
    for (const { reject } of group) reject(error);
    return;
  }
  for (const { work } of group) {
    try {
      // A transaction inside a transaction is a savepoint: this work's writes are undone alone if it throws.
      outcomes.push({ ok: true, value: client.transaction(work)() });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  try {
    client.exec("COMMIT");
  } catch (error) {
    if (client.inTransaction) client.exec("ROLLBACK");
    for (const { reject } of group) reject(error);
    return;
  }
  groupObservers.get(db)?.(group.length);
  group.forEach(({ resolve, reject }, i) => {
    const outcome = outcomes[i];
    if (outcome.ok) resolve(outcome.value);
    else reject(outcome.error);
  });
}

/** How often beginImmediate asks again for the write lock while another connection holds it. */
export const WRITE_LOCK_POLL_MS = 1;

/**
 * BEGIN IMMEDIATE, waiting for another connection's write lock by asking again every WRITE_LOCK_POLL_MS, for up to
 * `timeoutMs` (then SQLITE_BUSY, as SQLite's own wait would). SQLite's own wait (busy_timeout) sleeps longer and
 * longer between its tries, up to 100 ms: against a writer that frees the lock for a few milliseconds between short
 * transactions (a diner import's chunks), it can miss the gaps for a second. Asking every millisecond, a sale gets in
 * at the first gap. The wait blocks the thread, as SQLite's own does.
 */
export function beginImmediate(client: Database, timeoutMs: number = BUSY_TIMEOUT_MS): void {
  const { timeout } = client.prepare("PRAGMA busy_timeout").get() as { timeout: number };
  client.prepare("PRAGMA busy_timeout = 0").run();
  try {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      try {
        client.prepare("BEGIN IMMEDIATE").run();
        return;
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
        Bun.sleepSync(WRITE_LOCK_POLL_MS);
      }
    }
  } finally {
    client.prepare(`PRAGMA busy_timeout = ${timeout}`).run();
  }
}

/** SQLITE_BUSY, or one of its extended codes (SQLITE_BUSY_RECOVERY while another connection recovers the WAL). */
const isBusy = (error: unknown) => (Number((error as { errno?: unknown }).errno) & 0xff) === 5;

/**
 * Runs `work` in a write transaction begun with beginImmediate: committed when it returns, rolled back when it
 * throws. For writers that take the lock again and again (a diner import's chunks), so their own waits are short too.
 */
export function immediateTransaction<T>(client: Database, work: () => T): T {
  beginImmediate(client);
  try {
    const result = work();
    client.prepare("COMMIT").run();
    return result;
  } catch (error) {
    // What failed is what the caller hears about, even if the rollback fails too.
    try {
      if (client.inTransaction) client.prepare("ROLLBACK").run();
    } catch {
      // The connection stays in its transaction; the next BEGIN says so.
    }
    throw error;
  }
}
