/**
 * `./mesa dish:cost DISH [--level L] [--city C] [--json]`: the breakdown the calculation popover shows, from the same
 * calculation (costDish, src/domain/food/recipe-cost.ts): per line and for the dish, the gross weight, the solid and
 * liquid waste, the final product, kcal, the nutrients, the cost and each figure's share of the dish, with the offer
 * each line is costed at and what is wrong with a line (no offer in the city, a pinned offer not available, a
 * sub-recipe missing or inside itself).
 *
 * DISH, L and C are each an id or a name (case, accents and spacing ignored; a name may also be part of exactly one
 * dish's, level's or city's name). Defaults: the dish's first level by sort order that it has a recipe for; the city
 * where most of the recipe's ingredients (sub-recipes included) have a current offer, the first by name on a tie, so
 * the breakdown prices as much as it can. Prices net of IGV at the IGV_RATE setting. Without --json, a table in the
 * configured language; line costs are shown rounded to the cent, the total is their exact sum rounded once.
 */
import type { Command } from "commander";
import type { Config } from "../../src/config";
import type { Db } from "../../src/db";
import { formatMoney } from "../../src/shared/money";
import { FOLD_FUNCTION, foldText, likePattern } from "../../src/domain/search";
import { NUTRIENTS } from "../../src/shared/food/composition";
import {
  costDish,
  ingredientNeeds,
  NUTRIENT_KEYS,
  type CostedLine,
  type CostedRecipe,
} from "../../src/domain/food/recipe-cost";
import { intlLocale, translate, type Translate } from "../../src/shared/i18n";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { table } from "../output";

interface Named {
  id: number;
  name: string;
}

const TABLES = { dish: "dishes", level: "levels", city: "cities" } as const;
type Kind = keyof typeof TABLES;

/**
 * The row of `kind` that `given` names: an id; else the one whose name matches whatever its case, accents and
 * spacing; else the only one whose name contains it. Null when none matches; a usage error when several do.
 */
function find(db: Db, kind: Kind, given: string, t: Translate, where = "1"): Named | null {
  const from = `FROM ${TABLES[kind]} WHERE ${where}`;
  if (/^\d+$/.test(given.trim())) {
    const row = db.$client.query<Named, [number]>(`SELECT id, name ${from} AND id = ?`).get(Number(given));
    if (row) return row;
  }
  const folded = foldText(given.trim().replace(/\s+/g, " "));
  if (!folded) return null;
  const exact = db.$client
    .query<Named, [string]>(`SELECT id, name ${from} AND trim(${FOLD_FUNCTION}(name)) = ? ORDER BY id LIMIT 1`)
    .get(folded);
  if (exact) return exact;
  const like = likePattern(folded);
  const partial = db.$client
    .query<Named, [string]>(
      `SELECT id, name ${from} AND ${FOLD_FUNCTION}(name) LIKE ? ESCAPE '\\' ORDER BY name LIMIT 6`,
    )
    .all(like);
  if (partial.length === 1) return partial[0];
  if (partial.length > 1)
    throw new CliError(
      t(`foodCost.cli.ambiguous_${kind}`, {
        given,
        names: partial
          .slice(0, 5)
          .map((r) => `${r.name} (${r.id})`)
          .join(", "),
      }),
      2,
    );
  return null;
}

/** The city where most of the recipe's ingredients have a current offer (the first by name on a tie). */
function bestCity(db: Db, recipeId: number): Named | null {
  const needs = ingredientNeeds(db, [recipeId], { cityId: 0, igvRate: 0 }).get(recipeId) ?? [];
  const ingredients = JSON.stringify([...new Set(needs.map((n) => n.ingredientId))]);
  return db.$client
    .query<Named, [string]>(
      `SELECT c.id, c.name FROM cities c
       LEFT JOIN offers o ON o.city_id = c.id AND o.active AND o.ingredient_id IN (SELECT value FROM json_each(?))
       GROUP BY c.id ORDER BY COUNT(DISTINCT o.ingredient_id) DESC, c.name, c.id LIMIT 1`,
    )
    .get(ingredients);
}

export interface DishCostReport extends CostedRecipe {
  dish: Named;
  level: Named;
  city: Named;
  /** The IGV rate the offers' prices were netted with, in basis points. */
  igvRate: number;
}

/** The dish, level and city named (or their defaults) and the recipe costed there. */
export function dishCostReport(
  db: Db,
  config: Config,
  given: { dish: string; level?: string; city?: string },
  t: Translate,
): DishCostReport {
  const dish = find(db, "dish", given.dish, t);
  if (!dish) throw new CliError(t("foodCost.cli.no_dish", { given: given.dish }), 2);
  let level: Named | null = null;
  if (given.level !== undefined) {
    level = find(db, "level", given.level, t);
    if (!level) throw new CliError(t("foodCost.cli.no_level", { given: given.level }), 2);
  } else {
    level = db.$client
      .query<Named, [number]>(
        `SELECT v.id, v.name FROM recipes r JOIN levels v ON v.id = r.level_id WHERE r.dish_id = ?
         ORDER BY v.sort_order, v.id LIMIT 1`,
      )
      .get(dish.id);
    if (!level) throw new CliError(t("foodCost.cli.no_recipes", { dish: dish.name }), 1);
  }
  const recipe = db.$client
    .query<{ id: number }, [number, number]>("SELECT id FROM recipes WHERE dish_id = ? AND level_id = ?")
    .get(dish.id, level.id);
  if (!recipe) throw new CliError(t("foodCost.cli.no_recipe", { dish: dish.name, level: level.name }), 1);
  let city: Named | null;
  if (given.city !== undefined) {
    city = find(db, "city", given.city, t);
    if (!city) throw new CliError(t("foodCost.cli.no_city", { given: given.city }), 2);
  } else {
    city = bestCity(db, recipe.id);
    if (!city) throw new CliError(t("foodCost.cli.no_cities"), 1);
  }
  const igvRate = config.igvRateBasisPoints;
  const costed = costDish(db, dish.id, { cityId: city.id, levelId: level.id, igvRate });
  if (!costed) throw new CliError(t("foodCost.cli.no_recipe", { dish: dish.name, level: level.name }), 1);
  return { dish, level, city, igvRate, ...costed };
}

