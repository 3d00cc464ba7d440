/**
 * Popovers on Radix's Popover: a small non-modal panel next to the element that opened it, in a portal so a table
 * that scrolls sideways cannot clip it, kept on screen (it flips above its anchor when there is no room below).
 * Escape or a click outside closes it; focus moves to its first field and back to its anchor.
 *
 * `Popover` opens beside an element the page already holds (a table row's "services" button, given as `anchor`),
 * and the page unmounts it to close it; `PopoverRoot`, `PopoverTrigger` and `PopoverContent` compose one that
 * owns its trigger (the date picker, the combobox).
 */
import * as PopoverPrimitive from "@radix-ui/react-popover";
import { X } from "lucide-react";
import { useEffect, useId, useMemo, type ComponentProps, type ReactNode } from "react";
import { cn } from "../../lib/utils";
import { focusFirstField, returnFocus, useSettleOnClose } from "./dialog";

export const PopoverRoot = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverAnchor = PopoverPrimitive.Anchor;

export const popoverClasses =
  "z-50 rounded-xl border bg-card text-card-foreground shadow-xl focus:outline-none data-[state=open]:animate-fade-in";

/** The panel of a popover, in a portal, placed by Radix beside its trigger or anchor. */
export function PopoverContent({
  className,
  sideOffset = 6,
  ...props
}: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        sideOffset={sideOffset}
        collisionPadding={8}
        className={cn(popoverClasses, className)}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}

export function Popover({
  anchor,
  title,
  closeLabel,
  onClose,
  children,
}: {
  anchor: HTMLElement;
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const settle = useSettleOnClose();
  const anchorRef = useMemo(() => ({ current: anchor }), [anchor]);
  // Closing is unmounting: focus goes back to the anchor and a cancelled form's errors are cleared.
  useEffect(() => () => settle(anchor), [anchor]);
  return (
    <PopoverPrimitive.Root open onOpenChange={(open) => !open && onClose()}>
      <PopoverPrimitive.Anchor virtualRef={anchorRef} />
      <PopoverContent
        align="end"
        aria-labelledby={titleId}
        className="w-80 max-w-[calc(100vw-1rem)] p-4"
        onOpenAutoFocus={focusFirstField}
        onCloseAutoFocus={(event) => returnFocus(event, anchor)}
        // The anchor's own click toggles the popover; it is not a click outside.
        onInteractOutside={(event) => {
          if (anchor.contains(event.target as Node)) event.preventDefault();
        }}
      >
        <div className="mb-3 flex items-start justify-between gap-3">
          <h2 id={titleId} className="text-sm font-semibold">
            {title}
          </h2>
          <PopoverPrimitive.Close
            className="-m-1 rounded-md p-1 text-muted-foreground hover:bg-accent hover:text-foreground"
            aria-label={closeLabel}
          >
            <X className="size-4" aria-hidden="true" />
          </PopoverPrimitive.Close>
        </div>
        {children}
      </PopoverContent>
    </PopoverPrimitive.Root>
  );
}
