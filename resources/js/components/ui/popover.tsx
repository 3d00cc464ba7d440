/**
 * A popover: a small non-modal panel next to the button that opened it (a table row's "services", say). It lives in
 * the browser's top layer (the `popover` attribute), so a table that scrolls sideways cannot clip it; it opens
 * below its anchor, or above when there is no room, and follows it when the page scrolls. Escape, a click outside
 * or the close button closes it; focus moves into it and back to the anchor, as with Dialog.
 */
import { X } from "lucide-react";
import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from "react";
import { useSettleOnClose } from "./dialog";

const GAP = 6;
const MARGIN = 8;

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
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const settle = useSettleOnClose();

  // Placed before the first paint, so it never shows in the wrong spot.
  useLayoutEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    const place = () => {
      const a = anchor.getBoundingClientRect();
      const width = panel.offsetWidth;
      const height = panel.offsetHeight;
      const below = a.bottom + GAP + height <= window.innerHeight - MARGIN || a.top - GAP - height < MARGIN;
      panel.style.top = `${below ? Math.min(a.bottom + GAP, window.innerHeight - MARGIN - height) : a.top - GAP - height}px`;
      panel.style.left = `${Math.max(MARGIN, Math.min(a.right - width, window.innerWidth - MARGIN - width))}px`;
    };
    panel.showPopover();
    place();
    const observer = new ResizeObserver(place);
    observer.observe(panel);
    window.addEventListener("resize", place);
    window.addEventListener("scroll", place, true);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", place, true);
    };
  }, [anchor]);

  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    panel.querySelector<HTMLElement>("input, select, textarea, button:not([data-popover-close])")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      onClose();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.contains(target) && !anchor.contains(target)) onClose();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
      if (panel.matches(":popover-open")) panel.hidePopover();
      settle(anchor);
    };
  }, [anchor]);

  return (
    <div
      ref={ref}
      popover="manual"
      role="dialog"
      aria-labelledby={titleId}
      className="fixed m-0 w-80 max-w-[calc(100vw-1rem)] rounded-xl border bg-card p-4 text-card-foreground shadow-xl"
    >
      <div className="mb-3 flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-sm font-semibold">
          {title}
        </h2>
        <button
          type="button"
          data-popover-close
          onClick={onClose}
          className="-m-1 rounded-md p-1 hover:bg-accent"
          aria-label={closeLabel}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      {children}
    </div>
  );
}
