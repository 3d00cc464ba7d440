/**
 * Accessibility of the places and businesses pages, as a super-administrator: Management's three tabs with the
 * new-place dialog at each of its stages, the services popovers and tooltip, the removal confirmation, the prices
 * dialog, a places workbook's bad rows and its import preview (never confirmed); Services; the dealerships tree;
 * Businesses, Headquarters, Properties, a property and its QR label. Each page and every overlay and state it has is
 * checked with axe in the light and the dark theme, the pages and their states at a desktop and a phone width and the
 * overlays at the desktop one (tests/e2e/accessibility.ts walks them, tests/e2e/axe.ts checks). Moderate findings fail the test too; minor ones are listed in its annotations.
 */
import type { Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import * as XLSX from "xlsx";
import {
  checkEachScreen,
  columns,
  content,
  editAndDelete,
  press,
  selectList,
  type Screen,
  type Step,
} from "./accessibility";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ADMIN = { name: `Ana Lugares ${RUN}`, email: `super.a11y.places.${RUN}@example.com` };
/** A demo property, found before the checks. */
const ids = { property: 0 };

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

const SCREENS: Screen[] = [
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
    path: () => `/properties/${ids.property}`,
    steps: [{ name: "edit property dialog", open: press(/^Editar/) }],
  },
  { name: "property label (QR)", path: () => `/properties/${ids.property}/label` },
];

// Generous for a busy machine (a page hydrates late when the CPU is shared); a missing button still fails in seconds.
test.use({ actionTimeout: 10_000, navigationTimeout: 30_000 });
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ browser, mesa }) => {
  await mesa.user({ ...ADMIN, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  const context = await browser.newContext();
  await mesa.signIn(context, ADMIN);
  const page = await context.newPage();
  await page.goto("/businesses/properties");
  await waitForHydration(page);
  const href = await page.getByRole("link", { name: /^Ver / }).first().getAttribute("href");
  ids.property = Number(href!.match(/\/properties\/(\d+)/)![1]);
  await context.close();
});

checkEachScreen("places and businesses", ADMIN, SCREENS);
