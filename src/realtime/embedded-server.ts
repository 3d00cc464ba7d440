/**
 * An embedded Pusher-protocol (7) server on Bun's native WebSockets, so a fresh install needs nothing else:
 * pusher-js connects to `/app/{key}`, and the `pusher` server SDK publishes through the HTTP API below
 * (`/apps/{id}/...`), exactly as it would to a hosted provider.
 *
 * Connections, channels and presence members live in memory (one Mesa process). docs/realtime.md maps each rule
 * of the protocol to the code and the test that checks it.
 */
import type { ServerWebSocket } from "bun";
import type { Config } from "../config";
import { clientAddress, throttleAddress } from "../http/client-ip";
import { apiRequestValid, authMatches, channelAuth, userAuth, type AppCredentials } from "./signatures";

export const PROTOCOL_VERSION = 7;

export interface EmbeddedOptions {
  /** Seconds of silence before the server pings a connection (announced to clients). */
  activityTimeout: number;
  /** Seconds to wait for a pong before closing with 4201. */
  pongTimeout: number;
  /** Largest message a client may send, and largest event payload the HTTP API accepts, in bytes. */
  maxMessageBytes: number;
  /** Client events a connection may send per second before they are rejected with 4301. */
  clientEventsPerSecond: number;
  /** How often liveness is checked, in milliseconds. */
  checkIntervalMs: number;
  /** Channels one connection may hold at once; a subscription beyond it is refused (LimitReached, 4100). */
  maxChannelsPerConnection: number;
  /**
   * Open connections from one address (an IPv4 address, or an IPv6 /64 as rate limits count them); the next one
   * gets pusher:error 4100 and is closed with 4100.
   */
  maxConnectionsPerAddress: number;
  /** Proxies whose X-Forwarded-For names the client's address (TRUSTED_PROXIES); empty: the socket's address. */
  trustedProxies: string[];
}

export const DEFAULT_OPTIONS: EmbeddedOptions = {
  activityTimeout: 120,
  pongTimeout: 30,
  maxMessageBytes: 10 * 1024,
  clientEventsPerSecond: 10,
  checkIntervalMs: 1000,
  maxChannelsPerConnection: 100,
  maxConnectionsPerAddress: 1000,
  trustedProxies: [],
};

/**
 * The largest WebSocket frame Bun accepts (its `maxPayloadLength`); a bigger one closes the connection with 1009
 * before it is buffered. Well above the largest legitimate message (a client event of 10 KiB, a presence
 * subscribe with its channel_data: about 1.5 KiB), so a message between `maxMessageBytes` and this still gets
 * the protocol's pusher:error and the connection is kept.
 */
export const MAX_FRAME_BYTES = 64 * 1024;

/** The embedded server's options taken from the settings (REALTIME_MAX_CHANNELS, REALTIME_MAX_CONNECTIONS_PER_ADDRESS, TRUSTED_PROXIES). */
export function embeddedOptions(config: Config): Partial<EmbeddedOptions> {
  return {
    maxChannelsPerConnection: config.broadcast.maxChannelsPerConnection,
    maxConnectionsPerAddress: config.broadcast.maxConnectionsPerAddress,
    trustedProxies: config.trustedProxies,
  };
}

interface Connection {
  socketId: string;
  ws: ServerWebSocket<SocketData>;
  channels: Set<string>;
  /** Presence channel → the user id this connection joined it as. */
  presence: Map<string, string>;
  /** Set by pusher:signin. */
  userId: string | null;
  /** The user Mesa's authorization endpoints signed for this socket (`authorizeSocket`), signed in or not. */
  authorizedUserId: string | null;
  /** Where the connection comes from (counted against maxConnectionsPerAddress). */
  address: string;
  lastSeen: number;
  pingSentAt: number | null;
  clientEvents: { windowStart: number; count: number };
}

interface Member {
  info: unknown;
  sockets: Set<string>;
}

interface BunServer {
  upgrade: (request: Request, options: { data: SocketData }) => boolean;
  publish: (topic: string, data: string) => number;
  requestIP?: (request: Request) => { address: string } | null;
}

