/**
 * Domain events: what a domain service did, published by that service once its transaction has committed (never
 * when it failed, so nothing is announced that did not happen). Subscribers, registered once at start-up — the web
 * server's in src/http/services.ts, the command line's in cli/events.ts — turn them into effects outside the
 * database: signing a person out in their open tabs, closing their realtime connections, and later mails. The web
 * and the command line call the same services with the same subscribers, so both have the same effects.
 *
 * Changes inside the database (ending sessions, the audit entry) stay in the service's transaction; events are for
 * what cannot be rolled back.
 */
import type { TranslationKey } from "../shared/i18n";
import { log } from "../log";

/** Every domain event by name, with what it carries. */
export interface DomainEvents {
  /** A user was deactivated; their sessions and remember-me sign-in ended in the same transaction. */
  UserDeactivated: { userId: number };
  /** A blacklist entry bars a user account (linked to it, or by its document number); its sessions ended with it. */
  UserBarred: { userId: number; entryId: number };
  /** A background job was queued, made progress or finished (src/domain/jobs); its owner's open tabs follow it. */
  JobUpdated: {
    jobId: number;
    userId: number;
    kind: string;
    state: "queued" | "running" | "succeeded" | "failed";
    progress: { done: number; total: number; label: TranslationKey | "" };
  };
  /** A sale was recorded at a cafe (src/domain/sales/sell.ts); the cafe's open points of sale list it. */
  SaleRecorded: { saleId: number; cafeId: number; serviceDate: string };
  /** A sale was voided; the cafe's open points of sale strike it through. */
  SaleVoided: { saleId: number; cafeId: number; serviceDate: string };
  /**
   * A day of a cafe's meal schedule was saved or copied over (src/domain/menu/schedule.ts): the schedule pages open
   * on that cafe reload the day. `version` is the day's version after the change.
   */
  MenuDayChanged: { cafeId: number; date: string; version: number; updatedByName: string };
  /** Days of a cafe's schedule were published (src/domain/menu/publish.ts): the cafe's boards show them. */
  MenuPublished: { cafeId: number; dates: string[] };
  /** A display link was revoked (src/domain/menu/display-links.ts): the board it opened is disconnected. */
  DisplayLinkRevoked: { linkId: number; cafeId: number };
}

export type DomainEventName = keyof DomainEvents;

/** One event: its `name` and what it carries, e.g. `{ name: "UserDeactivated", userId: 7 }`. */
export type DomainEvent<N extends DomainEventName = DomainEventName> = { [K in N]: { name: K } & DomainEvents[K] }[N];

/** Where the change came from: the browser tab whose request made it (X-Socket-ID), which broadcasts leave out. */
export interface EventOrigin {
  socketId: string | null;
}

/** Reacts to one kind of event; may be asynchronous (a broadcast), and throws when it could not do its part. */
export type Subscriber<N extends DomainEventName> = (
  event: DomainEvent<N>,
  origin: EventOrigin,
) => void | Promise<void>;

/** What a domain service publishes to, after its transaction committed. */
export interface Publisher {
  publish(event: DomainEvent): void;
}

/** Publishes nowhere: for callers that want the change without its effects (test fixtures). */
export const NO_EVENTS: Publisher = { publish() {} };

/** A failed subscriber, as the web server reports it. */
function logFailure(error: unknown, event: DomainEvent): void {
  log.warn(
    { event: event.name, failure: error instanceof Error ? error.message : String(error) },
    "a subscriber of a domain event failed",
  );
}

/** The subscribers of one process, by event name. */
export class EventBus {
  private readonly subscribers = new Map<DomainEventName, Subscriber<DomainEventName>[]>();

  /** `reportFailure` hears of every subscriber that threw; by default it is logged. */
  constructor(private readonly reportFailure: (error: unknown, event: DomainEvent) => void = logFailure) {}

  /** Registers `subscriber` for the events called `name`; they run in the order they were registered. */
  subscribe<N extends DomainEventName>(name: N, subscriber: Subscriber<N>): void {
    const list = this.subscribers.get(name) ?? [];
    list.push(subscriber as Subscriber<DomainEventName>);
    this.subscribers.set(name, list);
  }

  /** Runs the subscribers of `event` one after another; one that fails is reported, and the next still runs. */
  async deliver(event: DomainEvent, origin: EventOrigin = { socketId: null }): Promise<void> {
    for (const subscriber of this.subscribers.get(event.name) ?? []) {
      try {
        await subscriber(event, origin);
      } catch (error) {
        this.reportFailure(error, event);
      }
    }
  }

  /** A publisher for one request or command, whose `settled()` waits for the effects of what it published. */
  publisher(origin: EventOrigin = { socketId: null }): EventPublisher {
    return new EventPublisher(this, origin);
  }
}

/** Hands events to the bus as they are published, and keeps track of them for the request or command. */
export class EventPublisher implements Publisher {
  /** Everything published through this publisher, in order. */
  readonly published: DomainEvent[] = [];
  private readonly deliveries: Promise<void>[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly origin: EventOrigin,
  ) {}

  /** Starts delivering `event` to its subscribers; call it after the transaction committed. */
  publish(event: DomainEvent): void {
    this.published.push(event);
    this.deliveries.push(this.bus.deliver(event, this.origin));
  }

  /** Waits until every subscriber of every event published so far has finished (failures are reported, not thrown). */
  async settled(): Promise<void> {
    await Promise.all(this.deliveries);
  }
}
