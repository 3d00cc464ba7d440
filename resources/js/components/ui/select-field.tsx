/** A labelled native select with its error message, like Field. */
import type { ReactNode, SelectHTMLAttributes } from "react";
import { FieldFrame, inputClasses } from "./field";

export function SelectField({
  label,
  error,
  children,
  className,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string; children: ReactNode }) {
  return (
    <FieldFrame
      label={label}
      error={error}
      className={className}
      control={(a11y) => (
        <select className={inputClasses} {...a11y} {...props}>
          {children}
        </select>
      )}
    />
  );
}
