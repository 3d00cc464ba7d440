/** A discreet dot in the header telling the realtime connection's state; its label is read by screen readers. */
import { useEffect, useState } from "react";
import { useI18n } from "../hooks/use-i18n";
import { connectionState, onConnectionState, type ConnectionState } from "../lib/realtime";
import { cn } from "../lib/utils";

const COLOURS: Record<ConnectionState, string> = {
  initialized: "bg-muted-foreground/40",
  connecting: "bg-amber-500 animate-pulse",
  connected: "bg-success",
  unavailable: "bg-amber-600",
  failed: "bg-destructive",
  disconnected: "bg-muted-foreground",
};

export function RealtimeStatus() {
  const { t } = useI18n();
  // "initialized" on the server and on the first client render, so hydration matches.
  const [state, setState] = useState<ConnectionState>("initialized");
  useEffect(() => {
    setState(connectionState());
    return onConnectionState(setState);
  }, []);
  const label = t(`realtime.${state}`);
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-muted-foreground"
      title={label}
      data-testid="realtime-status"
      data-state={state}
    >
      <span className={cn("size-2 rounded-full", COLOURS[state])} aria-hidden="true" />
      <span className="sr-only" role="status">
        {label}
      </span>
    </span>
  );
}
