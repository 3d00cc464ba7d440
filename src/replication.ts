/**
 * Continuous replication of the database with Litestream 0.3.13, the binary the npm package
 * `@flydotio/litestream-linux-x64` ships (called directly: the package's wrapper exits 0 even when Litestream fails).
 * docs/decisions/019-replication-by-litestream.md says why, docs/operations.md ("Replication") how to run it.
 *
 * - Where to: REPLICA_URL (src/config.ts): a folder by default, or an S3-compatible bucket. Mesa writes Litestream's
 *   configuration file from its settings (`writeLitestreamConfig`); credentials stay in Litestream's own environment
 *   variables, never in that file.
 * - Who runs it: one server per database (`Replicator`), the one of the live servers that started first; on each
 *   heartbeat every server checks, so when that one stops another takes over within a lease. Litestream runs as a
 *   child that ends with the server, even a killed one: it is started through `sh`, which ends it when the server's
 *   end of a pipe closes.
 * - What it tells: `replicaStatus` (the `generations` and `snapshots` commands) for `./mesa db:replicas` and the
 *   `mesa_replication_lag_seconds` metric; `restoreReplica` (`restore -timestamp`) for `./mesa db:restore --at`.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Subprocess } from "bun";
import type { Config, ReplicaSettings } from "./config";
import type { Db } from "./db";
import { liveProcesses, type MesaProcess } from "./domain/jobs/processes";
import { log } from "./log";

/** The Litestream binary of the npm package. */
export function litestreamBinary(): string {
  return join(dirname(require.resolve("@flydotio/litestream-linux-x64/package.json")), "litestream");
}

/** Where Mesa keeps Litestream's configuration for a database: beside it, named after it. */
export function litestreamConfigPath(dbPath: string): string {
  return `${dbPath}.litestream.yml`;
}

/** The replica's name in Litestream's configuration and output. */
const REPLICA_NAME = "replica";

/** Litestream's configuration for `dbPath` and `replica`, as YAML (every value a JSON string, which YAML reads as is). */
export function litestreamConfig(dbPath: string, replica: ReplicaSettings): string {
  const q = (value: string) => JSON.stringify(value);
  const lines = ["dbs:", `  - path: ${q(dbPath)}`, "    replicas:", `      - name: ${q(REPLICA_NAME)}`];
  if (replica.type === "file") lines.push(`        type: "file"`, `        path: ${q(replica.location)}`);
  else {
    lines.push(`        url: ${q(replica.location)}`);
    if (replica.endpoint) lines.push(`        endpoint: ${q(replica.endpoint)}`, "        force-path-style: true");
    if (replica.region) lines.push(`        region: ${q(replica.region)}`);
  }
  lines.push(
    `        sync-interval: ${q(replica.syncInterval)}`,
    `        snapshot-interval: ${q(replica.snapshotInterval)}`,
    `        retention: ${q(replica.retention)}`,
  );
  return lines.join("\n") + "\n";
}

/** Writes the configuration file (whole or not at all) and returns its path. */
export function writeLitestreamConfig(dbPath: string, replica: ReplicaSettings): string {
  const path = litestreamConfigPath(dbPath);
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, litestreamConfig(dbPath, replica), { mode: 0o600 });
  renameSync(partial, path);
  return path;
}

/** A Litestream command's arguments with Mesa's configuration file (environment variables are not expanded in it). */
function litestreamCommand(command: string, configPath: string, ...rest: string[]): string[] {
  return [litestreamBinary(), command, "-no-expand-env", "-config", configPath, ...rest];
}

export class ReplicationError extends Error {}

/** The replica holds no generation that covers the moment asked for. */
export class NotInReplica extends ReplicationError {
  constructor(readonly at: Date) {
    super(`The replica holds no copy of the database at ${at.toISOString()}.`);
  }
}

/** Of the live servers on a database, the one that runs Litestream: the one that started first. */
export function replicatingProcess(live: MesaProcess[]): MesaProcess | null {
  return live.toSorted((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.id.localeCompare(b.id))[0] ?? null;
}

/** Runs a short Litestream command; its standard output, or a ReplicationError with what it said. */
async function runLitestream(args: string[]): Promise<string> {
  const child = Bun.spawn(args, { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: process.env });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  // Litestream logs to standard output; its usage mistakes go to standard error.
  if (code !== 0)
    throw new ReplicationError(litestreamMessage(`${err}\n${out}`) || `Litestream exited with code ${code}`);
  return out;
}

/** The message of Litestream's last error line (`… level=ERROR msg="failed to run" error="…"`), or its last line. */
function litestreamMessage(output: string): string {
  const lines = output.trim().split("\n").filter(Boolean);
  const last = lines.findLast((line) => line.includes("level=ERROR")) ?? lines.at(-1) ?? "";
  return /error="((?:[^"\\]|\\.)*)"/.exec(last)?.[1] ?? last;
}

