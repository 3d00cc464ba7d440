/**
 * Words for people, in a real browser: built-in roles and permissions are shown by their names in the viewer's
 * language, counts take the plural their number and language ask for, and the audit names the command line in
 * words. Switching the language in the header changes all of them.
 *
 * The people are made by the worker's fixtures (tests/e2e/fixtures.ts; the server seeds the roles, places and areas
 * on its first start): a super-administrator, a cashier and a cafe manager at "Caja" of "Comedor Principal".
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration, watchConsole } from "./support";

/** Unique per run, so names and addresses never collide with another run's on a reused database. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const ADMIN = { name: `Inés Palabras ${RUN}`, email: `palabras.${RUN}@example.com` };
const CASHIER = { name: `Rosa Cajera ${RUN}`, email: `rosa.${RUN}@example.com` };
const MANAGER = { name: `Julio Jefe ${RUN}`, email: `julio.${RUN}@example.com` };
/** A role the command line creates, so the audit has an entry by the command line to show. */
const ROLE = `lector ${RUN}`;

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** Chooses a language in the header's switcher, a native select or a listbox alike. */
async function switchLanguage(page: Page, label: string): Promise<void> {
  const switcher = page.getByTestId("language-switcher");
  if ((await switcher.evaluate((element) => element.tagName)) === "SELECT") await switcher.selectOption({ label });
  else {
    await switcher.click();
    await page.getByRole("option", { name: label }).click();
  }
  await expect(page.locator("html")).toHaveAttribute("lang", label === "English" ? "en" : "es");
}

/** The roles line, the count and the permissions of the "view permissions" dialog of a person's row. */
async function permissionsOf(page: Page, person: { name: string; email: string }, titled: string) {
  await page.getByTestId(`user-row-${person.email}`).getByRole("button", { name: titled }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const box = dialog.getByTestId("inspected-permissions");
  const shown = {
    roles: (await box.locator("p").first().textContent())!,
    count: (await box.getByTestId("permission-count").textContent())!,
    list: await box.getByRole("listitem").allTextContents(),
  };
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  return shown;
}

test("the language switch changes role names, permission labels, plurals and the audit's words", async ({
  page,
  mesa,
}) => {
  test.setTimeout(60_000);
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  await mesa.user({ ...CASHIER, role: "cashier", area: "Caja", place: "Comedor Principal" });
  await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: "Comedor Principal" });
  await mesa.cli("role:create", ROLE, "--permission", "audit.view");
  await mesa.signIn(page, ADMIN);
  const problems = watchConsole(page);

  // Spanish: the built-in roles by their Spanish names, permissions by their labels, "6 permisos" and "20 permisos".
  await open(page, `/users?search=${RUN}`);
  await expect(page.getByTestId(`user-row-${CASHIER.email}`).getByRole("cell").nth(2)).toHaveText("Cajero · Caja");
  await expect(page.getByTestId(`user-row-${MANAGER.email}`).getByRole("cell").nth(2)).toHaveText(
    "Jefe de comedor · Caja",
  );
  expect(await permissionsOf(page, CASHIER, "Ver permisos")).toEqual({
    roles: "Roles: Cajero",
    count: "6 permisos",
    list: [
      "Ver la lista negra",
      "Registrar y editar comensales",
      "Ver comensales",
      "Vender en el punto de venta",
      "Ver ventas",
      "Abrir y cerrar su turno de caja",
    ],
  });
  const manager = await permissionsOf(page, MANAGER, "Ver permisos");
  expect(manager.roles).toBe("Roles: Jefe de comedor");
  expect(manager.count).toBe("20 permisos");
  expect(manager.list).toContain("Cambiar precios de los comedores");

  await open(page, "/roles");
  const matrix = page.getByRole("table", { name: "Matriz de roles y permisos" });
  const roles = await matrix.locator("thead th").allTextContents();
  for (const role of ["Superadministrador", "Administrador", "Cajero", "Jefe de comedor"])
    expect(roles).toContain(role);
  await expect(matrix.getByRole("rowheader", { name: "Ver la auditoría" })).toBeVisible();
  expect(await matrix.locator('th[scope="colgroup"]').allTextContents()).toContain("Auditoría");
  await expect(matrix).not.toContainText("audit.view");
  await expect(matrix).not.toContainText("cashier");

  // The role the command line created: its author, action and change in words, found by the role's name.
  await open(page, `/audit?search=${encodeURIComponent(ROLE)}`);
  const created = page.getByRole("table", { name: "Auditoría" }).locator("tbody tr");
  await expect(created).toHaveCount(1);
  await expect(created.getByRole("cell")).toHaveText([
    /\d/,
    "Línea de comandos",
    "Rol creado",
    `Rol${ROLE}`,
    `Nombre: ${ROLE}Permisos: Ver la auditoría`,
  ]);

  // English, from the header: the same screens in English words and English plurals.
  await switchLanguage(page, "English");
  await open(page, `/users?search=${RUN}`);
  await expect(page.getByTestId(`user-row-${CASHIER.email}`).getByRole("cell").nth(2)).toHaveText("Cashier · Caja");
  await expect(page.getByTestId(`user-row-${MANAGER.email}`).getByRole("cell").nth(2)).toHaveText(
    "Cafe manager · Caja",
  );
  expect(await permissionsOf(page, CASHIER, "View permissions")).toEqual({
    roles: "Roles: Cashier",
    count: "6 permissions",
    list: [
      "View the blacklist",
      "Register and edit diners",
      "View diners",
      "Sell at the point of sale",
      "View sales",
      "Open and close one's cash shift",
    ],
  });
  expect((await permissionsOf(page, MANAGER, "View permissions")).count).toBe("20 permissions");

  await open(page, "/roles");
  const english = page.getByRole("table", { name: "Role × permission matrix" });
  const englishRoles = await english.locator("thead th").allTextContents();
  for (const role of ["Super-administrator", "Cashier", "Cafe manager"]) expect(englishRoles).toContain(role);
  expect(await english.locator('th[scope="colgroup"]').allTextContents()).toContain("Audit trail");
  await expect(english.getByRole("rowheader", { name: "View the audit trail" })).toBeVisible();

  await open(page, `/audit?search=${encodeURIComponent(ROLE)}`);
  await expect(page.getByRole("table", { name: "Audit" }).locator("tbody tr").getByRole("cell")).toHaveText([
    /\d/,
    "Command line",
    "Role created",
    `Role${ROLE}`,
    `Name: ${ROLE}Permissions: View the audit trail`,
  ]);

  expect(problems, problems.join("\n")).toEqual([]);
});

