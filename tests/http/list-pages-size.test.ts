/**
 * The long pages on the demo data (896 offers, 163 ingredients, and 40 more people): Providers, Ingredients and
 * Users are paged on the server and bounded in size. A first load (the HTML) carries only the rows above the fold
 * (ROWS_ON_FIRST_LOAD, marked `cut`) and names the whole page as a deferred prop (`offersFull`…), which the
 * browser's next request brings; what lies below the fold on the Users page (the areas and roles tabs, the role
 * dialog's permissions, the area choices of the filter and the dialogs) is deferred too. A page-protocol visit (a search, a sort, another page) brings the whole
 * page in one answer, never more than a page.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { placesSeeder } from "../../db/seeds/places";
import { accessSeeder, demoPeopleSeeder, rolesSeeder } from "../../db/seeds/access";
import { foodSeeder } from "../../db/seeds/food";
import { serviceCatalogueSeeder, servicesSeeder } from "../../db/seeds/services";
import { ROWS_ON_FIRST_LOAD } from "../../src/http/pagination";
import { type Client, createTestApp, embeddedPage, type TestApp } from "../support/app";
import { addUser } from "../support/people";
import { signedIn } from "../support/requests";

let app: TestApp;
let client: Client;

beforeAll(async () => {
  app = createTestApp();
  for (const seeder of [
    rolesSeeder,
    serviceCatalogueSeeder,
    placesSeeder,
    accessSeeder,
    servicesSeeder,
    foodSeeder,
    demoPeopleSeeder,
  ])
    await seeder.run(app.db, app.config);
  // A super-administrator as the demo's, and 40 more people at the demo headquarters, so the Users list is long.
  const holdAsDemo = app.db.$client.prepare(
    `INSERT INTO assignments (user_id, area_id, role_id)
     SELECT ?, area_id, role_id FROM assignments WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
  );
  const me = await addUser(app.db, "Medidora de Páginas", "medidora@mesa.test");
  holdAsDemo.run(me.id, "demo@mesa.test");
  for (let i = 1; i <= 40; i++) {
    const person = await addUser(app.db, `Persona ${String(i).padStart(2, "0")} Quispe`, `persona${i}@mesa.test`);
    holdAsDemo.run(person.id, "compras@mesa.test");
  }
  client = await signedIn(app, me);
});

/** A full load: the HTML, its size and its page object. */
async function firstLoad(path: string) {
  const response = await client.request(path);
  expect(response.status).toBe(200);
  const html = await response.text();
  return { bytes: new TextEncoder().encode(html).length, page: embeddedPage(html) };
}

/** A page-protocol visit, or the partial reload of `only` that the deferred props make. */
async function visit(path: string, component: string, only: string[] = []) {
  const headers: Record<string, string> = only.length
    ? { "x-inertia-partial-component": component, "x-inertia-partial-data": only.join(",") }
    : {};
  const { response, page } = await client.visit(path, headers);
  expect(response.status).toBe(200);
  return { bytes: JSON.stringify(page).length, page };
}

const offersIn = (page: { data: { offers: unknown[] }[] }) => page.data.reduce((n, g) => n + g.offers.length, 0);

