/**
 * `route(name, params)` resolved with ziggy-js from the route list the server shares (the `ziggy` prop). Names and
 * their parameters are checked by the compiler against the route registry (src/shared/routes.generated.ts); a name
 * that arrives as data (a sidebar entry, a tab) goes through `routeByName`, which ziggy checks at run time.
 * Ziggy's own errors surface as they are: unknown name, missing parameter, parameter not matching its format,
 * object missing its binding key.
 */
import { usePage } from "@inertiajs/react";
import { useCallback } from "react";
import { route as ziggyRoute, type Config, type RouteParams } from "ziggy-js";
import type { RouteName, RouteParameters } from "../../../src/shared/routes.generated";
import type { SharedProps } from "../types";

type Value = string | number | boolean | null | undefined;

/** A route's parameters, plus anything else as the query string (null or undefined leave a key out). */
export type BrowserRouteParams<N extends RouteName> = RouteParameters[N] & Record<string, Value | Value[]>;

type Arguments<N extends RouteName> =
  Partial<RouteParameters[N]> extends RouteParameters[N]
    ? [params?: BrowserRouteParams<N>]
    : [params: BrowserRouteParams<N>];

export function resolveRoute(
  config: Config,
  name: string,
  params?: RouteParams<string> | string | number,
  absolute = false,
): string {
  return ziggyRoute(name as never, params as never, absolute, config) as unknown as string;
}

export function useRoute() {
  const { ziggy } = usePage<SharedProps>().props;
  return useCallback(
    <N extends RouteName>(name: N, ...args: Arguments<N>) =>
      resolveRoute(ziggy, name, args[0] as RouteParams<string> | undefined),
    [ziggy],
  );
}

/** `route()` for a name that comes as data (a sidebar entry): checked by ziggy when it runs, not by the compiler. */
export function useRouteByName() {
  const { ziggy } = usePage<SharedProps>().props;
  return useCallback((name: string, params?: RouteParams<string>) => resolveRoute(ziggy, name, params), [ziggy]);
}
