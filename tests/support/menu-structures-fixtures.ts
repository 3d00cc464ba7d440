/**
 * Browser-test fixture of the menu structures page, on the e2e database (DB_PATH):
 *
 *   node_modules/.bin/bun tests/support/menu-structures-fixtures.ts
 *
 * Makes sure the menu table has the demo dish categories (Entrada, Sopa, Segundo, Postre, Refresco), as the
 * catalogue's seed names them, adding those missing. Prints {"categories":{name: id}} as JSON.
 */
import { inArray } from "drizzle-orm";
import { dishCategories } from "../../db/schema";
import { loadConfig } from "../../src/config";
import { migrateDatabase, openDatabase } from "../../src/db";

const CATEGORIES: { name: string; unit: "g" | "ml"; sortOrder: number }[] = [
  { name: "Entrada", unit: "g", sortOrder: 1 },
  { name: "Sopa", unit: "ml", sortOrder: 2 },
  { name: "Segundo", unit: "g", sortOrder: 3 },
  { name: "Postre", unit: "g", sortOrder: 4 },
  { name: "Refresco", unit: "ml", sortOrder: 5 },
];

const db = openDatabase(loadConfig().dbPath);
migrateDatabase(db);
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
console.log(JSON.stringify({ categories: Object.fromEntries(rows.map((r) => [r.name, r.id])) }));
