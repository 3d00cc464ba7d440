/**
 * JSON requests of the point of sale outside the page protocol (the diner search, registering a diner from the
 * sale, the keep-alive): same-origin fetch with the session cookie and the CSRF token of the XSRF-TOKEN cookie,
 * as every write needs.
 */

function xsrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** What a JSON request answered: its status and its body (null when it had none or was not JSON). */
export interface JsonAnswer<T> {
  status: number;
  body: T | null;
}

export async function requestJson<T>(
  method: "GET" | "POST" | "PUT",
  url: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-XSRF-TOKEN"] = xsrfToken();
  }
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    signal,
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
