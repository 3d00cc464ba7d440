/**
 * `./mesa db:backup [FILE]` and `./mesa db:restore FILE [--yes]`.
 *
 * A backup is SQLite's `VACUUM INTO`: a copy taken inside one read transaction, so it is consistent even while
 * Mesa is running and writing (WAL mode). Without FILE it goes to STORAGE_PATH/backups/mesa-<UTC time>.sqlite; an
 * existing file is never overwritten.
 *
 * A restore is refused while a Mesa server runs on the database (one whose lease in `processes` is current): the
 * message names it and says to stop it first. It says how much free space it needs (a copy of the current database,
 * and room for the restored data) and refuses when the disk has less. It then checks that FILE is a Mesa database
 * this version can migrate, asks for confirmation (unless --yes), keeps a copy of the current database under
 * STORAGE_PATH/backups, then replaces every table in one write transaction (another connection reads the old data
 * or the restored data, never a mix; the access version moves past both, so cached permissions are recomputed).
 * Pending migrations are applied after.
 *
 * Exit codes: 1 when something fails (a server runs, too little room, the target exists, FILE is not a Mesa
 * database, the answer was no); 2 for usage mistakes (no such FILE, or no terminal to ask on and no --yes).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, realpathSync, statfsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { bootstrapAccess } from "../../src/domain/access/starting-roles";
import { MIGRATIONS_FOLDER, migrateDatabase, openDatabase, type Db } from "../../src/db";
import { liveProcesses } from "../../src/domain/jobs/processes";
import { CliError, cliConfig } from "../bootstrap";

/** Where backups go when no file is named, and where a restore keeps the database it replaces. */
export function backupFolder(storagePath: string): string {
  return join(storagePath, "backups");
}

/** A file name in `folder` that does not exist yet: `<prefix>-2026-05-01T13-45-00Z.sqlite`, then `…-2.sqlite`, … */
export function freeBackupName(folder: string, prefix: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  for (let n = 1; ; n++) {
    const path = join(folder, `${prefix}-${stamp}${n === 1 ? "" : `-${n}`}.sqlite`);
    if (!existsSync(path)) return path;
  }
}

