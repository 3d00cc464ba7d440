/**
 * `route(name, params)` resolved with ziggy-js from the route list the server shares (the `ziggy` prop).
 * Ziggy's own errors surface as they are: unknown name, missing parameter, parameter not matching its format,
 * object missing its binding key.
 */
import { usePage } from "@inertiajs/react";
import { useCallback } from "react";
import { route as ziggyRoute, type Config, type RouteParams } from "ziggy-js";
import type { SharedProps } from "../types";

export function resolveRoute(config: Config, name: string, params?: RouteParams<string> | string | number, absolute = false): string {
  return ziggyRoute(name as never, params as never, absolute, config) as unknown as string;
}

export function useRoute() {
  const { ziggy } = usePage<SharedProps>().props;
  return useCallback((name: string, params?: RouteParams<string> | string | number) => resolveRoute(ziggy, name, params), [ziggy]);
}
