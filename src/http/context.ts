/**
 * Everything a route handler needs about one request: the parsed input, the session, the user's language and
 * theme, and the ways to answer — render a page, redirect, go back with errors.
 */
import type { StorageWatch } from "../storage-health";
import type { Metrics } from "../metrics";
import type { Replicator } from "../replication";
import type { Config } from "../config";
import type { Message } from "../shared/message";
import type { User } from "../domain/accounts/users";
import { accessProfile, type AccessProfile } from "../domain/access/authorization";
import { scopeOf, type Scope } from "../domain/access/scope";
import type { Actor } from "../domain/audit";
import type { RateLimiter } from "../domain/rate-limit";
import type { Mailer } from "../mail/mailer";
import type { EventBus, EventPublisher } from "../domain/events";
import type { JobRunner } from "../domain/jobs/runner";
import type { Broadcaster } from "../realtime/broadcaster";
import type { EmbeddedPusherServer } from "../realtime/embedded-server";
import type { BroadcastEvent } from "../shared/realtime-events";
import type { AppCredentials } from "../realtime/signatures";
import type { Db } from "../db";
import { isLocale, translate, type Locale, type TranslationKey, type TranslationParams } from "../shared/i18n";
import type { Assets } from "./assets";
import type { Input } from "./body";
import { serializeCookie, type CookieOptions } from "./cookies";
import { buildPage, HEADER, type Page } from "./page-protocol/page";
import type { Props } from "./page-protocol/props";
import { htmlDocument } from "./page-protocol/document";
import { encryptsHistory } from "./page-protocol/history";
import { renderPageHtml } from "./page-protocol/ssr";
import { pathFor, type RouteArguments, type RouteDefinition, type RouteName } from "./routing";
import type { PageName, RenderArguments } from "./page-protocol/page-types";
import type { Session, SessionStore } from "./session";
import { sharedProps } from "./shared-props";

export type Appearance = "light" | "dark" | "system";

/** What the app is built from; one instance per process, handed to every request. */
export interface AppServices {
  config: Config;
  db: Db;
  assets: Assets;
  sessions: SessionStore;
  routes: RouteDefinition[];
  limiter: RateLimiter;
  mailer: Mailer;
  /** Secret for signed links (see src/app-key.ts). */
  appKey: string;
  /** Publishes realtime events through the `pusher` SDK. */
  broadcaster: Broadcaster;
  /** The subscribers of domain events (realtime, later mail), registered once in createServices(). */
  events: EventBus;
  /** Runs background jobs (imports) after the request that started them was answered. */
  jobs: JobRunner;
  /** Pusher credentials of this app (shared with the browser: key only). */
  realtimeApp: AppCredentials;
  /** The embedded Pusher-protocol server, or null when a hosted provider is used. */
  realtime: EmbeddedPusherServer | null;
  /** The disk under the database: free space, and writes refused for want of it (logged once a minute). */
  storage: StorageWatch;
  /** This process's Prometheus metrics (src/metrics.ts), served at /metrics. */
  metrics: Metrics;
  /** Runs Litestream when this server is the one that replicates the database (src/replication.ts); null: off. */
  replicator: Replicator | null;
}

export interface RenderOptions {
  status?: number;
}

export const FLASH_KEY = "_page_flash";
export const ERRORS_KEY = "_errors";
export const CLEAR_HISTORY_KEY = "_clear_history";

export class RequestContext {
  readonly url: URL;
  readonly method: string;
  readonly nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  readonly setCookies: string[] = [];
  session!: Session;
  /** The signed-in user, resolved by src/http/auth.ts before the route's access is checked. */
  user: User | null = null;
  private profile: { userId: number; value: AccessProfile } | null = null;
  locale: Locale;
  appearance: Appearance;
  body: Input = {};
  query: Input = {};
  /** This request's id: the X-Request-ID a proxy sent (when it looks like one), or a new one; on its log lines. */
  readonly requestId: string;
  /** When the request came in (performance.now()), for its duration. */
  readonly startedAt = performance.now();

  constructor(
    readonly services: AppServices,
    readonly route: RouteDefinition,
    readonly request: Request,
    readonly params: Record<string, string>,
    readonly cookies: Record<string, string>,
    readonly ip: string | null,
  ) {
    this.url = new URL(request.url);
    this.method = request.method.toUpperCase();
    const given = request.headers.get("x-request-id");
    this.requestId = given !== null && /^[A-Za-z0-9._:-]{8,64}$/.test(given) ? given : crypto.randomUUID();
    const locale = cookies.locale;
    this.locale = isLocale(locale) ? locale : services.config.locale;
    const appearance = cookies.appearance;
    this.appearance = appearance === "light" || appearance === "dark" ? appearance : "system";
  }

  /** The signed-in user's permissions and scope (cached per user until access changes), read once per request. */
  get access(): AccessProfile {
    if (!this.user) throw new Error("access asked for a guest");
    if (this.profile?.userId !== this.user.id)
      this.profile = { userId: this.user.id, value: accessProfile(this.db, this.user.id) };
    return this.profile.value;
  }

  /** Keeps the profile authentication read for `userId`, so the request does not ask for it again. */
  keepAccess(userId: number, profile: AccessProfile): void {
    this.profile = { userId, value: profile };
  }

  /** The signed-in user as the actor of a change (audit) with their data scope. */
  get actor(): Actor {
    return { userId: this.user?.id ?? null, label: this.user?.email ?? "guest" };
  }

  get scope(): Scope {
    return scopeOf(this.access);
  }

  get config(): Config {
    return this.services.config;
  }

