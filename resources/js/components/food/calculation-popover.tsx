/**
 * The calculation popover of a recipe line: how its figures follow from its gross quantity — gross weight, solid
 * and liquid waste, final product, kcal, the nutrients known, its cost with the offer it was priced at, and each
 * figure's share of the dish. The figures are the server's (recipe-cost.ts), never worked out here.
 */
import { NUTRIENTS } from "../../../../src/shared/food/composition";
import { Popover } from "../ui/popover";
import type { CostedLine } from "./dish-types";
import { useFoodWords } from "./use-food-words";

const unitOf = (key: string) => NUTRIENTS.find((n) => n.key === key)?.unit ?? "";

export function CalculationPopover({
  anchor,
  line,
  number: lineNumber,
  onClose,
}: {
  anchor: HTMLElement;
  line: CostedLine;
  number: number;
  onClose: () => void;
}) {
  const { t, money, number } = useFoodWords();
  const tenths = (value: number) => number(Math.round(value * 10) / 10);
  const grams = (value: number) => `${tenths(value)} g`;
  const share = (value: number | null) => (value === null ? "—" : `${number(value * 100, 1)} %`);
  const rows: [string, string, string][] = [
    [t("food.recipes.gross"), grams(line.grossG), share(line.shares.grossG)],
    [t("food.recipes.solid_waste"), grams(line.solidWasteG), ""],
    [t("food.recipes.liquid_waste"), grams(line.liquidWasteG), ""],
    [t("food.recipes.final"), grams(line.finalG), share(line.shares.finalG)],
    [t("food.recipes.kcal"), tenths(line.kcal), share(line.shares.kcal)],
    [t("food.recipes.cost"), line.costCents === null ? "—" : money(line.costCents), share(line.shares.costCents)],
  ];
  const nutrients = NUTRIENTS.flatMap(({ key }) => {
    const value = line.nutrients[key];
    return value === null ? [] : [[key, value] as const];
  });
  return (
    <Popover
      anchor={anchor}
      title={t("food.recipes.calculation_of", { name: line.name })}
      closeLabel={t("food.close")}
      onClose={onClose}
    >
      <div className="space-y-3 text-sm" data-testid={`calculation-${lineNumber}`}>
        <p className="text-xs text-muted-foreground">
          {`${number(line.quantity)} ${t(`food.units_short.${line.unit}`)}`}
        </p>
        <table className="w-full tabular-nums">
          <caption className="sr-only">{t("food.recipes.calculation", { number: lineNumber })}</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">{t("food.recipes.title")}</th>
              <th scope="col">{t("food.recipes.quantity")}</th>
              <th scope="col">{t("food.recipes.share")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, value, part]) => (
              <tr key={label} className="border-b last:border-b-0">
                <th scope="row" className="py-1 text-left font-normal text-muted-foreground">
                  {label}
                </th>
                <td className="py-1 text-right">{value}</td>
                <td className="w-16 py-1 text-right text-xs text-muted-foreground">{part}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {line.offer && (
          <p className="text-xs">
            {t("food.recipes.offer_used", {
              provider: line.offer.providerName,
              presentation: line.offer.presentation,
              cost: `${money(line.offer.costPerReferenceCents)} ${t(`food.per_reference.${line.unit}`)}`,
            })}
            {line.offer.pinned ? ` · ${t("food.recipes.offer_pinned")}` : ""}
          </p>
        )}
        {line.problem && (
          <p role="status" className="text-xs font-medium text-amber-700 dark:text-amber-400">
            {t(`food.recipes.${line.problem}`)}
          </p>
        )}
        {nutrients.length > 0 && (
          <details>
            <summary className="cursor-pointer text-xs font-medium">{t("food.recipes.nutrients")}</summary>
            <dl className="mt-1 grid grid-cols-2 gap-x-3 text-xs tabular-nums">
              {nutrients.map(([key, value]) => (
                <div key={key} className="flex justify-between gap-2">
                  <dt className="text-muted-foreground">{t(`food.nutrients.${key}`)}</dt>
                  <dd>{`${number(value, 2)} ${unitOf(key)}`}</dd>
                </div>
              ))}
            </dl>
          </details>
        )}
      </div>
    </Popover>
  );
}
