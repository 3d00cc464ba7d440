/**
 * The dashboard's sales figures (src/domain/sales/dashboard.ts): today's meals by service type, today's and the
 * month's sales, other-unit sales and voids (apart: in no other figure), the last days as a chart with its table, and
 * the month's top subdealerships. Every amount goes through Intl in the page's language and currency.
 */
import { Ban, CalendarRange, Receipt, Repeat, Utensils } from "lucide-react";
import { lazy, Suspense, type ReactNode } from "react";
import type { DashboardFigures, PeriodFigures } from "../../../../src/shared/sales/types";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { CHART_AREA, ChartSkeleton } from "./chart-frame";
import { dayLabel, monthName } from "./dates";

// recharts is most of the page's code: it loads with the figures, not with the page.
const DaysChart = lazy(() => import("./days-chart"));

function Card({
  title,
  icon,
  children,
  testId,
  className,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  testId: string;
  className?: string;
}) {
  return (
    <section
      className={cn("rounded-xl border bg-card p-4 text-card-foreground", className)}
      aria-label={title}
      data-testid={testId}
    >
      <h3 className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <span aria-hidden="true">{icon}</span>
        {title}
      </h3>
      <div className="mt-2">{children}</div>
    </section>
  );
}

/** Two lines, today's and the month's, of a count of sales and its amount. */
function TodayAndMonth({ day, month }: { day: { sales: number; totalCents: number }; month: typeof day }) {
  const { t, money } = useI18n();
  return (
    <dl className="grid grid-cols-[max-content_1fr_max-content] items-baseline gap-x-3 gap-y-1 text-sm">
      <dt className="text-muted-foreground">{t("dashboard.today_short")}</dt>
      <dd className="tabular-nums">{t("dashboard.sales_count", { count: day.sales })}</dd>
      <dd className="text-right font-medium tabular-nums">{money(day.totalCents)}</dd>
      <dt className="text-muted-foreground">{t("dashboard.month_short")}</dt>
      <dd className="tabular-nums">{t("dashboard.sales_count", { count: month.sales })}</dd>
      <dd className="text-right font-medium tabular-nums">{money(month.totalCents)}</dd>
    </dl>
  );
}

export function Figures({ figures, reloading }: { figures: DashboardFigures; reloading: boolean }) {
  const { t, money, number, locale } = useI18n();
  const { day, month }: { day: PeriodFigures; month: PeriodFigures } = figures;
  return (
    <div className="space-y-4" aria-busy={reloading} data-testid="figures">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Card title={t("dashboard.meals_today")} icon={<Utensils className="size-4" />} testId="meals-today">
          <p className="text-3xl font-semibold tabular-nums" data-testid="meals-today-value">
            {number(day.meals)}
          </p>
          {figures.byType.length > 0 ? (
            <ul className="mt-2 space-y-1 text-sm" aria-label={t("dashboard.by_type")}>
              {figures.byType.map((row) => (
                <li key={row.type} className="flex justify-between gap-3" data-testid={`type-${row.type}`}>
                  <span className="text-muted-foreground">{t(`services.types.${row.type}`)}</span>
                  <span className="tabular-nums">{number(row.meals)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-muted-foreground">{t("dashboard.no_meals_today")}</p>
          )}
        </Card>
        <Card title={t("dashboard.revenue_today")} icon={<Receipt className="size-4" />} testId="revenue-today">
          <p className="text-3xl font-semibold tabular-nums" data-testid="revenue-today-value">
            {money(day.totalCents)}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {t("dashboard.today_of", { date: dayLabel(figures.today, locale) })} ·{" "}
            {t("dashboard.sales_count", { count: day.sales })}
          </p>
        </Card>
        <Card title={t("dashboard.revenue_month")} icon={<CalendarRange className="size-4" />} testId="revenue-month">
          <p className="text-3xl font-semibold tabular-nums" data-testid="revenue-month-value">
            {money(month.totalCents)}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {t("dashboard.month_of", { month: monthName(figures.monthStart, locale) })} ·{" "}
            {t("dashboard.meals_count", { count: month.meals })}
          </p>
        </Card>
        <div className="grid gap-4">
          <Card title={t("dashboard.other_unit")} icon={<Repeat className="size-4" />} testId="other-unit">
            <TodayAndMonth day={day.otherUnit} month={month.otherUnit} />
          </Card>
          <Card title={t("dashboard.voided")} icon={<Ban className="size-4" />} testId="voided">
            <TodayAndMonth day={day.voided} month={month.voided} />
            <p className="mt-1 text-xs text-muted-foreground">{t("dashboard.voided_hint")}</p>
          </Card>
        </div>
      </div>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Suspense fallback={<ChartSkeleton dayCount={figures.days.length} />}>
          <DaysChart days={figures.days} />
        </Suspense>
        <section
          className="rounded-xl border bg-card p-4 text-card-foreground"
          aria-labelledby="top-subdealerships-title"
          data-testid="top-subdealerships"
        >
          <h3 id="top-subdealerships-title" className="mb-3 font-medium">
            {t("dashboard.top_subdealerships")}
          </h3>
          {figures.topSubdealerships.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("dashboard.top_none")}</p>
          ) : (
            <ol className="space-y-3">
              {figures.topSubdealerships.map((row, index) => {
                const share = row.totalCents / Math.max(1, figures.topSubdealerships[0].totalCents);
                return (
                  <li key={row.id} className="text-sm">
                    <div className="flex items-baseline justify-between gap-3">
                      <span className="min-w-0">
                        <span className="sr-only">{t("dashboard.rank")} </span>
                        <span className="mr-1 text-muted-foreground tabular-nums">{index + 1}.</span>
                        <span className="font-medium">{row.name}</span>
                        <span className="block truncate text-xs text-muted-foreground">{row.dealership}</span>
                      </span>
                      <span className="shrink-0 text-right tabular-nums">
                        <span className="block font-medium">{money(row.totalCents)}</span>
                        <span className="block text-xs text-muted-foreground">
                          {t("dashboard.sales_count", { count: row.sales })}
                        </span>
                      </span>
                    </div>
                    <div className="mt-1 h-1.5 rounded-full bg-muted" aria-hidden="true">
                      <div
                        className="h-full rounded-full bg-primary"
                        style={{ width: `${Math.round(share * 100)}%` }}
                      />
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

/** What the figures look like while they load: the same blocks, empty and pulsing, so nothing moves when they come. */
export function FiguresSkeleton() {
  const { t } = useI18n();
  const block = "rounded-xl border bg-card p-4";
  const bar = "animate-pulse rounded bg-muted motion-reduce:animate-none";
  return (
    <div className="space-y-4" data-testid="figures-skeleton">
      <p role="status" className="sr-only">
        {t("dashboard.figures_loading")}
      </p>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className={cn(block, "space-y-3")}>
            <div className={cn(bar, "h-4 w-1/2")} />
            <div className={cn(bar, "h-8 w-2/3")} />
            <div className={cn(bar, "h-3 w-3/4")} />
          </div>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" aria-hidden="true">
        {/* The chart's card at the chart's own size: its title and description, then the drawing's box. */}
        <div className={block}>
          <div className="mb-3 h-10 space-y-2">
            <div className={cn(bar, "h-4 w-1/3")} />
            <div className={cn(bar, "h-3 w-1/2")} />
          </div>
          <div className={cn(bar, CHART_AREA)} />
        </div>
        <div className={cn(block, "space-y-3")}>
          <div className={cn(bar, "h-4 w-2/3")} />
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className={cn(bar, "h-6 w-full")} />
          ))}
        </div>
      </div>
    </div>
  );
}
