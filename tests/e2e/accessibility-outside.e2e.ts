/**
 * Accessibility of the pages outside the app: welcome, sign-in, registration, password reset, settings signed out,
 * not found, and the page of someone whose e-mail is still to verify. Every page and the overlays and states it has
 * are checked with axe in the light and the dark theme, at a desktop and a phone width (tests/e2e/accessibility.ts
 * walks them; tests/e2e/axe.ts checks). Moderate findings fail the test too; minor ones are listed in its
 * annotations.
 */
import { checkScreen, contextAt, selectList, VIEWPORTS, WIDTHS, type Screen } from "./accessibility";
import { expect, test } from "./fixtures";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
/** Someone who registered and has not opened the verification link yet. */
const NEWCOMER = { name: `Bruno Recién ${RUN}`, email: `nuevo.a11y.${RUN}@example.com` };

/** Pages outside the app: signed out. */
const OUTSIDE: Screen[] = [
  { name: "welcome", path: "/" },
  {
    name: "sign-in",
    path: "/login",
    steps: [
      { name: "language list", open: selectList("Cambiar idioma", (page) => page.locator("body")) },
      {
        name: "sign-in with its errors",
        scope: "page",
        open: async (page) => {
          await page.getByRole("button", { name: "Ingresar" }).click();
          await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
        },
      },
    ],
  },
  {
    name: "registration",
    path: "/register",
    steps: [
      {
        name: "registration with its errors",
        scope: "page",
        open: async (page) => {
          await page.getByRole("button", { name: "Crear cuenta" }).click();
          await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
        },
      },
    ],
  },
  { name: "forgot password", path: "/forgot-password" },
  { name: "password reset", path: `/reset-password/${"a".repeat(64)}?email=nadie%40example.com` },
  { name: "appearance, signed out", path: "/settings/appearance" },
  { name: "language, signed out", path: "/settings/language" },
  { name: "not found, signed out", path: "/no-such-page" },
];

// Generous for a busy machine (a page hydrates late when the CPU is shared); a missing button still fails in seconds.
test.use({ actionTimeout: 10_000, navigationTimeout: 30_000 });
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ mesa }) => {
  await mesa.user({ ...NEWCOMER, verified: false });
});

for (const width of WIDTHS) {
  const { width: w, height: h } = VIEWPORTS[width];
  test(`outside the app and waiting for the e-mail's verification: no serious or critical violation, light and dark, ${width} (${w}×${h})`, async ({
    browser,
    mesa,
  }) => {
    test.setTimeout(300_000);
    const outside = await contextAt(browser, width, mesa);
    const guest = await outside.newPage();
    for (const screen of OUTSIDE) await checkScreen(guest, screen, width);
    await outside.close();

    const waiting = await contextAt(browser, width, mesa, NEWCOMER);
    const unverified = await waiting.newPage();
    await checkScreen(unverified, { name: "e-mail to verify", path: "/verify-email" }, width);
    await waiting.close();
  });
}
