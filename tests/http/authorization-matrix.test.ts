/**
 * The authorization matrix: every route of the product registry, walked generically, as a guest, as a verified
 * user without any role, and as a verified user holding exactly the route's permission (in an area that reaches
 * the fixtures the route's parameters point at). A route added to the registry is covered here without editing
 * this file, as long as its parameters have a fixture below (the test says so when one is missing).
 */
import { listPaymentMethods } from "../../src/domain/cash/payment-methods";
import { listTills } from "../../src/domain/cash/tills";
import { closeShift, openShift } from "../../src/domain/cash/shifts";
import { describe, expect, test } from "bun:test";
import { bootstrapAccess } from "../../db/seeds/access";
import { sha256 } from "../../src/crypto";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { findPermission, listPermissions } from "../../src/domain/access/catalogue";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import {
  businesses as businessesTable,
  cafes as cafesTable,
  cafeServices,
  mineServices,
  units as unitsTable,
  unitServices,
} from "../../db/schema";
import { dateIn } from "../../src/shared/calendar";
import { createDiner } from "../../src/domain/sales/diners";
import { recordSale } from "../../src/domain/sales/sell";
import { eq } from "drizzle-orm";
import { cities, ingredientCategories, ingredients, levels, offers, providers } from "../../db/schema";
import { createDishCategory } from "../../src/domain/food/dish-categories";
import { createDish } from "../../src/domain/food/dishes";
import { saveRecipe } from "../../src/domain/food/recipes";
import { createDisplayLink } from "../../src/domain/menu/display-links";
import { EVERYTHING } from "../../src/domain/access/scope";
import { createUser, type User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createDealership } from "../../src/domain/organisation/dealerships";
import { createProperty } from "../../src/domain/organisation/properties";
import { createSubdealership } from "../../src/domain/organisation/subdealerships";
import { createService } from "../../src/domain/places/services";
import { declaredPermissions, routes } from "../../src/http/routes";
import {
  checkRegistry,
  routeParameters,
  routePermissions,
  type Method,
  type RouteDefinition,
} from "../../src/http/routing";
import { BASE, Client, createTestApp, type TestApp } from "../support/app";
import { makeRole, TEST_PASSWORD } from "../support/people";
import { isSignedIn, signInAs } from "../support/requests";

/** The password of the people addUser makes: the one signInAs signs in with. */
const PASSWORD = TEST_PASSWORD;
const KNOWN_KINDS = ["public", "guest", "signed-in", "permission"];
const WRITES = new Set<Method>(["POST", "PUT", "PATCH", "DELETE"]);
/** Redirects after PUT, PATCH and DELETE become 303 (page protocol); after GET and POST they stay 302. */
/** Pages that only lead elsewhere now: a GET answers with a redirect, not the page. */
const REDIRECT_ONLY = new Set(["businesses.dealerships", "businesses.subdealerships"]);
/** Writes a page calls in the background, which answer with JSON rather than a redirect. */
const JSON_WRITES = new Set(["dinners.keepalive", "sales.print"]);
/** Pages of something only its owner reads (a finished report): anyone else's, like a missing one, is 404. */
const OWNER_ONLY = new Set(["sales.report.download", "menu.requirements.download"]);

const redirectStatus = (method: Method) => (["PUT", "PATCH", "DELETE"].includes(method) ? 303 : 302);

interface Fixtures {
  businessId: number;
  propertyId: number;
  dealershipId: number;
  subdealershipId: number;
  mineId: number;
  unitId: number;
  cafeId: number;
  headquartersId: number;
  areaId: number;
  roleId: number;
  user: User;
  entryId: number;
  permissionId: number;
  serviceId: number;
  dinerId: number;
  saleId: number;
  cityId: number;
  categoryId: number;
  ingredientId: number;
  providerId: number;
  offerId: number;
  dishId: number;
  levelId: number;
  linkId: number;
  tillId: number;
  methodId: number;
  shiftId: number;
}

