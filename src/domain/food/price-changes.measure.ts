/**
 * Measures the price-changes view (not a test): the costing benchmark's catalogue (bench/food.ts: 2,000 dishes of 15
 * lines, some sub-recipes) in a SQLite file, its prices dated two months back; then, in turn, one offer's price changes, and forty offers' prices
 * change; each time `priceChanges` for the last 30 days in Lima (every level) is timed, with how many recipes it
 * costed and how many moved, and `dishCostHistory` of one moved dish. Run:
 * `node_modules/.bin/bun src/domain/food/price-changes.measure.ts [runs]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../../../bench/food";
import { migrateDatabase, openDatabase } from "../../db";
import { CLI_ACTOR } from "../audit";
import { updateOffer } from "./offers";
import { dishCostHistory, priceChanges } from "./price-changes";

const RUNS = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), "mesa-price-changes-"));
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const db = openDatabase(join(dir, "food.sqlite"));
  migrateDatabase(db);
  const catalogue = generate(db);
  // The catalogue's prices were set two months ago: only the changes below fall in the last 30 days.
  const back = 60 * 86_400_000;
  db.$client.run("UPDATE offer_price_history SET changed_at = changed_at - ?", [back]);
  db.$client.run(
    "UPDATE offers SET created_at = created_at - ?1, updated_at = updated_at - ?1, price_changed_at = price_changed_at - ?1",
    [back],
  );
  db.$client.exec("ANALYZE");
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}; ${catalogue.recipeIds.length} recipes, ${catalogue.lineCount} lines`,
  );
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const query = { from, to: today, cityId: catalogue.lima, igvRate: 1800 };
  const author = { userId: null, name: "measure" };
  const changeOffer = (id: number, factor: number) => {
    const offer = db.$client
      .query<{ presentation: string; quantity: number; price_cents: number }, [number]>(
        "SELECT presentation, quantity, price_cents FROM offers WHERE id = ?",
      )
      .get(id)!;
    updateOffer(db, CLI_ACTOR, author, id, {
      presentation: offer.presentation,
      quantity: offer.quantity,
      price: ((offer.price_cents * factor) / 100).toFixed(2),
      price_includes_igv: false,
    });
  };
  const time = (label: string) => {
    const times: number[] = [];
    let found = priceChanges(db, query);
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      found = priceChanges(db, query);
      times.push(performance.now() - t0);
    }
    console.log(
      `${label}: ${found.changedOffers} offers changed, ${found.recipesChecked} recipes costed twice, ${found.rows.length} moved; median ${ms(median(times))} of ${RUNS} (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})`,
    );
    const moved = found.rows[0];
    if (moved) {
      const t0 = performance.now();
      const points = dishCostHistory(db, moved.dishId, { ...query, levelId: moved.levelId });
      console.log(`  dishCostHistory of ${moved.dishName}: ${points.length} points in ${ms(performance.now() - t0)}`);
    }
  };
  changeOffer(catalogue.changing.id, 1.2);
  time("one offer");
  const more = db.$client
    .query<{ id: number }, [number]>("SELECT id FROM offers WHERE city_id = ? AND active ORDER BY id LIMIT 40")
    .all(catalogue.lima);
  for (const { id } of more) changeOffer(id, 1.1);
  time(`${more.length} more offers`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
