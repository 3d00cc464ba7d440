/**
 * Signed links (e-mail verification): the path and its expiry are signed with the app key, so a link cannot be
 * altered or used after it expires.
 */
import { safeEqual, sign } from "../crypto";

/** `/path?expires=…&signature=…`, valid until `expiresAt` (ms). */
export function signedPath(key: string, path: string, expiresAt: number): string {
  const unsigned = `${path}?expires=${Math.floor(expiresAt / 1000)}`;
  return `${unsigned}&signature=${sign(key, unsigned)}`;
}

export function hasValidSignature(key: string, url: URL, now = Date.now()): boolean {
  const expires = url.searchParams.get("expires");
  const signature = url.searchParams.get("signature");
  if (!expires || !signature || !/^\d+$/.test(expires)) return false;
  if (Number(expires) * 1000 < now) return false;
  return safeEqual(sign(key, `${url.pathname}?expires=${expires}`), signature);
}
