/**
 * The browser's realtime connection: laravel-echo over pusher-js, configured from the `realtime` shared prop,
 * authorized by Mesa's /broadcasting endpoints with the CSRF token of the XSRF-TOKEN cookie. One connection per
 * tab, opened once a user is signed in.
 */
import Echo, { type Channel } from "laravel-echo";
import Pusher from "pusher-js";
import { xsrfToken } from "./json-client";
import type { RealtimeEventName, RealtimeEvents } from "../../../src/shared/realtime-events";

export interface RealtimeSettings {
  key: string;
  cluster: string;
  host: string;
  port: number;
  forceTLS: boolean;
}

export type ConnectionState = "initialized" | "connecting" | "connected" | "unavailable" | "failed" | "disconnected";

let echo: Echo<"pusher"> | null = null;
const stateListeners = new Set<(state: ConnectionState) => void>();

/** Opens (once) the connection for this tab and returns it. */
export function connectRealtime(settings: RealtimeSettings, urls: { auth: string; userAuth: string }): Echo<"pusher"> {
  if (echo) return echo;
  const headersProvider = () => ({ "X-XSRF-TOKEN": xsrfToken(), Accept: "application/json" });
  echo = new Echo({
    broadcaster: "pusher",
    Pusher,
    key: settings.key,
    cluster: settings.cluster,
    wsHost: settings.host,
    wsPort: settings.port,
    wssPort: settings.port,
    forceTLS: settings.forceTLS,
    // The endpoint speaks the one scheme the server named: no try of the other (on a slow link pusher-js would
    // otherwise fall back to wss against a plain-http Mesa, and fail).
    enabledTransports: settings.forceTLS ? ["wss"] : ["ws"],
    namespace: "App.Events",
    channelAuthorization: { endpoint: urls.auth, transport: "ajax", headersProvider },
    userAuthentication: { endpoint: urls.userAuth, transport: "ajax", headersProvider },
  } as never);
  const connection = echo.connector.pusher.connection;
  connection.bind("state_change", ({ current }: { current: ConnectionState }) => {
    for (const listener of stateListeners) listener(current);
  });
  return echo;
}

/**
 * Listens for one of Mesa's events on a channel. The name and the data are those of the server's catalogue
 * (src/shared/realtime-events.ts), so a misspelt event or field fails the typecheck.
 */
export function listenFor<C extends Channel, N extends RealtimeEventName>(
  channel: C,
  name: N,
  handler: (data: RealtimeEvents[N]) => void,
): C {
  return channel.listen(name, handler);
}

/** The connection, when one is open. */
export function currentRealtime(): Echo<"pusher"> | null {
  return echo;
}

/** The socket id of this tab, sent as X-Socket-ID so the server can leave this tab out of a broadcast. */
export function currentSocketId(): string | undefined {
  return echo?.socketId();
}

export function connectionState(): ConnectionState {
  return (echo?.connector.pusher.connection.state as ConnectionState | undefined) ?? "initialized";
}

export function onConnectionState(listener: (state: ConnectionState) => void): () => void {
  stateListeners.add(listener);
  return () => {
    stateListeners.delete(listener);
  };
}

/** Closes the connection (on sign-out). */
export function disconnectRealtime(): void {
  echo?.disconnect();
  echo = null;
  for (const listener of stateListeners) listener("disconnected");
}
