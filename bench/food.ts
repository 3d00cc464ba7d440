/**
 * Costing a whole catalogue: 2,000 dishes with a recipe of 15 lines each (some lines are sub-recipes, some pinned to
 * an offer, some ingredients without an offer in the city), costed for one city right after one offer's price
 * changes, by Mesa's `costRecipes` (src/domain/food/recipe-cost.ts) and by a bare SQL aggregate computing the same
 * cost totals, prepared once, in the same run. Both are checked to agree on every recipe's total.
 *
 *   npm run bench:food                       (NODE_ENV=production bun bench/food.ts)
 *
 * Settings: BENCH_DISHES (2000), BENCH_LINES (15 per recipe), BENCH_RUNS (timed runs of each, 15); BENCH_SMOKE=1 costs
 * 50 dishes twice. The database is a
 * temporary file, generated with bare prepared inserts, removed at the end. Before each timed run of either side one
 * offer's price changes through `updateOffer` (the page's path: a new dated price, audited), outside the timing.
 * Checked: the agreement, on every recipe (a disagreement exits 1); bench/README.md says how to read the figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { migrateDatabase, openDatabase, type Db } from "../src/db";
import { CLI_ACTOR } from "../src/domain/audit";
import { updateOffer } from "../src/domain/food/offers";
import { costRecipes } from "../src/domain/food/recipe-cost";
import { check, finishChecks, setting } from "./support/smoke";

const DISHES = setting("BENCH_DISHES", 2000, 50);
const LINES = setting("BENCH_LINES", 15, 15);
const RUNS = setting("BENCH_RUNS", 15, 2);
const INGREDIENTS = 400;
/** The first dishes are bases (sauces, doughs, stocks) that other dishes use as sub-recipes. */
const BASES = Math.max(1, Math.round(DISHES / 10));
const IGV = 1800;
const MASTER = 1;

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A small deterministic random number generator (mulberry32), so every run generates the same catalogue. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Catalogue {
  lima: number;
  recipeIds: number[];
  /** The offer whose price changes before each run, and its two prices. */
  changing: { id: number; presentation: string; quantity: number; prices: [string, string] };
  lineCount: number;
  subLines: number;
  pinnedLines: number;
}

/**
 * Three cities; 400 ingredients (grams, millilitres with a density, units with a weight; wastes; kcal and some
 * nutrients); 8 providers; in Lima 1 to 3 offers of most ingredients (about 40 % priced with IGV, 1 % withdrawn) and
 * none of one in a hundred; in Arequipa and Cusco offers of every ingredient. DISHES dishes with a Master recipe of
 * LINES lines: the bases are all ingredients (half with a yield), the others take 0 to 2 bases as sub-recipes; one
 * ingredient line in twenty is pinned to one of its offers in Lima.
 */
