/**
 * The platform in a real browser: server rendering and hydration, page-protocol visits, theme, language,
 * the client's fallbacks (unknown component, chunk that fails to load), progress bar, the 404 page and the
 * skip link. (A write without the CSRF token is refused with 419: tests/http/page-protocol.test.ts.) Run with
 * `npm run test:e2e` (each Playwright worker starts its own Mesa; see tests/e2e/fixtures.ts). Each test has a fresh
 * browser of its own and changes nothing on the server, so the two workers share them.
 */
import type { Locator, Page, Request, Response } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openSettled, watchConsole, watchServerMarkup, waitForHydration } from "./support";

test.describe.configure({ mode: "parallel" });

/**
 * Clicks `link` and returns the page-protocol request and response of the visit it started. On a slow machine the
 * hover prefetch (75 ms) can fetch the page before the click lands, and the click then uses that response: both
 * are page-protocol requests, so either counts.
 */
async function clickForVisit(
  page: Page,
  link: Locator,
  path: string,
): Promise<{ request: Request; response: Response }> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().headers()["x-inertia"] === "true", {
      timeout: 5_000,
    }),
    link.click(),
  ]);
  return { request: response.request(), response };
}

test.describe("first load", () => {
  test("is server-rendered, hydrates without console errors, and then its controls work", async ({
    page,
    request,
    browser,
  }) => {
    // The HTML itself carries the page: a crawler, or a browser before any script runs, sees the content.
    const response = await request.get("/");
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="es"');
    const start = html.search(/<div\b[^>]*\bdata-server-rendered="true"[^>]*>/);
    expect(start, "the page is rendered inside div[data-server-rendered]").toBeGreaterThan(-1);
    const rendered = html.slice(start, html.indexOf('<script type="module"', start));
    expect(rendered).toContain("Back office de comedores en operaciones mineras");
    expect(rendered).toContain("Preferencias de apariencia e idioma");

    // The same without JavaScript at all.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const bare = await noScript.newPage();
    await bare.goto("/");
    await expect(bare.locator("div[data-server-rendered] h1")).toHaveText("Mesa");
    await expect(bare.locator("div[data-server-rendered]")).toContainText(
      "Back office de comedores en operaciones mineras",
    );
    await noScript.close();

    const problems = watchConsole(page);
    await watchServerMarkup(page);
    await openSettled(page, "/");

    // Still the server's markup: no hydration error made React replace it.
    expect(await page.evaluate(() => (window as any).__removedFromApp)).toEqual([]);
    await expect(page.locator("#app")).toHaveAttribute("data-server-rendered", "true");
    await expect(page.getByText("Back office de comedores en operaciones mineras")).toBeVisible();

    // Interactive after hydration: the header's theme toggle switches the theme.
    const root = page.locator("html");
    const dark = page.locator('[data-appearance-option="dark"]');
    await dark.click();
    await expect(dark).toHaveAttribute("aria-checked", "true");
    await expect(root).toHaveClass(/\bdark\b/);
    const light = page.locator('[data-appearance-option="light"]');
    await light.click();
    await expect(light).toHaveAttribute("aria-checked", "true");
    await expect(root).not.toHaveClass(/\bdark\b/);

    expect(problems, problems.join("\n")).toEqual([]);
  });
});

