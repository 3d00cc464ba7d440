/**
 * The shape of a route in Mesa's single route registry (src/http/routes/index.ts): its name, methods, URI with
 * `{params}`, parameter formats, the access it needs, and its handler. Elysia mounts routes from the registry,
 * the CLI lists them, and the browser resolves them by name through ziggy-js.
 */
import type { RequestContext } from "./context";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may use a route: anyone, only guests (sign-in pages), any signed-in user, or holders of a permission.
 * Every route must say which; there is no default.
 */
export type Access = { kind: "public" } | { kind: "guest" } | { kind: "signed-in" } | { kind: "permission"; permission: string };

export const access = {
  public: { kind: "public" } as Access,
  guest: { kind: "guest" } as Access,
  signedIn: { kind: "signed-in" } as Access,
  can: (permission: string): Access => ({ kind: "permission", permission }),
};

export function describeAccess(a: Access): string {
  return a.kind === "permission" ? a.permission : a.kind;
}

export interface RouteDefinition {
  name: string;
  methods: Method[];
  /** Path with `{param}` or `{param?}` placeholders, e.g. `/users/{user}`. */
  uri: string;
  /** Regular expressions each parameter must match in full, e.g. `{ user: "\\d+" }`. */
  wheres?: Record<string, string>;
  /** The key an object passed for a parameter is read by, e.g. `{ user: "id" }`. */
  bindings?: Record<string, string>;
  access: Access;
  /** Whether a multipart (file) body is accepted. */
  multipart?: boolean;
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** State-changing requests need a CSRF token unless this is false (for signature-checked machine APIs). */
  csrf?: boolean;
  /** Signed-in routes need a verified e-mail unless this is true (verification, settings, sign-out). */
  allowUnverified?: boolean;
  /** Sensitive: the password must have been confirmed recently (PASSWORD_CONFIRM_TIMEOUT). */
  confirmPassword?: boolean;
  /** false for machine endpoints (the health check) that must not start or write a session. */
  session?: boolean;
  handle: (ctx: RequestContext) => Response | Promise<Response>;
}

export function defineRoutes(routes: RouteDefinition[]): RouteDefinition[] {
  return routes;
}

export interface RouteParameter {
  name: string;
  optional: boolean;
}

export function routeParameters(uri: string): RouteParameter[] {
  return [...uri.matchAll(/\{(\w+)(\?)?\}/g)].map((m) => ({ name: m[1], optional: m[2] === "?" }));
}

/** `/users/{user}/roles/{role?}` → `/users/:user/roles/:role?` */
export function toElysiaPath(uri: string): string {
  return uri.replace(/\{(\w+)(\?)?\}/g, (_, name: string, opt?: string) => `:${name}${opt ?? ""}`);
}

/** The path of the named route with its parameters filled in; throws on an unknown name or a missing parameter. */
export function pathFor(routes: RouteDefinition[], name: string, params: Record<string, string | number> = {}): string {
  const route = routes.find((r) => r.name === name);
  if (!route) throw new Error(`route "${name}" is not in the route registry`);
  const used = new Set<string>();
  const path =
    route.uri
      .replace(/\{(\w+)(\?)?\}/g, (_, key: string, optional?: string) => {
        const value = params[key];
        used.add(key);
        if (value === undefined) {
          if (optional) return "";
          throw new Error(`route "${name}" needs parameter "${key}"`);
        }
        return encodeURIComponent(String(value));
      })
      .replace(/\/+$/, "") || "/";
  // Parameters the path does not name become the query string, as ziggy-js does in the browser.
  const query = new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (used.has(key) ? [] : [[key, String(value)]])));
  return query.size ? `${path}?${query}` : path;
}

/** True when every given parameter matches its declared format. */
export function parametersMatch(route: RouteDefinition, params: Record<string, string | undefined>): boolean {
  for (const [name, pattern] of Object.entries(route.wheres ?? {})) {
    const value = params[name];
    if (value !== undefined && !new RegExp(`^(?:${pattern})$`).test(value)) return false;
  }
  return true;
}

/** Checks the registry itself: unique names, a method each, and formats only for parameters that exist. */
export function checkRegistry(routes: RouteDefinition[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const endpoints = new Set<string>();
  for (const route of routes) {
    if (names.has(route.name)) problems.push(`route name "${route.name}" is used twice`);
    names.add(route.name);
    if (route.methods.length === 0) problems.push(`route "${route.name}" has no method`);
    if (!route.uri.startsWith("/")) problems.push(`route "${route.name}" URI must start with /`);
    if (!route.access) problems.push(`route "${route.name}" does not declare its access`);
    const params = new Set(routeParameters(route.uri).map((p) => p.name));
    for (const name of Object.keys(route.wheres ?? {})) if (!params.has(name)) problems.push(`route "${route.name}" has a format for unknown parameter "${name}"`);
    for (const method of route.methods) {
      const key = `${method} ${toElysiaPath(route.uri).replace(/:\w+\??/g, ":")}`;
      if (endpoints.has(key)) problems.push(`${method} ${route.uri} is declared twice`);
      endpoints.add(key);
    }
  }
  return problems;
}

export interface ZiggyRoute {
  uri: string;
  methods: string[];
  wheres?: Record<string, string>;
  parameters?: string[];
  bindings?: Record<string, string>;
}

export interface ZiggyConfig {
  url: string;
  port: number | null;
  defaults: Record<string, string | number>;
  routes: Record<string, ZiggyRoute>;
}

/** The route list in the shape ziggy-js reads. */
export function ziggyConfig(routes: RouteDefinition[], appUrl: string): ZiggyConfig {
  const url = new URL(appUrl);
  const list: Record<string, ZiggyRoute> = {};
  for (const route of routes) {
    const parameters = routeParameters(route.uri).map((p) => p.name);
    const entry: ZiggyRoute = {
      uri: route.uri === "/" ? "/" : route.uri.replace(/^\//, ""),
      methods: route.methods.includes("GET") ? [...route.methods, "HEAD"] : [...route.methods],
    };
    if (route.wheres) entry.wheres = route.wheres;
    if (parameters.length) entry.parameters = parameters;
    if (route.bindings) entry.bindings = route.bindings;
    list[route.name] = entry;
  }
  return { url: `${url.protocol}//${url.hostname}`, port: url.port ? Number(url.port) : null, defaults: {}, routes: list };
}
