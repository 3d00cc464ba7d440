/**
 * Publishing. Every event goes through the `pusher` server SDK — to Mesa's embedded endpoint by default, to a
 * hosted provider when BROADCAST_DRIVER=pusher — so both paths run the same code, and so does the command line,
 * which reaches the running Mesa this way. A failed broadcast never fails the change that caused it: the
 * subscribers of domain events (src/realtime/subscribers.ts) report it, and `broadcast()` logs it.
 */
import Pusher from "pusher";
import type { Config } from "../config";
import { sign } from "../crypto";
import type { BroadcastEvent } from "../shared/realtime-events";
import type { AppCredentials } from "./signatures";
import { log } from "../log";

/** The namespace the browser's Echo prefixes to event names. */
export const EVENT_NAMESPACE = "App.Events";

/** The app's Pusher credentials; the embedded driver may derive its secret from the app key. */
export function realtimeCredentials(config: Config, appKey: string): AppCredentials {
  const { appId, key, secret } = config.broadcast;
  return { id: appId, key, secret: secret ?? sign(appKey, "mesa-realtime-secret") };
}

/** The most events one request to the Pusher HTTP API may carry (its batch limit). */
export const BATCH_LIMIT = 10;

interface Queued {
  event: { channel: string; name: string; data: unknown; socket_id?: string };
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class Broadcaster {
  private readonly client: Pusher;
  /** Events handed in during this turn of the event loop, sent together when it ends. */
  private queued: Queued[] = [];

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

  /**
   * Publishes an event; `exceptSocketId` leaves out the browser tab that caused it. Throws when it is not delivered.
   * Events published in the same turn of the event loop (the sales of one group commit) go out together, up to
   * BATCH_LIMIT in one request, each to its own channel.
   */
  async send(event: BroadcastEvent, exceptSocketId?: string | null): Promise<void> {
    // Echo listens for "App.Events.Name", which it sends over the wire as "App\Events\Name".
    const name = `${EVENT_NAMESPACE}.${event.name}`.replace(/\./g, "\\");
    const sent = event.channels.map(
      (channel) =>
        new Promise<void>((resolve, reject) => {
          if (this.queued.length === 0) setImmediate(() => this.flush());
          const socket = exceptSocketId ? { socket_id: exceptSocketId } : {};
          this.queued.push({ event: { channel, name, data: event.data, ...socket }, resolve, reject });
        }),
    );
    await Promise.all(sent);
  }

  private flush(): void {
    const queued = this.queued;
    this.queued = [];
    for (let start = 0; start < queued.length; start += BATCH_LIMIT) {
      const part = queued.slice(start, start + BATCH_LIMIT);
      const request =
        part.length === 1
          ? this.client.trigger(part[0].event.channel, part[0].event.name, part[0].event.data, socketOf(part[0]))
          : this.client.triggerBatch(part.map((q) => ({ ...q.event })));
      request.then(
        () => part.forEach((q) => q.resolve()),
        (error: unknown) => part.forEach((q) => q.reject(error)),
      );
    }
  }

  /** Publishes an event like `send`, but logs a failure instead of throwing; true when it was delivered. */
  async broadcast(event: BroadcastEvent, exceptSocketId?: string | null): Promise<boolean> {
    try {
      await this.send(event, exceptSocketId);
      return true;
    } catch (error) {
      log.warn({ event: event.name, failure: describeFailure(error) }, "a broadcast failed");
      return false;
    }
  }

  /**
   * Closes every realtime connection of a user (after deactivation or blacklisting), or of what else a connection
   * was authorized for (a display link's board: `display-link-{id}`). Throws when it could not.
   */
  async terminateUserConnections(userId: number | string): Promise<void> {
    await this.client.terminateUserConnections(String(userId));
  }
}

function socketOf(queued: Queued): { socket_id: string } | undefined {
  return queued.event.socket_id ? { socket_id: queued.event.socket_id } : undefined;
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
