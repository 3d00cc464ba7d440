/** The tab's realtime connection for components (opened on first use while signed in). */
import { usePage } from "@inertiajs/react";
import { useCallback } from "react";
import { connectRealtime, type RealtimeSettings } from "../lib/realtime";
import { useRoute } from "./use-route";

export function useRealtime() {
  const { realtime } = usePage<{ realtime: RealtimeSettings }>().props;
  const route = useRoute();
  return useCallback(
    () => connectRealtime(realtime, { auth: route("broadcasting.auth"), userAuth: route("broadcasting.user-auth") }),
    [realtime, route],
  );
}
