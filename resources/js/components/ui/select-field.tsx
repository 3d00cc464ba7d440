/** A labelled native select with its error message. */
import { useId, type ReactNode, type SelectHTMLAttributes } from "react";
import { cn } from "../../lib/utils";
import { inputClasses } from "./field";

export function SelectField({ label, error, children, className, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={inputClasses} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...props}>
        {children}
      </select>
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
