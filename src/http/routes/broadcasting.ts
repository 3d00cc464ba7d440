/**
 * Realtime authorization: the browser's Pusher client asks here before joining a private or presence channel,
 * and to authenticate the user on its connection. The rules are in src/realtime/channels.ts.
 */
import { authorizeChannel } from "../../realtime/channels";
import { channelAuth, userAuth } from "../../realtime/signatures";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";

const SOCKET_ID = /^\d+\.\d+$/;

/**
 * Tells the embedded server (when Mesa serves the protocol) that `socketId` acts for the signed-in user, so
 * terminating the user closes it even if it never signed in. False when it already acts for another user: one
 * connection, one user (the browser opens a new connection after signing out).
 */
function actsFor(ctx: RequestContext, socketId: string): boolean {
  return ctx.services.realtime?.authorizeSocket(socketId, String(ctx.user!.id)) ?? true;
}

export const broadcastingRoutes = defineRoutes([
  {
    name: "broadcasting.auth",
    methods: ["POST"],
    uri: "/broadcasting/auth",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => {
      const socketId = String(ctx.body.socket_id ?? "");
      const channel = String(ctx.body.channel_name ?? "");
      if (!SOCKET_ID.test(socketId) || channel === "")
        return Response.json({ message: "socket_id and channel_name are required" }, { status: 400 });
      const verdict = authorizeChannel(ctx.db, ctx.user!, channel);
      if (!verdict) return Response.json({ message: `Not allowed to join ${channel}` }, { status: 403 });
      if (!actsFor(ctx, socketId))
        return Response.json({ message: "This connection acts for another user" }, { status: 403 });
      const app = ctx.services.realtimeApp;
      if (verdict.presence === null) return Response.json({ auth: channelAuth(app, socketId, channel) });
      const channelData = JSON.stringify({ user_id: String(ctx.user!.id), user_info: verdict.presence });
      return Response.json({ auth: channelAuth(app, socketId, channel, channelData), channel_data: channelData });
    },
  },
  {
    name: "broadcasting.user-auth",
    methods: ["POST"],
    uri: "/broadcasting/user-auth",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => {
      const socketId = String(ctx.body.socket_id ?? "");
      if (!SOCKET_ID.test(socketId)) return Response.json({ message: "socket_id is required" }, { status: 400 });
      const user = ctx.user!;
      if (!actsFor(ctx, socketId))
        return Response.json({ message: "This connection acts for another user" }, { status: 403 });
      const userData = JSON.stringify({ id: String(user.id), user_info: { name: user.name } });
      return Response.json({ auth: userAuth(ctx.services.realtimeApp, socketId, userData), user_data: userData });
    },
  },
]);
