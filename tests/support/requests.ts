/**
 * Requests as the screens send them, on top of the Client of ./app: signing in, forms from the page client, the
 * same request from an API client, and reading a page. Tests of an area use these instead of writing their own.
 */
import { expect } from "bun:test";
import { BASE, Client, type TestApp } from "./app";
import { TEST_PASSWORD } from "./people";

/** Someone to sign in as: a user (anything with an e-mail) or the e-mail itself. */
export type Who = string | { email: string };

const emailOf = (who: Who) => (typeof who === "string" ? who : who.email);

/**
 * Posts the sign-in form as the page client does (opening /login first when the client has no XSRF cookie yet)
 * and returns the answer, whatever it is.
 */
export async function signIn(client: Client, who: Who, password = TEST_PASSWORD): Promise<Response> {
  if (!client.cookies.get("XSRF-TOKEN")) await client.visit("/login");
  return client.request("/login", {
    method: "POST",
    inertia: true,
    json: { email: emailOf(who), password },
    headers: { referer: `${BASE}/login` },
  });
}

/**
 * Signs `client` in as `who` with TEST_PASSWORD, failing unless the answer redirects to `landing` (by default: to
 * any page of the site but the sign-in form, as each person lands on the page of their work; src/http/landing.ts).
 */
export async function signInAs(client: Client, who: Who, landing?: string): Promise<Client> {
  const response = await signIn(client, who);
  const location = response.headers.get("location");
  expect({ signIn: emailOf(who), status: response.status, location }).toEqual({
    signIn: emailOf(who),
    status: 302,
    location:
      landing ?? (location?.startsWith("/") && !location.startsWith("/login") ? location : "a page of the site"),
  });
  return client;
}

/**
 * A new browser-like client signed in as `who` (with TEST_PASSWORD). `from` is the test app, or a test's world
 * holding it as `app`.
 */
export function signedIn(from: TestApp | { app: TestApp }, who: Who): Promise<Client> {
  // A TestApp's `app` is the Elysia app (it handles requests); a world's `app` is the TestApp.
  const testApp =
    typeof (from.app as { handle?: unknown }).handle === "function"
      ? (from as TestApp)
      : (from as { app: TestApp }).app;
  return signInAs(new Client(testApp), who);
}

/** Whether the client is signed in: the dashboard answers, instead of sending it to sign in. */
export async function isSignedIn(client: Client): Promise<boolean> {
  const response = await client.request("/dashboard", { inertia: true });
  if (response.status === 200) return true;
  expect({ status: response.status, location: response.headers.get("location") }).toEqual({
    status: 302,
    location: "/login",
  });
  return false;
}

/** A form sent by the page client from the page at `from` (its referer: where "back" goes). */
export function submit(
  client: Client,
  method: string,
  path: string,
  json: unknown = {},
  from?: string,
): Promise<Response> {
  return client.request(path, {
    method,
    inertia: true,
    json,
    headers: from === undefined ? {} : { referer: BASE + from },
  });
}

/** `submit` for the forms of one screen: they come from `page` unless another page is named. */
export function submitFrom(page: string) {
  return (client: Client, method: string, path: string, json: unknown = {}, from = page): Promise<Response> =>
    submit(client, method, path, json, from);
}

/** The same request from an API client asking for JSON. */
export function submitJson(client: Client, method: string, path: string, json: unknown = {}): Promise<Response> {
  return client.request(path, { method, json, headers: { accept: "application/json" } });
}

/** The page object of a page-protocol visit, failing (naming the path) unless it answered 200. */
export async function visitPage(
  client: Client,
  path: string,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  const { response, page } = await client.visit(path, headers);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return page;
}

/** Moves the password confirmation of the client's session `seconds` into the past (it must have one). */
export function ageConfirmation(testApp: TestApp, client: Client, seconds: number): void {
  const session = testApp.sessions.load(client.cookies.get(testApp.config.sessionCookie));
  expect(session.isNew).toBe(false);
  expect(typeof session.get("_password_confirmed_at")).toBe("number");
  session.put("_password_confirmed_at", Date.now() - seconds * 1000);
  testApp.sessions.save(session, { ipAddress: null, userAgent: null });
}
