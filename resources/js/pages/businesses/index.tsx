/**
 * Businesses: the caterer's legal entities with their headquarters and cafe counts, the services each offers (a
 * dialog per row), the cafes each operates (shown under the row), the insert-business dialog and the export.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { ChevronDown, ChevronRight, Download, ListChecks, Pencil, Plus, Store, Trash2 } from "lucide-react";
import { Fragment, useState } from "react";
import { BusinessModal } from "../../components/businesses/business-modal";
import { BusinessServicesModal } from "../../components/businesses/business-services-modal";
import type { BusinessRow, OrganisationTab, ServiceOption } from "../../components/businesses/types";
import { Pagination, SearchBox, Table, td, type Page } from "../../components/data-table";
import { OrganisationTabs } from "../../components/organisation-tabs";
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  tabs: OrganisationTab[];
  filters: { search: string };
  businesses: Page<BusinessRow>;
  serviceOptions: ServiceOption[];
  rucLength: number;
  can: { manage: boolean; createAndDelete: boolean };
}

type Modal = { kind: "business"; business: BusinessRow | null } | { kind: "services"; business: BusinessRow } | null;

export default function BusinessesIndex({ tabs, filters, businesses, serviceOptions, rucLength, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const [modal, setModal] = useState<Modal>(null);
  const [expanded, setExpanded] = useState<number[]>([]);
  const close = () => setModal(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const codes = new Map(serviceOptions.map((s) => [s.id, s.code]));

  const remove = (business: BusinessRow) => {
    if (window.confirm(t("businesses.confirm_delete", { name: business.name })))
      router.delete(route("businesses.destroy", { business: business.id }), { preserveScroll: true });
  };
  const toggle = (id: number) => setExpanded((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  const exportHref = route("businesses.export", filters.search ? { search: filters.search } : {});
  const headers = [
    <span className="sr-only">{t("businesses.operated_cafes")}</span>,
    t("businesses.name"),
    t("businesses.ruc"),
    t("businesses.email"),
    t("businesses.phone"),
    t("businesses.headquarters_count"),
    t("businesses.cafes_count"),
    t("businesses.services"),
    <span className="sr-only">{t("businesses.actions")}</span>,
  ];

  return (
    <div className="space-y-6">
      <Head title={t("businesses.title")} />
      <OrganisationTabs tabs={tabs} current="businesses" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("businesses.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("businesses.description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={exportHref} download className={buttonClasses("outline")}>
            <Download className="size-4" aria-hidden="true" />
            {t("businesses.export")}
          </a>
          {can.createAndDelete && (
            <Button onClick={() => setModal({ kind: "business", business: null })}>
              <Plus className="size-4" aria-hidden="true" />
              {t("businesses.new")}
            </Button>
          )}
        </div>
      </header>
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <SearchBox value={filters.search} label={t("businesses.search")} />
      <Table
        actions
        caption={t("businesses.title")}
        headers={headers}
        empty={businesses.data.length === 0 ? t("businesses.none") : null}
      >
        {businesses.data.map((business) => {
          const open = expanded.includes(business.id);
          const serviceCodes = business.serviceIds.map((id) => codes.get(id) ?? "?").sort();
          return (
            <Fragment key={business.id}>
              <tr>
                <td className={cn(td, "w-8")}>
                  <button
                    type="button"
                    className="rounded p-1 hover:bg-accent"
                    aria-expanded={open}
                    aria-controls={`business-cafes-${business.id}`}
                    aria-label={t(open ? "businesses.hide_cafes_of" : "businesses.show_cafes_of", {
                      name: business.name,
                    })}
                    onClick={() => toggle(business.id)}
                  >
                    {open ? (
                      <ChevronDown className="size-4" aria-hidden="true" />
                    ) : (
                      <ChevronRight className="size-4" aria-hidden="true" />
                    )}
                  </button>
                </td>
                <td className={td}>
                  <div className="font-medium">{business.name}</div>
                  <div className="text-xs text-muted-foreground">{business.fiscalAddress}</div>
                </td>
                <td className={cn(td, "whitespace-nowrap font-mono")}>{business.ruc}</td>
                <td className={td}>{business.email}</td>
                <td className={cn(td, "whitespace-nowrap")}>{business.phone}</td>
                <td className={td}>{business.headquarters}</td>
                <td className={td}>{business.cafes}</td>
                <td className={td}>
                  {serviceCodes.length ? (
                    <span className="flex flex-wrap gap-1">
                      {serviceCodes.map((code) => (
                        <span key={code} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                          {code}
                        </span>
                      ))}
                    </span>
                  ) : (
                    <span className="text-xs text-muted-foreground">{t("businesses.no_services")}</span>
                  )}
                </td>
                <td className={cn(td, "whitespace-nowrap text-right")}>
                  {can.manage && (
                    <span className="inline-flex gap-1">
                      <button
                        type="button"
                        className="rounded p-1 hover:bg-accent"
                        onClick={() => setModal({ kind: "services", business })}
                        aria-label={t("businesses.choose_services_of", { name: business.name })}
                      >
                        <ListChecks className="size-4" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="rounded p-1 hover:bg-accent"
                        onClick={() => setModal({ kind: "business", business })}
                        aria-label={`${t("businesses.edit")} ${business.name}`}
                      >
                        <Pencil className="size-4" aria-hidden="true" />
                      </button>
                      {can.createAndDelete && (
                        <button
                          type="button"
                          className="rounded p-1 text-destructive hover:bg-accent"
                          onClick={() => remove(business)}
                          aria-label={`${t("businesses.delete")} ${business.name}`}
                        >
                          <Trash2 className="size-4" aria-hidden="true" />
                        </button>
                      )}
                    </span>
                  )}
                </td>
              </tr>
              {open && (
                <tr id={`business-cafes-${business.id}`}>
                  <td className={td} />
                  <td className={cn(td, "bg-muted/40")} colSpan={headers.length - 1}>
                    <div className="text-xs font-medium uppercase text-muted-foreground">
                      {t("businesses.operated_cafes")}
                    </div>
                    {business.operatedCafes.length === 0 ? (
                      <p className="text-sm">{t("businesses.no_cafes")}</p>
                    ) : (
                      <ul className="mt-1 space-y-0.5 text-sm">
                        {business.operatedCafes.map((cafe) => (
                          <li key={cafe.id} className="flex items-center gap-2">
                            <Store className="size-3.5 text-muted-foreground" aria-hidden="true" />
                            <span className="font-medium">{cafe.name}</span>
                            <span className="text-muted-foreground">
                              {cafe.unit} / {cafe.mine}
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                    <p className="mt-1 text-xs text-muted-foreground">{t("businesses.cafes_note")}</p>
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </Table>
      <Pagination page={businesses} />

      {modal?.kind === "business" && <BusinessModal business={modal.business} rucLength={rucLength} onClose={close} />}
      {modal?.kind === "services" && (
        <BusinessServicesModal business={modal.business} services={serviceOptions} onClose={close} />
      )}
    </div>
  );
}
