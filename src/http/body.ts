/**
 * Request bodies and query strings into plain objects. JSON as sent; forms and query strings with bracket
 * keys (`a[]=1`, `a[b]=2`, `a[0][c]=3`) into nested objects and arrays, as the page client encodes them.
 * Multipart bodies (files) are read only on routes that accept them.
 */
export class UnsupportedMediaType extends Error {}
export class PayloadTooLarge extends Error {}
export class MalformedBody extends Error {}

export type Input = Record<string, unknown>;

function assign(target: Input, key: string, value: unknown): void {
  const parts = key.replace(/\]/g, "").split("[");
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const last = i === parts.length - 1;
    if (part === "__proto__" || part === "constructor" || part === "prototype") return;
    if (last) {
      if (Array.isArray(node)) part === "" ? node.push(value) : (node[Number(part)] = value);
      else if (part === "") return;
      else node[part] = value;
      return;
    }
    const nextIsList = parts[i + 1] === "" || /^\d+$/.test(parts[i + 1]);
    const container: Record<string, unknown> | unknown[] = Array.isArray(node) ? node : node;
    const existing = Array.isArray(container) ? container[part === "" ? container.length : Number(part)] : container[part];
    let child = existing;
    if (typeof child !== "object" || child === null) {
      child = nextIsList ? [] : {};
      if (Array.isArray(container)) container[part === "" ? container.length : Number(part)] = child;
      else container[part] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  }
}

/** Turns form or query entries into a nested object. */
export function entriesToInput(entries: Iterable<[string, unknown]>): Input {
  const input: Input = {};
  for (const [key, value] of entries) assign(input, key, value);
  return input;
}

export interface BodyOptions {
  multipart: boolean;
  maxBytes: number;
}

/** Reads the body of a POST, PUT, PATCH or DELETE request. */
export async function parseBody(request: Request, options: BodyOptions): Promise<Input> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > options.maxBytes) throw new PayloadTooLarge();
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "") {
    const text = await request.text();
    if (text.length > 0) throw new UnsupportedMediaType();
    return {};
  }
  if (type === "application/json") {
    const text = await request.text();
    if (text.length > options.maxBytes) throw new PayloadTooLarge();
    if (text.trim() === "") return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new MalformedBody();
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new MalformedBody();
    return parsed as Input;
  }
  if (type === "application/x-www-form-urlencoded") {
    const text = await request.text();
    if (text.length > options.maxBytes) throw new PayloadTooLarge();
    return entriesToInput(new URLSearchParams(text));
  }
  if (type === "multipart/form-data") {
    if (!options.multipart) throw new UnsupportedMediaType();
    const form = await request.formData();
    return entriesToInput(form.entries() as Iterable<[string, unknown]>);
  }
  throw new UnsupportedMediaType();
}
