/**
 * Providers: the offers grouped by city (searched, filtered by city and provider, sorted within each city, exported
 * as shown) and the providers (searched, sorted, exported), with the New-provider dialog, the offer dialog and an
 * offer's price history, and the cities. The tab's list is paged on the server; a full load brings the page's first
 * rows with the HTML and the rest right after (`offersFull`, `providersFull`: deferred), a skeleton in their place.
 */
import { Plus } from "lucide-react";
import { SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { useFoodModals } from "../../components/food/food-dialogs";
import {
  actionsColumn,
  OffersAndListPage,
  type CutPage,
  type OffersListFilters,
} from "../../components/food/food-list-page";
import type { GroupsPage } from "../../components/food/offer-groups";
import type { CityGroup, CityRow, FoodDialogProps, ProviderRow } from "../../components/food/types";
import { useFoodWords } from "../../components/food/use-food-words";
import { RowActions } from "../../components/row-actions";
import { IconButton } from "../../components/ui/button";

interface Props extends FoodDialogProps {
  filters: OffersListFilters<"providers">;
  offers: CutPage<GroupsPage<CityGroup>>;
  offersFull?: GroupsPage<CityGroup> | null;
  providers: CutPage<Page<ProviderRow>>;
  providersFull?: Page<ProviderRow> | null;
  /** Every city with what is in it (the cities dialog). */
  cities: CityRow[];
}

export default function ProvidersIndex({
  filters,
  offers: offersHead,
  offersFull,
  providers: providersHead,
  providersFull,
  cities,
  ...dialog
}: Props) {
  const { t } = useFoodWords();
  const modals = useFoodModals();

  const providerColumns: DataColumn<ProviderRow>[] = [
    {
      id: "name",
      header: t("food.providers.name"),
      primary: true,
      sortable: true,
      cell: (p) => p.name,
      title: (p) => p.name,
    },
    { id: "ruc", header: t("food.providers.ruc"), sortable: true, className: "font-mono", cell: (p) => p.ruc },
    { id: "contact", header: t("food.providers.contact"), cell: (p) => p.contact || "—" },
    { id: "phone", header: t("food.providers.phone"), className: "sm:whitespace-nowrap", cell: (p) => p.phone || "—" },
    {
      id: "email",
      header: t("food.providers.email"),
      cell: (p) => p.email || "—",
      title: (p) => p.email,
      hidden: true,
    },
    {
      id: "offers",
      header: t("food.providers.offers"),
      sortable: true,
      className: "sm:text-right",
      cell: (p) => p.offers,
    },
    {
      id: "cities",
      header: t("food.providers.cities"),
      sortable: true,
      className: "sm:text-right",
      cell: (p) => p.cities,
    },
    actionsColumn(
      t("food.actions"),
      (p) =>
        dialog.can.manageLogistics && (
          <RowActions
            editLabel={t("food.edit_named", { name: p.name })}
            deleteLabel={t("food.delete_named", { name: p.name })}
            onEdit={() => modals.setModal({ kind: "provider", provider: p })}
            onDelete={() => modals.deleteProvider(p)}
          >
            <IconButton
              label={t("food.offers.add_for_provider", { name: p.name })}
              onClick={() => modals.setModal({ kind: "offer", offer: null, providerId: p.id })}
            >
              <Plus className="size-4" aria-hidden="true" />
            </IconButton>
          </RowActions>
        ),
    ),
  ];

  return (
    <OffersAndListPage
      current="providers"
      words={{
        title: t("food.providers.title"),
        description: t("food.providers.description"),
        offersTab: t("food.providers.tab_offers"),
        listTab: t("food.providers.tab_providers"),
      }}
      buttons={["cities", "offer", "provider"]}
      exportRoute="providers.export"
      by="city"
      filters={filters}
      offers={{ head: offersHead, full: offersFull }}
      list={{
        head: providersHead,
        full: providersFull,
        columns: providerColumns,
        empty: t(filters.search ? "food.providers.none_found" : "food.providers.none"),
        toolbar: <SearchBox key="providers" value={filters.search} label={t("food.providers.search")} />,
      }}
      modals={modals}
      dialog={dialog}
      cities={cities}
    />
  );
}
