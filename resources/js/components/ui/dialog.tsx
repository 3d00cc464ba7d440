/**
 * A modal dialog on Radix's Dialog: the page behind is inert, focus moves to the dialog's first field (not its close
 * button) and stays inside, Escape and the close button close it, and a click outside does not (a half-typed form
 * is not lost by a stray click). Pages unmount a dialog to close it, or pass `open={false}`; either way closing
 * settles the page: focus returns to the element that opened it, and field errors a failed submit left in the
 * page's `errors` prop are cleared, so a cancelled form's errors do not show up on the page behind.
 */
import { router, usePage } from "@inertiajs/react";
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
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
  description?: ReactNode;
  children: ReactNode;
  closeLabel: string;
  wide?: boolean;
}) {
  const opener = useOpener(open);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          className={cn(modalClasses, wide ? "max-w-3xl" : "max-w-lg")}
          // Without a description, say so, so the dialog is not described by its whole content.
          {...(description ? {} : { "aria-describedby": undefined })}
          onOpenAutoFocus={focusFirstField}
          onCloseAutoFocus={(event) => returnFocus(event, opener.current)}
          onPointerDownOutside={(event) => event.preventDefault()}
        >
          <div className="space-y-4 p-5">
            <div className="space-y-1 pr-8">
              <DialogPrimitive.Title className="text-lg font-semibold leading-snug">{title}</DialogPrimitive.Title>
              {description && (
                <DialogPrimitive.Description className="text-sm text-muted-foreground">
                  {description}
                </DialogPrimitive.Description>
              )}
            </div>
            {children}
          </div>
          {/* Last in the markup, so Tab reaches the fields first; shown at the top right. */}
          <DialogPrimitive.Close
            className="absolute right-3 top-3 rounded-md p-1 text-muted-foreground hover:bg-accent hover:text-foreground"
            aria-label={closeLabel}
          >
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** The dimmed page behind a modal dialog, alert dialog or sheet. */
export const overlayClasses = "fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in";

/** A centred modal panel (a dialog or an alert dialog); the caller adds its max width. */
export const modalClasses =
  "fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border bg-card text-card-foreground shadow-xl focus:outline-none data-[state=open]:animate-zoom-in";

const FIELDS = [
  "input:not([type=hidden]):not([disabled])",
  "textarea:not([disabled])",
  "select:not([disabled]):not([aria-hidden=true])",
  "button[role=combobox]:not([disabled])",
  "[data-autofocus]",
].join(", ");

/**
 * Moves focus to the first field of an overlay that has just opened (onOpenAutoFocus). Without a field, the
 * overlay's own choice stands: its first focusable element, which in Mesa's dialogs is never the close button.
 */
export function focusFirstField(event: Event): void {
  const container = event.currentTarget as HTMLElement | null;
  const field = container?.querySelector<HTMLElement>(FIELDS);
  if (!field) return;
  event.preventDefault();
  field.focus();
}

/**
 * Gives focus back to the element that opened an overlay, when it is still on the page (onCloseAutoFocus) — unless
 * another overlay has opened meanwhile and holds the focus (one dialog leading to the next).
 */
export function returnFocus(event: Event, opener: HTMLElement | null): void {
  event.preventDefault();
  const closing = event.currentTarget instanceof HTMLElement ? event.currentTarget : null;
  const holder = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const other = holder?.closest('[role="dialog"], [role="alertdialog"]');
  if (other && other !== closing && !closing?.contains(other)) return;
  if (opener?.isConnected) opener.focus();
}

/**
 * The element focused when `open` became true (read before the overlay moves focus), and on closing or
 * unmounting: focus back on it and the page's field errors cleared (useSettleOnClose).
 */
export function useOpener(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  const settle = useSettleOnClose();
  // A layout effect runs before the overlay's own effects move focus into it.
  useLayoutEffect(() => {
    if (!open) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  useEffect(() => {
    if (!open) return;
    return () => settle(opener.current);
  }, [open]);
  return opener;
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
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Button variant="outline" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
