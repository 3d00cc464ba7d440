/**
 * Publishing. Every event goes through the `pusher` server SDK — to Mesa's embedded endpoint by default, to a
 * hosted provider when BROADCAST_DRIVER=pusher — so both paths run the same code, and so does the command line,
 * which reaches the running Mesa this way. A failed broadcast never fails the change that caused it: the
 * subscribers of domain events (src/realtime/subscribers.ts) report it, and `broadcast()` logs it.
 */
import Pusher from "pusher";
import type { Config } from "../config";
import { sign } from "../crypto";
import type { BroadcastEvent } from "./events";
import type { AppCredentials } from "./signatures";

/** The namespace the browser's Echo prefixes to event names. */
export const EVENT_NAMESPACE = "App.Events";

/** The app's Pusher credentials; the embedded driver may derive its secret from the app key. */
export function realtimeCredentials(config: Config, appKey: string): AppCredentials {
  const { appId, key, secret } = config.broadcast;
  return { id: appId, key, secret: secret ?? sign(appKey, "mesa-realtime-secret") };
}

export class Broadcaster {
  private readonly client: Pusher;

  constructor(config: Config, credentials: AppCredentials) {
    const { host, port, scheme, cluster } = config.broadcast;
    this.client = new Pusher({
      appId: credentials.id,
      key: credentials.key,
      secret: credentials.secret,
      cluster,
      host: host || undefined,
      port: host ? String(port) : undefined,
      useTLS: scheme === "https",
      timeout: 3000,
    });
  }

  /** Publishes an event; `exceptSocketId` leaves out the browser tab that caused it. Throws when it is not delivered. */
  async send(event: BroadcastEvent, exceptSocketId?: string | null): Promise<void> {
    // Echo listens for "App.Events.Name", which it sends over the wire as "App\Events\Name".
    const name = `${EVENT_NAMESPACE}.${event.name}`.replace(/\./g, "\\");
    await this.client.trigger(
      event.channels,
      name,
      event.data,
      exceptSocketId ? { socket_id: exceptSocketId } : undefined,
    );
  }

  /** Publishes an event like `send`, but logs a failure instead of throwing; true when it was delivered. */
  async broadcast(event: BroadcastEvent, exceptSocketId?: string | null): Promise<boolean> {
    try {
      await this.send(event, exceptSocketId);
      return true;
    } catch (error) {
      console.error(`Broadcast of ${event.name} failed:`, describeFailure(error));
      return false;
    }
  }

  /** Closes every realtime connection of a user (after deactivation or blacklisting). Throws when it could not. */
  async terminateUserConnections(userId: number): Promise<void> {
    await this.client.terminateUserConnections(String(userId));
  }
}

/** Where the `pusher` SDK sends its requests: the embedded server's address, or the hosted provider's. */
export function realtimeEndpoint(config: Config): string {
  const { host, port, scheme, cluster } = config.broadcast;
  return host ? `${scheme}://${host}:${port}` : `https://api-${cluster}.pusher.com`;
}

/** Why a request of the `pusher` SDK failed, in one line: the server's answer, or why there was none. */
export function describeFailure(error: unknown): string {
  if (error && typeof error === "object" && "status" in error && typeof error.status === "number") {
    const body = "body" in error && typeof error.body === "string" ? error.body.trim().slice(0, 200) : "";
    return `HTTP ${error.status}${body ? ` ${body}` : ""}`;
  }
  // The SDK's RequestError keeps the network error (ECONNREFUSED, ENOTFOUND, a time-out) in `error`.
  if (error && typeof error === "object" && "error" in error && error.error instanceof Error)
    return error.error.message;
  return error instanceof Error ? error.message : String(error);
}
