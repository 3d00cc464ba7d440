/**
 * Menu structures through the app: who may see and change them (menu.view, menu.manage), the scope rule (a manager
 * of cafe A neither reads nor writes cafe B's structures or settings), validation (shares, bounds, categories),
 * the food cost against the price without IGV worked by hand, copying to other cafes, the cafe's menu settings and
 * the audit rows.
 *
 * The world: business X with Comedor A (Mina Norte › Unidad A) and Comedor B (Mina Sur › Unidad B); both offer
 * Almuerzo (ALM) and Desayuno (DES), and the disposables service BOL, which has no menu. Comedor A sells Almuerzo
 * at S/ 15.00 and Desayuno at S/ 8.00; Comedor B sells Almuerzo at S/ 12.00.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import {
  auditLog,
  auditPlaces,
  cafes,
  dishCategories,
  dishCategoryLinks,
  dishes,
  levels,
  menuDays,
  menuStructures,
  publishedMenuSlots,
} from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { netOfIgv, structureTotals } from "../../src/shared/menu/structure-totals";
import { structuresOfCafe } from "../../src/domain/menu/structures";
import { setCafePrices } from "../../src/domain/places/prices";
import { offerService } from "../../src/domain/places/service-assignments";
import { createService } from "../../src/domain/places/services";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { Client, createTestApp, type TestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submitFrom, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

interface World {
  app: TestApp;
  db: Db;
  cafeA: number;
  cafeB: number;
  svc: { ALM: number; DES: number; BOL: number };
  cat: { entrada: number; sopa: number; segundo: number; refresco: number };
  lvl: { master: number; staff: number };
  people: { root: User; planner: User; viewer: User; cashier: User };
}

async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", x.businessId);
  const svc = {
    ALM: createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id,
    DES: createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id,
    BOL: createService(db, CLI_ACTOR, { code: "BOL", name: "Bolsas", type: "disposables" }).id,
  };
  for (const cafeId of [cafeA, cafeB]) {
    const cafe = db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!;
    const { units } = await import("../../db/schema");
    const mineId = db.select().from(units).where(eq(units.id, cafe.unitId)).get()!.mineId;
    for (const s of Object.values(svc)) {
      offerService(db, "mine", mineId, s);
      offerService(db, "unit", cafe.unitId, s);
      offerService(db, "cafe", cafeId, s);
    }
  }
  setCafePrices(db, CLI_ACTOR, EVERYTHING, cafeA, {
    prices: [
      { service_id: svc.ALM, price: "15.00" },
      { service_id: svc.DES, price: "8.00" },
    ],
  });
  setCafePrices(db, CLI_ACTOR, EVERYTHING, cafeB, { prices: [{ service_id: svc.ALM, price: "12.00" }] });
  const category = (name: string, unit: "g" | "ml", sortOrder: number) =>
    db.insert(dishCategories).values({ name, unit, sortOrder }).returning().get().id;
  const cat = {
    entrada: category("Entrada", "g", 1),
    sopa: category("Sopa", "ml", 2),
    segundo: category("Segundo", "g", 3),
    refresco: category("Refresco", "ml", 4),
  };
  // The diner levels come with the database (Master, Staff, Employee, Laborer).
  const levelId = (name: string) => db.select().from(levels).where(eq(levels.name, name)).get()!.id;
  const lvl = { master: levelId("Master"), staff: levelId("Staff") };
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const planner = makeRole(db, "planner", ["menu.view", "menu.manage"]);
  const viewer = makeRole(db, "menu viewer", ["menu.view"]);
  const cashier = makeRole(db, "till", ["sales.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: x.headquartersId,
    role_ids: [superRole],
  }).id;
  const areaA = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Cocina A",
    cafe_id: cafeA,
    role_ids: [planner, viewer, cashier],
  }).id;
  const people = {
    root: await addUser(db, "Raíz Super", "root@mesa.test"),
    planner: await addUser(db, "Nora Planifica", "planner@mesa.test"),
    viewer: await addUser(db, "Vera Vista", "viewer@mesa.test"),
    cashier: await addUser(db, "Caja Sola", "cashier@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.root.id, areaId: sede, roleId: superRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.planner.id, areaId: areaA, roleId: planner });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.viewer.id, areaId: areaA, roleId: viewer });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.cashier.id, areaId: areaA, roleId: cashier });
  return { app, db, cafeA, cafeB, svc, cat, lvl, people };
}

const submit = submitFrom("/menu/structures");

/** A lunch plate of S/ 15.00: entrada 150 g, sopa 250 ml, segundo 350 g. */
function lunch(w: World) {
  return {
    items: [
      { category_id: w.cat.entrada, serving_amount: 150, share_percent: 20, min_cost: "0.80", max_cost: "1.50" },
      { category_id: w.cat.sopa, serving_amount: 250, share_percent: 30, min_cost: "1.00", max_cost: "2.00" },
      { category_id: w.cat.segundo, serving_amount: 350, share_percent: 50, min_cost: "3.50", max_cost: "6.00" },
    ],
  };
}

