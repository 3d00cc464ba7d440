/**
 * Events Mesa broadcasts to browsers: their names and payloads (`RealtimeEvents`, which the browser imports as
 * types, so a misspelt name or field fails the typecheck on both sides), and one function per event that builds
 * it with its channels. The browser listens for them under the `App.Events` namespace.
 *
 * They are sent by the subscribers of domain events (src/realtime/subscribers.ts), after the transaction that
 * caused them committed. Keep this file free of imports other than types: the browser bundle includes it.
 */
import type { TranslationKey } from "./i18n";

/** Every event Mesa broadcasts, by name, with the data the browser receives. */
export interface RealtimeEvents {
  /** The user's sessions were ended (deactivated, blacklisted): every open tab signs out at once. */
  SessionEnded: { reason: "deactivated" | "blacklisted" };
  /** A background job the user started was queued, made progress or finished; `progress.label` is a translation key. */
  JobUpdated: {
    id: number;
    kind: string;
    state: "queued" | "running" | "succeeded" | "failed";
    progress: { done: number; total: number; label: TranslationKey | "" };
  };
  /** A sale was recorded or voided at a cafe: its open points of sale reload their list of the day. */
  SaleChanged: { saleId: number; cafeId: number; serviceDate: string; change: "recorded" | "voided" };
  /**
   * A cafe's figures moved: sales were recorded or voided there since the last such event (at most one a second per
   * cafe), on these service dates. Figures only, never who ate: the dashboard reloads its own.
   */
  FiguresChanged: { cafeId: number; serviceDates: string[]; recorded: number; voided: number };
  /**
   * A day of a cafe's meal schedule changed (saved, or copied over): the schedule pages showing it reload that day.
   * Who and which version only, never the dishes: the page reads those itself.
   */
  MenuDayChanged: { cafeId: number; date: string; version: number; updatedByName: string };
  /** Days of a cafe's menu were published: its boards reload what they show. Dates only, never the dishes. */
  MenuPublished: { cafeId: number; dates: string[] };
}

export type RealtimeEventName = keyof RealtimeEvents;

/** One event ready to publish: its name, the channels it goes to and its data. */
export type BroadcastEvent<N extends RealtimeEventName = RealtimeEventName> = {
  [K in N]: { name: K; channels: string[]; data: RealtimeEvents[K] };
}[N];

/** The private channel of one user as Echo names it: `echo.private(userChannel(id))`. */
export function userChannel(userId: number): string {
  return `App.Models.User.${userId}`;
}

/** The private channel of one user as the protocol names it (Echo adds the `private-` prefix itself). */
export function userChannelName(userId: number): string {
  return `private-${userChannel(userId)}`;
}

/** The user's sessions were ended (deactivated, blacklisted): every open tab signs out at once. */
export function sessionEnded(
  userId: number,
  reason: RealtimeEvents["SessionEnded"]["reason"],
): BroadcastEvent<"SessionEnded"> {
  return { name: "SessionEnded", channels: [userChannelName(userId)], data: { reason } };
}

/** A background job of the user moved on (state, progress): every open tab of theirs hears it, the one that started it too. */
export function jobUpdated(userId: number, job: RealtimeEvents["JobUpdated"]): BroadcastEvent<"JobUpdated"> {
  return { name: "JobUpdated", channels: [userChannelName(userId)], data: job };
}

/** The private channel of a cafe's sales as Echo names it (`echo.private(cafeSalesChannel(id))`). */
export function cafeSalesChannel(cafeId: number): string {
  return `cafe.${cafeId}.sales`;
}

/** A sale of the cafe was recorded or voided: every open point of sale of the cafe hears it (but the tab that made it). */
export function saleChanged(data: RealtimeEvents["SaleChanged"]): BroadcastEvent<"SaleChanged"> {
  return { name: "SaleChanged", channels: [`private-${cafeSalesChannel(data.cafeId)}`], data };
}

/** The private channel of a cafe's figures as Echo names it (`echo.private(cafeFiguresChannel(id))`): the dashboard's. */
export function cafeFiguresChannel(cafeId: number): string {
  return `cafe.${cafeId}.figures`;
}

/** Sales were recorded or voided at the cafe: every dashboard showing it hears how many, and on which dates. */
export function figuresChanged(data: RealtimeEvents["FiguresChanged"]): BroadcastEvent<"FiguresChanged"> {
  return { name: "FiguresChanged", channels: [`private-${cafeFiguresChannel(data.cafeId)}`], data };
}

/** The private channel of a cafe's meal schedule as Echo names it (`echo.private(cafeMenuChannel(id))`). */
export function cafeMenuChannel(cafeId: number): string {
  return `cafe.${cafeId}.menu`;
}

/** A day of the cafe's meal schedule changed: every schedule page open on the cafe hears it (but the tab that saved). */
export function menuDayChanged(data: RealtimeEvents["MenuDayChanged"]): BroadcastEvent<"MenuDayChanged"> {
  return { name: "MenuDayChanged", channels: [`private-${cafeMenuChannel(data.cafeId)}`], data };
}

/** The private channel of a cafe's menu board as Echo names it (`echo.private(menuBoardChannel(id))`). */
export function menuBoardChannel(cafeId: number): string {
  return `menu-board.${cafeId}`;
}

/** The same channel as the protocol names it. */
export function menuBoardChannelName(cafeId: number): string {
  return `private-${menuBoardChannel(cafeId)}`;
}

/** Days of the cafe's menu were published: every board of the cafe (display links and signed-in views) hears it. */
export function menuPublished(data: RealtimeEvents["MenuPublished"]): BroadcastEvent<"MenuPublished"> {
  return { name: "MenuPublished", channels: [menuBoardChannelName(data.cafeId)], data };
}

/**
 * Whom a board's connection acts for, as the embedded server records it when a display link's token authorizes it
 * (`authorizeSocket`): revoking the link closes exactly those connections (`terminateUserConnections`). It cannot
 * be a person's id, which is digits only.
 */
export function displayLinkConnections(linkId: number): string {
  return `display-link-${linkId}`;
}