test.describe("page protocol", () => {
  test("a link on the welcome page visits through the page protocol, without a full page load", async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => ((window as any).__sameDocument = "still here"));
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });

    const { request, response } = await clickForVisit(
      page,
      page.getByRole("link", { name: "Preferencias de apariencia e idioma" }),
      "/settings/appearance",
    );
    expect(request.headers()["x-inertia"]).toBe("true");
    expect(response.status()).toBe(200);
    expect(response.headers()["x-inertia"]).toBe("true");
    expect((await response.json()).component).toBe("settings/appearance");

    await expect(page).toHaveURL(/\/settings\/appearance$/);
    await expect(page.getByRole("heading", { level: 2, name: "Apariencia" })).toBeVisible();
    expect(await page.evaluate(() => (window as any).__sameDocument)).toBe("still here");
    expect(documents).toEqual([]);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  test("the settings side menu moves between Appearance and Language through the page protocol", async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    await page.evaluate(() => ((window as any).__sameDocument = "still here"));
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });
    const menu = page.getByRole("navigation", { name: "Configuración" });

    const toLanguage = await clickForVisit(page, menu.getByRole("link", { name: "Idioma" }), "/settings/language");
    expect(toLanguage.request.headers()["x-inertia"]).toBe("true");
    expect(toLanguage.response.headers()["x-inertia"]).toBe("true");
    await expect(page).toHaveURL(/\/settings\/language$/);
    await expect(page.getByRole("heading", { level: 2, name: "Idioma" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Idioma" })).toHaveAttribute("aria-current", "page");

    const toAppearance = await clickForVisit(
      page,
      menu.getByRole("link", { name: "Apariencia" }),
      "/settings/appearance",
    );
    expect(toAppearance.request.headers()["x-inertia"]).toBe("true");
    expect(toAppearance.response.headers()["x-inertia"]).toBe("true");
    await expect(page).toHaveURL(/\/settings\/appearance$/);
    await expect(page.getByRole("heading", { level: 2, name: "Apariencia" })).toBeVisible();

    expect(await page.evaluate(() => (window as any).__sameDocument)).toBe("still here");
    expect(documents).toEqual([]);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

/** Records <html>'s classes when <body> starts to be parsed: what the first paint uses, before the app's scripts run. */
async function recordFirstPaintTheme(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (!document.body) return;
      (window as any).__classAtFirstPaint = document.documentElement.className;
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

const classAtFirstPaint = (page: Page) =>
  page.evaluate(() => (window as any).__classAtFirstPaint as string | undefined);

test.describe("theme", () => {
  test("Dark survives a reload with no flash, and System follows the OS live", async ({ page, context }) => {
    await recordFirstPaintTheme(page);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/\bdark\b/);

    await page.getByRole("main").getByRole("radio", { name: "Oscuro" }).click();
    await expect(html).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem("appearance"))).toBe("dark");
    const cookie = (await context.cookies()).find((c) => c.name === "appearance");
    expect(cookie?.value).toBe("dark");
    expect(cookie?.path).toBe("/");

    // The server paints the theme itself: the reloaded document already says class="dark".
    const reloaded = await page.reload();
    const source = await reloaded!.text();
    expect(source).toMatch(/<html [^>]*class="dark"/);
    expect(source).toMatch(/<html [^>]*data-appearance="dark"/);
    expect(await classAtFirstPaint(page)).toMatch(/\bdark\b/);
    await waitForHydration(page);
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(page.getByRole("main").getByRole("radio", { name: "Oscuro" })).toHaveAttribute("aria-checked", "true");

    // System: the class follows the OS preference as it changes, without a reload.
    await page.getByRole("main").getByRole("radio", { name: "Sistema" }).click();
    await expect(page.getByRole("main").getByRole("radio", { name: "Sistema" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    expect(await page.evaluate(() => localStorage.getItem("appearance"))).toBe("system");
    await expect(html).not.toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/\bdark\b/);

    // With System and a dark OS, the first paint is dark too (the inline script in <head>).
    const again = await page.reload();
    expect(await again!.text()).toMatch(/<html [^>]*data-appearance="system"/);
    expect(await classAtFirstPaint(page)).toMatch(/\bdark\b/);
    await expect(html).toHaveClass(/\bdark\b/);
  });
});

test.describe("language", () => {
  test("the language switcher changes the texts, the <html lang> after a reload, and back", async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    const switcher = page.getByTestId("language-switcher").first();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Configuración");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");

    await switcher.click();
    await page.getByRole("option", { name: "English" }).click();
    await expect(page.locator('[data-flash="success"]')).toHaveText("Language changed to English.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Appearance");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeAttached();
    await expect(switcher).toHaveAttribute("data-value", "en");
    await expect(page).toHaveURL(/\/settings\/appearance$/);
    // Screen readers need the document language to follow at once, not only after a reload.
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
    await waitForHydration(page);

    await switcher.click();
    await page.getByRole("option", { name: "Español" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Configuración");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Apariencia");
    // Back at once as well; that the server then renders <html lang="es"> is the HTTP tests'
    // (tests/http/page-protocol.test.ts).
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

test.describe("client fallbacks", () => {
  test('an unknown page component shows "Page not found"', async ({ page }) => {
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    const rewritten: string[] = [];
    await page.route("**/settings/language", async (route) => {
      if (route.request().headers()["x-inertia"] !== "true") return route.fallback();
      const response = await route.fetch();
      const body = await response.json();
      rewritten.push(body.component);
      await route.fulfill({ response, json: { ...body, component: "does/not-exist" } });
    });

    await page.getByRole("navigation", { name: "Configuración" }).getByRole("link", { name: "Idioma" }).click();
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByText("does/not-exist")).toBeVisible();
    await expect(page).toHaveURL(/\/settings\/language$/);
    expect(rewritten).toContain("settings/language");
  });

  test("a page chunk that fails to load shows a recoverable message", async ({ page }) => {
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    const chunks = "**/build/chunks/language-*.js";
    await page.route(chunks, (route) => route.abort("failed"));

    await page.getByRole("navigation", { name: "Configuración" }).getByRole("link", { name: "Idioma" }).click();
    const alert = page.getByTestId("chunk-error");
    await expect(alert).toBeVisible();
    await expect(alert).toHaveAttribute("role", "alert");
    await expect(alert.getByRole("heading")).toHaveText("No se pudo cargar la pantalla");
    const reload = alert.getByRole("button", { name: "Recargar" });
    await expect(reload).toBeVisible();

    await page.unroute(chunks);
    await Promise.all([page.waitForEvent("load"), reload.click()]);
    await expect(page).toHaveURL(/\/settings\/language$/);
    await expect(page.getByRole("heading", { level: 2, name: "Idioma" })).toBeVisible();
    await expect(page.getByTestId("chunk-error")).toHaveCount(0);
    await waitForHydration(page);
    await expect(page.getByTestId("format-example")).toBeVisible();
  });
});

test.describe("progress bar", () => {
  test("a slow visit shows the progress bar in #4B5563", async ({ page }) => {
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    // The visit's answer is held until the bar has been read (a visit that ends takes the bar away).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/settings/language", async (route) => {
      if (route.request().headers()["x-inertia"] !== "true") return route.fallback();
      await held;
      await route.fallback();
    });

    await page.getByRole("navigation", { name: "Configuración" }).getByRole("link", { name: "Idioma" }).click();
    // Inertia's progress is NProgress: <div id="nprogress"><div class="bar" role="bar">, shown after 250 ms.
    const bar = page.locator("#nprogress .bar");
    await expect(bar).toBeVisible();
    expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(75, 85, 99)");
    release();
    await expect(page.getByRole("heading", { level: 2, name: "Idioma" })).toBeVisible();
  });
});

test.describe("error pages", () => {
  test("an unknown URL shows the 404 page", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
    await expect(page.getByRole("link", { name: "Ir al inicio" })).toBeVisible();
  });
});

test.describe("accessibility", () => {
  test("a keyboard user reaches the skip-to-content link first on an app-layout page", async ({ page }) => {
    await page.goto("/settings/appearance");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Saltar al contenido" });
    await expect(skip).toBeFocused();
    await expect(skip).toHaveAttribute("href", "#content");
    // Shown on screen once focused: a real size, and not clipped away like sr-only (a click at its centre hits it).
    const shown = await skip.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return box.width > 20 && box.height > 10 && hit !== null && el.contains(hit);
    });
    expect(shown, "the focused skip link is shown, not clipped like sr-only").toBe(true);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#content$/);
  });
});
