/**
 * The demo dishes: after the demo places and ingredients, the six dish categories with their units and every demo
 * dish with a recipe per level, each line an existing demo ingredient or sub-dish, the Laborer's the largest; marked
 * as demo recipes; seeding again changes nothing.
 */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { migrateDatabase, openDatabase } from "../../src/db";
import { listDishCategories } from "../../src/domain/food/dish-categories";
import { costRecipes } from "../../src/domain/food/recipe-cost";
import { DEMO_MARK, demoDishes, dishesSeeder } from "./dishes";
import { foodSeeder } from "./food";
import { placesSeeder } from "./places";

describe("the demo dishes", () => {
  test("categories with their units, every dish with a recipe per level, Laborer the largest; idempotent", async () => {
    const db = openDatabase(":memory:");
    migrateDatabase(db);
    const config = loadConfig();
    await placesSeeder.run(db, config);
    await foodSeeder.run(db, config);
    const catalogue = demoDishes();
    expect(catalogue.length).toBeGreaterThanOrEqual(40);
    const first = await dishesSeeder.run(db, config);
    // Every ingredient a demo recipe names is a demo ingredient: nothing is left out.
    expect(first).toEqual([
      `6 dish categories and ${catalogue.length} dishes created of ${catalogue.length}, with ${catalogue.length * 4} recipes (demo recipes, one per level)`,
    ]);
    expect(listDishCategories(db).map((c) => [c.name, c.unit, c.dishCount])).toEqual([
      ["Entrada", "g", 7],
      ["Sopa", "ml", 7],
      ["Segundo", "g", 21],
      ["Guarnición", "g", 7],
      ["Postre", "g", 4],
      ["Refresco", "ml", 5],
    ]);
    const descriptions = db.$client.query<{ d: string }, []>("SELECT description AS d FROM dishes").all();
    expect(descriptions.every((r) => r.d.endsWith(DEMO_MARK))).toBe(true);
    const subLines = db.$client
      .query<{ n: number }, []>(
        "SELECT COUNT(DISTINCT sub_dish_id) AS n FROM recipe_lines WHERE sub_dish_id IS NOT NULL",
      )
      .get()!.n;
    expect(subLines).toBeGreaterThanOrEqual(2);

    // The Laborer's serving is the largest of each dish: costed for Lima, its gross weight tops every other level's.
    const rows = db.$client
      .query<{ id: number; dish: string; level: string }, []>(
        "SELECT r.id, d.name AS dish, l.name AS level FROM recipes r JOIN dishes d ON d.id = r.dish_id JOIN levels l ON l.id = r.level_id",
      )
      .all();
    const lima = db.$client.query<{ id: number }, []>("SELECT id FROM cities WHERE name = 'Lima'").get()!.id;
    const costed = costRecipes(
      db,
      rows.map((r) => r.id),
      { cityId: lima },
    );
    const gross = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const byLevel = gross.get(r.dish) ?? new Map<string, number>();
      byLevel.set(r.level, costed.get(r.id)!.totals.grossG);
      gross.set(r.dish, byLevel);
    }
    for (const [dish, byLevel] of gross) {
      const laborer = byLevel.get("Laborer")!;
      for (const [level, grams] of byLevel)
        if (level !== "Laborer")
          expect({ dish, level, smaller: grams < laborer }).toEqual({ dish, level, smaller: true });
    }
    expect(await dishesSeeder.run(db, config)).toEqual([
      `0 dish categories and 0 dishes created of ${catalogue.length}, with 0 recipes (demo recipes, one per level)`,
    ]);
  });
});
