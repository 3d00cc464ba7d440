/**
 * The accounts area through the app, the way a browser (or the page client) uses it: sign-in and sign-out,
 * remember-me, throttling, registration, e-mail verification, password reset, password confirmation, profile
 * and password settings. Mail is read back from the .eml files the app writes to its own folder.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { sha256 } from "../../src/crypto";
import { checkCredentials } from "../../src/domain/accounts/authentication";
import { createResetToken, resetPassword } from "../../src/domain/accounts/password-reset";
import { createUser, findUserByEmail, findUserById, type User } from "../../src/domain/accounts/users";
import { setUserStatus } from "../../src/domain/access/users-admin";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";

const deactivateUser = (db: Parameters<typeof setUserStatus>[0], id: number) =>
  setUserStatus(db, CLI_ACTOR, EVERYTHING, id, "deactivated");
import { ValidationFailed } from "../../src/domain/errors";
import { RateLimiter } from "../../src/domain/rate-limit";
import { access, type RouteDefinition } from "../../src/http/routing";
import { signedPath } from "../../src/http/signed-url";
import { BASE, Client, createTestApp, TEST_APP_KEY, type TestApp } from "../support/app";
import { decodeQuotedPrintable, mailFiles } from "../support/mail";
import { ageConfirmation, isSignedIn } from "../support/requests";

const SESSION_COOKIE = "mesa_session";
const REMEMBER_COOKIE = "mesa_remember";
const PASSWORD = "correct-horse-42";
const NEW_PASSWORD = "battery-staple-77";
const EMAIL = "ana@mesa.test";
const NAME = "Ana Quispe";

/** A message in Spanish, the default language of the test app and of accounts created without a language. */
const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

function setup(options: { routes?: RouteDefinition[]; env?: Record<string, string> } = {}): {
  app: TestApp;
  client: Client;
} {
  const app = createTestApp(options);
  return { app, client: new Client(app) };
}

function addUser(
  app: TestApp,
  overrides: { name?: string; email?: string; password?: string; verified?: boolean } = {},
): Promise<User> {
  const { name = NAME, email = EMAIL, password = PASSWORD, verified = true } = overrides;
  return createUser(app.db, app.config, { name, email, password }, { verified });
}

/** Opens the sign-in page first (for the XSRF cookie) and posts the form as the page client does. */
async function signIn(client: Client, email = EMAIL, password = PASSWORD, remember = false): Promise<Response> {
  if (!client.cookies.get("XSRF-TOKEN")) await client.visit("/login");
  return client.request("/login", {
    method: "POST",
    inertia: true,
    json: { email, password, remember },
    headers: { referer: `${BASE}/login` },
  });
}

/** Sends a form the way the page client does, coming from `from`. */
function submit(
  client: Client,
  method: string,
  path: string,
  json: unknown,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.from) headers.referer = BASE + options.from;
  return client.request(path, { method, inertia: true, json, headers });
}

/** The flash message of the page at `path` (read once; flash lives for one request). */
async function flashErrorOn(client: Client, path: string): Promise<unknown> {
  const { page } = await client.visit(path);
  return page.flash.error;
}

async function errorsOn(client: Client, path: string): Promise<Record<string, any>> {
  const { page } = await client.visit(path);
  return page.props.errors;
}

function setCookieOf(response: Response, name: string): string | null {
  const raw = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return raw ?? null;
}

// ——— Mail ———

interface Mail {
  file: string;
  raw: string;
  /** The whole message with quoted-printable undone (plain messages pass through unchanged). */
  text: string;
}

function readMail(app: TestApp, file: string): Mail {
  const raw = readFileSync(join(app.mailPath, file), "utf8");
  return { file, raw, text: decodeQuotedPrintable(raw) };
}

/** Mail written since `before` (a list of file names). */
function newMail(app: TestApp, before: string[] = []): Mail[] {
  return mailFiles(app)
    .filter((f) => !before.includes(f))
    .map((f) => readMail(app, f));
}

function onlyMail(app: TestApp, before: string[] = []): Mail {
  const mails = newMail(app, before);
  expect(mails).toHaveLength(1);
  return mails[0];
}

/** The one message written since `before`, waiting for it: the reset link is mailed after the answer (at most two seconds). */
async function mailArrived(app: TestApp, before: string[] = []): Promise<Mail> {
  const deadline = Date.now() + 2_000;
  while (newMail(app, before).length === 0 && Date.now() < deadline) await Bun.sleep(5);
  return onlyMail(app, before);
}

/** Gives mail sent after the answer time to be written, before checking that none was. */
const mailSettled = () => Bun.sleep(100);

/** The e-mail verification link of a message, as a path (the app's origin removed). */
function verificationPath(mail: Mail): string {
  const match = mail.text.match(
    /http:\/\/mesa\.test(\/email\/verify\/\d+\/[a-f0-9]{64}\?expires=\d+&(?:amp;)?signature=[a-f0-9]+)/,
  );
  expect(match).not.toBeNull();
  return match![1].replace(/&amp;/g, "&");
}

