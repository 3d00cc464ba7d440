/**
 * Browser tests (tests/e2e/**\/*.e2e.ts; `bun test` never picks these up). Playwright starts Mesa itself on a
 * fixed loopback port with a fresh database and drives Debian's Chromium (tests/support/ensure-chromium.sh
 * installs it; no browser is ever downloaded). Assets are built before Playwright runs (`npm run test:e2e`
 * and tests/support/run-all.sh do so); the server command builds them only when the manifest is missing.
 */
import { defineConfig, devices } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PORT = Number(process.env.E2E_PORT ?? 3217);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Playwright loads this file in its runner and again in each worker; the env var keeps one name per run.
process.env.MESA_E2E_DB ??= join(tmpdir(), `mesa-e2e-${process.pid}-${Date.now()}.sqlite`);
const DB_PATH = process.env.MESA_E2E_DB;
// Mail goes to a directory of its own per run (one .eml file per message), which the tests read links from.
process.env.MESA_E2E_MAIL ??= join(tmpdir(), `mesa-e2e-mail-${process.pid}-${Date.now()}`);
const MAIL_PATH = process.env.MESA_E2E_MAIL;
// The embedded realtime server's secret, per run, so tests/e2e/realtime.e2e.ts can publish with the `pusher` SDK.
process.env.MESA_E2E_PUSHER_SECRET ??= randomBytes(24).toString("hex");
const PUSHER_SECRET = process.env.MESA_E2E_PUSHER_SECRET;

// Playwright runs this with `sh -c` as the leader of a new process group and signals the group when it exits
// (SIGTERM, then SIGKILL). The script removes the database and the mail directory on the way out, and a watchdog
// stops the server should the Playwright runner die without cleaning up (killed with SIGKILL, say).
const serverScript = [
  'cleanup() { rm -f "$DB_PATH" "$DB_PATH-wal" "$DB_PATH-shm" "$DB_PATH-journal"; rm -rf "$MAIL_PATH"; }',
  "trap cleanup EXIT",
  "[ -f public/build/manifest.json ] || node_modules/.bin/bun cli/main.ts assets:build || exit 1",
  "node_modules/.bin/bun src/server.ts & server=$!",
  "stop() { kill $server 2>/dev/null; wait $server; exit 0; }",
  "trap stop TERM INT HUP",
  '( while kill -0 "$MESA_E2E_RUNNER" 2>/dev/null; do sleep 1; done; kill $server 2>/dev/null ) &',
  "wait $server",
].join("\n");

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.e2e.ts",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  timeout: 20_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: BASE_URL,
    ...devices["Desktop Chrome"],
    headless: true,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: `bash -c '${serverScript}'`,
    url: `${BASE_URL}/up`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: {
      NODE_ENV: "test",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: BASE_URL,
      DB_PATH,
      MAIL_MAILER: "file",
      MAIL_PATH,
      PUSHER_APP_SECRET: PUSHER_SECRET,
      LOG_REQUESTS: "false",
      MESA_E2E_RUNNER: String(process.pid),
    },
  },
});
