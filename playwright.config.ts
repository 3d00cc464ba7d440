/**
 * Browser tests (tests/e2e/**\/*.e2e.ts; `bun test` never picks these up), run by three workers. Each worker starts its
 * own Mesa with a fresh database (tests/e2e/fixtures.ts: port E2E_PORT + the worker's index, E2E_PORT 3217 unless
 * set) and drives Debian's Chromium (tests/support/ensure-chromium.sh installs it; no browser is ever downloaded). A
 * file's tests run in order on one worker unless the file asks for more; the files are shared between the workers.
 * Assets are built before Playwright runs (`npm run test:e2e` and tests/support/run-all.sh do so).
 */
import { defineConfig, devices } from "@playwright/test";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.e2e.ts",
  fullyParallel: false,
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  // A bound on a stuck test, not a measure: on a loaded 2-core machine a browser's every step slows (a text fill took
  // 0.9 s), and journeys through several dialogs neared 20 s.
  timeout: 40_000,
  expect: { timeout: 5_000 },
  use: {
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
});
