/**
 * `./mesa user:create`, `user:list`, `user:deactivate` and `db:seed`, each test on its own database file and
 * storage folder, run in this process (tests/support/cli.ts), except a password piped on standard input, which
 * needs a process of its own. The web app is opened on the same file where a test needs a signed-in session.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { translate } from "../../src/shared/i18n";
import { checkCredentials } from "../../src/domain/accounts/authentication";
import { findUserByEmail } from "../../src/domain/accounts/users";
import { RateLimiter } from "../../src/domain/rate-limit";
import { migrateDatabase, openDatabase, type Db } from "../../src/db";
import { createApp } from "../../src/http/app";
import { routes } from "../../src/http/routes";
import { createServices } from "../../src/http/services";
import { BASE, Client, testConfig, type TestApp } from "../support/app";
import { runInProcess } from "../support/cli";

const MESA = resolve(import.meta.dir, "../../mesa");
const PASSWORD = "correct-horse-42";

interface Workspace {
  dir: string;
  env: Record<string, string>;
  dbPath: string;
}

function workspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), "mesa-accounts-cli-"));
  const dbPath = join(dir, "db", "mesa.sqlite");
  return {
    dir,
    dbPath,
    env: {
      DB_PATH: dbPath,
      STORAGE_PATH: join(dir, "storage"),
      APP_URL: BASE,
      APP_LOCALE: "es",
      NODE_ENV: "test",
      LOG_REQUESTS: "false",
    },
  };
}

/** `./mesa ARGS` as a process of its own, in the workspace; `stdin` is piped in (none otherwise). */
function mesa(ws: Workspace, args: string[], stdin?: string) {
  const result = Bun.spawnSync([MESA, ...args], {
    cwd: ws.dir,
    env: { ...process.env, ...ws.env },
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}

/** `./mesa ARGS` run in this process (tests/support/cli.ts) with the settings `mesa()` would give the process. */
function mesaInProcess(ws: Workspace, args: string[]) {
  return runInProcess(args, { ...process.env, ...ws.env });
}

function database(ws: Workspace): Db {
  const db = openDatabase(ws.dbPath);
  migrateDatabase(db);
  return db;
}

/** The web app on the workspace's database file. */
function webApp(ws: Workspace): TestApp {
  const config = testConfig({ DB_PATH: ws.dbPath, STORAGE_PATH: ws.env.STORAGE_PATH });
  const db = database(ws);
  const services = createServices(config, db, { routes });
  return {
    app: createApp(services),
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes,
  };
}

function sessionCount(db: Db, userId: number): number {
  return db.$client.query<{ n: number }, [number]>("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").get(userId)!
    .n;
}

describe("./mesa user:create", () => {
  test("with --password and --verified creates a verified user who can sign in", async () => {
    const ws = workspace();
    const { code, out, err } = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Ana Quispe",
      "--email",
      "Ana@Mesa.test",
      "--password",
      PASSWORD,
      "--verified",
      "--language",
      "en",
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toMatch(/^Created user #1 ana@mesa\.test \(verified\)$/m);
    const db = database(ws);
    const user = findUserByEmail(db, "ana@mesa.test")!;
    expect(user.name).toBe("Ana Quispe");
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(user.language).toBe("en");
    expect(user.passwordHash).toStartWith("$argon2id$");
    expect(
      (await checkCredentials(db, new RateLimiter(db), { email: "ana@mesa.test", password: PASSWORD }, null)).user.id,
    ).toBe(user.id);
  });

  test("without --verified the e-mail is left unverified", async () => {
    const ws = workspace();
    const { code, out } = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Luis Rojas",
      "--email",
      "luis@mesa.test",
      "--password",
      PASSWORD,
    ]);
    expect(code).toBe(0);
    expect(out).toContain("Created user #1 luis@mesa.test (e-mail not verified)");
    expect(findUserByEmail(database(ws), "luis@mesa.test")!.emailVerifiedAt).toBeNull();
  });

  test("reads the password from piped standard input", async () => {
    const ws = workspace();
    const { code, out, err } = mesa(
      ws,
      ["user:create", "--name", "Ana Quispe", "--email", "ana@mesa.test", "--verified"],
      `${PASSWORD}\n`,
    );
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("Created user #1 ana@mesa.test (verified)");
    const db = database(ws);
    // The trailing newline is not part of the password.
    expect(
      (await checkCredentials(db, new RateLimiter(db), { email: "ana@mesa.test", password: PASSWORD }, null)).user
        .email,
    ).toBe("ana@mesa.test");
  });

  test("an empty standard input is refused with a clear message", async () => {
    const ws = workspace();
    const { code, err } = mesa(ws, ["user:create", "--name", "Ana Quispe", "--email", "ana@mesa.test"], "");
    expect(code).toBe(1);
    expect(err).toContain("No password was given on standard input.");
    expect(findUserByEmail(database(ws), "ana@mesa.test")).toBeUndefined();
  });

  test("a validation failure exits 1 and names the field", async () => {
    const ws = workspace();
    const badEmail = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Ana Quispe",
      "--email",
      "not-an-email",
      "--password",
      PASSWORD,
    ]);
    expect(badEmail.code).toBe(1);
    expect(badEmail.err).toContain(translate("es", "validation.failed"));
    expect(badEmail.err).toContain(`email: ${translate("es", "validation.email")}`);
    expect(badEmail.out).toBe("");

    const weak = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Ana Quispe",
      "--email",
      "ana@mesa.test",
      "--password",
      "password123",
    ]);
    expect(weak.code).toBe(1);
    expect(weak.err).toContain(`password: ${translate("es", "validation.password.common")}`);

    const language = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Ana Quispe",
      "--email",
      "ana@mesa.test",
      "--password",
      PASSWORD,
      "--language",
      "fr",
    ]);
    expect(language.code).toBe(1);
    expect(language.err).toContain("language:");
    expect(findUserByEmail(database(ws), "ana@mesa.test")).toBeUndefined();
  });

  test("a duplicate e-mail (any case) exits 1 naming the email field", async () => {
    const ws = workspace();
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Ana Quispe",
          "--email",
          "ana@mesa.test",
          "--password",
          PASSWORD,
        ])
      ).code,
    ).toBe(0);
    const again = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Otra Ana",
      "--email",
      "ANA@mesa.test",
      "--password",
      PASSWORD,
    ]);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`email: ${translate("es", "validation.email_taken")}`);
  });

  test("--document is a DNI unless --document-type says otherwise, checked by its type and kept with its leading zeros", async () => {
    const ws = workspace();
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Ana Quispe",
          "--email",
          "ana@mesa.test",
          "--password",
          PASSWORD,
          "--document",
          "01234567",
        ])
      ).code,
    ).toBe(0);
    const jean = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Jean Dupont",
      "--email",
      "jean@mesa.test",
      "--password",
      PASSWORD,
      "--document",
      "ce-001 234 567",
      "--document-type",
      "ce",
    ]);
    expect(jean.err).toBe("");
    expect(jean.code).toBe(0);
    const db = database(ws);
    expect(findUserByEmail(db, "ana@mesa.test")).toMatchObject({ documentType: "dni", documentNumber: "01234567" });
    expect(findUserByEmail(db, "jean@mesa.test")).toMatchObject({ documentType: "ce", documentNumber: "CE001234567" });

    const short = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Luis Rojas",
      "--email",
      "luis@mesa.test",
      "--password",
      PASSWORD,
      "--document",
      "1234567",
    ]);
    expect(short.code).toBe(1);
    expect(short.err).toContain(`document_number: ${translate("es", "validation.document.dni", { length: 8 })}`);
    const passport = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Luis Rojas",
      "--email",
      "luis@mesa.test",
      "--password",
      PASSWORD,
      "--document",
      "AB1",
      "--document-type",
      "pas",
    ]);
    expect(passport.code).toBe(1);
    expect(passport.err).toContain(
      `document_number: ${translate("es", "validation.document.pas", { min: 6, max: 12 })}`,
    );
    const alone = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Luis Rojas",
      "--email",
      "luis@mesa.test",
      "--password",
      PASSWORD,
      "--document-type",
      "pas",
    ]);
    expect(alone.code).toBe(1);
    expect(alone.err).toContain("Give --document-type together with --document.");
    const unknown = await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Luis Rojas",
      "--email",
      "luis@mesa.test",
      "--password",
      PASSWORD,
      "--document",
      "12345678",
      "--document-type",
      "ruc",
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("Allowed choices are dni, ce, pas");
    expect(findUserByEmail(database(ws), "luis@mesa.test")).toBeUndefined();
  });
});

