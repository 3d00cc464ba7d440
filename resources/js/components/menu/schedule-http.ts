/**
 * The schedule's writes outside the page protocol (a day's save, a copy): JSON with the session cookie, the CSRF
 * token of the XSRF-TOKEN cookie, and this tab's socket id (X-Socket-ID), so the live event of its own save is not
 * sent back to it.
 */
import { currentSocketId } from "../../lib/realtime";

function xsrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function sendJson<T>(
  method: "PUT" | "POST",
  url: string,
  body: unknown,
): Promise<{ status: number; body: T | null }> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Content-Type": "application/json",
    "X-Requested-With": "XMLHttpRequest",
    "X-XSRF-TOKEN": xsrfToken(),
  };
  const socket = currentSocketId();
  if (socket) headers["X-Socket-ID"] = socket;
  const response = await fetch(url, { method, headers, body: JSON.stringify(body), credentials: "same-origin" });
  let parsed: T | null = null;
  try {
    parsed = (await response.json()) as T;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed };
}
