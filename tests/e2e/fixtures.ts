/**
 * What every browser test runs on: its Playwright worker's own Mesa. Each worker (2 of them, see
 * playwright.config.ts) starts one server on port E2E_PORT + its parallel index (E2E_PORT defaults to 3217), with a
 * fresh database, mail folder and storage in a temporary folder of its own and a realtime secret of its own; the
 * server seeds its reference and demo data on that first start. `baseURL` points at it, so `page.goto("/users")` and
 * `request` reach the worker's server. A worker stops its server and removes the folder when it ends; should the
 * worker die without ending (killed), a watchdog stops the server and the folder goes with it.
 *
 * Next to the server the worker keeps one fixture process (tests/support/e2e-fixtures.ts, on Bun: Playwright's workers
 * run on Node, which cannot open bun:sqlite), which makes people, sessions and the menu pages' worlds on the worker's
 * database. Tests reach both through the worker fixture `mesa`:
 *
 *   test.beforeAll(async ({ mesa }) => { await mesa.user({ ...ADMIN, role: "super-administrator", ... }); });
 *   test("…", async ({ page, mesa }) => { await mesa.signIn(page, ADMIN); await page.goto("/users"); … });
 *
 * Signing in this way puts a new session's cookie in the browser context, as the sign-in form's answer would; only
 * tests/e2e/accounts.e2e.ts types the form, because the form is what it tests. Every browser test imports `test` and
 * `expect` from here rather than from @playwright/test.
 */
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export { expect };

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUN = join(ROOT, "node_modules/.bin/bun");
const BASE_PORT = Number(process.env.E2E_PORT ?? 3217);

/** The password `mesa.user` gives anyone made without one. */
export const E2E_PASSWORD = "Altiplano-Quinua-2024!";

/** Someone to sign in as: anything with an e-mail. */
export interface Who {
  email: string;
}

/** A person `mesa.user` makes: verified unless `verified` is false, holding `role` in `area` of `place` when given. */
export interface Person extends Who {
  name: string;
  password?: string;
  document?: string;
  role?: string;
  area?: string;
  place?: string;
  verified?: boolean;
}

/** The worker's Mesa: its server's address and files, and the commands of its fixture process. */
export interface Mesa {
  baseURL: string;
  port: number;
  /** The folder the server writes its mail to, one .eml file per message. */
  mailDir: string;
  /** The embedded realtime server's secret (the app id and key are the defaults, "mesa" and "mesa-key"). */
  pusherSecret: string;
  /** Runs one command of tests/support/e2e-fixtures.ts and returns its result; a failed command throws its message. */
  run<T = unknown>(command: string, args?: object): Promise<T>;
  /** Makes a person (see Person); returns their id. */
  user(person: Person): Promise<number>;
  /** Signs `who` in, in the browser context of `target`: a new session of theirs, as the session cookie. */
  signIn(target: Page | BrowserContext, who: Who): Promise<void>;
  /** `./mesa ARGV` on the worker's database; throws unless it exits with 0. Returns what it printed. */
  cli(...argv: string[]): Promise<string>;
}

