/**
 * A box that scrolls when what it holds is taller than it (a long list of changes, of bad rows, of places a removal
 * reaches). It takes focus, so a keyboard can scroll it, and it is named, so a screen reader says what it is when
 * it gets there. Lists whose items are buttons or checkboxes need none of this: their items take the focus.
 */
import type { HTMLAttributes } from "react";
import { cn } from "../../lib/utils";

type Name = { "aria-label": string } | { "aria-labelledby": string };

export function ScrollRegion({ className, children, ...rest }: HTMLAttributes<HTMLDivElement> & Name) {
  return (
    // A scrollable region is focusable on purpose (WCAG 2.1.1): without it, what lies below its fold cannot be read
    // from the keyboard.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div role="region" tabIndex={0} className={cn("overflow-y-auto rounded-sm", className)} {...rest}>
      {children}
    </div>
  );
}
