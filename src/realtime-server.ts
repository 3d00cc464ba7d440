/**
 * Mesa's Pusher-protocol server as a process of its own (`npm run realtime`): the realtime server that each Mesa
 * embeds (src/realtime/embedded-server.ts), for several Mesa servers on one database when no hosted
 * Pusher-protocol service is used. Every Mesa server then runs with BROADCAST_DRIVER=pusher, PUSHER_HOST,
 * PUSHER_PORT and PUSHER_SCHEME naming this process, and the same PUSHER_APP_ID, PUSHER_APP_KEY and
 * PUSHER_APP_SECRET it runs with; a sale made through any server reaches the tills of all (docs/realtime.md,
 * "Several servers"). It listens on REALTIME_HOST (HOST when not set) and PUSHER_PORT, keeps nothing on disk, and
 * on SIGTERM or SIGINT closes its sockets with 4200 (reconnect at once) and exits 0.
 */
import { failStarting, startingConfig } from "./config";
import { createRealtimeApp } from "./http/app";
import { EmbeddedPusherServer, embeddedOptions } from "./realtime/embedded-server";
import { configureLog, log } from "./log";

const config = startingConfig();
const { broadcast } = config;
// The Mesa servers sign their requests and their channel authorizations with this secret: it must be theirs.
if (broadcast.driver !== "pusher")
  failStarting(
    "Mesa's realtime server runs beside Mesa servers set to BROADCAST_DRIVER=pusher: set it, with PUSHER_APP_ID, PUSHER_APP_KEY, PUSHER_APP_SECRET and PUSHER_PORT, as they have them.",
  );

const host = broadcast.serverHost;
const realtime = new EmbeddedPusherServer(
  { id: broadcast.appId, key: broadcast.key, secret: broadcast.secret! },
  embeddedOptions(config),
);
const app = createRealtimeApp(realtime);
try {
  app.listen({ port: broadcast.port, hostname: host, reusePort: false });
} catch (error) {
  if ((error as { code?: unknown } | null)?.code === "EADDRINUSE")
    failStarting(`Mesa's realtime server cannot listen on ${host}:${broadcast.port}: the address is in use.`);
  throw error;
}
realtime.start();
configureLog(config.logLevel);
log.info(`Mesa's realtime server is running at ws://${host}:${app.server!.port}/app/${broadcast.key}`);

for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.on(signal, async () => {
    const sockets = realtime.connectionCount;
    realtime.stop();
    await app.stop();
    log.info(`${signal}: Mesa's realtime server stopped (${sockets} connection(s) told to reconnect)`);
    process.exit(0);
  });
