/**
 * What realtime does about domain events. Registered once at start-up by the web server (src/http/services.ts)
 * and by the command line (cli/events.ts), with a broadcaster that reaches the running Mesa either way.
 */
import type { EventBus, EventOrigin } from "../domain/events";
import { describeFailure, type Broadcaster } from "./broadcaster";
import { Coalescer } from "./coalesce";
import {
  displayLinkConnections,
  figuresChanged,
  jobUpdated,
  menuDayChanged,
  menuPublished,
  saleChanged,
  sessionEnded,
  type RealtimeEvents,
} from "../shared/realtime-events";

/** How often at most a cafe's figures are announced (FiguresChanged), in ms. */
export const FIGURES_INTERVAL_MS = 1000;

/** A sale recorded or voided, as the figures' coalescer collects them. */
interface FiguresChange {
  serviceDate: string;
  change: "recorded" | "voided";
}

/**
 * Registers the realtime subscribers: a person whose access ended is signed out in every open tab and disconnected;
 * a job's owner hears how it goes; a cafe's open points of sale hear of its sales and voids, and its dashboards of
 * its figures, at most once per `figuresIntervalMs`.
 */
export function subscribeRealtime(
  bus: EventBus,
  broadcaster: Broadcaster,
  { figuresIntervalMs = FIGURES_INTERVAL_MS }: { figuresIntervalMs?: number } = {},
): void {
  bus.subscribe("UserDeactivated", (event, origin) =>
    endRealtimeSession(broadcaster, event.userId, "deactivated", origin),
  );
  bus.subscribe("UserBarred", (event, origin) => endRealtimeSession(broadcaster, event.userId, "blacklisted", origin));
  // Sent to every tab of the job's owner, the one that started it included.
  bus.subscribe("JobUpdated", (event) =>
    broadcaster.send(
      jobUpdated(event.userId, { id: event.jobId, kind: event.kind, state: event.state, progress: event.progress }),
    ),
  );
  // The cafe's open points of sale, except the tab that made the change (it already shows it).
  bus.subscribe("SaleRecorded", (event, origin) =>
    broadcaster.send(
      saleChanged({ saleId: event.saleId, cafeId: event.cafeId, serviceDate: event.serviceDate, change: "recorded" }),
      origin.socketId,
    ),
  );
  bus.subscribe("SaleVoided", (event, origin) =>
    broadcaster.send(
      saleChanged({ saleId: event.saleId, cafeId: event.cafeId, serviceDate: event.serviceDate, change: "voided" }),
      origin.socketId,
    ),
  );
  // The cafe's dashboards, every tab (none of them made the sale): a burst of sales is one event a second, which
  // carries how many sales and voids it stands for and their dates — figures, never who ate.
  const figures = new Coalescer<number, FiguresChange>(figuresIntervalMs, (cafeId, changes) =>
    broadcaster.send(
      figuresChanged({
        cafeId,
        serviceDates: [...new Set(changes.map((c) => c.serviceDate))].sort(),
        recorded: changes.filter((c) => c.change === "recorded").length,
        voided: changes.filter((c) => c.change === "voided").length,
      }),
    ),
  );
  bus.subscribe("SaleRecorded", (event) =>
    figures.add(event.cafeId, { serviceDate: event.serviceDate, change: "recorded" }),
  );
  bus.subscribe("SaleVoided", (event) =>
    figures.add(event.cafeId, { serviceDate: event.serviceDate, change: "voided" }),
  );
  // The cafe's open schedule pages, except the tab that saved (it already shows its own change).
  bus.subscribe("MenuDayChanged", (event, origin) =>
    broadcaster.send(
      menuDayChanged({
        cafeId: event.cafeId,
        date: event.date,
        version: event.version,
        updatedByName: event.updatedByName,
      }),
      origin.socketId,
    ),
  );
  // Every board of the cafe, the tab that published included (it shows the board too).
  bus.subscribe("MenuPublished", (event) =>
    broadcaster.send(menuPublished({ cafeId: event.cafeId, dates: event.dates })),
  );
  // A revoked display link: the connections its board opened are closed (they act for the link, not a person).
  bus.subscribe("DisplayLinkRevoked", (event) =>
    broadcaster.terminateUserConnections(displayLinkConnections(event.linkId)),
  );
}

/**
 * Sends SessionEnded on the user's private channel (their tabs go to the sign-in page), then closes every realtime
 * connection that acts for them, also those that never signed in on the socket. Both are tried; the first failure
 * is thrown afterwards, in one line, for the bus to report.
 */
export async function endRealtimeSession(
  broadcaster: Broadcaster,
  userId: number,
  reason: RealtimeEvents["SessionEnded"]["reason"],
  origin: EventOrigin,
): Promise<void> {
  let failure: unknown = null;
  // In this order: a tab that hears SessionEnded leaves on its own before its connection is closed under it.
  await broadcaster.send(sessionEnded(userId, reason), origin.socketId).catch((error) => (failure = error));
  await broadcaster.terminateUserConnections(userId).catch((error) => (failure ??= error));
  if (failure !== null) throw new Error(describeFailure(failure));
}
