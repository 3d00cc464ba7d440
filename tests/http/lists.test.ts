/**
 * Every list searches and pages the same way: a search ignores case and accents ("huaman" finds "Huamán" and
 * "HUAMAN"), takes % and _ literally ("100%" does not find "1000", "a_b" does not find "axb"), and a page past the
 * end shows the last page, saying so.
 *
 * The world: for each token below, a user, an area (at Comedor Central), a blacklist entry, a dealership and a
 * mine → unit → cafe named with it; Concesionaria Central has a subdealership "Contratista Huamán". Enough users
 * and dealerships to fill more than one page. A super-administrator looks at every list.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { dealerships, subdealerships } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { BASE, Client, createTestApp } from "../support/app";
import { addUser, TEST_PASSWORD } from "../support/people";

const TOKENS = ["Huamán", "HUAMAN", "100%", "1000", "a_b", "axb"] as const;
type Token = (typeof TOKENS)[number];

/** What each search must find, by token: accents and case ignored, % and _ literal. */
const SEARCHES: [string, Token[]][] = [
  ["huaman", ["Huamán", "HUAMAN"]],
  ["HUAMÁN", ["Huamán", "HUAMAN"]],
  ["huamán", ["Huamán", "HUAMAN"]],
  ["100%", ["100%"]],
  ["%", ["100%"]],
  ["a_b", ["a_b"]],
  ["_", ["a_b"]],
];

let client: Client;

beforeAll(async () => {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const hq = ensureHeadquarters(db, "Mesa S.A.C.", "Sede Lima");
  const central = ensureCafe(db, "Mina Central", "Unidad Central", "Comedor Central", hq.businessId);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const administracion = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: hq.headquartersId,
    role_ids: [superRole],
  }).id;
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: administracion, roleId: superRole });

  const now = new Date();
  TOKENS.forEach((token, i) => {
    ensureCafe(db, `Mina ${token}`, `Unidad ${token}`, `Comedor ${token}`, hq.businessId);
    createArea(db, CLI_ACTOR, EVERYTHING, { name: `Turno ${token}`, cafe_id: central });
    addToBlacklist(
      db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: String(50000001 + i), name: `Persona ${token}`, reason: "Motivo de prueba" },
      app.config,
    );
    db.insert(dealerships)
      .values({ name: `Concesionaria ${token}`, ruc: `R-${i + 1}`, createdAt: now, updatedAt: now })
      .run();
  });
  for (const [i, token] of TOKENS.entries()) await addUser(db, `Persona ${token}`, `persona${i + 1}@mesa.test`);
  for (let i = 1; i <= 16; i++) await addUser(db, `Relleno ${String(i).padStart(2, "0")}`, `relleno${i}@mesa.test`);
  const centralDealership = db
    .insert(dealerships)
    .values({ name: "Concesionaria Central", ruc: "R-90", createdAt: now, updatedAt: now })
    .returning()
    .get();
  db.insert(subdealerships)
    .values({
      dealershipId: centralDealership.id,
      name: "Contratista Huamán",
      ruc: "R-91",
      createdAt: now,
      updatedAt: now,
    })
    .run();
  for (let i = 1; i <= 11; i++)
    db.insert(dealerships)
      .values({ name: `Relleno ${String(i).padStart(2, "0")}`, ruc: `R-${100 + i}`, createdAt: now, updatedAt: now })
      .run();

  client = new Client(app);
  await client.visit("/login");
  const response = await client.request("/login", {
    method: "POST",
    inertia: true,
    json: { email: root.email, password: TEST_PASSWORD },
    headers: { referer: `${BASE}/login` },
  });
  expect(response.headers.get("location")).toBe("/dashboard");
});

async function props(path: string): Promise<Record<string, any>> {
  const { response, page } = await client.visit(path);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return page.props;
}

/** The names a list shows for `search`, sorted. */
async function namesFound(
  path: string,
  param: string,
  prop: string,
  search: string,
  name: (row: any) => string,
): Promise<string[]> {
  const separator = path.includes("?") ? "&" : "?";
  const list = (await props(`${path}${separator}${param}=${encodeURIComponent(search)}`))[prop];
  expect(list.total).toBe(list.data.length);
  return list.data.map(name).sort();
}

