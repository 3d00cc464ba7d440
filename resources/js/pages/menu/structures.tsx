/**
 * Menu structures: for one cafe of the viewer's scope (the cafe picker) and one of its meal services (the service
 * picker), the categories the plate is made of with their reference serving, share and cost bounds, the food cost
 * against the price without IGV as it is typed, and the cafe's menu settings. Holders of menu.manage edit, delete
 * and copy structures to other cafes; others read.
 */
import { Head, Link, router } from "@inertiajs/react";
import { Copy } from "lucide-react";
import { useState } from "react";
import { MenuTabs } from "../../components/menu/menu-tabs";
import { StructureCopyDialog } from "../../components/menu/structure-copy-dialog";
import { StructureEditor } from "../../components/menu/structure-editor";
import { StructureSettings } from "../../components/menu/structure-settings";
import type {
  CafeMenuSettings,
  CategoryOption,
  MenuCafe,
  MenuTab,
  ServiceStructure,
} from "../../components/menu/structure-types";
import { Button } from "../../components/ui/button";
import { PageHeader } from "../../components/ui/page-header";
import { SelectField } from "../../components/ui/select-field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  tabs: MenuTab[];
  cafes: MenuCafe[];
  cafe: MenuCafe | null;
  structures: ServiceStructure[];
  serviceId: number | null;
  categories: CategoryOption[];
  /** Not `settings`: that name is the shared props' (time zone and currency). */
  menuSettings: CafeMenuSettings | null;
  levels: { id: number; name: string }[];
  copyTargets: { id: number; path: string }[];
  igvRate: number;
  can: { manage: boolean };
}

export default function MenuStructures({
  tabs,
  cafes,
  cafe,
  structures,
  serviceId,
  categories,
  menuSettings: settings,
  levels,
  copyTargets,
  igvRate,
  can,
}: Props) {
  const { t } = useI18n();
  const route = useRoute();
  const [copying, setCopying] = useState(false);
  const [dirty, setDirty] = useState(false);
  const current = structures.find((s) => s.service.id === serviceId) ?? null;

  return (
    <>
      <Head title={t("menu.structures.title")} />
      <div className="space-y-6">
        <PageHeader
          title={t("menu.structures.title")}
          description={t("menu.structures.description")}
          tabs={<MenuTabs tabs={tabs} current="structures" cafeId={cafe?.id} />}
          actions={
            can.manage && current && current.structureId !== null ? (
              <Button
                variant="outline"
                onClick={() => setCopying(true)}
                disabled={dirty}
                title={dirty ? t("menu.structures.copy_unsaved") : undefined}
              >
                <Copy className="size-4" aria-hidden="true" />
                {t("menu.structures.copy")}
              </Button>
            ) : undefined
          }
        />

        {cafes.length === 0 || !cafe ? (
          <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">{t("menu.no_cafes")}</p>
        ) : (
          <>
            <div className="max-w-xl">
              <SelectField
                label={t("menu.cafe")}
                value={String(cafe.id)}
                searchable={cafes.length > 8}
                onValueChange={(value) => router.get(route("menu.structures", { cafe: value }))}
                options={cafes.map((c) => ({ value: String(c.id), label: c.path }))}
                data-testid="cafe-picker"
              />
            </div>

            {!can.manage && <p className="text-sm text-muted-foreground">{t("menu.structures.read_only")}</p>}

            {structures.length === 0 ? (
              <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
                {t("menu.structures.no_services")}
              </p>
            ) : (
              <nav aria-label={t("menu.structures.service")} data-testid="service-picker">
                <ul className="flex flex-wrap gap-2">
                  {structures.map((s) => {
                    const active = s.service.id === current?.service.id;
                    return (
                      <li key={s.service.id}>
                        <Link
                          href={route("menu.structures", { cafe: cafe.id, service: s.service.id })}
                          preserveScroll
                          aria-current={active ? "page" : undefined}
                          className={cn(
                            "flex flex-col rounded-lg border px-3 py-2 text-sm hover:bg-accent",
                            active && "border-primary bg-primary/5 ring-1 ring-primary",
                          )}
                        >
                          <span className="font-medium">
                            {s.service.name}
                            {!s.service.active && (
                              <span className="ml-1 text-xs font-normal text-muted-foreground">
                                ({t("menu.structures.inactive")})
                              </span>
                            )}
                          </span>
                          <span className="text-xs text-muted-foreground">
                            {s.structureId === null
                              ? t("menu.structures.none_yet")
                              : t("menu.structures.items_count", { count: s.items.length })}
                          </span>
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </nav>
            )}

            {current && (
              <section aria-labelledby="structure-title" className="space-y-4">
                <h2 id="structure-title" className="text-lg font-semibold">
                  {current.service.name}
                </h2>
                <StructureEditor
                  key={`${cafe.id}-${current.service.id}-${current.updatedAt ?? "new"}`}
                  cafe={cafe}
                  structure={current}
                  categories={categories}
                  igvRate={igvRate}
                  canManage={can.manage}
                  onDirtyChange={setDirty}
                />
              </section>
            )}

            {settings && (
              <StructureSettings
                key={`${cafe.id}-${settings.defaultLevelId}-${settings.boardLanguage}`}
                cafe={cafe}
                settings={settings}
                levels={levels}
                canManage={can.manage}
              />
            )}
          </>
        )}
      </div>
      {copying && cafe && current && (
        <StructureCopyDialog cafe={cafe} structure={current} targets={copyTargets} onClose={() => setCopying(false)} />
      )}
    </>
  );
}
