/**
 * Logistics: each headquarters as the logistics centre of its city, chosen one at a time, with the cheapest current
 * offer of each ingredient there (searched, paged, exported), and the New-ingredient and New-provider dialogs.
 */
import { Link } from "@inertiajs/react";
import { History, Warehouse } from "lucide-react";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { useFoodModals } from "../../components/food/food-dialogs";
import { actionsColumn, FoodListPage } from "../../components/food/food-list-page";
import type { FoodDialogProps, LogisticsCentre, StockedIngredient } from "../../components/food/types";
import { useFoodWords } from "../../components/food/use-food-words";
import { IconButton } from "../../components/ui/button";
import { cn } from "../../lib/utils";
import { useRoute } from "../../hooks/use-route";

interface Props extends FoodDialogProps {
  filters: { centre: number | null; search: string };
  centres: LogisticsCentre[];
  /** What the chosen centre stocks; null when it has no city. */
  stock: Page<StockedIngredient> | null;
}

export default function LogisticsIndex({ filters, centres, stock, ...dialog }: Props) {
  const { t, money, quantity, cost, date } = useFoodWords();
  const route = useRoute();
  const modals = useFoodModals();
  const centre = centres.find((c) => c.id === filters.centre) ?? null;
  const exportUrl = route("logistics.export", {
    ...(centre ? { centre: centre.id } : {}),
    ...(filters.search ? { search: filters.search } : {}),
  });

  const columns: DataColumn<StockedIngredient>[] = [
    { id: "ingredient", header: t("food.offers.ingredient"), primary: true, cell: (r) => r.ingredientName },
    { id: "category", header: t("food.logistics.category"), cell: (r) => r.categoryName },
    {
      id: "provider",
      header: t("food.offers.provider"),
      cell: (r) => r.offer.providerName,
      title: (r) => r.offer.providerName,
    },
    {
      id: "presentation",
      header: t("food.offers.presentation"),
      cell: (r) => (
        <div>
          <span className="block">{r.offer.presentation}</span>
          <span className="block text-xs text-muted-foreground tabular-nums">
            {quantity(r.offer.quantity, r.offer.baseUnit)}
          </span>
        </div>
      ),
    },
    {
      id: "price",
      header: t("food.offers.price"),
      className: "sm:text-right tabular-nums",
      cell: (r) => (
        <div>
          <span className="block">{money(r.offer.priceCents)}</span>
          <span className="block text-xs text-muted-foreground">
            {t(r.offer.priceIncludesIgv ? "food.offers.with_igv" : "food.offers.without_igv")}
          </span>
        </div>
      ),
    },
    {
      id: "cost",
      header: t("food.offers.cost_net"),
      className: "sm:text-right tabular-nums sm:whitespace-nowrap",
      cell: (r) => <span className="font-medium">{cost(r.offer)}</span>,
    },
    {
      id: "offers",
      header: t("food.logistics.offers_in_city"),
      className: "sm:text-right",
      cell: (r) => r.offersInCity,
    },
    { id: "updated", header: t("food.offers.updated"), hidden: true, cell: (r) => date(r.offer.priceChangedAt) },
    actionsColumn(t("food.actions"), (r) => (
      <IconButton
        label={t("food.offers.history_of", { name: `${r.ingredientName} · ${r.offer.presentation}` })}
        onClick={() => modals.openHistory(r.offer)}
      >
        <History className="size-4" aria-hidden="true" />
      </IconButton>
    )),
  ];

  return (
    <FoodListPage
      current="logistics"
      title={t("food.logistics.title")}
      description={t("food.logistics.description")}
      exportUrl={exportUrl}
      buttons={["provider", "ingredient"]}
      modals={modals}
      dialog={dialog}
    >
      {centres.length === 0 ? (
        <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground">{t("food.logistics.no_centres")}</p>
      ) : (
        <nav aria-label={t("food.logistics.centres")}>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {centres.map((c) => (
              <li key={c.id}>
                <Link
                  href={route("logistics.index", { centre: c.id })}
                  preserveScroll
                  aria-current={c.id === centre?.id ? "page" : undefined}
                  className={cn(
                    "flex h-full items-start gap-3 rounded-xl border bg-card p-3 text-sm transition-colors hover:bg-accent",
                    c.id === centre?.id && "border-primary ring-1 ring-primary",
                  )}
                >
                  <Warehouse className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <span className="min-w-0">
                    <span className="block font-medium">{c.name}</span>
                    <span className="block text-xs text-muted-foreground">{c.businessName}</span>
                    <span className="block text-xs">
                      {c.cityName
                        ? t("food.logistics.centre_summary", { city: c.cityName, count: c.stocked })
                        : t("food.logistics.no_city")}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}

      {centre && (
        <section aria-labelledby="centre-stock" className="space-y-3">
          <h2 id="centre-stock" className="text-base font-semibold">
            {centre.cityName ? t("food.logistics.stock_of", { name: centre.name, city: centre.cityName }) : centre.name}
          </h2>
          {stock ? (
            <DataTable
              caption={t("food.logistics.stock_of", { name: centre.name, city: centre.cityName ?? "" })}
              storageKey="food.logistics"
              columns={columns}
              page={stock}
              rowKey={(r) => r.ingredientId}
              empty={t(filters.search ? "food.logistics.none_found" : "food.logistics.none")}
              toolbar={<SearchBox value={filters.search} label={t("food.logistics.search")} />}
            />
          ) : (
            <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground">
              {t("food.logistics.set_city")}
            </p>
          )}
        </section>
      )}
    </FoodListPage>
  );
}
