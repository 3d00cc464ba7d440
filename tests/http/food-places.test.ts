/**
 * Places get a city: a cafe's city is chosen when the management modal creates it and changed in its edit dialog, a
 * headquarters' in its dialog; the tables show it and sort and search by it; an unknown city is refused on the field;
 * a cafe or headquarters made before cities keeps none, and its audit entries say nothing of a city until it has one.
 * The demo seed gives the demo places theirs.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, cafes, headquarters, units } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { foodSeeder } from "../../db/seeds/food";
import { placesSeeder } from "../../db/seeds/places";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { createCity } from "../../src/domain/food/cities";
import { createTestApp } from "../support/app";
import { addUser } from "../support/people";
import { signedIn, submit, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

async function buildWorld() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const { businessId, headquartersId } = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeId = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", businessId);
  const unitId = db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.unitId;
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const area = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: headquartersId,
    role_ids: [superRole],
  }).id;
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: area, roleId: superRole });
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  const marcos = createCity(db, CLI_ACTOR, { name: "San Marcos", region: "Áncash" });
  return { app, db, businessId, headquartersId, cafeId, unitId, root, lima, marcos };
}

describe("a cafe's city", () => {
  test("is chosen when the cafe is created, changed in its dialog, shown, sorted and searched in the cafes table", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.root);
    const created = await submit(client, "POST", "/management/places", {
      unit_id: w.unitId,
      mine_id: w.db.select().from(units).where(eq(units.id, w.unitId)).get()!.mineId,
      cafe_name: "Comedor B",
      business_id: w.businessId,
      city_id: w.marcos.id,
    });
    expect(created.status).toBe(302);
    const b = w.db.select().from(cafes).where(eq(cafes.name, "Comedor B")).get()!;
    expect(b.cityId).toBe(w.marcos.id);

    // Comedor A was made before cities: none, until its dialog gives it one.
    const page = await visitPage(client, "/management?tab=cafes");
    expect(page.props.cities).toEqual([
      { id: w.lima.id, name: "Lima", region: "Lima" },
      { id: w.marcos.id, name: "San Marcos", region: "Áncash" },
    ]);
    expect(page.props.cafes.data.map((c: any) => [c.name, c.cityName])).toEqual([
      ["Comedor A", null],
      ["Comedor B", "San Marcos"],
    ]);
    const edit = (json: Record<string, unknown>) =>
      submit(client, "PUT", `/cafes/${w.cafeId}`, { name: "Comedor A", business_id: w.businessId, ...json });
    expect((await edit({ city_id: w.lima.id })).status).toBe(303);
    expect(w.db.select().from(cafes).where(eq(cafes.id, w.cafeId)).get()!.cityId).toBe(w.lima.id);
    const sorted = await visitPage(client, "/management?tab=cafes&sort=city&direction=desc");
    expect(sorted.props.cafes.data.map((c: any) => c.cityName)).toEqual(["San Marcos", "Lima"]);
    const searched = await visitPage(client, "/management?tab=cafes&search=marcos");
    expect(searched.props.cafes.data.map((c: any) => c.name)).toEqual(["Comedor B"]);

    // Left out, the city stays; null takes it away; an unknown one is refused on its field.
    await edit({});
    expect(w.db.select().from(cafes).where(eq(cafes.id, w.cafeId)).get()!.cityId).toBe(w.lima.id);
    const refused = await edit({ city_id: 999 });
    expect(refused.status).toBe(303);
    expect((await visitPage(client, "/management?tab=cafes")).props.errors).toEqual({
      city_id: es("food.cities.unknown"),
    });
    await edit({ city_id: null });
    expect(w.db.select().from(cafes).where(eq(cafes.id, w.cafeId)).get()!.cityId).toBeNull();

    // The audit records the city once the cafe has one, before or after.
    const updates = w.db.select().from(auditLog).where(eq(auditLog.action, "cafe.updated")).all();
    expect(updates.map((u) => [JSON.parse(u.before!).cityId, JSON.parse(u.after!).cityId])).toEqual([
      [null, w.lima.id],
      [w.lima.id, w.lima.id],
      [w.lima.id, null],
    ]);
  });
});

describe("a headquarters' city", () => {
  test("is set in its dialog, shown and sorted in the headquarters table; an unknown one is refused", async () => {
    const w = await buildWorld();
    const client = await signedIn(w, w.root);
    const body = { business_id: w.businessId, name: "Sede Y", address: "Av. Arequipa 100, Lima" };
    expect((await submit(client, "POST", "/headquarters", { ...body, city_id: w.lima.id })).status).toBe(302);
    const y = w.db.select().from(headquarters).where(eq(headquarters.name, "Sede Y")).get()!;
    expect(y.cityId).toBe(w.lima.id);
    const page = await visitPage(client, "/businesses/headquarters?sort=city");
    expect(page.props.headquarters.data.map((h: any) => [h.name, h.cityName])).toEqual([
      ["Sede X", null],
      ["Sede Y", "Lima"],
    ]);
    expect(page.props.cities.map((c: any) => c.name)).toEqual(["Lima", "San Marcos"]);
    await submit(client, "PUT", `/headquarters/${y.id}`, { ...body, city_id: 999 });
    expect((await visitPage(client, "/businesses/headquarters")).props.errors).toEqual({
      city_id: es("food.cities.unknown"),
    });
    expect(w.db.select().from(headquarters).where(eq(headquarters.id, y.id)).get()!.cityId).toBe(w.lima.id);
  });
});

describe("the demo seed", () => {
  test("gives the demo headquarters Lima and Arequipa and the cafes their mining towns, once, and keeps a city a person chose", async () => {
    const app = createTestApp();
    await placesSeeder.run(app.db, app.config);
    const chosen = createCity(app.db, CLI_ACTOR, { name: "Cusco" });
    app.db.update(cafes).set({ cityId: chosen.id }).where(eq(cafes.name, "Comedor Puerto")).run();
    await foodSeeder.run(app.db, app.config);
    const cityOf = (table: "cafes" | "headquarters") =>
      Object.fromEntries(
        app.db.$client
          .query<{ place: string; city: string | null }, []>(
            `SELECT p.name AS place, c.name AS city FROM ${table} p LEFT JOIN cities c ON c.id = p.city_id ORDER BY p.id`,
          )
          .all()
          .map((r) => [r.place, r.city]),
      );
    expect(cityOf("headquarters")).toEqual({ "Sede Lima": "Lima", "Sede Arequipa": "Arequipa" });
    expect(cityOf("cafes")).toEqual({
      "Comedor Principal": "Uchumayo",
      "Comedor Taller": "Uchumayo",
      "Comedor Campamento": "Uchumayo",
      "Comedor Chancadora": "Uchumayo",
      "Comedor Yanacancha": "San Marcos",
      "Comedor Tajo": "San Marcos",
      "Comedor Puerto": "Cusco",
      "Comedor Mineroducto": "Huarmey",
    });
    const again = await foodSeeder.run(app.db, app.config);
    expect(again[0]).toContain("0 demo places given theirs");
  });
});