/** The value each route parameter takes, by parameter name. A new parameter name needs a line here. */
const PARAMETER_FIXTURES: Record<string, (f: Fixtures) => string | number> = {
  user: (f) => f.user.id,
  area: (f) => f.areaId,
  role: (f) => f.roleId,
  permission: (f) => f.permissionId,
  entry: (f) => f.entryId,
  service: (f) => f.serviceId,
  // The point of sale: a diner of the fixtures' cafe, and a sale made there.
  diner: (f) => f.dinerId,
  sale: (f) => f.saleId,
  // Food and logistics: a city, an ingredient category, an ingredient, a provider and its offer.
  city: (f) => f.cityId,
  category: (f) => f.categoryId,
  ingredient: (f) => f.ingredientId,
  provider: (f) => f.providerId,
  offer: (f) => f.offerId,
  // Dishes and recipes: a dish of the fixtures and a diner level (the recipe's).
  dish: (f) => f.dishId,
  level: (f) => f.levelId,
  // Menu planning: a display link of the fixtures' cafe, and a day of its meal schedule.
  link: (f) => f.linkId,
  // Tills and payment methods: the fixtures' cafe's till, and the cash method.
  till: (f) => f.tillId,
  method: (f) => f.methodId,
  shift: (f) => f.shiftId,
  date: () => "2026-12-07",
  // /places/{kind}/{place}/services and /cafes/{cafe}/prices: the fixtures' cafe.
  kind: () => "cafe",
  place: (f) => f.cafeId,
  cafe: (f) => f.cafeId,
  dealership: (f) => f.dealershipId,
  subdealership: (f) => f.subdealershipId,
  // Businesses area: the fixtures' business and headquarters, and a property kept at the fixtures' cafe.
  business: (f) => f.businessId,
  headquarters: (f) => f.headquartersId,
  property: (f) => f.propertyId,
  mine: (f) => f.mineId,
  unit: (f) => f.unitId,
  // /management/export/{table}
  table: () => "cafes",
  // /jobs/{job}: a job id; someone else's job, like a missing one, answers 404 (tests/http/jobs.test.ts).
  job: () => 1,
  // /reset-password/{token}: any token (the page only shows the form).
  token: () => "fixture-token-0123456789",
  // /email/verify/{id}/{hash}: a user id and a SHA-256 in hex (no valid signature, so nothing is verified).
  id: (f) => f.user.id,
  hash: (f) => sha256(f.user.email),
};

/** Lookups that answer only about something named in their query: the query they are asked with. */
const QUERY_FIXTURES: Record<string, (f: Fixtures) => string> = {
  "food.price_changes.history": (f) => `dish=${f.dishId}&level=${f.levelId}&city=${f.cityId}`,
};

let userCounter = 0;
function addUser(
  app: TestApp,
  options: { name?: string; email?: string; documentNumber?: string; verified?: boolean } = {},
): Promise<User> {
  userCounter++;
  return createUser(
    app.db,
    app.config,
    {
      name: options.name ?? `Persona ${userCounter}`,
      email: options.email ?? `persona${userCounter}@mesa.test`,
      password: PASSWORD,
      ...(options.documentNumber ? { document_number: options.documentNumber } : {}),
    },
    { verified: options.verified ?? true },
  );
}

