/** A labelled input or textarea with its hint or error message, wired for screen readers (aria-invalid, aria-describedby). */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
} from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { validityMessage } from "./form-checks";

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
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string;
  hint?: string;
  trailing?: ReactNode;
  /** Classes of the input itself (className styles the whole field). */ inputClassName?: string;
}) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      trailing={trailing}
      control={(a11y) => <input className={cn(inputClasses, inputClassName)} {...a11y} {...props} />}
    />
  );
}

/** A labelled textarea with its hint or error message, like Field. */
export function TextareaField({
  label,
  error,
  hint,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string; hint?: string }) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(a11y) => (
        <textarea
          className="block w-full rounded-md border border-input bg-card px-3 py-2 text-sm shadow-sm aria-invalid:border-destructive"
          {...a11y}
          {...props}
        />
      )}
    />
  );
}

/** What a control needs to be labelled and described: its id, aria-invalid and aria-describedby. */
export interface ControlA11y {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * The frame every labelled control shares: the label (with `trailing` at its right), the control, and under it
 * its error or, without one, its hint, which the control's aria-describedby names. When the browser finds the
 * control invalid on submit (required and empty, too short…), the frame shows why in Mesa's words and the page's
 * language instead of the browser's bubble (form-checks.ts), and forgets it once the control is edited.
 */
export function FieldFrame({
  label,
  error,
  hint,
  className,
  trailing,
  control,
}: {
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  trailing?: ReactNode;
  control: (a11y: ControlA11y) => ReactNode;
}) {
  const id = useId();
  const problem = useBrowserCheck(id);
  const shownError = error ?? problem.message ?? undefined;
  const message = shownError
    ? { id: `${id}-error`, text: shownError, className: "text-sm text-destructive" }
    : hint
      ? { id: `${id}-hint`, text: hint, className: "text-xs text-muted-foreground" }
      : null;
  return (
    <div className={cn("space-y-1.5", className)} ref={problem.frame} data-field-frame="">
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {trailing}
      </div>
      {control({ id, "aria-invalid": shownError ? true : undefined, "aria-describedby": message?.id })}
      {message && (
        <p id={message.id} className={message.className}>
          {message.text}
        </p>
      )}
    </div>
  );
}

/**
 * The browser's verdict on the frame's control, in Mesa's words: set when the browser reports it invalid on submit
 * (the first invalid control of the form takes the focus, as the bubble would have), cleared when it is edited.
 */
function useBrowserCheck(id: string) {
  const { locale } = useI18n();
  const frame = useRef<HTMLDivElement>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const onInvalid = (event: Event) => {
      const control = event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
      setMessage(validityMessage(control, locale));
      const form = control.form;
      const first = form
        ? Array.from(form.elements).find(
            (e) => !(e instanceof HTMLFieldSetElement) && (e as HTMLInputElement).validity?.valid === false,
          )
        : control;
      if (first === control) (document.getElementById(id) ?? control).focus();
    };
    const onEdit = () => setMessage(null);
    element.addEventListener("invalid", onInvalid, true);
    element.addEventListener("input", onEdit);
    element.addEventListener("change", onEdit);
    return () => {
      element.removeEventListener("invalid", onInvalid, true);
      element.removeEventListener("input", onEdit);
      element.removeEventListener("change", onEdit);
    };
  }, [id, locale]);
  return { frame, message };
}

/** The form's "saved" flag, shown for 2 seconds after success (the client's recentlySuccessful). */
export function SavedFlag({ show, children }: { show: boolean; children: ReactNode }) {
  return (
    <span
      role="status"
      aria-live="polite"
      className={cn("text-sm text-muted-foreground transition-opacity", show ? "opacity-100" : "opacity-0")}
      data-testid="saved-flag"
    >
      {show ? children : null}
    </span>
  );
}
