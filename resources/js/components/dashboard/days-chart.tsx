/**
 * The last days as a chart — meals as bars, the amount as a line, on two scales — drawn with recharts in the theme's
 * colours (resources/css/app.css), so it reads in the light and the dark theme alike. The same figures are a table:
 * always there for screen readers (the chart itself is hidden from them), shown to everyone with one button.
 */
import { useState } from "react";
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { CHART_AREA, ChartFrame } from "./chart-frame";
import { dayLabel } from "./dates";

export interface ChartDay {
  date: string;
  meals: number;
  totalCents: number;
}

const TICK = { fill: "var(--color-muted-foreground)", fontSize: 12 };

/** The default export, so that the page loads the chart (and recharts) only once there are figures to draw. */
export default function DaysChart({ days }: { days: ChartDay[] }) {
  const { t, locale, money, number } = useI18n();
  const [asTable, setAsTable] = useState(false);
  const data = days.map((d) => ({ ...d, label: dayLabel(d.date, locale), soles: d.totalCents / 100 }));
  return (
    <ChartFrame
      dayCount={days.length}
      toggle={
        <Button variant="outline" size="sm" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
          {asTable ? t("dashboard.chart_hide_table") : t("dashboard.chart_show_table")}
        </Button>
      }
    >
      {!asTable && (
        <div className={CHART_AREA} aria-hidden="true" data-testid="days-chart">
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: 4 }} accessibilityLayer={false}>
              <CartesianGrid stroke="var(--color-border)" vertical={false} />
              <XAxis
                dataKey="label"
                tick={TICK}
                tickLine={false}
                axisLine={{ stroke: "var(--color-border)" }}
                interval="preserveStartEnd"
                minTickGap={12}
              />
              <YAxis
                yAxisId="meals"
                tick={TICK}
                tickLine={false}
                axisLine={false}
                allowDecimals={false}
                width={40}
                tickFormatter={(v: number) => number(v)}
              />
              <YAxis
                yAxisId="soles"
                orientation="right"
                tick={TICK}
                tickLine={false}
                axisLine={false}
                width={64}
                tickFormatter={(v: number) => number(v)}
              />
              <Tooltip
                cursor={{ fill: "var(--color-muted)" }}
                contentStyle={{
                  background: "var(--color-card)",
                  border: "1px solid var(--color-border)",
                  borderRadius: 8,
                  color: "var(--color-card-foreground)",
                }}
                labelStyle={{ color: "var(--color-card-foreground)" }}
                formatter={(value, name) =>
                  name === "soles"
                    ? [money(Math.round(Number(value) * 100)), t("dashboard.amount")]
                    : [number(Number(value)), t("dashboard.meals")]
                }
              />
              <Bar yAxisId="meals" dataKey="meals" fill="var(--color-primary)" radius={[3, 3, 0, 0]} />
              {/* Straight segments from day to day: a curve would bulge above or below the days' real totals. */}
              <Line
                yAxisId="soles"
                dataKey="soles"
                type="linear"
                stroke="var(--color-success)"
                strokeWidth={2}
                dot={{ r: 2, fill: "var(--color-success)", strokeWidth: 0 }}
                activeDot={{ r: 4 }}
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
      <div className={cn(!asTable && "sr-only")}>
        <table className="w-full text-sm" data-testid="days-table">
          <caption className="sr-only">{t("dashboard.chart_table")}</caption>
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                {t("dashboard.date")}
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                {t("dashboard.meals")}
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                {t("dashboard.amount")}
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date} className="border-b last:border-0">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                  {dayLabel(d.date, locale)}
                </th>
                <td className="py-1.5 pr-3 text-right tabular-nums">{number(d.meals)}</td>
                <td className="py-1.5 text-right tabular-nums">{money(d.totalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ChartFrame>
  );
}
