/**
 * Installing, starting and keeping data as a newcomer would: `./mesa db:seed` with and without the demo data,
 * `user:password`, `db:backup` and `db:restore` (with the backup → change → restore → compare drill), each test in
 * its own temporary STORAGE_PATH; and the first start of the server with the DEMO_DATA setting on and off. Commands
 * run in this process (tests/support/cli.ts), except where only a process of its own shows it: a password on
 * standard input, no terminal to confirm on, a terminal, a command line pasted into a shell, and the server.
 * Messages are checked in English (APP_LOCALE=en); password-policy messages against the dictionaries, in both
 * languages.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { verifyPassword } from "../src/domain/accounts/passwords";
import { MIGRATIONS_FOLDER, openDatabase } from "../src/db";
import { endProcess, registerProcess } from "../src/domain/jobs/processes";
import { copyDatabase, runInProcess } from "../tests/support/cli";

const ROOT = resolve(import.meta.dir, "..");
const MESA = join(ROOT, "mesa");
const PASSWORD = "correct-horse-42";

interface Workspace {
  dir: string;
  storage: string;
  dbPath: string;
  env: Record<string, string>;
}

function workspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), "mesa-database-cli-"));
  const storage = join(dir, "storage");
  const dbPath = join(storage, "mesa.sqlite");
  return {
    dir,
    storage,
    dbPath,
    env: { STORAGE_PATH: storage, DB_PATH: dbPath, APP_LOCALE: "en", NODE_ENV: "test", LOG_REQUESTS: "false" },
  };
}

/** The environment of a command: this process's, without a DEMO_DATA of its own, plus the workspace's and `extra`. */
function environment(ws: Workspace, extra: Record<string, string>): Record<string, string> {
  const { DEMO_DATA: _, ...inherited } = process.env;
  return { ...(inherited as Record<string, string>), ...ws.env, ...extra };
}