/** Writes a consistent copy of the open database to `target` (which must not exist). */
export function backupDatabase(db: Db, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  db.$client.query("VACUUM INTO ?").run(target);
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function hasTable(client: Database, schema: "main" | "backup", name: string): boolean {
  return client.query(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== null;
}

function accessVersion(client: Database, schema: "main" | "backup"): number {
  if (!hasTable(client, schema, "access_version")) return 0;
  return (
    client.query<{ version: number }, []>(`SELECT version FROM ${schema}.access_version WHERE id = 1`).get()?.version ??
    0
  );
}

/** Migrations recorded in a database, by the time drizzle stamps them with (their folder's creation time). */
function appliedMigrations(client: Database, schema: "main" | "backup" = "main"): number[] {
  if (!hasTable(client, schema, "__drizzle_migrations")) return [];
  return client
    .query<{ at: number }, []>(`SELECT created_at AS at FROM ${schema}.__drizzle_migrations`)
    .all()
    .map((r) => Number(r.at));
}

/**
 * Checks that `file` is a sound Mesa database whose migrations this version knows; returns how many users it holds.
 * Throws a CliError (exit code 1) saying what is wrong otherwise.
 */
export function inspectBackup(file: string): { users: number } {
  let client: Database;
  try {
    client = new Database(file, { readonly: true });
  } catch (error) {
    throw new CliError(
      `${file} cannot be opened as a SQLite database (${error instanceof Error ? error.message : error}).`,
    );
  }
  try {
    const check = client.query<{ quick_check: string }, []>("PRAGMA quick_check").all();
    if (check.length !== 1 || check[0].quick_check !== "ok")
      throw new CliError(`${file} is damaged: ${check.map((r) => r.quick_check).join("; ")}`);
    if (!hasTable(client, "main", "__drizzle_migrations") || !hasTable(client, "main", "users")) {
      throw new CliError(`${file} is not a Mesa database: it has no migrations table or no users table.`);
    }
    const known = new Set(readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.folderMillis));
    if (appliedMigrations(client).some((at) => !known.has(at))) {
      throw new CliError(
        `${file} was made by a newer version of Mesa (it has migrations this version does not know). Update Mesa, then restore it.`,
      );
    }
    return { users: client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM users").get()!.n };
  } catch (error) {
    if (error instanceof CliError) throw error;
    // "file is not a database" and the like surface at the first query.
    throw new CliError(`${file} is not a Mesa database (${error instanceof Error ? error.message : error}).`);
  } finally {
    client.close();
  }
}

/**
 * Replaces every table, index, view and trigger of the open database with those of the backup `file`, in one write
 * transaction; the access version ends past both databases' so a running server recomputes cached permissions.
 */
export function restoreDatabase(db: Db, file: string): void {
  const client = db.$client;
  // Foreign keys cannot be switched inside a transaction; the copy is checked as a whole before it commits.
  client.exec("PRAGMA foreign_keys = OFF");
  client.query("ATTACH DATABASE ? AS backup").run(file);
  try {
    client
      .transaction(() => {
        const version = Math.max(accessVersion(client, "main"), accessVersion(client, "backup")) + 1;
        const current = client
          .query<{ type: string; name: string }, []>(
            "SELECT type, name FROM main.sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%'",
          )
          .all();
        for (const { type, name } of current.filter((o) => o.type !== "table"))
          client.exec(`DROP ${type.toUpperCase()} IF EXISTS main.${quote(name)}`);
        for (const { name } of current.filter((o) => o.type === "table")) client.exec(`DROP TABLE main.${quote(name)}`);

        const objects = client
          .query<{ type: string; name: string; sql: string }, []>(
            "SELECT type, name, sql FROM backup.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
          )
          .all();
        const tables = objects.filter((o) => o.type === "table");
        for (const table of tables) client.exec(table.sql);
        for (const { name } of tables)
          client.exec(`INSERT INTO main.${quote(name)} SELECT * FROM backup.${quote(name)}`);
        // Indexes after the rows (faster), then views and triggers.
        for (const other of objects.filter((o) => o.type !== "table")) client.exec(other.sql);
        // AUTOINCREMENT counters as they were, so ids deleted before the backup are not handed out again.
        if (hasTable(client, "main", "sqlite_sequence")) client.exec("DELETE FROM main.sqlite_sequence");
        if (hasTable(client, "backup", "sqlite_sequence"))
          client.exec("INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM backup.sqlite_sequence");
        if (hasTable(client, "main", "access_version")) {
          client
            .query(
              "INSERT INTO main.access_version (id, version) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version",
            )
            .run(version);
        }
        const broken = client.query<{ table: string }, []>("PRAGMA main.foreign_key_check").all();
        if (broken.length > 0)
          throw new CliError(
            `${file} has rows pointing at missing rows (in ${[...new Set(broken.map((r) => r.table))].join(", ")}); nothing was restored.`,
          );
      })
      .immediate();
  } finally {
    client.exec("DETACH DATABASE backup");
    client.exec("PRAGMA foreign_keys = ON");
  }
}

function inWords(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

function sizeOf(path: string): string {
  return inWords(statSync(path).size);
}

/** Refuses while a Mesa server runs on the database: a restore swaps the data under it. */
function refuseWhileRunning(dbPath: string): void {
  if (!isFile(dbPath)) return;
  const db = openDatabase(dbPath);
  let running: ReturnType<typeof liveProcesses> = [];
  try {
    running = liveProcesses(db);
  } catch {
    // A database from before servers had leases: no server of this version runs on it.
  } finally {
    db.$client.close();
  }
  if (running.length === 0) return;
  const which = running.map((p) => `process ${p.pid} on ${p.hostname}, listening on ${p.address}`).join("; ");
  throw new CliError(
    `Mesa is running on ${dbPath} (${which}). Stop it first (systemctl stop mesa, or Ctrl-C where it runs), then run ./mesa db:restore again.`,
  );
}

/** Free bytes on the file system holding `path` (or its nearest existing folder). */
function freeBytes(path: string): number {
  let folder = path;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const stats = statfsSync(folder);
  return Number(stats.bavail) * Number(stats.bsize);
}

/**
 * The room a restore needs, said before it starts: a copy of the current database in the backups folder, and the
 * restored data beside the database (its write-ahead log holds the new pages until they are checkpointed). Refuses
 * when the disk has less.
 */
function checkRoom(dbPath: string, source: string, folder: string): string {
  const current = isFile(dbPath) ? statSync(dbPath).size : 0;
  const restored = statSync(source).size;
  const sameDisk = statSync(dirname(dbPath)).dev === statSync(existsSync(folder) ? folder : dirname(dbPath)).dev;
  const needed = sameDisk ? current + 2 * restored : 2 * restored;
  const free = freeBytes(dbPath);
  const words = `Restoring needs about ${inWords(needed)} free (${current ? `${inWords(current)} for the copy of the current database, ` : ""}${inWords(2 * restored)} for the restored data); ${inWords(free)} are free.`;
  if (free < needed) throw new CliError(`${words} Free some room first; nothing was restored.`);
  if (!sameDisk && current > freeBytes(folder))
    throw new CliError(
      `The copy of the current database needs ${inWords(current)} in ${folder}; ${inWords(freeBytes(folder))} are free there. Nothing was restored.`,
    );
  return words;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^(y|yes)$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

export function registerBackupCommands(program: Command): void {
  program
    .command("db:backup")
    .description("Write a consistent copy of the database, even while Mesa is running (never overwrites a file)")
    .argument("[file]", "where to write it (default: STORAGE_PATH/backups/mesa-<UTC time>.sqlite)")
    .action((file: string | undefined) => {
      const config = cliConfig();
      if (!isFile(config.dbPath))
        throw new CliError(`There is no database at ${config.dbPath} yet; nothing to back up.`);
      const target = resolve(file ?? freeBackupName(backupFolder(config.storagePath), "mesa"));
      if (existsSync(target))
        throw new CliError(`${target} already exists; name another file, or move that one away first.`);
      const db = openDatabase(config.dbPath);
      try {
        backupDatabase(db, target);
      } finally {
        db.$client.close();
      }
      console.log(`Backed up ${config.dbPath} to ${target} (${sizeOf(target)}).`);
      console.log(`To put it back: ./mesa db:restore ${target}`);
    });

  program
    .command("db:restore")
    .description(
      "Replace the database with a backup, with Mesa stopped, after keeping a copy of the current one; then apply pending migrations",
    )
    .argument("<file>", "a backup made by ./mesa db:backup")
    .option("--yes", "do not ask for confirmation (needed when there is no terminal to ask on)")
    .action(async (file: string, opts: { yes?: boolean }) => {
      const config = cliConfig();
      if (!isFile(file)) throw new CliError(`No such file: ${file}`, 2);
      const source = resolve(file);
      const exists = isFile(config.dbPath);
      if (exists && realpathSync(source) === realpathSync(config.dbPath))
        throw new CliError(`${file} is the database itself; restore from a backup copy.`);
      refuseWhileRunning(config.dbPath);
      const { users } = inspectBackup(source);
      const folder = backupFolder(config.storagePath);
      const room = checkRoom(config.dbPath, source, folder);
      if (!opts.yes) {
        const consequence = `This replaces everything in ${config.dbPath} with ${source} (${users} user${users === 1 ? "" : "s"}, ${sizeOf(source)})${exists ? `; the current database is copied to ${folder} first` : ""}.\n${room}`;
        if (!process.stdin.isTTY)
          throw new CliError(`${consequence}\nThere is no terminal to confirm on: run it again with --yes.`, 2);
        if (!(await confirm(`${consequence}\nRestore? [y/N] `))) throw new CliError("Nothing was restored.");
      }
      console.log(room);
      const db = openDatabase(config.dbPath);
      try {
        if (exists) {
          const kept = freeBackupName(folder, "mesa-before-restore");
          backupDatabase(db, kept);
          console.log(`Kept the current database in ${kept}.`);
        }
        restoreDatabase(db, source);
        const before = appliedMigrations(db.$client).length;
        migrateDatabase(db);
        bootstrapAccess(db);
        const applied = appliedMigrations(db.$client).length - before;
        console.log(
          `Restored ${source} into ${config.dbPath}${applied > 0 ? `, and applied ${applied} pending migration${applied === 1 ? "" : "s"}` : ""}.`,
        );
      } finally {
        db.$client.close();
      }
    });
}
