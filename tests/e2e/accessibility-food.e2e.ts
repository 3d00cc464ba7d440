/**
 * Accessibility of the food and menu screens: Ingredients, Providers and Logistics with their tabs and dialogs (each
 * page no wider than the screen; on a phone the offers read as cards), the Food page's dishes with a dish's dialog,
 * a line's calculation and the recipe copy, its menu table with the new-category dialog and a refused deletion, its
 * levels and its price changes with a dish's cost over time, as the nutritionist and buyer of Sede Lima; the meal
 * schedule's week and the purchases page with its servings dialog, as a planner. Each state is checked with axe in the light and the dark
 * theme (tests/e2e/accessibility.ts walks the screens, tests/e2e/axe.ts checks): the pages at a desktop and a phone
 * width where the screen was ever asked to work at both, their overlays at the desktop one. Moderate findings fail the test too; minor ones are listed in the
 * test's annotations.
 */
import {
  checkEachScreen,
  noSidewaysScroll,
  press,
  VIEWPORTS,
  type Screen,
  type Step,
  type Width,
} from "./accessibility";
import { expect, test } from "./fixtures";
import { acceptConfirmation, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
/** The nutritionist ("Nutrición") and buyer ("Logística") of Sede Lima. */
const COOK = { name: `Rosa Insumos ${RUN}`, email: `a11y.food.${RUN}@example.com` };
const PLANNER = { name: `Compras Accesible ${RUN}`, email: `a11y.planner.${RUN}@example.com` };
/**
 * The day the purchases world publishes a dish with servings on (tests/support/menu-requirements-fixtures.ts): not
 * the day tests/e2e/menu-requirements.e2e.ts takes, as both files may run on one worker's database.
 */
const DAY = "2031-04-14";
const TODAY = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima" }).format(new Date());
let cafeId = 0;

/** A button anywhere on the page: the first one named `name`, and the dialog it opens. */
const dialogOf = (button: string, name: string): Step => ({
  name: `${name} dialog`,
  open: async (page) => {
    await page.getByRole("button", { name: button, exact: true }).first().click();
    await expect(page.getByRole("dialog", { name })).toBeVisible();
  },
});

const fitsTheScreen = (page: Parameters<Step["open"]>[0], width: Width) => noSidewaysScroll(page, width);

const INGREDIENTS: Screen[] = [
  {
    name: "ingredients",
    path: "/ingredients",
    also: fitsTheScreen,
    steps: [
      dialogOf("Nuevo insumo", "Nuevo insumo"),
      dialogOf("Categorías", "Categorías de insumos"),
      dialogOf("Importar", "Importar insumos desde una hoja de cálculo"),
      dialogOf("Nueva oferta", "Nueva oferta"),
    ],
  },
  { name: "ingredients, their figures", path: "/ingredients?tab=ingredients", also: fitsTheScreen },
  {
    name: "providers",
    path: "/providers",
    also: async (page, width) => {
      await fitsTheScreen(page, width);
      if (width !== "phone") return;
      // The offers read as cards: each row a block no wider than the phone.
      const card = page.getByRole("row").filter({ hasText: "Arroz pilado" }).first();
      await expect(card).toBeVisible();
      expect.soft(await card.evaluate((row) => getComputedStyle(row).display)).toBe("block");
      expect.soft((await card.boundingBox())!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    },
    steps: [dialogOf("Nuevo proveedor", "Nuevo proveedor"), dialogOf("Ciudades", "Ciudades")],
  },
  { name: "providers, one by one", path: "/providers?tab=providers", also: fitsTheScreen },
  { name: "logistics", path: "/logistics", also: fitsTheScreen },
];

/** A demo dish's dialog, opened from its row. */
const editDish = press(/^Editar /);

const FOOD: Screen[] = [
  {
    name: "food, dishes",
    path: "/food",
    steps: [
      { name: "a dish's dialog", open: editDish },
      {
        name: "a recipe line's calculation",
        open: async (page) => {
          await editDish(page);
          await page.getByRole("dialog").getByRole("button", { name: "Cálculo de la línea 1", exact: true }).click();
          await expect(page.getByRole("dialog", { name: /^Cálculo: / })).toBeVisible();
        },
      },
      {
        name: "copying a recipe to another level",
        open: async (page) => {
          await editDish(page);
          await page.getByRole("dialog").getByRole("button", { name: "Copiar a otro nivel" }).click();
          await expect(page.getByRole("dialog", { name: /^Copiar la receta de / })).toBeVisible();
        },
      },
    ],
  },
  {
    name: "food, menu table",
    path: "/food?tab=menu_table",
    steps: [
      {
        name: "new dish category dialog",
        open: async (page) => {
          await page.getByRole("button", { name: "Nueva categoría de plato" }).click();
          const dialog = page.getByRole("dialog", { name: "Nueva categoría de plato" });
          await dialog.getByLabel("Nombre").fill(`Ensalada ${RUN}`);
          await dialog.getByLabel("Descripción").fill("Ensaladas frías de la casa");
        },
      },
      {
        name: "deleting a category a dish uses, refused",
        scope: "page",
        open: async (page) => {
          await page.getByRole("button", { name: "Eliminar Sopa" }).click();
          await acceptConfirmation(page, "¿Eliminar la categoría de plato Sopa?");
          await expect(page.getByRole("alert").filter({ hasText: "No se puede eliminar Sopa" })).toBeVisible();
        },
      },
    ],
  },
  { name: "food, levels", path: "/food?tab=levels" },
  {
    name: "food, today's price changes",
    path: `/food?tab=price_changes&from=${TODAY}&to=${TODAY}`,
    ready: (page) => expect(page.getByTestId("price-change-row").first()).toBeVisible(),
    steps: [
      {
        name: "a dish's cost over time",
        open: async (page) => {
          await page
            .getByTestId("price-change-row")
            .filter({ hasText: "Obrero" })
            .getByRole("button", { name: /^Ver la evolución del costo de / })
            .click();
          await expect(page.getByTestId("price-history-chart")).toBeVisible();
        },
      },
    ],
  },
];

const MENU: Screen[] = [
  { name: "meal schedule, this week", path: () => `/menu/schedule?cafe=${cafeId}`, only: "desktop" },
  {
    name: "purchases",
    path: () => `/menu/requirements?cafe=${cafeId}&from=${DAY}&to=${DAY}`,
    steps: [
      {
        name: "servings dialog",
        only: "desktop",
        open: (page) => page.getByTestId(`servings-edit-${DAY}`).click(),
      },
    ],
  },
];

// Generous for a busy machine (a page hydrates late when the CPU is shared); a missing button still fails in seconds.
test.use({ actionTimeout: 10_000, navigationTimeout: 30_000 });
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ browser, mesa }) => {
  test.setTimeout(60_000);
  for (const [role, area] of [
    ["nutritionist", "Nutrición"],
    ["buyer", "Logística"],
  ])
    await mesa.user({ ...COOK, role, area, place: "Sede Lima" });
  await mesa.user({ ...PLANNER, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  ({ cafeId } = await mesa.run<{ cafeId: number }>("menu-requirements", {
    cafe: "Comedor Principal",
    run: RUN,
    date: DAY,
  }));

  // Today's price change: Lima's mandarin offer gets a new price, on the Providers page.
  const context = await browser.newContext();
  await mesa.signIn(context, COOK);
  const page = await context.newPage();
  await page.goto("/providers?search=Mandarina");
  await waitForHydration(page);
  await page.getByRole("region", { name: /^Lima/ }).getByRole("button", { name: "Editar Mandarina · Kilo" }).click();
  const edit = page.getByRole("dialog", { name: "Editar oferta" });
  await edit.getByLabel("Precio (S/)").fill("9.87");
  await edit.getByRole("button", { name: "Guardar" }).click();
  await expect(edit).toBeHidden();
  await context.close();
});

// On a phone the offers read as cards: a touch screen's context, as a phone's browser has.
checkEachScreen("ingredients, providers and logistics", COOK, INGREDIENTS, (width) =>
  width === "phone" ? { isMobile: true, hasTouch: true } : {},
);
checkEachScreen("the meal schedule and purchases", PLANNER, MENU);
// The Food page was only ever asked to work on a desktop.
checkEachScreen(
  "the Food page",
  COOK,
  FOOD.map((screen) => ({ ...screen, only: "desktop" as const })),
);
