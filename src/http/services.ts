/** Builds what the app runs on from the settings and an open database; shared by the server, tests and benchmarks. */
import { resolveAppKey } from "../app-key";
import type { Config } from "../config";
import type { Db } from "../db";
import { RateLimiter } from "../domain/rate-limit";
import { createMailer } from "../mail/mailer";
import { loadAssets, reloadingAssets } from "./assets";
import type { AppServices } from "./context";
import { routes } from "./routes";
import { SessionStore } from "./session";
import { EventBus } from "../domain/events";
import { JOB_HANDLERS } from "../domain/jobs/handlers";
import { JobRunner } from "../domain/jobs/runner";
import { StorageWatch } from "../storage-health";
import { Broadcaster, realtimeCredentials } from "../realtime/broadcaster";
import { subscribeRealtime } from "../realtime/subscribers";
import { EmbeddedPusherServer, embeddedOptions } from "../realtime/embedded-server";
import { observeGroupCommits } from "../db";
import { configureLog } from "../log";
import { Metrics } from "../metrics";
import { Replicator } from "../replication";

export function createServices(config: Config, db: Db, overrides: Partial<AppServices> = {}): AppServices {
  const appKey = overrides.appKey ?? resolveAppKey(config);
  const realtimeApp = realtimeCredentials(config, appKey);
  const broadcaster = overrides.broadcaster ?? new Broadcaster(config, realtimeApp);
  // The web server's subscribers of domain events, registered once; the command line registers the same (cli/events.ts).
  const events = new EventBus();
  configureLog(config.logLevel);
  const jobs = overrides.jobs ?? new JobRunner(db, JOB_HANDLERS, (event) => events.deliver(event));
  const realtime =
    overrides.realtime !== undefined
      ? overrides.realtime
      : config.broadcast.driver === "embedded"
        ? new EmbeddedPusherServer(realtimeApp, embeddedOptions(config))
        : null;
  const replicator = config.replica ? new Replicator({ ...config, replica: config.replica }) : null;
  const metrics = new Metrics({
    jobs: () => jobs.health(),
    realtimeConnections: realtime ? () => realtime.connectionCount : null,
    replication: replicator ? () => ({ running: replicator.running, lagSeconds: replicator.lagSeconds }) : null,
  });
  // Counted first: each event's subscribers run in turn, and a broadcast may wait on the network.
  events.subscribe("SaleRecorded", () => metrics.sales.inc());
  events.subscribe("SaleVoided", () => metrics.voids.inc());
  subscribeRealtime(events, broadcaster);
  observeGroupCommits(db, (size) => metrics.groupCommitSize.observe(size));
  return {
    config,
    db,
    assets: config.env === "development" ? reloadingAssets() : loadAssets(),
    sessions: new SessionStore(db, config.sessionLifetimeMinutes * 60),
    routes,
    limiter: new RateLimiter(db),
    mailer: createMailer(config),
    appKey,
    realtimeApp,
    broadcaster,
    events,
    // Background jobs tell their owner how they go through the same domain events.
    jobs,
    realtime,
    storage: new StorageWatch(config.dbPath, config.minFreeDiskBytes),
    metrics,
    replicator,
    ...overrides,
  };
}
