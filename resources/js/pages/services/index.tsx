/**
 * Services: the catalogue of services cafes sell (create, edit, delete while unused), sorted and paged on the
 * server. Which services each place offers and each cafe's prices are edited on Management; the header links there.
 */
import { Head, Link, router, usePage } from "@inertiajs/react";
import { Download, MapPin, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { ServiceDialog } from "../../components/services/service-dialog";
import type { ServiceAbilities, ServiceRow, ServiceType } from "../../components/services/types";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { Select } from "../../components/ui/select";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  filters: {
    search: string;
    type: ServiceType | null;
    status: "active" | "inactive" | null;
    sort: string | null;
    direction: "asc" | "desc";
  };
  types: ServiceType[];
  services: Page<ServiceRow>;
  can: ServiceAbilities;
}

type Modal = { kind: "service"; service: ServiceRow | null } | null;

export default function ServicesIndex({ filters, types, services, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const [modal, setModal] = useState<Modal>(null);
  const close = () => setModal(null);
  const pageErrors = usePage().props.errors as Record<string, string>;

  const confirm = useConfirm();
  const remove = async (service: ServiceRow) => {
    if (
      await confirm({
        title: t("services.confirm_delete", { code: service.code }),
        description: t("ui.consequences.service"),
      })
    )
      router.delete(route("services.destroy", { service: service.id }), { preserveScroll: true });
  };

  const columns: DataColumn<ServiceRow>[] = [
    {
      id: "code",
      header: t("services.code"),
      sortable: true,
      className: "font-mono sm:whitespace-nowrap",
      cell: (s) => s.code,
    },
    {
      id: "name",
      header: t("services.name"),
      primary: true,
      sortable: true,
      cell: (s) => (
        <>
          <span className="font-medium">{s.name}</span>
          {s.description && (
            <span className="block text-xs font-normal text-muted-foreground sm:truncate">{s.description}</span>
          )}
        </>
      ),
      title: (s) => (s.description ? `${s.name} — ${s.description}` : s.name),
      maxWidth: "sm:max-w-80",
    },
    { id: "type", header: t("services.type"), sortable: true, cell: (s) => t(`services.types.${s.type}`) },
    {
      id: "status",
      header: t("services.status"),
      sortable: true,
      cell: (s) => (
        <span
          className={cn(
            "whitespace-nowrap rounded-full px-2 py-0.5 text-xs",
            s.active ? "bg-success/15" : "bg-muted text-muted-foreground",
          )}
        >
          {t(s.active ? "services.active" : "services.inactive")}
        </span>
      ),
    },
    { id: "places", header: t("services.places"), sortable: true, className: "tabular-nums", cell: (s) => s.places },
    {
      id: "actions",
      header: t("services.actions"),
      headerHidden: true,
      actions: true,
      cell: (service) =>
        can.manage && (
          <span className="inline-flex gap-0.5">
            <IconButton
              label={`${t("services.edit")} ${service.code}`}
              onClick={() => setModal({ kind: "service", service })}
            >
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton danger label={`${t("services.delete")} ${service.code}`} onClick={() => remove(service)}>
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          </span>
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("services.title")} />
      <PageHeader
        title={t("services.title")}
        description={t("services.description")}
        actions={
          <>
            {can.viewPlaces && (
              <Link href={route("management.index", { tab: "cafes" })} className={buttonClasses("outline")}>
                <MapPin className="size-4" aria-hidden="true" />
                {t("services.places_link")}
              </Link>
            )}
            <a
              href={route("services.export", {
                ...(filters.search ? { search: filters.search } : {}),
                ...(filters.type ? { type: filters.type } : {}),
                ...(filters.status ? { status: filters.status } : {}),
                ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
              })}
              download
              className={buttonClasses("outline")}
            >
              <Download className="size-4" aria-hidden="true" />
              {t("export.button")}
            </a>
            {can.manage && (
              <Button onClick={() => setModal({ kind: "service", service: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("services.new")}
              </Button>
            )}
          </>
        }
      />
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      {can.viewPlaces && <p className="text-sm text-muted-foreground">{t("services.places_hint")}</p>}

      <DataTable
        caption={t("services.title")}
        storageKey="services"
        columns={columns}
        page={services}
        rowKey={(s) => s.id}
        empty={t("services.none")}
        sort={{ sort: filters.sort, direction: filters.direction }}
        toolbar={
          <>
            <SearchBox value={filters.search} label={t("services.search")} />
            <Select
              aria-label={t("services.type")}
              className="w-auto min-w-40"
              value={filters.type ?? ""}
              onValueChange={(value) => visitWith({ type: value, page: null })}
              options={[
                { value: "", label: t("services.all_types") },
                ...types.map((type) => ({ value: type, label: t(`services.types.${type}`) })),
              ]}
            />
            <Select
              aria-label={t("services.status")}
              className="w-auto min-w-40"
              value={filters.status ?? ""}
              onValueChange={(value) => visitWith({ status: value, page: null })}
              options={[
                { value: "", label: t("services.all_statuses") },
                { value: "active", label: t("services.active") },
                { value: "inactive", label: t("services.inactive") },
              ]}
            />
          </>
        }
      />

      {modal?.kind === "service" && <ServiceDialog service={modal.service} types={types} onClose={close} />}
    </div>
  );
}
