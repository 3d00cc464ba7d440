/** A labelled native select with its error message, like Field. */
import { useId, type ReactNode, type SelectHTMLAttributes } from "react";
import { cn } from "../../lib/utils";
import { described, FieldMessage, inputClasses } from "./field";

export function SelectField({ label, error, children, className, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={inputClasses} {...described(id, error)} {...props}>
        {children}
      </select>
      <FieldMessage id={id} error={error} />
    </div>
  );
}
