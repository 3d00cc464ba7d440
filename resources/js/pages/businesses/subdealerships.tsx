/**
 * The "Subconcesionarias" tab of the Businesses area: subdealerships as a flat table with their dealership and
 * units, searchable, with export and dialogs.
 */
import { Head, usePage } from "@inertiajs/react";
import { Download, Plus } from "lucide-react";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { DealershipModals, useDealershipModals } from "../../components/dealerships/dealership-modals";
import { RowActions } from "../../components/dealerships/row-actions";
import type { DealershipDialogProps, SubdealershipRow } from "../../components/dealerships/types";
import { UnitChips } from "../../components/dealerships/unit-chips";
import { OrganisationTabs, type OrganisationTab } from "../../components/organisation-tabs";
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

interface Props extends DealershipDialogProps {
  tabs: OrganisationTab[];
  filters: { search: string };
  subdealerships: Page<SubdealershipRow>;
}

export default function BusinessSubdealerships({ tabs, filters, subdealerships, ...dialog }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const modals = useDealershipModals();
  const pageErrors = usePage().props.errors as Record<string, string>;
  const exportUrl =
    route("subdealerships.export") + (filters.search ? `?search=${encodeURIComponent(filters.search)}` : "");

  const columns: DataColumn<SubdealershipRow>[] = [
    { id: "name", header: t("dealerships.name"), primary: true, cell: (row) => row.name, title: (row) => row.name },
    { id: "ruc", header: t("dealerships.ruc"), className: "font-mono sm:whitespace-nowrap", cell: (row) => row.ruc },
    {
      id: "dealership",
      header: t("dealerships.dealership"),
      cell: (row) => row.dealershipName,
      title: (row) => row.dealershipName,
      maxWidth: "sm:max-w-48",
    },
    {
      id: "units",
      header: t("dealerships.units"),
      cell: (row) => <UnitChips units={row.units} hidden={row.hiddenUnits} />,
    },
    { id: "phone", header: t("dealerships.phone"), className: "sm:whitespace-nowrap", cell: (row) => row.phone },
    {
      id: "email",
      header: t("dealerships.email"),
      cell: (row) => row.email,
      title: (row) => row.email,
      maxWidth: "sm:max-w-48",
    },
    {
      id: "actions",
      header: t("dealerships.actions"),
      headerHidden: true,
      actions: true,
      cell: (row) =>
        dialog.can.manage && (
          <RowActions
            name={row.name}
            onEdit={() => modals.setModal({ kind: "subdealership", subdealership: row })}
            onDelete={() => modals.deleteSubdealership(row)}
          />
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("dealerships.subdealerships_title")} />
      <PageHeader
        title={t("dealerships.subdealerships_title")}
        description={t("dealerships.subdealerships_description")}
        actions={
          <>
            <a href={exportUrl} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("dealerships.export")}
            </a>
            {dialog.can.manage && (
              <Button onClick={() => modals.setModal({ kind: "subdealership", subdealership: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("dealerships.new_subdealership")}
              </Button>
            )}
          </>
        }
        tabs={<OrganisationTabs tabs={tabs} current="subdealerships" />}
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <DataTable
        caption={t("dealerships.subdealerships_title")}
        storageKey="subdealerships"
        columns={columns}
        page={subdealerships}
        rowKey={(row) => row.id}
        empty={t(filters.search ? "dealerships.no_subdealerships_found" : "dealerships.no_subdealerships_table")}
        toolbar={<SearchBox value={filters.search} label={t("dealerships.search_subdealerships")} />}
      />
      <DealershipModals modal={modals.modal} close={modals.close} dialog={dialog} />
    </div>
  );
}
