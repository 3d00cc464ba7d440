/**
 * Management: tabs for mines, units and cafes, each a server-paginated, searchable table with edit, delete, the
 * services of the row and (cafes) the price list; the management modal creates mine → unit → cafe in one flow.
 * Each table exports to Excel with the current search.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { Coins, Download, ListChecks, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Pagination, SearchBox, Table, td, visitWith, type Page } from "../../components/data-table";
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
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
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

  const remove = (kind: "mine" | "unit" | "cafe", id: number, name: string) => {
    if (!window.confirm(t("management.confirm_delete", { name }))) return;
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

  const serviceChips = (ids: number[]) =>
    ids.length ? (
      <span className="flex flex-wrap gap-1">
        {ids
          .map((id) => codes.get(id) ?? "?")
          .sort()
          .map((code) => (
            <span key={code} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
              {code}
            </span>
          ))}
      </span>
    ) : (
      <span className="text-xs text-muted-foreground">{t("management.no_services")}</span>
    );

  const iconButton = (
    label: string,
    onClick: (button: HTMLElement) => void,
    icon: ReactNode,
    danger = false,
    expanded?: boolean,
  ) => (
    <button
      type="button"
      className={cn("rounded p-1 hover:bg-accent", danger && "text-destructive")}
      onClick={(e) => onClick(e.currentTarget)}
      aria-label={label}
      title={label}
      aria-expanded={expanded}
      aria-haspopup={expanded === undefined ? undefined : "dialog"}
    >
      {icon}
    </button>
  );

  const rowActions = (kind: "mine" | "unit" | "cafe", target: EditTarget, services: PlaceTarget) => (
    <span className="inline-flex gap-1">
      {can.manage &&
        iconButton(
          t("management.choose_services_of", { name: target.row.name }),
          (anchor) => toggleServices(services, anchor),
          <ListChecks className="size-4" aria-hidden="true" />,
          false,
          servicesOpen(services),
        )}
      {kind === "cafe" &&
        iconButton(
          t("management.prices_of", { name: target.row.name }),
          () => openPrices(target.row.id),
          <Coins className="size-4" aria-hidden="true" />,
        )}
      {can.manage &&
        iconButton(
          t("management.edit_named", { name: target.row.name }),
          () => setModal({ kind: "edit", target }),
          <Pencil className="size-4" aria-hidden="true" />,
        )}
      {can.manage &&
        iconButton(
          t("management.delete_named", { name: target.row.name }),
          () => remove(kind, target.row.id, target.row.name),
          <Trash2 className="size-4" aria-hidden="true" />,
          true,
        )}
    </span>
  );

  const actionsHeader = <span className="sr-only">{t("management.actions")}</span>;
  const exportHref = route("management.export", { table: tab, ...(filters.search ? { search: filters.search } : {}) });

  return (
    <div className="space-y-6">
      <Head title={t("management.title")} />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("management.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("management.description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
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
        </div>
      </header>
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      {importJob && (
        <ImportJobPanel key={importJob.id} job={importJob} onImportAgain={() => setModal({ kind: "import" })} />
      )}

      <TabList label={t("management.title")} tabs={tabs} current={tab} onChange={chooseTab} />

      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="space-y-3">
        <SearchBox key={tab} value={filters.search} label={t(`management.search_${tab}`)} />

        {tab === "mines" && mines && (
          <>
            <Table
              actions
              caption={t("management.tab_mines")}
              headers={[
                t("management.mine"),
                t("management.units"),
                t("management.cafes"),
                t("management.services"),
                actionsHeader,
              ]}
              empty={mines.data.length ? null : t("management.none")}
            >
              {mines.data.map((mine) => (
                <tr key={mine.id}>
                  <td className={cn(td, "font-medium")}>{mine.name}</td>
                  <td className={td}>{mine.units}</td>
                  <td className={td}>{mine.cafes}</td>
                  <td className={td}>{serviceChips(mine.serviceIds)}</td>
                  <td className={cn(td, "whitespace-nowrap text-right")}>
                    {rowActions(
                      "mine",
                      { kind: "mine", row: mine },
                      { kind: "mine", id: mine.id, name: mine.name, serviceIds: mine.serviceIds, parent: null },
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pagination page={mines} />
          </>
        )}

        {tab === "units" && units && (
          <>
            <Table
              actions
              caption={t("management.tab_units")}
              headers={[
                t("management.unit"),
                t("management.mine"),
                t("management.cafes"),
                t("management.subdealerships"),
                t("management.services"),
                actionsHeader,
              ]}
              empty={units.data.length ? null : t("management.none")}
            >
              {units.data.map((unit) => (
                <tr key={unit.id}>
                  <td className={cn(td, "font-medium")}>{unit.name}</td>
                  <td className={td}>{unit.mineName}</td>
                  <td className={td}>{unit.cafes}</td>
                  <td className={td}>{unit.subdealerships}</td>
                  <td className={td}>{serviceChips(unit.serviceIds)}</td>
                  <td className={cn(td, "whitespace-nowrap text-right")}>
                    {rowActions(
                      "unit",
                      { kind: "unit", row: unit },
                      {
                        kind: "unit",
                        id: unit.id,
                        name: unit.name,
                        serviceIds: unit.serviceIds,
                        parent: { name: unit.mineName, serviceIds: unit.parentServiceIds },
                      },
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pagination page={units} />
          </>
        )}

        {tab === "cafes" && cafes && (
          <>
            <Table
              actions
              caption={t("management.tab_cafes")}
              headers={[
                t("management.cafe"),
                t("management.unit"),
                t("management.business"),
                t("management.time_zone"),
                t("management.services"),
                t("management.prices"),
                actionsHeader,
              ]}
              empty={cafes.data.length ? null : t("management.none")}
            >
              {cafes.data.map((cafe) => (
                <tr key={cafe.id}>
                  <td className={cn(td, "font-medium")}>{cafe.name}</td>
                  <td className={td}>
                    {cafe.unitName}
                    <div className="text-xs text-muted-foreground">{cafe.mineName}</div>
                  </td>
                  <td className={td}>
                    {cafe.businessName ?? (
                      <span className="text-xs text-destructive">{t("management.no_business")}</span>
                    )}
                  </td>
                  <td className={cn(td, "text-xs")}>{cafe.timeZone}</td>
                  <td className={td}>{serviceChips(cafe.serviceIds)}</td>
                  <td className={cn(td, "text-xs")}>
                    {t("management.priced_count", { priced: cafe.priced, count: cafe.serviceIds.length })}
                  </td>
                  <td className={cn(td, "whitespace-nowrap text-right")}>
                    {rowActions(
                      "cafe",
                      { kind: "cafe", row: cafe },
                      {
                        kind: "cafe",
                        id: cafe.id,
                        name: cafe.name,
                        serviceIds: cafe.serviceIds,
                        parent: { name: cafe.unitName, serviceIds: cafe.parentServiceIds },
                      },
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pagination page={cafes} />
          </>
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