describe("./mesa user:list", () => {
  test("with no users says how to create one", async () => {
    const ws = workspace();
    const { code, out } = await mesaInProcess(ws, ["user:list"]);
    expect(code).toBe(0);
    expect(out).toContain("No users yet.");
  });

  test("shows the users with status and verification; --json never shows hashes", async () => {
    const ws = workspace();
    await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Ana Quispe",
      "--email",
      "ana@mesa.test",
      "--password",
      PASSWORD,
      "--verified",
    ]);
    await mesaInProcess(ws, [
      "user:create",
      "--name",
      "Luis Rojas",
      "--email",
      "luis@mesa.test",
      "--password",
      PASSWORD,
    ]);
    await mesaInProcess(ws, ["user:deactivate", "luis@mesa.test"]);
    const { code, out } = await mesaInProcess(ws, ["user:list"]);
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+E-MAIL\s+NAME\s+STATUS\s+VERIFIED\s+LAST SIGN-IN$/);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^1\s+ana@mesa\.test\s+Ana Quispe\s+active\s+yes\s+never$/);
    expect(lines[3]).toMatch(/^2\s+luis@mesa\.test\s+Luis Rojas\s+deactivated\s+no\s+never$/);

    const json = await mesaInProcess(ws, ["user:list", "--json"]);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.out) as Record<string, unknown>[];
    expect(rows.map((r) => r.email)).toEqual(["ana@mesa.test", "luis@mesa.test"]);
    expect(json.out).not.toContain("argon2");
    expect(json.out).not.toContain("passwordHash");
  });
});