describe("the food cost against the price, worked by hand", () => {
  test("S/ 15.00 with 18 % IGV is S/ 12.71 net; bounds of S/ 5.30 and S/ 9.50 are 41.7 % and 74.7 % of it", () => {
    // 1500 ÷ 1.18 = 1271.19 → 1271 cents.
    expect(netOfIgv(1500, 1800)).toBe(1271);
    const totals = structureTotals(
      [
        { sharePercent: 20, minCostCents: 80, maxCostCents: 150 },
        { sharePercent: 30, minCostCents: 100, maxCostCents: 200 },
        { sharePercent: 50, minCostCents: 350, maxCostCents: 600 },
      ],
      1500,
      1800,
    );
    // 530 ÷ 1271 = 41.70 %; 950 ÷ 1271 = 74.74 %.
    expect(totals).toEqual({
      minCostCents: 530,
      maxCostCents: 950,
      sharePercent: 100,
      priceCents: 1500,
      netPriceCents: 1271,
      minPercent: 41.7,
      maxPercent: 74.7,
      excessCents: 0,
    });
  });

  test("upper bounds over the net price say by how much; without a price there is nothing to compare with", () => {
    // S/ 8.00 ÷ 1.18 = S/ 6.78 (677.97 → 678); upper bounds of S/ 7.00 exceed it by S/ 0.22.
    const over = structureTotals([{ sharePercent: 60, minCostCents: 300, maxCostCents: 700 }], 800, 1800);
    expect(over).toMatchObject({ netPriceCents: 678, excessCents: 22, maxPercent: 103.2 });
    const unpriced = structureTotals([{ sharePercent: 60, minCostCents: 300, maxCostCents: 700 }], null, 1800);
    expect(unpriced).toMatchObject({ netPriceCents: null, excessCents: null, minPercent: null, maxPercent: null });
    // Another IGV rate: 10 % → S/ 15.00 is S/ 13.64 net.
    expect(structureTotals([], 1500, 1000).netPriceCents).toBe(1364);
  });
});

describe("permissions", () => {
  test("menu.view opens the page read-only; menu.manage is needed to write; neither: 403", async () => {
    const w = await buildWorld();
    const viewer = await signedIn(w, w.people.viewer);
    const page = await visitPage(viewer, `/menu/structures?cafe=${w.cafeA}`);
    expect(page.component).toBe("menu/structures");
    expect(page.props.can).toEqual({ manage: false });
    expect(page.props.cafe).toMatchObject({ id: w.cafeA, path: "Mina Norte › Unidad A › Comedor A" });
    // Meal services only, by code: the disposables service has no menu.
    expect(page.props.structures.map((s: { service: { code: string } }) => s.service.code)).toEqual(["ALM", "DES"]);
    expect(page.props.tabs.map((t: { id: string }) => t.id)).toContain("structures");
    const put = await submitJson(viewer, "PUT", `/menu/structures/${w.cafeA}/${w.svc.ALM}`, lunch(w));
    expect(put.status).toBe(403);
    expect((await submitJson(viewer, "PUT", `/menu/settings/${w.cafeA}`, {})).status).toBe(403);

    const cashier = await signedIn(w, w.people.cashier);
    expect((await cashier.visit("/menu/structures")).response.status).toBe(403);
    const guest = new Client(w.app);
    const anonymous = await guest.get("/menu/structures");
    expect({ status: anonymous.status, location: anonymous.headers.get("location") }).toEqual({
      status: 302,
      location: "/login",
    });
  });

  test("the sidebar shows Menú to holders of menu.view and to nobody else", async () => {
    const w = await buildWorld();
    const entries = async (who: User) =>
      ((await visitPage(await signedIn(w, who), "/dashboard")).props.navigation as { route: string }[]).map(
        (e) => e.route,
      );
    expect(await entries(w.people.viewer)).toContain("menu.structures");
    expect(await entries(w.people.cashier)).not.toContain("menu.structures");
  });
});

