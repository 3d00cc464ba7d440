/**
 * Access control in a real browser: a super-administrator creates a role, an area offering it and a user holding
 * it; that user sees only what the role allows (sidebar, 403 pages, no management buttons) and is signed out
 * the moment they are deactivated. Then the "view permissions" and "change role" dialogs, the blacklist (which
 * ends the linked account's session and bars sign-in until the entry is removed), the audit trail of all those
 * changes, and clean hydration of the Users, Roles, Blacklist and Audit pages.
 *
 * The first four tests run in order and share what they create (the audit test reads the changes the earlier tests
 * made); the hydration and places tests stand alone, so either worker may take them (each worker's beforeAll makes the
 * people on its own database, and making someone who is there already keeps them). The super-administrator and the
 * people the UI steps do not create themselves are made by the worker's fixtures (tests/e2e/fixtures.ts), and everyone
 * is signed in by a session cookie. That a deactivated or barred account's next request lands on the sign-in page,
 * that sign-in refuses it, and signs a restored one in again, is the HTTP tests' (tests/http/auth.test.ts,
 * tests/http/access-control.test.ts); here the open tab of such a person is seen to leave for the sign-in page.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { E2E_PASSWORD as PASSWORD, expect, test, type Mesa, type Who } from "./fixtures";
import {
  acceptConfirmation,
  chooseOption,
  openSettled,
  watchConsole,
  watchServerMarkup,
  waitForHydration,
} from "./support";

/** Unique per run, so names and addresses never collide with another run's on a reused database. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const ADMIN = { name: `Sofía Admin ${RUN}`, email: `super.${RUN}@example.com` };
/** Created through the UI in the first test. */
const ROLE = `supervisor de prueba ${RUN}`;
const AREA = `Supervisión ${RUN}`;
const SUPERVISOR = { name: `Pablo Supervisor ${RUN}`, email: `supervisor.${RUN}@example.com` };
/** Created with the CLI: a cashier whose role the second test changes, and the person the blacklist test bars. */
const CASHIER = { name: `Lucía Caja ${RUN}`, email: `cajera.${RUN}@example.com` };
const BARRED = { name: `Mario Vetado ${RUN}`, email: `vetado.${RUN}@example.com` };
/**
 * A cafe manager at Comedor Principal for the hydration test, made with the fixtures. Named without RUN: the first
 * test counts the people of that cafe whose name or address holds RUN.
 */
const OTHER_RUN = `m${Math.random().toString(36).slice(2, 10)}`;
const MANAGER = { name: `Julia Jefa ${OTHER_RUN}`, email: `jefa.${OTHER_RUN}@example.com` };
const DOCUMENT = String(10_000_000 + Math.floor(Math.random() * 89_999_999));

// ---------------------------------------------------------------------------------------------------------------
// Helpers

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** A new browser signed in as `who`, with a console watcher on its page, open on `path`. */
async function signedIn(
  browser: Browser,
  mesa: Mesa,
  who: Who,
  path: string,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext();
  await mesa.signIn(context, who);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await open(page, path);
  return { context, page, problems };
}

/**
 * Whether the page's realtime connection has joined the private channel of user `id`, where the server says that
 * their session ended. Installed before the page opens its connection.
 */
function watchUserChannel(page: Page, id: number): () => boolean {
  const channel = `private-App.Models.User.${id}`;
  let joined = false;
  page.on("websocket", (ws) =>
    ws.on("framereceived", ({ payload }) => {
      try {
        const message = JSON.parse(String(payload));
        if (message.event === "pusher_internal:subscription_succeeded" && message.channel === channel) joined = true;
      } catch {
        // Not a Pusher-protocol message.
      }
    }),
  );
  return () => joined;
}

const flash = (page: Page, kind: "success" | "error") => page.locator(`[data-flash="${kind}"]`);
const userRow = (page: Page, email: string) => page.getByTestId(`user-row-${email}`);
/** The entries of the sidebar's list (the settings link below it is always there). */
const sidebarEntries = (page: Page) =>
  page.getByRole("navigation", { name: "Navegación principal" }).getByRole("listitem");

/** The 403 responses the restricted user gets on purpose make the browser log a console error; nothing else may. */
const unexpected = (problems: string[]) =>
  problems.filter((p) => !/Failed to load resource: the server responded with a status of 403/.test(p));

