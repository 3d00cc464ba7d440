/**
 * Browser tests (tests/e2e/**\/*.e2e.ts; `bun test` never picks these up). Playwright starts Mesa itself on a
 * fixed loopback port with a fresh database and drives Debian's Chromium (tests/support/ensure-chromium.sh
 * installs it; no browser is ever downloaded). Assets are built before Playwright runs (`npm run test:e2e`
 * and tests/support/run-all.sh do so); the server command builds them only when the manifest is missing.
 */
import { defineConfig, devices } from "@playwright/test";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PORT = Number(process.env.E2E_PORT ?? 3217);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Playwright loads this file in its runner and again in each worker; the env var keeps one name per run.
process.env.MESA_E2E_DB ??= join(tmpdir(), `mesa-e2e-${process.pid}-${Date.now()}.sqlite`);
const DB_PATH = process.env.MESA_E2E_DB;

const bun = "node_modules/.bin/bun";
const buildIfMissing = existsSync("public/build/manifest.json") ? "" : `${bun} cli/main.ts assets:build && `;
// Playwright signals the whole process group when it exits (SIGTERM, then SIGKILL); the trap removes the database.
const removeDb = `rm -f '${DB_PATH}' '${DB_PATH}-wal' '${DB_PATH}-shm' '${DB_PATH}-journal'`;
const command = `trap "${removeDb}" EXIT; trap "exit 143" TERM INT HUP; ${buildIfMissing}${bun} src/server.ts`;

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
    command: `bash -c ${JSON.stringify(command)}`,
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
      LOG_REQUESTS: "false",
    },
  },
});
