/**
 * Throttling through the app: attempts are counted before the password is checked (so concurrent requests cannot
 * all slip through), limits per address against password spraying, registration and reset requests limited per
 * e-mail and per address, and the reset answer never waiting for the mail. Requests through `app.handle` have no
 * connecting address, so they all count as one unknown address.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { signInAddressKey } from "../../src/domain/accounts/authentication";
import { createUser, findUserByEmail } from "../../src/domain/accounts/users";
import { LIMITS, type Limit } from "../../src/domain/rate-limit";
import type { MailMessage } from "../../src/mail/mailer";
import { access, type RouteDefinition } from "../../src/http/routing";
import { BASE, Client, createTestApp, type TestApp } from "../support/app";
import { mailFiles } from "../support/mail";
import { captureLog } from "../support/log";

// Each checked password costs an argon2 hash (about 0.2 s here), and some tests check several at once.
setDefaultTimeout(20_000);

const PASSWORD = "correct-horse-42";
const EMAIL = "ana@mesa.test";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

function setup(options: { routes?: RouteDefinition[]; env?: Record<string, string> } = {}): {
  app: TestApp;
  client: Client;
} {
  const app = createTestApp(options);
  return { app, client: new Client(app) };
}

function addUser(app: TestApp, email = EMAIL) {
  return createUser(app.db, app.config, { name: "Ana Quispe", email, password: PASSWORD }, { verified: true });
}

/** Posts a form the way the page client does, coming from `from` (the XSRF cookie must already be there). */
function post(
  client: Client,
  path: string,
  json: unknown,
  from: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return client.request(path, { method: "POST", inertia: true, json, headers: { referer: BASE + from, ...headers } });
}

function signIn(client: Client, email: string, password: string): Promise<Response> {
  return post(client, "/login", { email, password }, "/login");
}

/** Sets the counter of `key` as if `attempts` had been counted just now. */
function preset(app: TestApp, key: string, attempts: number, limit: Limit): void {
  app.db.$client
    .query("INSERT INTO rate_limits (key, attempts, reset_at) VALUES (?, ?, ?)")
    .run(key, attempts, Date.now() + limit.decaySeconds * 1000);
}

/** Checks a throttled answer: 429 with a Retry-After within the limit's window. */
function expectThrottled(response: Response, limit: Limit): void {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(limit.decaySeconds);
}

