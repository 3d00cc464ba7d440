/**
 * The body the food and logistics pages (Ingredients, Providers, Logistics) share: the header with the export link
 * and the page's buttons, the area's tabs, the errors that belong to no field, the page's lists, and the area's
 * dialogs; and for the pages with offers and a list of their own, both lists as tabs.
 */
import { Head, usePage } from "@inertiajs/react";
import { Download, FolderTree, MapPinned, Plus, Upload, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useRoute } from "../../hooks/use-route";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page, type SortState } from "../data-table";
import { foldedPage, ListSkeleton } from "../list-skeleton";
import { Button, buttonClasses } from "../ui/button";
import { OtherErrors } from "../ui/form-errors";
import { PageHeader } from "../ui/page-header";
import { SelectField } from "../ui/select-field";
import { TabList } from "../ui/tabs";
import { FoodDialogs, type useFoodModals } from "./food-dialogs";
import { FoodTabs } from "./food-tabs";
import { OfferGroups, type GroupsPage } from "./offer-groups";
import type { CityGroup, CityRow, FoodDialogProps, FoodTab, ProviderGroup } from "./types";
import { useFoodWords } from "./use-food-words";

export type FoodModals = ReturnType<typeof useFoodModals>;

/** The buttons a page of the area may show in its header, each to those who may use it. */
export type HeaderButton = "import" | "categories" | "cities" | "offer" | "provider" | "ingredient";

function useHeaderButtons(modals: FoodModals, can: FoodDialogProps["can"]) {
  const { t } = useFoodWords();
  const { setModal } = modals;
  const buttons: Record<HeaderButton, { shown: boolean; label: string; icon: LucideIcon; open: () => void }> = {
    import: {
      shown: can.manageFood,
      label: t("food.import.button"),
      icon: Upload,
      open: () => setModal({ kind: "import" }),
    },
    categories: {
      shown: can.manageFood,
      label: t("food.categories.button"),
      icon: FolderTree,
      open: () => setModal({ kind: "categories" }),
    },
    cities: {
      shown: can.manageLogistics,
      label: t("food.cities.button"),
      icon: MapPinned,
      open: () => setModal({ kind: "cities" }),
    },
    offer: {
      shown: can.manageLogistics,
      label: t("food.offers.new"),
      icon: Plus,
      open: () => setModal({ kind: "offer", offer: null }),
    },
    provider: {
      shown: can.manageLogistics,
      label: t("food.providers.new"),
      icon: Plus,
      open: () => setModal({ kind: "provider", provider: null }),
    },
    ingredient: {
      shown: can.manageFood,
      label: t("food.ingredients.new"),
      icon: Plus,
      open: () => setModal({ kind: "ingredient", ingredient: null }),
    },
  };
  return buttons;
}

export function FoodListPage({
  current,
  title,
  description,
  exportUrl,
  buttons,
  modals,
  dialog,
  cities,
  children,
}: {
  current: FoodTab["id"];
  title: string;
  description: string;
  exportUrl: string;
  /** The header's buttons in order, the last one the page's main action. */
  buttons: HeaderButton[];
  modals: FoodModals;
  dialog: FoodDialogProps;
  /** The cities with what is in them (the Providers page's cities dialog). */
  cities?: CityRow[];
  children: ReactNode;
}) {
  const { t } = useFoodWords();
  const pageErrors = usePage().props.errors as Record<string, string>;
  const catalogue = useHeaderButtons(modals, dialog.can);
  return (
    <div className="space-y-6">
      <Head title={title} />
      <PageHeader
        title={title}
        description={description}
        actions={
          <>
            <a href={exportUrl} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("food.export")}
            </a>
            {buttons.map((name, index) => {
              const { shown, label, icon: Icon, open } = catalogue[name];
              if (!shown) return null;
              return (
                <Button key={name} variant={index === buttons.length - 1 ? "primary" : "outline"} onClick={open}>
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </Button>
              );
            })}
          </>
        }
        tabs={<FoodTabs tabs={dialog.tabs} current={current} />}
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      {children}
      <FoodDialogs modal={modals.modal} close={modals.close} dialog={dialog} cities={cities} />
    </div>
  );
}

/** A tab's list as the server sends it (null on the other tab): on a full load only its first rows, then all. */
export type CutPage<P> = (P & { cut?: true }) | null;

/** The filters of a page with offers and a list of its own, as the server sends them. */
export interface OffersListFilters<L extends string> extends SortState {
  tab: "offers" | L;
  search: string;
  provider: number | null;
  city: number | null;
  category?: number | null;
}

type Deferred<P> = { head: CutPage<P>; full?: P | null };

type OffersPage = GroupsPage<ProviderGroup> | GroupsPage<CityGroup>;

/**
 * A page of the area with offers and a list of its own (Ingredients, Providers): the offers tab, grouped by provider
 * or by city, and the page's list, as tabs; choosing a tab starts it afresh (no search, filter, sort or page). A full
 * load shows the first rows of the tab and a skeleton in place of the rest until it comes.
 */
