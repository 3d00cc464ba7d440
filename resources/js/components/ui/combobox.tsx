/**
 * A searchable select (a combobox) for long lists — time zones, places: a button showing the choice opens a
 * popover with a search box and the matching options (cmdk), grouped like Select's. Arrows move, Enter chooses,
 * Escape closes and gives focus back to the button. With `rank`, the matches and their order are the caller's (each
 * group ranked apart) instead of cmdk's fuzzy filter.
 */
import { Command } from "cmdk";
import { Check, ChevronsUpDown, Search } from "lucide-react";
import { useId, useState } from "react";
import type { SelectOption } from "./select";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { inputClasses } from "./field";
import { PopoverContent, PopoverRoot, PopoverTrigger } from "./popover";
import { groupOptions, type SelectProps } from "./select";

export function Combobox({
  value,
  onValueChange,
  options,
  placeholder,
  searchPlaceholder,
  label,
  id,
  disabled,
  className,
  leading,
  rank,
  emptyLabel,
  name: _name,
  required: _required,
  ...aria
}: SelectProps & {
  searchPlaceholder?: string;
  /** The field's name, which its popup (a dialog to screen readers) is called by; else its aria-label. */
  label?: string;
  /** The options of one group that match what is typed, best first (src/shared/food/name-match.ts's rankByName). */
  rank?: (options: SelectOption[], typed: string) => SelectOption[];
  /** Said when nothing matches (default: "no results"). */
  emptyLabel?: string;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const listId = useId();
  const runs = groupOptions(options);
  const shown = rank
    ? runs.map((run) => ({ ...run, options: rank(run.options, typed) })).filter((run) => run.options.length > 0)
    : runs;
  const chosen = options.find((o) => o.value === value);
  const choose = (next: string) => {
    setOpen(false);
    if (next !== value) onValueChange(next);
  };
  return (
    <PopoverRoot
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setTyped("");
      }}
    >
      <PopoverTrigger asChild>
        <button
          type="button"
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-haspopup="listbox"
          disabled={disabled}
          className={cn(inputClasses, "flex items-center gap-2 text-left", className)}
          data-value={value}
          {...aria}
        >
          {leading}
          <span className={cn("min-w-0 flex-1 truncate", !chosen && "text-muted-foreground")}>
            {chosen ? chosen.label : (placeholder ?? t("ui.choose"))}
          </span>
          <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        </button>
      </PopoverTrigger>
      <PopoverContent
        align="start"
        sideOffset={4}
        aria-label={label ?? aria["aria-label"]}
        className="w-[var(--radix-popover-trigger-width)] min-w-64 max-w-[calc(100vw-1rem)] overflow-hidden rounded-md p-0"
      >
        <Command loop shouldFilter={!rank} className="flex flex-col">
          <div className="flex items-center gap-2 border-b px-3">
            <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <Command.Input
              autoFocus
              value={typed}
              onValueChange={setTyped}
              placeholder={searchPlaceholder ?? t("ui.search")}
              aria-label={searchPlaceholder ?? t("ui.search")}
              className="h-9 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
            />
          </div>
          <Command.List
            id={listId}
            className="max-h-[min(18rem,calc(var(--radix-popover-content-available-height)-3rem))] overflow-y-auto p-1"
          >
            <Command.Empty className="px-2 py-3 text-center text-sm text-muted-foreground">
              {emptyLabel ?? t("ui.no_results")}
            </Command.Empty>
            {shown.map((run, index) => {
              const items = run.options.map((option) => (
                <Command.Item
                  key={option.value}
                  value={`${option.value}\u0000${option.label}`}
                  keywords={[option.label]}
                  disabled={option.disabled}
                  onSelect={() => choose(option.value)}
                  className="relative flex cursor-default select-none items-center rounded-sm py-1.5 pl-8 pr-2 text-sm outline-none data-[disabled=true]:pointer-events-none data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground data-[disabled=true]:opacity-50"
                >
                  {option.value === value && <Check className="absolute left-2 size-4" aria-hidden="true" />}
                  {option.label}
                </Command.Item>
              ));
              return run.group === undefined ? (
                items
              ) : (
                <Command.Group
                  key={`${run.group}-${index}`}
                  heading={run.group}
                  className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
                >
                  {items}
                </Command.Group>
              );
            })}
          </Command.List>
        </Command>
      </PopoverContent>
    </PopoverRoot>
  );
}