// ---------------------------------------------------------------------------------------------------------------

test.describe.configure({ mode: "parallel" });

test.describe("access control", () => {
  /** A browser of the super-administrator's (a session signed in just now, so the password counts as confirmed). */
  const admin = async (browser: Browser, mesa: Mesa) => {
    const context = await browser.newContext();
    await mesa.signIn(context, ADMIN);
    const page = await context.newPage();
    return { context, page, problems: watchConsole(page) };
  };

  const ids: Record<string, number> = {};

  test.beforeAll(async ({ mesa }) => {
    await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
    await mesa.user({ ...CASHIER, role: "cashier", area: "Caja", place: "Comedor Principal" });
    ids.barred = await mesa.user({ ...BARRED, role: "cashier", area: "Caja", place: "Comedor Principal" });
    await mesa.user({ ...MANAGER, role: "cafe manager", area: "Caja", place: "Comedor Principal" });
  });

  test.describe("changes and their trail", () => {
    test.describe.configure({ mode: "serial" });

    test("a new role, an area offering it in a cafe and a user holding it: the user sees only what the role allows, and deactivation signs them out", async ({
      browser,
      mesa,
    }) => {
      test.setTimeout(40_000);
      const { context, page, problems } = await admin(browser, mesa);
      await open(page, "/users");
      await expect(page.getByRole("heading", { level: 1, name: "Usuarios" })).toBeVisible();

      // Roles tab → "Nuevo rol" with users.view and blacklist.view only.
      await page.getByRole("tab", { name: "Roles" }).click();
      await expect(page.getByRole("tab", { name: "Roles" })).toHaveAttribute("aria-selected", "true");
      await page.getByRole("tabpanel").getByRole("button", { name: "Nuevo rol" }).click();
      const roleDialog = page.getByRole("dialog", { name: "Nuevo rol" });
      await expect(roleDialog).toBeVisible();
      await roleDialog.getByLabel("Nombre", { exact: true }).fill(ROLE);
      await roleDialog.getByLabel("Descripción").fill("Ve personas y la lista negra");
      await roleDialog.getByRole("checkbox", { name: "Ver usuarios", exact: true }).check();
      await roleDialog.getByRole("checkbox", { name: "Ver la lista negra", exact: true }).check();
      await roleDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(page, "success")).toHaveText(`Rol «${ROLE}» guardado.`);
      await expect(roleDialog).toBeHidden();
      await page.getByRole("tab", { name: "Roles" }).click();
      const roleRow = page.getByRole("tabpanel").getByRole("row").filter({ hasText: ROLE });
      // Name, description, 2 permissions, 0 assignments.
      await expect(roleRow.getByRole("cell")).toHaveText([ROLE, "Ve personas y la lista negra", "2", "0", ""]);

      // Áreas tab → "Nueva área" in Comedor Principal offering the new role.
      await page.getByRole("tab", { name: "Áreas" }).click();
      await page.getByRole("button", { name: "Nueva área" }).click();
      const areaDialog = page.getByRole("dialog", { name: "Nueva área" });
      await areaDialog.getByLabel("Nombre", { exact: true }).fill(AREA);
      await chooseOption(areaDialog, "Comedor o sede", "Comedor: Comedor Principal");
      await areaDialog.getByRole("checkbox", { name: ROLE, exact: true }).check();
      await areaDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(page, "success")).toHaveText(`Área «${AREA}» guardada.`);
      await expect(areaDialog).toBeHidden();
      await page.getByRole("tab", { name: "Áreas" }).click();
      const areaRow = page.getByRole("tabpanel").getByRole("row").filter({ hasText: AREA });
      await expect(areaRow.getByRole("cell").nth(1)).toContainText("Comedor Principal");
      await expect(areaRow.getByRole("cell").nth(2)).toHaveText(ROLE);
      await expect(areaRow.getByRole("cell").nth(3)).toHaveText("0");

      // Personas → "Nuevo usuario" in that area with that role and a first password.
      await page.getByRole("tab", { name: "Personas" }).click();
      await page.getByRole("button", { name: "Nuevo usuario" }).click();
      const userDialog = page.getByRole("dialog", { name: "Nuevo usuario" });
      await userDialog.getByLabel("Nombre", { exact: true }).fill(SUPERVISOR.name);
      await userDialog.getByLabel("Correo", { exact: true }).fill(SUPERVISOR.email);
      await chooseOption(userDialog, "Área", new RegExp(`^${AREA} — .*Comedor Principal`));
      const roleSelect = userDialog.getByLabel("Rol", { exact: true });
      await expect(roleSelect).toBeEnabled();
      // The area offers just the new role.
      await roleSelect.click();
      await expect(page.getByRole("option")).toHaveText(["Elija…", ROLE]);
      await page.getByRole("option", { name: ROLE, exact: true }).click();
      await userDialog.getByRole("radio", { name: "Definir una primera contraseña" }).check();
      await userDialog.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
      await userDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(page, "success")).toHaveText(`Usuario ${SUPERVISOR.email} creado.`);
      await expect(userDialog).toBeHidden();
      await open(page, `/users?search=${encodeURIComponent(SUPERVISOR.email)}`);
      await expect(userRow(page, SUPERVISOR.email).getByRole("cell").nth(2)).toHaveText(`${ROLE} · ${AREA}`);
      await expect(userRow(page, SUPERVISOR.email).getByRole("cell").nth(3)).toHaveText("Activo");

      // The new user, in a browser of their own, on the Users page (the sidebar is the same on every page).
      const supervisor = await signedIn(browser, mesa, SUPERVISOR, `/users?search=${RUN}`);
      const s = supervisor.page;
      await expect(sidebarEntries(s)).toHaveText(["Panel", "Usuarios", "Lista negra"]);
      await expect(
        s.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Roles" }),
      ).toHaveCount(0);
      await expect(
        s.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Auditoría" }),
      ).toHaveCount(0);
      await expect(s.getByRole("heading", { level: 1, name: "Usuarios" })).toBeVisible();
      // Their scope is Comedor Principal: its people, not the administrator at Sede Lima; only that place listed.
      await expect(s.getByRole("table", { name: "Personas" }).locator("tbody tr")).toHaveCount(3);
      for (const person of [SUPERVISOR, CASHIER, BARRED]) await expect(userRow(s, person.email)).toBeVisible();
      await expect(userRow(s, ADMIN.email)).toHaveCount(0);
      await expect(s.getByRole("navigation", { name: "Lugares" }).getByRole("link")).toHaveText([
        "Todos los lugares",
        "Comedor Principal",
      ]);
      await expect(s.getByRole("button", { name: "Nuevo usuario" })).toHaveCount(0);
      await expect(s.getByRole("button", { name: "Nueva área" })).toHaveCount(0);
      await expect(s.getByRole("tab")).toHaveText(["Personas", "Áreas"]);
      // Only "Ver permisos" in their row: no edit, change-role or deactivate buttons.
      await expect(userRow(s, SUPERVISOR.email).getByRole("button")).toHaveCount(1);
      await expect(userRow(s, SUPERVISOR.email).getByRole("button", { name: "Ver permisos" })).toBeVisible();
      for (const path of ["/roles", "/audit"]) {
        const response = await s.goto(path);
        expect(response!.status(), path).toBe(403);
        await waitForHydration(s);
        await expect(s.getByRole("heading", { level: 1 }), path).toHaveText("Acceso denegado");
      }
      await open(s, "/blacklist");
      await expect(s.getByRole("heading", { level: 1, name: "Lista negra" })).toBeVisible();
      await expect(s.getByRole("button", { name: "Agregar a la lista negra" })).toHaveCount(0);

      // The administrator deactivates them (after the confirm dialog).
      await userRow(page, SUPERVISOR.email).getByRole("button", { name: "Desactivar" }).click();
      await acceptConfirmation(page, `¿Desactivar a ${SUPERVISOR.name}?`, "Desactivar");
      await expect(flash(page, "success")).toHaveText(
        `${SUPERVISOR.email} fue desactivado y sus sesiones se cerraron.`,
      );
      await expect(userRow(page, SUPERVISOR.email).getByRole("cell").nth(3)).toHaveText("Desactivado");

      // Their open tab is sent to the sign-in page at once (realtime), signed out: a signed-in browser would be sent on
      // from there to the dashboard.
      await expect(s).toHaveURL(/\/login$/);
      await waitForHydration(s);
      await expect(s.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();

      const all = [...problems, ...unexpected(supervisor.problems)];
      expect(all, all.join("\n")).toEqual([]);
      await supervisor.context.close();
      await context.close();
    });

    test("the view-permissions dialog lists the user's permissions; the change-role dialog gives them another role", async ({
      browser,
      mesa,
    }) => {
      const { context, page, problems } = await admin(browser, mesa);
      await open(page, `/users?search=${encodeURIComponent(CASHIER.email)}`);
      const row = userRow(page, CASHIER.email);
      await expect(row.getByRole("cell").nth(2)).toHaveText("Cajero · Caja");

      const permissionsOf = async () => {
        await row.getByRole("button", { name: "Ver permisos" }).click();
        const dialog = page.getByRole("dialog", { name: `Permisos de ${CASHIER.name}` });
        await expect(dialog).toBeVisible();
        const roles = (await dialog.getByTestId("inspected-permissions").locator("p").first().textContent())!;
        const list = await dialog.getByRole("listitem").allTextContents();
        await dialog.getByRole("button", { name: "Cerrar" }).click();
        await expect(dialog).toBeHidden();
        return { roles, list };
      };
      expect(await permissionsOf()).toEqual({
        roles: "Roles: Cajero",
        list: [
          "Ver la lista negra",
          "Registrar y editar comensales",
          "Ver comensales",
          "Vender en el punto de venta",
          "Ver ventas",
          "Abrir y cerrar su turno de caja",
        ],
      });

      // Change the role in Caja (the dialog starts on the area the user holds a role in).
      await row.getByRole("button", { name: "Cambiar rol" }).click();
      const dialog = page.getByRole("dialog", { name: `Rol de ${CASHIER.name}` });
      await expect(dialog.getByRole("listitem")).toHaveText(["Caja: CajeroQuitar rol"]);
      await expect(dialog.getByLabel("Área", { exact: true })).toHaveText(/^Caja — .*Comedor Principal/);
      await chooseOption(dialog, "Rol", "Jefe de comedor");
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(page, "success")).toHaveText("Rol asignado.");
      await expect(dialog).toBeHidden();
      await expect(row.getByRole("cell").nth(2)).toHaveText("Jefe de comedor · Caja");

      expect(await permissionsOf()).toEqual({
        roles: "Roles: Jefe de comedor",
        list: [
          "Ver la lista negra",
          "Ver concesionarias",
          "Importar comensales desde hojas de cálculo",
          "Registrar y editar comensales",
          "Ver comensales",
          "Crear y revocar enlaces de pantalla del menú",
          "Ver el menú de los comedores",
          "Ver minas, unidades y comedores",
          "Cambiar precios de los comedores",
          "Ver bienes",
          "Vender con fecha anterior",
          "Vender en el punto de venta",
          "Ver ventas",
          "Anular cualquier venta",
          "Ver servicios y precios",
          "Cerrar cualquier turno",
          "Abrir y cerrar su turno de caja",
          "Reabrir un turno cerrado",
          "Gestionar las cajas de un comedor",
          "Ver usuarios",
        ],
      });

      expect(problems, problems.join("\n")).toEqual([]);
      await context.close();
    });

    test("the blacklist ends the linked user's session; its entry is removed after a confirmation", async ({
      browser,
      mesa,
    }) => {
      test.setTimeout(30_000);
      // The person to be barred, in a tab of their own that has joined their realtime channel.
      const barredContext = await browser.newContext();
      await mesa.signIn(barredContext, BARRED);
      const barred = await barredContext.newPage();
      const barredProblems = watchConsole(barred);
      const joined = watchUserChannel(barred, ids.barred);
      // Their tab loads while the administrator's does.
      const barredOpened = open(barred, "/settings/profile");
      barredOpened.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled meanwhile
      const { context, page, problems } = await admin(browser, mesa);

      // The user's document, set in the edit modal.
      await open(page, `/users?search=${encodeURIComponent(BARRED.email)}`);
      await userRow(page, BARRED.email).getByRole("button", { name: "Editar" }).click();
      const editDialog = page.getByRole("dialog", { name: "Editar usuario" });
      await expect(editDialog.getByLabel("Nombre", { exact: true })).toHaveValue(BARRED.name);
      await chooseOption(editDialog, "Tipo de documento", "DNI");
      await expect(editDialog.getByText("El DNI debe tener 8 dígitos.")).toBeVisible();
      await editDialog.getByLabel("Documento", { exact: true }).fill(DOCUMENT);
      await editDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(page, "success")).toHaveText("Usuario guardado.");
      await expect(editDialog).toBeHidden();
      await expect(userRow(page, BARRED.email).getByRole("cell").nth(1)).toHaveText(`DNI ${DOCUMENT}`);

      // Still signed in: nothing barred them yet.
      await barredOpened;
      expect((await barredContext.request.get("/settings/profile", { maxRedirects: 0 })).status()).toBe(200);
      await expect(barred).toHaveURL(/\/settings\/profile$/);
      await expect.poll(joined, { message: "the barred person's tab joined their channel" }).toBe(true);

      // Add the document to the blacklist; the entry links to the account by its document.
      await open(page, "/blacklist");
      await page.getByRole("button", { name: "Agregar a la lista negra" }).click();
      const addDialog = page.getByRole("dialog", { name: "Agregar a la lista negra" });
      // The number is checked by the chosen type: eight digits are no foreign-resident card.
      await chooseOption(addDialog, "Tipo de documento", "Carné de extranjería");
      await addDialog.getByLabel("Documento", { exact: true }).fill(DOCUMENT);
      await addDialog.getByLabel("Nombre").fill(BARRED.name);
      await addDialog.getByLabel("Motivo").fill("Prueba de acceso");
      await addDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(addDialog.getByText("El carné de extranjería debe tener de 9 a 12 letras o dígitos.")).toBeVisible();
      await chooseOption(addDialog, "Tipo de documento", "DNI");
      await addDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(flash(page, "success")).toHaveText(`Documento ${DOCUMENT} agregado a la lista negra.`);
      await expect(addDialog).toBeHidden();
      const entry = page.getByRole("row").filter({ hasText: DOCUMENT });
      await expect(entry.getByRole("cell")).toHaveText([
        `DNI ${DOCUMENT}`,
        BARRED.name,
        "Prueba de acceso",
        /\d/,
        ADMIN.name,
        `${BARRED.name} (${BARRED.email})`,
        "",
      ]);

      // Their session ended: their open tab is sent to the sign-in page at once (realtime), signed out.
      await expect(barred).toHaveURL(/\/login$/);
      await waitForHydration(barred);
      await expect(barred.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();

      // Remove the entry.
      await entry.getByRole("button", { name: `Quitar ${DOCUMENT}` }).click();
      await acceptConfirmation(page, `¿Quitar ${DOCUMENT} de la lista negra?`, "Quitar");
      await expect(flash(page, "success")).toHaveText("Registro quitado de la lista negra; el acceso se restableció.");
      await expect(entry).toHaveCount(0);

      const all = [...problems, ...barredProblems];
      expect(all, all.join("\n")).toEqual([]);
      await barredContext.close();
      await context.close();
    });

    test("the audit page lists the changes made: role, area and user created, user deactivated, role changed, blacklist", async ({
      browser,
      mesa,
    }) => {
      const { context, page, problems } = await admin(browser, mesa);
      // This run's administrator made exactly these changes (the CLI's are recorded as "Línea de comandos"). The audit
      // finds an actor by the name it shows, never by their e-mail.
      await open(page, `/audit?search=${encodeURIComponent(ADMIN.name)}`);
      await expect(page.getByRole("heading", { level: 1, name: "Auditoría" })).toBeVisible();
      const rows = page.getByRole("table", { name: "Auditoría" }).locator("tbody tr");
      const actions = (
        await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-action") ?? ""))
      ).reverse();
      // Creating a user records its role assignment too (today just before "user.created"; either order will do).
      const firstUser = actions.slice(2, 4).sort();
      expect(firstUser).toEqual(["user.created", "user.role_assigned"]);
      expect([...actions.slice(0, 2), ...firstUser, ...actions.slice(4)]).toEqual([
        "role.created",
        "area.created",
        "user.created",
        "user.role_assigned",
        "user.deactivated",
        "user.role_assigned",
        "user.updated",
        "blacklist.added",
        "blacklist.removed",
      ]);
      await expect(rows.locator("td:nth-child(2)")).toHaveText(Array(actions.length).fill(ADMIN.name));

      // Each entry in words: the action, the subject by its name, each change as "field: before → after".
      const row = (action: string) => rows.and(page.locator(`[data-action="${action}"]`));
      await expect(row("role.created").locator("td").nth(2)).toHaveText("Rol creado");
      await expect(row("role.created").locator("td").nth(3)).toHaveText(`Rol${ROLE}`);
      await expect(row("role.created").locator("td").nth(4)).toContainText(`Nombre: ${ROLE}`);
      await expect(row("role.created").locator("td").nth(4)).toContainText(
        "Permisos: Ver la lista negra, Ver usuarios",
      );
      await expect(row("area.created").locator("td").nth(3)).toHaveText(`Área${AREA} · Comedor Principal`);
      await expect(row("area.created").locator("td").nth(4)).toContainText(`Roles que ofrece: ${ROLE}`);
      await expect(row("user.created").locator("td").nth(3)).toHaveText(`Usuario${SUPERVISOR.name}`);
      await expect(row("user.created").locator("td").nth(4)).toContainText(`Correo: ${SUPERVISOR.email}`);
      await expect(row("user.deactivated").locator("td").nth(2)).toHaveText("Usuario desactivado");
      await expect(row("user.deactivated").locator("td").nth(4)).toHaveText("Estado: antes Activo después Desactivado");
      await expect(row("user.updated").locator("td").nth(4)).toContainText(DOCUMENT);
      await expect(row("blacklist.added").locator("td").nth(4)).toContainText("Motivo: Prueba de acceso");

      expect(problems, problems.join("\n")).toEqual([]);
      await context.close();
    });
  });

  test("Users, Roles, Blacklist and Audit hydrate without console errors or mismatches", async ({ browser, mesa }) => {
    // Six full page loads for two people, each waited on until its deferred rows have come.
    test.slow();
    // One tab for both people, one after the other, watching its console and whether React replaces the server's
    // markup on each page it opens.
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await watchServerMarkup(page);
    const check = async (path: string, heading: string, after?: (page: Page) => Promise<void>) => {
      const response = await openSettled(page, path);
      expect(response!.status(), path).toBe(200);
      await expect(page.locator("#app")).toHaveAttribute("data-server-rendered", "true");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      expect(await page.evaluate(() => (window as any).__removedFromApp), `${path}: markup React replaced`).toEqual([]);
      if (after) await after(page);
      expect(problems, `${path}:\n${problems.join("\n")}`).toEqual([]);
    };
    const tabs = async (page: Page) => {
      for (const tab of ["Áreas", "Roles", "Personas"]) {
        if ((await page.getByRole("tab", { name: tab }).count()) === 0) continue;
        await page.getByRole("tab", { name: tab }).click();
        await expect(page.getByRole("tabpanel")).toBeVisible();
      }
    };

    await mesa.signIn(context, ADMIN);
    await check("/users", "Usuarios", tabs);
    await check("/roles", "Roles");
    await check("/blacklist", "Lista negra");
    await check("/audit", "Auditoría");

    // A cafe manager: a narrower scope and no management buttons. The tab leaves the page before its cookies change
    // (the page's realtime connection would be refused meanwhile).
    await page.goto("about:blank");
    await context.clearCookies();
    await mesa.signIn(context, MANAGER);
    await check("/users", "Usuarios", tabs);
    await check("/blacklist", "Lista negra");
    await context.close();
  });

  test("the Users page's places are searched with accents ignored, and on a phone they fold into one button", async ({
    browser,
    mesa,
  }) => {
    const { context, page } = await admin(browser, mesa);
    await open(page, "/users");
    const places = page.getByRole("navigation", { name: "Lugares" });
    await places.getByRole("searchbox", { name: "Buscar un lugar" }).fill("CHANCADÓRA");
    await expect(places.getByRole("link")).toHaveText(["Todos los lugares", "Comedor Chancadora"]);
    await places.getByRole("searchbox", { name: "Buscar un lugar" }).fill("ninguno así");
    await expect(places.getByText("Ningún lugar coincide.")).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(places).toBeHidden();
    await page.getByRole("button", { name: "Lugares" }).click();
    await expect(places).toBeVisible();
    await context.close();
  });
});
