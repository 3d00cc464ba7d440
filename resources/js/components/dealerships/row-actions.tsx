/** Edit and delete buttons of a dealership or subdealership row, named after the row for screen readers. */
import { Pencil, Trash2 } from "lucide-react";
import { useI18n } from "../../hooks/use-i18n";

export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useI18n();
  return (
    <span className="inline-flex gap-1">
      <button
        type="button"
        className="rounded p-1 hover:bg-accent"
        onClick={onEdit}
        aria-label={t("dealerships.edit", { name })}
        title={t("dealerships.edit", { name })}
      >
        <Pencil className="size-4" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="rounded p-1 text-destructive hover:bg-accent"
        onClick={onDelete}
        aria-label={t("dealerships.delete", { name })}
        title={t("dealerships.delete", { name })}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </button>
    </span>
  );
}