/** The breakdown as a person reads it: the lines, the dish's totals, its nutrients and what is missing. */
export function describeDishCost(report: DishCostReport, config: Config): string {
  const t: Translate = (key, params) => translate(config.locale, key, params);
  const intl = intlLocale[config.locale];
  const decimals = (digits: number) =>
    new Intl.NumberFormat(intl, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const one = decimals(1);
  const two = decimals(2);

  const percent = new Intl.NumberFormat(intl, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const cost = (cents: number | null) =>
    cents === null ? "—" : formatMoney(Math.round(cents), config.locale, config.currency);

  const quantity = (line: CostedLine) =>
    `${line.unit === "unit" ? two.format(line.quantity) : one.format(line.quantity)} ${t(`foodCost.units.${line.unit}`)}`;
  const note = (line: CostedLine) => {
    const parts: string[] = [];
    if (line.kind === "dish") parts.push(t("foodCost.cli.sub_recipe"));
    if (line.offer)
      parts.push(
        `${line.offer.providerName}, ${line.offer.presentation}${line.offer.pinned ? ` (${t("foodCost.cli.pinned")})` : ""}`,
      );
    if (line.problem) parts.push(t(`foodCost.problems.${line.problem}`));
    return parts.join("; ");
  };
  const rows = report.lines.map((line, index) => [
    String(index + 1),
    line.name,
    quantity(line),
    one.format(line.grossG),
    one.format(line.solidWasteG),
    one.format(line.liquidWasteG),
    one.format(line.finalG),
    one.format(line.kcal),
    cost(line.costCents),
    line.shares.costCents === null ? "—" : percent.format(line.shares.costCents),
    note(line),
  ]);
  const totals = report.totals;
  rows.push([
    "",
    t("foodCost.cli.total"),
    "",
    one.format(totals.grossG),
    one.format(totals.solidWasteG),
    one.format(totals.liquidWasteG),
    one.format(totals.finalG),
    one.format(totals.kcal),
    cost(totals.costCents),
    "",
    totals.complete ? "" : t("foodCost.cli.incomplete"),
  ]);
  const headers = [
    "#",
    t("foodCost.columns.line"),
    t("foodCost.columns.quantity"),
    t("foodCost.columns.gross"),
    t("foodCost.columns.solid_waste"),
    t("foodCost.columns.liquid_waste"),
    t("foodCost.columns.final"),
    t("foodCost.columns.kcal"),
    t("foodCost.columns.cost"),
    t("foodCost.columns.cost_share"),
    t("foodCost.columns.offer"),
  ];

  const nutrientRows = NUTRIENT_KEYS.flatMap((key) => {
    const value = totals.nutrients[key];
    const unit = NUTRIENTS.find((n) => n.key === key)!.unit;
    return value === null ? [] : [[t(`food.nutrients.${key}`), `${two.format(value)} ${unit}`]];
  });
  const unknown = NUTRIENT_KEYS.filter((key) => totals.nutrients[key] === null).map((key) =>
    t(`food.nutrients.${key}`),
  );
  const unpriced = report.lines.filter((l) => l.costCents === null).length;

  const out = [
    t("foodCost.cli.heading", { dish: report.dish.name, level: report.level.name, city: report.city.name }),
    "",
    table(headers, rows),
    "",
    t("foodCost.cli.yield", { grams: one.format(report.yieldG) }),
    t("foodCost.cli.cost", {
      cost: cost(totals.costCents),
      rate: new Intl.NumberFormat(intl, { maximumFractionDigits: 2 }).format(report.igvRate / 100),
    }),
  ];
  if (unpriced) out.push(t("foodCost.cli.unpriced", { count: unpriced, city: report.city.name }));
  out.push(
    "",
    t("foodCost.cli.nutrients"),
    table([t("foodCost.columns.nutrient"), t("foodCost.columns.amount")], nutrientRows),
  );
  if (unknown.length) out.push(t("foodCost.cli.nutrients_unknown", { names: unknown.join(", ") }));
  return out.join("\n");
}

export function dishCostCommand(
  dish: string,
  options: { level?: string; city?: string; json?: boolean },
  print: (text: string) => void = (text) => console.log(text),
): void {
  const config = cliConfig();
  const t: Translate = (key, params) => translate(config.locale, key, params);
  const db = cliDatabase(config);
  const report = dishCostReport(db, config, { dish, level: options.level, city: options.city }, t);
  print(options.json ? JSON.stringify(report, null, 2) : describeDishCost(report, config));
}

export function registerDishCommands(program: Command): void {
  program
    .command("dish:cost")
    .description(
      "Print a dish's recipe costed for a city: per line and for the dish, weights, wastes, kcal, nutrients, cost and shares",
    )
    .argument("<dish>", "the dish, by id or name")
    .option("--level <level>", "the level, by id or name (default: the dish's first level with a recipe)")
    .option("--city <city>", "the city, by id or name (default: where most of its ingredients have an offer)")
    .option("--json", "print the breakdown as JSON")
    .action((dish: string, options: { level?: string; city?: string; json?: boolean }) =>
      dishCostCommand(dish, options),
    );
}
