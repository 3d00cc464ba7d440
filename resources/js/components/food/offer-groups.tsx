/**
 * Offers grouped by provider (the Ingredients page) or by city (the Providers page): a page of offers at a time, one
 * section per group on it, its heading naming it with how many offers it has in all, and a table of its offers on
 * this page, sorted on the server by the column chosen in any of them (the same order in every group). A withdrawn
 * offer is marked and kept, with its history.
 */
import { History, Pencil, Plus, Trash2 } from "lucide-react";
import { DataTable, Pagination, type DataColumn, type SortState } from "../data-table";
import { IconButton } from "../ui/button";
import type { CityGroup, OfferRow, ProviderGroup } from "./types";
import { useFoodWords } from "./use-food-words";

/** A page of offers as the server sends it: paged over offers, `data` their groups in order. */
export interface GroupsPage<G> {
  data: G[];
  /** Offers found. */
  total: number;
  page: number;
  perPage: number;
  lastPage: number;
  /** The groups the offers found are in. */
  groups: number;
}

export interface OfferActions {
  history: (offer: OfferRow) => void;
  edit?: (offer: OfferRow) => void;
  remove?: (offer: OfferRow) => void;
}

export function OfferGroups<G extends ProviderGroup | CityGroup>({
  by,
  page,
  sort,
  actions,
  addOffer,
  empty,
}: {
  by: "provider" | "city";
  page: GroupsPage<G>;
  sort: SortState;
  actions: OfferActions;
  /** Adds an offer to a group (its provider or city chosen), for someone who keeps offers. */
  addOffer?: (group: G) => void;
  empty: string;
}) {
  const { t, money, date, quantity, cost } = useFoodWords();
  const columns: DataColumn<OfferRow>[] = [
    {
      id: "ingredient",
      header: t("food.offers.ingredient"),
      primary: true,
      sortable: true,
      hideable: false,
      cell: (o) => (
        <span className="flex flex-wrap items-center gap-x-2">
          <span>{o.ingredientName}</span>
          {!o.active && (
            <span className="rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground">
              {t("food.offers.withdrawn")}
            </span>
          )}
        </span>
      ),
    },
    by === "provider"
      ? { id: "city", header: t("food.city"), sortable: true, hideable: false, cell: (o) => o.cityName }
      : {
          id: "provider",
          header: t("food.offers.provider"),
          sortable: true,
          hideable: false,
          cell: (o) => o.providerName,
        },
    {
      id: "presentation",
      header: t("food.offers.presentation"),
      sortable: true,
      hideable: false,
      // One element per cell: on a phone's card the cell is a "label: value" grid of two columns.
      cell: (o) => (
        <div>
          <span className="block">{o.presentation}</span>
          <span className="block text-xs text-muted-foreground tabular-nums">{quantity(o.quantity, o.baseUnit)}</span>
        </div>
      ),
    },
    {
      id: "price",
      header: t("food.offers.price"),
      sortable: true,
      hideable: false,
      className: "sm:text-right tabular-nums",
      cell: (o) => (
        <div>
          <span className="block">{money(o.priceCents)}</span>
          <span className="block text-xs text-muted-foreground">
            {t(o.priceIncludesIgv ? "food.offers.with_igv" : "food.offers.without_igv")}
          </span>
        </div>
      ),
    },
    {
      id: "cost",
      header: t("food.offers.cost_net"),
      sortable: true,
      hideable: false,
      className: "sm:text-right tabular-nums sm:whitespace-nowrap",
      cell: (o) => <span className="font-medium">{cost(o)}</span>,
    },
    {
      id: "updated",
      header: t("food.offers.updated"),
      sortable: true,
      hideable: false,
      className: "sm:whitespace-nowrap",
      cell: (o) => date(o.priceChangedAt),
    },
    {
      id: "actions",
      header: t("food.actions"),
      headerHidden: true,
      actions: true,
      cell: (o) => (
        <span className="inline-flex gap-0.5">
          <IconButton
            label={t("food.offers.history_of", { name: `${o.ingredientName} · ${o.presentation}` })}
            onClick={() => actions.history(o)}
          >
            <History className="size-4" aria-hidden="true" />
          </IconButton>
          {actions.edit && (
            <IconButton
              label={t("food.offers.edit_named", { name: `${o.ingredientName} · ${o.presentation}` })}
              onClick={() => actions.edit!(o)}
            >
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
          )}
          {actions.remove && (
            <IconButton
              danger
              label={t("food.offers.delete_named", { name: `${o.ingredientName} · ${o.presentation}` })}
              onClick={() => actions.remove!(o)}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          )}
        </span>
      ),
    },
  ];

  if (page.total === 0) return <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground">{empty}</p>;
  return (
    <div className="space-y-6">
      <p className="text-sm text-muted-foreground">
        {t(by === "provider" ? "food.offers.summary_providers" : "food.offers.summary_cities", {
          groups: page.groups,
          offers: page.total,
        })}
      </p>
      {page.data.map((group) => {
        const provider = by === "provider" ? (group as ProviderGroup) : null;
        const city = by === "city" ? (group as CityGroup) : null;
        const details = provider
          ? [
              provider.ruc && `${t("food.providers.ruc")} ${provider.ruc}`,
              provider.contact,
              provider.phone,
              provider.email,
            ]
          : [city!.region === city!.name ? "" : city!.region];
        return (
          <section key={group.id} aria-labelledby={`group-${by}-${group.id}`} className="space-y-2">
            <div className="flex flex-wrap items-end justify-between gap-2">
              <div className="min-w-0">
                <h2 id={`group-${by}-${group.id}`} className="text-base font-semibold">
                  {group.name}{" "}
                  <span className="text-sm font-normal text-muted-foreground">
                    · {t("food.counts.offers", { count: group.count })}
                  </span>
                </h2>
                <p className="text-xs text-muted-foreground">{details.filter(Boolean).join(" · ")}</p>
              </div>
              {addOffer && (
                <button
                  type="button"
                  className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-primary hover:bg-accent"
                  onClick={() => addOffer(group)}
                >
                  <Plus className="size-4" aria-hidden="true" />
                  {t(by === "provider" ? "food.offers.add_for_provider" : "food.offers.add_in_city", {
                    name: group.name,
                  })}
                </button>
              )}
            </div>
            <DataTable
              caption={t(by === "provider" ? "food.offers.of_provider" : "food.offers.in_city", { name: group.name })}
              columns={columns}
              rows={group.offers}
              rowKey={(o) => o.id}
              sort={sort}
              empty={t("food.offers.none")}
              pagination={false}
            />
          </section>
        );
      })}
      <Pagination page={page} label={t(by === "provider" ? "food.offers.by_provider" : "food.offers.by_city")} />
    </div>
  );
}
