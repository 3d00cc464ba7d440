/**
 * Browser-test fixture of the menu structures page: the `menu-structures` command of tests/support/e2e-fixtures.ts.
 *
 * Makes sure the menu table has the demo dish categories (Entrada, Sopa, Segundo, Postre, Refresco), as the
 * catalogue's seed names them, adding those missing. Returns {categories: {name: id}}.
 */
import { inArray } from "drizzle-orm";
import { dishCategories } from "../../db/schema";
import type { Db } from "../../src/db";

const CATEGORIES: { name: string; unit: "g" | "ml"; sortOrder: number }[] = [
  { name: "Entrada", unit: "g", sortOrder: 1 },
  { name: "Sopa", unit: "ml", sortOrder: 2 },
  { name: "Segundo", unit: "g", sortOrder: 3 },
  { name: "Postre", unit: "g", sortOrder: 4 },
  { name: "Refresco", unit: "ml", sortOrder: 5 },
];

export function menuStructureCategories(db: Db): { categories: Record<string, number> } {
  db.insert(dishCategories).values(CATEGORIES).onConflictDoNothing().run();
  const rows = db
    .select({ id: dishCategories.id, name: dishCategories.name })
    .from(dishCategories)
    .where(
      inArray(
        dishCategories.name,
        CATEGORIES.map((c) => c.name),
      ),
    )
    .all();
  return { categories: Object.fromEntries(rows.map((r) => [r.name, r.id])) };
}
