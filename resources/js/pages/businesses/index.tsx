/**
 * Businesses: the caterer's legal entities with their headquarters and cafe counts, the services each offers (a
 * dialog per row), the cafes each operates (shown under the row), the insert-business dialog and the export.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { ChevronDown, ChevronRight, Download, ListChecks, Pencil, Plus, Store, Trash2 } from "lucide-react";
import { useState } from "react";
import { BusinessDialog } from "../../components/businesses/business-dialog";
import { BusinessServicesDialog } from "../../components/businesses/business-services-dialog";
import type { BusinessRow, OrganisationTab, ServiceOption } from "../../components/businesses/types";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { OrganisationTabs } from "../../components/organisation-tabs";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { Chips } from "../../components/ui/chips";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

interface Props {
  tabs: OrganisationTab[];
  filters: { search: string; sort: string | null; direction: "asc" | "desc" };
  businesses: Page<BusinessRow>;
  serviceOptions: ServiceOption[];
  rucLength: number;
  can: { manage: boolean; createAndDelete: boolean };
}

type Modal = { kind: "business"; business: BusinessRow | null } | { kind: "services"; business: BusinessRow } | null;

export default function BusinessesIndex({ tabs, filters, businesses, serviceOptions, rucLength, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const [modal, setModal] = useState<Modal>(null);
  const [expanded, setExpanded] = useState<number[]>([]);
  const close = () => setModal(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const codes = new Map(serviceOptions.map((s) => [s.id, s.code]));

  const remove = async (business: BusinessRow) => {
    const confirmed = await confirm({
      title: t("businesses.confirm_delete", { name: business.name }),
      description: t("ui.consequences.business"),
    });
    if (confirmed) router.delete(route("businesses.destroy", { business: business.id }), { preserveScroll: true });
  };
  const toggle = (id: number) => setExpanded((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  const exportHref = route("businesses.export", {
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });

  const columns: DataColumn<BusinessRow>[] = [
    {
      id: "cafes_toggle",
      header: t("businesses.operated_cafes"),
      headerHidden: true,
      hideable: false,
      // On a phone's card, at its top right corner.
      className: "w-10 max-sm:absolute max-sm:right-2 max-sm:top-2 max-sm:p-0",
      cell: (business) => {
        const open = expanded.includes(business.id);
        return (
          <IconButton
            label={t(open ? "businesses.hide_cafes_of" : "businesses.show_cafes_of", { name: business.name })}
            aria-expanded={open}
            aria-controls={`business-cafes-${business.id}`}
            onClick={() => toggle(business.id)}
          >
            {open ? (
              <ChevronDown className="size-4" aria-hidden="true" />
            ) : (
              <ChevronRight className="size-4" aria-hidden="true" />
            )}
          </IconButton>
        );
      },
    },
    {
      id: "name",
      sortable: true,
      header: t("businesses.name"),
      primary: true,
      cell: (business) => (
        <>
          <span className="font-medium">{business.name}</span>
          <span className="block truncate text-xs font-normal text-muted-foreground">{business.fiscalAddress}</span>
        </>
      ),
      title: (business) => `${business.name} — ${business.fiscalAddress}`,
      maxWidth: "sm:max-w-72",
      className: "max-sm:pr-10",
    },
    {
      id: "ruc",
      sortable: true,
      header: t("businesses.ruc"),
      className: "font-mono sm:whitespace-nowrap",
      cell: (b) => b.ruc,
    },
    {
      id: "email",
      header: t("businesses.email"),
      cell: (b) => b.email,
      title: (b) => b.email,
      maxWidth: "sm:max-w-48",
    },
    { id: "phone", header: t("businesses.phone"), className: "sm:whitespace-nowrap", cell: (b) => b.phone },
    { id: "headquarters", sortable: true, header: t("businesses.headquarters_count"), cell: (b) => b.headquarters },
    { id: "cafes", sortable: true, header: t("businesses.cafes_count"), cell: (b) => b.cafes },
    {
      id: "services",
      header: t("businesses.services"),
      cell: (b) => (
        <Chips
          mono
          max={4}
          empty={t("businesses.no_services")}
          items={b.serviceIds
            .map((id) => codes.get(id) ?? "?")
            .sort()
            .map((code) => ({ key: code, label: code }))}
        />
      ),
    },
    {
      id: "actions",
      header: t("businesses.actions"),
      headerHidden: true,
      actions: true,
      cell: (business) =>
        can.manage && (
          <span className="inline-flex gap-0.5">
            <IconButton
              label={t("businesses.choose_services_of", { name: business.name })}
              onClick={() => setModal({ kind: "services", business })}
            >
              <ListChecks className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton
              label={`${t("businesses.edit")} ${business.name}`}
              onClick={() => setModal({ kind: "business", business })}
            >
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
            {can.createAndDelete && (
              <IconButton danger label={`${t("businesses.delete")} ${business.name}`} onClick={() => remove(business)}>
                <Trash2 className="size-4" aria-hidden="true" />
              </IconButton>
            )}
          </span>
        ),
    },
  ];

  const operatedCafes = (business: BusinessRow) =>
    expanded.includes(business.id) ? (
      <div id={`business-cafes-${business.id}`} className="sm:pl-10">
        <div className="text-xs font-medium uppercase text-muted-foreground">{t("businesses.operated_cafes")}</div>
        {business.operatedCafes.length === 0 ? (
          <p className="text-sm">{t("businesses.no_cafes")}</p>
        ) : (
          <ul className="mt-1 space-y-0.5 text-sm">
            {business.operatedCafes.map((cafe) => (
              <li key={cafe.id} className="flex flex-wrap items-center gap-x-2">
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
      </div>
    ) : null;

  return (
    <div className="space-y-6">
      <Head title={t("businesses.title")} />
      <PageHeader
        title={t("businesses.title")}
        description={t("businesses.description")}
        actions={
          <>
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
          </>
        }
        tabs={<OrganisationTabs tabs={tabs} current="businesses" />}
      />
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <DataTable
        caption={t("businesses.title")}
        storageKey="businesses"
        columns={columns}
        page={businesses}
        rowKey={(b) => b.id}
        empty={t("businesses.none")}
        sort={{ sort: filters.sort, direction: filters.direction }}
        toolbar={<SearchBox value={filters.search} label={t("businesses.search")} />}
        renderExpanded={operatedCafes}
      />

      {modal?.kind === "business" && <BusinessDialog business={modal.business} rucLength={rucLength} onClose={close} />}
      {modal?.kind === "services" && (
        <BusinessServicesDialog business={modal.business} services={serviceOptions} onClose={close} />
      )}
    </div>
  );
}
