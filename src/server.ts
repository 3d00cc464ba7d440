/**
 * Starts Mesa: load settings → open and migrate the database → build the app → listen.
 */
import { ConfigError, loadConfig } from "./config";
import { migrateDatabase, openDatabase } from "./db";
import { AssetsMissing } from "./http/assets";
import { createApp } from "./http/app";
import { createServices } from "./http/services";
import { recoverDinerImports } from "./domain/sales/diner-import";
import { countUsers } from "./domain/accounts/users";
import { printSeedResults, runSeeders } from "../db/seeds";
import { bootstrapAccess } from "./domain/access/starting-roles";
import { failInterruptedJobs } from "./domain/jobs/jobs";
import { translate } from "./shared/i18n";

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

const db = openDatabase(config.dbPath);
migrateDatabase(db);
// Jobs a stopped process left queued or running will never finish: they are marked failed, their uploads deleted.
const interrupted = failInterruptedJobs(db);
if (interrupted > 0) console.log(translate(config.locale, "jobs.left_unfinished", { count: interrupted }));
bootstrapAccess(db);
// A diner import whose writer stopped mid-way is undone, so the file is either imported whole or not at all.
const undone = recoverDinerImports(db);
if (undone > 0) console.log(translate(config.locale, "diners.import_recovered", { count: undone }));
if (countUsers(db) === 0) {
  // Nobody has an account yet: load the reference data, and the demo data when DEMO_DATA is on; say how to sign in
  // (the demo account's password, or the command that creates the first administrator).
  printSeedResults(await runSeeders(db, config));
}

let services;
try {
  services = createServices(config, db);
} catch (error) {
  if (error instanceof AssetsMissing) fail(error.message);
  throw error;
}
// Expired sessions and throttling counters are swept now and every 15 minutes.
const sweep = () => {
  services.sessions.prune();
  services.limiter.prune();
};
sweep();
setInterval(sweep, 15 * 60 * 1000).unref();

services.realtime?.start();
const app = createApp(services);
// Routes read their bodies as streams within their own limits (src/http/body.ts); this is only the outer bound.
app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: 32 * 1024 * 1024 });

console.log(`Mesa is running at ${config.appUrl} (database: ${config.dbPath})`);
