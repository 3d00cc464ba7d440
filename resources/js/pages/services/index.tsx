/**
 * Services: the catalogue of services cafes sell (create, edit, delete while unused) and, in the "Lugares" tab,
 * the mines → units → cafes within scope with the services each offers and each cafe's prices.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { OtherErrors } from "../../components/ui/form-errors";
import { Building2, Coins, Download, ListChecks, Pencil, Plus, Store, Trash2 } from "lucide-react";
import { useState } from "react";
import { DataTable, Pagination, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { CafePricesModal } from "../../components/services/cafe-prices-modal";
import { PlaceServicesPopover, type PlaceTarget } from "../../components/services/place-services-popover";
import { ServiceModal } from "../../components/services/service-modal";
import type {
  CafePrices,
  ServiceAbilities,
  ServiceOption,
  ServiceRow,
  ServiceTreeMine,
  ServiceType,
} from "../../components/services/types";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { PageHeader } from "../../components/ui/page-header";
import { Select } from "../../components/ui/select";
import { Chips } from "../../components/ui/chips";
import { TabList } from "../../components/ui/tabs";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  filters: {
    search: string;
    type: ServiceType | null;
    status: "active" | "inactive" | null;
    tab: "services" | "places";
    placesSearch: string;
  };
  types: ServiceType[];
  services: Page<ServiceRow>;
  serviceOptions: ServiceOption[];
  /** A page of mines with their units and cafes; only sent while the "Lugares" tab is open. */
  tree: Page<ServiceTreeMine> | null;
  cafePrices?: CafePrices | null;
  can: ServiceAbilities;
}

type Tab = "services" | "places";
type Modal =
  | { kind: "service"; service: ServiceRow | null }
  | { kind: "place"; place: PlaceTarget; anchor: HTMLElement }
  | { kind: "prices" }
  | null;