export function OffersAndListPage<L extends string, R extends { id: number }>({
  current,
  words,
  buttons,
  exportRoute,
  by,
  filters,
  offers: offersPage,
  list,
  modals,
  dialog,
  cities,
}: {
  current: L & FoodTab["id"];
  words: { title: string; description: string; offersTab: string; listTab: string };
  buttons: HeaderButton[];
  /** The export of what the page shows, with its tab, filters and sort. */
  exportRoute: "ingredients.export" | "providers.export";
  by: "provider" | "city";
  filters: OffersListFilters<L>;
  offers: Deferred<OffersPage>;
  /** The page's own list: its rows, columns, message when empty and search box and filters. */
  list: Deferred<Page<R>> & { columns: DataColumn<R>[]; empty: string; toolbar: ReactNode };
  modals: FoodModals;
  dialog: FoodDialogProps;
  cities?: CityRow[];
}) {
  const { t } = useFoodWords();
  const route = useRoute();
  const exportUrl = route(exportRoute, {
    tab: filters.tab,
    ...filledIn({
      search: filters.search,
      provider: filters.provider,
      city: filters.city,
      category: filters.category ?? null,
    }),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });
  const offers = foldedPage(offersPage.head, offersPage.full, (page) =>
    page.data.reduce((n: number, g: ProviderGroup | CityGroup) => n + g.offers.length, 0),
  );
  const rows = foldedPage(list.head, list.full, (page) => page.data.length);
  const tab = filters.tab;
  const sort = { sort: filters.sort, direction: filters.direction };
  const chooseTab = (next: "offers" | L) =>
    visitWith({
      tab: next,
      page: null,
      search: null,
      sort: null,
      direction: null,
      provider: null,
      city: null,
      category: null,
    });
  return (
    <FoodListPage
      current={current}
      title={words.title}
      description={words.description}
      exportUrl={exportUrl}
      buttons={buttons}
      modals={modals}
      dialog={dialog}
      cities={cities}
    >
      <TabList
        label={words.title}
        tabs={[
          { id: "offers", label: words.offersTab },
          { id: current, label: words.listTab },
        ]}
        current={tab}
        onChange={chooseTab}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="space-y-4">
        {tab === "offers" && offers.page && (
          <OffersPanel
            by={by}
            page={offers.page}
            filters={filters}
            sort={sort}
            modals={modals}
            dialog={dialog}
            pending={offers}
          />
        )}
        {tab === current && rows.page && (
          <DataTable
            caption={words.listTab}
            storageKey={`food.${current}`}
            sort={sort}
            columns={list.columns}
            page={rows.page}
            rowKey={(row) => row.id}
            empty={list.empty}
            toolbar={list.toolbar}
          />
        )}
        {tab === current && rows.pending && <ListSkeleton label={t("food.loading")} rows={rows.missing} />}
      </div>
    </FoodListPage>
  );
}

/** The column of a row's buttons (its header read by screen readers only). */
export function actionsColumn<R>(header: string, cell: (row: R) => ReactNode): DataColumn<R> {
  return { id: "actions", header, headerHidden: true, actions: true, cell };
}

/** The filters of a list for its export link, the empty ones (no text, no id) left out. */
function filledIn(filters: Record<string, string | number | null>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string | number] => !!entry[1]));
}

/** Shows another value of one filter, back on the first page. */
export function visitFilter(name: string, value: string): void {
  visitWith({ [name]: value || null, page: null });
}

/**
 * The offers tab: searched, filtered by the grouping's own filter first (provider or city) and then the other,
 * grouped, with their actions for someone who keeps offers; a skeleton while the rest of the page comes.
 */
function OffersPanel({
  by,
  page,
  filters,
  sort,
  modals,
  dialog,
  pending,
}: {
  by: "provider" | "city";
  page: OffersPage;
  filters: { search: string; provider: number | null; city: number | null };
  sort: SortState;
  modals: FoodModals;
  dialog: FoodDialogProps;
  /** Offers of the page still to come (a full load's deferred rest). */
  pending: { pending: boolean; missing: number };
}) {
  const { t } = useFoodWords();
  const { setModal } = modals;
  const canKeep = dialog.can.manageLogistics;
  const providerFilter = (
    <SelectField
      key="provider"
      searchable
      className="min-w-48"
      label={t("food.offers.provider_filter")}
      value={filters.provider ? String(filters.provider) : ""}
      onValueChange={(value) => visitFilter("provider", value)}
      options={[
        { value: "", label: t("food.offers.all_providers") },
        ...dialog.providerOptions.map((p) => ({ value: String(p.id), label: p.name })),
      ]}
    />
  );
  const cityFilter = (
    <SelectField
      key="city"
      className="min-w-40"
      label={t("food.offers.city_filter")}
      value={filters.city ? String(filters.city) : ""}
      onValueChange={(value) => visitFilter("city", value)}
      options={[
        { value: "", label: t("food.offers.all_cities") },
        ...dialog.cityOptions.map((c) => ({ value: String(c.id), label: c.name })),
      ]}
    />
  );
  const addOffer = (group: { id: number }) =>
    setModal(
      by === "provider"
        ? { kind: "offer", offer: null, providerId: group.id }
        : { kind: "offer", offer: null, cityId: group.id },
    );
  return (
    <>
      <div className="flex flex-wrap items-end gap-2 sm:gap-3">
        <SearchBox key="offers" value={filters.search} label={t("food.offers.search")} />
        {by === "provider" ? [providerFilter, cityFilter] : [cityFilter, providerFilter]}
      </div>
      <OfferGroups<ProviderGroup | CityGroup>
        by={by}
        page={page}
        sort={sort}
        empty={t(
          filters.search || filters.provider || filters.city ? "food.offers.none_found" : "food.offers.none_yet",
        )}
        actions={{
          history: modals.openHistory,
          ...(canKeep ? { edit: (offer) => setModal({ kind: "offer", offer }), remove: modals.deleteOffer } : {}),
        }}
        addOffer={canKeep ? addOffer : undefined}
      />
      {pending.pending && <ListSkeleton label={t("food.loading")} rows={pending.missing} />}
    </>
  );
}
