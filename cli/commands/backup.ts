/**
 * `./mesa db:backup [FILE]`, `./mesa db:restore FILE [--yes]`, `./mesa db:restore --at MOMENT [--yes]` and
 * `./mesa db:replicas [--json]` (the last two read Litestream's replica: src/replication.ts).
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
import { copyFileSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync, statfsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { bootstrapAccess } from "../../src/domain/access/starting-roles";
import { MIGRATIONS_FOLDER, migrateDatabase, openDatabase, type Db } from "../../src/db";
import { liveProcesses, PROCESS_LEASE_MS, type MesaProcess } from "../../src/domain/jobs/processes";
import type { Config, ReplicaSettings } from "../../src/config";
import {
  litestreamStatePath,
  NotInReplica,
  replicaStatus,
  replicatingProcess,
  restoreReplica,
} from "../../src/replication";
import { clockIn, momentIn } from "../../src/shared/calendar";
import { processes } from "../../db/schema";
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
    `Mesa is running on ${dbPath} (${which}). Stop it first (systemctl stop mesa, or Ctrl-C where it runs), then run ./mesa db:restore again. (A server that was killed counts as running until its lease lapses, ${PROCESS_LEASE_MS / 1000} s after its last heartbeat.)`,
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
      "Replace the database with a backup, or with the replica as it was at a moment (--at), with Mesa stopped, after keeping a copy of the current one; then apply pending migrations",
    )
    .argument("[file]", "a backup made by ./mesa db:backup")
    .option(
      "--at <moment>",
      'restore from the replica as it was then: "2026-12-01 10:32" in APP_TIMEZONE, or with Z or an offset',
    )
    .option("--yes", "do not ask for confirmation (needed when there is no terminal to ask on)")
    .action(async (file: string | undefined, opts: { at?: string; yes?: boolean }) => {
      if (file !== undefined && opts.at !== undefined)
        throw new CliError("Name a backup file or --at a moment, not both.", 2);
      if (opts.at !== undefined) return restoreFromReplica(opts.at, opts.yes === true);
      if (file === undefined)
        throw new CliError("Name the backup file to restore, or --at a moment to restore the replica to.", 2);
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
      if (!opts.yes)
        await confirmOrStop(
          `This replaces everything in ${config.dbPath} with ${source} (${usersInWords(users)}, ${sizeOf(source)})${exists ? `; the current database is copied to ${folder} first` : ""}.\n${room}`,
        );
      console.log(room);
      const db = openDatabase(config.dbPath);
      try {
        if (exists) {
          const kept = freeBackupName(folder, "mesa-before-restore");
          backupDatabase(db, kept);
          console.log(`Kept the current database in ${kept}.`);
        }
        restoreDatabase(db, source);
        const applied = migrateRestored(db);
        console.log(`Restored ${source} into ${config.dbPath}${appliedInWords(applied)}.`);
      } finally {
        db.$client.close();
      }
    });

  program
    .command("db:replicas")
    .description(
      "Show the replica Litestream keeps: where, how far it trails the database, the last snapshot, what it can restore",
    )
    .option("--json", "print it as JSON")
    .action(async (opts: { json?: boolean }) => {
      const config = cliConfig();
      const replica = replicaOrStop(config);
      const status = await replicaStatus(config.dbPath, replica).catch((error: unknown) => {
        throw new CliError(
          `Reading the replica at ${replica.location} failed: ${error instanceof Error ? error.message : error}`,
        );
      });
      const replicator = isFile(config.dbPath) ? serverThatReplicates(config.dbPath) : null;
      if (opts.json) {
        console.log(JSON.stringify({ ...status, replicatedBy: replicator }, null, 2));
        return;
      }
      const clock = (at: Date | null) => (at ? `${clockIn(config.timezone, at)} (${config.timezone})` : "—");
      console.log(`Replica: ${status.location}${replica.type === "file" ? " (a folder)" : ""}`);
      console.log(
        replicator
          ? `Replicated by the Mesa server with process ${replicator.pid} on ${replicator.hostname}, listening on ${replicator.address}.`
          : "Not replicating now: no Mesa server runs on this database (Litestream runs inside the server).",
      );
      if (!status.generation) {
        console.log("The replica holds nothing yet: it starts when a Mesa server runs.");
        return;
      }
      console.log(`Generation: ${status.generation}`);
      console.log(
        `Lag: ${status.lagSeconds === null ? "unknown" : `${status.lagSeconds.toFixed(1)} s`} behind the database's last write`,
      );
      console.log(`Restorable: ${spansInWords(status.spans, config.timezone)} (${config.timezone})`);
      console.log(
        status.lastSnapshot
          ? `Last snapshot: ${clock(status.lastSnapshot.at)}, ${inWords(status.lastSnapshot.bytes)} (${status.snapshots} snapshot${status.snapshots === 1 ? "" : "s"} kept)`
          : "Last snapshot: none",
      );
    });
}

/** "2026-12-01 08:00:00 to 2026-12-01 10:32:05, and 2026-12-01 11:00:00 to …": the moments a restore can go to. */
function spansInWords(spans: { from: Date; to: Date }[], timeZone: string): string {
  return spans.map((s) => `${clockIn(timeZone, s.from)} to ${clockIn(timeZone, s.to)}`).join(", and ");
}

function usersInWords(users: number): string {
  return `${users} user${users === 1 ? "" : "s"}`;
}

function appliedInWords(applied: number): string {
  return applied > 0 ? `, and applied ${applied} pending migration${applied === 1 ? "" : "s"}` : "";
}

