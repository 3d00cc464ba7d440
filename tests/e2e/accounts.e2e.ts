/**
 * Accounts in a real browser: registration, e-mail verification and password reset with the links read from the
 * mail Mesa writes (one .eml per message in the worker's mail folder, see tests/e2e/fixtures.ts), sign-out,
 * remember-me across a browser restart, profile and password settings, sign-in throttling, and clean hydration of
 * every accounts page. Where the sign-in form is what a test is about (registration, reset, remember-me, throttling)
 * it types the form; the settings and the hydration checks sign in by session cookie, as the other browser tests do.
 * Users other than the registered one are made by the worker's fixtures. The tests are independent (each makes its own
 * people), so the two workers share them.
 *
 * The rules behind these screens are the HTTP tests' (tests/http/auth.test.ts): an unverified user is kept on
 * /verify-email, a signed-out one is sent to sign in, a reset password refuses the old one, a profile change is stored,
 * a wrong current password leaves the password as it was, and a throttled sign-in refuses even the right password.
 */
import type { Page } from "@playwright/test";
import { expect, test, type Mesa } from "./fixtures";
import { openSettled, watchConsole, watchServerMarkup, waitForHydration } from "./support";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SESSION_COOKIE = "mesa_session";
const REMEMBER_COOKIE = "mesa_remember";
/** Unique per run, so the addresses never collide with a previous run's (or a reused database's) accounts. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Altiplano-Quinua-2024!";

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/** Opens `path` with a full page load and waits for hydration. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** A user with PASSWORD on the worker's database, verified unless told otherwise. */
async function createUser(mesa: Mesa, name: string, email: string, { verified = true } = {}): Promise<void> {
  await mesa.user({ name, email, password: PASSWORD, verified });
}

async function signIn(page: Page, email: string, password: string, { remember = false } = {}): Promise<void> {
  await open(page, "/login");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  if (remember) await page.getByLabel("Recordarme").check();
  await page.getByRole("button", { name: "Ingresar" }).click();
}

// --- Mail ------------------------------------------------------------------------------------------------------

function mailFiles(mailDir: string): string[] {
  try {
    return readdirSync(mailDir)
      .filter((name) => name.endsWith(".eml"))
      .sort();
  } catch {
    return [];
  }
}

function decodeQuotedPrintable(body: string): string {
  const binary = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(binary, "latin1").toString("utf8");
}

/** The message's headers (unfolded) and the decoded text of every part. */
function parseMail(raw: string): { headers: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  const text = parts
    .map((part) => {
      const at = part.search(/\r?\n\r?\n/);
      const head = part.slice(0, at);
      const body = part.slice(at).trim();
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
      if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
      if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
      return body;
    })
    .join("\n");
  return { headers, text };
}

/**
 * The link to `path` in the newest message to `address` in `mailDir` written since `before` (a snapshot of
 * mailFiles()), waiting up to 5 seconds for it.
 */
async function linkFromNewestMail(mailDir: string, address: string, path: RegExp, before: string[]): Promise<string> {
  const seen = new Set(before);
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const name of mailFiles(mailDir)
          .filter((n) => !seen.has(n))
          .reverse()) {
          const { headers, text } = parseMail(readFileSync(join(mailDir, name), "utf8"));
          const to = /^to:(.*)$/im.exec(headers)?.[1] ?? "";
          if (!to.toLowerCase().includes(address.toLowerCase())) continue;
          const urls = (text.match(/https?:\/\/[^\s"<>]+/g) ?? []).map((u) => u.replace(/&amp;/g, "&"));
          link = urls.find((u) => path.test(new URL(u).pathname));
          if (link) return link;
        }
        return undefined;
      },
      { message: `a new mail to ${address} with a link to ${path}`, timeout: 5_000 },
    )
    .toBeTruthy();
  return link!;
}

/**
 * A browser restart: its tabs are gone, and so is the session cookie (a cookie without an expiry); the long-lived
 * ones stay. Returns the first tab of the restarted browser.
 */
async function restart(page: Page): Promise<Page> {
  const context = page.context();
  await page.close();
  await context.clearCookies({ name: SESSION_COOKIE });
  return context.newPage();
}

const flash = (page: Page, kind: "success" | "error") => page.locator(`[data-flash="${kind}"]`);