/** The password-reset token of a message. */
function resetToken(mail: Mail): string {
  const match = mail.text.match(/http:\/\/mesa\.test\/reset-password\/([A-Za-z0-9_-]+)\?email=([^\s"<&]+)/);
  expect(match).not.toBeNull();
  return match![1];
}

// ——— Sign-in ———

describe("sign-in", () => {
  test("the right credentials sign in and redirect to the dashboard with a new session id", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await client.visit("/login");
    const before = client.cookies.get(SESSION_COOKIE)!;
    expect(before).toBeTruthy();
    const response = await signIn(client);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard");
    const after = client.cookies.get(SESSION_COOKIE)!;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    // The pre-sign-in id is gone from the store: a planted id cannot ride along into the signed-in session.
    expect(app.sessions.exists(before)).toBe(false);
    expect(app.sessions.exists(after)).toBe(true);
    const { response: dashboard, page } = await client.visit("/dashboard");
    expect(dashboard.status).toBe(200);
    expect(page.component).toBe("dashboard");
    expect(page.props.auth.user).toMatchObject({ id: user.id, email: EMAIL, name: NAME });
    expect(findUserById(app.db, user.id)!.lastSignInAt).not.toBeNull();
  });

  test("the e-mail address is case-insensitive (and trimmed)", async () => {
    const { app, client } = setup();
    await addUser(app);
    const response = await signIn(client, "  ANA@Mesa.TEST ");
    expect(response.headers.get("location")).toBe("/dashboard");
    expect(await isSignedIn(client)).toBe(true);
  });

  test("a wrong password and an unknown e-mail get the identical message", async () => {
    const { app, client } = setup();
    await addUser(app);
    const wrong = await signIn(client, EMAIL, "not-the-password");
    expect(wrong.status).toBe(302);
    expect(wrong.headers.get("location")).toBe("/login");
    const wrongErrors = await errorsOn(client, "/login");
    await signIn(client, "nobody@mesa.test", PASSWORD);
    const unknownErrors = await errorsOn(client, "/login");
    expect(wrongErrors).toEqual({ email: es("auth.failed") });
    expect(unknownErrors).toEqual(wrongErrors);
    expect(await isSignedIn(client)).toBe(false);
  });

  test("a JSON client gets 422 with the same message", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    const response = await client.request("/login", {
      method: "POST",
      json: { email: EMAIL, password: "nope-nope-1" },
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ message: es("validation.failed"), errors: { email: es("auth.failed") } });
  });

  test("an empty form names the missing fields", async () => {
    const { client } = setup();
    await client.visit("/login");
    await submit(client, "POST", "/login", {}, { from: "/login" });
    expect(await errorsOn(client, "/login")).toEqual({
      email: es("validation.required"),
      password: es("validation.required"),
    });
  });

  test("after 5 failed attempts the 6th is 429 with Retry-After, even with the right password", async () => {
    const { app, client } = setup();
    await addUser(app);
    for (let i = 0; i < 5; i++) {
      const response = await signIn(client, EMAIL, `wrong-${i}-password`);
      expect(response.status).toBe(302);
    }
    const blocked = await signIn(client);
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const page = (await blocked.json()) as Record<string, any>;
    expect(page.component).toBe("error");
    expect(page.props.status).toBe(429);
    expect(page.props.retryAfter).toBe(retryAfter);
    expect(await isSignedIn(client)).toBe(false);
    // Another address from the same place is not blocked.
    await addUser(app, { name: "Luis Rojas", email: "luis@mesa.test" });
    expect((await signIn(client, "luis@mesa.test")).headers.get("location")).toBe("/dashboard");
  });

  test("a successful sign-in clears the failed attempts", async () => {
    const { app, client } = setup();
    await addUser(app);
    for (let i = 0; i < 4; i++) await signIn(client, EMAIL, "wrong-password-x");
    expect((await signIn(client)).headers.get("location")).toBe("/dashboard");
    // The account's counter is gone; the address keeps its four failures (password spraying is counted per address).
    expect(app.db.$client.query("SELECT key, attempts FROM rate_limits ORDER BY key").all()).toEqual([
      { key: "sign-in-address:unknown", attempts: 4 },
    ]);
  });

  test("a deactivated user cannot sign in and is told so", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    deactivateUser(app.db, user.id);
    const response = await signIn(client);
    expect(response.headers.get("location")).toBe("/login");
    expect(await errorsOn(client, "/login")).toEqual({ email: es("auth.deactivated") });
    expect(await isSignedIn(client)).toBe(false);
  });

  test("a session of a user deactivated meanwhile ends on the next request", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client);
    expect(await isSignedIn(client)).toBe(true);
    deactivateUser(app.db, user.id);
    const response = await client.get("/dashboard");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
  });

  test("a session whose user is marked deactivated (row kept) is ended by the server on the next request", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client);
    const id = client.cookies.get(SESSION_COOKIE)!;
    app.db.$client.query("UPDATE users SET status = 'deactivated' WHERE id = ?").run(user.id);
    const response = await client.get("/dashboard");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect(app.sessions.exists(id)).toBe(false);
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(id);
  });

  test("a guest opening /dashboard is sent to sign in and, once signed in, lands where they wanted", async () => {
    const { app, client } = setup();
    await addUser(app);
    const response = await client.get("/dashboard?tab=week");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    const signedIn = await signIn(client);
    expect(signedIn.headers.get("location")).toBe("/dashboard?tab=week");
    // The intended URL is used once.
    await submit(client, "POST", "/logout", {});
    expect((await signIn(client)).headers.get("location")).toBe("/dashboard");
  });

  test("a signed-in user opening /login or /register is redirected to the dashboard", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    for (const path of ["/login", "/register", "/forgot-password"]) {
      const response = await client.get(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/dashboard");
    }
  });

  test("POST /login without the CSRF token is 419", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    client.cookies.delete("XSRF-TOKEN");
    const response = await client.request("/login", {
      method: "POST",
      inertia: true,
      json: { email: EMAIL, password: PASSWORD },
    });
    expect(response.status).toBe(419);
    expect(((await response.json()) as Record<string, any>).props.status).toBe(419);
    expect(await isSignedIn(client)).toBe(false);
  });

  test("POST /login with a wrong CSRF token is 419", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    const response = await client.request("/login", {
      method: "POST",
      inertia: true,
      json: { email: EMAIL, password: PASSWORD },
      headers: { "x-xsrf-token": "forged" },
    });
    expect(response.status).toBe(419);
    expect(await isSignedIn(client)).toBe(false);
  });
});

// ——— Remember me ———

