/**
 * The signatures of the Pusher protocol, shared by Mesa's authorization endpoints (which sign) and the embedded
 * server (which checks, in constant time).
 */
import { safeEqual, sign } from "../crypto";

export interface AppCredentials {
  id: string;
  key: string;
  secret: string;
}

/** `auth` for a private channel, or a presence channel with its `channel_data`. */
export function channelAuth(app: AppCredentials, socketId: string, channel: string, channelData?: string): string {
  const subject = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${app.key}:${sign(app.secret, subject)}`;
}

/** `auth` for user authentication (pusher:signin). */
export function userAuth(app: AppCredentials, socketId: string, userData: string): string {
  return `${app.key}:${sign(app.secret, `${socketId}::user::${userData}`)}`;
}

/** Checks an `auth` value ("key:signature") against the expected one. */
export function authMatches(app: AppCredentials, given: unknown, expected: string): boolean {
  return typeof given === "string" && safeEqual(given, expected);
}

/**
 * Checks the signature of an HTTP API request as the `pusher` SDK makes it:
 * HMAC-SHA256(secret, "METHOD\npath\nquery without auth_signature, keys in lowercase, sorted"), with body_md5 for a
 * body and a timestamp no older than 600 seconds.
 */
export function apiRequestValid(
  app: AppCredentials,
  method: string,
  path: string,
  query: URLSearchParams,
  body: string,
  now = Date.now(),
): boolean {
  const signature = query.get("auth_signature");
  if (!signature || query.get("auth_key") !== app.key) return false;
  const timestamp = Number(query.get("auth_timestamp"));
  if (!Number.isFinite(timestamp) || Math.abs(now / 1000 - timestamp) > 600) return false;
  if (body.length > 0) {
    const md5 = new Bun.CryptoHasher("md5").update(body).digest("hex");
    if (query.get("body_md5") !== md5) return false;
  }
  const params = [...query.entries()]
    .filter(([key]) => key !== "auth_signature")
    .map(([key, value]) => [key.toLowerCase(), value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signed = [method.toUpperCase(), path, params.map(([k, v]) => `${k}=${v}`).join("&")].join("\n");
  return safeEqual(sign(app.secret, signed), signature);
}
