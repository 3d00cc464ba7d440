/**
 * Services: the catalogue of services cafes sell (create, edit, delete while unused) and, in the "Lugares" tab,
 * the mines → units → cafes within scope with the services each offers and each cafe's prices.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { OtherErrors } from "../../components/ui/form-errors";
import { Building2, Coins, Download, ListChecks, Pencil, Plus, Store, Trash2 } from "lucide-react";
import { useState } from "react";
import { Pagination, SearchBox, Table, td, visitWith, type Page } from "../../components/data-table";
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
import { Button, buttonClasses } from "../../components/ui/button";
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

  const remove = (service: ServiceRow) => {
    if (window.confirm(t("services.confirm_delete", { code: service.code })))
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
  const serviceChips = (ids: number[]) =>
    ids.length ? (
      <span className="flex flex-wrap gap-1">
        {codesOf(ids).map((code) => (
          <span key={code} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
            {code}
          </span>
        ))}
      </span>
    ) : (
      <span className="text-xs text-muted-foreground">{t("services.none_offered")}</span>
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

  return (
    <div className="space-y-6">
      <Head title={t("services.title")} />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("services.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("services.description")}</p>
        </div>
        {tab === "services" && (
          <div className="flex flex-wrap gap-2">
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
          </div>
        )}
      </header>
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <TabList label={t("services.title")} tabs={tabs} current={tab} onChange={chooseTab} />

      {tab === "services" && (
        <div role="tabpanel" id="panel-services" aria-labelledby="tab-services" className="space-y-3">
          <div className="flex flex-wrap items-center gap-3">
            <SearchBox value={filters.search} label={t("services.search")} />
            <select
              aria-label={t("services.type")}
              className="h-9 rounded-md border border-input bg-card px-2 text-sm"
              value={filters.type ?? ""}
              onChange={(e) => visitWith({ type: e.target.value, page: null })}
            >
              <option value="">{t("services.all_types")}</option>
              {types.map((type) => (
                <option key={type} value={type}>
                  {t(`services.types.${type}`)}
                </option>
              ))}
            </select>
            <select
              aria-label={t("services.status")}
              className="h-9 rounded-md border border-input bg-card px-2 text-sm"
              value={filters.status ?? ""}
              onChange={(e) => visitWith({ status: e.target.value, page: null })}
            >
              <option value="">{t("services.all_statuses")}</option>
              <option value="active">{t("services.active")}</option>
              <option value="inactive">{t("services.inactive")}</option>
            </select>
          </div>
          <Table
            actions
            caption={t("services.title")}
            headers={[
              t("services.code"),
              t("services.name"),
              t("services.type"),
              t("services.status"),
              t("services.places"),
              <span className="sr-only">{t("services.actions")}</span>,
            ]}
            empty={services.data.length === 0 ? t("services.none") : null}
          >
            {services.data.map((service) => (
              <tr key={service.id}>
                <td className={cn(td, "font-mono")}>{service.code}</td>
                <td className={td}>
                  <div className="font-medium">{service.name}</div>
                  {service.description && <div className="text-xs text-muted-foreground">{service.description}</div>}
                </td>
                <td className={td}>{t(`services.types.${service.type}`)}</td>
                <td className={td}>
                  <span
                    className={cn(
                      "rounded-full px-2 py-0.5 text-xs",
                      service.active ? "bg-success/15" : "bg-muted text-muted-foreground",
                    )}
                  >
                    {t(service.active ? "services.active" : "services.inactive")}
                  </span>
                </td>
                <td className={td}>{service.places}</td>
                <td className={cn(td, "whitespace-nowrap text-right")}>
                  {can.manage && (
                    <span className="inline-flex gap-1">
                      <button
                        type="button"
                        className="rounded p-1 hover:bg-accent"
                        onClick={() => setModal({ kind: "service", service })}
                        aria-label={`${t("services.edit")} ${service.code}`}
                      >
                        <Pencil className="size-4" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="rounded p-1 text-destructive hover:bg-accent"
                        onClick={() => remove(service)}
                        aria-label={`${t("services.delete")} ${service.code}`}
                      >
                        <Trash2 className="size-4" aria-hidden="true" />
                      </button>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          <Pagination page={services} />
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
          {tree && <Pagination page={tree} param="places_page" />}
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
