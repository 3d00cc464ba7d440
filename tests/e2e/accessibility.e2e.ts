/**
 * Accessibility as a test: axe (@axe-core/playwright) checks every page and every dialog Mesa has, in the light and
 * the dark theme, at a desktop (1366×850) and a phone (390×844) width, and finds no serious or critical violation.
 *
 * One test per width, each with a browser context for the pages outside (welcome, sign-in, registration, password
 * reset, settings signed out, not found), one for someone whose e-mail is still to verify, and one for the app as
 * a super-administrator (so every page and button is there), signed in once for all of them. On each page every
 * overlay it can open is opened and checked on its own: new/edit dialogs, confirmations (cancelled, so nothing is
 * deleted), popovers, menus, select lists, the date picker, a tooltip, the phone menu sheet, a notice; and the
 * states that change the page (a tab, a form with its errors, a tree opened, a workbook's import preview and its
 * bad rows, never confirmed). Each is checked in the light theme with every rule, then in the dark one with the
 * rules that read colours. A failure names the page, the step, the theme, the rule and the elements' selectors; the
 * checks are soft assertions, so one run lists every violation.
 *
 * Moderate findings fail the test too (content outside landmarks, a page without an h1, headings out of order);
 * minor ones are listed in the test's annotations. */
import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as XLSX from "xlsx";
import { waitForHydration } from "./support";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Puna-Accesible-2026!";
const ADMIN = { name: `Ana Accesible ${RUN}`, email: `super.a11y.${RUN}@example.com` };
/** Someone who registered and has not opened the verification link yet. */
const NEWCOMER = { name: `Bruno Recién ${RUN}`, email: `nuevo.a11y.${RUN}@example.com` };
/** Made in beforeAll so that their rows, and the confirmations those rows ask, exist. */
const BARRED = { document: String(10_000_000 + Math.floor(Math.random() * 89_999_999)), name: `Vetado ${RUN}` };
const ROLE = `Rol accesible ${RUN}`;

const VIEWPORTS = { desktop: { width: 1366, height: 850 }, phone: { width: 390, height: 844 } } as const;
type Width = keyof typeof VIEWPORTS;
type Theme = "light" | "dark";

/** The rules whose outcome depends on the theme's colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
const FAILING_IMPACTS = new Set(["critical", "serious", "moderate"]);

/**
 * Where the open overlays live: modal dialogs and sheets (role dialog/alertdialog, in Radix's portal), and popovers,
 * menus, select lists and tooltips (in Radix's positioned wrapper). A check of an overlay covers these only, so a
 * page's own findings are not reported again for each of its dialogs.
 */
const OVERLAYS = [
  "[role=dialog]",
  "[role=alertdialog]",
  "[data-radix-popper-content-wrapper]",
  "[data-sonner-toaster]",
];
const OPEN_OVERLAY = "[role=dialog], [role=alertdialog], [data-radix-popper-content-wrapper]";

// AxeBuilder evaluates axe-core's source (1.4 MB) in the page twice on every check; each document gets it once
// instead, as an init script, and the builder is handed a source that only checks it is there.
const AXE_PRESENT = "if (!window.axe) throw new Error('axe-core is not loaded in this document');";

interface Step {
  /** What the check is called in a report: the button pressed, the state reached. */
  name: string;
  /** Opens the overlay (or changes the page). */
  open: (page: Page) => Promise<void>;
  /**
   * "overlay" (default): the overlays open after `open` are checked, then closed with Escape.
   * "page": the page as `open` left it is checked, and stays so for the next steps.
   */
  scope?: "overlay" | "page";
  /** Where the control exists (the "+2" chips' tooltip is desktop-only; the phone menu, phone-only). */
  only?: Width;
}

interface Screen {
  name: string;
  path: string | ((ids: Ids) => string);
  steps?: Step[];
}

interface Ids {
  property: number;
}

/** The page's own content (not the header's or the menu's controls). */
const content = (page: Page) => page.locator("#content");

/** Clicks the first button in the page content whose accessible name matches. */
const press =
  (name: string | RegExp, within: (page: Page) => Locator = content) =>
  async (page: Page) => {
    await within(page)
      .getByRole("button", { name, exact: typeof name === "string" })
      .first()
      .click();
  };

/** The row (of the table captioned `caption`) whose cells include `text`, and the button `name` in it. */
const pressInRow = (caption: string, rowText: string | RegExp, name: string | RegExp) => async (page: Page) => {
  const row = page.getByRole("table", { name: caption }).getByRole("row").filter({ hasText: rowText }).first();
  await row.getByRole("button", { name }).first().click();
};

