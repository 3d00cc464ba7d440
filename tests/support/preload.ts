/**
 * Runs before every bun test file: marks the process as a test run, builds the browser assets once when they are
 * missing (the server-rendered HTML and the asset version come from them), and keeps tests quiet.
 *
 * NODE_ENV is set before anything of Mesa is imported (the imports below are dynamic on purpose): modules that
 * decide something once when they load, like the password hashing cost (src/domain/accounts/passwords.ts), must
 * see it.
 */
export {};

process.env.NODE_ENV = "test";
process.env.LOG_REQUESTS = "false";

const { existsSync } = await import("node:fs");
const { MANIFEST_PATH } = await import("../../src/http/assets");
if (!existsSync(MANIFEST_PATH)) {
  const { buildAssets } = await import("../../cli/commands/assets");
  await buildAssets({ minify: false });
}