describe("long list pages are paged and bounded", () => {
  for (const [path, component] of [
    ["/providers", "providers/index"],
    ["/ingredients", "ingredients/index"],
  ] as const)
    test(`${path}: the first load has the offers above the fold, the whole page follows; a visit is one page`, async () => {
      const first = await firstLoad(path);
      const { offers } = first.page.props;
      expect(offers.total).toBe(896);
      expect(offers.perPage).toBe(25);
      expect(offersIn(offers)).toBe(ROWS_ON_FIRST_LOAD);
      expect(offers.cut).toBe(true);
      expect(first.page.deferredProps).toEqual({ lists: ["offersFull"] });
      expect(first.page.props).not.toHaveProperty("offersFull");
      // The page was 201 KB on the demo data with its 25 offers server-rendered.
      expect(first.bytes).toBeLessThan(130_000);

      const rest = await visit(path, component, ["offersFull"]);
      expect(Object.keys(rest.page.props)).toContain("offersFull");
      expect(rest.page.props).not.toHaveProperty("offers");
      expect(offersIn(rest.page.props.offersFull)).toBe(25);
      expect(rest.page.props.offersFull.data[0].offers[0]).toEqual(offers.data[0].offers[0]);
      expect(rest.bytes).toBeLessThan(30_000);

      // A visit (the second page here) is one whole page, in one answer.
      const second = await visit(`${path}?page=2`, component);
      expect(second.page.props.offers.page).toBe(2);
      expect(offersIn(second.page.props.offers)).toBe(25);
      expect(second.page.props.offers).not.toHaveProperty("cut");
      expect(second.page.props).not.toHaveProperty("offersFull");
      expect(second.page.deferredProps).toBeUndefined();
      expect(second.page.props.offers.data[0].offers[0]).not.toEqual(offers.data[0].offers[0]);
      expect(second.bytes).toBeLessThan(40_000);
      // Past the end: the last page, still one page.
      const last = await visit(`${path}?page=999`, component);
      expect(last.page.props.offers.page).toBe(Math.ceil(896 / 25));
      expect(offersIn(last.page.props.offers)).toBe(896 % 25);
    });

  test("/ingredients?tab=ingredients: 15 ingredients a page, the first load cut at the fold", async () => {
    const first = await firstLoad("/ingredients?tab=ingredients");
    const { ingredients } = first.page.props;
    expect(ingredients).toMatchObject({ total: 163, perPage: 15, cut: true });
    expect(ingredients.data).toHaveLength(ROWS_ON_FIRST_LOAD);
    expect(first.page.deferredProps).toEqual({ lists: ["ingredientsFull"] });
    const rest = await visit("/ingredients?tab=ingredients", "ingredients/index", ["ingredientsFull"]);
    expect(rest.page.props.ingredientsFull.data).toHaveLength(15);
    expect(rest.page.props.ingredientsFull.data.slice(0, ROWS_ON_FIRST_LOAD)).toEqual(ingredients.data);
  });

  test("/providers?tab=providers: a list shorter than the fold is sent whole, nothing deferred", async () => {
    const first = await firstLoad("/providers?tab=providers");
    expect(first.page.props.providers.total).toBe(7);
    expect(first.page.props.providers.data).toHaveLength(7);
    expect(first.page.props.providers).not.toHaveProperty("cut");
    expect(first.page.deferredProps).toBeUndefined();
  });

  test("/users: the people above the fold at first, the whole page after; the tabs and dialogs below the fold deferred", async () => {
    const first = await firstLoad("/users");
    const { props } = first.page;
    expect(props.users).toMatchObject({ perPage: 15, cut: true });
    expect(props.users.total).toBeGreaterThanOrEqual(41);
    expect(props.users.data).toHaveLength(ROWS_ON_FIRST_LOAD);
    for (const below of ["areaOptions", "areas", "roles", "permissions", "usersFull"])
      expect(props).not.toHaveProperty(below);
    expect(first.page.deferredProps).toEqual({
      below: ["areaOptions", "areas", "roles", "permissions"],
      lists: ["usersFull"],
    });
    expect(first.bytes).toBeLessThan(110_000);

    const rest = await visit("/users", "users/index", ["usersFull", "areaOptions", "areas", "roles", "permissions"]);
    expect(rest.page.props.areaOptions.length).toBeGreaterThan(0);
    expect(rest.page.props.usersFull.data).toHaveLength(15);
    expect(rest.page.props.areas.data.length).toBeGreaterThan(0);
    expect(rest.page.props.permissions.length).toBeGreaterThan(0);

    const second = await visit("/users?page=3", "users/index");
    expect(second.page.props.users.page).toBe(3);
    expect(second.page.props.users.data).toHaveLength(15);
    expect(second.page.props.areas.data.length).toBeLessThanOrEqual(15);
    expect(second.page.deferredProps).toBeUndefined();
    expect(second.bytes).toBeLessThan(60_000);
  });
});
