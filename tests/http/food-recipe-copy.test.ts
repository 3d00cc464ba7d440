/**
 * Copying a dish's recipe from one level to another through the app (`food.recipes.copy`): scaled by a factor and
 * rounded as a kitchen weighs (grams and millilitres to the tenth, units to the hundredth), a level that has a
 * recipe replaced only when asked, a bad factor refused with a clear message, food.manage held at a headquarters
 * needed; and the dishes table's flag of the levels a dish has no recipe for, and the `?dish=` link of a name.
 *
 * The world: Sede Lima (Lima) with "Nora Nutri", a nutritionist; "Carla Cafe" holds food.view and food.manage in
 * Comedor A's area, where they grant nothing; "Vera Vista" may only see food at Sede Lima.
 */
import { describe, expect, test } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { auditLog, dishCategories, headquarters, levels, recipeLines, recipes } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { ensureStartingRole, STARTING_ROLES } from "../../src/domain/access/starting-roles";
import { CLI_ACTOR } from "../../src/domain/audit";
import { levelLabel } from "../../src/shared/food/built-in-levels";
import { createCategory } from "../../src/domain/food/categories";
import { createCity } from "../../src/domain/food/cities";
import { createDish } from "../../src/domain/food/dishes";
import { createIngredient } from "../../src/domain/food/ingredients";
import { createOffer } from "../../src/domain/food/offers";
import { createProvider } from "../../src/domain/food/providers";
import { saveRecipe } from "../../src/domain/food/recipes";
import { translate, type TranslationKey } from "../../src/shared/i18n";
import { createTestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: Record<string, string | number>) => translate("es", key, params);

async function buildWorld() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede Lima");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const lima = createCity(db, CLI_ACTOR, { name: "Lima", region: "Lima" });
  db.update(headquarters).set({ cityId: lima.id }).where(eq(headquarters.id, x.headquartersId)).run();
  const nutritionist = findRoleByName(db, "nutritionist")!.id;
  const cook = makeRole(db, "food in a cafe", ["food.view", "food.manage"]);
  const viewer = makeRole(db, "food viewer", ["food.view"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Nutrición",
    headquarters_id: x.headquartersId,
    role_ids: [nutritionist, viewer],
  }).id;
  const cocina = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Cocina A", cafe_id: cafeA, role_ids: [cook] }).id;
  const people = {
    nora: await addUser(db, "Nora Nutri", "nora@mesa.test"),
    carla: await addUser(db, "Carla Cafe", "carla@mesa.test"),
    vera: await addUser(db, "Vera Vista", "vera@mesa.test"),
  };
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.nora.id, areaId: sede, roleId: nutritionist });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.carla.id, areaId: cocina, roleId: cook });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: people.vera.id, areaId: sede, roleId: viewer });

  const pantry = createCategory(db, CLI_ACTOR, { name: "Despensa" });
  const rice = createIngredient(db, CLI_ACTOR, {
    name: "Arroz pilado",
    category_id: pantry.id,
    base_unit: "g",
    kcal: 358,
  });
  const egg = createIngredient(db, CLI_ACTOR, {
    name: "Huevo de gallina",
    category_id: pantry.id,
    base_unit: "unit",
    unit_weight_g: 50,
    kcal: 143,
  });
  const oil = createIngredient(db, CLI_ACTOR, {
    name: "Aceite vegetal",
    category_id: pantry.id,
    base_unit: "ml",
    density: 0.92,
    kcal: 884,
  });
  const andina = createProvider(db, CLI_ACTOR, { name: "Distribuidora Andina", ruc: "20501234568" }, { rucLength: 11 });
  const eggs = createOffer(
    db,
    CLI_ACTOR,
    { userId: null, name: "" },
    {
      provider_id: andina.id,
      ingredient_id: egg.id,
      city_id: lima.id,
      presentation: "Jaba 30",
      quantity: 30,
      price: "15",
      price_includes_igv: false,
    },
  );
  const levelId = new Map(
    db
      .select()
      .from(levels)
      .all()
      .map((l) => [l.name, l.id]),
  );
  const master = levelId.get("Master")!;
  const staff = levelId.get("Staff")!;
  const laborer = levelId.get("Laborer")!;
  const [category] = db
    .insert(dishCategories)
    .values([{ name: "Segundo", sortOrder: 1 }])
    .returning()
    .all();
  const segundo = createDish(db, CLI_ACTOR, { name: "Arroz con huevo", category_ids: [category.id] }).id;
  return { app, db, lima, people, rice, egg, oil, eggs, master, staff, laborer, segundo };
}

