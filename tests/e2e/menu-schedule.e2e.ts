/**
 * The meal schedule in a real browser. A planner (a super-administrator made by the worker's fixtures) opens a week
 * of Comedor Principal, whose lunch structure gets a category of its own and two priced dishes from
 * tests/support/menu-schedule-fixtures.ts:
 * - places a dish with the keyboard alone (focus it in the dish search, Space, an arrow key to the first slot of its
 *   category, Space) and reads its cost per serving and the slot's bound;
 * - with a second page on the same week, places another dish through a slot's "choose dish" button: the second page
 *   shows it without reloading; a third dish goes in by dragging it with the mouse;
 * - someone saves a day without announcing it (the fixture), so the second page is stale: its change is refused and
 *   the card says who changed the day and what;
 * - publishes the week: its days show as published; copies it to the next week from the Copy dialog.
 *
 * axe checks a published week in tests/e2e/accessibility-food.e2e.ts.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { acceptConfirmation, chooseOption, watchConsole, waitForHydration } from "./support";

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PLANNER = { name: `Nadia Menú ${RUN}`, email: `schedule.super.${RUN}@example.com` };
const CAFE = "Comedor Principal";
/** A week far from the demo data's, Monday to Sunday. */
const MONDAY = "2031-03-03";
const SUNDAY = "2031-03-09";

/** The slot of `category` in the date card of `date`. */
function slot(page: Page, date: string, category: string): Locator {
  return page
    .locator(`[data-testid="date-card"][data-date="${date}"]`)
    .locator('[data-testid="slot"]')
    .filter({ has: page.getByText(category, { exact: true }) });
}