export interface SocketData {
  /** The key of `/app/{key}`; null when the WebSocket asked for another path (refused with 4005). */
  appKey: string | null;
  protocol: number;
  /** The client's address at the upgrade, as connections per address count it; null when unknown. */
  address: string | null;
  connection?: Connection;
  open: (ws: ServerWebSocket<SocketData>) => void;
  message: (ws: ServerWebSocket<SocketData>, message: string | Buffer) => void;
  close: (ws: ServerWebSocket<SocketData>, code: number, reason: string) => void;
  pong: (ws: ServerWebSocket<SocketData>) => void;
}

/** Close codes and error codes of the protocol. */
export const CODES = {
  appNotFound: 4001,
  pathNotFound: 4005,
  invalidVersion: 4006,
  unsupportedProtocol: 4007,
  noProtocol: 4008,
  unauthorized: 4009,
  overCapacity: 4100,
  generic: 4200,
  pongTimeout: 4201,
  clientEventRateLimit: 4301,
} as const;

function isPrivate(channel: string): boolean {
  return channel.startsWith("private-");
}

function isPresence(channel: string): boolean {
  return channel.startsWith("presence-");
}

/** End-to-end encrypted: the server cannot read what a client would send, so it relays no client events there. */
function isEncrypted(channel: string): boolean {
  return channel.startsWith("private-encrypted-");
}

/** The server's own per-user channel (pusher:signin, the SDK's sendToUser): the one name that may hold `#`. */
const USER_CHANNEL_PREFIX = "#server-to-user-";

function userChannel(userId: string): string {
  return `${USER_CHANNEL_PREFIX}${userId}`;
}

/** The longest channel name the protocol allows, its prefix (private-, presence-) included. */
export const MAX_CHANNEL_NAME = 164;
/** The longest event name: client events, and events published through the HTTP API. */
export const MAX_EVENT_NAME = 200;
/** The most channels one event published through the HTTP API may go to. */
export const MAX_EVENT_CHANNELS = 100;
/** The most events one batch_events request may carry. */
export const MAX_BATCH_EVENTS = 10;

const CHANNEL_CHARACTERS = /^[A-Za-z0-9_\-=@,.;]+$/;

interface NameProblem {
  /** As pusher:subscription_error reports it. */
  type: "LimitReached" | "InvalidChannelName";
  message: string;
}

/**
 * Why `name` is not a channel name the protocol allows, or null: at most 164 characters, only letters, digits and
 * `_ - = @ , . ;`. `#` is reserved for the server: only `#server-to-user-{id}` uses it.
 */
function channelNameProblem(name: unknown): NameProblem | null {
  if (typeof name !== "string" || name === "")
    return { type: "InvalidChannelName", message: "Channel name is missing or not text" };
  if (name.length > MAX_CHANNEL_NAME)
    return {
      type: "LimitReached",
      message: `Channel name longer than ${MAX_CHANNEL_NAME} characters (${name.length}): ${quote(name)}`,
    };
  const bare = name.startsWith(USER_CHANNEL_PREFIX) ? name.slice(USER_CHANNEL_PREFIX.length) : name;
  if (!CHANNEL_CHARACTERS.test(bare))
    return {
      type: "InvalidChannelName",
      message: `Invalid channel name ${quote(name)}: only letters, digits and _ - = @ , . ; (# is the server's own)`,
    };
  return null;
}

/** A name as an error message shows it: quoted, and cut after 40 characters. */
function quote(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}

/** The `info` attributes of the HTTP API. */
type InfoAttribute = "user_count" | "subscription_count";

/**
 * The attributes an `info` parameter asks for (comma-separated), or why it cannot be answered: an attribute not in
 * `allowed`, or not text. Absent: none.
 */
function parseInfo(value: unknown, allowed: readonly InfoAttribute[]): Set<InfoAttribute> | string {
  if (value === undefined || value === null) return new Set();
  if (typeof value !== "string") return `info must be a comma-separated list of ${allowed.join(", ")}`;
  const asked = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = asked.filter((part) => !(allowed as readonly string[]).includes(part));
  if (unknown.length > 0)
    return `Unknown info attribute ${unknown.map((part) => quote(part)).join(", ")}: info may list ${allowed.join(" and ")} here`;
  return new Set(asked as InfoAttribute[]);
}

