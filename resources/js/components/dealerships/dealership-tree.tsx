/**
 * The dealership → subdealership tree on the shared DataTable (sorted and paged by the server, columns to choose,
 * cards on a phone): one row per dealership whose name carries a disclosure button (aria-expanded; Enter or Space
 * toggles, the right and left arrows open and close) that shows its subdealerships with their units under the row,
 * as a table of their own (cards on a phone too). Which rows start expanded is read from the rows when `listKey`
 * (the page's search, sort and page number) changes, so other rows start afresh while a save on the same page keeps
 * what the user opened; the tree itself stays mounted, so the search box in its toolbar keeps its focus.
 */
import { ChevronRight, Plus } from "lucide-react";
import { useState, type KeyboardEvent, type ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { DataTable, type DataColumn, type Page, type SortState } from "../data-table";
import { IconButton } from "../ui/button";
import { RowActions } from "../row-actions";
import { UnitChips } from "./unit-chips";
import type { DealershipTreeRow, SubdealershipRow } from "./types";

export interface TreeActions {
  editDealership: (row: DealershipTreeRow) => void;
  deleteDealership: (row: DealershipTreeRow) => void;
  addSubdealership: (row: DealershipTreeRow) => void;
  editSubdealership: (row: SubdealershipRow) => void;
  deleteSubdealership: (row: SubdealershipRow) => void;
}

export function DealershipTree({
  page,
  listKey,
  sort,
  toolbar,
  canManage,
  actions,
  empty,
}: {
  page: Page<DealershipTreeRow>;
  /** Changes when another list is shown (search, sort, page): the rows' own expansion is read again. */
  listKey: string;
  sort: SortState;
  /** The search box, beside the columns menu. */
  toolbar?: ReactNode;
  canManage: boolean;
  actions: TreeActions;
  empty: string;
}) {
  const { t } = useI18n();
  const initial = () => new Set(page.data.filter((r) => r.expanded).map((r) => r.id));
  const [expanded, setExpanded] = useState<Set<number>>(initial);
  const [shownKey, setShownKey] = useState(listKey);
  if (shownKey !== listKey) {
    setShownKey(listKey);
    setExpanded(initial());
  }
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
  const childrenId = (row: DealershipTreeRow) => `dealership-${row.id}-subdealerships`;

  const columns: DataColumn<DealershipTreeRow>[] = [
    {
      id: "name",
      header: t("dealerships.name"),
      primary: true,
      sortable: true,
      cell: (row) => {
        const open = expanded.has(row.id);
        return (
          <span className="flex min-w-0 items-center gap-1 sm:max-w-64">
            <button
              type="button"
              className="shrink-0 rounded p-1 hover:bg-accent"
              aria-expanded={open}
              aria-controls={open ? childrenId(row) : undefined}
              aria-label={t(open ? "dealerships.collapse" : "dealerships.expand", { name: row.name })}
              onClick={() => setOpen(row.id, !open)}
              onKeyDown={(e) => onToggleKey(e, row.id)}
            >
              <ChevronRight className={cn("size-4 transition-transform", open && "rotate-90")} aria-hidden="true" />
            </button>
            <span className="min-w-0 font-medium sm:truncate" title={row.name}>
              {row.name}
            </span>
          </span>
        );
      },
    },
    {
      id: "ruc",
      header: t("dealerships.ruc"),
      sortable: true,
      className: "font-mono sm:whitespace-nowrap",
      cell: (row) => row.ruc,
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
      id: "subdealerships",
      header: t("dealerships.subdealership_count"),
      sortable: true,
      className: "tabular-nums sm:whitespace-nowrap",
      cell: (row) => row.subdealershipCount,
    },
    {
      id: "actions",
      header: t("dealerships.actions"),
      headerHidden: true,
      actions: true,
      cell: (row) =>
        canManage && (
          <span className="inline-flex items-center gap-0.5">
            <IconButton
              label={t("dealerships.add_subdealership_to", { name: row.name })}
              onClick={() => {
                setOpen(row.id, true);
                actions.addSubdealership(row);
              }}
            >
              <Plus className="size-4" aria-hidden="true" />
            </IconButton>
            <RowActions
              editLabel={t("dealerships.edit", { name: row.name })}
              deleteLabel={t("dealerships.delete", { name: row.name })}
              onEdit={() => actions.editDealership(row)}
              onDelete={() => actions.deleteDealership(row)}
            />
          </span>
        ),
    },
  ];

  const subColumns: DataColumn<SubdealershipRow>[] = [
    {
      id: "name",
      header: t("dealerships.subdealerships_title"),
      primary: true,
      cell: (sub) =>
        sub.matched ? (
          <span className="rounded bg-primary/10 px-1">
            {sub.name}
            <span className="sr-only"> ({t("dealerships.matched")})</span>
          </span>
        ) : (
          sub.name
        ),
      title: (sub) => sub.name,
    },
    {
      id: "ruc",
      header: t("dealerships.ruc"),
      hideable: false,
      className: "font-mono sm:whitespace-nowrap",
      cell: (sub) => sub.ruc,
    },
    {
      id: "units",
      header: t("dealerships.units"),
      hideable: false,
      cell: (sub) => <UnitChips units={sub.units} hidden={sub.hiddenUnits} />,
    },
    {
      id: "phone",
      header: t("dealerships.phone"),
      hideable: false,
      className: "sm:whitespace-nowrap",
      cell: (sub) => sub.phone,
    },
    {
      id: "actions",
      header: t("dealerships.actions"),
      headerHidden: true,
      actions: true,
      cell: (sub) =>
        canManage && (
          <RowActions
            editLabel={t("dealerships.edit", { name: sub.name })}
            deleteLabel={t("dealerships.delete", { name: sub.name })}
            onEdit={() => actions.editSubdealership(sub)}
            onDelete={() => actions.deleteSubdealership(sub)}
          />
        ),
    },
  ];

  return (
    <DataTable
      caption={t("dealerships.tree_label")}
      storageKey="dealerships.tree"
      columns={columns}
      page={page}
      sort={sort}
      toolbar={toolbar}
      rowKey={(row) => row.id}
      empty={empty}
      rowProps={(row) => ({ "data-testid": `dealership-${row.id}` })}
      renderExpanded={(row) =>
        expanded.has(row.id) ? (
          <div id={childrenId(row)} data-testid={`dealership-${row.id}-subdealerships`}>
            {row.subdealerships.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("dealerships.no_subdealerships")}</p>
            ) : (
              <DataTable
                caption={t("dealerships.subdealerships_of", { name: row.name })}
                columns={subColumns}
                rows={row.subdealerships}
                rowKey={(sub) => sub.id}
                empty={t("dealerships.no_subdealerships")}
                pagination={false}
              />
            )}
          </div>
        ) : null
      }
    />
  );
}