/** Asks before a restore; stops the command when the answer is no or when there is no terminal to ask on. */
async function confirmOrStop(consequence: string): Promise<void> {
  if (!process.stdin.isTTY)
    throw new CliError(`${consequence}\nThere is no terminal to confirm on: run it again with --yes.`, 2);
  if (!(await confirm(`${consequence}\nRestore? [y/N] `))) throw new CliError("Nothing was restored.");
}

/**
 * Applies the migrations a restored database lacks and the starting access, and forgets the servers it remembers
 * running (none runs now: the restore checked); how many migrations it applied.
 */
function migrateRestored(db: Db): number {
  const before = appliedMigrations(db.$client).length;
  migrateDatabase(db);
  bootstrapAccess(db);
  db.delete(processes).run();
  return appliedMigrations(db.$client).length - before;
}

function replicaOrStop(config: Config): ReplicaSettings {
  if (!config.replica)
    throw new CliError(
      "Replication is off (REPLICA_URL=off): there is no replica. docs/operations.md says how to turn it on.",
    );
  return config.replica;
}

/** The live server that runs Litestream on the database, if any. */
function serverThatReplicates(dbPath: string): MesaProcess | null {
  const db = openDatabase(dbPath);
  try {
    return replicatingProcess(liveProcesses(db));
  } catch {
    return null;
  } finally {
    db.$client.close();
  }
}

/**
 * `./mesa db:restore --at MOMENT`: Litestream restores the replica as it was at MOMENT into a new file beside the
 * database, which is checked, and then swapped in (Mesa stopped): the current database is moved to the backups
 * folder, Litestream's state beside it is dropped (its next run starts a new generation), the restored file takes its
 * name, and pending migrations are applied.
 */
async function restoreFromReplica(text: string, yes: boolean): Promise<void> {
  const config = cliConfig();
  const replica = replicaOrStop(config);
  const at = momentIn(config.timezone, text);
  if (!at)
    throw new CliError(
      `"${text}" is not a moment such as "2026-12-01 10:32" (${config.timezone} time) or 2026-12-01T15:32:00Z.`,
      2,
    );
  if (at.getTime() > Date.now())
    throw new CliError(`${clockIn(config.timezone, at)} is still to come; name a moment past.`, 2);
  const moment = `${clockIn(config.timezone, at)} (${config.timezone})`;
  refuseWhileRunning(config.dbPath);
  const exists = isFile(config.dbPath);
  const folder = backupFolder(config.storagePath);
  // The restored database is about the size of the current one (it is the same database, earlier); the current one
  // is moved, not copied, unless the backups folder is on another disk.
  const current = exists ? statSync(config.dbPath).size + sizeIfFile(`${config.dbPath}-wal`) : 0;
  const needed = Math.max(current, 1024 * 1024);
  const free = freeBytes(config.dbPath);
  const room = `Restoring from the replica needs about ${inWords(needed)} free beside the database (the size of the current one); ${inWords(free)} are free.`;
  console.log(room);
  if (free < needed) throw new CliError(`Free some room first; nothing was restored.`);
  const output = freeName(`${config.dbPath}.restored`);
  try {
    await restoreReplica(config.dbPath, replica, at, output);
  } catch (error) {
    rmSync(output, { force: true });
    if (error instanceof NotInReplica) {
      const { spans } = await replicaStatus(config.dbPath, replica);
      throw new CliError(
        spans.length > 0
          ? `The replica covers ${spansInWords(spans, config.timezone)} (${config.timezone}); ${moment} is outside it. Nothing was restored.`
          : `The replica holds nothing yet (${replica.location}). Nothing was restored.`,
      );
    }
    throw new CliError(`Nothing was restored: ${error instanceof Error ? error.message : error}`);
  }
  try {
    const { users } = inspectBackup(output);
    if (!yes)
      await confirmOrStop(
        `This replaces ${config.dbPath} with the database as it was at ${moment} (${usersInWords(users)}, ${sizeOf(output)})${exists ? `; the current database is kept in ${folder}` : ""}.`,
      );
    if (exists) console.log(`Kept the current database in ${setAside(config.dbPath, folder)}.`);
    rmSync(litestreamStatePath(config.dbPath), { recursive: true, force: true });
    checkpointWhole(output);
    renameSync(output, config.dbPath);
  } finally {
    rmSync(output, { force: true });
  }
  const db = openDatabase(config.dbPath);
  try {
    const applied = migrateRestored(db);
    console.log(`Restored the database as it was at ${moment} into ${config.dbPath}${appliedInWords(applied)}.`);
    console.log("When Mesa starts, Litestream begins a new generation of the replica from it.");
  } finally {
    db.$client.close();
  }
}

function sizeIfFile(path: string): number {
  return isFile(path) ? statSync(path).size : 0;
}

/** `base-2026-12-01T13-45-00Z`, or with -2, -3…: a name not taken. */
function freeName(base: string): string {
  return freeBackupName(dirname(base), base.split("/").at(-1)!).replace(/\.sqlite$/, "");
}

/**
 * Moves the current database (its write-ahead log checkpointed into it first) into the backups folder; copies it
 * when that folder is on another disk. Returns where it went.
 */
function setAside(dbPath: string, folder: string): string {
  checkpointWhole(dbPath);
  mkdirSync(folder, { recursive: true });
  const kept = freeBackupName(folder, "mesa-before-restore");
  try {
    renameSync(dbPath, kept);
  } catch (error) {
    if ((error as { code?: string }).code !== "EXDEV") throw error;
    copyFileSync(dbPath, kept);
    rmSync(dbPath);
  }
  return kept;
}

/** Moves everything of a database's write-ahead log into the file itself, so that the file alone is the database. */
function checkpointWhole(path: string): void {
  const client = new Database(path);
  try {
    client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    client.close();
  }
  for (const leftover of ["-wal", "-shm"]) rmSync(`${path}${leftover}`, { force: true });
}
