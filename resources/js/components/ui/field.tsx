/** A labelled input or textarea with its hint or error message, wired for screen readers (aria-invalid, aria-describedby). */
import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { cn } from "../../lib/utils";

export const inputClasses =
  "block h-9 w-full rounded-md border border-input bg-card px-3 text-sm shadow-sm placeholder:text-muted-foreground aria-invalid:border-destructive disabled:opacity-50";

export function Field({
  label,
  error,
  hint,
  className,
  inputClassName,
  trailing,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string; trailing?: ReactNode; /** Classes of the input itself (className styles the whole field). */ inputClassName?: string }) {
  const id = useId();
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {trailing}
      </div>
      <input id={id} className={cn(inputClasses, inputClassName)} {...described(id, error, hint)} {...props} />
      <FieldMessage id={id} error={error} hint={hint} />
    </div>
  );
}

/** A labelled textarea with its hint or error message, like Field. */
export function TextareaField({ label, error, hint, className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string; hint?: string }) {
  const id = useId();
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea id={id} className="block w-full rounded-md border border-input bg-card px-3 py-2 text-sm shadow-sm aria-invalid:border-destructive" {...described(id, error, hint)} {...props} />
      <FieldMessage id={id} error={error} hint={hint} />
    </div>
  );
}

/** The control's aria-invalid and aria-describedby: the error when there is one, else the hint. */
export function described(id: string, error?: string, hint?: string) {
  return { "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : hint ? `${id}-hint` : undefined };
}

/** The error (or, without one, the hint) under a control, with the id its aria-describedby names. */
export function FieldMessage({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (error) {
    return (
      <p id={`${id}-error`} className="text-sm text-destructive">
        {error}
      </p>
    );
  }
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className="text-xs text-muted-foreground">
      {hint}
    </p>
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
