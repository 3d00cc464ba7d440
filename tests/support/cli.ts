/**
 * `./mesa` run as a person would run it: a process of its own, in a workspace (a temporary folder with its own
 * database file and storage), messages in English unless told otherwise. Seeding once into a template database
 * and copying it per test keeps tests independent without paying for `db:seed` every time.
 */
import { expect } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

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

/** A database file made by `./mesa db:migrate` and `./mesa db:seed` (each must succeed and print no error), to copy from. */
export function seededTemplate(prefix: string, env: Record<string, string> = {}): string {
  const ws = cliWorkspace(prefix, env, "template.sqlite");
  for (const command of ["db:migrate", "db:seed"]) {
    const { code, err } = mesa(ws, [command]);
    expect({ command, err, code }).toEqual({ command, err: "", code: 0 });
  }
  return ws.dbPath;
}

/** A new workspace whose database is a copy of `template` (VACUUM INTO: a consistent copy of a closed or open file). */
export function workspaceFrom(template: string, prefix: string, env: Record<string, string> = {}): Workspace {
  const ws = cliWorkspace(prefix, env);
  const source = new Database(template);
  try {
    source.query("VACUUM INTO ?").run(ws.dbPath);
  } finally {
    source.close();
  }
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
