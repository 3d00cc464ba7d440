/**
 * Every setting Mesa reads, typed, with its default. Settings come from the environment (Bun loads `.env`);
 * `.env.example` lists each one. A bad value stops start-up with a message that names the setting.
 */
import { resolve } from "node:path";
import { emailLookalike } from "./domain/accounts/email-address";
import { LOG_LEVELS, type LogLevel } from "./log";

export const LOCALES = ["es", "en"] as const;
export type Locale = (typeof LOCALES)[number];

export interface Config {
  env: "production" | "development" | "test";
  port: number;
  host: string;
  appUrl: string;
  appName: string;
  locale: Locale;
  timezone: string;
  currency: string;
  /** Digits of a tax id (RUC); 11-digit ids also have their check digit verified. */
  rucLength: number;
  /** Digits of a national id (DNI) of users, blacklist entries and diners. */
  dniLength: number;
  /** IGV rate in force, in basis points (1800 = 18 %): every price includes it, and each sale keeps the rate it used. */
  igvRateBasisPoints: number;
  /** What an other-unit sale (a diner away from their home cafe) is charged, in hundredths of the price (200 = ×2). */
  otherUnitFactorPercent: number;
  /** How long an open point of sale keeps its session alive after signing in, in hours (an absolute limit). */
  posSessionHours: number;
  /**
   * On SIGTERM or SIGINT, how long Mesa waits for the requests in flight and the running jobs before it exits
   * anyway, in milliseconds (SHUTDOWN_GRACE_SECONDS).
   */
  shutdownGraceMs: number;
  /** Below this much free space on the database's disk, `/ready` says not ready (MIN_FREE_DISK_MB). */
  minFreeDiskBytes: number;
  dbPath: string;
  sessionCookie: string;
  sessionLifetimeMinutes: number;
  storagePath: string;
  logRequests: boolean;
  /** How much the process's JSON log says (src/log.ts). */
  logLevel: LogLevel;
  /** The bearer token `/metrics` asks for; null: metrics are not served. */
  metricsToken: string | null;
  /** Secret for signed links and tokens; when unset, one is generated once and kept in STORAGE_PATH/app.key. */
  appKey: string | null;
  /** Continuous replication of the database by Litestream (src/replication.ts); null: off. */
  replica: ReplicaSettings | null;
  registrationEnabled: boolean;
  /**
   * Whether an empty database gets the demo data set (business, places, client companies, properties and people
   * with a known password) besides the reference data. On by default so a first `npm start` can be tried at once;
   * off for a real deployment.
   */
  demoData: boolean;
  passwordMinLength: number;
  /** How long a password confirmation is remembered before sensitive actions, in seconds. */
  passwordConfirmTimeout: number;
  /**
   * Reverse proxies whose X-Forwarded-For is believed (addresses or CIDR ranges). Empty: the connecting address
   * is the client's, whatever the headers say.
   */
  trustedProxies: string[];
  /**
   * Realtime: "embedded" serves the Pusher protocol from Mesa itself; "pusher" uses a hosted provider or an
   * existing cluster. Publishing always goes through the `pusher` SDK with these credentials.
   */
  broadcast: {
    driver: "embedded" | "pusher";
    appId: string;
    key: string;
    /** Null means: derive one from the app key (embedded driver only). */
    secret: string | null;
    cluster: string;
    host: string;
    port: number;
    scheme: "http" | "https";
    /** Channels one WebSocket connection may hold at once (embedded server). */
    maxChannelsPerConnection: number;
    /** Open WebSocket connections from one address (a whole camp may share one address behind NAT). */
    maxConnectionsPerAddress: number;
    /** Where Mesa's realtime server, run as a process of its own (src/realtime-server.ts), listens: HOST by default. */
    serverHost: string;
  };
  mail: {
    mailer: "file" | "smtp";
    path: string;
    fromAddress: string;
    fromName: string;
    smtp: { host: string; port: number; username: string; password: string; secure: boolean };
  };
}