describe("remember me", () => {
  test("the remember cookie is set only when remember is true, HttpOnly and long-lived", async () => {
    const { app } = setup();
    await addUser(app);
    const without = new Client(app);
    expect(setCookieOf(await signIn(without, EMAIL, PASSWORD, false), REMEMBER_COOKIE)).toBeNull();
    expect(without.cookies.has(REMEMBER_COOKIE)).toBe(false);

    const withIt = new Client(app);
    const cookie = setCookieOf(await signIn(withIt, EMAIL, PASSWORD, true), REMEMBER_COOKIE);
    expect(cookie).not.toBeNull();
    expect(cookie).toContain("HttpOnly");
    expect(Number(cookie!.match(/Max-Age=(\d+)/)?.[1])).toBeGreaterThanOrEqual(7 * 24 * 60 * 60);
    // The database keeps only a hash of the token.
    const token = withIt.cookies.get(REMEMBER_COOKIE)!.split("|")[1];
    const stored = findUserByEmail(app.db, EMAIL)!.rememberTokenHash;
    expect(stored).toBe(sha256(token));
    expect(stored).not.toContain(token);
  });

  test("after a browser restart (only the remember cookie left) the user is signed in again", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client, EMAIL, PASSWORD, true);
    const restarted = new Client(app);
    restarted.cookies.set(REMEMBER_COOKIE, client.cookies.get(REMEMBER_COOKIE)!);
    const { response, page } = await restarted.visit("/dashboard");
    expect(response.status).toBe(200);
    expect(page.props.auth.user.id).toBe(user.id);
    // A session was started for it, under a fresh id.
    const session = restarted.cookies.get(SESSION_COOKIE)!;
    expect(session).not.toBe(client.cookies.get(SESSION_COOKIE));
    expect(await isSignedIn(restarted)).toBe(true);
  });

  test("a forged remember cookie is refused and cleared", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client, EMAIL, PASSWORD, true);
    const attacker = new Client(app);
    attacker.cookies.set(REMEMBER_COOKIE, `${user.id}|not-the-token`);
    const response = await attacker.get("/dashboard");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect(attacker.cookies.get(REMEMBER_COOKIE)).toBe("");
  });

  test("after logout the old remember cookie no longer signs in", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client, EMAIL, PASSWORD, true);
    const remember = client.cookies.get(REMEMBER_COOKIE)!;
    const logout = await submit(client, "POST", "/logout", {});
    expect(logout.status).toBe(302);
    expect(client.cookies.get(REMEMBER_COOKIE)).toBe("");
    const restarted = new Client(app);
    restarted.cookies.set(REMEMBER_COOKIE, remember);
    expect(await isSignedIn(restarted)).toBe(false);
  });

  test("after a password change the old remember cookie no longer signs in", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client, EMAIL, PASSWORD, true);
    const remember = client.cookies.get(REMEMBER_COOKIE)!;
    const response = await submit(
      client,
      "PUT",
      "/settings/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { from: "/settings/password" },
    );
    expect(response.status).toBe(303);
    const restarted = new Client(app);
    restarted.cookies.set(REMEMBER_COOKIE, remember);
    expect(await isSignedIn(restarted)).toBe(false);
  });

  test("a session restored by remember-me still needs the password confirmed for sensitive pages", async () => {
    const { app, client } = setup({ routes: [sensitiveRoute()] });
    await addUser(app);
    await signIn(client, EMAIL, PASSWORD, true);
    const restarted = new Client(app);
    restarted.cookies.set(REMEMBER_COOKIE, client.cookies.get(REMEMBER_COOKIE)!);
    const response = await restarted.request("/test/sensitive", { inertia: true });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/confirm-password");
  });
});

// ——— Logout ———

describe("logout", () => {
  test("POST /logout ends the session on the server: replaying the old cookie is a guest", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    const old = client.cookies.get(SESSION_COOKIE)!;
    const response = await submit(client, "POST", "/logout", {});
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(old);
    expect(app.sessions.exists(old)).toBe(false);
    expect(await isSignedIn(client)).toBe(false);

    const replay = new Client(app);
    replay.cookies.set(SESSION_COOKIE, old);
    expect(await isSignedIn(replay)).toBe(false);
    expect(replay.cookies.get(SESSION_COOKIE)).not.toBe(old);
  });

  test("the next page after logout asks the browser to clear its history", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    await submit(client, "POST", "/logout", {});
    const { page } = await client.visit("/");
    expect(page.clearHistory).toBe(true);
  });

  test("a guest cannot POST /logout (redirected to sign in)", async () => {
    const { client } = setup();
    await client.visit("/");
    const response = await submit(client, "POST", "/logout", {});
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
  });
});

// ——— Registration ———