/** Rows of Litestream's table output (columns apart by two or more spaces), by the header's names. */
function table(output: string): Record<string, string>[] {
  const [header, ...rows] = output.trim().split("\n").filter(Boolean);
  if (!header) return [];
  const names = header.trim().split(/\s{2,}/);
  return rows.map((row) =>
    Object.fromEntries(
      row
        .trim()
        .split(/\s{2,}/)
        .map((cell, i) => [names[i], cell]),
    ),
  );
}

/** Seconds in a Go duration as Litestream prints it ("-6ms", "1.5s", "2m3.1s", "1h0m0s"). */
export function goDurationSeconds(text: string): number {
  const sign = text.startsWith("-") ? -1 : 1;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, µs: 1e-6, us: 1e-6, ns: 1e-9 };
  let seconds = 0;
  for (const [, amount, unit] of text.replace(/^-/, "").matchAll(/([\d.]+)(ms|µs|us|ns|h|m|s)/g))
    seconds += Number(amount) * units[unit];
  return sign * seconds;
}

export interface ReplicaStatus {
  /** The folder or bucket URL. */
  location: string;
  /** The generation Litestream writes to now (a new one starts after a restore or a lost WAL). */
  generation: string | null;
  /** How far the replica trails the database's last write, in seconds (0 when it holds everything). */
  lagSeconds: number | null;
  /** What the replica covers, oldest first: a restore can go to any moment within one of these spans. */
  spans: { generation: string; from: Date; to: Date }[];
  lastSnapshot: { at: Date; bytes: number } | null;
  snapshots: number;
}

/** The replica's generations (Litestream's `generations`), the one written last at the end. */
async function generationsOf(dbPath: string, configPath: string): Promise<Record<string, string>[]> {
  const generations = table(await runLitestream(litestreamCommand("generations", configPath, dbPath)));
  return generations.sort((a, b) => (a.end ?? "").localeCompare(b.end ?? ""));
}

/**
 * How far the replica trails the database, in seconds: the time between the database's last write and the last write
 * the replica holds (Litestream's own "lag"), 0 when it holds everything. While Litestream keeps up it stays below
 * the time between two writes (each server writes its lease every 5 s); when it stops, it grows with every write.
 */
export async function replicaLag(dbPath: string, configPath: string): Promise<number | null> {
  const lag = (await generationsOf(dbPath, configPath)).at(-1)?.lag;
  return lag ? Math.max(0, goDurationSeconds(lag)) : null;
}

/** What the replica of `dbPath` holds now, read from the replica itself (Litestream's `generations` and `snapshots`). */
export async function replicaStatus(dbPath: string, replica: ReplicaSettings): Promise<ReplicaStatus> {
  const configPath = writeLitestreamConfig(dbPath, replica);
  const generations = await generationsOf(dbPath, configPath);
  const snapshots = table(await runLitestream(litestreamCommand("snapshots", configPath, dbPath)));
  const latest = generations.at(-1);
  const last = snapshots.sort((a, b) => (a.created ?? "").localeCompare(b.created ?? "")).at(-1);
  return {
    location: replica.location,
    generation: latest?.generation ?? null,
    lagSeconds: latest?.lag ? Math.max(0, goDurationSeconds(latest.lag)) : null,
    spans: generations.map((g) => ({ generation: g.generation, from: new Date(g.start), to: new Date(g.end) })),
    lastSnapshot: last ? { at: new Date(last.created), bytes: Number(last.size) } : null,
    snapshots: snapshots.length,
  };
}

/**
 * Restores the database as it was at `at` from the replica into `output` (which must not exist), with Litestream's
 * `restore -timestamp`. Litestream writes a temporary file beside it and renames it when whole; its leftovers go.
 */