export default function ServicesIndex({ filters, types, services, serviceOptions, tree, cafePrices, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const [tab, setTab] = useState<Tab>(filters.tab);
  const [modal, setModal] = useState<Modal>(null);
  const close = () => setModal(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const codes = new Map(serviceOptions.map((s) => [s.id, s.code]));
  const codesOf = (ids: number[]) => ids.map((id) => codes.get(id) ?? "?").sort();

  const confirm = useConfirm();
  const remove = async (service: ServiceRow) => {
    if (
      await confirm({
        title: t("services.confirm_delete", { code: service.code }),
        description: t("ui.consequences.service"),
      })
    )
      router.delete(route("services.destroy", { service: service.id }), { preserveScroll: true });
  };
  const openPrices = (cafeId: number) =>
    router.reload({ only: ["cafePrices"], data: { prices: cafeId }, onSuccess: () => setModal({ kind: "prices" }) });
  const chooseTab = (next: Tab) => {
    setTab(next);
    visitWith({ tab: next === "places" ? "places" : null, places_page: null, places_search: null });
  };

  const tabs: { id: Tab; label: string }[] = [
    { id: "services", label: t("services.tab_services") },
    { id: "places", label: t("services.tab_places") },
  ];

  // Plain render functions, not components: a component declared inside the page would be a new type on every
  // render, and React would throw the server-rendered markup away.
  const serviceChips = (ids: number[]) => (
    <Chips
      mono
      max={5}
      empty={t("services.none_offered")}
      items={codesOf(ids).map((code) => ({ key: code, label: code }))}
    />
  );

  // A place's services popover: its button opens it, and closes it again.
  const placeOpen = (place: PlaceTarget) =>
    modal?.kind === "place" && modal.place.kind === place.kind && modal.place.id === place.id;
  const placeButton = (place: PlaceTarget) =>
    can.managePlaces ? (
      <Button
        variant="outline"
        className="h-7 px-2 text-xs"
        onClick={(e) => setModal(placeOpen(place) ? null : { kind: "place", place, anchor: e.currentTarget })}
        aria-label={t("services.choose_services_of", { place: place.name })}
        aria-expanded={placeOpen(place)}
        aria-haspopup="dialog"
      >
        <ListChecks className="size-3.5" aria-hidden="true" />
        {t("services.choose_services")}
      </Button>
    ) : null;

  const columns: DataColumn<ServiceRow>[] = [
    { id: "code", header: t("services.code"), className: "font-mono sm:whitespace-nowrap", cell: (s) => s.code },
    {
      id: "name",
      header: t("services.name"),
      primary: true,
      cell: (s) => (
        <>
          <span className="font-medium">{s.name}</span>
          {s.description && (
            <span className="block text-xs font-normal text-muted-foreground sm:truncate">{s.description}</span>
          )}
        </>
      ),
      title: (s) => (s.description ? `${s.name} — ${s.description}` : s.name),
      maxWidth: "sm:max-w-80",
    },
    { id: "type", header: t("services.type"), cell: (s) => t(`services.types.${s.type}`) },
    {
      id: "status",
      header: t("services.status"),
      cell: (s) => (
        <span
          className={cn(
            "whitespace-nowrap rounded-full px-2 py-0.5 text-xs",
            s.active ? "bg-success/15" : "bg-muted text-muted-foreground",
          )}
        >
          {t(s.active ? "services.active" : "services.inactive")}
        </span>
      ),
    },
    { id: "places", header: t("services.places"), cell: (s) => s.places },
    {
      id: "actions",
      header: t("services.actions"),
      headerHidden: true,
      actions: true,
      cell: (service) =>
        can.manage && (
          <span className="inline-flex gap-0.5">
            <IconButton
              label={`${t("services.edit")} ${service.code}`}
              onClick={() => setModal({ kind: "service", service })}
            >
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton danger label={`${t("services.delete")} ${service.code}`} onClick={() => remove(service)}>
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          </span>
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("services.title")} />
      <PageHeader
        title={t("services.title")}
        description={t("services.description")}
        actions={
          tab === "services" && (
            <>
              <a
                href={route("services.export", {
                  ...(filters.search ? { search: filters.search } : {}),
                  ...(filters.type ? { type: filters.type } : {}),
                  ...(filters.status ? { status: filters.status } : {}),
                })}
                download
                className={buttonClasses("outline")}
              >
                <Download className="size-4" aria-hidden="true" />
                {t("export.button")}
              </a>
              {can.manage && (
                <Button onClick={() => setModal({ kind: "service", service: null })}>
                  <Plus className="size-4" aria-hidden="true" />
                  {t("services.new")}
                </Button>
              )}
            </>
          )
        }
        tabs={<TabList label={t("services.title")} tabs={tabs} current={tab} onChange={chooseTab} />}
      />
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      {tab === "services" && (
        <div role="tabpanel" id="panel-services" aria-labelledby="tab-services">
          <DataTable
            caption={t("services.title")}
            storageKey="services"
            columns={columns}
            page={services}
            rowKey={(s) => s.id}
            empty={t("services.none")}
            toolbar={
              <>
                <SearchBox value={filters.search} label={t("services.search")} />
                <Select
                  aria-label={t("services.type")}
                  className="w-auto min-w-40"
                  value={filters.type ?? ""}
                  onValueChange={(value) => visitWith({ type: value, page: null })}
                  options={[
                    { value: "", label: t("services.all_types") },
                    ...types.map((type) => ({ value: type, label: t(`services.types.${type}`) })),
                  ]}
                />
                <Select
                  aria-label={t("services.status")}
                  className="w-auto min-w-40"
                  value={filters.status ?? ""}
                  onValueChange={(value) => visitWith({ status: value, page: null })}
                  options={[
                    { value: "", label: t("services.all_statuses") },
                    { value: "active", label: t("services.active") },
                    { value: "inactive", label: t("services.inactive") },
                  ]}
                />
              </>
            }
          />
        </div>
      )}

      {tab === "places" && (
        <div role="tabpanel" id="panel-places" aria-labelledby="tab-places" className="space-y-3">
          <p className="text-sm text-muted-foreground">{t("services.tree_description")}</p>
          <SearchBox
            value={filters.placesSearch}
            label={t("services.search_places")}
            param="places_search"
            pageParam="places_page"
          />
          {tree && tree.data.length === 0 && (
            <p className="text-sm">{t(filters.placesSearch ? "services.no_places_found" : "services.no_places")}</p>
          )}
          <ul className="space-y-3">
            {(tree?.data ?? []).map((mine) => (
              <li key={mine.id} className="rounded-xl border bg-card">
                <div className="flex flex-wrap items-center justify-between gap-2 border-b px-3 py-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <Building2 className="size-4 text-muted-foreground" aria-hidden="true" />
                    <span className="text-xs uppercase text-muted-foreground">{t("services.kind.mine")}</span>
                    <span className="font-semibold">{mine.name}</span>
                    {serviceChips(mine.serviceIds)}
                  </div>
                  {placeButton({
                    kind: "mine",
                    id: mine.id,
                    name: mine.name,
                    serviceIds: mine.serviceIds,
                    parent: null,
                  })}
                </div>
                <ul className="divide-y">
                  {mine.units.map((unit) => (
                    <li key={unit.id} className="px-3 py-2 pl-8">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <div className="flex flex-wrap items-center gap-2">
                          <span className="text-xs uppercase text-muted-foreground">{t("services.kind.unit")}</span>
                          <span className="font-medium">{unit.name}</span>
                          {serviceChips(unit.serviceIds)}
                        </div>
                        {placeButton({
                          kind: "unit",
                          id: unit.id,
                          name: unit.name,
                          serviceIds: unit.serviceIds,
                          parent: { name: mine.name, serviceIds: mine.serviceIds },
                        })}
                      </div>
                      <ul className="mt-1 space-y-1">
                        {unit.cafes.map((cafe) => (
                          <li key={cafe.id} className="flex flex-wrap items-center justify-between gap-2 pl-6">
                            <div className="flex flex-wrap items-center gap-2">
                              <Store className="size-4 text-muted-foreground" aria-hidden="true" />
                              <span className="text-xs uppercase text-muted-foreground">{t("services.kind.cafe")}</span>
                              <span>{cafe.name}</span>
                              {serviceChips(cafe.serviceIds)}
                              {cafe.serviceIds.length > 0 && (
                                <span className="text-xs text-muted-foreground">
                                  {t("services.priced", { count: cafe.priced })}
                                </span>
                              )}
                            </div>
                            <span className="inline-flex gap-1">
                              {placeButton({
                                kind: "cafe",
                                id: cafe.id,
                                name: cafe.name,
                                serviceIds: cafe.serviceIds,
                                parent: { name: unit.name, serviceIds: unit.serviceIds },
                              })}
                              <Button
                                variant="outline"
                                className="h-7 px-2 text-xs"
                                onClick={() => openPrices(cafe.id)}
                                aria-label={t("services.prices_of", { place: cafe.name })}
                              >
                                <Coins className="size-3.5" aria-hidden="true" />
                                {t("services.prices")}
                              </Button>
                            </span>
                          </li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          {tree && <Pagination page={tree} param="places_page" label={t("services.tab_places")} />}
        </div>
      )}

      {modal?.kind === "service" && <ServiceModal service={modal.service} types={types} onClose={close} />}
      {modal?.kind === "place" && (
        <PlaceServicesPopover place={modal.place} services={serviceOptions} anchor={modal.anchor} onClose={close} />
      )}
      {modal?.kind === "prices" && cafePrices && (
        <CafePricesModal
          key={cafePrices.cafe.id}
          prices={cafePrices}
          canManage={can.managePrices}
          reload={["tree"]}
          onClose={close}
        />
      )}
    </div>
  );
}