describe("./mesa user:deactivate", () => {
  test("deactivates the user and ends their sessions; they can no longer sign in", async () => {
    const ws = workspace();
    expect(
      (
        await mesaInProcess(ws, [
          "user:create",
          "--name",
          "Ana Quispe",
          "--email",
          "ana@mesa.test",
          "--password",
          PASSWORD,
          "--verified",
        ])
      ).code,
    ).toBe(0);
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
          "--verified",
        ])
      ).code,
    ).toBe(0);

    // Sign both in through the web app on the same database file.
    const web = webApp(ws);
    const ana = new Client(web);
    const luis = new Client(web);
    for (const [client, email] of [
      [ana, "ana@mesa.test"],
      [luis, "luis@mesa.test"],
    ] as const) {
      await client.visit("/login");
      const response = await client.request("/login", {
        method: "POST",
        inertia: true,
        json: { email, password: PASSWORD, remember: true },
      });
      expect(response.headers.get("location")).toBe("/dashboard");
    }
    const anaId = findUserByEmail(web.db, "ana@mesa.test")!.id;
    const luisId = findUserByEmail(web.db, "luis@mesa.test")!.id;
    expect(sessionCount(web.db, anaId)).toBe(1);

    const { code, out, err } = await mesaInProcess(ws, ["user:deactivate", "ANA@mesa.test"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("Deactivated ana@mesa.test; their sessions have ended.");

    expect(sessionCount(web.db, anaId)).toBe(0);
    expect(sessionCount(web.db, luisId)).toBe(1);
    expect(findUserByEmail(web.db, "ana@mesa.test")!.status).toBe("deactivated");
    const next = await ana.get("/dashboard");
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toBe("/login");
    // Her remember-me cookie does not bring her back either.
    const restarted = new Client(web);
    restarted.cookies.set("mesa_remember", ana.cookies.get("mesa_remember") ?? "");
    expect((await restarted.get("/dashboard")).headers.get("location")).toBe("/login");
    expect((await luis.request("/dashboard", { inertia: true })).status).toBe(200);
    await expect(
      checkCredentials(web.db, new RateLimiter(web.db), { email: "ana@mesa.test", password: PASSWORD }, null),
    ).rejects.toMatchObject({ errors: { email: { key: "auth.deactivated" } } });
  });

  test("an unknown e-mail exits 1 with a clear message", async () => {
    const ws = workspace();
    const { code, out, err } = await mesaInProcess(ws, ["user:deactivate", "Nobody@Mesa.test"]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err.trim()).toBe("No user with e-mail nobody@mesa.test");
  });
});

describe("./mesa db:seed", () => {
  test("creates the demo account, prints its e-mail and password, and the password signs in", async () => {
    const ws = workspace();
    const first = await mesaInProcess(ws, ["db:seed"]);
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out).toContain("Demo accounts:");
    expect(first.out).toContain(`Sign in at ${BASE}/login`);
    expect(first.out).toMatch(/e-mail:\s+demo@mesa\.test\s+\(super-administrator\)/);
    const password = first.out.match(/password:\s+(\S+)/)?.[1];
    expect(password).toBeTruthy();

    const db = database(ws);
    const demo = findUserByEmail(db, "demo@mesa.test")!;
    expect(demo.emailVerifiedAt).not.toBeNull();
    expect(demo.passwordHash).not.toContain(password!);
    expect(
      (await checkCredentials(db, new RateLimiter(db), { email: "demo@mesa.test", password: password! }, null)).user.id,
    ).toBe(demo.id);

    const second = await mesaInProcess(ws, ["db:seed"]);
    expect(second.code).toBe(0);
    expect(second.out).toContain("demo@mesa.test already exists");
    expect(second.out).not.toContain(password!);
    // One demo person per starting role, plus the super-administrator demo account; none added the second time.
    expect(db.$client.query("SELECT COUNT(*) AS n FROM users").get()).toEqual({ n: 7 });
    expect(
      db.$client
        .query("SELECT r.name FROM assignments a JOIN roles r ON r.id = a.role_id WHERE a.user_id = ?")
        .get(demo.id),
    ).toEqual({ name: "super-administrator" });
    // The password is unchanged by the second run.
    expect(
      (await checkCredentials(db, new RateLimiter(db), { email: "demo@mesa.test", password: password! }, null)).user.id,
    ).toBe(demo.id);
  });

  test("each fresh install gets its own demo password", async () => {
    const a = (await mesaInProcess(workspace(), ["db:seed"])).out.match(/password:\s+(\S+)/)?.[1];
    const b = (await mesaInProcess(workspace(), ["db:seed"])).out.match(/password:\s+(\S+)/)?.[1];
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(a).not.toBe(b);
  });
});
