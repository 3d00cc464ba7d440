/** Headquarters: each business's offices with their areas and properties, the headquarters dialog and the export. */
import { Head, router, usePage } from "@inertiajs/react";
import { Download, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { HeadquartersDialog } from "../../components/businesses/headquarters-dialog";
import type { BusinessOption, HeadquartersRow, OrganisationTab } from "../../components/businesses/types";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { OrganisationTabs } from "../../components/organisation-tabs";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import type { CityOption } from "../../components/food/city-select";

interface Props {
  tabs: OrganisationTab[];
  filters: { search: string; sort: string | null; direction: "asc" | "desc" };
  headquarters: Page<HeadquartersRow>;
  businesses: BusinessOption[];
  cities: CityOption[];
  can: { manage: boolean };
}

type Modal = { headquarters: HeadquartersRow | null } | null;

export default function HeadquartersIndex({ tabs, filters, headquarters, businesses, cities, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const [modal, setModal] = useState<Modal>(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const remove = async (hq: HeadquartersRow) => {
    const confirmed = await confirm({
      title: t("headquarters.confirm_delete", { name: hq.name }),
      description: t("ui.consequences.permanent"),
    });
    if (confirmed) router.delete(route("headquarters.destroy", { headquarters: hq.id }), { preserveScroll: true });
  };
  const exportHref = route("headquarters.export", {
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });

  const columns: DataColumn<HeadquartersRow>[] = [
    {
      id: "name",
      sortable: true,
      header: t("headquarters.name"),
      primary: true,
      cell: (hq) => hq.name,
      title: (hq) => hq.name,
    },
    {
      id: "business",
      sortable: true,
      header: t("headquarters.business"),
      cell: (hq) => hq.businessName,
      title: (hq) => hq.businessName,
      maxWidth: "sm:max-w-56",
    },
    {
      id: "address",
      sortable: true,
      header: t("headquarters.address"),
      cell: (hq) => hq.address,
      title: (hq) => hq.address,
    },
    { id: "phone", header: t("headquarters.phone"), className: "sm:whitespace-nowrap", cell: (hq) => hq.phone },
    {
      id: "city",
      sortable: true,
      header: t("food.city"),
      cell: (hq) => hq.cityName ?? <span className="text-xs text-muted-foreground">{t("food.no_city")}</span>,
      title: (hq) => hq.cityName ?? t("food.no_city"),
      maxWidth: "sm:max-w-32",
    },
    { id: "areas", sortable: true, header: t("headquarters.areas"), cell: (hq) => hq.areas },
    { id: "properties", sortable: true, header: t("headquarters.properties"), cell: (hq) => hq.properties },
    {
      id: "actions",
      header: t("headquarters.actions"),
      headerHidden: true,
      actions: true,
      cell: (hq) =>
        can.manage && (
          <span className="inline-flex gap-0.5">
            <IconButton label={`${t("headquarters.edit")} ${hq.name}`} onClick={() => setModal({ headquarters: hq })}>
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton danger label={`${t("headquarters.delete")} ${hq.name}`} onClick={() => remove(hq)}>
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          </span>
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("headquarters.title")} />
      <PageHeader
        title={t("headquarters.title")}
        description={t("headquarters.description")}
        actions={
          <>
            <a href={exportHref} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("headquarters.export")}
            </a>
            {can.manage && businesses.length > 0 && (
              <Button onClick={() => setModal({ headquarters: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("headquarters.new")}
              </Button>
            )}
          </>
        }
        tabs={<OrganisationTabs tabs={tabs} current="headquarters" />}
      />
      {can.manage && businesses.length === 0 && (
        <p className="text-sm text-muted-foreground">{t("headquarters.no_businesses")}</p>
      )}
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <DataTable
        caption={t("headquarters.title")}
        storageKey="headquarters"
        columns={columns}
        page={headquarters}
        rowKey={(hq) => hq.id}
        empty={t("headquarters.none")}
        sort={{ sort: filters.sort, direction: filters.direction }}
        toolbar={<SearchBox value={filters.search} label={t("headquarters.search")} />}
      />

      {modal && (
        <HeadquartersDialog
          headquarters={modal.headquarters}
          businesses={businesses}
          cities={cities}
          onClose={() => setModal(null)}
        />
      )}
    </div>
  );
}
