/**
 * Request bodies and query strings into plain objects. JSON as sent; forms and query strings with bracket
 * keys (`a[]=1`, `a[b]=2`, `a[0][c]=3`) into nested objects and arrays, as the page client encodes them.
 * Multipart bodies (files) are read only on routes that accept them.
 *
 * Bounds come before work: the body is read as a stream and abandoned past the route's byte limit, and what a
 * body or query string may build is capped (fields, nesting depth, array indexes, key length) while it is built,
 * so no request makes the server walk a structure larger than the bytes it sent. Breaking a bound answers 413
 * (too many bytes) or 400 (too many fields, too deep, an index too large) at once.
 */
export class UnsupportedMediaType extends Error {}
export class PayloadTooLarge extends Error {}
export class MalformedBody extends Error {}

export type Input = Record<string, unknown>;

/** What one body or query string may build. */
export const INPUT_LIMITS = {
  /** Fields (form entries, query parameters, or JSON values counted at every level). */
  maxFields: 1000,
  /** Levels of nesting below the top (`a[b][c]` is 2). */
  maxDepth: 8,
  /** Items of one array; an index at or above this is refused rather than building a sparse array. */
  maxItems: 1000,
  /** Characters of one form key or query-parameter name. */
  maxKeyLength: 256,
} as const;

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const INDEX = /^\d+$/;

function keyParts(key: string): string[] {
  if (key.length > INPUT_LIMITS.maxKeyLength) throw new MalformedBody();
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  // `a[b][c]` → ["a", "b", "c"]; anything after the last `]` is ignored, as PHP and qs do.
  const parts = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1]);
  if (parts.length - 1 > INPUT_LIMITS.maxDepth) throw new MalformedBody();
  return parts;
}

/** The array slot `part` names: the end for `[]`, the index for digits; anything else does not fit an array. */
function arraySlot(list: unknown[], part: string): number {
  if (part === "") return list.length;
  if (!INDEX.test(part)) throw new MalformedBody();
  return Number(part);
}

function assign(target: Input, key: string, value: unknown): void {
  const parts = keyParts(key);
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (FORBIDDEN_KEYS.has(part)) return;
    const last = i === parts.length - 1;
    let slot: number | string;
    if (Array.isArray(node)) {
      slot = arraySlot(node, part);
      if (slot >= INPUT_LIMITS.maxItems) throw new MalformedBody();
    } else {
      if (part === "") return;
      slot = part;
    }
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[slot] = value;
      return;
    }
    let child = container[slot];
    if (typeof child !== "object" || child === null || child instanceof Blob) {
      const next = parts[i + 1];
      child = next === "" || INDEX.test(next) ? [] : {};
      container[slot] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  }
}

/** Turns form or query entries into a nested object, within INPUT_LIMITS (MalformedBody otherwise). */
export function entriesToInput(entries: Iterable<[string, unknown]>): Input {
  const input: Input = {};
  let count = 0;
  for (const [key, value] of entries) {
    if (++count > INPUT_LIMITS.maxFields) throw new MalformedBody();
    assign(input, key, value);
  }
  return input;
}

/** Checks a parsed JSON value against INPUT_LIMITS; the walk is bounded by the bytes that built it. */
function checkJsonBounds(value: unknown): void {
  let fields = 0;
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== "object" || node === null) return;
    if (depth > INPUT_LIMITS.maxDepth) throw new MalformedBody();
    const children = Array.isArray(node) ? node : Object.values(node);
    if (Array.isArray(node) && node.length > INPUT_LIMITS.maxItems) throw new MalformedBody();
    fields += children.length;
    if (fields > INPUT_LIMITS.maxFields) throw new MalformedBody();
    for (const child of children) visit(child, depth + 1);
  };
  visit(value, 0);
}

/** Reads at most `maxBytes` of the body, giving up (and cancelling the upload) as soon as it is exceeded. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw new PayloadTooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

export interface BodyOptions {
  multipart: boolean;
  maxBytes: number;
}

const decoder = new TextDecoder();

/** Reads the body of a POST, PUT, PATCH or DELETE request within the route's limits. */
export async function parseBody(request: Request, options: BodyOptions): Promise<Input> {
  const contentType = request.headers.get("content-type") ?? "";
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "multipart/form-data" && !options.multipart) throw new UnsupportedMediaType();
  if (type !== "" && type !== "application/json" && type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") throw new UnsupportedMediaType();
  const bytes = await readBodyBytes(request, options.maxBytes);
  if (type === "") {
    if (bytes.byteLength > 0) throw new UnsupportedMediaType();
    return {};
  }
  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
    } catch {
      throw new MalformedBody();
    }
    return entriesToInput(form.entries() as Iterable<[string, unknown]>);
  }
  const text = decoder.decode(bytes);
  if (type === "application/x-www-form-urlencoded") return entriesToInput(new URLSearchParams(text));
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MalformedBody();
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new MalformedBody();
  checkJsonBounds(parsed);
  return parsed as Input;
}
