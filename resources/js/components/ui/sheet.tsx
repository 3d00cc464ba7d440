/**
 * A sheet: a modal panel that slides in from the side of the screen (the phone menu), on Radix's Dialog. Escape, the
 * close button and a click on the dimmed page close it; focus moves into it and back to the button that opened it.
 */
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";
import { overlayClasses } from "./dialog";

export function Sheet({
  open,
  onOpenChange,
  trigger,
  title,
  closeLabel,
  side = "left",
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it (Radix gives focus back to it when the sheet closes). */
  trigger: ReactNode;
  /** The sheet's name for screen readers (shown only to them). */
  title: string;
  closeLabel: string;
  side?: "left" | "right";
  className?: string;
  children: ReactNode;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          // Focus starts on the current page's link (Radix would skip links), else on the first one.
          onOpenAutoFocus={(event) => {
            const content = event.currentTarget as HTMLElement;
            const link = content.querySelector<HTMLElement>("[aria-current=page]") ?? content.querySelector("a[href]");
            if (!link) return;
            event.preventDefault();
            link.focus();
          }}
          className={cn(
            "fixed inset-y-0 z-50 flex w-72 max-w-[85vw] flex-col overflow-y-auto bg-sidebar p-4 text-foreground shadow-xl focus:outline-none",
            side === "left"
              ? "left-0 border-r data-[state=open]:animate-slide-in-left"
              : "right-0 border-l data-[state=open]:animate-slide-in-right",
            className,
          )}
        >
          <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          {children}
          <DialogPrimitive.Close
            className="absolute right-3 top-3 rounded-md p-1.5 text-muted-foreground hover:bg-accent hover:text-foreground"
            aria-label={closeLabel}
          >
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