test("forms speak Mesa's words, not the browser's, and times are typed on the 24-hour clock, in an English browser too", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(60_000);
  const keeper = { name: `Sara Horarios ${RUN}`, email: `horarios.${RUN}@example.com` };
  const root = { name: `Iván Raíz ${RUN}`, email: `raiz.${RUN}@example.com` };
  await mesa.user({ ...keeper, role: "cafe manager", area: "Caja", place: "Comedor Principal" });
  await mesa.user({ ...root, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  // An English browser: its own bubble would say "Please fill out this field." and its time inputs would show AM/PM.
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  const problems = watchConsole(page);
  // A required field left empty: Mesa's message under it in the page's language, the field focused, no bubble.
  await mesa.signIn(page, root);
  await open(page, "/menu/display");
  await page.getByRole("button", { name: "Nuevo enlace" }).click();
  const dialog = page.getByRole("dialog");
  await page.evaluate(() => {
    const seen: boolean[] = [];
    (window as unknown as { invalidSeen: boolean[] }).invalidSeen = seen;
    // Caught first on its way down; read once every listener has had its say.
    window.addEventListener("invalid", (event) => setTimeout(() => seen.push(event.defaultPrevented)), true);
  });
  await dialog.getByRole("button", { name: "Crear enlace" }).click();
  const place = dialog.getByLabel("Ubicación");
  await expect(dialog.getByText("Este campo es obligatorio.")).toBeVisible();
  await expect(place).toHaveAttribute("aria-invalid", "true");
  await expect(place).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { invalidSeen: boolean[] }).invalidSeen)).toEqual([true]);
  // Typing clears the message.
  await place.fill("Pantalla");
  await expect(dialog.getByText("Este campo es obligatorio.")).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.context().clearCookies();

  // A service's window: text typed as a person would, written back as HH:MM; never AM/PM.
  await mesa.signIn(page, keeper);
  await open(page, "/dinners");
  await page.getByRole("button", { name: "Precios y horarios" }).click();
  const prices = page.getByRole("dialog", { name: /^Precios y horarios de / });
  // Cena: every demo cafe keeps it (services.e2e.ts takes Refrigerio away from the demo places).
  const start = prices.getByLabel("Inicio del horario de Cena");
  await expect(start).toHaveAttribute("type", "text");
  await expect(start).toHaveAttribute("placeholder", "HH:MM");
  await start.fill("1930");
  await start.press("Tab");
  await expect(start).toHaveValue("19:30");
  await start.fill("7");
  await start.press("Tab");
  await expect(start).toHaveValue("07:00");
  // Closed without saving: the point-of-sale tests share this cafe.
  await page.keyboard.press("Escape");
  await expect(prices).toBeHidden();

  expect(problems, problems.join("\n")).toEqual([]);
  await context.close();
});

test("the dashboard's chart waits in a placeholder of its own size, and its line runs straight from day to day", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(60_000);
  const manager = { name: `Tomás Cifras ${RUN}`, email: `cifras.${RUN}@example.com` };
  await mesa.user({ ...manager, role: "cafe manager", area: "Caja", place: "Comedor Principal" });
  const context = await browser.newContext();
  await mesa.signIn(context, manager);
  const page = await context.newPage();
  const problems = watchConsole(page);
  // The chart's code (recharts) is held back until the placeholder has been measured.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/days-chart-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/dashboard");

  const frame = 'section[aria-labelledby="days-chart-title"]';
  const placeholder = page.getByTestId("days-chart-skeleton").locator(frame);
  await expect(placeholder).toBeVisible();
  const waiting = (await placeholder.boundingBox())!;
  release();
  const chart = page.locator(frame, { has: page.getByTestId("days-chart") });
  await expect(chart).toBeVisible();
  await expect(page.getByTestId("days-chart-skeleton")).toHaveCount(0);
  const drawn = (await chart.boundingBox())!;
  expect(Math.abs(drawn.height - waiting.height)).toBeLessThanOrEqual(1);
  expect(Math.abs(drawn.width - waiting.width)).toBeLessThanOrEqual(1);

  // The amount's line: straight segments (M and L), no curve that could bulge past a day's total.
  const line = page.getByTestId("days-chart").locator(".recharts-line-curve");
  await expect(line).toHaveAttribute("d", /^M[\d.,\sML-]+$/);

  expect(problems, problems.join("\n")).toEqual([]);
  await context.close();
});
