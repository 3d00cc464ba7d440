/** The "Concesionarias" tab of the Businesses area: dealerships as a flat table, searchable, with export and dialogs. */
import { Head, usePage } from "@inertiajs/react";
import { Download, Plus } from "lucide-react";
import { Pagination, SearchBox, Table, td, type Page } from "../../components/data-table";
import { DealershipModals, useDealershipModals } from "../../components/dealerships/dealership-modals";
import { RowActions } from "../../components/dealerships/row-actions";
import type { DealershipDialogProps, DealershipRow } from "../../components/dealerships/types";
import { OrganisationTabs, type OrganisationTab } from "../../components/organisation-tabs";
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

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

  return (
    <div className="space-y-6">
      <Head title={t("dealerships.title")} />
      <OrganisationTabs tabs={tabs} current="dealerships" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("dealerships.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("dealerships.dealerships_description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
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
        </div>
      </header>
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <SearchBox value={filters.search} label={t("dealerships.search_dealerships")} />
      <Table
        actions
        caption={t("dealerships.title")}
        headers={[
          t("dealerships.name"),
          t("dealerships.ruc"),
          t("dealerships.fiscal_address"),
          t("dealerships.phone"),
          t("dealerships.email"),
          t("dealerships.subdealership_count"),
          <span className="sr-only">{t("dealerships.actions")}</span>,
        ]}
        empty={dealerships.data.length === 0 ? t(filters.search ? "dealerships.none_found" : "dealerships.none") : null}
      >
        {dealerships.data.map((row) => (
          <tr key={row.id}>
            <td className={cn(td, "font-medium")}>{row.name}</td>
            <td className={cn(td, "whitespace-nowrap font-mono")}>{row.ruc}</td>
            <td className={td}>{row.fiscalAddress}</td>
            <td className={cn(td, "whitespace-nowrap")}>{row.phone}</td>
            <td className={td}>{row.email}</td>
            <td className={td}>{row.subdealershipCount}</td>
            <td className={cn(td, "whitespace-nowrap text-right")}>
              {dialog.can.manage && (
                <RowActions
                  name={row.name}
                  onEdit={() => modals.setModal({ kind: "dealership", dealership: row })}
                  onDelete={() => modals.deleteDealership(row)}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
      <Pagination page={dealerships} />
      <DealershipModals modal={modals.modal} close={modals.close} dialog={dialog} />
    </div>
  );
}
