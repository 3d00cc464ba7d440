/**
 * Publishing the menu and showing it: `menu.publish` (the schedule's Publish button and `./mesa menu:publish` call
 * the same service), the display page of a cafe for signed-in people (`menu.display`: its board, and its display
 * links for holders of `menu.display_links`), the public board a display link opens (`menu.board`, no session), and
 * the realtime authorization of that board's channel by its token (`menu.board.auth`). Docs: docs/menu-board.md.
 */
import { can } from "../../domain/access/authorization";
import { menuBoard } from "../../domain/menu/board";
import {
  CREATE_LIMIT,
  createDisplayLink,
  findDisplayLink,
  listDisplayLinks,
  revokeDisplayLink,
  TOKEN_FORMAT,
} from "../../domain/menu/display-links";
import { publishRange } from "../../domain/menu/publish";
import { channelAuth, userAuth } from "../../realtime/signatures";
import { displayLinkConnections, menuBoardChannelName } from "../../shared/realtime-events";
import { menuCafeChoice, menuTabs } from "../menu-pages";
import { access, defineRoutes } from "../routing";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";

const ID = "[1-9]\\d*";
const SOCKET_ID = /^\d+\.\d+$/;
/** The header the board page sends its token in when it asks to join its channel (never the URL: it is logged). */
export const DISPLAY_TOKEN_HEADER = "x-display-token";

/** The cafe a write names (a form's `cafe`); a missing or malformed one is a validation error, like any field. */
function cafeIdOf(value: unknown): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0)
    throw new ValidationFailed({ cafe: message("menuBoard.display.cafe_required") });
  return id;
}

