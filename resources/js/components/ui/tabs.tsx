/**
 * A row of tabs (role="tablist") with the keyboard pattern: only the selected tab is in the Tab order, and the
 * left and right arrows, Home and End move to another tab and select it. Pages render only the selected tab's
 * panel (id `panel-<id>`), so only the selected tab names it in aria-controls.
 */
import type { KeyboardEvent } from "react";
import { cn } from "../../lib/utils";

export function TabList<T extends string>({
  label,
  tabs,
  current,
  onChange,
}: {
  label: string;
  tabs: { id: T; label: string }[];
  current: T;
  onChange: (id: T) => void;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = targets[event.key];
    if (next === undefined) return;
    event.preventDefault();
    document.getElementById(`tab-${tabs[next].id}`)?.focus();
    if (tabs[next].id !== current) onChange(tabs[next].id);
  };
  return (
    <div role="tablist" aria-label={label} className="inline-flex gap-1 rounded-lg bg-muted p-1">
      {tabs.map((item, index) => {
        const selected = current === item.id;
        return (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`tab-${item.id}`}
            aria-selected={selected}
            aria-controls={selected ? `panel-${item.id}` : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.id)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm",
              selected ? "bg-card shadow-sm" : "text-muted-foreground hover:text-foreground",
            )}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
