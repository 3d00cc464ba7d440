/**
 * The price-changes view (what-if over time): pick a period, a city and a level (or all), and see the dishes whose
 * cost per serving moved because offers changed — old and new cost, the difference in soles and percent, and the
 * offers that changed under each — largest moves first; each dish's cost over time opens as a chart with its table.
 * The figures come from the server (src/domain/food/price-changes.ts), as a deferred prop of the Food page.
 *
 *     <PriceChanges data={priceChanges} filters={priceChangeFilters} cities={cityOptions} levels={levels} />
 */
import { AlertTriangle, Download, LineChart as ChartIcon } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import type {
  PriceChangeFilters,
  PriceChangeRow,
  PriceChanges as PriceChangesData,
} from "../../../../src/shared/food/types";
import type { DishHistoryAnswer } from "../../../../src/shared/food/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Table, td, visitWith } from "../data-table";
import { requestJson } from "../../lib/json-client";
import { buttonClasses, IconButton } from "../ui/button";
import { DateField } from "../ui/date-picker";
import { Dialog } from "../ui/dialog";
import { SelectField } from "../ui/select-field";

export type { PriceChangeFilters, PriceChangesData };

const PriceChangesChart = lazy(() => import("./price-changes-chart"));

export interface PriceChangesProps {
  /** The figures: undefined while the deferred prop loads, null when there is no city to cost in. */
  data: PriceChangesData | null | undefined;
  filters: PriceChangeFilters;
  cities: { id: number; name: string }[];
  levels: { id: number; name: string }[];
}

/** The props a change of filters reloads. */
const RELOADED = ["priceChanges", "priceChangeFilters"];