// ---------------------------------------------------------------------------------------------------------------

test.describe.configure({ mode: "parallel" });

test.describe("accounts", () => {
  test("register, verify by mail, sign out, reset the password by mail, sign in with the new one", async ({
    page,
    mesa,
  }) => {
    const problems = watchConsole(page);
    const name = `Rosa Quispe ${RUN}`;
    const email = `rosa.${RUN}@example.com`;
    const newPassword = "Socavon-Cusco-7788!";

    // Register.
    await open(page, "/register");
    await page.getByLabel("Nombre completo").fill(name);
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirme la contraseña").fill(PASSWORD);
    const mailsBeforeRegister = mailFiles(mesa.mailDir);
    await page.getByRole("button", { name: "Crear cuenta" }).click();

    // The verification notice; the dashboard is closed until the e-mail is verified.
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByRole("heading", { level: 1, name: "Verifique su correo" })).toBeVisible();
    await expect(page.getByText(`Le enviamos un enlace a ${email}`)).toBeVisible();

    // The verification link from the mail.
    const verifyLink = await linkFromNewestMail(
      mesa.mailDir,
      email,
      /^\/email\/verify\/\d+\/[a-f0-9]{64}$/,
      mailsBeforeRegister,
    );
    expect(new URL(verifyLink).searchParams.get("signature")).toBeTruthy();
    await page.goto(verifyLink);
    await expect(page).toHaveURL(/\/dashboard\?verified=1$/);
    await waitForHydration(page);
    await expect(flash(page, "success")).toHaveText("Su correo quedó verificado.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${name}`);
    await expect(page.getByTestId("user-name")).toHaveText(name);
    await expect(page.getByRole("heading", { name: "Todavía no tiene un rol" })).toBeVisible();
    await expect(page.getByText(/^Verificado el /)).toBeVisible();

    // Sign out from the header.
    await page.getByRole("banner").getByRole("button", { name: "Cerrar sesión" }).click();
    await expect(page).toHaveURL(/\/$/);
    const toSignIn = page.getByRole("link", { name: "Iniciar sesión" }).first();
    await expect(toSignIn).toBeVisible();
    await toSignIn.click();
    await expect(page).toHaveURL(/\/login$/);
    await waitForHydration(page);

    // Forgot password, from the sign-in page.
    await page.getByRole("link", { name: "¿Olvidó su contraseña?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole("heading", { level: 1, name: "Olvidé mi contraseña" })).toBeVisible();
    await page.getByLabel("Correo electrónico").fill(email);
    const mailsBeforeReset = mailFiles(mesa.mailDir);
    await page.getByRole("button", { name: "Enviar enlace" }).click();
    await expect(flash(page, "success")).toHaveText(
      "Si existe una cuenta con ese correo, le enviamos un enlace para restablecer la contraseña.",
    );

    // The reset link from the mail: a new password.
    const resetLink = await linkFromNewestMail(mesa.mailDir, email, /^\/reset-password\/[^/]+$/, mailsBeforeReset);
    expect(new URL(resetLink).searchParams.get("email")).toBe(email);
    await open(page, resetLink);
    await expect(page.getByRole("heading", { level: 1, name: "Restablecer contraseña" })).toBeVisible();
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
    await page.getByLabel("Nueva contraseña", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirme la nueva contraseña").fill(newPassword);
    await page.getByRole("button", { name: "Guardar contraseña" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(flash(page, "success")).toHaveText("Su contraseña fue cambiada. Ya puede iniciar sesión.");

    // Sign in with the new password.
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Ingresar" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${name}`);
    await expect(page.getByTestId("user-name")).toHaveText(name);

    expect(problems, problems.join("\n")).toEqual([]);
  });

  test("remember me survives a browser restart; without it the restarted browser is signed out", async ({
    page,
    context,
    mesa,
  }) => {
    const name = `Luis Mamani ${RUN}`;
    const email = `luis.${RUN}@example.com`;
    await createUser(mesa, name, email);
    const problems: string[][] = [];

    // With "Recordarme".
    problems.push(watchConsole(page));
    await signIn(page, email, PASSWORD, { remember: true });
    await expect(page).toHaveURL(/\/dashboard$/);
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toContain(REMEMBER_COOKIE);
    const oldSession = cookies.find((c) => c.name === SESSION_COOKIE)?.value;
    expect(oldSession).toBeTruthy();

    const again = await restart(page);
    expect((await context.cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);
    problems.push(watchConsole(again));
    await open(again, "/dashboard");
    await expect(again).toHaveURL(/\/dashboard$/);
    await expect(again.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${name}`);
    await expect(again.getByTestId("user-name")).toHaveText(name);
    // Signed in again under a new session.
    const newSession = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)?.value;
    expect(newSession).toBeTruthy();
    expect(newSession).not.toBe(oldSession);

    // Without "Recordarme", in a browser that starts with no cookies at all.
    await again.close();
    await context.clearCookies();
    const second = await context.newPage();
    problems.push(watchConsole(second));
    await signIn(second, email, PASSWORD);
    await expect(second).toHaveURL(/\/dashboard$/);
    expect((await context.cookies()).map((c) => c.name)).not.toContain(REMEMBER_COOKIE);

    const third = await restart(second);
    problems.push(watchConsole(third));
    await open(third, "/dashboard");
    await expect(third).toHaveURL(/\/login$/);
    await expect(third.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();

    const all = problems.flat();
    expect(all, all.join("\n")).toEqual([]);
  });

  test("Settings: the profile's new name is saved and shown; a wrong current password is refused under its field", async ({
    page,
    mesa,
  }) => {
    const problems = watchConsole(page);
    const email = `ana.${RUN}@example.com`;
    await createUser(mesa, `Ana Flores ${RUN}`, email);
    const newName = `Ana María Flores ${RUN}`;
    await mesa.signIn(page, { email });

    // Profile.
    await open(page, "/settings/profile");
    await expect(page.getByRole("heading", { level: 2, name: "Perfil" })).toBeVisible();
    const nameField = page.getByLabel("Nombre", { exact: true });
    await expect(nameField).toHaveValue(`Ana Flores ${RUN}`);
    await nameField.fill(newName);
    await page.getByRole("button", { name: "Guardar", exact: true }).click();
    await expect(page.getByTestId("saved-flag")).toHaveText("Guardado.");
    await expect(flash(page, "success")).toHaveText("Perfil guardado.");
    await expect(page.getByTestId("user-name")).toHaveText(newName);
    await expect(nameField).toHaveValue(newName);
    // Stored, not only shown: a full reload still has it (and the reload takes the "saved" notice away, so the
    // password's refusal below is seen to bring none of its own).
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByTestId("user-name")).toHaveText(newName);
    await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(newName);

    // Password, reached from the settings menu.
    await page.getByRole("navigation", { name: "Configuración" }).getByRole("link", { name: "Contraseña" }).click();
    await expect(page).toHaveURL(/\/settings\/password$/);
    await expect(page.getByRole("heading", { level: 2, name: "Contraseña" })).toBeVisible();
    const current = page.getByLabel("Contraseña actual");
    await current.fill("Not-My-Password-123!");
    await page.getByLabel("Nueva contraseña", { exact: true }).fill("Huancayo-Nevado-5521!");
    await page.getByLabel("Confirme la nueva contraseña").fill("Huancayo-Nevado-5521!");
    await page.getByRole("button", { name: "Guardar contraseña" }).click();
    await expect(current).toHaveAttribute("aria-invalid", "true");
    await expect(current).toHaveAccessibleDescription("La contraseña no es correcta.");
    // Shown right under the field it belongs to.
    const error = page.getByText("La contraseña no es correcta.");
    await expect(error).toBeVisible();
    const [fieldBox, errorBox] = [await current.boundingBox(), await error.boundingBox()];
    expect(errorBox!.y).toBeGreaterThan(fieldBox!.y);
    expect(errorBox!.y - (fieldBox!.y + fieldBox!.height)).toBeLessThan(24);
    await expect(page.getByTestId("saved-flag")).toHaveText("");
    await expect(flash(page, "success")).toHaveCount(0);

    expect(problems, problems.join("\n")).toEqual([]);
  });

  test("five wrong passwords, then the sixth sign-in attempt gets the 429 page with the retry time", async ({
    page,
    mesa,
  }) => {
    const problems = watchConsole(page);
    const email = `jorge.${RUN}@example.com`;
    await createUser(mesa, `Jorge Huamán ${RUN}`, email);
    await open(page, "/login");
    const emailField = page.getByLabel("Correo electrónico");
    const password = page.getByLabel("Contraseña", { exact: true });
    await emailField.fill(email);

    const attempt = async () => {
      await password.fill("Wrong-Password-000!");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/login"),
        page.getByRole("button", { name: "Ingresar" }).click(),
      ]);
      return response;
    };
    for (let i = 1; i <= 5; i++) {
      const response = await attempt();
      expect(response.status(), `attempt ${i}`).toBe(302);
      await expect(page.getByText("El correo o la contraseña no son correctos.")).toBeVisible();
      await expect(password).toHaveValue("");
    }

    const sixth = await attempt();
    expect(sixth.status()).toBe(429);
    const retryAfter = Number(sixth.headers()["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expect(page.getByRole("heading", { level: 1, name: "Demasiadas solicitudes" })).toBeVisible();
    await expect(page.getByText(/^Puede intentarlo de nuevo en \d+ segundos\.$/)).toBeVisible();
    const shown = Number((await page.getByText(/^Puede intentarlo de nuevo en/).textContent())!.match(/\d+/)![0]);
    expect(Math.abs(shown - retryAfter)).toBeLessThanOrEqual(1);

    // The browser's own note about the 429 responses is expected; nothing else.
    const unexpected = problems.filter(
      (p) => !/Failed to load resource: the server responded with a status of 429/.test(p),
    );
    expect(unexpected, unexpected.join("\n")).toEqual([]);
  });

  test("every accounts page is server-rendered and hydrates without console errors or mismatches", async ({
    page,
    context,
    mesa,
  }) => {
    // Eleven full page loads: more than the usual time on a busy machine.
    test.slow();
    const unverifiedEmail = `pedro.${RUN}@example.com`;
    const verifiedEmail = `carmen.${RUN}@example.com`;
    await createUser(mesa, `Pedro Condori ${RUN}`, unverifiedEmail, { verified: false });
    await createUser(mesa, `Carmen Rojas ${RUN}`, verifiedEmail);

    // One tab for the eleven pages: the markup watcher starts afresh on each document, and the console's problems are
    // read (and cleared) page by page.
    const problems = watchConsole(page);
    await watchServerMarkup(page);
    const check = async (path: string, expectedPath: RegExp, heading: string | RegExp) => {
      const response = await openSettled(page, path);
      expect(response!.status(), path).toBe(200);
      await expect(page).toHaveURL(expectedPath);
      await expect(page.locator("#app")).toHaveAttribute("data-server-rendered", "true");
      await expect(page.getByRole("heading", { level: 1 }).first()).toHaveText(heading);
      expect(await page.evaluate(() => (window as any).__removedFromApp), `${path}: markup React replaced`).toEqual([]);
      expect(problems, `${path}:\n${problems.join("\n")}`).toEqual([]);
    };

    // A guest.
    await check("/login", /\/login$/, "Iniciar sesión");
    await check("/register", /\/register$/, "Crear cuenta");
    await check("/forgot-password", /\/forgot-password$/, "Olvidé mi contraseña");
    await check(
      `/reset-password/not-a-real-token?email=${encodeURIComponent(verifiedEmail)}`,
      /\/reset-password\//,
      "Restablecer contraseña",
    );

    // Someone signed in whose address is not verified yet. The tab leaves the page before its cookies change (a page
    // still talking to the server would be refused meanwhile).
    await page.goto("about:blank");
    await context.clearCookies();
    await mesa.signIn(context, { email: unverifiedEmail });
    await check("/verify-email", /\/verify-email$/, "Verifique su correo");

    // Someone verified.
    await page.goto("about:blank");
    await context.clearCookies();
    await mesa.signIn(context, { email: verifiedEmail });
    await check("/dashboard", /\/dashboard$/, `Hola, Carmen Rojas ${RUN}`);
    await check("/settings/profile", /\/settings\/profile$/, "Configuración");
    await check("/settings/password", /\/settings\/password$/, "Configuración");
    await check("/confirm-password", /\/confirm-password$/, "Confirme su contraseña");
  });
});
