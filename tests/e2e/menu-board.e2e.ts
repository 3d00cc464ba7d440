/**
 * The menu board in a real browser (port 3307): an administrator makes a display link on the Display page (the
 * link is shown once); a screen with no session opens it and sees the cafe's board; the administrator publishes
 * today's draft from another browser context and the screen shows the new dish live, without reloading; the
 * administrator revokes the link and the screen says at once that the link is no longer valid. The draft comes
 * from tests/support/menu-board-fixtures.ts, the administrator from tests/support/e2e-fixtures.ts.
 */
import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { acceptConfirmation, watchConsole, waitForHydration } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUN = join(ROOT, "node_modules/.bin/bun");
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Altiplano-Quinua-2024!";
const ADMIN = { name: `Sofía Pantalla ${RUN}`, email: `board.super.${RUN}@example.com` };
const CAFE = "Comedor Principal";
const DISH = `Lasaña del día ${RUN}`;

const baseURL = () => String(test.info().project.use.baseURL);

function fixture(script: string, args: string[]): string {
  return execFileSync(BUN, [script, ...args], {
    cwd: ROOT,
    env: { ...process.env, DB_PATH: process.env.MESA_E2E_DB },
    stdio: "pipe",
  })
    .toString()
    .trim()
    .split("\n")
    .pop()!;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
}

test("a board opened through its link follows a publishing live, and stops when the link is revoked", async ({
  browser,
}) => {
  // Two browser contexts, two fixtures and a live round trip: more than the default 20 s on a busy machine.
  test.setTimeout(60_000);
  fixture("tests/support/e2e-fixtures.ts", [
    "user",
    "--name",
    ADMIN.name,
    "--email",
    ADMIN.email,
    "--password",
    PASSWORD,
    "--role",
    "super-administrator",
    "--area",
    "Administración",
    "--place",
    "Sede Lima",
    "--wait",
    baseURL(),
  ]);
  const { cafeId } = JSON.parse(fixture("tests/support/menu-board-fixtures.ts", ["--cafe", CAFE, "--dish", DISH]));

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const adminProblems = watchConsole(admin);
  await signIn(admin, ADMIN.email);
  await admin.goto(`/menu/display?cafe=${cafeId}`);
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "Pantalla", level: 1 })).toBeVisible();

  // A new link: shown once, in the dialog.
  await admin.getByRole("button", { name: "Nuevo enlace" }).click();
  const dialog = admin.getByRole("dialog");
  await dialog.getByLabel("Ubicación").fill(`Comedor ${RUN}`);
  await dialog.getByRole("button", { name: "Crear enlace" }).click();
  const url = await dialog.getByTestId("display-link-url").inputValue();
  expect(url).toMatch(new RegExp(`^${baseURL()}/board/[A-Za-z0-9_-]{43}$`));
  await dialog.getByRole("button", { name: "Listo" }).click();
  await expect(admin.getByTestId("display-link").filter({ hasText: `Comedor ${RUN}` })).toBeVisible();

  // The screen: another context, no session.
  const screenContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const screen = await screenContext.newPage();
  const screenProblems = watchConsole(screen);
  await screen.goto(url);
  await waitForHydration(screen);
  const board = screen.getByTestId("menu-board");
  await expect(board.getByRole("heading", { name: "Hoy" })).toBeVisible();
  await expect(screen.getByRole("status")).toHaveText("En vivo");
  await expect(board).not.toContainText(DISH);
  // Nothing of the app around it: no sidebar, no navigation, no account.
  await expect(screen.getByRole("navigation")).toHaveCount(0);
  await expect(screen.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  // A marker that a reload would wipe: the update must come live.
  await screen.evaluate(() => ((window as unknown as { __stay: boolean }).__stay = true));

  // Publishing from the Display page.
  await admin.getByRole("button", { name: "Publicar", exact: true }).click();
  await expect(admin.getByText(/Publicados: 1/)).toBeVisible();
  await expect(board.getByText(DISH).first()).toBeVisible();
  await expect(board).toContainText("Gluten");
  expect(await screen.evaluate(() => (window as unknown as { __stay?: boolean }).__stay)).toBe(true);

  // Revoking: the screen says so at once.
  await admin
    .getByTestId("display-link")
    .filter({ hasText: `Comedor ${RUN}` })
    .getByRole("button", { name: "Revocar" })
    .click();
  await acceptConfirmation(admin, /Revocar el enlace/, "Revocar");
  await expect(screen.getByRole("heading", { name: "Este enlace ya no es válido" })).toBeVisible();
  await expect(screen.getByText(DISH)).toHaveCount(0);
  // And a fresh load of the link is a 404.
  const again = await screen.goto(url);
  expect(again?.status()).toBe(404);

  expect(adminProblems).toEqual([]);
  expect(screenProblems.filter((p) => !/404|Failed to load resource/.test(p))).toEqual([]);
  await adminContext.close();
  await screenContext.close();
});
