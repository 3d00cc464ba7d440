/** Small cryptographic helpers used across Mesa. */

/** HMAC-SHA256 of `data` with the app key, hex. */
export function sign(key: string, data: string): string {
  return new Bun.CryptoHasher("sha256", key).update(data).digest("hex");
}

export function sha256(data: string): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

export function randomToken(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}
