/** Headquarters: each business's offices with their areas and properties, the headquarters dialog and the export. */
import { Head, router, usePage } from "@inertiajs/react";
import { Download, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { HeadquartersModal } from "../../components/businesses/headquarters-modal";
import type { BusinessOption, HeadquartersRow, OrganisationTab } from "../../components/businesses/types";
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
  headquarters: Page<HeadquartersRow>;
  businesses: BusinessOption[];
  can: { manage: boolean };
}

type Modal = { headquarters: HeadquartersRow | null } | null;

export default function HeadquartersIndex({ tabs, filters, headquarters, businesses, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const [modal, setModal] = useState<Modal>(null);
  const pageErrors = usePage().props.errors as Record<string, string>;
  const remove = (hq: HeadquartersRow) => {
    if (window.confirm(t("headquarters.confirm_delete", { name: hq.name })))
      router.delete(route("headquarters.destroy", { headquarters: hq.id }), { preserveScroll: true });
  };
  const exportHref = route("headquarters.export", filters.search ? { search: filters.search } : {});

  return (
    <div className="space-y-6">
      <Head title={t("headquarters.title")} />
      <OrganisationTabs tabs={tabs} current="headquarters" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("headquarters.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("headquarters.description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
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
        </div>
      </header>
      {can.manage && businesses.length === 0 && (
        <p className="text-sm text-muted-foreground">{t("headquarters.no_businesses")}</p>
      )}
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <SearchBox value={filters.search} label={t("headquarters.search")} />
      <Table
        actions
        caption={t("headquarters.title")}
        headers={[
          t("headquarters.name"),
          t("headquarters.business"),
          t("headquarters.address"),
          t("headquarters.phone"),
          t("headquarters.areas"),
          t("headquarters.properties"),
          <span className="sr-only">{t("headquarters.actions")}</span>,
        ]}
        empty={headquarters.data.length === 0 ? t("headquarters.none") : null}
      >
        {headquarters.data.map((hq) => (
          <tr key={hq.id}>
            <td className={cn(td, "font-medium")}>{hq.name}</td>
            <td className={td}>{hq.businessName}</td>
            <td className={td}>{hq.address}</td>
            <td className={cn(td, "whitespace-nowrap")}>{hq.phone}</td>
            <td className={td}>{hq.areas}</td>
            <td className={td}>{hq.properties}</td>
            <td className={cn(td, "whitespace-nowrap text-right")}>
              {can.manage && (
                <span className="inline-flex gap-1">
                  <button
                    type="button"
                    className="rounded p-1 hover:bg-accent"
                    onClick={() => setModal({ headquarters: hq })}
                    aria-label={`${t("headquarters.edit")} ${hq.name}`}
                  >
                    <Pencil className="size-4" aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className="rounded p-1 text-destructive hover:bg-accent"
                    onClick={() => remove(hq)}
                    aria-label={`${t("headquarters.delete")} ${hq.name}`}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </span>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <Pagination page={headquarters} />

      {modal && (
        <HeadquartersModal headquarters={modal.headquarters} businesses={businesses} onClose={() => setModal(null)} />
      )}
    </div>
  );
}
