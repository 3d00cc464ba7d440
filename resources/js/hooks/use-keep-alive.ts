/**
 * Keeps an open till signed in through a shift: while the page is open it tells the server every `minutes`
 * (POST dinners.keepalive). Past the shift's absolute limit the server signs the session out and answers 401:
 * the page goes to the sign-in page.
 */
import { router } from "@inertiajs/react";
import { useEffect } from "react";
import { requestJson } from "../lib/json-client";
import { useRoute } from "./use-route";

export function useKeepAlive(minutes: number): void {
  const route = useRoute();
  useEffect(() => {
    if (!(minutes > 0)) return;
    const url = route("dinners.keepalive");
    const login = route("login");
    const ping = async () => {
      try {
        const { status } = await requestJson<{ alive: boolean }>("POST", url, {});
        if (status === 401 || status === 419) {
          router.flushAll();
          window.location.assign(login);
        }
      } catch {
        // Offline for a moment: the next ping tries again.
      }
    };
    const timer = window.setInterval(ping, minutes * 60_000);
    return () => window.clearInterval(timer);
  }, [minutes, route]);
}
