/**
 * What the menu table and the levels table share: moving a row up or down with buttons (usable by keyboard: the
 * focus stays on the row that moved and a live region says where it went), deleting a row after a confirmation,
 * and the message of a refused change (a row in use, an order that changed meanwhile), kept in the table's own
 * error bag so that it shows beside that table and nowhere else; and the table's section itself: its heading and
 * intro, its export and add buttons, and each row's move, edit and delete buttons.
 */
import { router, usePage } from "@inertiajs/react";
import { ArrowDown, ArrowUp, Download, Plus } from "lucide-react";
import { useRef, useState, type ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { Table, td } from "../data-table";
import { RowActions } from "../row-actions";
import { useConfirm } from "../ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../ui/button";

interface Named {
  id: number;
  name: string;
}

type Direction = "up" | "down";

/** The table's moves and deletes, with what the server refused and what the live region says. */
export function useCatalogueRows<T extends Named>(
  rows: T[],
  {
    bag,
    reorderUrl,
    destroyUrl,
    confirmTitle,
    confirmDetail,
  }: {
    /** The error bag of this table's refusals ("menuTable"). */
    bag: string;
    reorderUrl: string;
    destroyUrl: (row: T) => string;
    confirmTitle: (row: T) => string;
    confirmDetail: string;
  },
) {
  const { t } = useI18n();
  const confirm = useConfirm();
  const errors = usePage().props.errors as Record<string, unknown>;
  const bagErrors = (errors[bag] ?? {}) as Record<string, string | undefined>;
  const [announcement, setAnnouncement] = useState("");
  const [busy, setBusy] = useState(false);
  const table = useRef<HTMLDivElement>(null);

  const focusMove = (id: number, direction: Direction) => {
    const root = table.current;
    if (!root) return;
    const wanted = root.querySelector<HTMLButtonElement>(`[data-move="${id}-${direction}"]:not(:disabled)`);
    const other = root.querySelector<HTMLButtonElement>(
      `[data-move="${id}-${direction === "up" ? "down" : "up"}"]:not(:disabled)`,
    );
    (wanted ?? other)?.focus();
  };

  const move = (row: T, direction: Direction) => {
    const from = rows.findIndex((r) => r.id === row.id);
    const to = direction === "up" ? from - 1 : from + 1;
    if (from < 0 || to < 0 || to >= rows.length || busy) return;
    const ids = rows.map((r) => r.id);
    [ids[from], ids[to]] = [ids[to], ids[from]];
    setBusy(true);
    router.put(
      reorderUrl,
      { ids },
      {
        errorBag: bag,
        preserveScroll: true,
        preserveState: true,
        onSuccess: () =>
          setAnnouncement(t("foodCatalogue.moved", { name: row.name, position: to + 1, total: rows.length })),
        onFinish: () => {
          setBusy(false);
          // The row's buttons were re-rendered in its new place: the focus goes back to the one that was pressed.
          requestAnimationFrame(() => focusMove(row.id, direction));
        },
      },
    );
  };

  const remove = async (row: T) => {
    if (!(await confirm({ title: confirmTitle(row), description: confirmDetail }))) return;
    router.delete(destroyUrl(row), { errorBag: bag, preserveScroll: true, preserveState: true });
  };

  return { move, remove, busy, announcement, problem: bagErrors.form, tableRef: table };
}

/** A row's move-up and move-down buttons, named after the row. */
export function MoveButtons({
  name,
  id,
  first,
  last,
  busy,
  onMove,
}: {
  name: string;
  id: number;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (direction: Direction) => void;
}) {
  const { t } = useI18n();
  return (
    <span className="inline-flex gap-1">
      <IconButton
        label={t("foodCatalogue.move_up", { name })}
        data-move={`${id}-up`}
        disabled={first}
        aria-disabled={busy || undefined}
        onClick={() => onMove("up")}
      >
        <ArrowUp className="size-4" aria-hidden="true" />
      </IconButton>
      <IconButton
        label={t("foodCatalogue.move_down", { name })}
        data-move={`${id}-down`}
        disabled={last}
        aria-disabled={busy || undefined}
        onClick={() => onMove("down")}
      >
        <ArrowDown className="size-4" aria-hidden="true" />
      </IconButton>
    </span>
  );
}

/** A refused change of this table, and the live region that says where a moved row went. */
export function TableMessages({ problem, announcement }: { problem?: string; announcement: string }) {
  return (
    <>
      {problem && (
        <div
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
        >
          {problem}
        </div>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/**
 * A catalogue table's section: heading, intro (and a read-only note without food.manage), the export link and the
 * add button, the table's messages, and the rows in their order, each with its cells and, with food.manage, its
 * move buttons and its edit and delete buttons.
 */
export function CatalogueSection<T extends Named>({
  id,
  words,
  exportUrl,
  headers,
  rows,
  rowTestId,
  cells,
  table,
  canManage,
  onAdd,
  onEdit,
  children,
}: {
  /** The section's id, which names its heading's ("levels-table": "levels-table-title"). */
  id: string;
  words: { title: string; intro: string; add: string; empty: string };
  exportUrl: string;
  /** The headers of the row's own cells; the order and actions headers follow with food.manage. */
  headers: ReactNode[];
  rows: T[];
  rowTestId: string;
  cells: (row: T) => ReactNode;
  table: ReturnType<typeof useCatalogueRows<T>>;
  canManage: boolean;
  onAdd: () => void;
  onEdit: (row: T) => void;
  /** The section's dialog, when one is open. */
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <section className="space-y-4" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl space-y-1">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {words.title}
          </h2>
          <p className="text-sm text-muted-foreground">{words.intro}</p>
          {!canManage && <p className="text-sm text-muted-foreground">{t("foodCatalogue.read_only")}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={exportUrl} download className={buttonClasses("outline")}>
            <Download className="size-4" aria-hidden="true" />
            {t("foodCatalogue.export")}
          </a>
          {canManage && (
            <Button onClick={onAdd}>
              <Plus className="size-4" aria-hidden="true" />
              {words.add}
            </Button>
          )}
        </div>
      </div>
      <TableMessages problem={table.problem} announcement={table.announcement} />
      <div ref={table.tableRef}>
        <Table
          caption={words.title}
          headers={canManage ? [...headers, t("foodCatalogue.order"), t("foodCatalogue.actions")] : headers}
          actions={canManage}
          empty={rows.length === 0 ? words.empty : null}
        >
          {rows.map((row, index) => (
            <tr key={row.id} data-testid={rowTestId}>
              {cells(row)}
              {canManage && (
                <td className={td}>
                  <MoveButtons
                    name={row.name}
                    id={row.id}
                    first={index === 0}
                    last={index === rows.length - 1}
                    busy={table.busy}
                    onMove={(direction) => table.move(row, direction)}
                  />
                </td>
              )}
              {canManage && (
                <td className={td}>
                  <RowActions
                    gap="gap-1"
                    editLabel={t("foodCatalogue.edit_named", { name: row.name })}
                    deleteLabel={t("foodCatalogue.delete_named", { name: row.name })}
                    onEdit={() => onEdit(row)}
                    onDelete={() => table.remove(row)}
                  />
                </td>
              )}
            </tr>
          ))}
        </Table>
      </div>
      {children}
    </section>
  );
}
