/** A labelled input with its error message, wired for screen readers (aria-invalid, aria-describedby). */
import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { cn } from "../../lib/utils";

export const inputClasses =
  "block h-9 w-full rounded-md border border-input bg-card px-3 text-sm shadow-sm placeholder:text-muted-foreground aria-invalid:border-destructive disabled:opacity-50";

export function Field({
  label,
  error,
  hint,
  className,
  trailing,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string; trailing?: ReactNode }) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {trailing}
      </div>
      <input id={id} className={inputClasses} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** The form's "saved" flag, shown for 2 seconds after success (the client's recentlySuccessful). */
export function SavedFlag({ show, children }: { show: boolean; children: ReactNode }) {
  return (
    <span role="status" aria-live="polite" className={cn("text-sm text-muted-foreground transition-opacity", show ? "opacity-100" : "opacity-0")} data-testid="saved-flag">
      {show ? children : null}
    </span>
  );
}
