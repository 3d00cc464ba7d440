/**
 * The client's address. Behind a reverse proxy the connecting address is the proxy's, and the client's is in
 * X-Forwarded-For; that header is believed only when the connection comes from a proxy listed in TRUSTED_PROXIES
 * (src/config.ts), because anyone else can write whatever they like into it.
 *
 * Addresses are handled as eight 16-bit groups; an IPv4 address is its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so
 * "10.0.0.0/8" also matches a socket that reports "::ffff:10.0.0.1".
 */

type Groups = number[];

function parseIPv4(text: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const bytes = match.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The 16-bit groups of one side of "::"; a dotted IPv4 tail is allowed only at the very end of the address. */
function parseGroups(part: string, ipv4TailAllowed: boolean): Groups | null {
  if (part === "") return [];
  const pieces = part.split(":");
  const groups: Groups = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (ipv4TailAllowed && i === pieces.length - 1 && piece.includes(".")) {
      const bytes = parseIPv4(piece);
      if (!bytes) return null;
      groups.push((bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3]);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIPv6(text: string): Groups | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  if (halves.length === 1) {
    const groups = parseGroups(text, true);
    return groups && groups.length === 8 ? groups : null;
  }
  const head = parseGroups(halves[0], false);
  const tail = parseGroups(halves[1], true);
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** An IPv4 or IPv6 address as eight groups, or null when the text is not one (ports and brackets are not accepted). */
function parseAddress(text: string): Groups | null {
  const trimmed = text.trim();
  if (trimmed.includes(":")) return parseIPv6(trimmed.replace(/%[\w.-]+$/, ""));
  const bytes = parseIPv4(trimmed);
  return bytes ? [0, 0, 0, 0, 0, 0xffff, (bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3]] : null;
}

function isIPv4Mapped(groups: Groups): boolean {
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

/** The usual text of an address: dotted for IPv4 (also when it came IPv4-mapped), compressed lower-case IPv6 otherwise. */
function formatAddress(groups: Groups): string {
  if (isIPv4Mapped(groups)) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

interface Range {
  groups: Groups;
  bits: number;
}

/** "10.0.0.0/8", "2001:db8::/32" or a single address; an IPv4 prefix length counts within the IPv4-mapped form. */
function parseRange(entry: string): Range | null {
  const [address, bitsText, extra] = entry.trim().split("/");
  if (extra !== undefined) return null;
  const groups = parseAddress(address);
  if (!groups) return null;
  const ipv4 = !address.includes(":");
  const maxBits = ipv4 ? 32 : 128;
  const bits = bitsText === undefined ? maxBits : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= maxBits)) return null;
  return { groups, bits: ipv4 ? 96 + bits : bits };
}

function inRange(groups: Groups, range: Range): boolean {
  for (let i = 0; i < 8; i++) {
    const bits = Math.min(16, Math.max(0, range.bits - i * 16));
    if (bits === 0) return true;
    const mask = (0xffff << (16 - bits)) & 0xffff;
    if ((groups[i] & mask) !== (range.groups[i] & mask)) return false;
  }
  return true;
}

/**
 * The client's address: the connecting address, unless it is a trusted proxy; then X-Forwarded-For is walked from
 * the right, past every trusted hop, to the first address that is not trusted. An entry that is not an address
 * stops the walk at the last address vouched for. Null when the connecting address is unknown.
 */
export function clientAddress(socketAddress: string | null, request: Request, trustedProxies: string[]): string | null {
  if (socketAddress === null) return null;
  let current = parseAddress(socketAddress);
  if (!current) return socketAddress;
  const ranges = trustedProxies.map(parseRange).filter((range): range is Range => range !== null);
  const trusted = (groups: Groups) => ranges.some((range) => inRange(groups, range));
  if (!trusted(current)) return formatAddress(current);
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").reverse();
  for (const hop of hops) {
    const next = parseAddress(hop);
    if (!next) break;
    current = next;
    if (!trusted(current)) break;
  }
  return formatAddress(current);
}

/**
 * The address that rate limits count by: an IPv4 address whole, an IPv6 address by its /64, which one household,
 * office or camp network gets whole (counting single IPv6 addresses would let one client change address at will).
 */
export function throttleAddress(address: string | null): string | null {
  if (address === null) return null;
  const groups = parseAddress(address);
  if (!groups) return address;
  if (isIPv4Mapped(groups)) return formatAddress(groups);
  return `${formatAddress([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