  get db(): Db {
    return this.services.db;
  }

  /** A page-protocol (XHR) visit, as opposed to a full browser load. */
  get isPageRequest(): boolean {
    return this.request.headers.has(HEADER.inertia);
  }

  /** A plain API client asking for JSON (not the page client, which also asks for JSON). */
  get wantsJson(): boolean {
    return !this.isPageRequest && (this.request.headers.get("accept") ?? "").includes("application/json");
  }

  get isSecure(): boolean {
    return this.url.protocol === "https:" || this.config.appUrl.startsWith("https:");
  }

  t(key: TranslationKey, params?: TranslationParams): string {
    return translate(this.locale, key, params);
  }

  setCookie(name: string, value: string, options: CookieOptions = {}): void {
    this.setCookies.push(serializeCookie(name, value, { secure: this.isSecure, ...options }));
  }

  /** A message for the next page, read by the browser from `page.flash`. */
  flash(key: string, value: unknown): void {
    this.session.flash(FLASH_KEY, { ...(this.session.get<Record<string, unknown>>(FLASH_KEY) ?? {}), [key]: value });
  }

  /** Asks the browser to forget its page history (after sign-out, say) on the next page. */
  clearHistory(): void {
    this.session.flash(CLEAR_HISTORY_KEY, true);
  }

  /** Validation errors flashed by the previous request, nested under their error bag when one was named. */
  validationErrors(): Record<string, unknown> {
    const stored = this.session.get<{ bag: string | null; errors: Record<string, string> }>(ERRORS_KEY);
    if (!stored) return {};
    return stored.bag ? { [stored.bag]: stored.errors } : stored.errors;
  }

  /** Puts a message into this request's language. */
  say(message: Message): string {
    return typeof message === "string" ? this.t(message) : this.t(message.key, message.params);
  }

  /** Keeps validation errors, in the user's language, for the page the browser is sent back to. */
  flashErrors(errors: Record<string, Message>): void {
    const bag = this.request.headers.get(HEADER.errorBag);
    const translated = Object.fromEntries(Object.entries(errors).map(([field, m]) => [field, this.say(m)]));
    this.session.flash(ERRORS_KEY, { bag: bag && /^[\w-]{1,64}$/.test(bag) ? bag : null, errors: translated });
  }

  /** Builds the page object for `component` with this request's shared props and partial-reload headers. */
  async page(component: string, props: Props = {}): Promise<Page> {
    return buildPage(this.request.headers, {
      component,
      shared: sharedProps(this),
      props,
      url: this.url.pathname + this.url.search,
      version: this.services.assets.version,
      flash: this.session.get<Record<string, unknown>>(FLASH_KEY) ?? {},
      encryptHistory: encryptsHistory(component),
      clearHistory: this.session.get<boolean>(CLEAR_HISTORY_KEY) === true,
    });
  }

  /** Renders a page: JSON for page-protocol visits, a server-rendered HTML document for first loads. */
  render<N extends PageName>(component: N, ...[props, options = {}]: RenderArguments<N>): Promise<Response> {
    return this.renderComponent(component, (props ?? {}) as Props, options);
  }

  /** `render` without the compiler's check of the page and its props: for the page protocol's own tests, whose pages are made up. */
  async renderComponent(component: string, props: Props = {}, options: RenderOptions = {}): Promise<Response> {
    const page = await this.page(component, props);
    const status = options.status ?? 200;
    if (this.isPageRequest) {
      return new Response(JSON.stringify(page), {
        status,
        headers: { "content-type": "application/json", [HEADER.inertia]: "true", vary: "X-Inertia" },
      });
    }
    const { head, body } = await renderPageHtml(page);
    const html = htmlDocument({
      lang: this.locale,
      appearance: this.appearance,
      nonce: this.nonce,
      assets: this.services.assets,
      head,
      body,
    });
    return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", vary: "X-Inertia" } });
  }

  /** The realtime socket of the tab that made this request (X-Socket-ID), when it sent a well-formed one. */
  get socketId(): string | null {
    const socketId = this.request.headers.get("x-socket-id");
    return socketId && /^\d+\.\d+$/.test(socketId) ? socketId : null;
  }

  private publisher: EventPublisher | null = null;

  /**
   * Where this request's domain services publish what they did (pass it to them); `await ctx.events.settled()`
   * waits for the effects. Broadcasts leave out the tab that made the request.
   */
  get events(): EventPublisher {
    this.publisher ??= this.services.events.publisher({ socketId: this.socketId });
    return this.publisher;
  }

  /** Publishes a realtime event, leaving out the tab that made this request (X-Socket-ID). Call after the change committed. */
  broadcast(event: BroadcastEvent): Promise<boolean> {
    return this.services.broadcaster.broadcast(event, this.socketId);
  }

  /** The path of a named route, e.g. `ctx.urlFor("password.reset", { token })`. */
  urlFor<N extends RouteName>(name: N, ...args: RouteArguments<N>): string {
    return pathFor(this.services.routes, name, args[0]);
  }

  redirect(to: string, status = 302): Response {
    return new Response(null, { status, headers: { location: to } });
  }

  /** Back to the page the request came from (same origin only), or `fallback`. */
  back(fallback = "/"): Response {
    const referer = this.request.headers.get("referer");
    if (referer) {
      try {
        const target = new URL(referer);
        // A path such as //evil.example or /\evil.example would be read by the browser as another site.
        if (target.origin === this.url.origin && !/^[/\\]{2}/.test(target.pathname))
          return this.redirect(target.pathname + target.search + target.hash);
      } catch {}
    }
    return this.redirect(fallback);
  }
}
