/**
 * Accessibility of the dashboard, the people and access pages and the settings, as a super-administrator (so every
 * page and button is there): the dashboard while its figures load, with them, and with its chart as a table; Users
 * with its tabs and every dialog and confirmation; Blacklist, Audit, the roles matrix; the settings pages and their
 * states; the password confirmation; not found; and the browser's fallbacks inside the app frame (a page whose code
 * cannot be downloaded, a page the server names but this build does not have). Each is checked with axe in the
 * light and the dark theme, the pages and their states at a desktop and a phone width and the overlays at the desktop
 * one (tests/e2e/accessibility.ts walks them, tests/e2e/axe.ts checks). Moderate findings fail the test too; minor ones are listed in its annotations.
 */
import type { Page } from "@playwright/test";
import {
  checkAtEachWidth,
  checkEachScreen,
  columns,
  content,
  press,
  pressInRow,
  selectList,
  tab,
  type Screen,
  type Width,
} from "./accessibility";
import { checkThemes } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Ana Accesible ${RUN}`, email: `super.a11y.${RUN}@example.com` };
/** Made before the checks so that their rows, and the confirmations those rows ask, exist. */
const BARRED = { document: String(10_000_000 + Math.floor(Math.random() * 89_999_999)), name: `Vetado ${RUN}` };
const ROLE = `Rol accesible ${RUN}`;

/** The dashboard's figures, held back until `releaseFigures` (so its skeletons can be checked). */
let releaseFigures: () => void = () => {};
const figuresOnly = (url: URL) => url.pathname === "/dashboard";
async function holdFigures(page: Page): Promise<void> {
  const held = new Promise<void>((resolve) => (releaseFigures = resolve));
  await page.route(figuresOnly, async (route) => {
    if (route.request().headers()["x-inertia-partial-data"] === "figures") await held;
    await route.continue();
  });
}

const SCREENS: Screen[] = [
  {
    name: "dashboard, its figures loading",
    path: "/dashboard",
    before: holdFigures,
    ready: (page) => expect(page.getByTestId("figures-skeleton")).toBeVisible(),
    steps: [
      {
        name: "its figures",
        scope: "page",
        open: async (page) => {
          releaseFigures();
          await expect(page.getByTestId("figures")).toBeVisible();
          await page.unroute(figuresOnly);
        },
      },
      {
        name: "its chart as a table",
        scope: "page",
        open: async (page) => {
          await page.getByRole("button", { name: "Ver como tabla" }).click();
          await expect(page.getByTestId("days-table")).toBeVisible();
        },
      },
      { name: "phone menu", only: "phone", open: press("Abrir el menú", (page) => page.locator("header")) },
      { name: "language list", open: selectList("Cambiar idioma", (page) => page.locator("header")) },
    ],
  },
  {
    name: "users",
    path: "/users",
    steps: [
      // On a phone the places tree folds into one button.
      { name: "places opened", scope: "page", only: "phone", open: press("Lugares") },
      { name: "new area dialog", open: press("Nueva área") },
      { name: "new user dialog", open: press("Nuevo usuario") },
      { name: "area filter list", open: selectList("Área") },
      { name: "status filter list", open: selectList("Estado") },
      { name: "permissions dialog", open: press("Ver permisos") },
      { name: "edit user dialog", open: press("Editar") },
      { name: "change role dialog", open: press("Cambiar rol") },
      { name: "deactivate (confirmation)", open: press("Desactivar") },
      { name: "areas tab", scope: "page", open: tab("Áreas") },
      { name: "edit area dialog", open: press("Editar") },
      { name: "roles tab", scope: "page", open: tab("Roles") },
      { name: "new role dialog", open: press("Nuevo rol") },
      { name: "edit role dialog", open: pressInRow("Roles", ROLE, "Editar") },
      { name: "delete role (confirmation)", open: pressInRow("Roles", ROLE, "Eliminar") },
    ],
  },
  {
    name: "blacklist",
    path: "/blacklist",
    steps: [
      { name: "add dialog", open: press("Agregar a la lista negra") },
      columns,
      { name: "lift a bar (confirmation)", open: press(`Quitar ${BARRED.document}`) },
    ],
  },
  { name: "audit", path: "/audit", steps: [columns] },
  {
    name: "roles matrix",
    path: "/roles",
    steps: [
      { name: "new role dialog", open: press("Nuevo rol") },
      { name: "edit role dialog", open: press(/^Editar (?!entrada)/) },
      { name: "menu entry dialog", open: press(/^Editar entrada del menú/) },
    ],
  },
  {
    name: "profile",
    path: "/settings/profile",
    steps: [{ name: "delete account form", scope: "page", open: press("Eliminar cuenta") }],
  },
  { name: "password", path: "/settings/password" },
  { name: "appearance", path: "/settings/appearance" },
  {
    name: "language",
    path: "/settings/language",
    steps: [
      {
        name: "saved notice",
        scope: "page",
        open: async (page) => {
          await content(page).getByRole("button", { name: "Guardar" }).click();
          await expect(page.locator("[data-sonner-toast]")).toBeVisible();
        },
      },
    ],
  },
  { name: "confirm password", path: "/confirm-password" },
  { name: "not found", path: "/no-such-page" },
];

/**
 * The browser's fallbacks, inside the app frame: a page whose code cannot be downloaded, and a page the server names
 * but this build does not have.
 */
async function checkFallbacks(page: Page, width: Width): Promise<void> {
  const settings = (name: string) =>
    page.getByRole("navigation", { name: "Configuración" }).getByRole("link", { name, exact: true });
  const chunks = /\/build\/.*\.js$/;
  await page.goto("/settings/appearance");
  await waitForHydration(page);
  await page.route(chunks, (route) => route.abort());
  await settings("Contraseña").click();
  await expect(page.getByTestId("chunk-error")).toBeVisible();
  await checkThemes(page, `[${width}] a page whose code did not load`);
  await page.unroute(chunks);

  await page.goto("/settings/appearance");
  await waitForHydration(page);
  await page.route("**/settings/language", async (route) => {
    if (route.request().headers()["x-inertia"] !== "true") return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), component: "does/not-exist" } });
  });
  await settings("Idioma").click();
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await checkThemes(page, `[${width}] a page this build does not have`);
  await page.unroute("**/settings/language");
}

// Generous for a busy machine (a page hydrates late when the CPU is shared); a missing button still fails in seconds.
test.use({ actionTimeout: 10_000, navigationTimeout: 30_000 });
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ mesa }) => {
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  // A bar to lift and a role nobody holds, so their confirmations can be asked.
  await mesa.cli("blacklist:add", BARRED.document, "--name", BARRED.name, "--reason", "Prueba de accesibilidad");
  await mesa.cli("role:create", ROLE);
});

checkEachScreen("the dashboard, people, access and settings", ADMIN, SCREENS);
checkAtEachWidth("the browser's fallbacks in the app frame", ADMIN, checkFallbacks);
