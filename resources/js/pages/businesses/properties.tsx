/**
 * Properties: the company's assets with where they are kept and their status, searchable and filtered by status,
 * with the property dialog, each property's page and printable QR label, and the export.
 */
import { Head, Link, router, usePage } from "@inertiajs/react";
import { Download, Pencil, Plus, QrCode, Trash2 } from "lucide-react";
import { useState } from "react";
import { PropertyDialog } from "../../components/businesses/property-dialog";
import { PropertyStatusBadge } from "../../components/businesses/property-status";
import type { LocationOptions, OrganisationTab, PropertyRow, PropertyStatus } from "../../components/businesses/types";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { OrganisationTabs } from "../../components/organisation-tabs";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { Select } from "../../components/ui/select";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

interface Props {
  tabs: OrganisationTab[];
  filters: {
    search: string;
    status: PropertyStatus | null;
    sort: string | null;
    direction: "asc" | "desc";
  };
  statuses: PropertyStatus[];
  properties: Page<PropertyRow>;
  locations: LocationOptions;
  categories: string[];
  today: string;
  can: { manage: boolean };
}

type Modal = { property: PropertyRow | null } | null;

export default function PropertiesIndex({
  tabs,
  filters,
  statuses,
  properties,
  locations,
  categories,
  today,
  can,
}: Props) {
  const { t, money } = useI18n();
  const route = useRoute();
  const [modal, setModal] = useState<Modal>(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const confirm = useConfirm();
  const remove = async (property: PropertyRow) => {
    const confirmed = await confirm({
      title: t("properties.confirm_delete", { code: property.code }),
      description: t("ui.consequences.property"),
    });
    if (confirmed) router.delete(route("properties.destroy", { property: property.id }), { preserveScroll: true });
  };
  const exportParams: Record<string, string> = {};
  if (filters.search) exportParams.search = filters.search;
  if (filters.status) exportParams.status = filters.status;
  if (filters.sort) Object.assign(exportParams, { sort: filters.sort, direction: filters.direction });
  const hasLocations = locations.headquarters.length + locations.cafes.length > 0;

  const columns: DataColumn<PropertyRow>[] = [
    {
      id: "code",
      sortable: true,
      header: t("properties.code"),
      className: "font-mono sm:whitespace-nowrap",
      cell: (property) => (
        <Link
          href={route("properties.show", { property: property.id })}
          className="underline-offset-2 hover:underline"
          aria-label={t("properties.view", { code: property.code })}
        >
          {property.code}
        </Link>
      ),
    },
    {
      id: "name",
      sortable: true,
      header: t("properties.name"),
      primary: true,
      cell: (property) => (
        <>
          <span className="font-medium">{property.name}</span>
          {property.serial && (
            <span className="block font-mono text-xs font-normal text-muted-foreground">{property.serial}</span>
          )}
        </>
      ),
      title: (property) => property.name,
    },
    {
      id: "category",
      sortable: true,
      header: t("properties.category"),
      cell: (property) => property.category,
      title: (property) => property.category,
      maxWidth: "sm:max-w-40",
    },
    {
      id: "location",
      header: t("properties.location"),
      cell: (property) => (
        <>
          {property.location.name}
          <span className="block truncate text-xs text-muted-foreground">{property.location.detail}</span>
        </>
      ),
      title: (property) => `${property.location.name} · ${property.location.detail}`,
      maxWidth: "sm:max-w-56",
    },
    {
      id: "status",
      sortable: true,
      header: t("properties.status"),
      cell: (property) => <PropertyStatusBadge status={property.status} />,
    },
    {
      id: "acquisition_value",
      sortable: true,
      header: t("properties.acquisition_value"),
      className: "tabular-nums sm:whitespace-nowrap sm:text-right",
      cell: (property) =>
        property.acquisitionValueCents === null ? t("properties.not_set") : money(property.acquisitionValueCents),
    },
    {
      id: "actions",
      header: t("properties.actions"),
      headerHidden: true,
      actions: true,
      cell: (property) => (
        <span className="inline-flex gap-0.5">
          <Link
            href={route("properties.label", { property: property.id })}
            className="inline-flex size-8 items-center justify-center rounded-md hover:bg-accent"
            aria-label={`${t("properties.label")} ${property.code}`}
            title={`${t("properties.label")} ${property.code}`}
          >
            <QrCode className="size-4" aria-hidden="true" />
          </Link>
          {can.manage && (
            <>
              <IconButton label={`${t("properties.edit")} ${property.code}`} onClick={() => setModal({ property })}>
                <Pencil className="size-4" aria-hidden="true" />
              </IconButton>
              <IconButton danger label={`${t("properties.delete")} ${property.code}`} onClick={() => remove(property)}>
                <Trash2 className="size-4" aria-hidden="true" />
              </IconButton>
            </>
          )}
        </span>
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("properties.title")} />
      <PageHeader
        title={t("properties.title")}
        description={t("properties.description")}
        actions={
          <>
            <a href={route("properties.export", exportParams)} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("properties.export")}
            </a>
            {can.manage && hasLocations && (
              <Button onClick={() => setModal({ property: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("properties.new")}
              </Button>
            )}
          </>
        }
        tabs={<OrganisationTabs tabs={tabs} current="properties" />}
      />
      {can.manage && !hasLocations && <p className="text-sm text-muted-foreground">{t("properties.no_locations")}</p>}
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <DataTable
        caption={t("properties.title")}
        storageKey="properties"
        columns={columns}
        page={properties}
        rowKey={(property) => property.id}
        empty={t("properties.none")}
        sort={{ sort: filters.sort, direction: filters.direction }}
        toolbar={
          <>
            <SearchBox value={filters.search} label={t("properties.search")} />
            <Select
              aria-label={t("properties.status")}
              className="w-auto min-w-40"
              value={filters.status ?? ""}
              onValueChange={(value) => visitWith({ status: value, page: null })}
              options={[
                { value: "", label: t("properties.all_statuses") },
                ...statuses.map((s) => ({ value: s, label: t(`properties.statuses.${s}`) })),
              ]}
            />
          </>
        }
      />

      {modal && (
        <PropertyDialog
          property={modal.property}
          statuses={statuses}
          locations={locations}
          categories={categories}
          today={today}
          onClose={() => setModal(null)}
        />
      )}
    </div>
  );
}