/** `./mesa ARGS` as a process of its own, in the workspace; `stdin` is piped in (none otherwise). */
function mesa(ws: Workspace, args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
  const result = Bun.spawnSync([MESA, ...args], {
    cwd: ws.dir,
    env: environment(ws, options.env ?? {}),
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}

/** `./mesa ARGS` run in this process (tests/support/cli.ts) with the settings `mesa()` would give the process. */
function mesaInProcess(ws: Workspace, args: string[], options: { env?: Record<string, string> } = {}) {
  return runInProcess(args, environment(ws, options.env ?? {}));
}

/** Runs a command line through a shell, with `./mesa` meaning this checkout's (as a person pastes it). */
function shell(ws: Workspace, line: string) {
  const result = Bun.spawnSync(["sh", "-c", line.replace(/^\.\/mesa /, `'${MESA}' `)], {
    cwd: ws.dir,
    env: environment(ws, {}),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}

function sql<T = Record<string, unknown>>(path: string, query: string, ...params: (string | number | null)[]): T[] {
  const db = new Database(path);
  try {
    return db.query(query).all(...params) as T[];
  } finally {
    db.close();
  }
}

function count(path: string, table: string): number {
  return sql<{ n: number }>(path, `SELECT COUNT(*) AS n FROM ${table}`)[0].n;
}

/** Everything in a database file: its schema, and the rows of every table, in a stable order. */
function dump(path: string): Record<string, string[]> {
  const db = new Database(path);
  try {
    const objects = db
      .query<{ type: string; name: string; sql: string | null }, []>("SELECT type, name, sql FROM sqlite_master")
      .all();
    const result: Record<string, string[]> = {
      "(schema)": objects
        .filter((o) => o.sql !== null)
        .map((o) => `${o.type} ${o.name}: ${o.sql}`)
        .sort(),
    };
    for (const { name } of objects.filter((o) => o.type === "table")) {
      result[name] = db
        .query(`SELECT * FROM "${name}"`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort();
    }
    return result;
  } finally {
    db.close();
  }
}

function backups(ws: Workspace): string[] {
  const folder = join(ws.storage, "backups");
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

/** The database of realDeployment(), made once by the commands a newcomer runs (each must succeed). */
let deployment: Promise<string> | null = null;

async function makeDeployment(): Promise<string> {
  const ws = workspace();
  expect((await mesaInProcess(ws, ["db:seed"], { env: { DEMO_DATA: "false" } })).code).toBe(0);
  const created = await mesaInProcess(ws, [
    "user:create",
    "--name",
    "Ana Quispe",
    "--email",
    "ana@mesa.test",
    "--password",
    PASSWORD,
    "--verified",
    "--role",
    "super-administrator",
    "--area",
    "Administración@Sede principal",
  ]);
  expect(created.err).toBe("");
  expect(created.code).toBe(0);
  return ws.dbPath;
}

/**
 * A database as a real deployment starts it: reference data, the first headquarters and one administrator. Each
 * test gets its own copy in a new workspace, so seeding runs once for the file.
 */
async function realDeployment(): Promise<Workspace> {
  deployment ??= makeDeployment();
  const template = await deployment;
  const ws = workspace();
  mkdirSync(ws.storage, { recursive: true });
  copyDatabase(template, ws.dbPath);
  return ws;
}

function userRow(ws: Workspace, email: string) {
  return sql<{ id: number; password_hash: string; remember_token_hash: string | null }>(
    ws.dbPath,
    "SELECT id, password_hash, remember_token_hash FROM users WHERE email = ?",
    email,
  )[0];
}

/** How a validation failure prints: the heading, then "  field: message". */
function invalid(locale: "es" | "en", field: string, key: TranslationKey, params?: TranslationParams): string {
  return `${translate(locale, "validation.failed")}\n  ${field}: ${translate(locale, key, params)}`;
}

describe("./mesa db:seed and the DEMO_DATA setting", () => {
  test("with DEMO_DATA=false: reference data and a first headquarters only, and a command that creates the first administrator", async () => {
    const ws = workspace();
    const first = await mesaInProcess(ws, ["db:seed"], { env: { DEMO_DATA: "false" } });
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(count(ws.dbPath, "roles")).toBe(7);
    expect(count(ws.dbPath, "permissions")).toBeGreaterThan(0);
    expect(sql(ws.dbPath, "SELECT code FROM services ORDER BY code").map((r) => r.code)).toEqual([
      "ALM",
      "CEN",
      "DES",
      "DSC",
      "REF",
    ]);
    for (const table of [
      "users",
      "mines",
      "units",
      "cafes",
      "dealerships",
      "subdealerships",
      "properties",
      "cafe_services",
    ])
      expect(count(ws.dbPath, table)).toBe(0);
    expect(
      sql(
        ws.dbPath,
        "SELECT b.name AS business, h.name AS headquarters, a.name AS area FROM areas a JOIN headquarters h ON h.id = a.headquarters_id JOIN businesses b ON b.id = h.business_id",
      ),
    ).toEqual([{ business: "Mi empresa", headquarters: "Sede principal", area: "Administración" }]);
    expect(first.out).not.toContain("Demo accounts");
    expect(first.out).toContain("Nobody can sign in yet.");

    // The printed command works once the capitals are replaced.
    const line = first.out
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.startsWith("./mesa user:create"))!;
    expect(line).toBe(
      './mesa user:create --name "YOUR NAME" --email YOU@EXAMPLE.COM --password "YOUR PASSWORD" --verified --role super-administrator --area "Administración@Sede principal"',
    );
    const created = shell(
      ws,
      line
        .replace("YOUR NAME", "Ana Quispe")
        .replace("YOU@EXAMPLE.COM", "ana@mesa.test")
        .replace("YOUR PASSWORD", PASSWORD),
    );
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    expect(created.out).toContain('ana@mesa.test now holds "super-administrator" in Administración@Sede principal');

    // Once someone can sign in, seeding again says nothing about the first administrator and adds no headquarters.
    const again = await mesaInProcess(ws, ["db:seed"], { env: { DEMO_DATA: "false" } });
    expect(again.code).toBe(0);
    expect(again.out).not.toContain("First administrator");
    expect(again.out).not.toContain("First headquarters");
    expect(count(ws.dbPath, "headquarters")).toBe(1);
  });

  test("--demo loads the demo data whatever the setting; the printed password signs in and user:password is named", async () => {
    const ws = workspace();
    const seeded = await mesaInProcess(ws, ["db:seed", "--demo"], { env: { DEMO_DATA: "false" } });
    expect(seeded.err).toBe("");
    expect(seeded.code).toBe(0);
    expect(seeded.out).toContain("Demo accounts:");
    expect(seeded.out).toContain("It is shown only this once; to set a new one: ./mesa user:password demo@mesa.test");
    expect(seeded.out).not.toContain("First administrator");
    expect(count(ws.dbPath, "users")).toBe(7);
    expect(count(ws.dbPath, "cafes")).toBe(8);
    const password = seeded.out.match(/password:\s+(\S+)/)![1];
    expect(await verifyPassword(password, userRow(ws, "demo@mesa.test").password_hash)).toBe(true);

    const again = await mesaInProcess(ws, ["db:seed"]);
    expect(again.out).toContain(
      "demo@mesa.test already exists (passwords are unchanged; ./mesa user:password demo@mesa.test sets a new one).",
    );
  });

  test("a bad DEMO_DATA is named", async () => {
    const bad = await mesaInProcess(workspace(), ["db:seed"], { env: { DEMO_DATA: "maybe" } });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('Invalid setting DEMO_DATA: expected true or false, got "maybe"');
  });
});

/** Starts the server on a free port, waits until it listens, stops it; returns what it printed. */
async function firstStart(ws: Workspace, env: Record<string, string>): Promise<string> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const server = Bun.spawn([process.execPath, join(ROOT, "src/server.ts")], {
    cwd: ws.dir,
    // Its "running" line is an info line of its log.
    env: environment(ws, { LOG_LEVEL: "info", ...env, PORT: String(port) }),
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  try {
    const reader = server.stdout.getReader();
    // A bound on a stuck start, not a measure: seeding on a 2-core machine busy with the checks takes seconds.
    const deadline = Date.now() + 60_000;
    while (!out.includes("Mesa is running") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    reader.releaseLock();
  } finally {
    server.kill();
    await server.exited;
  }
  // When it did not start, what it said on standard error shows in the failure.
  if (!out.includes("Mesa is running")) out += `\n[standard error]\n${await new Response(server.stderr).text()}`;
  expect(out).toContain("Mesa is running");
  return out;
}

describe("the first start of an empty database", () => {
  test("with DEMO_DATA=false it creates no demo people or places and prints how to create the first administrator", async () => {
    const ws = workspace();
    const out = await firstStart(ws, { DEMO_DATA: "false" });
    expect(out).toContain("First administrator:");
    expect(out).toContain('--role super-administrator --area "Administración@Sede principal"');
    expect(out).not.toContain("Demo accounts");
    expect(count(ws.dbPath, "users")).toBe(0);
    expect(count(ws.dbPath, "cafes")).toBe(0);
    expect(count(ws.dbPath, "roles")).toBe(7);
  }, 75_000);

  test("by default it loads the demo data and prints the demo account", async () => {
    const ws = workspace();
    const out = await firstStart(ws, {});
    expect(out).toContain("Demo accounts:");
    expect(out).toMatch(/e-mail:\s+demo@mesa\.test\s+\(super-administrator\)/);
    expect(out).toContain("./mesa user:password demo@mesa.test");
    expect(count(ws.dbPath, "users")).toBe(7);
  }, 75_000);
});

describe("./mesa user:password", () => {
  test("sets the password from --password or standard input; the user's sessions and remember-me end; audited with their places", async () => {
    const ws = await realDeployment();
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Luis Rojas",
          "--email",
          "luis@mesa.test",
          "--password",
          PASSWORD,
        ])
      ).code,
    ).toBe(0);
    const ana = userRow(ws, "ana@mesa.test");
    const luis = userRow(ws, "luis@mesa.test");
    sql(
      ws.dbPath,
      "INSERT INTO sessions (id, user_id, data, last_activity) VALUES ('s-ana-1', ?, '{}', 0), ('s-ana-2', ?, '{}', 0), ('s-luis', ?, '{}', 0)",
      ana.id,
      ana.id,
      luis.id,
    );
    sql(ws.dbPath, "UPDATE users SET remember_token_hash = 'remembered'");

    const set = await mesaInProcess(ws, ["user:password", "ANA@mesa.test", "--password", "new-horse-battery-7"]);
    expect(set.err).toBe("");
    expect(set.code).toBe(0);
    expect(set.out.trim()).toBe(
      "New password set for ana@mesa.test; their sessions and remember-me sign-in have ended.",
    );
    expect(await verifyPassword("new-horse-battery-7", userRow(ws, "ana@mesa.test").password_hash)).toBe(true);
    expect(await verifyPassword(PASSWORD, userRow(ws, "ana@mesa.test").password_hash)).toBe(false);
    expect(sql(ws.dbPath, "SELECT id FROM sessions ORDER BY id").map((r) => r.id)).toEqual(["s-luis"]);
    expect(userRow(ws, "ana@mesa.test").remember_token_hash).toBeNull();
    expect(userRow(ws, "luis@mesa.test").remember_token_hash).toBe("remembered");

    const headquarters = sql<{ id: number }>(ws.dbPath, "SELECT id FROM headquarters WHERE name = 'Sede principal'")[0]
      .id;
    const entries = sql<{ id: number; actor_label: string; actor_id: number | null; subject_id: number }>(
      ws.dbPath,
      "SELECT id, actor_label, actor_id, subject_id FROM audit_log WHERE action = 'user.password_set'",
    );
    expect(entries).toEqual([{ id: entries[0].id, actor_label: "cli", actor_id: null, subject_id: ana.id }]);
    expect(sql(ws.dbPath, "SELECT kind, place_id FROM audit_places WHERE audit_id = ?", entries[0].id)).toEqual([
      { kind: "headquarters", place_id: headquarters },
    ]);

    // From standard input, the trailing newline left out; an account without roles is audited company-wide.
    const piped = mesa(ws, ["user:password", "luis@mesa.test"], { stdin: "piped-horse-battery-8\n" });
    expect(piped.err).toBe("");
    expect(piped.code).toBe(0);
    expect(await verifyPassword("piped-horse-battery-8", userRow(ws, "luis@mesa.test").password_hash)).toBe(true);
    expect(count(ws.dbPath, "sessions")).toBe(0);
    const luisEntry = sql<{ id: number }>(
      ws.dbPath,
      "SELECT id FROM audit_log WHERE action = 'user.password_set' AND subject_id = ?",
      luis.id,
    )[0];
    expect(count(ws.dbPath, `audit_places WHERE audit_id = ${luisEntry.id}`)).toBe(0);
  });

  test("the password policy applies, in the configured language; an unknown user, no password or no e-mail is refused", async () => {
    const ws = await realDeployment();
    const before = userRow(ws, "ana@mesa.test").password_hash;
    const fail = async (args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) => {
      // Standard input is a process's own: given one, the command runs as a process.
      const result =
        options.stdin === undefined
          ? await mesaInProcess(ws, ["user:password", ...args], options)
          : mesa(ws, ["user:password", ...args], options);
      expect(result.out).toBe("");
      return result;
    };

    const short = await fail(["ana@mesa.test", "--password", "short"]);
    expect(short.code).toBe(1);
    expect(short.err.trim()).toBe(invalid("en", "password", "validation.password.min", { min: 8 }));
    const common = await fail(["ana@mesa.test", "--password", "password123"], { env: { APP_LOCALE: "es" } });
    expect(common.code).toBe(1);
    expect(common.err.trim()).toBe(invalid("es", "password", "validation.password.common"));
    const empty = await fail(["ana@mesa.test"], { stdin: "" });
    expect(empty.code).toBe(1);
    expect(empty.err.trim()).toBe("No password was given on standard input.");
    const nobody = await fail(["nobody@mesa.test", "--password", "new-horse-battery-7"]);
    expect(nobody.code).toBe(1);
    expect(nobody.err.trim()).toBe("No user with e-mail nobody@mesa.test");
    const missing = await fail([]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("missing required argument 'email'");

    expect(userRow(ws, "ana@mesa.test").password_hash).toBe(before);
    expect(count(ws.dbPath, "audit_log WHERE action = 'user.password_set'")).toBe(0);
  });
});

describe("./mesa db:backup and db:restore", () => {
  test("the drill: backup → change → restore gives back exactly what was backed up; the replaced database is kept", async () => {
    const ws = await realDeployment();
    const backup = await mesaInProcess(ws, ["db:backup"]);
    expect(backup.err).toBe("");
    expect(backup.code).toBe(0);
    const file = backup.out.match(/ to (\S+\.sqlite) \(/)![1];
    expect(file).toMatch(
      new RegExp(`^${join(ws.storage, "backups")}/mesa-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.sqlite$`),
    );
    expect(backup.out).toContain(`To put it back: ./mesa db:restore ${file}`);
    const saved = dump(ws.dbPath);
    expect(dump(file)).toEqual(saved);

    // Change people, access and places.
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Luis Rojas",
          "--email",
          "luis@mesa.test",
          "--password",
          PASSWORD,
        ])
      ).code,
    ).toBe(0);
    expect(
      (await mesaInProcess(ws, ["user:password", "ana@mesa.test", "--password", "new-horse-battery-7"])).code,
    ).toBe(0);
    expect(
      (await mesaInProcess(ws, ["area:create", "Compras", "--headquarters", "Sede principal", "--role", "buyer"])).code,
    ).toBe(0);
    expect(
      (await mesaInProcess(ws, ["user:assign", "luis@mesa.test", "--role", "buyer", "--area", "Compras"])).code,
    ).toBe(0);
    const changed = dump(ws.dbPath);
    expect(changed).not.toEqual(saved);

    const restore = await mesaInProcess(ws, ["db:restore", file, "--yes"]);
    expect(restore.err).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.out).toContain(`Restored ${file} into ${ws.dbPath}.`);
    // Before it starts, it says how much room it needs.
    expect(restore.out).toMatch(
      /^Restoring needs about [\d.]+ [KMG]B free \([\d.]+ [KMG]B for the copy of the current database, [\d.]+ [KMG]B for the restored data\); [\d.]+ [KMG]B are free\.$/m,
    );
    const kept = restore.out.match(/Kept the current database in (\S+\.sqlite)\./)![1];
    expect(kept.startsWith(join(ws.storage, "backups", "mesa-before-restore-"))).toBe(true);

    // Everything is as it was, except the access version, which moves past both so cached permissions are recomputed.
    const { access_version: restoredVersion, ...restored } = dump(ws.dbPath);
    const { access_version: savedVersion, ...expected } = saved;
    expect(restored).toEqual(expected);
    const version = (rows: string[]) => JSON.parse(rows[0]).version as number;
    expect(version(restoredVersion)).toBeGreaterThan(Math.max(version(savedVersion), version(changed.access_version)));
    expect(await verifyPassword(PASSWORD, userRow(ws, "ana@mesa.test").password_hash)).toBe(true);
    // The copy kept before restoring holds the changes.
    expect(dump(kept)).toEqual(changed);
    expect(backups(ws)).toEqual([file.split("/").pop()!, kept.split("/").pop()!].sort());
  });

  test("a backup is consistent while another connection is writing, and a restore reaches a connection that stays open", async () => {
    const ws = await realDeployment();
    // Stands for the running server: one connection, kept open throughout, with a statement prepared once.
    const server = new Database(ws.dbPath);
    server.exec("PRAGMA busy_timeout = 5000");
    const users = server.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM users");
    const version = server.query<{ version: number }, []>("SELECT version FROM access_version WHERE id = 1");
    try {
      server.exec("BEGIN IMMEDIATE");
      server
        .query(
          "INSERT INTO users (name, email, password_hash, created_at, updated_at) VALUES ('Luis Rojas', 'luis@mesa.test', 'x', 0, 0)",
        )
        .run();
      const file = join(ws.dir, "while-writing.sqlite");
      const backup = await mesaInProcess(ws, ["db:backup", file]);
      expect(backup.err).toBe("");
      expect(backup.code).toBe(0);
      server.exec("COMMIT");
      // The backup holds what was committed when it was taken.
      expect(count(file, "users")).toBe(1);
      expect(users.get()!.n).toBe(2);

      const before = version.get()!.version;
      const restore = await mesaInProcess(ws, ["db:restore", file, "--yes"]);
      expect(restore.err).toBe("");
      expect(restore.code).toBe(0);
      expect(users.get()!.n).toBe(1);
      expect(version.get()!.version).toBeGreaterThan(before);
    } finally {
      server.close();
    }
  });

  test("db:backup never overwrites a file, and needs a database", async () => {
    const ws = await realDeployment();
    const file = join(ws.dir, "mesa.backup");
    writeFileSync(file, "keep me");
    const taken = await mesaInProcess(ws, ["db:backup", file]);
    expect(taken.code).toBe(1);
    expect(taken.out).toBe("");
    expect(taken.err.trim()).toBe(`${file} already exists; name another file, or move that one away first.`);
    expect(readFileSync(file, "utf8")).toBe("keep me");

    const empty = workspace();
    const none = await mesaInProcess(empty, ["db:backup"]);
    expect(none.code).toBe(1);
    expect(none.err.trim()).toBe(`There is no database at ${empty.dbPath} yet; nothing to back up.`);
    expect(existsSync(empty.dbPath)).toBe(false);
  });

  test("db:restore refuses while a Mesa server runs on the database, naming it, and restores once it stopped", async () => {
    const ws = await realDeployment();
    const file = join(ws.dir, "good.sqlite");
    expect((await mesaInProcess(ws, ["db:backup", file])).code).toBe(0);
    const db = openDatabase(ws.dbPath);
    const id = registerProcess(db, "127.0.0.1:8000");
    const before = dump(ws.dbPath);
    const refused = await mesaInProcess(ws, ["db:restore", file, "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toBe(
      `Mesa is running on ${ws.dbPath} (process ${process.pid} on ${hostname()}, listening on 127.0.0.1:8000). Stop it first (systemctl stop mesa, or Ctrl-C where it runs), then run ./mesa db:restore again. (A server that was killed counts as running until its lease lapses, 15 s after its last heartbeat.)`,
    );
    expect(refused.out).toBe("");
    expect(dump(ws.dbPath)).toEqual(before);
    endProcess(db, id);
    db.$client.close();
    expect((await mesaInProcess(ws, ["db:restore", file, "--yes"])).code).toBe(0);
  });

  test("db:restore refuses, changing nothing: no --yes without a terminal, no such file, not a Mesa database, a newer Mesa's, the database itself", async () => {
    const ws = await realDeployment();
    const file = join(ws.dir, "good.sqlite");
    expect((await mesaInProcess(ws, ["db:backup", file])).code).toBe(0);
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Luis Rojas",
          "--email",
          "luis@mesa.test",
          "--password",
          PASSWORD,
        ])
      ).code,
    ).toBe(0);
    const current = dump(ws.dbPath);

    // No terminal to ask on: a process of its own with no standard input.
    const unconfirmed = mesa(ws, ["db:restore", file]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.err).toContain(`This replaces everything in ${ws.dbPath} with ${file} (1 user, `);
    expect(unconfirmed.err).toContain("There is no terminal to confirm on: run it again with --yes.");

    const missing = await mesaInProcess(ws, ["db:restore", join(ws.dir, "nowhere.sqlite"), "--yes"]);
    expect(missing.code).toBe(2);
    expect(missing.err.trim()).toBe(`No such file: ${join(ws.dir, "nowhere.sqlite")}`);
    expect((await mesaInProcess(ws, ["db:restore"])).code).toBe(2);

    const text = join(ws.dir, "notes.sqlite");
    writeFileSync(text, "not a database at all, just some text that is long enough to have a header".repeat(20));
    const notSqlite = await mesaInProcess(ws, ["db:restore", text, "--yes"]);
    expect(notSqlite.code).toBe(1);
    expect(notSqlite.err.trim()).toBe(`${text} is not a Mesa database (file is not a database).`);

    const other = join(ws.dir, "other.sqlite");
    sql(other, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    const notMesa = await mesaInProcess(ws, ["db:restore", other, "--yes"]);
    expect(notMesa.code).toBe(1);
    expect(notMesa.err.trim()).toBe(`${other} is not a Mesa database: it has no migrations table or no users table.`);

    const newer = join(ws.dir, "newer.sqlite");
    cpSync(file, newer);
    sql(newer, "INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-a-later-version', 99999999999999)");
    const fromNewer = await mesaInProcess(ws, ["db:restore", newer, "--yes"]);
    expect(fromNewer.code).toBe(1);
    expect(fromNewer.err.trim()).toBe(
      `${newer} was made by a newer version of Mesa (it has migrations this version does not know). Update Mesa, then restore it.`,
    );

    const itself = await mesaInProcess(ws, ["db:restore", ws.dbPath, "--yes"]);
    expect(itself.code).toBe(1);
    expect(itself.err.trim()).toBe(`${ws.dbPath} is the database itself; restore from a backup copy.`);

    for (const result of [unconfirmed, missing, notSqlite, notMesa, fromNewer, itself]) expect(result.out).toBe("");
    expect(dump(ws.dbPath)).toEqual(current);
    expect(backups(ws)).toEqual([]);
  });

  test("on a terminal it asks first: anything but yes restores nothing", async () => {
    const ws = await realDeployment();
    const file = join(ws.dir, "good.sqlite");
    expect((await mesaInProcess(ws, ["db:backup", file])).code).toBe(0);
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Luis Rojas",
          "--email",
          "luis@mesa.test",
          "--password",
          PASSWORD,
        ])
      ).code,
    ).toBe(0);
    // `script` gives the command a terminal and types the answer into it.
    const onTerminal = (answer: string) => {
      const result = Bun.spawnSync(["script", "-qec", `'${MESA}' db:restore '${file}'`, "/dev/null"], {
        cwd: ws.dir,
        env: environment(ws, {}),
        stdin: new TextEncoder().encode(answer),
        stdout: "pipe",
        stderr: "pipe",
      });
      return { code: result.exitCode, out: result.stdout.toString() };
    };

    const no = onTerminal("n\n");
    expect(no.out).toContain("Restore? [y/N]");
    expect(no.out).toContain("Nothing was restored.");
    expect(no.code).toBe(1);
    expect(count(ws.dbPath, "users")).toBe(2);

    const yes = onTerminal("y\n");
    expect(yes.out).toContain(`Restored ${file} into ${ws.dbPath}.`);
    expect(yes.code).toBe(0);
    expect(count(ws.dbPath, "users")).toBe(1);
  });

  test("a backup from an older Mesa gets the pending migrations after it is restored", async () => {
    const ws = await realDeployment();
    // A database as the previous version left it: every migration but the last.
    const older = join(ws.dir, "older-migrations");
    cpSync(MIGRATIONS_FOLDER, older, { recursive: true });
    const journalPath = join(older, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8"));
    journal.entries.pop();
    writeFileSync(journalPath, JSON.stringify(journal));
    const file = join(ws.dir, "older.sqlite");
    const client = new Database(file);
    migrate(drizzle({ client }), { migrationsFolder: older });
    client.close();
    const all = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
    expect(count(file, "__drizzle_migrations")).toBe(all - 1);

    const restore = await mesaInProcess(ws, ["db:restore", file, "--yes"]);
    expect(restore.err).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.out).toContain(`Restored ${file} into ${ws.dbPath}, and applied 1 pending migration.`);
    expect(count(ws.dbPath, "__drizzle_migrations")).toBe(all);
    expect(count(ws.dbPath, "users")).toBe(0);
    // The catalogue is brought in step, as on every start.
    expect(count(ws.dbPath, "permissions")).toBeGreaterThan(0);
  });
});
