/**
 * Events Mesa broadcasts. One function per event builds it: its name (the browser listens for it under the
 * `App.Events` namespace), the channels it goes to and its data. Broadcast them after the transaction that
 * caused them has committed, never before.
 */
export interface BroadcastEvent {
  name: string;
  channels: string[];
  data: Record<string, unknown>;
}

/** The private channel of one user (Echo: `private("App.Models.User.{id}")`). */
export function userChannelName(userId: number): string {
  return `private-App.Models.User.${userId}`;
}

/** The user's sessions were ended (deactivated, blacklisted): every open tab signs out at once. */
export function sessionEnded(userId: number, reason: "deactivated" | "blacklisted"): BroadcastEvent {
  return { name: "SessionEnded", channels: [userChannelName(userId)], data: { reason } };
}
