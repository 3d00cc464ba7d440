/**
 * Publishing. Every event goes through the `pusher` server SDK — to Mesa's embedded endpoint by default, to a
 * hosted provider when BROADCAST_DRIVER=pusher — so both paths run the same code. A failed broadcast is logged
 * and never fails the request that caused it.
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

  /** Publishes an event; `exceptSocketId` leaves out the browser tab that caused it (X-Socket-ID). */
  async broadcast(event: BroadcastEvent, exceptSocketId?: string | null): Promise<boolean> {
    try {
      // Echo listens for "App.Events.Name", which it sends over the wire as "App\Events\Name".
      const name = `${EVENT_NAMESPACE}.${event.name}`.replace(/\./g, "\\");
      await this.client.trigger(event.channels, name, event.data, exceptSocketId ? { socket_id: exceptSocketId } : undefined);
      return true;
    } catch (error) {
      console.error(`Broadcast of ${event.name} failed:`, error instanceof Error ? error.message : error);
      return false;
    }
  }

  /** Closes every realtime connection of a user (after deactivation or blacklisting). */
  async terminateUserConnections(userId: number): Promise<void> {
    try {
      await this.client.terminateUserConnections(String(userId));
    } catch (error) {
      console.error("Terminating realtime connections failed:", error instanceof Error ? error.message : error);
    }
  }
}
