/**
 * What the browser keeps of pages that show document numbers (src/http/page-protocol/history.ts). On 127.0.0.1,
 * a secure context, the Users page is kept in the tab's history only encrypted, and after signing out the back
 * button asks the server again (which sends to sign in) instead of showing the page. On an address that is not a
 * secure context (a made-up host name resolved to the same server), browsers give no encryption: the pages still
 * open, navigate and come back.
 */
import { chromium, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { watchConsole, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Altiplano-Quinua-2024!";
const ADMIN = { name: `Hilda Historial ${RUN}`, email: `historial.${RUN}@example.com` };
const DOCUMENT = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
/** Resolved to the test server by the second browser; not localhost, so not a secure context over http. */
const INSECURE_HOST = "mesa-lan.test";

test.beforeAll(async ({ mesa }) => {
  await mesa.user({
    ...ADMIN,
    password: PASSWORD,
    document: DOCUMENT,
    role: "super-administrator",
    area: "Administración",
    place: "Sede Lima",
  });
});

/** Opens the Users page from the dashboard's navigation; it shows the administrator's own document number. */
async function openUsers(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Usuarios" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByText(DOCUMENT)).toBeVisible();
}

/** Signs in through the form at `origin` (the session cookie of the fixture is for 127.0.0.1 only). */
async function signInByForm(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/login`);
  await waitForHydration(page);
  await page.getByLabel("Correo electrónico").fill(ADMIN.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** What the tab's history holds for the current entry: an encrypted buffer or the page object itself. */
const storedPage = (page: Page) =>
  page.evaluate(() => {
    const stored = window.history.state?.page;
    return stored instanceof ArrayBuffer ? "encrypted" : (stored?.component ?? null);
  });

test("on 127.0.0.1 the Users page is kept encrypted, and back after signing out asks to sign in instead of showing it", async ({
  page,
  mesa,
}) => {
  const problems = watchConsole(page);
  await mesa.signIn(page, ADMIN);
  await page.goto("/dashboard");
  await waitForHydration(page);
  await openUsers(page);
  await expect.poll(() => storedPage(page)).toBe("encrypted");

  await page.getByRole("banner").getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => storedPage(page)).toBe("welcome");

  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Correo electrónico")).toBeVisible();
  await expect(page.getByText(DOCUMENT)).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("on an http address that is not a secure context the same pages open, navigate and come back", async ({
  baseURL,
}) => {
  const origin = `http://${INSECURE_HOST}:${new URL(baseURL!).port}`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", `--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`],
  });
  try {
    const page = await browser.newPage();
    const problems = watchConsole(page);
    await signInByForm(page, origin);
    await openUsers(page);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await expect.poll(() => storedPage(page)).toBe("users/index");

    await page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Panel" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByText(DOCUMENT)).toBeVisible();
    // Chromium says, rightly, that it ignores Cross-Origin-Opener-Policy on such an origin; nothing else is said.
    expect(problems.filter((p) => !p.includes("Cross-Origin-Opener-Policy header has been ignored"))).toEqual([]);
  } finally {
    await browser.close();
  }
});