export function generate(db: Db): Catalogue {
  const client = db.$client;
  const rand = random(17);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const now = Date.parse("2026-11-01T12:00:00Z");
  let catalogue!: Catalogue;
  client.transaction(() => {
    const city = client.prepare<{ id: number }, [string]>("INSERT INTO cities (name) VALUES (?) RETURNING id");
    const [lima, arequipa, cusco] = ["Lima", "Arequipa", "Cusco"].map((name) => city.get(name)!.id);
    const category = client
      .prepare<{ id: number }, []>("INSERT INTO ingredient_categories (name) VALUES ('Banco') RETURNING id")
      .get()!.id;
    const ingredient = client.prepare<
      { id: number },
      [
        string,
        number,
        string,
        number | null,
        number | null,
        number,
        number,
        number,
        number,
        number | null,
        number | null,
        number,
        number,
      ]
    >(
      `INSERT INTO ingredients (name, category_id, base_unit, unit_weight_grams, density_g_per_ml, kcal_per_100g,
         solid_waste_percent, liquid_waste_percent, protein_g, fat_g, iron_mg, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const units: ("g" | "ml" | "unit")[] = [];
    const ingredientIds: number[] = [];
    for (let i = 0; i < INGREDIENTS; i++) {
      const r = rand();
      const unit = r < 0.75 ? "g" : r < 0.9 ? "ml" : "unit";
      units.push(unit);
      ingredientIds.push(
        ingredient.get(
          `Insumo ${i + 1}`,
          category,
          unit,
          unit === "unit" ? 20 + Math.round(rand() * 200) : null,
          unit === "ml" ? 0.8 + rand() * 0.5 : null,
          Math.round(rand() * 900),
          rand() < 0.5 ? Math.round(rand() * 40) : 0,
          rand() < 0.2 ? Math.round(rand() * 10) : 0,
          Math.round(rand() * 300) / 10,
          rand() < 0.7 ? Math.round(rand() * 500) / 10 : null,
          rand() < 0.4 ? Math.round(rand() * 100) / 10 : null,
          now,
          now,
        )!.id,
      );
    }
    const provider = client.prepare<{ id: number }, [string, string, number, number]>(
      "INSERT INTO providers (name, ruc, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
    );
    const providers = Array.from(
      { length: 8 },
      (_, i) => provider.get(`Proveedor ${i + 1}`, `2010000000${i}`, now, now)!.id,
    );
    const offer = client.prepare<
      { id: number },
      [number, number, number, string, number, number, number, number, number, number, number]
    >(
      `INSERT INTO offers (provider_id, ingredient_id, city_id, presentation, quantity, price_cents, price_includes_igv,
         active, price_changed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const history = client.prepare<unknown, [number, number, number, number, number]>(
      `INSERT INTO offer_price_history (offer_id, price_cents, price_includes_igv, quantity, changed_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    const limaOffers = new Map<number, number[]>();
    let changing: Catalogue["changing"] | null = null;
    ingredientIds.forEach((ingredientId, index) => {
      const unit = units[index];
      for (const cityId of [lima, arequipa, cusco]) {
        const count = cityId !== lima ? 1 : rand() < 0.01 ? 0 : 1 + Math.floor(rand() * 3);
        const chosen = [...providers].sort(() => rand() - 0.5).slice(0, count);
        for (const providerId of chosen) {
          const quantity = unit === "unit" ? pick([1, 6, 12, 30]) : pick([500, 1000, 5000, 25000, 50000]);
          const price = Math.max(1, Math.round(quantity * (unit === "unit" ? 40 : 0.2 + rand() * 3) * (0.5 + rand())));
          const igv = rand() < 0.4 ? 1 : 0;
          const active = rand() < 0.01 ? 0 : 1;
          const changedAt = now - Math.floor(rand() * 60) * 86_400_000;
          const presentation = `Presentación ${quantity}`;
          const id = offer.get(
            providerId,
            ingredientId,
            cityId,
            presentation,
            quantity,
            price,
            igv,
            active,
            changedAt,
            changedAt,
            changedAt,
          )!.id;
          history.run(id, price, igv, quantity, changedAt);
          if (cityId === lima) {
            const list = limaOffers.get(ingredientId) ?? [];
            list.push(id);
            limaOffers.set(ingredientId, list);
            if (!changing && active && unit === "g")
              changing = {
                id,
                presentation,
                quantity,
                prices: [(price / 100).toFixed(2), ((price * 0.6) / 100).toFixed(2)],
              };
          }
        }
      }
    });

    const dish = client.prepare<{ id: number }, [string, number, number]>(
      "INSERT INTO dishes (name, created_at, updated_at) VALUES (?, ?, ?) RETURNING id",
    );
    const recipe = client.prepare<{ id: number }, [number, number, number | null, number]>(
      "INSERT INTO recipes (dish_id, level_id, yield_grams, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
    );
    const line = client.prepare<unknown, [number, number, number | null, number | null, number, number | null]>(
      `INSERT INTO recipe_lines (recipe_id, position, ingredient_id, sub_dish_id, quantity, offer_id)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const recipeIds: number[] = [];
    const bases: number[] = [];
    let lineCount = 0;
    let subLines = 0;
    let pinnedLines = 0;
    for (let d = 0; d < DISHES; d++) {
      const isBase = d < BASES;
      const dishId = dish.get(`${isBase ? "Base" : "Plato"} ${d + 1}`, now, now)!.id;
      const yieldGrams = isBase && rand() < 0.5 ? 500 + Math.round(rand() * 1500) : null;
      const recipeId = recipe.get(dishId, MASTER, yieldGrams, now)!.id;
      recipeIds.push(recipeId);
      if (isBase) bases.push(dishId);
      const subs = isBase ? 0 : Math.floor(rand() * 3);
      for (let position = 1; position <= LINES; position++) {
        lineCount++;
        if (position <= subs) {
          line.run(recipeId, position, null, pick(bases), 10 + Math.round(rand() * 90), null);
          subLines++;
          continue;
        }
        const index = Math.floor(rand() * INGREDIENTS);
        const ingredientId = ingredientIds[index];
        const unit = units[index];
        const quantity = unit === "unit" ? 1 + Math.floor(rand() * 3) : Math.round((1 + rand() * 199) * 10) / 10;
        const candidates = limaOffers.get(ingredientId) ?? [];
        const pinned = candidates.length && rand() < 0.05 ? pick(candidates) : null;
        if (pinned) pinnedLines++;
        line.run(recipeId, position, ingredientId, null, quantity, pinned);
      }
    }
    catalogue = { lima, recipeIds, changing: changing!, lineCount, subLines, pinnedLines };
  })();
  return catalogue;
}

/**
 * The baseline: the same cost totals in one statement. Each current offer's cost per base unit net of IGV; the
 * cheapest per ingredient (the same order as Mesa's: cost, newest price, oldest offer); each ingredient line at its
 * pinned offer when current, else the cheapest; each recipe's direct total, unpriced lines and final product; and
 * each recipe with its sub-recipe lines added at quantity ÷ yield (or final product) of the sub-recipe's total —
 * unpriced when the sub-recipe is incomplete. Every recipe of the catalogue has one level, so a sub-recipe is the
 * sub-dish's recipe of the same level; the bases hold no sub-recipes of their own, so one level of nesting is enough.
 */
export const BARE = `
WITH costs AS MATERIALIZED (
  SELECT o.id, o.ingredient_id,
    o.price_cents * (CASE WHEN o.price_includes_igv THEN 10000.0 / (10000 + $rate) ELSE 1.0 END) / o.quantity AS unit_cost,
    ROW_NUMBER() OVER (PARTITION BY o.ingredient_id ORDER BY
      o.price_cents * (CASE WHEN o.price_includes_igv THEN 10000.0 / (10000 + $rate) ELSE 1.0 END) / o.quantity,
      o.price_changed_at DESC, o.id) AS rank
  FROM offers o WHERE o.city_id = $city AND o.active
),
lines AS (
  SELECT l.recipe_id,
    l.quantity * COALESCE(p.unit_cost, c.unit_cost) AS cents,
    l.quantity * (CASE i.base_unit WHEN 'ml' THEN i.density_g_per_ml WHEN 'unit' THEN i.unit_weight_grams ELSE 1 END)
      * (100 - i.solid_waste_percent - i.liquid_waste_percent) / 100 AS final_g
  FROM recipe_lines l JOIN ingredients i ON i.id = l.ingredient_id
  LEFT JOIN costs p ON p.id = l.offer_id AND p.ingredient_id = l.ingredient_id
  LEFT JOIN costs c ON c.ingredient_id = l.ingredient_id AND c.rank = 1
),
direct AS MATERIALIZED (
  SELECT r.id, r.dish_id, r.level_id, r.yield_grams, COALESCE(x.cents, 0) AS cents, COALESCE(x.unpriced, 0) AS unpriced,
    COALESCE(x.final_g, 0) AS final_g
  FROM recipes r LEFT JOIN (
    SELECT recipe_id, SUM(cents) AS cents, COUNT(*) - COUNT(cents) AS unpriced, SUM(final_g) AS final_g
    FROM lines GROUP BY recipe_id
  ) x ON x.recipe_id = r.id
),
subs AS (
  SELECT l.recipe_id,
    SUM(CASE WHEN s.unpriced = 0 THEN l.quantity / COALESCE(s.yield_grams, s.final_g + 0) * s.cents END) AS cents,
    SUM(CASE WHEN s.unpriced = 0 THEN 0 ELSE 1 END) AS unpriced
  FROM recipe_lines l JOIN recipes r ON r.id = l.recipe_id
  JOIN direct s ON s.dish_id = l.sub_dish_id AND s.level_id = r.level_id
  WHERE l.sub_dish_id IS NOT NULL GROUP BY l.recipe_id
)
SELECT d.id, d.cents + COALESCE(x.cents, 0) AS cents, d.unpriced + COALESCE(x.unpriced, 0) = 0 AS complete
FROM direct d LEFT JOIN subs x ON x.recipe_id = d.id`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), "mesa-bench-food-"));
  try {
    const path = join(dir, "food.sqlite");
    const config = loadConfig({ NODE_ENV: "production", DB_PATH: path, STORAGE_PATH: dir });
    const db = openDatabase(config.dbPath);
    migrateDatabase(db);
    const started = performance.now();
    const catalogue = generate(db);
    db.$client.exec("ANALYZE");
    console.log(
      `Mesa recipe costing, Bun ${Bun.version}, ${cpus().length} cores, ${cpus()[0]?.model.trim() ?? "?"}; load average before: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `catalogue: ${DISHES} dishes (${BASES} bases used as sub-recipes), ${catalogue.lineCount} lines (${catalogue.subLines} sub-recipe lines, ${catalogue.pinnedLines} pinned), ${INGREDIENTS} ingredients, generated in ${ms(performance.now() - started)}`,
    );

    const bare = db.$client.prepare<{ id: number; cents: number; complete: number }, Record<string, number>>(BARE);
    const author = { userId: null, name: "bench" };
    let flip = 0;
    /** One offer's price changes (outside the timing), as a buyer changes it on the Providers page. */
    const changeOnePrice = () => {
      const c = catalogue.changing;
      updateOffer(db, CLI_ACTOR, author, c.id, {
        presentation: c.presentation,
        quantity: c.quantity,
        price: c.prices[flip++ % 2],
        price_includes_igv: false,
      });
    };
    const opts = { cityId: catalogue.lima, igvRate: IGV };
    const runMesa = () => costRecipes(db, catalogue.recipeIds, opts);
    const runBare = () => bare.all({ city: catalogue.lima, rate: IGV });

    // Warm up both (statements prepared, pages cached), then alternate the timed runs.
    for (let i = 0; i < 2; i++) {
      runMesa();
      runBare();
    }
    const times = { mesa: [] as number[], bare: [] as number[] };
    const cpu = { mesa: [] as number[], bare: [] as number[] };
    /** Wall time and this process's CPU time (user + system) of one run, in ms. */
    const timed = (side: "mesa" | "bare", work: () => unknown) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      work();
      times[side].push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu[side].push((used.user + used.system) / 1000);
    };
    for (let i = 0; i < RUNS; i++) {
      changeOnePrice();
      timed("mesa", runMesa);
      changeOnePrice();
      timed("bare", runBare);
    }

    // The same totals: the last runs of both saw the same prices (two changes apart: the same price again).
    const mesa = runMesa();
    const rows = runBare();
    let agree = 0;
    let maxDifference = 0;
    const disagreements: string[] = [];
    for (const row of rows) {
      const costed = mesa.get(row.id)!;
      const exact = costed.lines.reduce((sum, l) => sum + (l.costCents ?? 0), 0);
      maxDifference = Math.max(maxDifference, Math.abs(exact - row.cents));
      const same = costed.totals.costCents === Math.round(row.cents) && costed.totals.complete === (row.complete === 1);
      if (same) agree++;
      else if (disagreements.length < 5)
        disagreements.push(
          `recipe ${row.id}: Mesa ${costed.totals.costCents} (${costed.totals.complete ? "complete" : "incomplete"}), SQL ${row.cents} (${row.complete ? "complete" : "incomplete"})`,
        );
    }
    const incomplete = [...mesa.values()].filter((r) => !r.totals.complete).length;

    const m = median(times.mesa);
    const b = median(times.bare);
    console.log(
      `\ncosting ${catalogue.recipeIds.length} recipes for Lima after one offer's price changed, median of ${RUNS} runs:`,
    );
    const mc = median(cpu.mesa);
    const bc = median(cpu.bare);
    console.log(`                                               wall (median, min)       CPU time (median)`);
    console.log(
      `  bare SQL aggregate (cost totals only)        ${ms(b).padStart(10)} ${ms(Math.min(...times.bare)).padStart(10)}   ${ms(bc).padStart(10)}`,
    );
    console.log(
      `  Mesa costRecipes (every figure, every line)  ${ms(m).padStart(10)} ${ms(Math.min(...times.mesa)).padStart(10)}   ${ms(mc).padStart(10)}`,
    );
    console.log(
      `  ratio Mesa / bare SQL: ${(m / b).toFixed(2)} wall, ${(mc / bc).toFixed(2)} CPU   (target: within 3×, and under 1000 ms)`,
    );
    console.log(
      `\nagreement: ${agree} of ${rows.length} recipe totals equal (rounded cents and completeness); ${incomplete} incomplete (a line without an offer in Lima); largest difference of the unrounded sums ${maxDifference.toExponential(2)} cents`,
    );
    for (const line of disagreements) console.log(`  ${line}`);
    console.log(
      `load average after: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    db.$client.close();
    check(
      rows.length === catalogue.recipeIds.length,
      `the bare SQL costs every recipe (${rows.length} of ${catalogue.recipeIds.length})`,
    );
    check(agree === rows.length, `Mesa and the bare SQL agree on every recipe total (${agree} of ${rows.length})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  finishChecks();
}

if (import.meta.main) main();
