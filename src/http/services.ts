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
import { Broadcaster, realtimeCredentials } from "../realtime/broadcaster";
import { EmbeddedPusherServer, embeddedOptions } from "../realtime/embedded-server";

export function createServices(config: Config, db: Db, overrides: Partial<AppServices> = {}): AppServices {
  const appKey = overrides.appKey ?? resolveAppKey(config);
  const realtimeApp = realtimeCredentials(config, appKey);
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
    broadcaster: new Broadcaster(config, realtimeApp),
    realtime: config.broadcast.driver === "embedded" ? new EmbeddedPusherServer(realtimeApp, embeddedOptions(config)) : null,
    ...overrides,
  };
}
