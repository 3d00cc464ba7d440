/** Edit and delete buttons of a dealership or subdealership row, named after the row for screen readers. */
import { Pencil, Trash2 } from "lucide-react";
import { useI18n } from "../../hooks/use-i18n";
import { IconButton } from "../ui/button";

export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useI18n();
  return (
    <span className="inline-flex gap-0.5">
      <IconButton label={t("dealerships.edit", { name })} onClick={onEdit}>
        <Pencil className="size-4" aria-hidden="true" />
      </IconButton>
      <IconButton danger label={t("dealerships.delete", { name })} onClick={onDelete}>
        <Trash2 className="size-4" aria-hidden="true" />
      </IconButton>
    </span>
  );
}