const tab = (name: string) => async (page: Page) => {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
};

const columns: Step = { name: "columns menu", open: press(/^Mostrar u ocultar columnas de /) };

/** A row's Edit and Delete (the delete confirmation is cancelled by the check's Escape). */
const editAndDelete = (label: string, edit: RegExp, remove: RegExp): Step[] => [
  { name: `edit ${label}`, open: press(edit) },
  { name: `delete ${label} (confirmation)`, open: press(remove) },
];

/** A styled select (Radix Select) named `label`: its list of options. */
const selectList =
  (label: string, within: (page: Page) => Locator = content): Step["open"] =>
  async (page: Page) => {
    await within(page).getByRole("combobox", { name: label, exact: true }).click();
    await expect(page.getByRole("listbox")).toBeVisible();
  };

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

/** Pages in the app, as the super-administrator. */
const INSIDE: Screen[] = [
  {
    name: "dashboard",
    path: "/dashboard",
    steps: [
      { name: "phone menu", only: "phone", open: press("Abrir el menú", (page) => page.locator("header")) },
      { name: "language list", open: selectList("Cambiar idioma", (page) => page.locator("header")) },
    ],
  },
  {
    name: "management, mines",
    path: "/management?tab=mines",
    steps: [
      { name: "import dialog", open: press("Importar desde Excel") },
      { name: "new place dialog", open: press("Nuevo lugar") },
      {
        name: "new place dialog, a mine chosen",
        open: async (page) => {
          await press("Nuevo lugar")(page);
          const dialog = page.getByRole("dialog", { name: "Nuevo lugar" });
          await dialog.getByRole("button", { name: "Mina Cerro Verde" }).click();
          await expect(dialog.getByRole("button", { name: /Unidad Norte/ })).toBeVisible();
        },
      },
      {
        name: "new place dialog, a unit chosen",
        open: async (page) => {
          await press("Nuevo lugar")(page);
          const dialog = page.getByRole("dialog", { name: "Nuevo lugar" });
          await dialog.getByRole("button", { name: "Mina Cerro Verde" }).click();
          await dialog.getByRole("button", { name: /Unidad Norte/ }).click();
          await expect(dialog.getByLabel("Nombre del comedor")).toBeVisible();
        },
      },
      columns,
      { name: "more services tooltip", only: "desktop", open: hoverMore },
      { name: "services popover", open: press(/^Servicios de /) },
      { name: "removing a service from a mine (confirmation)", open: removeService },
      ...editAndDelete("mine", /^Editar /, /^Eliminar /),
      { name: "import with bad rows", scope: "page", open: importWorkbook("problems") },
      { name: "import preview", scope: "page", open: importWorkbook("preview") },
    ],
  },
  {
    name: "management, units",
    path: "/management?tab=units",
    steps: [
      columns,
      { name: "services popover", open: press(/^Servicios de /) },
      ...editAndDelete("unit", /^Editar /, /^Eliminar /),
    ],
  },
  {
    name: "management, cafes",
    path: "/management?tab=cafes",
    steps: [
      columns,
      { name: "services popover", open: press(/^Servicios de /) },
      { name: "prices dialog", open: press(/^Precios de /) },
      ...editAndDelete("cafe", /^Editar /, /^Eliminar /),
      {
        name: "time zone list in the edit cafe dialog",
        open: async (page) => {
          await press(/^Editar /)(page);
          await page.getByRole("dialog").getByRole("combobox", { name: "Zona horaria" }).click();
          await expect(page.getByRole("listbox")).toBeVisible();
        },
      },
    ],
  },
  {
    name: "services",
    path: "/services",
    steps: [
      { name: "new service dialog", open: press("Nuevo servicio") },
      {
        name: "new service dialog with its errors",
        open: async (page) => {
          await press("Nuevo servicio")(page);
          const dialog = page.getByRole("dialog", { name: "Nuevo servicio" });
          await dialog.getByRole("button", { name: "Guardar" }).click();
          await expect(dialog.locator("[aria-invalid=true]").first()).toBeVisible();
        },
      },
      {
        name: "type list in the new service dialog",
        open: async (page) => {
          await press("Nuevo servicio")(page);
          await selectList("Tipo", (p) => p.getByRole("dialog", { name: "Nuevo servicio" }))(page);
        },
      },
      { name: "type filter list", open: selectList("Tipo") },
      { name: "status filter list", open: selectList("Estado") },
      columns,
      ...editAndDelete("service", /^Editar /, /^Eliminar /),
    ],
  },
  {
    name: "dealerships tree",
    path: "/dealerships",
    steps: [
      { name: "new dealership dialog", open: press("Nueva concesionaria") },
      { name: "new subdealership dialog", open: press("Nueva subconcesionaria") },
      { name: "add subdealership dialog", open: press(/^Agregar subconcesionaria a /) },
      columns,
      ...editAndDelete("dealership", /^Editar /, /^Eliminar /),
      { name: "tree opened", scope: "page", open: press(/^Mostrar las subconcesionarias de /) },
    ],
  },
  {
    name: "businesses",
    path: "/businesses",
    steps: [
      { name: "new business dialog", open: press("Nueva empresa") },
      columns,
      { name: "business services dialog", open: press(/^Elegir servicios de /) },
      ...editAndDelete("business", /^Editar /, /^Eliminar /),
      { name: "cafes shown", scope: "page", open: press(/^Ver los comedores que opera /) },
    ],
  },
  {
    name: "headquarters",
    path: "/businesses/headquarters",
    steps: [
      { name: "new headquarters dialog", open: press("Nueva sede") },
      columns,
      ...editAndDelete("headquarters", /^Editar /, /^Eliminar /),
    ],
  },
  {
    name: "properties",
    path: "/businesses/properties",
    steps: [
      { name: "new property dialog", open: press("Nuevo bien") },
      {
        name: "location list in the new property dialog",
        open: async (page) => {
          await press("Nuevo bien")(page);
          await page.getByRole("dialog", { name: "Nuevo bien" }).getByRole("combobox", { name: "Ubicación" }).click();
          await expect(page.getByRole("listbox")).toBeVisible();
        },
      },
      {
        name: "date picker in the new property dialog",
        open: async (page) => {
          await press("Nuevo bien")(page);
          await page.getByRole("dialog", { name: "Nuevo bien" }).getByLabel("Fecha de adquisición").click();
          await expect(page.locator(".rdp-root")).toBeVisible();
        },
      },
      { name: "status filter list", open: selectList("Estado") },
      columns,
      ...editAndDelete("property", /^Editar /, /^Eliminar /),
    ],
  },
  {
    name: "property",
    path: (ids) => `/properties/${ids.property}`,
    steps: [{ name: "edit property dialog", open: press(/^Editar/) }],
  },
  { name: "property label (QR)", path: (ids) => `/properties/${ids.property}/label` },
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
 * Unticks a mine's first service and saves: the mine's units and cafes offer it too, so the server asks first and
 * the confirmation lists them (nothing is removed until it is confirmed; the check's Escape cancels it).
 */
async function removeService(page: Page): Promise<void> {
  await press(/^Servicios de Mina Cerro Verde/)(page);
  const popover = page.locator("[data-radix-popper-content-wrapper]");
  await popover.getByRole("checkbox", { checked: true }).first().uncheck();
  await popover.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
}

/**
 * A places workbook uploaded to Management: with `problems`, a price that is not a number, and the page lists the bad
 * row; else a new mine, unit and cafe, and the page shows what importing would do, its changes opened. Nothing is
 * written either way; a workbook left by an earlier step is closed first.
 */
function importWorkbook(outcome: "problems" | "preview"): Step["open"] {
  return async (page) => {
    const job = page.getByTestId("import-job");
    if ((await job.count()) > 0) {
      await job
        .getByRole("button", { name: /^(Descartar|Cerrar)$/ })
        .first()
        .click();
      await expect(job).toHaveCount(0);
    }
    const mine = `Mina Revisada ${RUN} ${outcome}`;
    const unit = `Unidad Revisada ${RUN}`;
    const cafe = `Comedor Revisado ${RUN}`;
    const book = XLSX.utils.book_new();
    const sheets = {
      Minas: [
        ["Nombre", "Servicios"],
        [mine, "DES, ALM"],
      ],
      Unidades: [
        ["Mina", "Nombre", "Servicios"],
        [mine, unit, "DES, ALM"],
      ],
      Comedores: [
        ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
        [mine, unit, cafe, "Mesa Catering S.A.C.", "", "DES, ALM"],
      ],
      Precios: [
        ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
        [mine, unit, cafe, "ALM", outcome === "problems" ? "abc" : "18.50"],
      ],
    };
    for (const [name, rows] of Object.entries(sheets))
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
    const file = test.info().outputPath(`lugares-${outcome}-${page.viewportSize()?.width}.xlsx`);
    writeFileSync(file, XLSX.write(book, { type: "buffer", bookType: "xlsx" }));

    await press("Importar desde Excel")(page);
    const dialog = page.getByRole("dialog", { name: "Importar lugares desde Excel" });
    await dialog.getByLabel("Libro de Excel (.xlsx, hasta 5 MiB)").setInputFiles(file);
    await dialog.getByRole("button", { name: "Subir y revisar" }).click();
    await expect(dialog).toBeHidden();
    await expect(job).toHaveAttribute("data-step", outcome, { timeout: 15_000 });
    if (outcome === "preview") {
      await job.getByText(/^Ver los \d+ cambios$/).click();
      await expect(job.getByTestId("import-changes")).toBeVisible();
    }
  };
}

/** The "+2" chip's tooltip listing the services a row's chips leave out (desktop only). */
async function hoverMore(page: Page): Promise<void> {
  await content(page)
    .getByRole("button", { name: /^\d+ más: / })
    .first()
    .hover();
  await expect(page.getByRole("tooltip")).toBeAttached();
}

/** Turns axe's findings into lines a failure report can show: impact, rule, what to do, and where. */
function describe(violations: axe.Result[]): string[] {
  return violations.map((violation) => {
    const where = violation.nodes
      .map((node) => {
        const summary = (node.failureSummary ?? "").split("\n").slice(1).join(" ").trim();
        return `    ${node.target.join(" ")}${summary ? ` — ${summary}` : ""}`;
      })
      .join("\n");
    return `${violation.impact} ${violation.id}: ${violation.help} (${violation.helpUrl})\n${where}`;
  });
}

async function analyze(page: Page, where: string, include?: string[], rules?: string[]): Promise<void> {
  // Only the violations come back in full (the passes of a long table would be most of the time spent).
  let builder = new AxeBuilder({ page, axeSource: AXE_PRESENT })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] });
  for (const selector of include ?? []) builder = builder.include(selector);
  if (rules) builder = builder.withRules(rules);
  const { violations } = await builder.analyze();
  const failing = violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""));
  expect.soft(describe(failing), `axe: ${where}`).toEqual([]);
  for (const minor of describe(violations.filter((violation) => !failing.includes(violation))))
    test.info().annotations.push({ type: `axe: ${where}`, description: minor });
}

