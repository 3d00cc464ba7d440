/**
 * Providers: the offers grouped by city (searched, filtered by city and provider, sorted within each city, exported
 * as shown) and the providers (searched, sorted, exported), with the New-provider dialog, the offer dialog and an
 * offer's price history, and the cities. The tab's list is paged on the server; a full load brings the page's first
 * rows with the HTML and the rest right after (`offersFull`, `providersFull`: deferred), a skeleton in their place.
 */
import { Head, usePage } from "@inertiajs/react";
import { Download, MapPinned, Pencil, Plus, Trash2 } from "lucide-react";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { foldedPage, ListSkeleton } from "../../components/list-skeleton";
import { FoodDialogs, useFoodModals } from "../../components/food/food-dialogs";
import { FoodTabs } from "../../components/food/food-tabs";
import { OfferGroups, type GroupsPage } from "../../components/food/offer-groups";
import type { CityGroup, CityRow, FoodDialogProps, ProviderRow } from "../../components/food/types";
import { useFoodWords } from "../../components/food/use-food-words";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { SelectField } from "../../components/ui/select-field";
import { TabList } from "../../components/ui/tabs";
import { useRoute } from "../../hooks/use-route";

type Tab = "offers" | "providers";

interface Props extends FoodDialogProps {
  filters: {
    tab: Tab;
    search: string;
    provider: number | null;
    city: number | null;
    sort: string | null;
    direction: "asc" | "desc";
  };
  /** The tab's list (null on the other tab); on a full load only its first rows (`cut`), then the whole page. */
  offers: (GroupsPage<CityGroup> & { cut?: true }) | null;
  offersFull?: GroupsPage<CityGroup> | null;
  providers: (Page<ProviderRow> & { cut?: true }) | null;
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
  const folded = foldedPage(offersHead, offersFull, (page) => page.data.reduce((n, g) => n + g.offers.length, 0));
  const offers = folded.page;
  const foldedProviders = foldedPage(providersHead, providersFull, (page) => page.data.length);
  const providers = foldedProviders.page;
  const { t } = useFoodWords();
  const route = useRoute();
  const modals = useFoodModals();
  const { setModal } = modals;
  const pageErrors = usePage().props.errors as Record<string, string>;
  const { can } = dialog;
  const tab = filters.tab;
  const sort = { sort: filters.sort, direction: filters.direction };
  const chooseTab = (next: Tab) =>
    visitWith({ tab: next, page: null, search: null, sort: null, direction: null, provider: null, city: null });
  const filter = (name: string, value: string) => visitWith({ [name]: value || null, page: null });
  const exportUrl = route("providers.export", {
    tab,
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.provider ? { provider: filters.provider } : {}),
    ...(filters.city ? { city: filters.city } : {}),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });

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
    {
      id: "actions",
      header: t("food.actions"),
      headerHidden: true,
      actions: true,
      cell: (p) =>
        can.manageLogistics && (
          <span className="inline-flex gap-0.5">
            <IconButton
              label={t("food.offers.add_for_provider", { name: p.name })}
              onClick={() => setModal({ kind: "offer", offer: null, providerId: p.id })}
            >
              <Plus className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton
              label={t("food.edit_named", { name: p.name })}
              onClick={() => setModal({ kind: "provider", provider: p })}
            >
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton
              danger
              label={t("food.delete_named", { name: p.name })}
              onClick={() => modals.deleteProvider(p)}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          </span>
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("food.providers.title")} />
      <PageHeader
        title={t("food.providers.title")}
        description={t("food.providers.description")}
        actions={
          <>
            <a href={exportUrl} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("food.export")}
            </a>
            {can.manageLogistics && (
              <Button variant="outline" onClick={() => setModal({ kind: "cities" })}>
                <MapPinned className="size-4" aria-hidden="true" />
                {t("food.cities.button")}
              </Button>
            )}
            {can.manageLogistics && (
              <Button variant="outline" onClick={() => setModal({ kind: "offer", offer: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("food.offers.new")}
              </Button>
            )}
            {can.manageLogistics && (
              <Button onClick={() => setModal({ kind: "provider", provider: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("food.providers.new")}
              </Button>
            )}
          </>
        }
        tabs={<FoodTabs tabs={dialog.tabs} current="providers" />}
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <TabList
        label={t("food.providers.title")}
        tabs={[
          { id: "offers", label: t("food.providers.tab_offers") },
          { id: "providers", label: t("food.providers.tab_providers") },
        ]}
        current={tab}
        onChange={chooseTab}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="space-y-4">
        {tab === "offers" && offers && (
          <>
            <div className="flex flex-wrap items-end gap-2 sm:gap-3">
              <SearchBox key="offers" value={filters.search} label={t("food.offers.search")} />
              <SelectField
                className="min-w-40"
                label={t("food.offers.city_filter")}
                value={filters.city ? String(filters.city) : ""}
                onValueChange={(value) => filter("city", value)}
                options={[
                  { value: "", label: t("food.offers.all_cities") },
                  ...dialog.cityOptions.map((c) => ({ value: String(c.id), label: c.name })),
                ]}
              />
              <SelectField
                searchable
                className="min-w-48"
                label={t("food.offers.provider_filter")}
                value={filters.provider ? String(filters.provider) : ""}
                onValueChange={(value) => filter("provider", value)}
                options={[
                  { value: "", label: t("food.offers.all_providers") },
                  ...dialog.providerOptions.map((p) => ({ value: String(p.id), label: p.name })),
                ]}
              />
            </div>
            <OfferGroups
              by="city"
              page={offers}
              sort={sort}
              empty={t(
                filters.search || filters.provider || filters.city ? "food.offers.none_found" : "food.offers.none_yet",
              )}
              actions={{
                history: modals.openHistory,
                ...(can.manageLogistics
                  ? { edit: (offer) => setModal({ kind: "offer", offer }), remove: modals.deleteOffer }
                  : {}),
              }}
              addOffer={
                can.manageLogistics ? (group) => setModal({ kind: "offer", offer: null, cityId: group.id }) : undefined
              }
            />
            {folded.pending && <ListSkeleton label={t("food.loading")} rows={folded.missing} />}
          </>
        )}
        {tab === "providers" && providers && (
          <DataTable
            caption={t("food.providers.tab_providers")}
            storageKey="food.providers"
            sort={sort}
            columns={providerColumns}
            page={providers}
            rowKey={(p) => p.id}
            empty={t(filters.search ? "food.providers.none_found" : "food.providers.none")}
            toolbar={<SearchBox key="providers" value={filters.search} label={t("food.providers.search")} />}
          />
        )}
        {tab === "providers" && foldedProviders.pending && (
          <ListSkeleton label={t("food.loading")} rows={foldedProviders.missing} />
        )}
      </div>
      <FoodDialogs modal={modals.modal} close={modals.close} dialog={dialog} cities={cities} />
    </div>
  );
}
