/**
 * Properties: the company's assets with where they are kept and their status, searchable and filtered by status,
 * with the property dialog, each property's page and printable QR label, and the export.
 */
import { Head, Link, router, usePage } from "@inertiajs/react";
import { Download, Pencil, Plus, QrCode, Trash2 } from "lucide-react";
import { useState } from "react";
import { PropertyModal } from "../../components/businesses/property-modal";
import { PropertyStatusBadge } from "../../components/businesses/property-status";
import type { LocationOptions, OrganisationTab, PropertyRow, PropertyStatus } from "../../components/businesses/types";
import { Pagination, SearchBox, Table, td, visitWith, type Page } from "../../components/data-table";
import { OrganisationTabs } from "../../components/organisation-tabs";
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  tabs: OrganisationTab[];
  filters: { search: string; status: PropertyStatus | null };
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
  const remove = (property: PropertyRow) => {
    if (window.confirm(t("properties.confirm_delete", { code: property.code })))
      router.delete(route("properties.destroy", { property: property.id }), { preserveScroll: true });
  };
  const exportParams: Record<string, string> = {};
  if (filters.search) exportParams.search = filters.search;
  if (filters.status) exportParams.status = filters.status;
  const hasLocations = locations.headquarters.length + locations.cafes.length > 0;

  return (
    <div className="space-y-6">
      <Head title={t("properties.title")} />
      <OrganisationTabs tabs={tabs} current="properties" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("properties.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("properties.description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
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
        </div>
      </header>
      {can.manage && !hasLocations && <p className="text-sm text-muted-foreground">{t("properties.no_locations")}</p>}
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <div className="flex flex-wrap items-center gap-3">
        <SearchBox value={filters.search} label={t("properties.search")} />
        <select
          aria-label={t("properties.status")}
          className="h-9 rounded-md border border-input bg-card px-2 text-sm"
          value={filters.status ?? ""}
          onChange={(e) => visitWith({ status: e.target.value, page: null })}
        >
          <option value="">{t("properties.all_statuses")}</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {t(`properties.statuses.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <Table
        actions
        caption={t("properties.title")}
        headers={[
          t("properties.code"),
          t("properties.name"),
          t("properties.category"),
          t("properties.location"),
          t("properties.status"),
          t("properties.acquisition_value"),
          <span className="sr-only">{t("properties.actions")}</span>,
        ]}
        empty={properties.data.length === 0 ? t("properties.none") : null}
      >
        {properties.data.map((property) => (
          <tr key={property.id}>
            <td className={cn(td, "whitespace-nowrap font-mono")}>
              <Link
                href={route("properties.show", { property: property.id })}
                className="underline-offset-2 hover:underline"
                aria-label={t("properties.view", { code: property.code })}
              >
                {property.code}
              </Link>
            </td>
            <td className={td}>
              <div className="font-medium">{property.name}</div>
              {property.serial && <div className="font-mono text-xs text-muted-foreground">{property.serial}</div>}
            </td>
            <td className={td}>{property.category}</td>
            <td className={td}>
              <div>{property.location.name}</div>
              <div className="text-xs text-muted-foreground">{property.location.detail}</div>
            </td>
            <td className={td}>
              <PropertyStatusBadge status={property.status} />
            </td>
            <td className={cn(td, "whitespace-nowrap text-right tabular-nums")}>
              {property.acquisitionValueCents === null
                ? t("properties.not_set")
                : money(property.acquisitionValueCents)}
            </td>
            <td className={cn(td, "whitespace-nowrap text-right")}>
              <span className="inline-flex gap-1">
                <Link
                  href={route("properties.label", { property: property.id })}
                  className="rounded p-1 hover:bg-accent"
                  aria-label={`${t("properties.label")} ${property.code}`}
                >
                  <QrCode className="size-4" aria-hidden="true" />
                </Link>
                {can.manage && (
                  <>
                    <button
                      type="button"
                      className="rounded p-1 hover:bg-accent"
                      onClick={() => setModal({ property })}
                      aria-label={`${t("properties.edit")} ${property.code}`}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    <button
                      type="button"
                      className="rounded p-1 text-destructive hover:bg-accent"
                      onClick={() => remove(property)}
                      aria-label={`${t("properties.delete")} ${property.code}`}
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  </>
                )}
              </span>
            </td>
          </tr>
        ))}
      </Table>
      <Pagination page={properties} />

      {modal && (
        <PropertyModal
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