describe("registration", () => {
  const form = { name: NAME, email: EMAIL, password: PASSWORD, password_confirmation: PASSWORD };

  async function register(client: Client, data: Record<string, unknown> = form): Promise<Response> {
    await client.visit("/register");
    return submit(client, "POST", "/register", data, { from: "/register" });
  }

  test("creates the user unverified, signs in and sends exactly one mail with the verification link", async () => {
    const { app, client } = setup();
    const response = await register(client, { ...form, email: "Ana@Mesa.TEST" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard");
    const user = findUserByEmail(app.db, EMAIL)!;
    expect(user).toBeDefined();
    expect(user.email).toBe(EMAIL);
    expect(user.name).toBe(NAME);
    expect(user.emailVerifiedAt).toBeNull();
    expect(user.status).toBe("active");
    expect(user.passwordHash).toStartWith("$argon2id$");
    expect(user.language).toBe("es");
    const mail = onlyMail(app);
    expect(mail.raw).toMatch(/^To: .*<ana@mesa\.test>/m);
    expect(verificationPath(mail)).toStartWith(`/email/verify/${user.id}/${sha256(EMAIL)}?expires=`);
    // Signed in: the profile page answers with this user.
    const { response: profile, page } = await client.visit("/settings/profile");
    expect(profile.status).toBe(200);
    expect(page.props.auth.user).toMatchObject({ id: user.id, emailVerified: false });
    expect(page.props.mustVerifyEmail).toBe(true);
  });

  test("an unverified user opening /dashboard is sent to /verify-email; settings still work", async () => {
    const { app, client } = setup();
    await register(client);
    const response = await client.get("/dashboard");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/verify-email");
    const notice = await client.visit("/verify-email");
    expect(notice.response.status).toBe(200);
    expect(notice.page.component).toBe("auth/verify-email");
    expect(notice.page.props.email).toBe(EMAIL);
    expect((await client.visit("/settings/profile")).response.status).toBe(200);
    expect((await client.visit("/settings/password")).response.status).toBe(200);
    expect(findUserByEmail(app.db, EMAIL)!.emailVerifiedAt).toBeNull();
  });

  test("with REGISTRATION_ENABLED=false, GET and POST /register are 404 and nothing is created", async () => {
    const { app, client } = setup({ env: { REGISTRATION_ENABLED: "false" } });
    const page = await client.request("/register", { inertia: true });
    expect(page.status).toBe(404);
    const post = await submit(client, "POST", "/register", form, { from: "/register" });
    expect(post.status).toBe(404);
    expect(findUserByEmail(app.db, EMAIL)).toBeUndefined();
    expect(mailFiles(app)).toEqual([]);
  });

  test("the sign-in page's canRegister follows the setting", async () => {
    expect((await setup().client.visit("/login")).page.props.canRegister).toBe(true);
    const off = setup({ env: { REGISTRATION_ENABLED: "false" } });
    expect((await off.client.visit("/login")).page.props.canRegister).toBe(false);
  });

  test("an e-mail already taken, in any case, is refused", async () => {
    const { app, client } = setup();
    await addUser(app);
    const response = await register(client, { ...form, name: "Otra Persona", email: " ANA@mesa.Test " });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/register");
    expect(await errorsOn(client, "/register")).toEqual({ email: es("validation.email_taken") });
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM users").get()).toEqual({ n: 1 });
    expect(await isSignedIn(client)).toBe(false);
  });

  const badPasswords: [string, Record<string, unknown>, string][] = [
    [
      "a common password",
      { password: "password123", password_confirmation: "password123" },
      es("validation.password.common"),
    ],
    [
      "a repeated character",
      { password: "aaaaaaaaaa", password_confirmation: "aaaaaaaaaa" },
      es("validation.password.common"),
    ],
    [
      "a short password",
      { password: "x7$kq", password_confirmation: "x7$kq" },
      es("validation.password.min", { min: 8 }),
    ],
    [
      "a password holding the name",
      { password: "ana quispe 2024", password_confirmation: "ana quispe 2024" },
      es("validation.password.personal"),
    ],
    [
      "a confirmation that does not match",
      { password: PASSWORD, password_confirmation: "correct-horse-43" },
      es("validation.password.confirmation"),
    ],
    [
      "a missing confirmation",
      { password: PASSWORD, password_confirmation: undefined },
      es("validation.password.confirmation"),
    ],
  ];
  for (const [label, change, expected] of badPasswords) {
    test(`${label} is refused on the password field`, async () => {
      const { app, client } = setup();
      await register(client, { ...form, ...change });
      expect(await errorsOn(client, "/register")).toEqual({ password: expected });
      expect(findUserByEmail(app.db, EMAIL)).toBeUndefined();
      expect(mailFiles(app)).toEqual([]);
    });
  }

  test("missing fields are named", async () => {
    const { client } = setup();
    await register(client, {});
    expect(await errorsOn(client, "/register")).toEqual({
      name: es("validation.required"),
      email: es("validation.required"),
      password: es("validation.required"),
    });
  });
});

// ——— E-mail verification ———

describe("e-mail verification", () => {
  /** An unverified user, signed in, whose verification mail was sent by registering. */
  async function registered(env: Record<string, string> = {}) {
    const { app, client } = setup({ env });
    await client.visit("/register");
    await submit(
      client,
      "POST",
      "/register",
      { name: NAME, email: EMAIL, password: PASSWORD, password_confirmation: PASSWORD },
      { from: "/register" },
    );
    const user = findUserByEmail(app.db, EMAIL)!;
    return { app, client, user, link: verificationPath(onlyMail(app)) };
  }

  test("the link in the mail verifies the address and redirects to /dashboard?verified=1", async () => {
    const { app, client, user, link } = await registered();
    const response = await client.get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard?verified=1");
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).not.toBeNull();
    const { response: dashboard, page } = await client.visit("/dashboard?verified=1");
    expect(dashboard.status).toBe(200);
    expect(page.flash).toEqual({ success: es("auth.verified") });
    expect(page.props.auth.user.emailVerified).toBe(true);
  });

  test("a guest following the link signs in first and is then taken to the link", async () => {
    const { app, user, link } = await registered();
    const other = new Client(app);
    const response = await other.get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    const signedIn = await signIn(other);
    expect(signedIn.headers.get("location")).toBe(link);
    expect((await other.get(link)).headers.get("location")).toBe("/dashboard?verified=1");
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).not.toBeNull();
  });

  test("a tampered signature is refused", async () => {
    const { app, client, user, link } = await registered();
    const tampered = link.replace(/signature=([a-f0-9])/, (_, c: string) => `signature=${c === "0" ? "1" : "0"}`);
    expect(tampered).not.toBe(link);
    const response = await client.get(tampered);
    expect(response.status).toBe(302);
    // Opened from a mail there is no page to go back to: the verification notice explains.
    expect(response.headers.get("location")).toBe("/verify-email");
    expect(await flashErrorOn(client, "/verify-email")).toBe(es("auth.verify_link_invalid"));
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
  });

  test("an expired link opened from a mail (no Referer) leads to the verification notice with the reason", async () => {
    const { client, user } = await registered();
    const expired = signedPath(TEST_APP_KEY, `/email/verify/${user.id}/${sha256(EMAIL)}`, Date.now() - 1000);
    const response = await client.get(expired);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/verify-email");
  });

  test("a link without signature or expiry is refused", async () => {
    const { app, client, user, link } = await registered();
    const bare = link.split("?")[0];
    expect((await client.get(bare)).status).toBe(302);
    expect(await flashErrorOn(client, "/verify-email")).toBe(es("auth.verify_link_invalid"));
    const later = link.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`);
    await client.get(later);
    expect(await flashErrorOn(client, "/verify-email")).toBe(es("auth.verify_link_invalid"));
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
  });

  test("a tampered hash is refused (the signature covers the path; a validly signed wrong hash is 404)", async () => {
    const { app, client, user, link } = await registered();
    const tampered = link.replace(sha256(EMAIL), sha256("someone@else.test"));
    expect(tampered).not.toBe(link);
    await client.get(tampered);
    expect(await flashErrorOn(client, "/verify-email")).toBe(es("auth.verify_link_invalid"));
    const signedWrongHash = signedPath(
      TEST_APP_KEY,
      `/email/verify/${user.id}/${sha256("someone@else.test")}`,
      Date.now() + 60_000,
    );
    expect((await client.request(signedWrongHash, { inertia: true })).status).toBe(404);
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
  });

  test("an expired link is refused", async () => {
    const { app, client, user } = await registered();
    const expired = signedPath(TEST_APP_KEY, `/email/verify/${user.id}/${sha256(EMAIL)}`, Date.now() - 1000);
    const response = await client.get(expired);
    expect(response.status).toBe(302);
    expect(await flashErrorOn(client, "/verify-email")).toBe(es("auth.verify_link_invalid"));
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
    // The same link built with a future expiry works: only the expiry made the difference.
    const fresh = signedPath(TEST_APP_KEY, `/email/verify/${user.id}/${sha256(EMAIL)}`, Date.now() + 60_000);
    expect((await client.get(fresh)).headers.get("location")).toBe("/dashboard?verified=1");
  });

  test("a link signed with another key is refused", async () => {
    const { app, client, user } = await registered();
    const forged = signedPath(
      "another-key-0123456789-0123456789-01",
      `/email/verify/${user.id}/${sha256(EMAIL)}`,
      Date.now() + 60_000,
    );
    await client.get(forged);
    expect(await flashErrorOn(client, "/verify-email")).toBe(es("auth.verify_link_invalid"));
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
  });

  test("the link of another user is refused", async () => {
    const { app, client, user, link } = await registered();
    const other = await addUser(app, { name: "Luis Rojas", email: "luis@mesa.test", verified: false });
    const luis = new Client(app);
    await signIn(luis, "luis@mesa.test");
    const response = await luis.request(link, { inertia: true });
    expect(response.status).toBe(404);
    expect(findUserById(app.db, other.id)!.emailVerifiedAt).toBeNull();
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
    // The owner can still use it.
    expect((await client.get(link)).headers.get("location")).toBe("/dashboard?verified=1");
  });

  test("a verified user opening the link again is just redirected", async () => {
    const { app, client, user, link } = await registered();
    await client.get(link);
    const first = findUserById(app.db, user.id)!.emailVerifiedAt!;
    await client.visit("/dashboard"); // consumes the flash of the first verification
    const again = await client.get(link);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/dashboard?verified=1");
    expect(findUserById(app.db, user.id)!.emailVerifiedAt!.getTime()).toBe(first.getTime());
    const { page } = await client.visit("/dashboard?verified=1");
    expect(page.flash).toEqual({});
    // The notice page also sends a verified user on.
    expect((await client.get("/verify-email")).headers.get("location")).toBe("/dashboard");
  });

  test("resend sends a new mail and is throttled after 6 per minute", async () => {
    const { app, client } = await registered();
    const before = mailFiles(app);
    for (let i = 0; i < 6; i++) {
      const response = await submit(client, "POST", "/email/verification-notification", {}, { from: "/verify-email" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/verify-email");
    }
    const { page } = await client.visit("/verify-email");
    expect(page.flash).toEqual({ success: es("auth.verification_sent") });
    const sent = newMail(app, before);
    expect(sent).toHaveLength(6);
    for (const mail of sent) expect(verificationPath(mail)).toContain("/email/verify/");
    const blocked = await submit(client, "POST", "/email/verification-notification", {}, { from: "/verify-email" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(newMail(app, before)).toHaveLength(6);
  });

  test("a resent link works", async () => {
    const { app, client, user } = await registered();
    const before = mailFiles(app);
    await submit(client, "POST", "/email/verification-notification", {}, { from: "/verify-email" });
    const link = verificationPath(onlyMail(app, before));
    expect((await client.get(link)).headers.get("location")).toBe("/dashboard?verified=1");
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).not.toBeNull();
  });
});

// ——— Password reset ———

describe("password reset", () => {
  async function requestReset(client: Client, email: string): Promise<Response> {
    if (!client.cookies.get("XSRF-TOKEN")) await client.visit("/forgot-password");
    return submit(client, "POST", "/forgot-password", { email }, { from: "/forgot-password" });
  }

  async function flashOn(client: Client, path: string): Promise<Record<string, unknown>> {
    return (await client.visit(path)).page.flash;
  }

  test("an existing and an unknown e-mail get the same answer; only the existing one gets mail", async () => {
    const { app, client } = setup();
    await addUser(app);
    const unknown = await requestReset(client, "nobody@mesa.test");
    const unknownFlash = await flashOn(client, "/forgot-password");
    await mailSettled();
    expect(mailFiles(app)).toEqual([]);
    const known = await requestReset(client, EMAIL);
    const knownFlash = await flashOn(client, "/forgot-password");
    expect(unknown.status).toBe(known.status);
    expect(unknown.headers.get("location")).toBe(known.headers.get("location"));
    expect(unknownFlash).toEqual({ success: es("auth.reset_link_sent") });
    expect(knownFlash).toEqual(unknownFlash);
    const mail = await mailArrived(app);
    expect(mail.raw).toMatch(/^To: .*<ana@mesa\.test>/m);
    expect(mail.text).toContain(`?email=${encodeURIComponent(EMAIL)}`);
  });

  test("the token in the mail resets the password and signs out every session of the user", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    const elsewhere = new Client(app);
    await signIn(elsewhere, EMAIL, PASSWORD, true);
    expect(await isSignedIn(elsewhere)).toBe(true);

    await requestReset(client, EMAIL);
    const token = resetToken(await mailArrived(app));
    const form = await client.visit(`/reset-password/${token}?email=${encodeURIComponent(EMAIL)}`);
    expect(form.page.component).toBe("auth/reset-password");
    expect(form.page.props).toMatchObject({ token, email: EMAIL });

    const response = await submit(
      client,
      "POST",
      "/reset-password",
      { token, email: EMAIL, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { from: "/reset-password" },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect((await client.visit("/login")).page.flash).toEqual({ success: es("auth.password_reset") });

    // Other sessions and remember-me end; the new password works, the old one does not.
    const remembered = elsewhere.cookies.get(REMEMBER_COOKIE)!;
    expect(await isSignedIn(elsewhere)).toBe(false);
    const restarted = new Client(app);
    restarted.cookies.set(REMEMBER_COOKIE, remembered);
    expect(await isSignedIn(restarted)).toBe(false);
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").get(user.id)).toEqual({ n: 0 });
    const limiter = new RateLimiter(app.db);
    expect((await checkCredentials(app.db, limiter, { email: EMAIL, password: NEW_PASSWORD }, null)).user.id).toBe(
      user.id,
    );
    await expect(checkCredentials(app.db, limiter, { email: EMAIL, password: PASSWORD }, null)).rejects.toBeInstanceOf(
      ValidationFailed,
    );
    expect((await signIn(client, EMAIL, NEW_PASSWORD)).headers.get("location")).toBe("/dashboard");
  });

  test("a token cannot be used twice", async () => {
    const { app, client } = setup();
    await addUser(app);
    await requestReset(client, EMAIL);
    const token = resetToken(await mailArrived(app));
    const input = { token, email: EMAIL, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await submit(client, "POST", "/reset-password", input)).headers.get("location")).toBe("/login");
    const again = await submit(
      client,
      "POST",
      "/reset-password",
      { ...input, password: "third-password-9", password_confirmation: "third-password-9" },
      { from: `/reset-password/${token}` },
    );
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`/reset-password/${token}`);
    expect((await errorsOn(client, `/reset-password/${token}`)).email).toBe(es("auth.reset_invalid"));
    expect((await signIn(client, EMAIL, NEW_PASSWORD)).headers.get("location")).toBe("/dashboard");
  });

  test("a wrong token or another e-mail is refused", async () => {
    const { app, client } = setup();
    await addUser(app);
    await addUser(app, { name: "Luis Rojas", email: "luis@mesa.test" });
    await requestReset(client, EMAIL);
    const token = resetToken(await mailArrived(app));
    for (const input of [
      { token: `${token}x`, email: EMAIL },
      { token, email: "luis@mesa.test" },
      { token, email: "nobody@mesa.test" },
    ]) {
      await submit(
        client,
        "POST",
        "/reset-password",
        { ...input, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        { from: "/reset-password/x" },
      );
      expect((await errorsOn(client, "/reset-password/x")).email).toBe(es("auth.reset_invalid"));
    }
    // The real token still works afterwards.
    expect(
      (
        await submit(client, "POST", "/reset-password", {
          token,
          email: EMAIL,
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
        })
      ).headers.get("location"),
    ).toBe("/login");
  });

  test("a weak new password is refused and the token stays usable", async () => {
    const { app, client } = setup();
    await addUser(app);
    await requestReset(client, EMAIL);
    const token = resetToken(await mailArrived(app));
    await submit(
      client,
      "POST",
      "/reset-password",
      { token, email: EMAIL, password: "password123", password_confirmation: "password123" },
      { from: "/reset-password/x" },
    );
    expect(await errorsOn(client, "/reset-password/x")).toEqual({ password: es("validation.password.common") });
    await submit(
      client,
      "POST",
      "/reset-password",
      { token, email: EMAIL, password: NEW_PASSWORD, password_confirmation: "different-pass-1" },
      { from: "/reset-password/x" },
    );
    expect(await errorsOn(client, "/reset-password/x")).toEqual({ password: es("validation.password.confirmation") });
    expect(
      (
        await submit(client, "POST", "/reset-password", {
          token,
          email: EMAIL,
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
        })
      ).headers.get("location"),
    ).toBe("/login");
  });

  test("a second request within a minute sends no second mail but answers the same", async () => {
    const { app, client } = setup();
    await addUser(app);
    await requestReset(client, EMAIL);
    const first = await flashOn(client, "/forgot-password");
    await mailArrived(app);
    const second = await requestReset(client, EMAIL);
    expect(second.status).toBe(302);
    expect(await flashOn(client, "/forgot-password")).toEqual(first);
    await mailSettled();
    expect(mailFiles(app)).toHaveLength(1);
  });

  test("a request more than a minute later sends a new token that replaces the older one", async () => {
    const { app, client } = setup();
    await addUser(app);
    const now = Date.now();
    const older = createResetToken(app.db, { email: EMAIL }, now - 2 * 60 * 1000)!;
    expect(older).not.toBeNull();
    // Through the app: more than a minute has passed, so a mail goes out with a new token.
    await requestReset(client, EMAIL);
    const newer = resetToken(await mailArrived(app));
    expect(newer).not.toBe(older.token);
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM password_reset_tokens").get()).toEqual({ n: 1 });
    const input = { email: EMAIL, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    await expect(resetPassword(app.db, app.config, { ...input, token: older.token })).rejects.toBeInstanceOf(
      ValidationFailed,
    );
    expect((await resetPassword(app.db, app.config, { ...input, token: newer })).email).toBe(EMAIL);
  });

  test("within a minute no new token is made (createResetToken returns null); after it, one is", async () => {
    const { app } = setup();
    await addUser(app);
    const now = Date.now();
    expect(createResetToken(app.db, { email: EMAIL }, now)).not.toBeNull();
    expect(createResetToken(app.db, { email: EMAIL }, now + 59_000)).toBeNull();
    expect(createResetToken(app.db, { email: "nobody@mesa.test" }, now)).toBeNull();
    expect(createResetToken(app.db, { email: EMAIL }, now + 61_000)).not.toBeNull();
  });

  test("a token older than 60 minutes is refused", async () => {
    const { app } = setup();
    await addUser(app);
    const now = Date.now();
    const { token } = createResetToken(app.db, { email: EMAIL }, now)!;
    const input = { token, email: EMAIL, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    const error = await resetPassword(app.db, app.config, input, now + 61 * 60 * 1000).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toEqual({ email: { key: "auth.reset_invalid", params: undefined } });
    // At 59 minutes the same token still works.
    expect((await resetPassword(app.db, app.config, input, now + 59 * 60 * 1000)).email).toBe(EMAIL);
  });

  test("a deactivated account gets no reset mail and cannot use an earlier token", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    const { token } = createResetToken(app.db, { email: EMAIL })!;
    deactivateUser(app.db, user.id);
    await requestReset(client, EMAIL);
    await mailSettled();
    expect(mailFiles(app)).toEqual([]);
    const error = await resetPassword(app.db, app.config, {
      token,
      email: EMAIL,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
  });

  test("the stored token is a SHA-256 hash, never the raw token", async () => {
    const { app, client } = setup();
    await addUser(app);
    await requestReset(client, EMAIL);
    const token = resetToken(await mailArrived(app));
    const rows = app.db.$client
      .query<{ email: string; token_hash: string }, []>("SELECT * FROM password_reset_tokens")
      .all();
    expect(rows).toHaveLength(1);
    expect(rows[0].email).toBe(EMAIL);
    expect(rows[0].token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

// ——— Password confirmation ———

function sensitiveRoute(): RouteDefinition {
  return {
    name: "test.sensitive",
    methods: ["GET"],
    uri: "/test/sensitive",
    access: access.signedIn,
    confirmPassword: true,
    handle: (ctx) => ctx.renderComponent("test/sensitive", { ok: true }),
  };
}

describe("password confirmation", () => {
  function confirming() {
    return setup({ routes: [sensitiveRoute()], env: { PASSWORD_CONFIRM_TIMEOUT: "60" } });
  }

  test("right after sign-in the password counts as confirmed", async () => {
    const { app, client } = confirming();
    await addUser(app);
    await signIn(client);
    const { response, page } = await client.visit("/test/sensitive");
    expect(response.status).toBe(200);
    expect(page.props.ok).toBe(true);
  });

  test("an old confirmation sends to /confirm-password; the right password returns to the page", async () => {
    const { app, client } = confirming();
    await addUser(app);
    await signIn(client);
    ageConfirmation(app, client, 61);
    const response = await client.request("/test/sensitive", { inertia: true });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/confirm-password");
    const { page } = await client.visit("/confirm-password");
    expect(page.component).toBe("auth/confirm-password");

    const confirmed = await submit(
      client,
      "POST",
      "/confirm-password",
      { password: PASSWORD },
      { from: "/confirm-password" },
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/test/sensitive");
    expect((await client.visit("/test/sensitive")).response.status).toBe(200);
    // Remembered: a second visit passes too.
    expect((await client.visit("/test/sensitive")).response.status).toBe(200);
  });

  test("a wrong password is refused with an error on the password field", async () => {
    const { app, client } = confirming();
    await addUser(app);
    await signIn(client);
    ageConfirmation(app, client, 61);
    await client.request("/test/sensitive", { inertia: true });
    const response = await submit(
      client,
      "POST",
      "/confirm-password",
      { password: "not-the-password" },
      { from: "/confirm-password" },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/confirm-password");
    expect(await errorsOn(client, "/confirm-password")).toEqual({ password: es("validation.password.current") });
    expect((await client.request("/test/sensitive", { inertia: true })).headers.get("location")).toBe(
      "/confirm-password",
    );
  });

  test("the confirmation expires after PASSWORD_CONFIRM_TIMEOUT", async () => {
    const { app, client } = confirming();
    await addUser(app);
    await signIn(client);
    ageConfirmation(app, client, 61);
    await client.request("/test/sensitive", { inertia: true });
    await submit(client, "POST", "/confirm-password", { password: PASSWORD }, { from: "/confirm-password" });
    ageConfirmation(app, client, 30);
    expect((await client.request("/test/sensitive", { inertia: true })).status).toBe(200);
    ageConfirmation(app, client, 61);
    const expired = await client.request("/test/sensitive", { inertia: true });
    expect(expired.status).toBe(302);
    expect(expired.headers.get("location")).toBe("/confirm-password");
  });

  test("confirming is throttled after 5 wrong passwords", async () => {
    const { app, client } = confirming();
    await addUser(app);
    await signIn(client);
    for (let i = 0; i < 5; i++)
      await submit(client, "POST", "/confirm-password", { password: `wrong-${i}-pass` }, { from: "/confirm-password" });
    const blocked = await submit(
      client,
      "POST",
      "/confirm-password",
      { password: PASSWORD },
      { from: "/confirm-password" },
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a guest opening the sensitive page is sent to sign in", async () => {
    const { client } = confirming();
    const response = await client.get("/test/sensitive");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
  });
});

// ——— Profile ———

describe("profile settings", () => {
  test("PATCH /settings/profile changes the name and keeps the verification", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client);
    const response = await submit(
      client,
      "PATCH",
      "/settings/profile",
      { name: "Ana María Quispe", email: EMAIL },
      { from: "/settings/profile" },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/settings/profile");
    const updated = findUserById(app.db, user.id)!;
    expect(updated.name).toBe("Ana María Quispe");
    expect(updated.emailVerifiedAt).not.toBeNull();
    const { page } = await client.visit("/settings/profile");
    expect(page.flash).toEqual({ success: es("settings.profile.saved") });
    expect(page.props.auth.user.name).toBe("Ana María Quispe");
    expect(mailFiles(app)).toEqual([]);
  });

  test("changing the e-mail clears the verification and sends a verification mail to the new address", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client);
    const response = await submit(
      client,
      "PATCH",
      "/settings/profile",
      { name: NAME, email: "Ana.Nueva@Mesa.test" },
      { from: "/settings/profile" },
    );
    expect(response.status).toBe(303);
    const updated = findUserById(app.db, user.id)!;
    expect(updated.email).toBe("ana.nueva@mesa.test");
    expect(updated.emailVerifiedAt).toBeNull();
    const mail = onlyMail(app);
    expect(mail.raw).toMatch(/^To: .*<ana\.nueva@mesa\.test>/m);
    const link = verificationPath(mail);
    expect(link).toStartWith(`/email/verify/${user.id}/${sha256("ana.nueva@mesa.test")}?`);
    expect((await client.visit("/settings/profile")).page.flash).toEqual({
      success: es("settings.profile.saved_verify"),
    });
    expect((await client.get("/dashboard")).headers.get("location")).toBe("/verify-email");
    expect((await client.get(link)).headers.get("location")).toBe("/dashboard?verified=1");
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).not.toBeNull();
  });

  test("a link sent for the old address no longer verifies after the e-mail changed", async () => {
    const { app, client } = setup();
    const user = await addUser(app, { verified: false });
    await signIn(client);
    const oldLink = signedPath(TEST_APP_KEY, `/email/verify/${user.id}/${sha256(EMAIL)}`, Date.now() + 60_000);
    await submit(
      client,
      "PATCH",
      "/settings/profile",
      { name: NAME, email: "ana.nueva@mesa.test" },
      { from: "/settings/profile" },
    );
    expect((await client.request(oldLink, { inertia: true })).status).toBe(404);
    expect(findUserById(app.db, user.id)!.emailVerifiedAt).toBeNull();
  });

  test("an e-mail taken by another account is refused", async () => {
    const { app, client } = setup();
    await addUser(app);
    await addUser(app, { name: "Luis Rojas", email: "luis@mesa.test" });
    await signIn(client);
    await submit(
      client,
      "PATCH",
      "/settings/profile",
      { name: NAME, email: "LUIS@mesa.test" },
      { from: "/settings/profile" },
    );
    expect(await errorsOn(client, "/settings/profile")).toEqual({ email: es("validation.email_taken") });
    expect(findUserByEmail(app.db, EMAIL)).toBeDefined();
  });

  test("DELETE /settings/profile with a wrong password errors under the deleteAccount bag", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client);
    const response = await submit(
      client,
      "DELETE",
      "/settings/profile",
      { password: "not-the-password" },
      { from: "/settings/profile", headers: { "x-inertia-error-bag": "deleteAccount" } },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/settings/profile");
    expect(await errorsOn(client, "/settings/profile")).toEqual({
      deleteAccount: { password: es("validation.password.current") },
    });
    expect(findUserById(app.db, user.id)).toBeDefined();
    expect(await isSignedIn(client)).toBe(true);
  });

  test("DELETE /settings/profile without the error bag errors on the password field", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    await submit(client, "DELETE", "/settings/profile", {}, { from: "/settings/profile" });
    expect(await errorsOn(client, "/settings/profile")).toEqual({ password: es("validation.password.current") });
  });

  test("DELETE /settings/profile with the right password deletes the user and signs out", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client);
    const elsewhere = new Client(app);
    await signIn(elsewhere);
    const response = await submit(
      client,
      "DELETE",
      "/settings/profile",
      { password: PASSWORD },
      { from: "/settings/profile", headers: { "x-inertia-error-bag": "deleteAccount" } },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(findUserById(app.db, user.id)).toBeUndefined();
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").get(user.id)).toEqual({ n: 0 });
    expect(await isSignedIn(client)).toBe(false);
    expect(await isSignedIn(elsewhere)).toBe(false);
    await signIn(client);
    expect((await errorsOn(client, "/login")).email).toBe(es("auth.failed"));
  });
});

// ——— Password change ———

describe("password change", () => {
  test("a wrong current password is refused", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    const response = await submit(
      client,
      "PUT",
      "/settings/password",
      { current_password: "not-the-password", password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { from: "/settings/password" },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/settings/password");
    expect(await errorsOn(client, "/settings/password")).toEqual({
      current_password: es("validation.password.current"),
    });
    const limiter = new RateLimiter(app.db);
    expect((await checkCredentials(app.db, limiter, { email: EMAIL, password: PASSWORD }, null)).user.email).toBe(
      EMAIL,
    );
  });

  test("a weak or unconfirmed new password is refused", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    await submit(
      client,
      "PUT",
      "/settings/password",
      { current_password: PASSWORD, password: "qwerty123", password_confirmation: "qwerty123" },
      { from: "/settings/password" },
    );
    expect(await errorsOn(client, "/settings/password")).toEqual({ password: es("validation.password.common") });
    await submit(
      client,
      "PUT",
      "/settings/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: "something-else-1" },
      { from: "/settings/password" },
    );
    expect(await errorsOn(client, "/settings/password")).toEqual({ password: es("validation.password.confirmation") });
  });

  test("success changes the password, keeps this session and ends the user's other sessions", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    const other = await addUser(app, { name: "Luis Rojas", email: "luis@mesa.test" });
    await signIn(client);
    const second = new Client(app);
    await signIn(second);
    const stranger = new Client(app);
    await signIn(stranger, "luis@mesa.test");
    const before = client.cookies.get(SESSION_COOKIE)!;

    const response = await submit(
      client,
      "PUT",
      "/settings/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { from: "/settings/password" },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/settings/password");
    const { response: page, page: settings } = await client.visit("/settings/password");
    expect(page.status).toBe(200);
    expect(settings.flash).toEqual({ success: es("settings.password.saved") });
    expect(settings.props.auth.user.id).toBe(user.id);
    // This session continues under a new id.
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(before);
    expect(app.sessions.exists(before)).toBe(false);
    expect(await isSignedIn(client)).toBe(true);
    // The other session of this user ends; another user's session does not.
    expect(await isSignedIn(second)).toBe(false);
    expect(await isSignedIn(stranger)).toBe(true);
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").get(user.id)).toEqual({ n: 1 });
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").get(other.id)).toEqual({
      n: 1,
    });

    const limiter = new RateLimiter(app.db);
    expect((await checkCredentials(app.db, limiter, { email: EMAIL, password: NEW_PASSWORD }, null)).user.id).toBe(
      user.id,
    );
    await expect(checkCredentials(app.db, limiter, { email: EMAIL, password: PASSWORD }, null)).rejects.toBeInstanceOf(
      ValidationFailed,
    );
  });

  test("throttled after 6 attempts per minute: the 7th is 429, even with the right password", async () => {
    const { app, client } = setup();
    await addUser(app);
    await signIn(client);
    for (let i = 0; i < 6; i++) {
      const response = await submit(
        client,
        "PUT",
        "/settings/password",
        { current_password: `wrong-${i}-pass`, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        { from: "/settings/password" },
      );
      expect(response.status).toBe(303);
    }
    const blocked = await submit(
      client,
      "PUT",
      "/settings/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { from: "/settings/password" },
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const limiter = new RateLimiter(app.db);
    expect((await checkCredentials(app.db, limiter, { email: EMAIL, password: PASSWORD }, null)).user.email).toBe(
      EMAIL,
    );
  });
});

// ——— Pages ———

describe("auth pages", () => {
  test("the sign-in page carries the security headers", async () => {
    const { client } = setup();
    const response = await client.get("/login");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toContain("no-store");
  });

  test("the dashboard shows no role, and auth.user carries name and e-mail but never the password hash", async () => {
    const { app, client } = setup();
    const user = await addUser(app);
    await signIn(client, EMAIL, PASSWORD, true);
    const response = await client.get("/dashboard");
    expect(response.status).toBe(200);
    const html = await response.text();
    const { page } = await client.visit("/dashboard");
    expect(page.props.account.roles).toEqual([]);
    expect(page.props.account).toMatchObject({ name: NAME, email: EMAIL });
    expect(page.props.auth.user).toEqual({ id: user.id, name: NAME, email: EMAIL, emailVerified: true });
    const stored = findUserById(app.db, user.id)!;
    for (const text of [JSON.stringify(page), html]) {
      expect(text).not.toContain(stored.passwordHash);
      expect(text).not.toContain("$argon2");
      expect(text).not.toContain(stored.rememberTokenHash!);
      expect(text).not.toMatch(/passwordHash|password_hash|rememberToken/);
    }
  });
});
