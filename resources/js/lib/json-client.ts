/**
 * Mesa's JSON requests outside the page protocol (the till's diner search and keep-alive, the meal schedule's saves,
 * the report and requirements jobs, live costs): a same-origin fetch with the session cookie, and on every write
 * the CSRF token of the XSRF-TOKEN cookie. The answer is never thrown: the caller reads its status and body.
 */

/** The CSRF token the server set in the XSRF-TOKEN cookie ("" when there is none). */
export function xsrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** What a JSON request answered: its status and its body (null when it had none or was not JSON). */
export interface JsonAnswer<T> {
  status: number;
  body: T | null;
}

export interface JsonRequestOptions {
  /** Cancels the request (a newer search, a closed dialog); the fetch then rejects with an AbortError. */
  signal?: AbortSignal;
  /** This tab's realtime socket id, sent as X-Socket-ID so the live event of its own write is not sent back to it. */
  socketId?: string | null;
}

/** Sends one JSON request; a body is sent when given, the CSRF token on every method but GET. */
export async function requestJson<T>(
  method: "GET" | "POST" | "PUT",
  url: string,
  body?: unknown,
  options: JsonRequestOptions = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-XSRF-TOKEN"] = xsrfToken();
  }
  if (options.socketId) headers["X-Socket-ID"] = options.socketId;
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    signal: options.signal,
  });
  let parsed: T | null = null;
  try {
    parsed = response.status === 204 ? null : ((await response.json()) as T);
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed };
}

/** The messages of a 422 answer ({message, errors: {field: text}}), keyed by field. */
export function fieldErrors(body: unknown): Record<string, string> {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== "object") return {};
  return Object.fromEntries(
    Object.entries(errors as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}