/** Checks every search of SEARCHES on one list, whose rows are named `${prefix} ${token}`. */
async function expectSearches(
  path: string,
  param: string,
  prop: string,
  prefix: string,
  name: (row: any) => string = (row) => row.name,
) {
  for (const [search, tokens] of SEARCHES) {
    const wanted = tokens.map((token) => `${prefix} ${token}`).sort();
    expect({ path, search, found: await namesFound(path, param, prop, search, name) }).toEqual({
      path,
      search,
      found: wanted,
    });
  }
}

describe("a search ignores case and accents and takes % and _ literally", () => {
  test("the users list", async () => {
    await expectSearches("/users", "search", "users", "Persona");
  });

  test("the areas list", async () => {
    await expectSearches("/users", "areas_search", "areas", "Turno");
  });

  test("the blacklist", async () => {
    await expectSearches("/blacklist", "search", "entries", "Persona");
  });

  test("the management tables: mines, units and cafes", async () => {
    await expectSearches("/management?tab=mines", "search", "mines", "Mina");
    await expectSearches("/management?tab=units", "search", "units", "Unidad");
    await expectSearches("/management?tab=cafes", "search", "cafes", "Comedor");
  });

  test("the dealerships tree, through a dealership's or a subdealership's name", async () => {
    for (const [search, tokens] of SEARCHES.filter(([search]) => !search.toLowerCase().startsWith("huam"))) {
      const wanted = tokens.map((token) => `Concesionaria ${token}`);
      expect({ search, found: await namesFound("/dealerships", "search", "tree", search, (row) => row.name) }).toEqual({
        search,
        found: wanted,
      });
    }
    for (const search of ["huaman", "HUAMÁN", "huamán"]) {
      const tree = (await props(`/dealerships?search=${encodeURIComponent(search)}`)).tree;
      const found = tree.data.map((row: any) => ({
        name: row.name,
        expanded: row.expanded,
        matched: row.subdealerships.filter((s: any) => s.matched).map((s: any) => s.name),
      }));
      expect(found.sort((a: any, b: any) => a.name.localeCompare(b.name))).toEqual([
        { name: "Concesionaria Central", expanded: true, matched: ["Contratista Huamán"] },
        { name: "Concesionaria HUAMAN", expanded: false, matched: [] },
        { name: "Concesionaria Huamán", expanded: false, matched: [] },
      ]);
    }
  });
});

describe("a page past the end shows the last page", () => {
  test("page=99 of a list with more than one page is its last page, with the last page's rows", async () => {
    for (const [path, param, prop] of [
      ["/users", "page", "users"],
      ["/dealerships", "page", "tree"],
    ] as const) {
      const last = (await props(`${path}?${param}=2`))[prop];
      expect(last.lastPage).toBe(2);
      const past = (await props(`${path}?${param}=99`))[prop];
      expect({ path, page: past.page, lastPage: past.lastPage, total: past.total }).toEqual({
        path,
        page: 2,
        lastPage: 2,
        total: last.total,
      });
      expect(past.data).toEqual(last.data);
      expect(past.data.length).toBeGreaterThan(0);
    }
  });

  test("on every list, page=99 says the page it shows, never a page past the last", async () => {
    const lists: [string, string, string][] = [
      ["/users", "page", "users"],
      ["/users", "areas_page", "areas"],
      ["/users", "roles_page", "roles"],
      ["/blacklist", "page", "entries"],
      ["/audit", "page", "entries"],
      ["/dealerships", "page", "tree"],
      ["/businesses", "page", "businesses"],
      ["/businesses/headquarters", "page", "headquarters"],
      ["/businesses/properties", "page", "properties"],
      ["/services", "page", "services"],
      ["/management?tab=mines", "page", "mines"],
      ["/management?tab=units", "page", "units"],
      ["/management?tab=cafes", "page", "cafes"],
    ];
    for (const [path, param, prop] of lists) {
      const separator = path.includes("?") ? "&" : "?";
      const past = (await props(`${path}${separator}${param}=99`))[prop];
      expect({ path, prop, page: past.page }).toEqual({ path, prop, page: past.lastPage });
      expect({ path, prop, shown: past.data.length > 0 }).toEqual({ path, prop, shown: past.total > 0 });
    }
  });
});
