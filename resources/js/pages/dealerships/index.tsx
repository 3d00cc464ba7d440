/**
 * Dealerships: the client companies as an expandable dealership → subdealership tree, paginated and searchable on
 * the server (a search that matches a subdealership shows its dealership expanded), with the dialogs to create,
 * edit and delete both.
 */
import { Head, usePage } from "@inertiajs/react";
import { Plus } from "lucide-react";
import { Pagination, SearchBox, type Page } from "../../components/data-table";
import { DealershipModals, useDealershipModals } from "../../components/dealerships/dealership-modals";
import { DealershipTree } from "../../components/dealerships/dealership-tree";
import type { DealershipDialogProps, DealershipTreeRow } from "../../components/dealerships/types";
import { Button } from "../../components/ui/button";
import { PageHeader } from "../../components/ui/page-header";
import { OtherErrors } from "../../components/ui/form-errors";
import { useI18n } from "../../hooks/use-i18n";

interface Props extends DealershipDialogProps {
  filters: { search: string };
  tree: Page<DealershipTreeRow>;
}

export default function DealershipsIndex({ filters, tree, ...dialog }: Props) {
  const { t } = useI18n();
  const modals = useDealershipModals();
  const pageErrors = usePage().props.errors as Record<string, string>;
  const { setModal } = modals;

  return (
    <div className="space-y-6">
      <Head title={t("dealerships.title")} />
      <PageHeader
        title={t("dealerships.title")}
        description={t("dealerships.description")}
        actions={
          dialog.can.manage && (
            <>
              <Button variant="outline" onClick={() => setModal({ kind: "subdealership", subdealership: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("dealerships.new_subdealership")}
              </Button>
              <Button onClick={() => setModal({ kind: "dealership", dealership: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("dealerships.new")}
              </Button>
            </>
          )
        }
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <SearchBox value={filters.search} label={t("dealerships.search")} />
      <DealershipTree
        key={`${filters.search}:${tree.page}`}
        rows={tree.data}
        canManage={dialog.can.manage}
        empty={t(filters.search ? "dealerships.none_found" : "dealerships.none")}
        actions={{
          editDealership: (row) => setModal({ kind: "dealership", dealership: row }),
          deleteDealership: modals.deleteDealership,
          addSubdealership: (row) => setModal({ kind: "subdealership", subdealership: null, dealershipId: row.id }),
          editSubdealership: (row) => setModal({ kind: "subdealership", subdealership: row }),
          deleteSubdealership: modals.deleteSubdealership,
        }}
      />
      <Pagination page={tree} label={t("dealerships.tree_label")} />
      <DealershipModals modal={modals.modal} close={modals.close} dialog={dialog} />
    </div>
  );
}
