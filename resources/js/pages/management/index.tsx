/**
 * Management: tabs for mines, units and cafes, each a table searched, sorted and paginated on the server, with edit,
 * delete, the services of the row and (cafes) the price list — the one place where a place's services and prices
 * are edited. A cafe row keeps to two lines at desktop widths: long names are cut (whole on hover), services show
 * as chips with "+2", and its prices in soles ("ALM S/ 18.50 · +2"). The management modal creates mine → unit →
 * cafe and gives the new cafe its services and prices in one flow. Each table exports to Excel with the current search.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { CircleAlert, Coins, Download, ListChecks, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { useState } from "react";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { EditPlaceDialog, type EditTarget } from "../../components/management/edit-place-dialog";
import { ImportDialog } from "../../components/management/import-dialog";
import { ImportJobPanel, type ImportJob } from "../../components/management/import-job";
import { PlaceDialog } from "../../components/management/place-dialog";
import type {
  CafeRow,
  ManagementAbilities,
  MineRow,
  PlaceOption,
  PlaceSearch,
  UnitRow,
} from "../../components/management/types";
import type { CityOption } from "../../components/food/city-select";
import { CafePricesDialog } from "../../components/services/cafe-prices-dialog";
import { PlaceServicesPopover, type PlaceTarget } from "../../components/services/place-services-popover";
import type { CafePrices, ServiceOption } from "../../components/services/types";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { Chips } from "../../components/ui/chips";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { TabList } from "../../components/ui/tabs";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

type Tab = "mines" | "units" | "cafes";

interface Props {
  filters: { tab: Tab; search: string; sort: string | null; direction: "asc" | "desc" };
  mines: Page<MineRow> | null;
  units: Page<UnitRow> | null;
  cafes: Page<CafeRow> | null;
  serviceOptions: ServiceOption[];
  businesses: PlaceOption[];
  timeZones: string[];
  defaultTimeZone: string;
  cities: CityOption[];
  placeSearch?: PlaceSearch;
  cafePrices?: CafePrices | null;
  /** The person's latest workbook import, until they close it. */
  importJob: ImportJob | null;
  can: ManagementAbilities;
}

type Modal =
  | { kind: "new" }
  | { kind: "import" }
  | { kind: "edit"; target: EditTarget }
  | { kind: "services"; place: PlaceTarget; anchor: HTMLElement }
  | { kind: "prices" }
  | null;

