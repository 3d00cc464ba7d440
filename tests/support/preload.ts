/**
 * Runs before every bun test file: builds the browser assets once when they are missing (the server-rendered
 * HTML and the asset version come from them), and keeps tests quiet.
 */
import { existsSync } from "node:fs";
import { MANIFEST_PATH } from "../../src/http/assets";
import { buildAssets } from "../../cli/commands/assets";

process.env.NODE_ENV = "test";
process.env.LOG_REQUESTS = "false";

if (!existsSync(MANIFEST_PATH)) await buildAssets({ minify: false });