/** Where and how often Litestream replicates the database (REPLICA_* settings, docs/operations.md). */
export interface ReplicaSettings {
  /** A folder ("file") or an S3-compatible bucket and path ("s3"). */
  type: "file" | "s3";
  /** file: the folder's absolute path; s3: the URL, s3://bucket/path. */
  location: string;
  /** s3: the endpoint of an S3-compatible service other than AWS (MinIO, Cloudflare R2…); empty for AWS. */
  endpoint: string;
  region: string;
  /** How often the new WAL pages Litestream read (every second) are shipped (Go duration, "1s"). */
  syncInterval: string;
  /** How often a whole snapshot is written (Go duration, "6h"). */
  snapshotInterval: string;
  /** How far back a restore can go (Go duration, "72h"). */
  retention: string;
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`Invalid setting ${setting}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value.trim() === "" ? fallback : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name, String(fallback));
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `expected a number from ${min} to ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = text(env, name, fallback);
  if (!allowed.includes(raw as T)) throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got "${raw}"`);
  return raw as T;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name, fallback ? "true" : "false").toLowerCase();
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function timeZone(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  try {
    new Intl.DateTimeFormat("en", { timeZone: raw });
  } catch {
    throw new ConfigError(name, `"${raw}" is not an IANA time zone such as America/Lima`);
  }
  return raw;
}

function currency(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback).toUpperCase();
  if (!/^[A-Z]{3}$/.test(raw)) throw new ConfigError(name, `expected an ISO 4217 code such as PEN, got "${raw}"`);
  return raw;
}

function url(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `"${raw}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new ConfigError(name, "expected an http or https URL");
  return raw.replace(/\/+$/, "");
}

/** A comma-separated list of IPv4/IPv6 addresses or CIDR ranges. */
function addressList(env: Env, name: string): string[] {
  const raw = text(env, name, "");
  if (raw === "") return [];
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split("/");
    const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(address) && address.split(".").every((n) => Number(n) <= 255);
    const v6 = address.includes(":") && /^[0-9a-fA-F:.]+$/.test(address);
    const maxBits = v4 ? 32 : 128;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if ((!v4 && !v6) || !bitsOk || extra !== undefined)
      throw new ConfigError(name, `"${entry}" is not an IP address or CIDR range such as 10.0.0.0/8`);
  }
  return entries;
}

/**
 * A decimal setting such as "18" or "1.5", as an integer in `scale`ths (18 × 100 = 1800); at most two decimals, within
 * min and max (in the same unit as the text).
 */
