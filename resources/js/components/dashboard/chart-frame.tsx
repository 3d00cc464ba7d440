/**
 * The frame of the dashboard's chart (its card, title, description and the table button's place) and its
 * placeholder: the chart loads with recharts after the figures, and meanwhile a skeleton of exactly the same size
 * stands in its place, so nothing below moves when it arrives. Kept apart from days-chart.tsx, which is loaded
 * lazily, so the placeholder needs no recharts.
 */
import type { ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";

/** The drawing's box: the chart and its skeleton take the same height. */
export const CHART_AREA = "h-64 w-full";

const TITLE_ID = "days-chart-title";

export function ChartFrame({
  dayCount,
  toggle,
  children,
}: {
  dayCount: number;
  /** The show-table button (the skeleton holds its place with an empty box of its size). */
  toggle: ReactNode;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <section className="rounded-xl border bg-card p-4 text-card-foreground" aria-labelledby={TITLE_ID}>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={TITLE_ID} className="font-medium">
            {t("dashboard.chart_title", { count: dayCount })}
          </h3>
          <p className="text-xs text-muted-foreground">{t("dashboard.chart_description")}</p>
        </div>
        {toggle}
      </div>
      {children}
    </section>
  );
}

/** The chart's placeholder while recharts loads: the same frame, a pulsing box where the drawing will be. */
export function ChartSkeleton({ dayCount }: { dayCount: number }) {
  const bar = "animate-pulse rounded bg-muted motion-reduce:animate-none";
  return (
    <div data-testid="days-chart-skeleton">
      <ChartFrame dayCount={dayCount} toggle={<div className={cn(bar, "h-8 w-32")} aria-hidden="true" />}>
        <div className={cn(bar, CHART_AREA)} aria-hidden="true" />
      </ChartFrame>
    </div>
  );
}
