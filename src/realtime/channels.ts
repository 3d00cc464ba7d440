/**
 * Channel rules, like a routes file: who may join which private or presence channel, and what a presence channel
 * shows about them. A channel matching no rule is refused.
 */
import { accessProfile } from "../domain/access/authorization";
import { reachesCafe, scopeOf } from "../domain/access/scope";
import type { User } from "../domain/accounts/users";
import type { Db } from "../db";

export interface ChannelRule {
  /** Channel name without the private-/presence- prefix, with `{params}`. */
  pattern: string;
  /** false to refuse; true (private) or the member's public data (presence) to allow. */
  authorize: (db: Db, user: User, params: Record<string, string>) => boolean | Record<string, unknown>;
}

export const CHANNEL_RULES: ChannelRule[] = [
  // Each user's own channel: the sign-out signal, and later personal notices.
  { pattern: "App.Models.User.{id}", authorize: (_db, user, { id }) => String(user.id) === id },
  // Who is on duty at a cafe: anyone whose scope reaches the cafe, shown by name.
  {
    pattern: "cafe.{cafe}",
    authorize: (db, user, { cafe }) => (reachesCafe(scopeOf(accessProfile(db, user.id)), Number(cafe)) ? { id: user.id, name: user.name } : false),
  },
];

function match(pattern: string, name: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}/g, (_, param: string) => {
    names.push(param);
    return "([^.]+)";
  });
  const found = new RegExp(`^${source}$`).exec(name);
  if (!found) return null;
  return Object.fromEntries(names.map((param, i) => [param, found[i + 1]]));
}

/** What the rules say about `user` joining `channel` (with its private-/presence- prefix). */
export function authorizeChannel(db: Db, user: User, channel: string): false | { presence: Record<string, unknown> | null } {
  const presence = channel.startsWith("presence-");
  const bare = channel.replace(/^(private|presence)-/, "");
  if (!presence && !channel.startsWith("private-")) return false;
  for (const rule of CHANNEL_RULES) {
    const params = match(rule.pattern, bare);
    if (!params) continue;
    const result = rule.authorize(db, user, params);
    if (result === false) return false;
    if (presence) return { presence: typeof result === "object" ? result : { id: user.id, name: user.name } };
    return { presence: null };
  }
  return false;
}
