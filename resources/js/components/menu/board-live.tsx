/**
 * Keeping a menu board live. The signed-in display page joins the cafe's board channel through the tab's own
 * connection (authorized by /broadcasting/auth, `menu.view` on the cafe). The public board opens a connection of
 * its own, authorized by `menu.board.auth` with the display link's token in a header (never in a URL), for its own
 * cafe's channel only, and signs the connection in as the link (`menu.board.user-auth`). Either reloads its `board` prop when MenuPublished arrives. When a board's connection is
 * closed for it (the link was revoked) or its channel is refused, it reloads the page, which then says the link is
 * no longer valid.
 */
import { router } from "@inertiajs/react";
import Echo from "laravel-echo";
import Pusher from "pusher-js";
import { useEffect, useState } from "react";
import { menuBoardChannel } from "../../../../src/shared/realtime-events";
import { useRealtime } from "../../hooks/use-realtime";
import type { ConnectionState, RealtimeSettings } from "../../lib/realtime";
import { listenFor } from "../../lib/realtime";

/** How often a board reloads by itself, so "today" moves on at midnight even when nothing is published (ms). */
const REFRESH_MS = 10 * 60 * 1000;

function reloadBoard(): void {
  router.reload({ only: ["board"] });
}

/** The public board's live connection, authorized by its display link's token. Returns the connection's state. */
export function usePublicBoardLive({
  cafeId,
  token,
  settings,
  authUrl,
  userAuthUrl,
}: {
  cafeId: number | null;
  token: string;
  settings: RealtimeSettings;
  authUrl: string;
  userAuthUrl: string;
}): ConnectionState {
  const [state, setState] = useState<ConnectionState>("initialized");
  useEffect(() => {
    if (cafeId === null) return;
    const echo = new Echo<"pusher">({
      broadcaster: "pusher",
      Pusher,
      key: settings.key,
      cluster: settings.cluster,
      wsHost: settings.host,
      wsPort: settings.port,
      wssPort: settings.port,
      forceTLS: settings.forceTLS,
      enabledTransports: ["ws", "wss"],
      namespace: "App.Events",
      channelAuthorization: {
        endpoint: authUrl,
        transport: "ajax",
        headers: { "X-Display-Token": token, Accept: "application/json" },
      },
      userAuthentication: {
        endpoint: userAuthUrl,
        transport: "ajax",
        headers: { "X-Display-Token": token, Accept: "application/json" },
      },
    } as never);
    // Signed in as its link, the connection is closed by revoking it with a hosted provider too.
    echo.connector.pusher.signin();
    const connection = echo.connector.pusher.connection;
    let closedForUs = false;
    connection.bind("state_change", ({ current }: { current: ConnectionState }) => {
      setState(current);
      // Closed by the server (the link was revoked): the page finds out why on reload.
      if ((current === "disconnected" || current === "failed") && !closedForUs) {
        closedForUs = true;
        reloadBoard();
      }
    });
    const channel = echo.private(menuBoardChannel(cafeId));
    listenFor(channel, "MenuPublished", () => reloadBoard());
    channel.error(() => reloadBoard());
    const timer = setInterval(reloadBoard, REFRESH_MS);
    return () => {
      closedForUs = true;
      clearInterval(timer);
      echo.disconnect();
    };
  }, [cafeId, token, settings, authUrl, userAuthUrl]);
  return state;
}

/** The signed-in display page: the cafe's board channel on the tab's own connection. */
export function useSignedInBoardLive(cafeId: number | null): void {
  const connect = useRealtime();
  useEffect(() => {
    if (cafeId === null) return;
    const echo = connect();
    const name = menuBoardChannel(cafeId);
    listenFor(echo.private(name), "MenuPublished", () => reloadBoard());
    return () => echo.leave(name);
  }, [cafeId, connect]);
}