/** An event of `POST /events` or `/batch_events`, checked. */
interface ApiEvent {
  name: string;
  data: string;
  channels: string[];
  socketId: string | undefined;
  /** The attributes the answer reports for its channels; null when `info` was not sent. */
  info: Set<InfoAttribute> | null;
}

export class EmbeddedPusherServer {
  readonly options: EmbeddedOptions;
  private readonly connections = new Map<string, Connection>();
  private readonly channels = new Map<string, Set<string>>();
  private readonly members = new Map<string, Map<string, Member>>();
  private readonly userSockets = new Map<string, Set<string>>();
  /** Address → open connections from it. */
  private readonly addresses = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Bun's server, for topic publishing: each channel is a Bun pub/sub topic, written in batches by uWebSockets. */
  private server: BunServer | null = null;

  constructor(
    readonly app: AppCredentials,
    options: Partial<EmbeddedOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Starts the liveness checks (ping idle connections, close silent ones). */
  start(): void {
    this.timer ??= setInterval(() => this.checkLiveness(), this.options.checkIntervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const connection of this.connections.values()) connection.ws.close(CODES.generic, "Server shutting down");
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  // ── WebSocket side ─────────────────────────────────────────────────────────────────────────────────────

  /**
   * Upgrades a request for `/app/{key}`, or, with a null key, a WebSocket asking for any other path (it gets
   * pusher:error 4005 and is closed). Returns a Response when the request cannot be upgraded.
   */
  upgrade(request: Request, server: BunServer, key: string | null): Response | undefined {
    this.server ??= server;
    const raw = new URL(request.url).searchParams.get("protocol");
    // 0: none given; NaN: not a version number.
    const protocol = raw === null || raw === "" ? 0 : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    const data: SocketData = {
      appKey: key,
      protocol,
      address: throttleAddress(
        clientAddress(server.requestIP?.(request)?.address ?? null, request, this.options.trustedProxies),
      ),
      open: (ws) => this.onOpen(ws),
      message: (ws, message) => this.onMessage(ws, message),
      close: (ws) => this.onClose(ws),
      pong: (ws) => this.touch(ws),
    };
    if (server.upgrade(request, { data })) return undefined;
    return new Response("Expected a WebSocket connection", { status: 400 });
  }

  private send(ws: ServerWebSocket<SocketData>, message: Record<string, unknown>): void {
    ws.send(JSON.stringify(message));
  }

  private error(ws: ServerWebSocket<SocketData>, code: number | null, message: string): void {
    this.send(ws, { event: "pusher:error", data: { code, message } });
  }

  private onOpen(ws: ServerWebSocket<SocketData>): void {
    if (ws.data.appKey === null) {
      this.error(ws, CODES.pathNotFound, "Path not found: connect to /app/{key}");
      ws.close(CODES.pathNotFound, "Path not found");
      return;
    }
    if (ws.data.appKey !== this.app.key) {
      this.error(ws, CODES.appNotFound, `App key ${ws.data.appKey} not in this cluster`);
      ws.close(CODES.appNotFound, "App not found");
      return;
    }
    if (Number.isNaN(ws.data.protocol)) {
      this.error(ws, CODES.invalidVersion, "Invalid version string format");
      ws.close(CODES.invalidVersion, "Invalid version string format");
      return;
    }
    if (!ws.data.protocol) {
      this.error(ws, CODES.noProtocol, "No protocol version supplied");
      ws.close(CODES.noProtocol, "No protocol version");
      return;
    }
    if (ws.data.protocol < 5 || ws.data.protocol > PROTOCOL_VERSION) {
      this.error(ws, CODES.unsupportedProtocol, `Unsupported protocol version ${ws.data.protocol}`);
      ws.close(CODES.unsupportedProtocol, "Unsupported protocol version");
      return;
    }
    // Connections whose address is unknown share one allowance.
    const address = ws.data.address ?? "unknown";
    const open = this.addresses.get(address) ?? 0;
    if (open >= this.options.maxConnectionsPerAddress) {
      this.error(ws, CODES.overCapacity, "Over capacity: too many connections from this address");
      ws.close(CODES.overCapacity, "Over capacity");
      return;
    }
    this.addresses.set(address, open + 1);
    // Unpredictable: a signature obtained in advance for a guessed id must not fit a future connection.
    const [high, low] = crypto.getRandomValues(new Uint32Array(2));
    const socketId = `${high}.${low}`;
    const connection: Connection = {
      socketId,
      ws,
      channels: new Set(),
      presence: new Map(),
      userId: null,
      authorizedUserId: null,
      address,
      lastSeen: Date.now(),
      pingSentAt: null,
      clientEvents: { windowStart: Date.now(), count: 0 },
    };
    ws.data.connection = connection;
    this.connections.set(socketId, connection);
    this.send(ws, {
      event: "pusher:connection_established",
      data: JSON.stringify({ socket_id: socketId, activity_timeout: this.options.activityTimeout }),
    });
  }

  private touch(ws: ServerWebSocket<SocketData>): void {
    const connection = ws.data.connection;
    if (!connection) return;
    connection.lastSeen = Date.now();
    connection.pingSentAt = null;
  }

  private onMessage(ws: ServerWebSocket<SocketData>, raw: string | Buffer): void {
    const connection = ws.data.connection;
    if (!connection) return;
    this.touch(ws);
    const text = typeof raw === "string" ? raw : raw.toString("utf8");
    if (Buffer.byteLength(text) > this.options.maxMessageBytes) {
      this.error(ws, null, `Message larger than ${this.options.maxMessageBytes} bytes`);
      return;
    }
    let message: { event?: unknown; data?: unknown; channel?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      this.error(ws, null, "Message is not JSON");
      return;
    }
    if (typeof message !== "object" || message === null || typeof message.event !== "string") {
      this.error(ws, null, "Message has no event");
      return;
    }
    const data = typeof message.data === "string" ? safeParse(message.data) : message.data;
    switch (message.event) {
      case "pusher:ping":
        this.send(ws, { event: "pusher:pong", data: "{}" });
        return;
      case "pusher:pong":
        return;
      case "pusher:subscribe":
        this.subscribe(connection, (data ?? {}) as Record<string, unknown>);
        return;
      case "pusher:unsubscribe":
        this.unsubscribe(connection, String((data as Record<string, unknown> | null)?.channel ?? ""));
        return;
      case "pusher:signin":
        this.signin(connection, (data ?? {}) as Record<string, unknown>);
        return;
      default:
        if (message.event.startsWith("client-"))
          this.clientEvent(connection, message.event, String(message.channel ?? ""), message.data);
        else this.error(ws, null, `Unknown event ${message.event}`);
    }
  }

  private subscriptionError(
    connection: Connection,
    channel: string,
    error: string,
    status: number,
    type = "AuthError",
  ): void {
    this.send(connection.ws, { event: "pusher:subscription_error", channel, data: { type, error, status } });
  }

  private subscribe(connection: Connection, data: Record<string, unknown>): void {
    const channel = typeof data.channel === "string" ? data.channel : "";
    const problem = channelNameProblem(channel);
    if (problem) {
      // Status 4009, as Pusher-compatible servers (soketi) refuse a channel name.
      this.subscriptionError(connection, channel, problem.message, CODES.unauthorized, problem.type);
      return;
    }
    if (!connection.channels.has(channel) && connection.channels.size >= this.options.maxChannelsPerConnection) {
      this.subscriptionError(
        connection,
        channel,
        `At most ${this.options.maxChannelsPerConnection} channels per connection`,
        CODES.overCapacity,
        "LimitReached",
      );
      return;
    }
    if (channel.startsWith(USER_CHANNEL_PREFIX)) {
      // The per-user channel: only for a connection signed in as that user.
      if (connection.userId === null || channel !== userChannel(connection.userId)) {
        this.subscriptionError(connection, channel, "Sign in as this user first", 401);
        return;
      }
    } else if (isPrivate(channel)) {
      if (!authMatches(this.app, data.auth, channelAuth(this.app, connection.socketId, channel))) {
        this.subscriptionError(connection, channel, "Invalid signature", 401);
        return;
      }
    } else if (isPresence(channel)) {
      const channelData = typeof data.channel_data === "string" ? data.channel_data : "";
      if (!authMatches(this.app, data.auth, channelAuth(this.app, connection.socketId, channel, channelData))) {
        this.subscriptionError(connection, channel, "Invalid signature", 401);
        return;
      }
      const parsed = safeParse(channelData) as { user_id?: unknown; user_info?: unknown } | null;
      if (!parsed || (typeof parsed.user_id !== "string" && typeof parsed.user_id !== "number")) {
        this.subscriptionError(connection, channel, "channel_data must hold a user_id", 400);
        return;
      }
      this.join(connection, channel, String(parsed.user_id), parsed.user_info ?? null);
      return;
    }
    this.addToChannel(connection, channel);
    this.send(connection.ws, { event: "pusher_internal:subscription_succeeded", channel, data: "{}" });
  }

  private addToChannel(connection: Connection, channel: string): void {
    connection.channels.add(channel);
    connection.ws.subscribe(channel);
    let sockets = this.channels.get(channel);
    if (!sockets) this.channels.set(channel, (sockets = new Set()));
    sockets.add(connection.socketId);
  }

  private join(connection: Connection, channel: string, userId: string, info: unknown): void {
    if (connection.presence.has(channel)) this.leave(connection, channel);
    this.addToChannel(connection, channel);
    connection.presence.set(channel, userId);
    let members = this.members.get(channel);
    if (!members) this.members.set(channel, (members = new Map()));
    const existing = members.get(userId);
    if (existing) existing.sockets.add(connection.socketId);
    else members.set(userId, { info, sockets: new Set([connection.socketId]) });
    const hash = Object.fromEntries([...members].map(([id, member]) => [id, member.info]));
    this.send(connection.ws, {
      event: "pusher_internal:subscription_succeeded",
      channel,
      data: JSON.stringify({ presence: { ids: Object.keys(hash), hash, count: members.size } }),
    });
    // Others learn of a user only when their first connection joins.
    if (!existing)
      this.publish(
        [channel],
        "pusher_internal:member_added",
        JSON.stringify({ user_id: userId, user_info: info }),
        connection.socketId,
      );
  }

  private leave(connection: Connection, channel: string): void {
    const userId = connection.presence.get(channel);
    connection.presence.delete(channel);
    if (userId === undefined) return;
    const members = this.members.get(channel);
    const member = members?.get(userId);
    if (!members || !member) return;
    member.sockets.delete(connection.socketId);
    if (member.sockets.size === 0) {
      members.delete(userId);
      if (members.size === 0) this.members.delete(channel);
      this.publish(
        [channel],
        "pusher_internal:member_removed",
        JSON.stringify({ user_id: userId }),
        connection.socketId,
      );
    }
  }

  private unsubscribe(connection: Connection, channel: string): void {
    if (!connection.channels.has(channel)) return;
    connection.channels.delete(channel);
    if (connection.ws.readyState === 1) connection.ws.unsubscribe(channel);
    const sockets = this.channels.get(channel);
    sockets?.delete(connection.socketId);
    if (sockets && sockets.size === 0) this.channels.delete(channel);
    if (isPresence(channel)) this.leave(connection, channel);
  }

  private signin(connection: Connection, data: Record<string, unknown>): void {
    const userData = typeof data.user_data === "string" ? data.user_data : "";
    const parsed = safeParse(userData) as { id?: unknown } | null;
    const valid =
      parsed &&
      (typeof parsed.id === "string" || typeof parsed.id === "number") &&
      authMatches(this.app, data.auth, userAuth(this.app, connection.socketId, userData));
    if (!valid) {
      this.error(connection.ws, CODES.unauthorized, "Invalid user authentication");
      connection.ws.close(CODES.unauthorized, "Unauthorized");
      return;
    }
    const userId = String(parsed!.id);
    // Signing in again as someone else leaves the first user's channel.
    if (connection.userId !== null && connection.userId !== userId) {
      connection.ws.unsubscribe(userChannel(connection.userId));
      const previous = this.userSockets.get(connection.userId);
      previous?.delete(connection.socketId);
      if (previous && previous.size === 0) this.userSockets.delete(connection.userId);
    }
    connection.userId = userId;
    let sockets = this.userSockets.get(userId);
    if (!sockets) this.userSockets.set(userId, (sockets = new Set()));
    sockets.add(connection.socketId);
    connection.ws.subscribe(userChannel(userId));
    this.send(connection.ws, { event: "pusher:signin_success", data: JSON.stringify({ user_data: userData }) });
  }

  private clientEvent(connection: Connection, event: string, channel: string, data: unknown): void {
    if (event.length > MAX_EVENT_NAME) {
      this.error(connection.ws, null, `Client event names are at most ${MAX_EVENT_NAME} characters`);
      return;
    }
    if (!(isPrivate(channel) || isPresence(channel)) || !connection.channels.has(channel)) {
      this.error(
        connection.ws,
        null,
        "Client events need a private or presence channel the connection is subscribed to",
      );
      return;
    }
    if (isEncrypted(channel)) {
      this.error(connection.ws, null, "Client events are not relayed on private-encrypted- channels");
      return;
    }
    const now = Date.now();
    const window = connection.clientEvents;
    if (now - window.windowStart >= 1000) {
      window.windowStart = now;
      window.count = 0;
    }
    if (++window.count > this.options.clientEventsPerSecond) {
      this.error(connection.ws, CODES.clientEventRateLimit, "Client event rejected due to rate limit");
      return;
    }
    const message: Record<string, unknown> = { event, channel, data };
    const userId = connection.presence.get(channel);
    if (userId !== undefined) message.user_id = userId;
    this.fanOut(channel, JSON.stringify(message), connection.socketId);
  }

  private onClose(ws: ServerWebSocket<SocketData>): void {
    const connection = ws.data.connection;
    if (!connection) return;
    for (const channel of [...connection.channels]) this.unsubscribe(connection, channel);
    if (connection.userId !== null) {
      const sockets = this.userSockets.get(connection.userId);
      sockets?.delete(connection.socketId);
      if (sockets && sockets.size === 0) this.userSockets.delete(connection.userId);
    }
    this.connections.delete(connection.socketId);
    const open = (this.addresses.get(connection.address) ?? 1) - 1;
    if (open > 0) this.addresses.set(connection.address, open);
    else this.addresses.delete(connection.address);
  }

  /** Pings connections silent for the activity timeout; closes those that did not answer in time (4201). */
  checkLiveness(now = Date.now()): void {
    for (const connection of this.connections.values()) {
      if (connection.pingSentAt !== null) {
        if (now - connection.pingSentAt > this.options.pongTimeout * 1000)
          connection.ws.close(CODES.pongTimeout, "Pong reply not received");
      } else if (now - connection.lastSeen > this.options.activityTimeout * 1000) {
        connection.pingSentAt = now;
        this.send(connection.ws, { event: "pusher:ping", data: "{}" });
      }
    }
  }

  // ── Publishing ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Sends `payload` to every connection on `channel` but one. Each channel is a Bun topic, so uWebSockets writes
   * the frames of one loop turn together instead of one write per socket; `ws.publish` from the excluded socket
   * reaches everyone else.
   */
  private fanOut(channel: string, payload: string, exceptSocketId?: string): number {
    const sockets = this.subscribers(channel);
    if (!sockets || sockets.size === 0 || !this.server) return 0;
    const excluded = exceptSocketId && sockets.has(exceptSocketId) ? this.connections.get(exceptSocketId) : undefined;
    if (excluded) {
      excluded.ws.publish(channel, payload);
      return sockets.size - 1;
    }
    this.server.publish(channel, payload);
    return sockets.size;
  }

  /** The connections on `channel`: its subscribers, or for a per-user channel the user's signed-in connections. */
  private subscribers(channel: string): Set<string> | undefined {
    return channel.startsWith(USER_CHANNEL_PREFIX)
      ? this.userSockets.get(channel.slice(USER_CHANNEL_PREFIX.length))
      : this.channels.get(channel);
  }

  /** What `info` asks about a channel: its connections (subscription_count), its users if presence (user_count). */
  private channelInfo(channel: string, info: Set<InfoAttribute>): Partial<Record<InfoAttribute, number>> {
    const result: Partial<Record<InfoAttribute, number>> = {};
    if (info.has("user_count") && isPresence(channel)) result.user_count = this.members.get(channel)?.size ?? 0;
    if (info.has("subscription_count")) result.subscription_count = this.subscribers(channel)?.size ?? 0;
    return result;
  }

  /** Sends `event` with `data` (a string, as the protocol carries it) on each channel, leaving out one socket. */
  publish(channels: string[], event: string, data: string, exceptSocketId?: string): number {
    let delivered = 0;
    for (const channel of channels)
      delivered += this.fanOut(channel, JSON.stringify({ event, channel, data }), exceptSocketId);
    return delivered;
  }

  /**
   * Records that Mesa's authorization endpoints signed for `socketId` as `userId`. False, recording nothing, when
   * that connection already acts for someone else (authorized or signed in as another user): Mesa then refuses.
   * An unknown socket id records nothing (no live connection can use the signature).
   */
  authorizeSocket(socketId: string, userId: string): boolean {
    const connection = this.connections.get(socketId);
    if (!connection) return true;
    const someoneElse = (id: string | null) => id !== null && id !== userId;
    if (someoneElse(connection.authorizedUserId) || someoneElse(connection.userId)) return false;
    connection.authorizedUserId = userId;
    return true;
  }

  /**
   * Closes every connection that acts for `userId` (signed in as them, or authorized for them by Mesa): each gets
   * pusher:error 4009 first, then the close 4009.
   */
  terminateUserConnections(userId: string): number {
    const closing = [...this.connections.values()].filter((c) => c.userId === userId || c.authorizedUserId === userId);
    for (const connection of closing) {
      this.error(connection.ws, CODES.unauthorized, "Connections terminated by the app");
      connection.ws.close(CODES.unauthorized, "Connections terminated by the app");
    }
    return closing.length;
  }

  /**
   * Checks one event of `POST /events` (`single`) or `/batch_events`: its name, data (a string, within
   * maxMessageBytes), channels and `info`. A batch event names one `channel`; a single one `channel` or `channels`.
   * Returns the event, or the status and message that refuse the request.
   */
  private checkEvent(event: unknown, single: boolean): ApiEvent | { status: 400 | 413; error: string } {
    const refuse = (error: string, status: 400 | 413 = 400) => ({ status, error });
    if (!event || typeof event !== "object" || Array.isArray(event)) return refuse("Each event must be a JSON object");
    const { name, data, channel, channels, socket_id: socketId, info } = event as Record<string, unknown>;
    if (typeof name !== "string" || name === "") return refuse("Each event needs a name");
    if (name.length > MAX_EVENT_NAME) return refuse(`Event names are at most ${MAX_EVENT_NAME} characters`);
    if (typeof data !== "string") return refuse("Each event needs data, a string");
    if (Buffer.byteLength(data) > this.options.maxMessageBytes)
      return refuse(`Event data larger than ${this.options.maxMessageBytes} bytes`, 413);
    let names: unknown[];
    if (single && channels !== undefined) {
      if (!Array.isArray(channels)) return refuse("channels must be a list of channel names");
      names = channels;
    } else if (channel !== undefined) names = [channel];
    else return refuse(single ? "Each event needs channel or channels" : "Each batch event needs a channel");
    if (names.length === 0) return refuse("Each event needs at least one channel");
    if (names.length > MAX_EVENT_CHANNELS)
      return refuse(`An event goes to at most ${MAX_EVENT_CHANNELS} channels, not ${names.length}`);
    for (const each of names) {
      const problem = channelNameProblem(each);
      if (problem) return refuse(problem.message);
    }
    const asked = info === undefined ? null : parseInfo(info, ["user_count", "subscription_count"]);
    if (typeof asked === "string") return refuse(asked);
    return {
      name,
      data,
      // Each channel once, however often it is named.
      channels: [...new Set(names as string[])],
      socketId: typeof socketId === "string" ? socketId : undefined,
      info: asked,
    };
  }

  // ── HTTP API (what the `pusher` SDK calls) ──────────────────────────────────────────────────────────────

  /** Answers `/apps/{id}/…`; the caller has matched the prefix. */
  async handleApi(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let parts: string[];
    try {
      parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      return Response.json({ error: "Malformed path: an escape (%..) is not UTF-8" }, { status: 400 });
    }
    // ["apps", id, ...rest]
    if (parts[0] !== "apps" || parts[1] !== this.app.id)
      return Response.json({ error: "Unknown app" }, { status: 404 });
    const body = request.method === "POST" ? await request.text() : "";
    if (!apiRequestValid(this.app, request.method, url.pathname, url.searchParams, body))
      return Response.json({ error: "Invalid signature" }, { status: 401 });
    const rest = parts.slice(2);
    const json = (value: unknown, status = 200) => Response.json(value, { status });
    const parse = (): Record<string, unknown> | null => {
      const value = safeParse(body);
      return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    };

    if (request.method === "POST" && rest.length === 1 && (rest[0] === "events" || rest[0] === "batch_events")) {
      const payload = parse();
      if (!payload) return json({ error: "Body must be a JSON object" }, 400);
      const single = rest[0] === "events";
      const given = single ? [payload] : Array.isArray(payload.batch) ? (payload.batch as unknown[]) : null;
      if (!given || given.length > MAX_BATCH_EVENTS)
        return json({ error: `batch must be a list of at most ${MAX_BATCH_EVENTS} events` }, 400);
      const events: ApiEvent[] = [];
      for (const each of given) {
        const checked = this.checkEvent(each, single);
        if ("status" in checked) return json({ error: checked.error }, checked.status);
        events.push(checked);
      }
      for (const event of events) this.publish(event.channels, event.name, event.data, event.socketId);
      // With `info`: the attributes of each channel (events), or of each event's channel (batch, in order).
      if (single) {
        const [{ channels, info }] = events;
        return json(info ? { channels: Object.fromEntries(channels.map((c) => [c, this.channelInfo(c, info)])) } : {});
      }
      if (!events.some((event) => event.info)) return json({});
      return json({ batch: events.map((e) => (e.info ? this.channelInfo(e.channels[0], e.info) : {})) });
    }

    if (request.method === "GET" && rest.length === 1 && rest[0] === "channels") {
      const prefix = url.searchParams.get("filter_by_prefix") ?? "";
      const info = parseInfo(url.searchParams.get("info"), ["user_count"]);
      if (typeof info === "string") return json({ error: info }, 400);
      if (info.has("user_count") && !isPresence(prefix))
        return json({ error: "info=user_count needs filter_by_prefix=presence-" }, 400);
      const channels: Record<string, Record<string, number>> = {};
      for (const name of this.channels.keys()) {
        // Per-user channels (#server-to-user-…) are the server's own, not the app's.
        if (name.startsWith("#") || !name.startsWith(prefix)) continue;
        channels[name] = this.channelInfo(name, info);
      }
      return json({ channels });
    }

    if (request.method === "GET" && (rest.length === 2 || rest.length === 3) && rest[0] === "channels") {
      const name = rest[1];
      const problem = channelNameProblem(name);
      if (problem) return json({ error: problem.message }, 400);
      if (rest.length === 3) {
        if (rest[2] !== "users") return json({ error: "Not found" }, 404);
        if (!isPresence(name)) return json({ error: "Only presence channels have users" }, 400);
        return json({ users: [...(this.members.get(name)?.keys() ?? [])].map((id) => ({ id })) });
      }
      const info = parseInfo(url.searchParams.get("info"), ["user_count", "subscription_count"]);
      if (typeof info === "string") return json({ error: info }, 400);
      if (info.has("user_count") && !isPresence(name))
        return json({ error: "user_count is only for presence channels" }, 400);
      return json({ occupied: (this.subscribers(name)?.size ?? 0) > 0, ...this.channelInfo(name, info) });
    }

    if (request.method === "POST" && rest.length === 3 && rest[0] === "users" && rest[2] === "terminate_connections") {
      this.terminateUserConnections(rest[1]);
      return json({});
    }

    return json({ error: "Not found" }, 404);
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