/** A cafe under a headquarters' business, an area there offering a role, a user holding it, a blacklist entry. */
async function buildFixtures(app: TestApp): Promise<Fixtures> {
  const db = app.db;
  bootstrapAccess(db);
  const { businessId, headquartersId } = ensureHeadquarters(db, "Fixture Catering S.A.C.", "Sede Fixture");
  const cafeId = ensureCafe(db, "Mina Fixture", "Unidad Fixture", "Comedor Fixture", businessId);
  const roleId = makeRole(db, "fixture role", []);
  const areaId = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Caja Fixture",
    cafe_id: cafeId,
    role_ids: [roleId],
  }).id;
  const user = await addUser(app, { name: "Fixture Person", email: "fixture@mesa.test", documentNumber: "40000001" });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
  const entryId = addToBlacklist(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { document_number: "90000001", name: "Barred Person", reason: "Fixture entry" },
    app.config,
  ).id;
  const permissionId = findPermission(db, "users.view")!.id;
  const serviceId = createService(db, CLI_ACTOR, { code: "FIX", name: "Fixture service", type: "lunch" }).id;
  const { unitId, mineId } = db
    .select({ unitId: unitsTable.id, mineId: unitsTable.mineId })
    .from(cafesTable)
    .innerJoin(unitsTable, eq(unitsTable.id, cafesTable.unitId))
    .where(eq(cafesTable.id, cafeId))
    .get()!;
  const propertyId = createProperty(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { code: "FIX-1", name: "Fixture property", category: "Fixture", location: `cafe:${cafeId}`, status: "in_use" },
    app.config.timezone,
  ).id;
  const dealershipId = createDealership(
    db,
    CLI_ACTOR,
    { name: "Fixture Minera S.A.", ruc: "20100934729" },
    { rucLength: 11 },
  ).id;
  const subdealershipId = createSubdealership(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { name: "Fixture Contratista S.A.C.", ruc: "20551673911", dealership_id: dealershipId, unit_ids: [unitId] },
    { rucLength: 11 },
  ).id;
  // The cafe sells the fixture service at S/ 10: a diner of the cafe, and one sale to them.
  const now = new Date();
  db.update(businessesTable).set({ ruc: "20100070970" }).where(eq(businessesTable.id, businessId)).run();
  db.insert(mineServices).values({ mineId, serviceId }).run();
  db.insert(unitServices).values({ unitId, serviceId }).run();
  db.insert(cafeServices).values({ cafeId, serviceId, priceCents: 1000, updatedAt: now }).run();
  const dinerId = createDiner(
    db,
    CLI_ACTOR,
    EVERYTHING,
    { name: "Fixture Diner", document_number: "41000001", subdealership_id: subdealershipId, cafe_id: cafeId },
    app.config,
  ).id;
  const saleId = recordSale(
    db,
    CLI_ACTOR,
    EVERYTHING,
    {
      key: "fixture-sale-0001",
      cafe_id: cafeId,
      document_number: "41000001",
      service_date: dateIn("America/Lima"),
      sale_type: "credit",
      lines: [{ service_id: serviceId, quantity: 1 }],
    },
    app.config,
    { backdate: false },
  ).sale.id;
  const cityId = db.insert(cities).values({ name: "Ciudad Fixture" }).returning().get().id;
  const categoryId = db.insert(ingredientCategories).values({ name: "Categoría Fixture" }).returning().get().id;
  const ingredientId = db
    .insert(ingredients)
    .values({
      categoryId,
      name: "Ingrediente Fixture",
      baseUnit: "g",
      kcalPer100g: 100,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get().id;
  const providerId = db
    .insert(providers)
    .values({ name: "Proveedor Fixture", ruc: "20100070971", createdAt: now, updatedAt: now })
    .returning()
    .get().id;
  const offerId = db
    .insert(offers)
    .values({
      providerId,
      ingredientId,
      cityId,
      presentation: "Saco 50 kg",
      quantity: 50_000,
      priceCents: 10_000,
      priceIncludesIgv: true,
      priceChangedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get().id;
  const dishCategoryId = createDishCategory(db, CLI_ACTOR, { name: "Segundo Fixture", unit: "g" }).id;
  const dishId = createDish(db, CLI_ACTOR, { name: "Plato Fixture", category_ids: [dishCategoryId] }).id;
  const levelId = db.select({ id: levels.id }).from(levels).orderBy(levels.sortOrder).get()!.id;
  saveRecipe(db, CLI_ACTOR, dishId, levelId, {
    yield_grams: null,
    lines: [{ ingredient_id: ingredientId, quantity: 100 }],
  });
  const linkId = createDisplayLink(db, CLI_ACTOR, EVERYTHING, cafeId, { label: "Pantalla Fixture" }).link.id;
  // The fixtures' cafe's till (every cafe has "Caja 1") and the cash payment method.
  const tillId = listTills(db, EVERYTHING, cafeId)[0].id;
  const methodId = listPaymentMethods(db).find((m) => m.code === "cash")!.id;
  // A shift of the fixtures' user at that till, closed (so it holds neither the till nor its cashier).
  const shiftId = openShift(db, { userId: user.id, label: user.email }, EVERYTHING, {
    till_id: tillId,
    opening_float_cents: 0,
  }).id;
  closeShift(db, { userId: user.id, label: user.email }, EVERYTHING, shiftId, { pieces: {} }, { closeAny: true });
  return {
    tillId,
    methodId,
    shiftId,
    dishId,
    levelId,
    linkId,
    cityId,
    categoryId,
    ingredientId,
    providerId,
    offerId,
    businessId,
    propertyId,
    dealershipId,
    subdealershipId,
    mineId,
    unitId,
    cafeId,
    headquartersId,
    areaId,
    roleId,
    user,
    entryId,
    permissionId,
    serviceId,
    dinerId,
    saleId,
  };
}

/** The route's path with every parameter filled from the fixtures, checked against the route's formats. */
function pathOf(route: RouteDefinition, f: Fixtures): string {
  const path = route.uri.replace(/\{(\w+)(\?)?\}/g, (_, name: string) => {
    const fixture = PARAMETER_FIXTURES[name];
    if (!fixture)
      throw new Error(`route "${route.name}": no fixture for parameter "${name}" (add one to PARAMETER_FIXTURES)`);
    const value = String(fixture(f));
    const format = route.wheres?.[name];
    if (format && !new RegExp(`^(?:${format})$`).test(value))
      throw new Error(`route "${route.name}": fixture "${value}" does not match the format of "${name}"`);
    return encodeURIComponent(value);
  });
  const query = QUERY_FIXTURES[route.name];
  return (path.replace(/\/+$/, "") || "/") + (query ? `?${query(f)}` : "");
}

interface Endpoint {
  route: RouteDefinition;
  method: Method;
  label: string;
}

const endpoints: Endpoint[] = routes.flatMap((route) =>
  route.methods.map((method) => ({ route, method, label: `${method} ${route.uri} (${route.name})` })),
);
const permissionEndpoints = endpoints.filter((e) => e.route.access.kind === "permission");

/** A browser loading the page (no Accept: application/json, no page-protocol header). */
function asPage(client: Client, e: Endpoint, path: string): Promise<Response> {
  return client.request(path, {
    method: e.method,
    ...(WRITES.has(e.method) ? { json: {} } : {}),
    headers: { referer: `${BASE}/dashboard` },
  });
}

/** An API client asking for JSON. */
function asJson(client: Client, e: Endpoint, path: string): Promise<Response> {
  return client.request(path, {
    method: e.method,
    ...(WRITES.has(e.method) ? { json: {} } : {}),
    headers: { accept: "application/json", referer: `${BASE}/dashboard` },
  });
}

/** The page client (X-Inertia), as the screens send their forms. */
function asPageClient(client: Client, e: Endpoint, path: string): Promise<Response> {
  return client.request(path, {
    method: e.method,
    inertia: true,
    ...(WRITES.has(e.method) ? { json: {} } : {}),
    headers: { referer: `${BASE}/dashboard` },
  });
}

/** Describes a failing expectation with the endpoint, so one broken route is easy to find among many. */
function outcome(e: Endpoint, mode: string, response: Response) {
  return { endpoint: e.label, mode, status: response.status, location: response.headers.get("location") };
}

describe("the route registry", () => {
  test("every route declares access of a known kind, and permission routes name a permission", () => {
    expect(routes.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const route of routes) {
      if (!route.access || !KNOWN_KINDS.includes(route.access.kind))
        problems.push(`${route.name}: access ${JSON.stringify(route.access)}`);
      else if (
        route.access.kind === "permission" &&
        !/^[a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*$/.test(route.access.permission)
      )
        problems.push(`${route.name}: permission "${route.access.permission}"`);
    }
    expect(problems).toEqual([]);
    expect(checkRegistry(routes)).toEqual([]);
  });

  test("every declared permission exists in the catalogue after bootstrapAccess, and the catalogue holds nothing else", () => {
    const app = createTestApp();
    bootstrapAccess(app.db);
    const catalogue = listPermissions(app.db)
      .map((p) => p.name)
      .sort();
    expect(declaredPermissions.length).toBeGreaterThan(0);
    expect(catalogue).toEqual([...declaredPermissions].sort());
    const fromRoutes = [...new Set(permissionEndpoints.flatMap((e) => routePermissions(e.route)))].sort();
    expect(declaredPermissions).toEqual(fromRoutes);
    // Running it again changes nothing.
    bootstrapAccess(app.db);
    expect(
      listPermissions(app.db)
        .map((p) => p.name)
        .sort(),
    ).toEqual(catalogue);
  });

  test("checkRegistry refuses a route that does not declare its access", () => {
    const withoutAccess = {
      name: "test.no-access",
      methods: ["GET"],
      uri: "/test/no-access",
      handle: () => new Response("x"),
    } as any;
    const problems = checkRegistry([...routes, withoutAccess]);
    expect(problems).toContain('route "test.no-access" does not declare its access');
    expect(checkRegistry([{ ...withoutAccess, access: null } as any])).toEqual([
      'route "test.no-access" does not declare its access',
    ]);
  });

  test("every route parameter has a fixture that matches its format", async () => {
    const app = createTestApp();
    const fixtures = await buildFixtures(app);
    for (const route of routes) {
      for (const p of routeParameters(route.uri))
        expect({ route: route.name, parameter: p.name, fixture: p.name in PARAMETER_FIXTURES }).toEqual({
          route: route.name,
          parameter: p.name,
          fixture: true,
        });
      expect(() => pathOf(route, fixtures)).not.toThrow();
    }
  });
});

describe("as a guest", () => {
  test("non-public pages redirect to /login, JSON clients get 401, public and guest routes answer", async () => {
    const app = createTestApp();
    const fixtures = await buildFixtures(app);
    const client = new Client(app);
    await client.visit("/login"); // the XSRF cookie, so writes are judged on access rather than refused as 419
    const failures: unknown[] = [];
    for (const e of endpoints) {
      const path = pathOf(e.route, fixtures);
      const page = await asPage(client, e, path);
      const json = await asJson(client, e, path);
      const { kind } = e.route.access;
      if (kind === "signed-in" || kind === "permission") {
        if (page.status !== redirectStatus(e.method) || page.headers.get("location") !== "/login")
          failures.push(outcome(e, "page", page));
        if (json.status !== 401) failures.push(outcome(e, "json", json));
        else if (!(await json.json()).message) failures.push({ ...outcome(e, "json", json), problem: "no message" });
      } else {
        for (const [mode, r] of [
          ["page", page],
          ["json", json],
        ] as const) {
          if ([401, 403, 419].includes(r.status) || r.status >= 500) failures.push(outcome(e, mode, r));
          if (r.headers.get("location") === "/login")
            failures.push({ ...outcome(e, mode, r), problem: "sent to sign in" });
        }
      }
    }
    expect(failures).toEqual([]);
    // Still a guest, and nothing was written by the sweep.
    expect(await isSignedIn(client)).toBe(false);
  });
});

describe("as a verified user without any role", () => {
  test("every permission route answers 403 to pages and to JSON clients; signed-in routes answer", async () => {
    const app = createTestApp();
    const fixtures = await buildFixtures(app);
    const nobody = await addUser(app, { name: "Sin Rol", email: "sinrol@mesa.test" });
    const client = new Client(app);
    await signInAs(client, nobody);
    const failures: unknown[] = [];
    for (const e of permissionEndpoints) {
      const path = pathOf(e.route, fixtures);
      const page = await asPage(client, e, path);
      if (page.status !== 403) failures.push(outcome(e, "page", page));
      const visit = await asPageClient(client, e, path);
      if (visit.status !== 403) failures.push(outcome(e, "page client", visit));
      const json = await asJson(client, e, path);
      if (json.status !== 403) failures.push(outcome(e, "json", json));
    }
    expect(failures).toEqual([]);
    expect(permissionEndpoints.length).toBeGreaterThan(0);

    // Signed-in routes need no permission: none answers 401/403/419 (sign-out and account deletion may end the
    // session; the user signs in again before the next route).
    for (const e of endpoints.filter((x) => x.route.access.kind === "signed-in")) {
      if (!(await isSignedIn(client))) await signInAs(client, nobody);
      const response = await asPageClient(client, e, pathOf(e.route, fixtures));
      if ([401, 403, 419].includes(response.status) || response.status >= 500)
        failures.push(outcome(e, "page client", response));
    }
    expect(failures).toEqual([]);
  });
});

describe("as a verified user holding exactly the route's permission", () => {
  for (const e of permissionEndpoints) {
    const permission = (e.route.access as { permission: string }).permission;
    test(`${e.label} with only ${permission}`, async () => {
      const app = createTestApp();
      const fixtures = await buildFixtures(app);
      const role = { id: makeRole(app.db, "holder", [permission]) };
      // A second area of the fixtures' cafe, offering only the holder's role: it reaches the fixtures.
      const area = createArea(app.db, CLI_ACTOR, EVERYTHING, {
        name: "Holder Area",
        headquarters_id: fixtures.headquartersId,
        role_ids: [role.id],
      });
      const holder = await addUser(app, { name: "Titular Permiso", email: "holder@mesa.test" });
      assignRole(app.db, CLI_ACTOR, EVERYTHING, { userId: holder.id, areaId: area.id, roleId: role.id });
      const client = new Client(app);
      await signInAs(client, holder); // signing in counts as a recent password confirmation

      const response = await asPageClient(client, e, pathOf(e.route, fixtures));
      expect({
        ...outcome(e, "page client", response),
        refused: [401, 403, 419].includes(response.status),
      }).toMatchObject({ refused: false });
      // The Businesses area's old dealership tables lead to the one dealership page, keeping the search.
      if (OWNER_ONLY.has(e.route.name)) expect(outcome(e, "page client", response)).toMatchObject({ status: 404 });
      else if (e.method === "GET" && REDIRECT_ONLY.has(e.route.name))
        expect(outcome(e, "page client", response)).toMatchObject({ status: 302, location: "/dealerships" });
      else if (e.method === "GET" || JSON_WRITES.has(e.route.name))
        expect(outcome(e, "page client", response)).toMatchObject({ status: 200 });
      // A write answers with a redirect (back, with validation errors when the empty form was refused).
      else
        expect(outcome(e, "page client", response)).toMatchObject({
          status: redirectStatus(e.method),
          location: "/dashboard",
        });
      expect(await isSignedIn(client)).toBe(true);
    });
  }
});
