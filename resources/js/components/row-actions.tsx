/** A row's edit and delete buttons, labelled after the row for screen readers, after any other buttons it has. */
import { Pencil, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { IconButton } from "./ui/button";

export function RowActions({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
  gap = "gap-0.5",
  children,
}: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
  /** The space between the buttons: lists use gap-0.5, the food catalogue's tables gap-1. */
  gap?: "gap-0.5" | "gap-1";
  children?: ReactNode;
}) {
  return (
    <span className={`inline-flex ${gap}`}>
      {children}
      <IconButton label={editLabel} onClick={onEdit}>
        <Pencil className="size-4" aria-hidden="true" />
      </IconButton>
      <IconButton danger label={deleteLabel} onClick={onDelete}>
        <Trash2 className="size-4" aria-hidden="true" />
      </IconButton>
    </span>
  );
}
