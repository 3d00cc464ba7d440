/**
 * A dish's cost per serving over time, drawn with recharts as a step line (a cost holds until the next price change)
 * in the theme's colours, so it reads in the light and the dark theme alike. The same points are a table: always
 * there for screen readers (the chart itself is hidden from them), shown to everyone with one button.
 * The default export, so that the view loads recharts only when a dish's history is opened.
 */
import { useState } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CostPoint } from "../../../../src/shared/food/types";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";

const TICK = { fill: "var(--color-muted-foreground)", fontSize: 12 };

export default function PriceChangesChart({
  points,
  end,
  caption,
}: {
  points: CostPoint[];
  /** The period's last moment (ISO): the line runs on to it. */
  end: string;
  caption: string;
}) {
  const { t, money, date, dateTime } = useI18n();
  const [asTable, setAsTable] = useState(false);
  const last = points.at(-1);
  const data = [
    ...points.map((p) => ({ time: Date.parse(p.at), soles: p.costCents / 100 })),
    ...(last ? [{ time: Date.parse(end), soles: last.costCents / 100 }] : []),
  ];
  return (
    <div className="space-y-3">
      <div className="flex justify-end">
        <Button variant="outline" size="sm" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
          {asTable ? t("foodCatalogue.price_changes.hide_table") : t("foodCatalogue.price_changes.show_table")}
        </Button>
      </div>
      {!asTable && (
        <div className="h-56 w-full" aria-hidden="true" data-testid="price-history-chart">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 4 }} accessibilityLayer={false}>
              <CartesianGrid stroke="var(--color-border)" vertical={false} />
              <XAxis
                dataKey="time"
                type="number"
                scale="time"
                domain={["dataMin", "dataMax"]}
                tick={TICK}
                tickLine={false}
                axisLine={{ stroke: "var(--color-border)" }}
                tickFormatter={(v: number) => date(v)}
                minTickGap={24}
              />
              <YAxis
                tick={TICK}
                tickLine={false}
                axisLine={false}
                width={72}
                domain={["auto", "auto"]}
                tickFormatter={(v: number) => money(Math.round(v * 100))}
              />
              <Tooltip
                contentStyle={{
                  background: "var(--color-card)",
                  border: "1px solid var(--color-border)",
                  borderRadius: 8,
                  color: "var(--color-card-foreground)",
                }}
                labelStyle={{ color: "var(--color-card-foreground)" }}
                labelFormatter={(v) => dateTime(Number(v))}
                formatter={(value) => [money(Math.round(Number(value) * 100)), t("foodCatalogue.price_changes.cost")]}
              />
              <Line
                dataKey="soles"
                type="stepAfter"
                stroke="var(--color-primary)"
                strokeWidth={2}
                dot={{ r: 3, fill: "var(--color-primary)" }}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
      <div className={cn(!asTable && "sr-only")}>
        <table className="w-full text-sm" data-testid="price-history-table">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                {t("foodCatalogue.price_changes.date")}
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                {t("foodCatalogue.price_changes.cost")}
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.at} className="border-b last:border-0">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                  {dateTime(p.at)}
                </th>
                <td className="py-1.5 text-right tabular-nums">
                  {money(p.costCents)}
                  {!p.complete && (
                    <span className="ml-1 text-xs text-muted-foreground">
                      ({t("foodCatalogue.price_changes.incomplete_short")})
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
