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

/**
 * The array slot `part` names: the end for `[]`, the index for digits. Arrays stay dense: an index may name an item
 * already there or the next one (the page client numbers items in order), never leave holes; anything else does not
 * fit an array.
 */
function arraySlot(list: unknown[], part: string): number {
  if (part === "") return list.length;
  if (!INDEX.test(part) || part.length > 4 || Number(part) > list.length) throw new MalformedBody();
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

/**
 * Checks JSON text against INPUT_LIMITS before JSON.parse builds anything: one pass over the characters counts the
 * nesting and the values separated by commas, outside strings. A body past a bound is refused unparsed.
 */
function checkJsonText(text: string): void {
  let depth = 0;
  let fields = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > INPUT_LIMITS.maxDepth + 1) throw new MalformedBody();
      if (++fields > INPUT_LIMITS.maxFields) throw new MalformedBody();
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
    else if (c === 44 /* , */ && ++fields > INPUT_LIMITS.maxFields) throw new MalformedBody();
  }
}

/** Checks a parsed JSON value: array lengths, key lengths, and no keys that name an object's prototype. */
function checkJsonValue(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    if (node.length > INPUT_LIMITS.maxItems) throw new MalformedBody();
    for (const child of node) checkJsonValue(child);
    return;
  }
  for (const [key, child] of Object.entries(node)) {
    if (key.length > INPUT_LIMITS.maxKeyLength || FORBIDDEN_KEYS.has(key)) throw new MalformedBody();
    checkJsonValue(child);
  }
}

/** Counts the entries of a form body without splitting it; refuses one with more than maxFields. */
function checkFormText(text: string): void {
  let entries = 1;
  for (let at = text.indexOf("&"); at !== -1; at = text.indexOf("&", at + 1)) {
    if (++entries > INPUT_LIMITS.maxFields) throw new MalformedBody();
  }
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
  if (
    type !== "" &&
    type !== "application/json" &&
    type !== "application/x-www-form-urlencoded" &&
    type !== "multipart/form-data"
  )
    throw new UnsupportedMediaType();
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
  if (type === "application/x-www-form-urlencoded") {
    checkFormText(text);
    return entriesToInput(new URLSearchParams(text));
  }
  if (text.trim() === "") return {};
  checkJsonText(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MalformedBody();
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new MalformedBody();
  checkJsonValue(parsed);
  return parsed as Input;
}
