/**
 * A labelled select with its hint or error message, like Field: Mesa's styled Select, or with `searchable` a
 * Combobox for long lists. The options come as `options`, or as `<option>` (and `<optgroup>`) children as a native
 * select takes them. `onChange` receives an event-like object whose `target.value` is the chosen value (so a form
 * written for a native select works unchanged); `onValueChange` receives the value itself.
 */
import { Children, Fragment, isValidElement, type ChangeEvent, type ReactElement, type ReactNode } from "react";
import { Combobox } from "./combobox";
import { FieldFrame } from "./field";
import { Select, type SelectOption } from "./select";

export type { SelectOption } from "./select";

export interface SelectFieldProps {
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  value?: string | number | readonly string[];
  name?: string;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** A search box over the options (for long lists). */
  searchable?: boolean;
  /** With `searchable`: the search box's own label. */
  searchPlaceholder?: string;
  /** With `searchable`: the matches of a group and their order, instead of the fuzzy filter (see Combobox). */
  rank?: (options: SelectOption[], typed: string) => SelectOption[];
  /** With `searchable`: said when nothing matches. */
  emptyLabel?: string;
  options?: SelectOption[];
  children?: ReactNode;
  onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
  onValueChange?: (value: string) => void;
  "data-testid"?: string;
}

export function SelectField({
  label,
  error,
  hint,
  className,
  value,
  name,
  required,
  disabled,
  placeholder,
  searchable = false,
  searchPlaceholder,
  rank,
  emptyLabel,
  options,
  children,
  onChange,
  onValueChange,
  ...rest
}: SelectFieldProps) {
  const list = options ?? optionsFrom(children);
  const change = (next: string) => {
    onValueChange?.(next);
    if (onChange) {
      const target = { value: next, name: name ?? "" };
      onChange({ target, currentTarget: target } as unknown as ChangeEvent<HTMLSelectElement>);
    }
  };
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(a11y) => {
        const props = {
          ...a11y,
          ...rest,
          value: value === undefined ? "" : String(value),
          onValueChange: change,
          options: list,
          name,
          required,
          disabled,
          placeholder,
        };
        return searchable ? (
          <Combobox
            {...props}
            label={label}
            searchPlaceholder={searchPlaceholder}
            rank={rank}
            emptyLabel={emptyLabel}
          />
        ) : (
          <Select {...props} />
        );
      }}
    />
  );
}

/** The options of `<option>` and `<optgroup>` elements (in fragments and arrays too), as Select takes them. */
export function optionsFrom(children: ReactNode, group?: string): SelectOption[] {
  const found: SelectOption[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    const element = child as ReactElement<{
      children?: ReactNode;
      value?: string | number;
      label?: string;
      disabled?: boolean;
    }>;
    if (element.type === Fragment) found.push(...optionsFrom(element.props.children, group));
    else if (element.type === "optgroup") found.push(...optionsFrom(element.props.children, element.props.label));
    else if (element.type === "option") {
      const label = textOf(element.props.children);
      found.push({
        value: element.props.value === undefined ? label : String(element.props.value),
        label,
        group,
        disabled: element.props.disabled,
      });
    }
  });
  return found;
}

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement(node)) return textOf((node.props as { children?: ReactNode }).children);
  return "";
}