/** A dish of its own with Master's recipe: 33 g of rice, 3 eggs (one of them pinned), 10 ml of oil, a 300 g yield. */
function withMasterRecipe(w: Awaited<ReturnType<typeof buildWorld>>) {
  saveRecipe(w.db, CLI_ACTOR, w.segundo, w.master, {
    yield_grams: 301,
    lines: [
      { ingredient_id: w.rice.id, quantity: 33 },
      { ingredient_id: w.egg.id, quantity: 3, offer_id: w.eggs.id },
      { ingredient_id: w.oil.id, quantity: 10 },
      { ingredient_id: w.egg.id, quantity: 0.33 },
    ],
  });
}

function linesOf(w: Awaited<ReturnType<typeof buildWorld>>, levelId: number) {
  const recipe = w.db
    .select()
    .from(recipes)
    .where(and(eq(recipes.dishId, w.segundo), eq(recipes.levelId, levelId)))
    .get();
  if (!recipe) return null;
  return {
    yieldGrams: recipe.yieldGrams,
    lines: w.db
      .select()
      .from(recipeLines)
      .where(eq(recipeLines.recipeId, recipe.id))
      .orderBy(recipeLines.position)
      .all()
      .map((l) => [l.ingredientId, l.quantity, l.offerId]),
  };
}

const copyPath = (w: { segundo: number }, from: number) => `/food/dishes/${w.segundo}/recipes/${from}/copy`;

