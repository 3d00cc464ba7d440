/**
 * The dealership → subdealership tree: one row per dealership with a disclosure button (aria-expanded; Enter or
 * Space toggles, the right and left arrows open and close) that shows its subdealerships with their units.
 * Collapsed children stay in the markup, hidden, so the server-rendered page and the browser agree. Which rows start
 * expanded is read from the rows once: the page keys the tree on its search and page number, so other rows start
 * afresh while a save on the same page keeps what the user opened.
 */
import { ChevronRight, Plus } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { td } from "../data-table";
import { RowActions } from "./row-actions";
import { UnitChips } from "./unit-chips";
import type { DealershipTreeRow, SubdealershipRow } from "./types";

const th = "border-b px-3 py-2 font-medium text-muted-foreground";

export interface TreeActions {
  editDealership: (row: DealershipTreeRow) => void;
  deleteDealership: (row: DealershipTreeRow) => void;
  addSubdealership: (row: DealershipTreeRow) => void;
  editSubdealership: (row: SubdealershipRow) => void;
  deleteSubdealership: (row: SubdealershipRow) => void;
}

export function DealershipTree({
  rows,
  canManage,
  actions,
  empty,
}: {
  rows: DealershipTreeRow[];
  canManage: boolean;
  actions: TreeActions;
  empty: string;
}) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set(rows.filter((r) => r.expanded).map((r) => r.id)));
  const setOpen = (id: number, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  const onToggleKey = (event: KeyboardEvent, id: number) => {
    if (event.key === "ArrowRight") {
      event.preventDefault();
      setOpen(id, true);
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      setOpen(id, false);
    }
  };

  return (
    <div className="relative overflow-x-auto rounded-xl border bg-card">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{t("dealerships.tree_label")}</caption>
        <thead>
          <tr>
            <th className={cn(th, "w-10")}>
              <span className="sr-only">{t("dealerships.subdealership_count")}</span>
            </th>
            <th className={th}>{t("dealerships.name")}</th>
            <th className={th}>{t("dealerships.ruc")}</th>
            <th className={th}>{t("dealerships.phone")}</th>
            <th className={th}>{t("dealerships.email")}</th>
            <th className={th}>{t("dealerships.subdealership_count")}</th>
            <th className={th}>
              <span className="sr-only">{t("dealerships.actions")}</span>
            </th>
          </tr>
        </thead>
        {rows.length === 0 && (
          <tbody>
            <tr>
              <td className={td} colSpan={7}>
                {empty}
              </td>
            </tr>
          </tbody>
        )}
        {rows.map((row) => {
          const open = expanded.has(row.id);
          const childrenId = `dealership-${row.id}-subdealerships`;
          return (
            <tbody key={row.id} data-testid={`dealership-${row.id}`}>
              <tr className={cn(open && "bg-muted/40")}>
                <td className={td}>
                  <button
                    type="button"
                    className="rounded p-1 hover:bg-accent"
                    aria-expanded={open}
                    aria-controls={childrenId}
                    aria-label={t(open ? "dealerships.collapse" : "dealerships.expand", { name: row.name })}
                    onClick={() => setOpen(row.id, !open)}
                    onKeyDown={(e) => onToggleKey(e, row.id)}
                  >
                    <ChevronRight
                      className={cn("size-4 transition-transform", open && "rotate-90")}
                      aria-hidden="true"
                    />
                  </button>
                </td>
                <td className={cn(td, "font-medium")}>{row.name}</td>
                <td className={cn(td, "whitespace-nowrap font-mono")}>{row.ruc}</td>
                <td className={cn(td, "whitespace-nowrap")}>{row.phone}</td>
                <td className={td}>{row.email}</td>
                <td className={td}>{row.subdealershipCount}</td>
                <td className={cn(td, "whitespace-nowrap text-right")}>
                  {canManage && (
                    <span className="inline-flex items-center gap-1">
                      <button
                        type="button"
                        className="rounded p-1 hover:bg-accent"
                        onClick={() => {
                          setOpen(row.id, true);
                          actions.addSubdealership(row);
                        }}
                        aria-label={t("dealerships.add_subdealership_to", { name: row.name })}
                        title={t("dealerships.add_subdealership_to", { name: row.name })}
                      >
                        <Plus className="size-4" aria-hidden="true" />
                      </button>
                      <RowActions
                        name={row.name}
                        onEdit={() => actions.editDealership(row)}
                        onDelete={() => actions.deleteDealership(row)}
                      />
                    </span>
                  )}
                </td>
              </tr>
              <tr id={childrenId} hidden={!open}>
                <td className={cn(td, "bg-muted/20 pl-10")} colSpan={7}>
                  {row.subdealerships.length === 0 ? (
                    <p className="text-sm text-muted-foreground">{t("dealerships.no_subdealerships")}</p>
                  ) : (
                    <table className="w-full text-left text-sm">
                      <caption className="sr-only">{t("dealerships.subdealerships_of", { name: row.name })}</caption>
                      <thead>
                        <tr>
                          <th className={th}>{t("dealerships.subdealerships_title")}</th>
                          <th className={th}>{t("dealerships.ruc")}</th>
                          <th className={th}>{t("dealerships.units")}</th>
                          <th className={th}>
                            <span className="sr-only">{t("dealerships.actions")}</span>
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {row.subdealerships.map((sub) => (
                          <tr key={sub.id} className={cn(sub.matched && "bg-primary/5")}>
                            <td className={cn(td, "font-medium")}>{sub.name}</td>
                            <td className={cn(td, "whitespace-nowrap font-mono")}>{sub.ruc}</td>
                            <td className={td}>
                              <UnitChips units={sub.units} hidden={sub.hiddenUnits} />
                            </td>
                            <td className={cn(td, "whitespace-nowrap text-right")}>
                              {canManage && (
                                <RowActions
                                  name={sub.name}
                                  onEdit={() => actions.editSubdealership(sub)}
                                  onDelete={() => actions.deleteSubdealership(sub)}
                                />
                              )}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </td>
              </tr>
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
