/**
 * The typeahead of a recipe line: a button showing the chosen ingredient or dish opens a popover with a search box
 * and the matches, ingredients then dishes. Matching and order are src/domain/food/name-match.ts's (whole words
 * first, the closer name first, accents ignored, nothing that only shares letters), not cmdk's fuzzy filter. Arrows
 * move, Enter chooses, Escape closes and gives focus back to the button.
 */
import { Command } from "cmdk";
import { Check, ChevronsUpDown, Search } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { rankByName } from "../../../../src/domain/food/name-match";
import { cn } from "../../lib/utils";
import { FieldFrame, inputClasses } from "../ui/field";
import { PopoverContent, PopoverRoot, PopoverTrigger } from "../ui/popover";
import type { SelectOption } from "../ui/select";

/** How many matches of each group are listed: the closest ones; typing more narrows them. */
const SHOWN_PER_GROUP = 50;

export function RecipeItemPicker({
  label,
  placeholder,
  searchLabel,
  emptyLabel,
  groups,
  value,
  onValueChange,
  error,
  className,
}: {
  label: string;
  placeholder: string;
  searchLabel: string;
  emptyLabel: string;
  /** The options in their groups (ingredients, dishes), each in its own order when nothing is typed. */
  groups: { heading: string; options: SelectOption[] }[];
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const listId = useId();
  const chosen = useMemo(() => {
    for (const group of groups) {
      const found = group.options.find((o) => o.value === value);
      if (found) return found;
    }
    return undefined;
  }, [groups, value]);
  const shown = useMemo(
    () =>
      groups
        .map((group) => ({
          heading: group.heading,
          options: rankByName(group.options, typed, (o) => o.label, SHOWN_PER_GROUP),
        }))
        .filter((group) => group.options.length > 0),
    [groups, typed],
  );
  const choose = (next: string) => {
    setOpen(false);
    if (next !== value) onValueChange(next);
  };
  return (
    <FieldFrame
      label={label}
      error={error}
      className={className}
      control={(a11y) => (
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
              role="combobox"
              aria-expanded={open}
              aria-controls={open ? listId : undefined}
              aria-haspopup="listbox"
              className={cn(inputClasses, "flex items-center gap-2 text-left")}
              data-value={value}
              {...a11y}
            >
              <span className={cn("min-w-0 flex-1 truncate", !chosen && "text-muted-foreground")}>
                {chosen ? chosen.label : placeholder}
              </span>
              <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            </button>
          </PopoverTrigger>
          <PopoverContent
            align="start"
            sideOffset={4}
            aria-label={label}
            className="w-[var(--radix-popover-trigger-width)] min-w-64 max-w-[calc(100vw-1rem)] overflow-hidden rounded-md p-0"
          >
            <Command loop shouldFilter={false} className="flex flex-col">
              <div className="flex items-center gap-2 border-b px-3">
                <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <Command.Input
                  autoFocus
                  value={typed}
                  onValueChange={setTyped}
                  placeholder={searchLabel}
                  aria-label={searchLabel}
                  className="h-9 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
                />
              </div>
              <Command.List
                id={listId}
                className="max-h-[min(18rem,calc(var(--radix-popover-content-available-height)-3rem))] overflow-y-auto p-1"
              >
                <Command.Empty className="px-2 py-3 text-center text-sm text-muted-foreground">
                  {emptyLabel}
                </Command.Empty>
                {shown.map((group) => (
                  <Command.Group
                    key={group.heading}
                    heading={group.heading}
                    className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
                  >
                    {group.options.map((option) => (
                      <Command.Item
                        key={option.value}
                        value={option.value}
                        onSelect={() => choose(option.value)}
                        className="relative flex cursor-default select-none items-center rounded-sm py-1.5 pl-8 pr-2 text-sm outline-none data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
                      >
                        {option.value === value && <Check className="absolute left-2 size-4" aria-hidden="true" />}
                        {option.label}
                      </Command.Item>
                    ))}
                  </Command.Group>
                ))}
              </Command.List>
            </Command>
          </PopoverContent>
        </PopoverRoot>
      )}
    />
  );
}
