/**
 * Starts Mesa: load settings → open and migrate the database → build the app → listen; and stops it gracefully on
 * SIGTERM or SIGINT (src/http/shutdown.ts). A database file it cannot use, or an address another process listens on,
 * stops start-up with a message saying so.
 */
import { failStarting, startingConfig } from "./config";
import { DatabaseFileError, openStartingDatabase, type Db } from "./db";
import { AssetsMissing } from "./http/assets";
import { createApp } from "./http/app";
import { createServices } from "./http/services";
import type { AppServices } from "./http/context";
import { describeStop, stopGracefully } from "./http/shutdown";
import { recoverDinerImports, recoverDinerImportsAsync } from "./domain/sales/diner-import";
import { countUsers } from "./domain/accounts/users";
import { printSeedResults, runSeeders } from "../db/seeds";
import { bootstrapAccess } from "./domain/access/starting-roles";
import { failInterruptedJobs } from "./domain/jobs/jobs";
import { recoverDishImports } from "./domain/food/dish-import-staging";
import {
  endProcess,
  forgetGoneProcesses,
  PROCESS_HEARTBEAT_MS,
  registerProcess,
  renewLease,
} from "./domain/jobs/processes";
import { isStorageFull } from "./storage-health";
import { translate } from "./shared/i18n";
import { log } from "./log";

const config = startingConfig();

/**
 * Listens without port reuse, so a second Mesa on the same address is refused rather than sharing its connections;
 * the address in use stops start-up with a message.
 */
function listenOrFail(listen: () => void): void {
  try {
    listen();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === "EADDRINUSE")
      failStarting(
        `Mesa cannot listen on ${config.host}:${config.port}: the address is in use (is Mesa already running?).`,
      );
    throw error;
  }
}

// The address is tried before anything touches the database: a second Mesa started by mistake must not fail the
// running one's jobs or undo its imports on its way to finding the address taken.
listenOrFail(() =>
  Bun.serve({ port: config.port, hostname: config.host, reusePort: false, fetch: () => new Response(null) }).stop(true),
);

let db: Db;
try {
  db = openStartingDatabase(config.dbPath);
} catch (error) {
  if (error instanceof DatabaseFileError) failStarting(error.message);
  throw error;
}
// Jobs a stopped process left queued or running will never finish: they are marked failed, their uploads deleted
// (only those whose server is gone: a live server on the same database keeps its own).
const interrupted = failInterruptedJobs(db);
if (interrupted > 0) log.warn(translate(config.locale, "jobs.left_unfinished", { count: interrupted }));
// A dishes import whose writer stopped leaves only staged rows, never visible: they are deleted.
recoverDishImports(db);
bootstrapAccess(db);
// A diner import whose writer stopped mid-way is undone, so the file is either imported whole or not at all.
const undone = recoverDinerImports(db);
if (undone > 0) log.warn(translate(config.locale, "diners.import_recovered", { count: undone }));
if (countUsers(db) === 0) {
  // Nobody has an account yet: load the reference data, and the demo data when DEMO_DATA is on; say how to sign in
  // (the demo account's password, or the command that creates the first administrator).
  printSeedResults(await runSeeders(db, config));
}

let services: AppServices;
try {
  services = createServices(config, db);
} catch (error) {
  if (error instanceof AssetsMissing) failStarting(error.message);
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
listenOrFail(() =>
  // Routes read their bodies as streams within their own limits (src/http/body.ts); this is only the outer bound.
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: 32 * 1024 * 1024, reusePort: false }),
);

log.info({ url: config.appUrl, database: config.dbPath }, `Mesa is running at ${config.appUrl}`);

// This server's lease (src/domain/jobs/processes.ts): its jobs carry its id, and while it renews the lease no other
// server fails them. On each renewal it fails the jobs of servers that are gone, and undoes the diner imports whose
// writer stopped (a killed `./mesa import:diners`, another server) a few seconds after their lease ran out.
const address = `${config.host}:${app.server!.port}`;
const processId = registerProcess(db, address);
services.jobs.processId = processId;
// Litestream replicates the database from the live server that started first (src/replication.ts): this one, if no
// other runs; the others check on each heartbeat and take over when it is gone.
const replicator = services.replicator;
let replicating = false;
let stopping = false;
async function replicate(): Promise<void> {
  if (!replicator || replicating || stopping) return;
  replicating = true;
  try {
    await replicator.heartbeat(db, processId);
  } catch (error) {
    log.error({ err: error }, "starting or checking Litestream failed");
  } finally {
    replicating = false;
  }
}
await replicate();
let recovering = false;
const heartbeat = setInterval(async () => {
  try {
    renewLease(db, processId, address);
    const failed = failInterruptedJobs(db);
    if (failed > 0) log.warn(translate(config.locale, "jobs.left_unfinished", { count: failed }));
    forgetGoneProcesses(db);
  } catch (error) {
    if (isStorageFull(error)) services.storage.failed("renewing this server's lease");
    else log.error({ err: error }, "renewing this server's lease failed");
  }
  void replicate();
  if (recovering) return;
  recovering = true;
  try {
    const undoneNow = await recoverDinerImportsAsync(db);
    if (undoneNow > 0) log.warn(translate(config.locale, "diners.import_recovered", { count: undoneNow }));
  } catch (error) {
    if (isStorageFull(error)) services.storage.failed("undoing a diner import left half-written");
    else log.error({ err: error }, "undoing a diner import left half-written failed");
  } finally {
    recovering = false;
  }
}, PROCESS_HEARTBEAT_MS);
heartbeat.unref();

async function stop(signal: string): Promise<void> {
  // A second signal while stopping ends the process at once.
  if (stopping) process.exit(1);
  stopping = true;
  log.info(
    `${signal}: Mesa is stopping (answering the requests in flight, at most ${config.shutdownGraceMs / 1000} s)`,
  );
  const report = await stopGracefully(
    {
      server: app.server!,
      realtime: services.realtime,
      jobs: services.jobs,
      db,
      leave: () => {
        clearInterval(heartbeat);
        endProcess(db, processId);
      },
    },
    config.shutdownGraceMs,
  );
  log.info(describeStop(report));
  // Last: Litestream ships what the last requests wrote, then ends.
  await replicator?.stop();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
