/** The point of sale's keys: their names as the page shows them, and the one table of which key does what. */
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";

/**
 * The point of sale's keys, fixed (they never move to another action): function keys, which a scanner never types
 * and a name never holds. They work from the scan box and anywhere else on the page, but not while a dialog is open
 * or another field (a quantity, the date) has the focus, except F2, which is the way back to the scan box.
 */
export const POS_KEYS = {
  scan: "F2",
  register: "F3",
  print: "F4",
  saleType: "F8",
  visitor: "F9",
} as const;

/** A key's name as the page shows it beside what it does (aria-hidden: the control says its key in aria-keyshortcuts). */
export function Kbd({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <kbd
      aria-hidden="true"
      className={cn(
        "ml-1 rounded border border-current/30 bg-background/60 px-1 font-mono text-[11px] leading-4 text-current opacity-80",
        className,
      )}
    >
      {children}
    </kbd>
  );
}
