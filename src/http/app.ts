/**
 * Composes the HTTP app. Every route of the registry is mounted on Elysia and runs the same pipeline:
 *
 *   session → asset version → CSRF → parameter formats → access → body → handler
 *   → errors to responses → redirect rules → flash ageing, session save, cookies, security headers
 */
import { Elysia } from "elysia";
import { existsSync, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import { PUBLIC_DIR } from "./assets";
import { entriesToInput, parseBody, PayloadTooLarge, readBodyBytes } from "./body";
import { clientAddress } from "./client-ip";
import { parseCookies } from "./cookies";
import { RequestContext, type AppServices } from "./context";
import { errorResponse, TokenMismatch } from "./errors";
import { log } from "../log";
import { isStorageFull } from "../storage-health";
import { authorize } from "./middleware/access";
import { authenticate } from "./auth";
import { HEADER } from "./page-protocol/page";
import { adaptRedirect, locationResponse } from "./page-protocol/redirect";
import { parametersMatch, toElysiaPath, type RouteDefinition } from "./routing";
import { NotFound } from "../domain/errors";
import { MAX_FRAME_BYTES, type EmbeddedPusherServer } from "../realtime/embedded-server";
import { safeEqual } from "../crypto";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const ONE_MIB = 1024 * 1024;
const XSRF_COOKIE = "XSRF-TOKEN";

/** The route that answers when nothing else matches: a 404 page with the usual shared props. */
const notFoundRoute: RouteDefinition = {
  name: "fallback",
  methods: ["GET"],
  uri: "/{any}",
  access: { kind: "public" },
  handle: () => {
    throw new NotFound();
  },
};

/** The token comes in a header (the page client copies it from the XSRF-TOKEN cookie), so it is checked before a byte of the body is read. */
function checkCsrf(ctx: RequestContext): void {
  if (!STATE_CHANGING.has(ctx.method) || ctx.route.csrf === false) return;
  const expected = ctx.session.get<string>("_token");
  const given = ctx.request.headers.get("x-xsrf-token") ?? ctx.request.headers.get("x-csrf-token");
  if (!expected || !given || !safeEqual(expected, given)) throw new TokenMismatch();
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

// The policy is the same for every response but for the script nonce: its text is joined once.
const CSP_BEFORE_NONCE = "default-src 'self'; script-src 'self' 'nonce-";
const CSP_AFTER_NONCE = [
  "'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

function contentSecurityPolicy(nonce: string): string {
  return CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE;
}

/** Runs one request through the pipeline; never throws. */
export async function handleRequest(
  services: AppServices,
  route: RouteDefinition,
  request: Request,
  params: Record<string, string>,
  ip: string | null,
): Promise<Response> {
  const cookies = parseCookies(request.headers.get("cookie"));
  const ctx = new RequestContext(services, route, request, params, cookies, ip);
  ctx.session = services.sessions.load(cookies[services.config.sessionCookie]);
  authenticate(ctx);

  let response: Response;
  try {
    ctx.query = entriesToInput(ctx.url.searchParams);
    response = await runRoute(ctx);
  } catch (error) {
    try {
      response = await errorResponse(ctx, error);
    } catch (renderError) {
      log.error({ reqId: ctx.requestId, route: ctx.route.name, err: renderError }, "the error page itself failed");
      response = new Response("Server error", {
        status: 500,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
  }
  response = adaptRedirect(request, response);
  return finish(ctx, response);
}

async function runRoute(ctx: RequestContext): Promise<Response> {
  const { request, route } = ctx;
  // A page-protocol GET whose asset version is not the built one (an older build, or none at all) is answered with
  // a full visit, so the browser loads the page in full and picks up the current assets. Other methods go through.
  if (
    ctx.isPageRequest &&
    ctx.method === "GET" &&
    request.headers.get(HEADER.version) !== ctx.services.assets.version
  ) {
    ctx.session.reflash();
    // The address the browser knows Mesa by (APP_URL), not the one a proxy in front of it forwarded to.
    const { pathname, search } = new URL(request.url);
    return locationResponse(request, new URL(pathname + search, ctx.config.appUrl).href);
  }
  // Who may send a body is settled before it is read; then it is read within the route's limits.
  checkCsrf(ctx);
  if (!parametersMatch(route, ctx.params)) throw new NotFound();
  authorize(route, ctx);
  // The fallback (404) route takes no body: only a route's own state-changing methods read one.
  if (STATE_CHANGING.has(ctx.method) && route.methods.includes(ctx.method as never)) {
    ctx.body = await parseBody(request, {
      multipart: route.multipart === true,
      maxBytes: route.maxBodyBytes ?? ONE_MIB,
    });
  }
  return route.handle(ctx);
}

function finish(ctx: RequestContext, response: Response): Response {
  const { services, session } = ctx;
  const headers = response.headers;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  if (!headers.has("content-security-policy")) headers.set("content-security-policy", contentSecurityPolicy(ctx.nonce));
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store, private");
  // Served over https: browsers refuse plain http to this host for a year.
  if (ctx.config.appUrl.startsWith("https://"))
    headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  headers.set("x-request-id", ctx.requestId);
  const seconds = (performance.now() - ctx.startedAt) / 1000;
  services.metrics.observeRequest(ctx.route.name, ctx.method, response.status, seconds);
  // The route's pattern, never the path: a path may hold a document number or a board's token.
  if (ctx.config.logRequests)
    log.info(
      {
        reqId: ctx.requestId,
        method: ctx.method,
        route: ctx.route.name,
        uri: ctx.route.uri,
        status: response.status,
        ms: Math.round(seconds * 10_000) / 10,
        userId: ctx.user?.id ?? null,
      },
      "request",
    );
  if (ctx.route.session === false) return response;
  // Flash data is for the next page. A page's own script asking for JSON (a diner search, a ticket's print record)
  // between a save and that page must not use it up; only pages and redirects age it.
  const plainJson =
    !ctx.request.headers.has("x-inertia") && /^application\/json/.test(headers.get("content-type") ?? "");
  if (!plainJson) session.ageFlash();
  const token = session.csrfToken();
  try {
    services.sessions.save(session, { ipAddress: ctx.ip, userAgent: ctx.request.headers.get("user-agent") });
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    // A full disk: the answer stands (what the route wrote is committed, or it was refused), the session keeps
    // its last saved state, and no cookie points at a session that was never written.
    services.storage.failed(`saving the session of ${ctx.method} ${ctx.route.uri}`);
    return response;
  }
  // Browser-session cookies: closing the browser forgets them (remember-me is what survives a restart); the
  // server ends idle sessions after SESSION_LIFETIME whatever the browser keeps.
  if (ctx.cookies[services.config.sessionCookie] !== session.id)
    ctx.setCookie(services.config.sessionCookie, session.id, { httpOnly: true });
  if (ctx.cookies[XSRF_COOKIE] !== token) ctx.setCookie(XSRF_COOKIE, token, { httpOnly: false });
  for (const cookie of ctx.setCookies) headers.append("set-cookie", cookie);
  return response;
}

/** Serves a file from public/ (built assets get a long cache life: their names change with their content). */
function servePublicFile(pathname: string): Response | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.split("/").some((part) => part.startsWith("."))) return null;
  const file = resolve(PUBLIC_DIR, `.${decoded}`);
  if (!file.startsWith(PUBLIC_DIR + sep) || !existsSync(file) || !statSync(file).isFile()) return null;
  const immutable = decoded.startsWith("/build/") && !decoded.endsWith("manifest.json");
  return new Response(Bun.file(file), {
    headers: {
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      "x-content-type-options": "nosniff",
    },
  });
}

/** The client's address: the connecting one, or what a trusted reverse proxy forwarded (TRUSTED_PROXIES). */
function clientIp(
  server: { requestIP?: (r: Request) => { address: string } | null } | null | undefined,
  request: Request,
  trustedProxies: string[],
): string | null {
  return clientAddress(server?.requestIP?.(request)?.address ?? null, request, trustedProxies);
}

/**
 * The embedded Pusher endpoint: the WebSocket at /app/{key} and the HTTP API at /apps/{id}/…. These are the
 * protocol's own paths, checked by the protocol's signatures, so they sit outside the route registry (no session,
 * no CSRF, no named route).
 */
function mountEmbeddedRealtime(app: Elysia, realtime: EmbeddedPusherServer): void {
  app.get(
    "/app/:key",
    ({ request, server, params }) =>
      server
        ? realtime.upgrade(request, server as never, params.key)
        : new Response("WebSockets need a listening server", { status: 400 }),
    {
      parse: "none",
    },
  );
  app.all(
    "/apps/*",
    async ({ request }) => {
      // Read as a stream and abandoned past 1 MiB, chunked or not, before the signature is checked.
      let body: Uint8Array<ArrayBuffer>;
      try {
        body = await readBodyBytes(request, ONE_MIB);
      } catch (error) {
        if (error instanceof PayloadTooLarge)
          return Response.json({ error: "Request body too large" }, { status: 413 });
        throw error;
      }
      const hasBody = request.method !== "GET" && request.method !== "HEAD";
      return realtime.handleApi(
        new Request(request.url, {
          method: request.method,
          headers: request.headers,
          body: hasBody ? body : undefined,
        }),
      );
    },
    { parse: "none" },
  );
}

/**
 * WebSocket frames past MAX_FRAME_BYTES are refused before they are buffered; a client that stops reading may hold
 * at most 1 MiB of unsent messages before the server drops it.
 */
const WEBSOCKETS = {
  maxPayloadLength: MAX_FRAME_BYTES,
  backpressureLimit: 1024 * 1024,
  closeOnBackpressureLimit: true,
};

/**
 * The Pusher-protocol endpoint alone, for Mesa's realtime server run as a process of its own
 * (src/realtime-server.ts): the WebSocket, the HTTP API, and `/up`.
 */
export function createRealtimeApp(realtime: EmbeddedPusherServer) {
  const app = new Elysia({ websocket: WEBSOCKETS });
  app.get("/up", () => Response.json({ status: "up", connections: realtime.connectionCount }));
  mountEmbeddedRealtime(app, realtime);
  app.onError(({ code, request, server }) => {
    if (code !== "NOT_FOUND") return;
    if (server && request.headers.get("upgrade")?.toLowerCase() === "websocket")
      return realtime.upgrade(request, server as never, null);
    return Response.json({ error: "Not found" }, { status: 404 });
  });
  return app;
}

/** Builds the Elysia app from the route registry. */
export function createApp(services: AppServices) {
  const app = new Elysia({ websocket: WEBSOCKETS });
  for (const route of services.routes) {
    for (const method of route.methods) {
      app.route(
        method,
        toElysiaPath(route.uri),
        ({ request, params, server }) =>
          handleRequest(
            services,
            route,
            request,
            params as Record<string, string>,
            clientIp(server, request, services.config.trustedProxies),
          ),
        {
          parse: "none",
        },
      );
    }
  }
  if (services.realtime) mountEmbeddedRealtime(app, services.realtime);
  app.onError(({ code, request, server }) => {
    if (code !== "NOT_FOUND") return;
    // A WebSocket on a path that is not /app/{key}: the protocol's pusher:error 4005 (path not found).
    if (services.realtime && server && request.headers.get("upgrade")?.toLowerCase() === "websocket")
      return services.realtime.upgrade(request, server as never, null);
    if (request.method === "GET" || request.method === "HEAD") {
      const file = servePublicFile(new URL(request.url).pathname);
      if (file) return file;
    }
    return handleRequest(
      services,
      notFoundRoute,
      request,
      {},
      clientIp(server, request, services.config.trustedProxies),
    );
  });
  return app;
}
