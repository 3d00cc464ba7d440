/**
 * Channel rules, like a routes file: who may join which private or presence channel, and what a presence channel
 * shows about them. A channel matching no rule is refused.
 */
import { accessProfile, can } from "../domain/access/authorization";
import type { PermissionName } from "../shared/access/permissions";
import { reachesCafe, scopeOf } from "../domain/access/scope";
import type { User } from "../domain/accounts/users";
import type { Db } from "../db";

/** A database id as it appears in a channel name: one canonical spelling per id (no 02, 2e0, +2). */
const ID = "[1-9]\\d*";

export interface ChannelRule {
  /** Channel name without the private-/presence- prefix, with `{params}`. */
  pattern: string;
  /** The format each parameter must match in full, like a route's `wheres`; every parameter needs one. */
  wheres: Record<string, string>;
  /**
   * The permission the channel's events need, checked before `authorize` looks at the place. Null: the channel
   * carries nothing beyond what its place already shows to everyone it reaches, so the scope alone decides (say
   * why next to the rule). It must be a permission some route declares, or no role could be given it.
   */
  permission: PermissionName | null;
  /** false to refuse; true (private) or the member's public data (presence) to allow. */
  authorize: (db: Db, user: User, params: Record<string, string>) => boolean | Record<string, unknown>;
}

export const CHANNEL_RULES: ChannelRule[] = [
  // Each user's own channel: the sign-out signal, and later personal notices.
  // No permission: it carries only what concerns its owner, and only the owner may join.
  {
    pattern: "App.Models.User.{id}",
    wheres: { id: ID },
    permission: null,
    authorize: (_db, user, { id }) => String(user.id) === id,
  },
  // Who is on duty at a cafe: anyone whose scope reaches the cafe, shown by name.
  // No permission: it shows the names of the people on duty, as the dashboard does (route "dashboard", signed-in
  // only) to everyone whose scope reaches the cafe. Events about the cafe's business (sales, diners) need their own
  // channel with a permission, not this one.
  {
    pattern: "cafe.{cafe}",
    wheres: { cafe: ID },
    permission: null,
    authorize: (db, user, { cafe }) =>
      reachesCafe(scopeOf(accessProfile(db, user.id)), Number(cafe)) ? { id: user.id, name: user.name } : false,
  },
  // A cafe's sales as they are recorded and voided: the open points of sale of the cafe reload their list.
  {
    pattern: "cafe.{cafe}.sales",
    wheres: { cafe: ID },
    permission: "sales.view",
    authorize: (db, user, { cafe }) => reachesCafe(scopeOf(accessProfile(db, user.id)), Number(cafe)),
  },
  // A cafe's figures as sales and voids arrive, for the dashboard: how many and on which dates, never who ate. Sales
  // figures are for holders of sales.view, within their scope.
  {
    pattern: "cafe.{cafe}.figures",
    wheres: { cafe: ID },
    permission: "sales.view",
    authorize: (db, user, { cafe }) => reachesCafe(scopeOf(accessProfile(db, user.id)), Number(cafe)),
  },
  // A cafe's meal schedule as its days are saved or copied over (MenuDayChanged: the date, its version and who
  // saved it, never the dishes): the schedule pages open on the cafe reload that day. For holders of menu.view,
  // within their scope, as the schedule page is.
  {
    pattern: "cafe.{cafe}.menu",
    wheres: { cafe: ID },
    permission: "menu.view",
    authorize: (db, user, { cafe }) => reachesCafe(scopeOf(accessProfile(db, user.id)), Number(cafe)),
  },
  // A cafe's menu board as days are published (MenuPublished: the dates, never the dishes): the Display page reloads
  // its board. For holders of menu.view, within their scope, as the Display page is. The public board joins it with
  // its display link's token instead, through menu.board.auth (src/http/routes/menu-board.ts), never through here.
  {
    pattern: "menu-board.{cafe}",
    wheres: { cafe: ID },
    permission: "menu.view",
    authorize: (db, user, { cafe }) => reachesCafe(scopeOf(accessProfile(db, user.id)), Number(cafe)),
  },
];

/** The rule's parameters when `name` matches its pattern, each in full its declared format; null otherwise. */
function match(rule: ChannelRule, name: string): Record<string, string> | null {
  const source = rule.pattern.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}/g, (_, param: string) => {
    const format = rule.wheres[param];
    if (format === undefined) throw new Error(`channel rule "${rule.pattern}" has no format for {${param}}`);
    return `(?<${param}>${format})`;
  });
  const found = new RegExp(`^${source}$`).exec(name);
  return found ? { ...found.groups } : null;
}

/** What the rules say about `user` joining `channel` (with its private-/presence- prefix). */
export function authorizeChannel(
  db: Db,
  user: User,
  channel: string,
  rules: ChannelRule[] = CHANNEL_RULES,
): false | { presence: Record<string, unknown> | null } {
  const presence = channel.startsWith("presence-");
  const bare = channel.replace(/^(private|presence)-/, "");
  if (!presence && !channel.startsWith("private-")) return false;
  for (const rule of rules) {
    const params = match(rule, bare);
    if (!params) continue;
    if (rule.permission !== null && !can(accessProfile(db, user.id), rule.permission)) return false;
    const result = rule.authorize(db, user, params);
    if (result === false) return false;
    if (presence) return { presence: typeof result === "object" ? result : { id: user.id, name: user.name } };
    return { presence: null };
  }
  return false;
}
