/** A new key for one sale attempt: a UUID, made from random bytes where randomUUID is missing (plain http on a LAN). */
export function newSaleKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
