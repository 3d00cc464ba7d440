/**
 * Management: tabs for mines, units and cafes, each a server-paginated, searchable table with edit, delete, the
 * services of the row and (cafes) the price list; the management modal creates mine → unit → cafe in one flow.
 * Each table exports to Excel with the current search.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { Coins, Download, ListChecks, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { useState } from "react";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { EditPlaceModal, type EditTarget } from "../../components/management/edit-place-modal";
import { ImportDialog } from "../../components/management/import-dialog";
import { ImportJobPanel, type ImportJob } from "../../components/management/import-job";
import { PlaceModal } from "../../components/management/place-modal";
import type {
  CafeRow,
  ManagementAbilities,
  MineRow,
  PlaceOption,
  PlaceSearch,
  UnitRow,
} from "../../components/management/types";
import { CafePricesModal } from "../../components/services/cafe-prices-modal";
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
  filters: { tab: Tab; search: string };
  mines: Page<MineRow> | null;
  units: Page<UnitRow> | null;
  cafes: Page<CafeRow> | null;
  serviceOptions: ServiceOption[];
  businesses: PlaceOption[];
  timeZones: string[];
  defaultTimeZone: string;
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
  placeSearch,
  cafePrices,
  importJob,
  can,
}: Props) {
  const { t } = useI18n();
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
  const chooseTab = (next: Tab) => visitWith({ tab: next, page: null, search: null });

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

  const serviceChips = (ids: number[]) => (
    <Chips
      mono
      max={3}
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
    { id: "name", header: t("management.mine"), primary: true, cell: (m) => m.name, title: (m) => m.name },
    { id: "units", header: t("management.units"), cell: (m) => m.units },
    { id: "cafes", header: t("management.cafes"), cell: (m) => m.cafes },
    { id: "services", header: t("management.services"), cell: (m) => serviceChips(m.serviceIds) },
    { ...actionsColumn, cell: (m) => rowActions("mine", { kind: "mine", row: m }, mineTarget(m)) },
  ];
  const unitColumns: DataColumn<UnitRow>[] = [
    { id: "name", header: t("management.unit"), primary: true, cell: (u) => u.name, title: (u) => u.name },
    { id: "mine", header: t("management.mine"), cell: (u) => u.mineName, title: (u) => u.mineName },
    { id: "cafes", header: t("management.cafes"), cell: (u) => u.cafes },
    { id: "subdealerships", header: t("management.subdealerships"), cell: (u) => u.subdealerships },
    { id: "services", header: t("management.services"), cell: (u) => serviceChips(u.serviceIds) },
    { ...actionsColumn, cell: (u) => rowActions("unit", { kind: "unit", row: u }, unitTarget(u)) },
  ];
  const cafeColumns: DataColumn<CafeRow>[] = [
    {
      id: "name",
      header: t("management.cafe"),
      primary: true,
      cell: (c) => c.name,
      title: (c) => c.name,
      maxWidth: "sm:max-w-56",
    },
    {
      id: "unit",
      header: t("management.unit"),
      cell: (c) => (
        <>
          {c.unitName}
          <span className="block truncate text-xs text-muted-foreground">{c.mineName}</span>
        </>
      ),
      title: (c) => `${c.unitName} · ${c.mineName}`,
      maxWidth: "sm:max-w-48",
    },
    {
      id: "business",
      header: t("management.business"),
      cell: (c) => c.businessName ?? <span className="text-xs text-destructive">{t("management.no_business")}</span>,
      title: (c) => c.businessName ?? t("management.no_business"),
      maxWidth: "sm:max-w-48",
    },
    {
      id: "time_zone",
      header: t("management.time_zone"),
      cell: (c) => c.timeZone,
      title: (c) => c.timeZone,
      maxWidth: "sm:max-w-36",
      hidden: false,
    },
    { id: "services", header: t("management.services"), cell: (c) => serviceChips(c.serviceIds) },
    {
      id: "prices",
      header: t("management.prices"),
      className: "sm:whitespace-nowrap",
      // "4 de 5 con precio" on a phone's card; "4/5" at desktop widths, the sentence on hover and for screen readers.
      cell: (c) => {
        const sentence = t("management.priced_count", { priced: c.priced, count: c.serviceIds.length });
        return (
          <span title={sentence} className={cn(c.priced < c.serviceIds.length && "text-destructive")}>
            <span className="sm:sr-only">{sentence}</span>
            <span className="hidden tabular-nums sm:inline" aria-hidden="true">
              {c.priced}/{c.serviceIds.length}
            </span>
          </span>
        );
      },
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
            columns={cafeColumns}
            page={cafes}
            rowKey={(c) => c.id}
            empty={t("management.none")}
            toolbar={search}
          />
        )}
      </div>

      {modal?.kind === "new" && (
        <PlaceModal
          search={placeSearch}
          businesses={businesses}
          timeZones={timeZones}
          defaultTimeZone={defaultTimeZone}
          allPlaces={can.allPlaces}
          onClose={close}
        />
      )}
      {modal?.kind === "import" && <ImportDialog open onClose={close} />}
      {modal?.kind === "edit" && (
        <EditPlaceModal
          target={modal.target}
          businesses={businesses}
          timeZones={timeZones}
          defaultTimeZone={defaultTimeZone}
          onClose={close}
        />
      )}
      {modal?.kind === "services" && (
        <PlaceServicesPopover place={modal.place} services={serviceOptions} anchor={modal.anchor} onClose={close} />
      )}
      {modal?.kind === "prices" && cafePrices && (
        <CafePricesModal
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
