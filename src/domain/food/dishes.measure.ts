/**
 * How long the Food page's work takes on a large catalogue: 2,000 dishes of 15 lines each over 150 ingredients
 * with offers in one city. Measures a page of the dishes table (listDishes + the page's recipes costed in one
 * batch), the whole export's list and costing, one draft of 15 lines costed (the modal's live totals) and one save
 * of a dish with two recipes. Run: `node_modules/.bin/bun src/domain/food/dishes.measure.ts`.
 */
import { dishCategories, dishCategoryLinks, dishes, levels, recipeLines, recipes } from "../../../db/schema";
import { migrateDatabase, openDatabase } from "../../db";
import { CLI_ACTOR } from "../audit";
import { createCategory } from "./categories";
import { createCity } from "./cities";
import { listDishes } from "./dishes";
import { createIngredient } from "./ingredients";
import { createOffer } from "./offers";
import { createProvider } from "./providers";
import { costDraft, costRecipes } from "./recipe-cost";
import { parseDraft, saveDish } from "./recipes";

const db = openDatabase(":memory:");
migrateDatabase(db);
const city = createCity(db, CLI_ACTOR, { name: "Lima" });
const category = createCategory(db, CLI_ACTOR, { name: "Varios" });
const provider = createProvider(db, CLI_ACTOR, { name: "Proveedor", ruc: "20100934729" }, { rucLength: 11 });
const ingredientIds: number[] = [];
for (let i = 0; i < 150; i++) {
  const ingredient = createIngredient(db, CLI_ACTOR, {
    name: `Insumo ${i}`,
    category_id: category.id,
    base_unit: "g",
    kcal: 100 + i,
    solid_waste: i % 20,
  });
  ingredientIds.push(ingredient.id);
  createOffer(
    db,
    CLI_ACTOR,
    { userId: null, name: "" },
    {
      provider_id: provider.id,
      ingredient_id: ingredient.id,
      city_id: city.id,
      presentation: "Saco",
      quantity: 1000,
      price: String(3 + (i % 7)),
      price_includes_igv: true,
    },
  );
}
const level = db.select().from(levels).all()[0];
const [dishCategory] = db.insert(dishCategories).values({ name: "Segundo" }).returning().all();
const now = new Date();
db.transaction((tx) => {
  for (let d = 0; d < 2000; d++) {
    const dish = tx
      .insert(dishes)
      .values({ name: `Plato ${String(d).padStart(4, "0")}`, createdAt: now, updatedAt: now })
      .returning()
      .get();
    tx.insert(dishCategoryLinks).values({ dishId: dish.id, categoryId: dishCategory.id }).run();
    const recipe = tx.insert(recipes).values({ dishId: dish.id, levelId: level.id, updatedAt: now }).returning().get();
    tx.insert(recipeLines)
      .values(
        Array.from({ length: 15 }, (_, position) => ({
          recipeId: recipe.id,
          position,
          ingredientId: ingredientIds[(d * 7 + position * 11) % ingredientIds.length],
          quantity: 10 + position,
        })),
      )
      .run();
  }
});

function time(label: string, runs: number, work: () => unknown): void {
  work();
  const started = performance.now();
  for (let i = 0; i < runs; i++) work();
  console.log(`${label}: ${((performance.now() - started) / runs).toFixed(2)} ms (mean of ${runs})`);
}

const recipeOf = new Map(
  db
    .select()
    .from(recipes)
    .all()
    .map((r) => [r.dishId, r.id]),
);
time("a page of 20 dishes, listed and costed", 50, () => {
  const page = listDishes(db, { search: "plato 1" }, { page: 3, perPage: 20 }, { sort: "name", direction: "desc" });
  costRecipes(
    db,
    page.rows.map((r) => recipeOf.get(r.id)!),
    { cityId: city.id },
  );
});
time("the export: 2,000 dishes listed and costed", 3, () => {
  const all = listDishes(db, {}, null);
  costRecipes(
    db,
    all.rows.map((r) => recipeOf.get(r.id)!),
    { cityId: city.id },
  );
});
const draft = {
  level_id: level.id,
  city_id: city.id,
  lines: ingredientIds.slice(0, 15).map((id, i) => ({ ingredient_id: id, quantity: String(10 + i) })),
};
time("a draft of 15 lines checked and costed (live totals)", 200, () => {
  const parsed = parseDraft(db, draft);
  costDraft(db, parsed.draft, { cityId: parsed.cityId });
});
let n = 0;
time("a dish saved with two recipes of 15 lines", 50, () =>
  saveDish(db, CLI_ACTOR, null, {
    name: `Nuevo ${n++}`,
    category_ids: [dishCategory.id],
    recipes: [
      { level_id: level.id, lines: draft.lines },
      { level_id: level.id + 1, lines: draft.lines },
    ],
  }),
);