export default function ManagementIndex({
  filters,
  mines,
  units,
  cafes,
  serviceOptions,
  businesses,
  timeZones,
  defaultTimeZone,
  cities,
  placeSearch,
  cafePrices,
  importJob,
  can,
}: Props) {
  const { t, money } = useI18n();
  const route = useRoute();
  const [modal, setModal] = useState<Modal>(null);
  const close = () => setModal(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const codes = new Map(serviceOptions.map((s) => [s.id, s.code]));
  const tab = filters.tab;

  const tabs: { id: Tab; label: string }[] = [
    { id: "mines", label: t("management.tab_mines") },
    { id: "units", label: t("management.tab_units") },
    { id: "cafes", label: t("management.tab_cafes") },
  ];
  const chooseTab = (next: Tab) => visitWith({ tab: next, page: null, search: null, sort: null, direction: null });
  const sort = { sort: filters.sort, direction: filters.direction };

  const confirm = useConfirm();
  const remove = async (kind: "mine" | "unit" | "cafe", id: number, name: string, services: number) => {
    const consequence =
      services === 0
        ? t("ui.consequences.permanent")
        : t(kind === "cafe" ? "ui.consequences.cafe" : "ui.consequences.place", { count: services });
    if (!(await confirm({ title: t("management.delete_named", { name }), description: consequence }))) return;
    const url =
      kind === "mine"
        ? route("mines.destroy", { mine: id })
        : kind === "unit"
          ? route("units.destroy", { unit: id })
          : route("cafes.destroy", { cafe: id });
    router.delete(url, { preserveScroll: true });
  };
  // The row's services popover: its button opens it, and closes it again.
  const servicesOpen = (place: PlaceTarget) =>
    modal?.kind === "services" && modal.place.kind === place.kind && modal.place.id === place.id;
  const toggleServices = (place: PlaceTarget, anchor: HTMLElement) =>
    setModal(servicesOpen(place) ? null : { kind: "services", place, anchor });
  const openPrices = (cafeId: number) =>
    router.reload({ only: ["cafePrices"], data: { prices: cafeId }, onSuccess: () => setModal({ kind: "prices" }) });

  const serviceChips = (ids: number[], max = 3) => (
    <Chips
      mono
      max={max}
      empty={t("management.no_services")}
      items={ids
        .map((id) => codes.get(id) ?? "?")
        .sort()
        .map((code) => ({ key: code, label: code }))}
    />
  );

  const rowActions = (kind: "mine" | "unit" | "cafe", target: EditTarget, services: PlaceTarget) => (
    <span className="inline-flex gap-0.5">
      {can.manage && (
        <IconButton
          label={t("management.choose_services_of", { name: target.row.name })}
          onClick={(e) => toggleServices(services, e.currentTarget)}
          aria-expanded={servicesOpen(services)}
          aria-haspopup="dialog"
        >
          <ListChecks className="size-4" aria-hidden="true" />
        </IconButton>
      )}
      {kind === "cafe" && (
        <IconButton
          label={t("management.prices_of", { name: target.row.name })}
          onClick={() => openPrices(target.row.id)}
        >
          <Coins className="size-4" aria-hidden="true" />
        </IconButton>
      )}
      {can.manage && (
        <IconButton
          label={t("management.edit_named", { name: target.row.name })}
          onClick={() => setModal({ kind: "edit", target })}
        >
          <Pencil className="size-4" aria-hidden="true" />
        </IconButton>
      )}
      {can.manage && (
        <IconButton
          danger
          label={t("management.delete_named", { name: target.row.name })}
          onClick={() => remove(kind, target.row.id, target.row.name, services.serviceIds.length)}
        >
          <Trash2 className="size-4" aria-hidden="true" />
        </IconButton>
      )}
    </span>
  );

  const actionsColumn = { id: "actions", header: t("management.actions"), headerHidden: true, actions: true };
  const exportHref = route("management.export", { table: tab, ...(filters.search ? { search: filters.search } : {}) });
  const search = <SearchBox key={tab} value={filters.search} label={t(`management.search_${tab}`)} />;

  const mineTarget = (mine: MineRow): PlaceTarget => ({
    kind: "mine",
    id: mine.id,
    name: mine.name,
    serviceIds: mine.serviceIds,
    parent: null,
  });
  const unitTarget = (unit: UnitRow): PlaceTarget => ({
    kind: "unit",
    id: unit.id,
    name: unit.name,
    serviceIds: unit.serviceIds,
    parent: { name: unit.mineName, serviceIds: unit.parentServiceIds },
  });
  const cafeTarget = (cafe: CafeRow): PlaceTarget => ({
    kind: "cafe",
    id: cafe.id,
    name: cafe.name,
    serviceIds: cafe.serviceIds,
    parent: { name: cafe.unitName, serviceIds: cafe.parentServiceIds },
  });

  const mineColumns: DataColumn<MineRow>[] = [
    {
      id: "name",
      header: t("management.mine"),
      primary: true,
      sortable: true,
      cell: (m) => m.name,
      title: (m) => m.name,
    },
    { id: "units", header: t("management.units"), sortable: true, className: "tabular-nums", cell: (m) => m.units },
    { id: "cafes", header: t("management.cafes"), sortable: true, className: "tabular-nums", cell: (m) => m.cafes },
    { id: "services", header: t("management.services"), cell: (m) => serviceChips(m.serviceIds) },
    { ...actionsColumn, cell: (m) => rowActions("mine", { kind: "mine", row: m }, mineTarget(m)) },
  ];
  const unitColumns: DataColumn<UnitRow>[] = [
    {
      id: "name",
      header: t("management.unit"),
      primary: true,
      sortable: true,
      cell: (u) => u.name,
      title: (u) => u.name,
    },
    { id: "mine", header: t("management.mine"), sortable: true, cell: (u) => u.mineName, title: (u) => u.mineName },
    { id: "cafes", header: t("management.cafes"), sortable: true, className: "tabular-nums", cell: (u) => u.cafes },
    {
      id: "subdealerships",
      header: t("management.subdealerships"),
      sortable: true,
      className: "tabular-nums",
      cell: (u) => u.subdealerships,
    },
    { id: "services", header: t("management.services"), cell: (u) => serviceChips(u.serviceIds) },
    { ...actionsColumn, cell: (u) => rowActions("unit", { kind: "unit", row: u }, unitTarget(u)) },
  ];
  // A cafe's prices, by service code: "ALM S/ 18.50", or "ALM sin precio" (that service cannot be sold yet).
  const pricesOf = (cafe: CafeRow) =>
    cafe.prices
      .map((p) => ({ code: codes.get(p.serviceId) ?? "?", cents: p.priceCents }))
      .sort((a, b) => a.code.localeCompare(b.code))
      .map((p) => `${p.code} ${p.cents === null ? t("management.no_price") : money(p.cents)}`);

  const cafeColumns: DataColumn<CafeRow>[] = [
    {
      id: "name",
      header: t("management.cafe"),
      primary: true,
      sortable: true,
      cell: (c) => c.name,
      title: (c) => c.name,
      maxWidth: "sm:max-w-44",
    },
    {
      id: "unit",
      header: t("management.unit"),
      sortable: true,
      cell: (c) => (
        <>
          <span className="block sm:truncate">{c.unitName}</span>
          <span className="block text-xs text-muted-foreground sm:truncate">{c.mineName}</span>
        </>
      ),
      title: (c) => `${c.unitName} · ${c.mineName}`,
      maxWidth: "sm:max-w-36",
    },
    {
      id: "business",
      header: t("management.business"),
      sortable: true,
      cell: (c) => c.businessName ?? <span className="text-xs text-destructive">{t("management.no_business")}</span>,
      title: (c) => c.businessName ?? t("management.no_business"),
      maxWidth: "sm:max-w-36",
    },
    {
      id: "time_zone",
      header: t("management.time_zone"),
      sortable: true,
      cell: (c) => c.timeZone,
      title: (c) => c.timeZone,
      maxWidth: "sm:max-w-36",
      // Nearly every cafe keeps the default; the column is there to show when needed.
      hidden: true,
    },
    {
      id: "city",
      header: t("food.city"),
      sortable: true,
      cell: (c) => c.cityName ?? <span className="text-xs text-muted-foreground">{t("food.no_city")}</span>,
      title: (c) => c.cityName ?? t("food.no_city"),
      maxWidth: "sm:max-w-32",
      // The city matters to logistics (which offers a cafe buys from), not to daily place keeping: the column
      // is in the columns menu, and the cafe's form shows it.
      hidden: true,
    },
    // Two chips and "+3" keep the row within a 1366 px screen beside the others (every code on hover).
    { id: "services", header: t("management.services"), cell: (c) => serviceChips(c.serviceIds, 2) },
    {
      id: "prices",
      header: t("management.prices"),
      // One line at desktop widths: the first service's price and "+2" (every price on hover and for screen
      // readers); every price on a phone's card.
      cell: (c) => {
        const prices = pricesOf(c);
        if (prices.length === 0) return <span className="text-xs text-muted-foreground">—</span>;
        const unpriced = c.serviceIds.length - c.priced;
        const summary = t("management.priced_count", { priced: c.priced, count: c.serviceIds.length });
        return (
          <span className={cn("flex min-w-0 items-center gap-1", unpriced > 0 && "text-destructive")}>
            {unpriced > 0 && <CircleAlert className="size-3.5 shrink-0" aria-hidden="true" />}
            <span className="sr-only">{summary}: </span>
            <span className="sm:hidden">{prices.join(" · ")}</span>
            <span className="hidden tabular-nums sm:inline sm:truncate sm:whitespace-nowrap" aria-hidden="true">
              {prices[0]}
              {prices.length > 1 && ` · ${t("ui.more_short", { count: prices.length - 1 })}`}
            </span>
            <span className="sr-only max-sm:hidden">{prices.join(", ")}</span>
          </span>
        );
      },
      title: (c) =>
        c.prices.length
          ? `${t("management.priced_count", { priced: c.priced, count: c.serviceIds.length })}: ${pricesOf(c).join(", ")}`
          : null,
      maxWidth: "sm:max-w-36",
    },
    { ...actionsColumn, cell: (c) => rowActions("cafe", { kind: "cafe", row: c }, cafeTarget(c)) },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("management.title")} />
      <PageHeader
        title={t("management.title")}
        description={t("management.description")}
        actions={
          <>
            <a href={exportHref} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("export.button")}
            </a>
            {can.manage && (
              <Button variant="outline" onClick={() => setModal({ kind: "import" })}>
                <Upload className="size-4" aria-hidden="true" />
                {t("management.import")}
              </Button>
            )}
            {can.manage && (
              <Button onClick={() => setModal({ kind: "new" })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("management.new_place")}
              </Button>
            )}
          </>
        }
        tabs={<TabList label={t("management.title")} tabs={tabs} current={tab} onChange={chooseTab} />}
      />
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      {importJob && (
        <ImportJobPanel key={importJob.id} job={importJob} onImportAgain={() => setModal({ kind: "import" })} />
      )}

      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === "mines" && mines && (
          <DataTable
            caption={t("management.tab_mines")}
            storageKey="management.mines"
            sort={sort}
            columns={mineColumns}
            page={mines}
            rowKey={(m) => m.id}
            empty={t("management.none")}
            toolbar={search}
          />
        )}
        {tab === "units" && units && (
          <DataTable
            caption={t("management.tab_units")}
            storageKey="management.units"
            sort={sort}
            columns={unitColumns}
            page={units}
            rowKey={(u) => u.id}
            empty={t("management.none")}
            toolbar={search}
          />
        )}
        {tab === "cafes" && cafes && (
          <DataTable
            caption={t("management.tab_cafes")}
            storageKey="management.cafes"
            sort={sort}
            columns={cafeColumns}
            page={cafes}
            rowKey={(c) => c.id}
            empty={t("management.none")}
            toolbar={search}
          />
        )}
      </div>

      {modal?.kind === "new" && (
        <PlaceDialog
          search={placeSearch}
          services={serviceOptions}
          canSetPrices={can.managePrices}
          businesses={businesses}
          timeZones={timeZones}
          defaultTimeZone={defaultTimeZone}
          cities={cities}
          allPlaces={can.allPlaces}
          onClose={close}
        />
      )}
      {modal?.kind === "import" && <ImportDialog open onClose={close} />}
      {modal?.kind === "edit" && (
        <EditPlaceDialog
          target={modal.target}
          businesses={businesses}
          timeZones={timeZones}
          defaultTimeZone={defaultTimeZone}
          cities={cities}
          onClose={close}
        />
      )}
      {modal?.kind === "services" && (
        <PlaceServicesPopover place={modal.place} services={serviceOptions} anchor={modal.anchor} onClose={close} />
      )}
      {modal?.kind === "prices" && cafePrices && (
        <CafePricesDialog
          key={cafePrices.cafe.id}
          prices={cafePrices}
          canManage={can.managePrices}
          reload={["cafes"]}
          onClose={close}
        />
      )}
    </div>
  );
}
