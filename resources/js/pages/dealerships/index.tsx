/**
 * Dealerships: the one page of the client companies and their subdealerships — an expandable dealership →
 * subdealership tree, searched, sorted and paginated on the server (a search that matches a subdealership shows its
 * dealership expanded), exported to Excel as the tree shows it, with the dialogs to create, edit and delete both.
 */
import { Head, usePage } from "@inertiajs/react";
import { Download, Plus } from "lucide-react";
import { SearchBox, type Page } from "../../components/data-table";
import { DealershipDialogs, useDealershipModals } from "../../components/dealerships/dealership-dialogs";
import { DealershipTree } from "../../components/dealerships/dealership-tree";
import type { DealershipDialogProps, DealershipTreeRow } from "../../components/dealerships/types";
import { Button, buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

interface Props extends DealershipDialogProps {
  filters: { search: string; sort: string | null; direction: "asc" | "desc" };
  tree: Page<DealershipTreeRow>;
}

export default function DealershipsIndex({ filters, tree, ...dialog }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const modals = useDealershipModals();
  const pageErrors = usePage().props.errors as Record<string, string>;
  const { setModal } = modals;
  const exportUrl = route("dealerships.export", {
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });

  return (
    <div className="space-y-6">
      <Head title={t("dealerships.title")} />
      <PageHeader
        title={t("dealerships.title")}
        description={t("dealerships.description")}
        actions={
          <>
            <a href={exportUrl} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("dealerships.export")}
            </a>
            {dialog.can.manage && (
              <Button variant="outline" onClick={() => setModal({ kind: "subdealership", subdealership: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("dealerships.new_subdealership")}
              </Button>
            )}
            {dialog.can.manage && (
              <Button onClick={() => setModal({ kind: "dealership", dealership: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("dealerships.new")}
              </Button>
            )}
          </>
        }
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <DealershipTree
        listKey={`${filters.search}:${filters.sort}:${filters.direction}:${tree.page}`}
        page={tree}
        sort={{ sort: filters.sort, direction: filters.direction }}
        toolbar={<SearchBox value={filters.search} label={t("dealerships.search")} />}
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
      <DealershipDialogs modal={modals.modal} close={modals.close} dialog={dialog} />
    </div>
  );
}