describe("scope", () => {
  test("a planner of cafe A neither reads nor writes cafe B's structures or settings: 404, nothing changes", async () => {
    const w = await buildWorld();
    const root = await signedIn(w, w.people.root);
    expect((await submitJson(root, "PUT", `/menu/structures/${w.cafeB}/${w.svc.ALM}`, lunch(w))).status).toBe(200);
    const before = structuresOfCafe(w.db, w.cafeB);

    const planner = await signedIn(w, w.people.planner);
    // Asking for cafe B shows cafe A, the only one in the planner's scope.
    const page = await visitPage(planner, `/menu/structures?cafe=${w.cafeB}`);
    expect(page.props.cafe.id).toBe(w.cafeA);
    expect(page.props.cafes.map((c: { id: number }) => c.id)).toEqual([w.cafeA]);
    const writes: [string, string, unknown][] = [
      ["PUT", `/menu/structures/${w.cafeB}/${w.svc.ALM}`, lunch(w)],
      ["DELETE", `/menu/structures/${w.cafeB}/${w.svc.ALM}`, {}],
      ["POST", `/menu/structures/${w.cafeB}/${w.svc.ALM}/copy`, { cafe_ids: [w.cafeA] }],
      ["PUT", `/menu/settings/${w.cafeB}`, { default_level_id: w.lvl.staff, board_language: "en" }],
    ];
    for (const [method, path, body] of writes)
      expect({ path, status: (await submitJson(planner, method, path, body)).status }).toEqual({ path, status: 404 });
    // Copying A's structure into B is refused too, and nothing is written anywhere.
    expect((await submitJson(planner, "PUT", `/menu/structures/${w.cafeA}/${w.svc.ALM}`, lunch(w))).status).toBe(200);
    const copy = await submitJson(planner, "POST", `/menu/structures/${w.cafeA}/${w.svc.ALM}/copy`, {
      cafe_ids: [w.cafeB],
    });
    expect(copy.status).toBe(404);
    expect(structuresOfCafe(w.db, w.cafeB)).toEqual(before);
    const settingsB = w.db.select().from(cafes).where(eq(cafes.id, w.cafeB)).get()!;
    expect({ level: settingsB.defaultLevelId, language: settingsB.boardLanguage }).toEqual({
      level: null,
      language: "es",
    });
  });
});