export function PriceChanges({ data, filters, cities, levels }: PriceChangesProps) {
  const { t, money, number, levelName } = useI18n();
  const route = useRoute();
  const [history, setHistory] = useState<PriceChangeRow | null>(null);
  const change = (key: "from" | "to" | "city" | "level", value: string) =>
    visitWith({ [key]: value || null }, RELOADED);
  const cityName = cities.find((c) => c.id === filters.cityId)?.name ?? "";
  const percent = (value: number | null) =>
    value === null ? "—" : `${value > 0 ? "+" : ""}${number(Math.round(value * 10) / 10, 1)} %`;
  const signed = (cents: number) => `${cents > 0 ? "+" : cents < 0 ? "−" : ""}${money(Math.abs(cents))}`;
  return (
    <section className="space-y-4" aria-labelledby="price-changes-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-3xl space-y-1">
          <h2 id="price-changes-title" className="text-lg font-semibold">
            {t("foodCatalogue.price_changes.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("foodCatalogue.price_changes.intro")}</p>
        </div>
        <a
          href={route("food.price_changes.export", {
            from: filters.from,
            to: filters.to,
            city: filters.cityId,
            level: filters.levelId,
          })}
          download
          className={buttonClasses("outline")}
        >
          <Download className="size-4" aria-hidden="true" />
          {t("foodCatalogue.price_changes.export")}
        </a>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <DateField
          className="w-44"
          label={t("foodCatalogue.price_changes.from")}
          value={filters.from}
          max={filters.to}
          onChange={(value) => value && change("from", value)}
        />
        <DateField
          className="w-44"
          label={t("foodCatalogue.price_changes.to")}
          value={filters.to}
          min={filters.from}
          onChange={(value) => value && change("to", value)}
        />
        <SelectField
          searchable
          className="min-w-40"
          label={t("foodCatalogue.price_changes.city")}
          value={filters.cityId ? String(filters.cityId) : ""}
          onValueChange={(value) => change("city", value)}
          options={cities.map((c) => ({ value: String(c.id), label: c.name }))}
        />
        <SelectField
          className="min-w-40"
          label={t("foodCatalogue.price_changes.level")}
          value={filters.levelId ? String(filters.levelId) : ""}
          onValueChange={(value) => change("level", value)}
          options={[
            { value: "", label: t("foodCatalogue.price_changes.all_levels") },
            ...levels.map((l) => ({ value: String(l.id), label: levelName(l.name) })),
          ]}
        />
      </div>
      {data === undefined ? (
        <p className="text-sm text-muted-foreground" role="status">
          {t("foodCatalogue.price_changes.loading")}
        </p>
      ) : data === null ? (
        <p className="text-sm text-muted-foreground">{t("foodCatalogue.price_changes.no_city")}</p>
      ) : (
        <>
          <p className="text-sm" role="status" data-testid="price-changes-summary">
            {t("foodCatalogue.price_changes.summary", {
              offers: data.changedOffers,
              dishes: data.rows.length,
              checked: data.recipesChecked,
            })}
          </p>
          <Table
            caption={t("foodCatalogue.price_changes.title")}
            headers={[
              t("foodCatalogue.price_changes.dish"),
              t("foodCatalogue.price_changes.level_column"),
              t("foodCatalogue.price_changes.before"),
              t("foodCatalogue.price_changes.after"),
              t("foodCatalogue.price_changes.difference"),
              t("foodCatalogue.price_changes.offers"),
              t("foodCatalogue.price_changes.history"),
            ]}
            actions
            empty={data.rows.length === 0 ? t("foodCatalogue.price_changes.none") : null}
          >
            {data.rows.map((row) => (
              <tr key={row.recipeId} data-testid="price-change-row">
                <td className={`${td} font-medium`}>{row.dishName}</td>
                <td className={td}>{levelName(row.levelName)}</td>
                <td className={`${td} tabular-nums`}>
                  <Cost cents={row.beforeCents} complete={row.completeBefore} />
                </td>
                <td className={`${td} tabular-nums`}>
                  <Cost cents={row.afterCents} complete={row.completeAfter} />
                </td>
                <td className={`${td} whitespace-nowrap tabular-nums`}>
                  {signed(row.differenceCents)} <span className="text-muted-foreground">({percent(row.percent)})</span>
                </td>
                <td className={td}>
                  <OfferChanges row={row} />
                </td>
                <td className={td}>
                  <IconButton
                    label={t("foodCatalogue.price_changes.history_of", {
                      dish: row.dishName,
                      level: levelName(row.levelName),
                    })}
                    onClick={() => setHistory(row)}
                  >
                    <ChartIcon className="size-4" aria-hidden="true" />
                  </IconButton>
                </td>
              </tr>
            ))}
          </Table>
        </>
      )}
      {history && filters.cityId !== null && (
        <HistoryDialog row={history} filters={filters} cityName={cityName} onClose={() => setHistory(null)} />
      )}
    </section>
  );
}

/** A cost per serving, flagged when a line had no offer then. */
function Cost({ cents, complete }: { cents: number; complete: boolean }) {
  const { t, money } = useI18n();
  if (complete) return <>{money(cents)}</>;
  return (
    <span className="inline-flex items-center gap-1" title={t("foodCatalogue.price_changes.incomplete")}>
      {money(cents)}
      <AlertTriangle className="size-3.5 text-destructive" aria-hidden="true" />
      <span className="sr-only">{t("foodCatalogue.price_changes.incomplete")}</span>
    </span>
  );
}

/** The offers that changed under a dish: ingredient, provider and presentation, old → new cost per kg, l or unit. */
function OfferChanges({ row }: { row: PriceChangeRow }) {
  const { t, money } = useI18n();
  const cost = (offer: PriceChangeRow["offers"][number]["before"]) =>
    offer ? money(offer.costPerReferenceCents) : t("foodCatalogue.price_changes.no_offer");
  return (
    <ul className="space-y-0.5 text-xs">
      {row.offers.map((change) => {
        const offer = change.after ?? change.before;
        return (
          <li key={change.ingredientId}>
            <span className="font-medium">{change.ingredientName}</span>
            {offer && (
              <span className="text-muted-foreground">
                {" "}
                · {offer.providerName}, {offer.presentation}
              </span>
            )}
            {": "}
            <span className="whitespace-nowrap tabular-nums">
              {cost(change.before)} → {cost(change.after)} {t(`food.per_reference.${change.unit}`)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** A dish's cost over time for the view's period, city and its level, read when opened. */
function HistoryDialog({
  row,
  filters,
  cityName,
  onClose,
}: {
  row: PriceChangeRow;
  filters: PriceChangeFilters;
  cityName: string;
  onClose: () => void;
}) {
  const { t, levelName } = useI18n();
  const route = useRoute();
  const [answer, setAnswer] = useState<DishHistoryAnswer | "failed" | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    const url = route("food.price_changes.history", {
      dish: row.dishId,
      level: row.levelId,
      city: filters.cityId,
      from: filters.from,
      to: filters.to,
    });
    requestJson<DishHistoryAnswer>("GET", url, undefined, { signal: abort.signal })
      .then(({ status, body }) => setAnswer(status === 200 && body ? body : "failed"))
      .catch(() => {
        if (!abort.signal.aborted) setAnswer("failed");
      });
    return () => abort.abort();
  }, [route, row.dishId, row.levelId, filters.cityId, filters.from, filters.to]);
  const title = t("foodCatalogue.price_changes.history_title", {
    dish: row.dishName,
    level: levelName(row.levelName),
  });
  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={title}
      description={t("foodCatalogue.price_changes.history_description", { city: cityName })}
      closeLabel={t("foodCatalogue.close")}
    >
      {answer === null ? (
        <p className="text-sm text-muted-foreground" role="status">
          {t("foodCatalogue.price_changes.loading")}
        </p>
      ) : answer === "failed" ? (
        <p role="alert" className="text-sm text-destructive">
          {t("foodCatalogue.price_changes.history_failed")}
        </p>
      ) : (
        <Suspense
          fallback={
            <p className="text-sm text-muted-foreground" role="status">
              {t("foodCatalogue.price_changes.loading")}
            </p>
          }
        >
          <PriceChangesChart
            points={answer.points}
            end={answer.end}
            caption={t("foodCatalogue.price_changes.history_table")}
          />
        </Suspense>
      )}
    </Dialog>
  );
}