test("dishes placed by keyboard and by button, seen live on a second page; a stale save is refused and explained", async ({
  browser,
  mesa,
}) => {
  test.setTimeout(150_000);
  await mesa.user({ ...PLANNER, role: "super-administrator", area: "Administración", place: "Sede Lima" });
  const world = await mesa.run<{
    cafeId: number;
    serviceId: number;
    categoryId: number;
    category: string;
    dishes: { seco: number; aji: number };
  }>("menu-schedule-setup", { cafe: CAFE, run: RUN });
  const seco = `Seco ${RUN}`;
  const aji = `Ají ${RUN}`;
  const week = `/menu/schedule?cafe=${world.cafeId}&from=${MONDAY}&to=${SUNDAY}`;

  const one = await (await browser.newContext()).newPage();
  const oneProblems = watchConsole(one);
  await mesa.signIn(one, PLANNER);
  await one.goto(week);
  await waitForHydration(one);
  await expect(one.getByRole("heading", { name: "Programación del menú", level: 1 })).toBeVisible();
  await expect(one.locator('[data-testid="date-card"]')).toHaveCount(7);

  const two = await (await browser.newContext()).newPage();
  const twoProblems = watchConsole(two);
  await mesa.signIn(two, PLANNER);
  await two.goto(week);
  await waitForHydration(two);

  // By keyboard alone: the category, the name, then Space, an arrow to the first slot of the category, Space.
  const search = one.getByTestId("dish-search");
  await chooseOption(search, "Categoría", world.category);
  await search.getByLabel("Nombre del plato").fill(seco);
  const result = search.getByTestId("dish-result").filter({ hasText: seco });
  await expect(result).toBeVisible();
  await expect(result).toContainText("S/ 2.50");
  await result.focus();
  await one.keyboard.press("Space");
  await expect(one.getByText(`Tomó ${seco}`)).toBeAttached();
  await one.keyboard.press("ArrowDown");
  await expect(one.getByText(new RegExp(`${seco} está sobre Almuerzo · ${world.category}`))).toBeAttached();
  await one.keyboard.press("Space");
  const mondaySlot = slot(one, MONDAY, world.category);
  await expect(mondaySlot.getByTestId("slot-dish")).toContainText(seco);
  // Its cost per serving, within the category's bounds (S/ 1.00 – 4.00).
  await expect(mondaySlot.getByTestId("slot-dish")).toContainText("S/ 2.50");
  await expect(mondaySlot.getByTestId("slot-dish").getByText("Dentro de los límites")).toBeVisible();
  await expect(one.locator(`[data-testid="date-card"][data-date="${MONDAY}"]`)).toHaveAttribute("data-version", "1");

  // The second page heard of it and shows it, without reloading.
  await expect(slot(two, MONDAY, world.category).getByTestId("slot-dish")).toContainText(seco);

  // Without dragging: a slot's button opens the search of its category.
  await slot(one, "2031-03-04", world.category)
    .getByRole("button", { name: /Elegir plato/ })
    .click();
  const picker = one.getByRole("dialog");
  await picker.getByLabel("Nombre del plato").fill(aji);
  await picker.getByRole("button", { name: `Elegir ${aji}` }).click();
  await expect(picker).toBeHidden();
  await expect(slot(one, "2031-03-04", world.category).getByTestId("slot-dish")).toContainText("S/ 3.00");
  await expect(slot(two, "2031-03-04", world.category).getByTestId("slot-dish")).toContainText(aji);

  // With the mouse: Seco dragged from the search into Wednesday's slot.
  const wednesday = slot(one, "2031-03-05", world.category);
  await wednesday.scrollIntoViewIfNeeded();
  const from = (await result.boundingBox())!;
  const to = (await wednesday.boundingBox())!;
  await one.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await one.mouse.down();
  await one.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 12, { steps: 4 });
  await one.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await one.mouse.up();
  await expect(wednesday.getByTestId("slot-dish")).toContainText(seco);
  await expect(slot(two, "2031-03-05", world.category).getByTestId("slot-dish")).toContainText(seco);

  // Someone saves Tuesday without the pages hearing of it: the second page's next save there is stale.
  await mesa.run("menu-schedule-save", {
    cafeId: world.cafeId,
    date: "2031-03-04",
    service: world.serviceId,
    category: world.categoryId,
    dish: world.dishes.seco,
    as: "Rosa Cocina",
  });
  const tuesday = slot(two, "2031-03-04", world.category);
  await tuesday.getByRole("button", { name: new RegExp(`Quitar ${aji}`) }).click();
  const note = two.locator(`[data-testid="date-card"][data-date="2031-03-04"]`).getByTestId("stale-note");
  await expect(note).toBeVisible();
  await expect(note).toContainText("Rosa Cocina");
  await expect(note).toContainText(`${aji} → ${seco}`);
  // The card now shows the day as it is.
  await expect(tuesday.getByTestId("slot-dish")).toContainText(seco);
  await expect(tuesday.getByTestId("slot-dish")).not.toContainText(aji);

  // Publishing the week shown: the days placed become the cafe's menu.
  await one.getByTestId("publish").click();
  await acceptConfirmation(one, /¿Publicar del/, "Publicar");
  await expect(one.locator(`[data-testid="date-card"][data-date="${MONDAY}"] [data-state]`)).toHaveAttribute(
    "data-state",
    "published",
  );

  // Copying the week to the next one, from the dialog's defaults (this week, pasted on the following Monday).
  await one.getByRole("button", { name: "Copiar días" }).click();
  const copy = one.getByRole("dialog", { name: "Copiar días a fechas posteriores" });
  await copy.getByRole("button", { name: "Copiar", exact: true }).click();
  await expect(copy).toBeHidden();
  await expect(one.getByText(/Se copiaron \d+ días\./)).toBeVisible();

  expect(oneProblems).toEqual([]);
  // The browser logs the refused save's answer (409) itself; nothing else went wrong.
  expect(twoProblems.filter((p) => !/status of 409 .*\/menu\/schedule\/\d+\/2031-03-04/.test(p))).toEqual([]);
  expect(twoProblems).toHaveLength(1);
});