describe("copying a recipe to another level", () => {
  test("scales every quantity and the yield by the factor, rounds as a kitchen weighs, keeps pinned offers, and is audited", async () => {
    const w = await buildWorld();
    withMasterRecipe(w);
    const nora = await signedIn(w, w.people.nora);
    const response = await submitJson(nora, "POST", copyPath(w, w.master), { to_level_id: w.laborer, factor: "1,25" });
    expect(response.status).toBe(200);
    const body = await response.json();
    // Built-in levels read in the person's language: Máster, Obrero.
    expect(body.message).toBe(
      es("food.recipes.copy_done", { from: levelLabel("Master", "es"), to: levelLabel("Laborer", "es") }),
    );
    // 33 g × 1.25 = 41.25 → 41.3 g; 3 eggs → 3.75; 10 ml → 12.5 ml; 0.33 egg × 1.25 = 0.4125 → 0.41; 301 g → 376.3 g.
    expect(linesOf(w, w.laborer)).toEqual({
      yieldGrams: 376.3,
      lines: [
        [w.rice.id, 41.3, null],
        [w.egg.id, 3.75, w.eggs.id],
        [w.oil.id, 12.5, null],
        [w.egg.id, 0.41, null],
      ],
    });
    // The source is untouched; the answer is the dish read again, costed, with both recipes.
    expect(linesOf(w, w.master)?.lines[0]).toEqual([w.rice.id, 33, null]);
    expect(body.detail.recipes.map((r: any) => r.levelId)).toEqual([w.master, w.laborer]);
    const entry = w.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "dish"), eq(auditLog.subjectId, w.segundo)))
      .orderBy(desc(auditLog.id))
      .get()!;
    expect(entry.action).toBe("recipe.saved");
    expect(entry.actorId).toBe(w.people.nora.id);
    expect(JSON.parse(entry.after!)).toMatchObject({
      levelId: w.laborer,
      copiedFrom: { levelId: w.master, factor: 1.25 },
    });

    // Without a factor the quantities are copied as they are; a tiny factor never rounds a quantity to nothing.
    await submitJson(nora, "POST", copyPath(w, w.master), { to_level_id: w.staff });
    expect(linesOf(w, w.staff)?.lines.map((l) => l[1])).toEqual([33, 3, 10, 0.33]);
    await submitJson(nora, "POST", copyPath(w, w.master), { to_level_id: w.staff, factor: 0.1, replace: true });
    expect(linesOf(w, w.staff)?.lines.map((l) => l[1])).toEqual([3.3, 0.3, 1, 0.03]);
  });

  test("a level that already has a recipe is replaced only when the copy says so", async () => {
    const w = await buildWorld();
    withMasterRecipe(w);
    saveRecipe(w.db, CLI_ACTOR, w.segundo, w.laborer, { lines: [{ ingredient_id: w.rice.id, quantity: 500 }] });
    const nora = await signedIn(w, w.people.nora);
    const refused = await submitJson(nora, "POST", copyPath(w, w.master), { to_level_id: w.laborer, factor: 2 });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(es("food.recipes.copy_would_replace"));
    expect(linesOf(w, w.laborer)?.lines).toEqual([[w.rice.id, 500, null]]);

    const replaced = await submitJson(nora, "POST", copyPath(w, w.master), {
      to_level_id: w.laborer,
      factor: 2,
      replace: true,
    });
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).message).toBe(
      es("food.recipes.copy_replaced", { from: levelLabel("Master", "es"), to: levelLabel("Laborer", "es") }),
    );
    expect(linesOf(w, w.laborer)?.lines.map((l) => l[1])).toEqual([66, 6, 20, 0.66]);
    // One recipe per level still.
    expect(w.db.select().from(recipes).where(eq(recipes.dishId, w.segundo)).all()).toHaveLength(2);
  });

  test("a bad factor or level is refused with a clear message, and nothing is written", async () => {
    const w = await buildWorld();
    withMasterRecipe(w);
    const nora = await signedIn(w, w.people.nora);
    const refusal = async (json: unknown) => {
      const response = await submitJson(nora, "POST", copyPath(w, w.master), json);
      return { status: response.status, errors: (await response.json()).errors };
    };
    const range = es("food.recipes.copy_factor_range", { min: 0.1, max: 10 });
    expect(await refusal({ to_level_id: w.laborer, factor: "mucho" })).toEqual({
      status: 422,
      errors: { factor: es("food.recipes.copy_factor_number") },
    });
    expect(await refusal({ to_level_id: w.laborer, factor: "-1" })).toEqual({
      status: 422,
      errors: { factor: es("food.recipes.copy_factor_number") },
    });
    expect(await refusal({ to_level_id: w.laborer, factor: 0 })).toEqual({ status: 422, errors: { factor: range } });
    expect(await refusal({ to_level_id: w.laborer, factor: "0.05" })).toEqual({
      status: 422,
      errors: { factor: range },
    });
    expect(await refusal({ to_level_id: w.laborer, factor: "10.5" })).toEqual({
      status: 422,
      errors: { factor: range },
    });
    expect(await refusal({ to_level_id: w.master, factor: 1 })).toEqual({
      status: 422,
      errors: { to_level_id: es("food.recipes.copy_same_level") },
    });
    expect((await refusal({ to_level_id: 999 })).status).toBe(422);
    expect((await refusal({ factor: 1 })).status).toBe(422);
    // A level with no recipe to copy, or a dish that is not.
    expect((await submitJson(nora, "POST", copyPath(w, w.staff), { to_level_id: w.laborer })).status).toBe(404);
    expect(
      (await submitJson(nora, "POST", `/food/dishes/999/recipes/${w.master}/copy`, { to_level_id: w.laborer })).status,
    ).toBe(404);
    expect(w.db.select().from(recipes).all()).toHaveLength(1);
  });

  test("needs food.manage held at a headquarters", async () => {
    const w = await buildWorld();
    withMasterRecipe(w);
    for (const person of [w.people.carla, w.people.vera]) {
      const client = await signedIn(w, person);
      const response = await submitJson(client, "POST", copyPath(w, w.master), { to_level_id: w.laborer });
      expect({ who: person.name, status: response.status }).toEqual({ who: person.name, status: 403 });
    }
    expect(linesOf(w, w.laborer)).toBeNull();
  });
});

describe("the dishes table", () => {
  test("flags the levels each dish has no recipe for, and a dish's link opens it", async () => {
    const w = await buildWorld();
    withMasterRecipe(w);
    const nora = await signedIn(w, w.people.nora);
    const allLevels = w.db.select().from(levels).orderBy(levels.sortOrder).all();
    expect(allLevels).toHaveLength(4);
    const rowOf = async () => (await visitPage(nora, "/food")).props.dishes.data[0];
    const others = allLevels.filter((l) => l.id !== w.master).map((l) => l.id);
    expect((await rowOf()).levelsWithoutRecipe).toEqual(others);
    await submitJson(nora, "POST", copyPath(w, w.master), { to_level_id: w.laborer });
    expect((await rowOf()).levelsWithoutRecipe).toEqual(others.filter((id) => id !== w.laborer));
    expect(es("food.dishes.levels_without_recipe", { count: 2, total: 4 })).toBe("2 de 4 niveles sin receta");
    expect(translate("en", "food.dishes.levels_without_recipe", { count: 2, total: 4 })).toBe(
      "2 of 4 levels without a recipe",
    );
    // The name's link: the page opens with the dish asked for.
    expect((await visitPage(nora, `/food?dish=${w.segundo}`)).props.filters.dish).toBe(w.segundo);
    expect((await visitPage(nora, "/food")).props.filters.dish).toBeNull();
  });
});