/** The fixture process: requests written one a line, answers read one a line and matched by id. */
class FixtureProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;

  constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let answer: { id?: number; result?: unknown; error?: string };
      try {
        answer = JSON.parse(line);
      } catch {
        process.stderr.write(`e2e fixtures: ${line}\n`);
        return;
      }
      const pending = answer.id === undefined ? undefined : this.waiting.get(answer.id);
      if (!pending) return;
      this.waiting.delete(answer.id!);
      if (answer.error !== undefined) pending.reject(new Error(`e2e fixtures: ${answer.error}`));
      else pending.resolve(answer.result);
    });
    child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    this.exited = new Promise((resolve) =>
      child.once("exit", (code) => {
        for (const pending of this.waiting.values())
          pending.reject(new Error(`e2e fixtures: the fixture process ended (code ${code})`));
        this.waiting.clear();
        resolve();
      }),
    );
  }

  request<T>(command: string, args: object = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.stdin!.write(`${JSON.stringify({ id, command, args })}\n`);
    });
  }

  /** Ends its input, so it stops once its last request is answered; killed if it has not within 5 s. */
  async stop(): Promise<void> {
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * The server, run by bash as the leader of a process group: it removes the worker's folder on the way out, and a
 * watchdog stops the server once the worker process is gone (killed with SIGKILL, say, when no teardown runs).
 */
const SERVER_SCRIPT = [
  'cleanup() { rm -rf "$MESA_E2E_DIR"; }',
  "trap cleanup EXIT",
  '"$BUN" src/server.ts & server=$!',
  "stop() { kill $server 2>/dev/null; wait $server; exit 0; }",
  "trap stop TERM INT HUP",
  '( while kill -0 "$MESA_E2E_WORKER" 2>/dev/null; do sleep 1; done; kill $server 2>/dev/null ) &',
  "wait $server",
].join("\n");

/** Whether anything answers `url` now. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** Waits until `url` answers 200, failing early (with the server's output) should the server exit first. */
async function waitUntilUp(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The e2e server exited (${server.exitCode}):\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The e2e server did not answer ${url} within 60 s:\n${output()}`);
}

/** Sends SIGTERM to the process group of `child` and waits for it to exit (SIGKILL after 5 s). */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<object, { mesa: Mesa }>({
  mesa: [
    async ({}, use, workerInfo) => {
      const port = BASE_PORT + workerInfo.parallelIndex;
      const baseURL = `http://127.0.0.1:${port}`;
      // Mesa listens with port reuse, so a second run on the same ports would share the first one's servers (and
      // lose its sessions and rows to them) without a word.
      if (await answers(`${baseURL}/up`))
        throw new Error(`Something already answers on port ${port} (another test run?): set E2E_PORT to free ports.`);
      const dir = mkdtempSync(join(tmpdir(), `mesa-e2e-${port}-`));
      const mailDir = join(dir, "mail");
      const pusherSecret = randomBytes(24).toString("hex");
      const env = {
        ...process.env,
        NODE_ENV: "test",
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: baseURL,
        DB_PATH: join(dir, "mesa.sqlite"),
        STORAGE_PATH: dir,
        MAIL_MAILER: "file",
        MAIL_PATH: mailDir,
        PUSHER_APP_SECRET: pusherSecret,
        LOG_REQUESTS: "false",
        // The server runs as in production, which replicates by default; the replication drill is a bun test.
        REPLICA_URL: "off",
      };

      let output = "";
      const server = spawn("bash", ["-c", SERVER_SCRIPT], {
        cwd: ROOT,
        detached: true,
        // The server runs as in production (React's production build renders the pages, at a fraction of the
        // development build's time); the fixture process keeps NODE_ENV=test, so the people it makes get the cheap
        // password hash (src/domain/accounts/passwords.ts), which the server then checks at that cost.
        env: { ...env, NODE_ENV: "production", BUN, MESA_E2E_DIR: dir, MESA_E2E_WORKER: String(process.pid) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
      server.stdout!.on("data", keep);
      server.stderr!.on("data", (chunk: Buffer) => {
        keep(chunk);
        process.stderr.write(chunk);
      });

      let fixtures: FixtureProcess | null = null;
      try {
        await waitUntilUp(`${baseURL}/up`, server, () => output);
        fixtures = new FixtureProcess(
          spawn(BUN, ["tests/support/e2e-fixtures.ts", "serve"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] }),
        );
        const run = fixtures.request.bind(fixtures);
        const mesa: Mesa = {
          baseURL,
          port,
          mailDir,
          pusherSecret,
          run,
          user: async (person) => (await run<{ id: number }>("user", { password: E2E_PASSWORD, ...person })).id,
          signIn: async (target, who) => {
            const context = "context" in target ? target.context() : target;
            const cookie = await run<{ name: string; value: string }>("session", { email: who.email });
            await context.addCookies([{ ...cookie, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
          },
          cli: async (...argv) => {
            const result = await run<{ code: number; out: string; err: string }>("cli", { argv });
            if (result.code !== 0)
              throw new Error(`./mesa ${argv.join(" ")} exited with ${result.code}:\n${result.err}`);
            return result.out;
          },
        };
        await use(mesa);
      } finally {
        await fixtures?.stop();
        await stopGroup(server);
        rmSync(dir, { recursive: true, force: true });
      }
    },
    // Starting the server (with its seeding) takes a few seconds, more on a busy machine.
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ mesa }, use) => {
    await use(mesa.baseURL);
  },
});