describe("saving a structure", () => {
  test("the items are kept in order and read back with their totals against the price; the save is audited as cafe A's", async () => {
    const w = await buildWorld();
    const planner = await signedIn(w, w.people.planner);
    const response = await submit(planner, "PUT", `/menu/structures/${w.cafeA}/${w.svc.ALM}`, lunch(w));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/menu/structures?cafe=${w.cafeA}&service=${w.svc.ALM}`);
    const page = await visitPage(planner, `/menu/structures?cafe=${w.cafeA}&service=${w.svc.ALM}`);
    expect(page.flash.success).toBe(es("menu.structures.saved", { service: "Almuerzo" }));
    const lunchStructure = page.props.structures.find((s: { service: { id: number } }) => s.service.id === w.svc.ALM);
    expect(
      lunchStructure.items.map((i: { categoryName: string; unit: string; servingAmount: number }) => [
        i.categoryName,
        i.servingAmount,
        i.unit,
      ]),
    ).toEqual([
      ["Entrada", 150, "g"],
      ["Sopa", 250, "ml"],
      ["Segundo", 350, "g"],
    ]);
    expect(lunchStructure.totals).toMatchObject({
      minCostCents: 530,
      maxCostCents: 950,
      priceCents: 1500,
      netPriceCents: 1271,
      maxPercent: 74.7,
      excessCents: 0,
    });

    // Reordered and with a dearer segundo, the same save replaces the structure: S/ 13.50 exceeds S/ 12.71 by S/ 0.79.
    const [entrada, sopa, segundo] = lunch(w).items;
    const reordered = { items: [sopa, entrada, { ...segundo, max_cost: "10.00" }] };
    const saved = await submitJson(planner, "PUT", `/menu/structures/${w.cafeA}/${w.svc.ALM}`, reordered);
    const body = (await saved.json()) as { structure: { items: { categoryName: string }[]; totals: unknown } };
    expect(body.structure.items.map((i) => i.categoryName)).toEqual(["Sopa", "Entrada", "Segundo"]);
    expect(body.structure.totals).toMatchObject({ maxCostCents: 1350, excessCents: 79 });

    const entries = w.db.select().from(auditLog).where(eq(auditLog.action, "menu_structure.updated")).all();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ subjectType: "cafe", subjectId: w.cafeA });
    expect(JSON.parse(entries[1].after!)).toEqual({
      serviceId: w.svc.ALM,
      items: [
        "Sopa · 250 ml · 30 % · 1.00–2.00",
        "Entrada · 150 g · 20 % · 0.80–1.50",
        "Segundo · 350 g · 50 % · 3.50–10.00",
      ],
    });
    const places = w.db.select().from(auditPlaces).where(eq(auditPlaces.auditId, entries[0].id)).all();
    expect(places.map((p) => [p.kind, p.placeId])).toEqual([["cafe", w.cafeA]]);
  });

  test("shares over 100, min above max, a repeated or unknown category and amounts that are not soles are refused, each where it belongs", async () => {
    const w = await buildWorld();
    const planner = await signedIn(w, w.people.planner);
    const path = `/menu/structures/${w.cafeA}/${w.svc.ALM}`;
    const bad = await submitJson(planner, "PUT", path, {
      items: [
        { category_id: w.cat.entrada, serving_amount: 150, share_percent: 60, min_cost: "2.00", max_cost: "1.50" },
        { category_id: w.cat.entrada, serving_amount: 150, share_percent: 30, min_cost: "0", max_cost: "1" },
        { category_id: 9999, serving_amount: 100, share_percent: 20, min_cost: "abc", max_cost: "1.234" },
      ],
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: Record<string, string> }).errors).toEqual({
      "items.0.max_cost": es("menu.structures.errors.min_above_max"),
      "items.1.category_id": es("menu.structures.errors.category_repeated", { name: "Entrada" }),
      "items.2.category_id": es("menu.structures.errors.category_missing"),
      "items.2.min_cost": es("menu.structures.errors.cost_invalid"),
      "items.2.max_cost": es("menu.structures.errors.cost_invalid"),
      share_total: es("menu.structures.errors.shares_over", { total: 110 }),
    });
    const empty = await submitJson(planner, "PUT", path, { items: [] });
    expect(((await empty.json()) as { errors: Record<string, string> }).errors).toEqual({
      items: es("menu.structures.errors.empty"),
    });
    // A share of exactly 100 and equal bounds are fine; a serving must be more than nothing.
    const zero = await submitJson(planner, "PUT", path, {
      items: [{ category_id: w.cat.segundo, serving_amount: 0, share_percent: 100, min_cost: "2", max_cost: "2" }],
    });
    expect(Object.keys(((await zero.json()) as { errors: Record<string, string> }).errors)).toEqual([
      "items.0.serving_amount",
    ]);
    const fine = await submitJson(planner, "PUT", path, {
      items: [{ category_id: w.cat.segundo, serving_amount: 300, share_percent: 100, min_cost: "2", max_cost: "2" }],
    });
    expect(fine.status).toBe(200);
    // A service the cafe does not serve as a meal has no structure.
    expect((await submitJson(planner, "PUT", `/menu/structures/${w.cafeA}/${w.svc.BOL}`, lunch(w))).status).toBe(404);
    expect(w.db.select().from(menuStructures).all()).toHaveLength(1);
  });

  test("a structure is deleted after it exists; deleting one that does not exist says so", async () => {
    const w = await buildWorld();
    const planner = await signedIn(w, w.people.planner);
    const path = `/menu/structures/${w.cafeA}/${w.svc.DES}`;
    const none = await submit(planner, "DELETE", path);
    expect(none.status).toBe(303);
    const page = await visitPage(planner, `/menu/structures?cafe=${w.cafeA}`);
    expect(page.props.errors.form).toBe(es("menu.structures.errors.nothing_to_delete"));
    await submitJson(planner, "PUT", path, lunch(w));
    expect((await submit(planner, "DELETE", path)).status).toBe(303);
    const after = structuresOfCafe(w.db, w.cafeA).find((s) => s.service.id === w.svc.DES)!;
    expect(after).toMatchObject({ structureId: null, items: [] });
    expect(w.db.select().from(auditLog).where(eq(auditLog.action, "menu_structure.deleted")).all()).toHaveLength(1);
  });
});

describe("copying and settings", () => {
  test("a structure is copied to other cafes of the scope that offer the service, each audited as its own", async () => {
    const w = await buildWorld();
    const root = await signedIn(w, w.people.root);
    await submitJson(root, "PUT", `/menu/structures/${w.cafeA}/${w.svc.ALM}`, lunch(w));
    const page = await visitPage(root, `/menu/structures?cafe=${w.cafeA}&service=${w.svc.ALM}`);
    expect(page.props.copyTargets).toEqual([{ id: w.cafeB, path: "Mina Sur › Unidad B › Comedor B" }]);
    const copied = await submit(root, "POST", `/menu/structures/${w.cafeA}/${w.svc.ALM}/copy`, {
      cafe_ids: [w.cafeB],
    });
    expect(copied.status).toBe(302);
    const b = structuresOfCafe(w.db, w.cafeB).find((s) => s.service.id === w.svc.ALM)!;
    expect(b.items.map((i) => [i.categoryName, i.maxCostCents])).toEqual([
      ["Entrada", 150],
      ["Sopa", 200],
      ["Segundo", 600],
    ]);
    // Against B's own price: S/ 12.00 ÷ 1.18 = S/ 10.17 (1016.95 → 1017).
    expect(b.totals).toMatchObject({ priceCents: 1200, netPriceCents: 1017, excessCents: 0, maxPercent: 93.4 });
    const entry = w.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "menu_structure.updated"), eq(auditLog.subjectId, w.cafeB)))
      .get()!;
    expect(JSON.parse(entry.after!).copiedFrom).toBe("Mina Norte › Unidad A › Comedor A");
  });

  test("the cafe's default level and board language are saved, checked and audited", async () => {
    const w = await buildWorld();
    const planner = await signedIn(w, w.people.planner);
    const page = await visitPage(planner, `/menu/structures?cafe=${w.cafeA}`);
    expect(page.props.menuSettings).toEqual({
      cafeId: w.cafeA,
      defaultLevelId: null,
      effectiveLevelId: w.lvl.master,
      boardLanguage: "es",
    });
    expect(page.props.levels.map((l: { name: string }) => l.name).slice(0, 2)).toEqual(["Master", "Staff"]);
    const path = `/menu/settings/${w.cafeA}`;
    const bad = await submitJson(planner, "PUT", path, { default_level_id: 9999, board_language: "fr" });
    expect(Object.keys(((await bad.json()) as { errors: Record<string, string> }).errors).sort()).toEqual([
      "board_language",
    ]);
    const missing = await submitJson(planner, "PUT", path, { default_level_id: 9999, board_language: "en" });
    expect(((await missing.json()) as { errors: Record<string, string> }).errors).toEqual({
      default_level_id: es("menu.settings.errors.level_missing"),
    });
    expect((await submit(planner, "PUT", path, { default_level_id: w.lvl.staff, board_language: "en" })).status).toBe(
      303,
    );
    const cafe = w.db.select().from(cafes).where(eq(cafes.id, w.cafeA)).get()!;
    expect({ level: cafe.defaultLevelId, language: cafe.boardLanguage }).toEqual({
      level: w.lvl.staff,
      language: "en",
    });
    const entry = w.db.select().from(auditLog).where(eq(auditLog.action, "cafe.menu_settings.updated")).get()!;
    expect(JSON.parse(entry.after!)).toEqual({ levelId: w.lvl.staff, boardLanguage: "en" });
  });
});

describe("the demo seed", () => {
  test("gives the demo cafes' lunch and breakfast a structure from the demo categories, once, and skips quietly without them", async () => {
    const { placesSeeder } = await import("../../db/seeds/places");
    const { servicesSeeder } = await import("../../db/seeds/services");
    const { menusSeeder } = await import("../../db/seeds/menus");
    const app = createTestApp();
    await placesSeeder.run(app.db, app.config);
    await servicesSeeder.run(app.db, app.config);
    expect(await menusSeeder.run(app.db, app.config)).toEqual(["no demo dish categories yet: no menu structures"]);
    // Only some of the demo categories: those missing (Guarnición, Postre, Refresco) are left out.
    app.db
      .insert(dishCategories)
      .values([
        { name: "Entrada", unit: "g", sortOrder: 1 },
        { name: "Sopa", unit: "ml", sortOrder: 2 },
        { name: "Segundo", unit: "g", sortOrder: 3 },
      ])
      .run();
    const [first, week] = await menusSeeder.run(app.db, app.config);
    // No demo dishes yet: no week is planned.
    expect(week).toBe("0 menu days planned and published from today at 0 cafes");
    const made = structureCount(app.db);
    expect(made).toBeGreaterThan(0);
    expect(first).toBe(`${made} menu structures (lunch and breakfast of the demo cafes)`);
    const principal = app.db.select().from(cafes).where(eq(cafes.name, "Comedor Principal")).get()!;
    const lunchOf = structuresOfCafe(app.db, principal.id).find((s) => s.service.code === "ALM")!;
    expect(lunchOf.items.map((i) => i.categoryName)).toEqual(["Entrada", "Sopa", "Segundo"]);
    // S/ 18.00 → S/ 15.25 without IGV; highest costs 1.20 + 1.60 + 5.20 = S/ 8.00.
    expect(lunchOf.totals).toMatchObject({ priceCents: 1800, netPriceCents: 1525, maxCostCents: 800, excessCents: 0 });
    const breakfastOf = structuresOfCafe(app.db, principal.id).find((s) => s.service.code === "DES")!;
    expect(breakfastOf.items.map((i) => i.categoryName)).toEqual(["Segundo"]);
    // A second run changes nothing.
    expect(await menusSeeder.run(app.db, app.config)).toEqual([
      "0 menu structures (lunch and breakfast of the demo cafes)",
      "0 menu days planned and published from today at 0 cafes",
    ]);
    expect(structureCount(app.db)).toBe(made);

    // With a dish of a structure's category, every cafe with a structure gets a published week from its today, once.
    const now = new Date();
    const dish = app.db
      .insert(dishes)
      .values({ name: "Seco de res", createdAt: now, updatedAt: now })
      .returning()
      .get();
    const segundo = app.db.select().from(dishCategories).where(eq(dishCategories.name, "Segundo")).get()!;
    app.db.insert(dishCategoryLinks).values({ dishId: dish.id, categoryId: segundo.id }).run();
    const cafesWithStructures = new Set(
      app.db
        .select()
        .from(menuStructures)
        .all()
        .map((m) => m.cafeId),
    ).size;
    expect((await menusSeeder.run(app.db, app.config))[1]).toBe(
      `${cafesWithStructures * 7} menu days planned and published from today at ${cafesWithStructures} cafes`,
    );
    const days = app.db.select().from(menuDays).all();
    expect(days.every((d) => d.publishedVersion === d.version)).toBe(true);
    expect(
      app.db
        .select()
        .from(publishedMenuSlots)
        .all()
        .every((slot) => slot.dishId === dish.id),
    ).toBe(true);
    expect((await menusSeeder.run(app.db, app.config))[1]).toBe(
      "0 menu days planned and published from today at 0 cafes",
    );
  });
});

function structureCount(db: Db): number {
  return db.select().from(menuStructures).all().length;
}
