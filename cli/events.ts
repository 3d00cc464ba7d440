/**
 * Domain events on the command line. The command registers the web server's realtime subscribers
 * (src/realtime/subscribers.ts) with a broadcaster that reaches the running Mesa — or the hosted provider — through
 * the Pusher HTTP API, so `./mesa user:deactivate` and `./mesa blacklist:add` sign the person out of their open
 * tabs and close their realtime connections exactly like the web does. Mesa need not be running: the change is
 * made either way, and the command says what happened to the open tabs.
 */
import { resolveAppKey } from "../src/app-key";
import type { Config } from "../src/config";
import { EventBus, type EventPublisher } from "../src/domain/events";
import { Broadcaster, describeFailure, realtimeCredentials, realtimeEndpoint } from "../src/realtime/broadcaster";
import { subscribeRealtime } from "../src/realtime/subscribers";

export interface CliEvents {
  /** What the command passes to the domain services. */
  publisher: EventPublisher;
  /**
   * Waits for the effects of what was published and returns the line to print about the person's open tabs (the
   * commands that end someone's access use it), or null when nothing was published.
   */
  outcome(): Promise<string | null>;
  /**
   * Waits for the effects of what was published and returns where the realtime server was not reached and why, or
   * null when it was (or nothing was published): for commands that word the outcome themselves.
   */
  unreached(): Promise<{ endpoint: string; reason: string } | null>;
}

/** The command's events, with the same subscribers as the web server; failures are kept for `outcome()`, not logged. */
export function cliEvents(config: Config): CliEvents {
  const failures: unknown[] = [];
  const bus = new EventBus((error) => failures.push(error));
  subscribeRealtime(bus, new Broadcaster(config, realtimeCredentials(config, resolveAppKey(config))));
  const publisher = bus.publisher();
  return {
    publisher,
    async outcome() {
      await publisher.settled();
      if (publisher.published.length === 0) return null;
      if (failures.length === 0) return "Their open tabs were signed out and their realtime connections closed.";
      return `The realtime server at ${realtimeEndpoint(config)} was not reached (${describeFailure(failures[0])}), so their open tabs were not signed out at once: they will notice on their next request.`;
    },
    async unreached() {
      await publisher.settled();
      if (publisher.published.length === 0 || failures.length === 0) return null;
      return { endpoint: realtimeEndpoint(config), reason: describeFailure(failures[0]) };
    },
  };
}