/** Responses of the public board: never stored, never indexed, and the link never sent on as a referrer. */
const BOARD_HEADERS = {
  "x-robots-tag": "noindex, nofollow",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const menuBoardRoutes = defineRoutes([
  {
    name: "menu.display",
    methods: ["GET"],
    uri: "/menu/display",
    access: access.can("menu.view"),
    checks: ["menu.display_links", "menu.publish"],
    handle: (ctx) => {
      const { cafes, cafe } = menuCafeChoice(ctx);
      const cafeId = cafe?.id ?? null;
      const manageLinks = can(ctx.access, "menu.display_links");
      return ctx.render("menu/display", {
        tabs: menuTabs(ctx),
        cafes,
        cafeId,
        board: cafeId === null ? null : menuBoard(ctx.db, cafeId, { scope: ctx.scope }),
        links: cafeId !== null && manageLinks ? listDisplayLinks(ctx.db, ctx.scope, cafeId) : null,
        can: { manageLinks, publish: can(ctx.access, "menu.publish") },
      });
    },
  },
  {
    name: "menu.publish",
    methods: ["POST"],
    uri: "/menu/publish",
    access: access.can("menu.publish"),
    handle: async (ctx) => {
      const result = publishRange(ctx.db, ctx.actor, cafeIdOf(ctx.body.cafe), ctx.body.from, ctx.body.to, {
        scope: ctx.scope,
        events: ctx.events,
      });
      await ctx.events.settled();
      if (ctx.wantsJson) return Response.json(result);
      ctx.flash(
        "success",
        ctx.t("menuBoard.publish.done", {
          published: result.published.length,
          unchanged: result.unchanged.length,
          empty: result.empty.length,
        }),
      );
      return ctx.back(ctx.urlFor("menu.display", { cafe: result.cafeId }));
    },
  },
  {
    name: "menu.display_links.store",
    methods: ["POST"],
    uri: "/menu/display-links",
    access: access.can("menu.display_links"),
    handle: (ctx) => {
      ctx.services.limiter.take([{ key: `display-link:${ctx.user!.id}`, limit: CREATE_LIMIT }]);
      const made = createDisplayLink(ctx.db, ctx.actor, ctx.scope, cafeIdOf(ctx.body.cafe), { label: ctx.body.label });
      // The token is answered once, to the dialog that asked, and never flashed into the session.
      return Response.json(
        { link: made.link, url: new URL(ctx.urlFor("menu.board", { token: made.token }), ctx.config.appUrl).href },
        { status: 201, headers: { "cache-control": "no-store" } },
      );
    },
  },
  {
    name: "menu.display_links.destroy",
    methods: ["DELETE"],
    uri: "/menu/display-links/{link}",
    wheres: { link: ID },
    access: access.can("menu.display_links"),
    handle: async (ctx) => {
      const link = revokeDisplayLink(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.link), ctx.events);
      await ctx.events.settled();
      if (ctx.wantsJson) return Response.json(link);
      ctx.flash("success", ctx.t("menuBoard.links.revoked", { label: link.label }));
      return ctx.back(ctx.urlFor("menu.display"));
    },
  },
  {
    name: "menu.board",
    methods: ["GET"],
    uri: "/board/{token}",
    wheres: { token: "[^/]{1,100}" },
    access: access.public,
    session: false,
    handle: async (ctx) => {
      // The board shows nothing of whoever opens it, signed in on this browser or not: no account, no navigation.
      ctx.user = null;
      const grant = findDisplayLink(ctx.db, ctx.params.token, { touch: true });
      let response: Response;
      if (!grant) {
        response = await ctx.render("menu/board", { board: null }, { status: 404 });
      } else {
        const board = menuBoard(ctx.db, grant.cafeId);
        // The board speaks the cafe's board language, whoever looks at it.
        ctx.locale = board.language;
        response = await ctx.render("menu/board", { board });
      }
      // The page's URL keeps the token, so the browser can reload it; logs name the route, never its path (src/log.ts).
      return withHeaders(response, BOARD_HEADERS);
    },
  },
  {
    name: "menu.board.auth",
    methods: ["POST"],
    uri: "/board/auth",
    access: access.public,
    session: false,
    // No cookie is involved: the secret is the token, in a header a cross-site form cannot set.
    csrf: false,
    maxBodyBytes: 4096,
    handle: (ctx) => {
      const token = ctx.request.headers.get(DISPLAY_TOKEN_HEADER) ?? "";
      const socketId = String(ctx.body.socket_id ?? "");
      const channel = String(ctx.body.channel_name ?? "");
      if (!SOCKET_ID.test(socketId) || channel === "")
        return Response.json({ message: "socket_id and channel_name are required" }, { status: 400 });
      const grant = findDisplayLink(ctx.db, token);
      if (!grant) return Response.json({ message: "This link is no longer valid" }, { status: 403 });
      // A token opens its own cafe's board channel, and nothing else.
      if (channel !== menuBoardChannelName(grant.cafeId))
        return Response.json({ message: `Not allowed to join ${channel}` }, { status: 403 });
      // Recorded as acting for the link, so that revoking it closes this connection.
      const recorded = ctx.services.realtime?.authorizeSocket(socketId, displayLinkConnections(grant.linkId)) ?? true;
      if (!recorded) return Response.json({ message: "This connection acts for someone else" }, { status: 403 });
      return Response.json({ auth: channelAuth(ctx.services.realtimeApp, socketId, channel) });
    },
  },
  {
    // The board signs its connection in as its link (pusher:signin), so that revoking the link closes it through the
    // Pusher HTTP API's terminate_connections with a hosted provider too, not only with the embedded server.
    name: "menu.board.user-auth",
    methods: ["POST"],
    uri: "/board/user-auth",
    access: access.public,
    session: false,
    csrf: false,
    maxBodyBytes: 4096,
    handle: (ctx) => {
      const token = ctx.request.headers.get(DISPLAY_TOKEN_HEADER) ?? "";
      const socketId = String(ctx.body.socket_id ?? "");
      if (!SOCKET_ID.test(socketId)) return Response.json({ message: "socket_id is required" }, { status: 400 });
      const grant = findDisplayLink(ctx.db, token);
      if (!grant) return Response.json({ message: "This link is no longer valid" }, { status: 403 });
      const userData = JSON.stringify({ id: displayLinkConnections(grant.linkId), user_info: {} });
      return Response.json({ auth: userAuth(ctx.services.realtimeApp, socketId, userData), user_data: userData });
    },
  },
]);

export { TOKEN_FORMAT };