/**
 * Puts the page in a theme as choosing it does (use-appearance.ts: the `dark` class on <html>), and lets colour
 * transitions end first, so axe reads the theme's colours rather than a mix of both.
 */
async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(async (value) => {
    const root = document.documentElement;
    root.dataset.appearance = value;
    root.classList.toggle("dark", value === "dark");
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
  }, theme);
}

/**
 * Checks what is on screen in both themes: every rule in the light one, then the rules that read colours in the
 * dark one (the rest see the same markup twice).
 */
async function checkThemes(page: Page, where: string, include?: string[]): Promise<void> {
  await setTheme(page, "light");
  await analyze(page, `${where} [light]`, include);
  await setTheme(page, "dark");
  await analyze(page, `${where} [dark]`, include, COLOUR_RULES);
}

/** Opens a page and checks it, then each of its steps. */
async function checkScreen(page: Page, screen: Screen, width: Width, ids: Ids): Promise<void> {
  const label = `[${width}]`;
  const path = typeof screen.path === "function" ? screen.path(ids) : screen.path;
  const load = async () => {
    await page.goto(path);
    await waitForHydration(page);
  };
  await load();
  await checkThemes(page, `${label} ${screen.name} (${path})`);
  for (const step of screen.steps ?? []) {
    if (step.only && step.only !== width) continue;
    const where = `${label} ${screen.name} → ${step.name}`;
    const open = page.locator(OPEN_OVERLAY);
    try {
      await step.open(page);
      if (step.scope === "page") {
        await checkThemes(page, where);
        continue;
      }
      await expect(open.first(), "nothing opened").toBeVisible();
      const present = [];
      for (const selector of OVERLAYS) if ((await page.locator(selector).count()) > 0) present.push(selector);
      await checkThemes(page, where, present);
      // Escape closes the innermost overlay; a list inside a dialog needs a second one.
      for (let i = 0; i < 3 && (await open.count()) > 0; i++) await page.keyboard.press("Escape");
      await expect(open).toHaveCount(0);
    } catch (error) {
      // A step that cannot be taken (a button renamed, a dialog that did not open) is reported like a violation,
      // and the page starts afresh for the next step.
      expect.soft(String(error).split("\n").slice(0, 6).join("\n"), `${where} could not be checked`).toBe("");
      await load();
    }
  }
}

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