export async function restoreReplica(
  dbPath: string,
  replica: ReplicaSettings,
  at: Date,
  output: string,
): Promise<void> {
  const configPath = writeLitestreamConfig(dbPath, replica);
  try {
    await runLitestream(litestreamCommand("restore", configPath, "-timestamp", at.toISOString(), "-o", output, dbPath));
  } catch (error) {
    // Litestream restores only to a moment within one generation: from its first snapshot to its last shipped write.
    if (error instanceof ReplicationError && /no matching backups/.test(error.message)) throw new NotInReplica(at);
    throw error;
  } finally {
    for (const leftover of ["-wal", "-shm"]) rmSync(`${output}.tmp${leftover}`, { force: true });
    rmSync(`${output}.tmp`, { force: true });
  }
}

/** Litestream's own state beside the database (its shadow WAL), which a swapped-in file must not inherit. */
export function litestreamStatePath(dbPath: string): string {
  return join(dirname(dbPath), `.${dbPath.split("/").at(-1)}-litestream`);
}

/**
 * Runs Litestream for one server: started when this server is the one that should replicate (the live server that
 * started first), stopped when it no longer is or when the server stops, started again at a heartbeat when it
 * ended on its own. Its log lines join the server's log (errors and warnings; the rest at debug).
 */
export class Replicator {
  private child: Subprocess<"pipe", "pipe", "pipe"> | null = null;
  private configPath: string | null = null;
  /** Seconds the replica trails the database, refreshed on each heartbeat while this server replicates. */
  lagSeconds: number | null = null;

  constructor(private readonly config: Config & { replica: ReplicaSettings }) {}

  get running(): boolean {
    return this.child !== null;
  }

  /** On each heartbeat of the server `processId`: start or stop Litestream as the live servers say, and read the lag. */
  async heartbeat(db: Db, processId: string): Promise<void> {
    if (replicatingProcess(liveProcesses(db))?.id !== processId) {
      if (this.child) {
        log.info("another Mesa server replicates this database now: stopping Litestream here");
        await this.stop();
      }
      return;
    }
    if (!this.child) this.start();
    await this.refreshLag();
  }

  private start(): void {
    const configPath = writeLitestreamConfig(this.config.dbPath, this.config.replica);
    this.configPath = configPath;
    // sh starts Litestream and waits for it; when the server's end of standard input closes (it stops, or it is
    // killed), `cat` returns and Litestream gets SIGTERM, so it never outlives the server. (An asynchronous list reads
    // /dev/null unless told otherwise, hence the copy of standard input as descriptor 3.)
    const script =
      'exec 3<&0; "$@" </dev/null & child=$!; (cat <&3 >/dev/null; kill "$child" 2>/dev/null) & wait "$child"';
    const child = Bun.spawn(["sh", "-c", script, "litestream", ...litestreamCommand("replicate", configPath)], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: process.env,
    });
    this.child = child;
    log.info(
      { replica: this.config.replica.location },
      `Litestream replicates the database to ${this.config.replica.location}`,
    );
    void this.relay(child.stdout);
    void this.relay(child.stderr);
    void child.exited.then((code) => {
      if (this.child !== child) return;
      this.child = null;
      child.stdin.end();
      this.lagSeconds = null;
      log.error(`Litestream stopped (exit code ${code}); it starts again at the next heartbeat`);
    });
  }

  /**
   * Litestream's log lines (on standard output) into the server's log, at their own level (info lines, one per
   * shipped segment, at debug).
   */
  private async relay(stream: ReadableStream<Uint8Array>): Promise<void> {
    let pending = "";
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      pending += decoder.decode(chunk.value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) {
        const level = /level=(\w+)/.exec(line)?.[1];
        if (level === "ERROR") log.error({ litestream: line }, "Litestream: " + litestreamMessage(line));
        else if (level === "WARN") log.warn({ litestream: line }, "Litestream warns");
        else log.debug({ litestream: line }, "Litestream");
      }
    }
  }

  private async refreshLag(): Promise<void> {
    try {
      if (this.configPath) this.lagSeconds = await replicaLag(this.config.dbPath, this.configPath);
    } catch (error) {
      this.lagSeconds = null;
      log.warn({ err: error }, "reading the replica's lag failed");
    }
  }

  /** Stops Litestream (it ships what it has, then exits); waits at most `graceMs`, then kills it. */
  async stop(graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    this.lagSeconds = null;
    child.stdin.end();
    const ended = await Promise.race([child.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
    if (!ended) child.kill("SIGKILL");
  }
}