function scaled(env: Env, name: string, fallback: string, scale: number, min: number, max: number): number {
  const raw = text(env, name, fallback);
  if (!/^\d+(\.\d{1,2})?$/.test(raw)) throw new ConfigError(name, `"${raw}" is not a number such as ${fallback}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return Math.round(value * scale);
}

function appKey(env: Env): string | null {
  const raw = text(env, "APP_KEY", "");
  if (raw === "") return null;
  if (raw.length < 32) throw new ConfigError("APP_KEY", "must be at least 32 characters");
  return raw;
}

function email(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  if (!/^[^\s@]+@[^\s@]+$/.test(raw)) throw new ConfigError(name, `"${raw}" is not an e-mail address`);
  // The rule of every address Mesa stores (a host without a dot, such as localhost, is fine here).
  const lookalike = emailLookalike(raw);
  if (lookalike)
    throw new ConfigError(name, `"${lookalike.revealed}" could pass for another address (${lookalike.problem})`);
  return raw;
}

/** METRICS_TOKEN: empty (no metrics served), or a secret long enough not to be guessed. */
function metricsToken(env: Env): string | null {
  const token = text(env, "METRICS_TOKEN", "");
  if (token === "") return null;
  if (token.length < 24 || !/^[\x21-\x7e]+$/.test(token))
    throw new ConfigError("METRICS_TOKEN", "must be at least 24 printable characters without spaces");
  return token;
}

/** A Go duration such as 1s, 500ms, 6h or 1h30m, as Litestream reads it. */
function goDuration(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  if (!/^(\d+(ms|s|m|h))+$/.test(raw))
    throw new ConfigError(name, `expected a duration such as 1s, 6h or 1h30m, got "${raw}"`);
  return raw;
}

/**
 * REPLICA_URL: "off", a folder (a path or file:///path) or s3://bucket/path. The default is the folder
 * STORAGE_PATH/replica, except under NODE_ENV=test, where replication is off unless a test asks for it.
 */
function replicaSettings(env: Env, nodeEnv: Config["env"], storagePath: string): ReplicaSettings | null {
  const raw = text(env, "REPLICA_URL", nodeEnv === "test" ? "off" : resolve(storagePath, "replica"));
  if (raw === "off") return null;
  const common = {
    endpoint: text(env, "REPLICA_ENDPOINT", ""),
    region: text(env, "REPLICA_REGION", ""),
    syncInterval: goDuration(env, "REPLICA_SYNC_INTERVAL", "1s"),
    snapshotInterval: goDuration(env, "REPLICA_SNAPSHOT_INTERVAL", "6h"),
    retention: goDuration(env, "REPLICA_RETENTION", "72h"),
  };
  if (common.endpoint !== "" && !/^https?:\/\/[^\s/]+/.test(common.endpoint))
    throw new ConfigError("REPLICA_ENDPOINT", `expected an http or https URL, got "${common.endpoint}"`);
  if (raw.startsWith("s3://")) {
    if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\s]*)?$/.test(raw))
      throw new ConfigError("REPLICA_URL", `"${raw}" is not s3://bucket/path`);
    return { type: "s3", location: raw.replace(/\/+$/, ""), ...common };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(raw) && !raw.startsWith("file://"))
    throw new ConfigError("REPLICA_URL", `expected off, a folder, file:///folder or s3://bucket/path, got "${raw}"`);
  return { type: "file", location: resolve(raw.replace(/^file:\/\//, "")), ...common };
}

function broadcastSettings(env: Env, appUrl: string, host: string): Config["broadcast"] {
  const driver = oneOf(env, "BROADCAST_DRIVER", "embedded", ["embedded", "pusher"] as const);
  const site = new URL(appUrl);
  const siteScheme = site.protocol === "https:" ? "https" : "http";
  const sitePort = site.port ? Number(site.port) : siteScheme === "https" ? 443 : 80;
  const secret = text(env, "PUSHER_APP_SECRET", "");
  if (driver === "pusher") {
    for (const name of ["PUSHER_APP_ID", "PUSHER_APP_KEY", "PUSHER_APP_SECRET"]) {
      if (text(env, name, "") === "") throw new ConfigError(name, "is required when BROADCAST_DRIVER=pusher");
    }
  }
  return {
    driver,
    appId: text(env, "PUSHER_APP_ID", "mesa"),
    key: text(env, "PUSHER_APP_KEY", "mesa-key"),
    secret: secret === "" ? null : secret,
    cluster: text(env, "PUSHER_APP_CLUSTER", "mt1"),
    // Embedded: the browser reaches the Pusher endpoint where it reaches Mesa.
    host: text(env, "PUSHER_HOST", driver === "embedded" ? site.hostname : ""),
    port: integer(env, "PUSHER_PORT", driver === "embedded" ? sitePort : 443, 1, 65535),
    scheme: oneOf(env, "PUSHER_SCHEME", driver === "embedded" ? siteScheme : "https", ["http", "https"] as const),
    maxChannelsPerConnection: integer(env, "REALTIME_MAX_CHANNELS", 100, 1, 10000),
    maxConnectionsPerAddress: integer(env, "REALTIME_MAX_CONNECTIONS_PER_ADDRESS", 1000, 1, 1000000),
    serverHost: text(env, "REALTIME_HOST", host),
  };
}

/** Reads and checks every setting; throws ConfigError on the first bad one. */
export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf(env, "NODE_ENV", "development", ["production", "development", "test"] as const);
  const port = integer(env, "PORT", 3000, 0, 65535);
  const host = text(env, "HOST", "127.0.0.1");
  const storagePath = resolve(text(env, "STORAGE_PATH", "storage"));
  const appUrl = url(env, "APP_URL", `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`);
  return {
    env: nodeEnv,
    port,
    host,
    appUrl,
    appName: text(env, "APP_NAME", "Mesa"),
    locale: oneOf(env, "APP_LOCALE", "es", LOCALES),
    timezone: timeZone(env, "APP_TIMEZONE", "America/Lima"),
    currency: currency(env, "APP_CURRENCY", "PEN"),
    rucLength: integer(env, "RUC_LENGTH", 11, 8, 15),
    dniLength: integer(env, "DNI_LENGTH", 8, 6, 12),
    igvRateBasisPoints: scaled(env, "IGV_RATE", "18", 100, 0, 50),
    otherUnitFactorPercent: scaled(env, "OTHER_UNIT_FACTOR", "2", 100, 1, 10),
    posSessionHours: integer(env, "POS_SESSION_MAX_HOURS", 14, 1, 48),
    shutdownGraceMs: integer(env, "SHUTDOWN_GRACE_SECONDS", 10, 0, 600) * 1000,
    minFreeDiskBytes: integer(env, "MIN_FREE_DISK_MB", 100, 0, 1_000_000) * 1048576,
    dbPath: text(env, "DB_PATH", resolve(storagePath, "mesa.sqlite")),
    sessionCookie: text(env, "SESSION_COOKIE", "mesa_session"),
    sessionLifetimeMinutes: integer(env, "SESSION_LIFETIME", 120, 1, 525600),
    storagePath,
    logRequests: bool(env, "LOG_REQUESTS", nodeEnv !== "test"),
    logLevel: oneOf(env, "LOG_LEVEL", nodeEnv === "test" ? "error" : "info", LOG_LEVELS),
    metricsToken: metricsToken(env),
    appKey: appKey(env),
    replica: replicaSettings(env, nodeEnv, storagePath),
    registrationEnabled: bool(env, "REGISTRATION_ENABLED", true),
    demoData: bool(env, "DEMO_DATA", true),
    passwordMinLength: integer(env, "PASSWORD_MIN_LENGTH", 8, 8, 128),
    passwordConfirmTimeout: integer(env, "PASSWORD_CONFIRM_TIMEOUT", 10800, 60, 604800),
    trustedProxies: addressList(env, "TRUSTED_PROXIES"),
    broadcast: broadcastSettings(env, appUrl, host),
    mail: {
      mailer: oneOf(env, "MAIL_MAILER", "file", ["file", "smtp"] as const),
      path: resolve(text(env, "MAIL_PATH", resolve(storagePath, "mail"))),
      fromAddress: email(env, "MAIL_FROM_ADDRESS", "mesa@localhost"),
      fromName: text(env, "MAIL_FROM_NAME", text(env, "APP_NAME", "Mesa")),
      smtp: {
        host: text(env, "SMTP_HOST", "127.0.0.1"),
        port: integer(env, "SMTP_PORT", 587, 1, 65535),
        username: text(env, "SMTP_USERNAME", ""),
        password: text(env, "SMTP_PASSWORD", ""),
        secure: bool(env, "SMTP_SECURE", false),
      },
    },
  };
}

/** Stops a process that is starting: one plain line on standard error for the person starting it, and exit code 1. */
export function failStarting(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The settings of a process that is starting (the server, the realtime server): a bad one stops it with its message. */
export function startingConfig(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) failStarting(error.message);
    throw error;
  }
}