async function newContext(browser: Browser, width: Width, storageState?: State) {
  const context = await browser.newContext({
    viewport: VIEWPORTS[width],
    reducedMotion: "reduce",
    ...(storageState ? { storageState } : {}),
  });
  await context.addInitScript({ content: axe.source });
  return context;
}

type State = Awaited<ReturnType<BrowserContext["storageState"]>>;

let testInfo: TestInfo;
const baseURL = () => String(testInfo.project.use.baseURL);

function createAdmin(): void {
  execFileSync(
    join(ROOT, "node_modules/.bin/bun"),
    [
      "tests/support/e2e-fixtures.ts",
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
    ],
    { cwd: ROOT, env: { ...process.env, DB_PATH: process.env.MESA_E2E_DB }, stdio: "pipe" },
  );
}

// Generous for a busy machine (a page hydrates late when the CPU is shared); a missing button still fails in seconds.
test.use({ actionTimeout: 10_000, navigationTimeout: 30_000 });

test.describe("accessibility", () => {
  let admin: State;
  let newcomer: State;
  const ids: Ids = { property: 0 };

  test.beforeAll(async ({ browser }, info) => {
    testInfo = info;
    test.setTimeout(90_000);
    createAdmin();

    // The super-administrator signs in once; every context reuses the session.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await waitForHydration(page);
    await page.getByLabel("Correo electrónico").fill(ADMIN.email);
    await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Ingresar" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    admin = await context.storageState();

    // A bar to lift and a role nobody holds, so their confirmations can be asked; a property to show.
    await page.goto("/blacklist");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Agregar a la lista negra" }).click();
    const bar = page.getByRole("dialog", { name: "Agregar a la lista negra" });
    await bar.getByLabel("Documento", { exact: true }).fill(BARRED.document);
    await bar.getByLabel("Nombre", { exact: true }).fill(BARRED.name);
    await bar.getByLabel("Motivo").fill("Prueba de accesibilidad");
    await bar.getByRole("button", { name: "Guardar" }).click();
    await expect(bar).toBeHidden();

    await page.goto("/users");
    await waitForHydration(page);
    await page.getByRole("tab", { name: "Roles", exact: true }).click();
    await page.getByRole("button", { name: "Nuevo rol" }).click();
    const role = page.getByRole("dialog", { name: "Nuevo rol" });
    await role.getByLabel("Nombre", { exact: true }).fill(ROLE);
    await role.getByRole("button", { name: "Guardar" }).click();
    await expect(role).toBeHidden();

    await page.goto("/businesses/properties");
    await waitForHydration(page);
    const href = await page.getByRole("link", { name: /^Ver / }).first().getAttribute("href");
    ids.property = Number(href!.match(/\/properties\/(\d+)/)![1]);
    await context.close();

    // Someone who just registered: signed in, the e-mail not verified yet.
    const outside = await browser.newContext();
    const join = await outside.newPage();
    await join.goto("/register");
    await waitForHydration(join);
    await join.getByLabel("Nombre completo").fill(NEWCOMER.name);
    await join.getByLabel("Correo electrónico").fill(NEWCOMER.email);
    await join.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await join.getByLabel(/Confirme/).fill(PASSWORD);
    await join.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(join).toHaveURL(/\/verify-email$/);
    newcomer = await outside.storageState();
    await outside.close();
  });

  for (const width of Object.keys(VIEWPORTS) as Width[]) {
    const { width: w, height: h } = VIEWPORTS[width];
    test(`no serious or critical violation on any page or dialog, light and dark, ${width} (${w}×${h})`, async ({
      browser,
    }) => {
      // About four minutes each on a machine of its own; twice that when other browsers share its two cores.
      test.setTimeout(900_000);

      const outside = await newContext(browser, width);
      const guest = await outside.newPage();
      for (const screen of OUTSIDE) await checkScreen(guest, screen, width, ids);
      await outside.close();

      const waiting = await newContext(browser, width, newcomer);
      const unverified = await waiting.newPage();
      await checkScreen(unverified, { name: "e-mail to verify", path: "/verify-email" }, width, ids);
      await waiting.close();

      const inside = await newContext(browser, width, admin);
      const page = await inside.newPage();
      for (const screen of INSIDE) await checkScreen(page, screen, width, ids);

      await checkFallbacks(page, width);
      await inside.close();
    });
  }
});