/** The statuses of `responses`, counted: { 302: 5, 429: 35 }. */
function statuses(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

/** Waits until `check` holds, failing after two seconds. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

describe("sign-in throttle", () => {
  test("40 concurrent wrong passwords for one account: only 5 are checked, the other 35 get 429 with Retry-After", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(client, EMAIL, `wrong-${i}-password`)),
    );
    expect(statuses(responses)).toEqual({ 302: LIMITS.signIn.max, 429: 40 - LIMITS.signIn.max });
    for (const response of responses) {
      if (response.status === 302) expect(response.headers.get("location")).toBe("/login");
      else expectThrottled(response, LIMITS.signIn);
    }
    // Still throttled afterwards, even with the right password.
    expectThrottled(await signIn(client, EMAIL, PASSWORD), LIMITS.signIn);
  });

  test("throttled sign-in: 429 with Retry-After for the page client, a JSON client and a plain form", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    for (let i = 0; i < LIMITS.signIn.max; i++)
      expect((await signIn(client, EMAIL, `wrong-${i}-password`)).status).toBe(302);

    const page = await signIn(client, EMAIL, PASSWORD);
    expectThrottled(page, LIMITS.signIn);
    expect(page.headers.get("x-inertia")).toBe("true");
    const object = (await page.json()) as Record<string, any>;
    expect(object.component).toBe("error");
    expect(object.props).toMatchObject({ status: 429, retryAfter: Number(page.headers.get("retry-after")) });

    const json = await client.request("/login", {
      method: "POST",
      json: { email: EMAIL, password: PASSWORD },
      headers: { accept: "application/json" },
    });
    expectThrottled(json, LIMITS.signIn);
    expect(await json.json()).toEqual({ message: es("errors.title.429") });

    const form = await client.request("/login", {
      method: "POST",
      body: new URLSearchParams({ email: EMAIL, password: PASSWORD }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectThrottled(form, LIMITS.signIn);
    expect(await form.text()).toContain(es("errors.retry_after", { count: Number(form.headers.get("retry-after")) }));
  });

  test("password spraying: failed sign-ins from one address are limited whatever the e-mail", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    preset(app, signInAddressKey(null), LIMITS.signInPerAddress.max - 2, LIMITS.signInPerAddress);
    expect((await signIn(client, "luis@mesa.test", "Password2024!")).status).toBe(302);
    expect((await signIn(client, "rosa@mesa.test", "Password2024!")).status).toBe(302);
    expectThrottled(await signIn(client, "jorge@mesa.test", "Password2024!"), LIMITS.signInPerAddress);
    // Everyone behind that address waits, the right password too.
    expectThrottled(await signIn(client, EMAIL, PASSWORD), LIMITS.signInPerAddress);
  });

  test("40 concurrent guesses over 40 accounts from one address stop at the address limit", async () => {
    const { app, client } = setup();
    await client.visit("/login");
    preset(app, signInAddressKey(null), LIMITS.signInPerAddress.max - 3, LIMITS.signInPerAddress);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(client, `person${i}@mesa.test`, "Password2024!")),
    );
    expect(statuses(responses)).toEqual({ 302: 3, 429: 37 });
  });

  test("a right password does not count against the address", async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/login");
    preset(app, signInAddressKey(null), LIMITS.signInPerAddress.max - 1, LIMITS.signInPerAddress);
    expect((await signIn(client, EMAIL, PASSWORD)).headers.get("location")).toBe("/dashboard");
    const other = new Client(app);
    await other.visit("/login");
    expect((await signIn(other, "luis@mesa.test", "Password2024!")).status).toBe(302);
    expectThrottled(await signIn(other, "rosa@mesa.test", "Password2024!"), LIMITS.signInPerAddress);
  });
});

describe("password confirmation throttle", () => {
  test("20 concurrent wrong passwords: only 5 are checked, the rest get 429", async () => {
    const sensitive: RouteDefinition = {
      name: "test.sensitive",
      methods: ["GET"],
      uri: "/test/sensitive",
      access: access.signedIn,
      confirmPassword: true,
      handle: (ctx) => ctx.renderComponent("test/sensitive", {}),
    };
    const { app, client } = setup({ routes: [sensitive] });
    await addUser(app);
    await client.visit("/login");
    expect((await signIn(client, EMAIL, PASSWORD)).headers.get("location")).toBe("/dashboard");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(client, "/confirm-password", { password: `wrong-${i}-pass` }, "/confirm-password"),
      ),
    );
    expect(statuses(responses)).toEqual({ 302: LIMITS.confirmPassword.max, 429: 20 - LIMITS.confirmPassword.max });
  });
});

describe("registration throttle", () => {
  const form = (email: string, confirmation = PASSWORD) => ({
    name: "Ana Quispe",
    email,
    password: PASSWORD,
    password_confirmation: confirmation,
  });

  test(`per e-mail: after ${LIMITS.registerPerEmail.max} attempts in an hour the next is 429, even a good form`, async () => {
    const { app, client } = setup();
    await client.visit("/register");
    for (let i = 0; i < LIMITS.registerPerEmail.max; i++) {
      expect((await post(client, "/register", form(EMAIL, `mismatch-${i}`), "/register")).headers.get("location")).toBe(
        "/register",
      );
    }
    expectThrottled(await post(client, "/register", form(EMAIL), "/register"), LIMITS.registerPerEmail);
    expect(findUserByEmail(app.db, EMAIL)).toBeUndefined();
    // Another e-mail from the same address still goes through.
    expect((await post(client, "/register", form("luis@mesa.test"), "/register")).headers.get("location")).toBe(
      "/dashboard",
    );
  });

  test(`per address: after ${LIMITS.registerPerAddress.max} attempts in an hour the next is 429, whatever the e-mail`, async () => {
    const { app, client } = setup();
    await client.visit("/register");
    for (let i = 0; i < LIMITS.registerPerAddress.max; i++) {
      expect((await post(client, "/register", form(`person${i}@mesa.test`, "mismatch"), "/register")).status).toBe(302);
    }
    expectThrottled(await post(client, "/register", form(EMAIL), "/register"), LIMITS.registerPerAddress);
    expect(findUserByEmail(app.db, EMAIL)).toBeUndefined();
  });

  test("switched off, POST /register stays 404 and counts nothing", async () => {
    const { app, client } = setup({ env: { REGISTRATION_ENABLED: "false" } });
    await client.visit("/login");
    expect((await post(client, "/register", form(EMAIL), "/register")).status).toBe(404);
    expect(app.db.$client.query("SELECT COUNT(*) AS n FROM rate_limits").get()).toEqual({ n: 0 });
  });
});

describe("forgot-password throttle", () => {
  const requestReset = (client: Client, email: string) =>
    post(client, "/forgot-password", { email }, "/forgot-password");

  test(`per e-mail: after ${LIMITS.resetRequestPerEmail.max} requests in an hour the next is 429, for a known and an unknown e-mail alike`, async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/forgot-password");
    for (const email of [EMAIL, "nobody@mesa.test"]) {
      for (let i = 0; i < LIMITS.resetRequestPerEmail.max; i++)
        expect((await requestReset(client, email)).headers.get("location")).toBe("/forgot-password");
      expectThrottled(await requestReset(client, email), LIMITS.resetRequestPerEmail);
    }
  });

  test(`per address: after ${LIMITS.resetRequestPerAddress.max} requests in an hour the next is 429, whatever the e-mail`, async () => {
    const { app, client } = setup();
    await addUser(app);
    await client.visit("/forgot-password");
    for (let i = 0; i < LIMITS.resetRequestPerAddress.max; i++)
      expect((await requestReset(client, `person${i}@mesa.test`)).status).toBe(302);
    expectThrottled(await requestReset(client, EMAIL), LIMITS.resetRequestPerAddress);
    await Bun.sleep(100);
    expect(mailFiles(app)).toEqual([]);
  });

  test("the answer does not wait for the mail: a mail server that never answers still gets a prompt answer", async () => {
    const { app, client } = setup();
    await addUser(app);
    const handed: MailMessage[] = [];
    app.services.mailer = { send: (message) => (handed.push(message), new Promise<void>(() => {})) };
    await client.visit("/forgot-password");
    const answer = await Promise.race([requestReset(client, EMAIL), Bun.sleep(2_000).then(() => null)]);
    expect(answer).not.toBeNull();
    expect(answer!.headers.get("location")).toBe("/forgot-password");
    // The mail is handed over after the answer.
    await eventually(() => handed.length === 1, "the reset mail");
    expect(handed[0].to.address).toBe(EMAIL);
  });

  test("a mail that cannot be sent is logged, and the answer is the usual one", async () => {
    const { app, client } = setup();
    await addUser(app);
    app.services.mailer = { send: () => Promise.reject(new Error("SMTP refused the connection")) };
    const logged = captureLog();
    try {
      await client.visit("/forgot-password");
      const answer = await requestReset(client, EMAIL);
      expect(answer.headers.get("location")).toBe("/forgot-password");
      expect((await client.visit("/forgot-password")).page.flash).toEqual({ success: es("auth.reset_link_sent") });
      await eventually(() => logged.lines.length > 0, "the failure to be logged");
      expect(logged.lines[0]).toMatchObject({ level: "error", msg: "the password reset mail could not be sent" });
      expect(logged.lines[0].err.message).toBe("SMTP refused the connection");
      expect(logged.text()).not.toContain(EMAIL);
    } finally {
      logged.restore();
    }
  });
});
