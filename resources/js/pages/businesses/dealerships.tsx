/** The "Concesionarias" tab of the Businesses area: dealerships as a flat table, searchable, with export and dialogs. */
import { Head, usePage } from "@inertiajs/react";
import { Download, Plus } from "lucide-react";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { DealershipModals, useDealershipModals } from "../../components/dealerships/dealership-modals";
import { RowActions } from "../../components/dealerships/row-actions";
import type { DealershipDialogProps, DealershipRow } from "../../components/dealerships/types";
import { OrganisationTabs, type OrganisationTab } from "../../components/organisation-tabs";
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

interface Props extends DealershipDialogProps {
  tabs: OrganisationTab[];
  filters: { search: string };
  dealerships: Page<DealershipRow>;
}

export default function BusinessDealerships({ tabs, filters, dealerships, ...dialog }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const modals = useDealershipModals();
  const pageErrors = usePage().props.errors as Record<string, string>;
  const exportUrl =
    route("dealerships.export") + (filters.search ? `?search=${encodeURIComponent(filters.search)}` : "");

  const columns: DataColumn<DealershipRow>[] = [
    { id: "name", header: t("dealerships.name"), primary: true, cell: (row) => row.name, title: (row) => row.name },
    { id: "ruc", header: t("dealerships.ruc"), className: "font-mono sm:whitespace-nowrap", cell: (row) => row.ruc },
    {
      id: "fiscal_address",
      header: t("dealerships.fiscal_address"),
      cell: (row) => row.fiscalAddress,
      title: (row) => row.fiscalAddress,
    },
    { id: "phone", header: t("dealerships.phone"), className: "sm:whitespace-nowrap", cell: (row) => row.phone },
    {
      id: "email",
      header: t("dealerships.email"),
      cell: (row) => row.email,
      title: (row) => row.email,
      maxWidth: "sm:max-w-48",
    },
    { id: "subdealerships", header: t("dealerships.subdealership_count"), cell: (row) => row.subdealershipCount },
    {
      id: "actions",
      header: t("dealerships.actions"),
      headerHidden: true,
      actions: true,
      cell: (row) =>
        dialog.can.manage && (
          <RowActions
            name={row.name}
            onEdit={() => modals.setModal({ kind: "dealership", dealership: row })}
            onDelete={() => modals.deleteDealership(row)}
          />
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("dealerships.title")} />
      <PageHeader
        title={t("dealerships.title")}
        description={t("dealerships.dealerships_description")}
        actions={
          <>
            <a href={exportUrl} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("dealerships.export")}
            </a>
            {dialog.can.manage && (
              <Button onClick={() => modals.setModal({ kind: "dealership", dealership: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("dealerships.new")}
              </Button>
            )}
          </>
        }
        tabs={<OrganisationTabs tabs={tabs} current="dealerships" />}
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <DataTable
        caption={t("dealerships.title")}
        storageKey="dealerships"
        columns={columns}
        page={dealerships}
        rowKey={(row) => row.id}
        empty={t(filters.search ? "dealerships.none_found" : "dealerships.none")}
        toolbar={<SearchBox value={filters.search} label={t("dealerships.search_dealerships")} />}
      />
      <DealershipModals modal={modals.modal} close={modals.close} dialog={dialog} />
    </div>
  );
}
