/**
 * A modal dialog on the native <dialog> element: focus moves into it and back, Escape and the close button
 * close it, and the page behind is inert. Pages unmount a dialog to close it, so closing is done on unmount too:
 * focus returns to the element that opened it, and field errors a failed submit left in the page's `errors`
 * prop are cleared, so a cancelled form's errors do not show up on the page behind.
 */
import { router, usePage } from "@inertiajs/react";
import { X } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { cn } from "../../lib/utils";
import { Button } from "./button";

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  closeLabel,
  wide = false,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  closeLabel: string;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const settle = useSettleOnClose();

  // Effects run only in the browser. The cleanup runs when the dialog closes or unmounts.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      settle(opener);
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] rounded-xl border bg-card p-0 text-card-foreground shadow-xl backdrop:bg-black/50",
        wide ? "max-w-3xl" : "max-w-lg",
      )}
    >
      {open && (
        <div className="space-y-4 p-5">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 id={titleId} className="text-lg font-semibold">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="text-sm text-muted-foreground">
                  {description}
                </p>
              )}
            </div>
            <button type="button" onClick={onClose} className="rounded-md p-1 hover:bg-accent" aria-label={closeLabel}>
              <X className="size-5" aria-hidden="true" />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}

/**
 * What closing an overlay (a dialog or a popover) leaves behind: focus back on the element that opened it, and
 * no field errors of a failed submit in the page's `errors` prop, so a cancelled form's errors do not show up on
 * the page behind. Returns the function to call on close, with the opener.
 */
export function useSettleOnClose(): (opener: HTMLElement | null) => void {
  const pageErrors = useRef<Record<string, unknown>>({});
  pageErrors.current = (usePage().props.errors ?? {}) as Record<string, unknown>;
  return (opener) => {
    if (opener?.isConnected) opener.focus();
    if (Object.keys(pageErrors.current).length > 0) router.replaceProp("errors", {});
  };
}

/** The footer of a form in a dialog: Cancel closes it, the submit button saves (disabled while sending). */
export function DialogActions({
  onCancel,
  cancelLabel,
  submitLabel,
  busy,
}: {
  onCancel: () => void;
  cancelLabel: string;
  submitLabel: string;
  busy: boolean;
}) {
  return (
    <div className="flex justify-end gap-2 pt-2">
      <Button variant="outline" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
