/**
 * Starts Mesa: load settings → open and migrate the database → build the app → listen.
 */
import { ConfigError, loadConfig } from "./config";
import { migrateDatabase, openDatabase } from "./db";
import { AssetsMissing, loadAssets } from "./http/assets";
import { createApp } from "./http/app";
import { routes } from "./http/routes";
import { SessionStore } from "./http/session";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

let assets;
try {
  assets = loadAssets();
} catch (error) {
  if (error instanceof AssetsMissing) fail(error.message);
  throw error;
}

const db = openDatabase(config.dbPath);
migrateDatabase(db);
const sessions = new SessionStore(db, config.sessionLifetimeMinutes * 60);
sessions.prune();
setInterval(() => sessions.prune(), 15 * 60 * 1000).unref();

const app = createApp({ config, db, assets, sessions, routes });
app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: 64 * 1024 * 1024 });

console.log(`Mesa is running at ${config.appUrl} (database: ${config.dbPath})`);
