/**
 * A styled select on Radix's Select: a button (role="combobox") showing the chosen option, and a list that opens
 * below it, keyboard-first (arrows, typing to jump, Enter, Escape). Options are data: `{ value, label, group? }`;
 * consecutive options with the same `group` are shown under its name. An empty value ("" — "none", "all") is a
 * choice like any other. The chosen option's label is rendered on the server too, so the page does not shift
 * when it hydrates.
 */
import * as SelectPrimitive from "@radix-ui/react-select";
import { Check, ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { inputClasses } from "./field";

export interface SelectOption {
  value: string;
  label: string;
  group?: string;
  disabled?: boolean;
}

// Radix keeps "" for "nothing chosen"; an option whose value is "" stands for a real choice, so it travels as this.
const EMPTY = "\u0000empty";
const toRadix = (value: string) => (value === "" ? EMPTY : value);
const fromRadix = (value: string) => (value === EMPTY ? "" : value);

/** Runs of consecutive options that share a group (undefined: no heading). */
export function groupOptions(options: SelectOption[]): { group?: string; options: SelectOption[] }[] {
  const runs: { group?: string; options: SelectOption[] }[] = [];
  for (const option of options) {
    const last = runs[runs.length - 1];
    if (last && last.group === option.group) last.options.push(option);
    else runs.push({ group: option.group, options: [option] });
  }
  return runs;
}

export interface SelectProps {
  value: string;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  /** Shown when `value` matches no option. */
  placeholder?: string;
  id?: string;
  name?: string;
  disabled?: boolean;
  required?: boolean;
  className?: string;
  "aria-label"?: string;
  "aria-invalid"?: boolean | "true" | "false";
  "aria-describedby"?: string;
  "data-testid"?: string;
  /** Something before the value inside the button (an icon). */
  leading?: ReactNode;
}

export function Select({
  value,
  onValueChange,
  options,
  placeholder,
  id,
  name,
  disabled,
  required,
  className,
  leading,
  ...aria
}: SelectProps) {
  const { t } = useI18n();
  const chosen = options.find((o) => o.value === value);
  return (
    <SelectPrimitive.Root
      value={chosen ? toRadix(value) : undefined}
      onValueChange={(next) => onValueChange(fromRadix(next))}
      name={name}
      disabled={disabled}
      required={required}
    >
      <SelectPrimitive.Trigger
        id={id}
        className={cn(inputClasses, "flex items-center gap-2 text-left", className)}
        data-value={value}
        {...aria}
      >
        {leading}
        <span className={cn("min-w-0 flex-1 truncate", !chosen && "text-muted-foreground")}>
          <SelectPrimitive.Value>{chosen ? chosen.label : (placeholder ?? t("ui.choose"))}</SelectPrimitive.Value>
        </span>
        <SelectPrimitive.Icon asChild>
          <ChevronDown className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          collisionPadding={8}
          className="z-50 max-h-[min(24rem,var(--radix-select-content-available-height))] min-w-[var(--radix-select-trigger-width)] max-w-[calc(100vw-1rem)] overflow-hidden rounded-md border bg-card text-card-foreground shadow-md data-[state=open]:animate-fade-in"
        >
          <SelectPrimitive.Viewport className="p-1">
            {groupOptions(options).map((run, index) =>
              run.group === undefined ? (
                run.options.map((option) => <Item key={option.value} option={option} />)
              ) : (
                <SelectPrimitive.Group key={`${run.group}-${index}`}>
                  <SelectPrimitive.Label className="px-2 pb-1 pt-2 text-xs font-medium text-muted-foreground">
                    {run.group}
                  </SelectPrimitive.Label>
                  {run.options.map((option) => (
                    <Item key={option.value} option={option} />
                  ))}
                </SelectPrimitive.Group>
              ),
            )}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}

function Item({ option }: { option: SelectOption }) {
  return (
    <SelectPrimitive.Item
      value={toRadix(option.value)}
      disabled={option.disabled}
      className="relative flex cursor-default select-none items-center rounded-sm py-1.5 pl-8 pr-2 text-sm outline-none data-[disabled]:pointer-events-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[disabled]:opacity-50"
    >
      <span className="absolute left-2 flex size-4 items-center justify-center">
        <SelectPrimitive.ItemIndicator>
          <Check className="size-4" aria-hidden="true" />
        </SelectPrimitive.ItemIndicator>
      </span>
      <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
    </SelectPrimitive.Item>
  );
}
