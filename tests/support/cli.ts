/**
 * `./mesa` in a workspace (a temporary folder with its own database file and storage), messages in English unless
 * told otherwise, run two ways with the same result (exit code, standard output, standard error):
 *
 * - `mesa()` starts `./mesa` as a process of its own, as a person runs it. Each process pays Bun's start-up and the
 *   loading of every command group (about a third of a second), so this is kept for what only a real process
 *   shows: the script itself, exit codes, standard input, a terminal, several processes on one database.
 * - `mesaInProcess()` runs the same command (`run()` of cli/main.ts) inside the test process, with the workspace's
 *   settings given to that run only; its output is caught while it runs, its standard input is empty and nothing
 *   is a terminal, as for `mesa()`; the databases it opened are closed when it ends. It runs in the test's working
 *   folder, not the workspace's, so paths given to it are absolute (the workspace's settings are).
 *
 * Seeding once into a template database and copying it per test keeps tests independent without paying for
 * `db:seed` every time.
 */
import { expect } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { format } from "node:util";
import { run } from "../../cli/main";

export const MESA = resolve(import.meta.dir, "../../mesa");

export interface Workspace {
  dir: string;
  dbPath: string;
  /** The settings every command in this workspace runs with (on top of this process's environment). */
  env: Record<string, string>;
}

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** A new workspace in a temporary folder named `prefix…`, its database file `dbFile`, with `env` on top of the defaults. */
export function cliWorkspace(prefix: string, env: Record<string, string> = {}, dbFile = "mesa.sqlite"): Workspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dbPath = join(dir, dbFile);
  return {
    dir,
    dbPath,
    env: {
      DB_PATH: dbPath,
      STORAGE_PATH: join(dir, "storage"),
      APP_LOCALE: "en",
      NODE_ENV: "test",
      LOG_REQUESTS: "false",
      ...env,
    },
  };
}

/** Runs `./mesa ARGS` in the workspace; `env` adds settings for this run, `stdin` is piped in (none otherwise). */
export function mesa(
  ws: Workspace,
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): CliResult {
  const result = Bun.spawnSync([MESA, ...args], {
    cwd: ws.dir,
    env: { ...process.env, ...ws.env, ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}

type Stream = NodeJS.WriteStream;

let emptyPath = "";
/** An empty regular file (reading /dev/null as a stream fails in Bun: it cannot be polled). */
function emptyFile(): string {
  if (!emptyPath) {
    emptyPath = join(mkdtempSync(join(tmpdir(), "mesa-cli-stdin-")), "empty");
    writeFileSync(emptyPath, "");
  }
  return emptyPath;
}

/** Writes to standard output and error go to `out` and `err` (as text), as they would through a pipe. */
function catchOutput(out: string[], err: string[]): () => void {
  const text = (chunk: unknown) =>
    typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk as Uint8Array | ArrayBuffer);
  const streamWrite = (into: string[]) =>
    function (chunk: unknown, ...rest: unknown[]): boolean {
      into.push(text(chunk));
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    };
  const consoleWrite =
    (into: string[]) =>
    (...args: unknown[]) => {
      into.push(`${format(...args)}\n`);
    };
  const restores: (() => void)[] = [];
  /** Gives `target[key]` a value until the run ends; the old property (own or inherited) comes back after. */
  const replace = (target: object, key: PropertyKey, value: unknown) => {
    const own = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { value, configurable: true, writable: true, enumerable: own?.enumerable });
    restores.push(() => {
      if (own) Object.defineProperty(target, key, own);
      else delete (target as Record<PropertyKey, unknown>)[key];
    });
  };
  replace(console, "log", consoleWrite(out));
  replace(console, "info", consoleWrite(out));
  replace(console, "error", consoleWrite(err));
  replace(console, "warn", consoleWrite(err));
  replace(process.stdout, "write", streamWrite(out));
  replace(process.stderr, "write", streamWrite(err));
  // A pipe: no terminal, no width.
  for (const stream of [process.stdout, process.stderr] as Stream[]) {
    replace(stream, "isTTY", undefined);
    replace(stream, "columns", undefined);
  }
  replace(process.stdin, "isTTY", undefined);
  // Standard input is empty, as for a process started with none: a command that reads it gets nothing, not the
  // test runner's terminal. (Bun.stdin can be assigned but not redefined.)
  const stdin = Bun.stdin;
  (Bun as { stdin: unknown }).stdin = Bun.file(emptyFile());
  restores.push(() => ((Bun as { stdin: unknown }).stdin = stdin));
  return () => {
    for (const restore of restores.reverse()) restore();
  };
}

let inProcessRunning = false;

/**
 * Runs `mesa ARGS` inside this process with exactly the settings `env` (as a process started with that environment
 * would have them). Standard input is empty. One at a time: output is caught process-wide.
 */
export async function runInProcess(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  if (inProcessRunning) throw new Error("runInProcess: another command is still running in this process");
  inProcessRunning = true;
  const out: string[] = [];
  const err: string[] = [];
  const restore = catchOutput(out, err);
  let code: number;
  try {
    code = await run(args, env);
  } finally {
    restore();
    inProcessRunning = false;
  }
  // Jobs that earlier test files started in this process may still be finishing; their live updates, refused by the
  // test settings' unreachable realtime server, are reported on standard error while the command runs. They are not
  // the command's output.
  const others = /^A subscriber of JobUpdated failed: .*\n?/gm;
  return { code, out: out.join(""), err: err.join("").replace(others, "") };
}

/** Runs `mesa ARGS` inside this process with the settings `mesa()` would give it: this process's, the workspace's, `env`. */
export function mesaInProcess(
  ws: Workspace,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliResult> {
  return runInProcess(args, { ...process.env, ...ws.env, ...options.env });
}

/** A database file made by `./mesa db:migrate` and `./mesa db:seed` (each must succeed and print no error), to copy from. */
export async function seededTemplate(prefix: string, env: Record<string, string> = {}): Promise<string> {
  const ws = cliWorkspace(prefix, env, "template.sqlite");
  for (const command of ["db:migrate", "db:seed"]) {
    const { code, err } = await mesaInProcess(ws, [command]);
    expect({ command, err, code }).toEqual({ command, err: "", code: 0 });
  }
  return ws.dbPath;
}

/**
 * Copies the database file `source` to `target` (VACUUM INTO: a consistent copy of a closed or open file). The copy
 * is put back in WAL mode, which VACUUM INTO leaves out, so it behaves as the original does next to other
 * connections (a reader and a writer at once).
 */
export function copyDatabase(source: string, target: string): void {
  const from = new Database(source);
  try {
    from.query("VACUUM INTO ?").run(target);
  } finally {
    from.close();
  }
  const copy = new Database(target);
  try {
    copy.exec("PRAGMA journal_mode = WAL");
  } finally {
    copy.close();
  }
}

/** A new workspace whose database is a copy of `template`. */
export function workspaceFrom(template: string, prefix: string, env: Record<string, string> = {}): Workspace {
  const ws = cliWorkspace(prefix, env);
  copyDatabase(template, ws.dbPath);
  return ws;
}

/** Runs one query on the workspace's database (a connection of its own, closed at once). */
export function sql<T = Record<string, unknown>>(
  ws: { dbPath: string },
  query: string,
  ...params: (string | number | null)[]
): T[] {
  const db = new Database(ws.dbPath);
  try {
    return db.query(query).all(...params) as T[];
  } finally {
    db.close();
  }
}
