/**
 * What the menu table and the levels table share: moving a row up or down with buttons (usable by keyboard: the
 * focus stays on the row that moved and a live region says where it went), deleting a row after a confirmation,
 * and the message of a refused change (a row in use, an order that changed meanwhile), kept in the table's own
 * error bag so that it shows beside that table and nowhere else.
 */
import { router, usePage } from "@inertiajs/react";
import { ArrowDown, ArrowUp } from "lucide-react";
import { useRef, useState } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useConfirm } from "../ui/alert-dialog";
import { IconButton } from "../ui/button";

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
