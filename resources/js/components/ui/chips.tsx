/**
 * A row of small chips (service codes, units) that stays on one line at desktop widths: the first `max` chips, then
 * "+2" whose tooltip (and accessible name) lists the rest. On a phone every chip shows, wrapping, since there is
 * room below and no pointer to hover with.
 */
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { Tooltip } from "./tooltip";

export function Chips({
  items,
  max = 3,
  empty,
  mono = false,
  className,
}: {
  items: { key: string | number; label: string; title?: string }[];
  max?: number;
  /** Shown when there are no items. */
  empty?: string;
  mono?: boolean;
  className?: string;
}) {
  const { t } = useI18n();
  if (items.length === 0) return empty ? <span className="text-xs text-muted-foreground">{empty}</span> : null;
  // "+1" would take the room of the chip it hides.
  const shown = items.length === max + 1 ? max + 1 : max;
  const rest = items.slice(shown);
  const chip = cn(
    "block max-w-48 truncate whitespace-nowrap rounded bg-muted px-1.5 py-0.5 text-xs",
    mono && "font-mono",
  );
  return (
    <ul className={cn("flex flex-wrap items-center gap-1 sm:flex-nowrap", className)}>
      {items.map((item, index) => (
        <li key={item.key} className={cn(chip, index >= shown && "sm:hidden")} title={item.title ?? item.label}>
          {item.label}
        </li>
      ))}
      {rest.length > 0 && (
        <li className="hidden sm:block">
          <Tooltip content={rest.map((item) => item.title ?? item.label).join(", ")}>
            <button
              type="button"
              className={cn(chip, "cursor-default text-muted-foreground hover:text-foreground")}
              aria-label={t("ui.more", {
                count: rest.length,
                list: rest.map((item) => item.title ?? item.label).join(", "),
              })}
            >
              {t("ui.more_short", { count: rest.length })}
            </button>
          </Tooltip>
        </li>
      )}
    </ul>
  );
}
