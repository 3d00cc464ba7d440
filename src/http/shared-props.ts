/**
 * Props every page receives. The route list travels once per browser session (a once prop); errors always.
 */
import type { RequestContext } from "./context";
import { always, once, type Props } from "./page-protocol/props";
import { navigationFor } from "./navigation";
import { ziggyConfig } from "./routing";

export function sharedProps(ctx: RequestContext): Props {
  const { config } = ctx.services;
  return {
    app: { name: config.appName },
    locale: ctx.locale,
    appearance: ctx.appearance,
    settings: { timezone: config.timezone, currency: config.currency },
    auth: {
      user: ctx.user
        ? {
            id: ctx.user.id,
            name: ctx.user.name,
            email: ctx.user.email,
            emailVerified: ctx.user.emailVerifiedAt !== null,
          }
        : null,
    },
    navigation: () => navigationFor(ctx),
    ziggy: once(() => ziggyConfig(ctx.services.routes, config.appUrl)),
    // Where the browser's Pusher client connects (never the secret).
    realtime: once(() => ({
      key: config.broadcast.key,
      cluster: config.broadcast.cluster,
      host: config.broadcast.host,
      port: config.broadcast.port,
      forceTLS: config.broadcast.scheme === "https",
    })),
    errors: always(() => ctx.validationErrors()),
  };
}
