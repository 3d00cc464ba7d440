/** A property's status as a coloured, translated badge. */
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import type { PropertyStatus } from "./types";

const CLASSES: Record<PropertyStatus, string> = {
  in_use: "bg-success/15",
  in_storage: "bg-muted text-muted-foreground",
  under_repair: "bg-amber-500/15",
  retired: "bg-destructive/10 text-destructive",
};

export function PropertyStatusBadge({ status }: { status: PropertyStatus }) {
  const { t } = useI18n();
  return (
    <span className={cn("whitespace-nowrap rounded-full px-2 py-0.5 text-xs", CLASSES[status])}>
      {t(`properties.statuses.${status}`)}
    </span>
  );
}
