/** A row of tabs (role="tablist"); each tab controls the panel with id `panel-<id>`. */
import { cn } from "../../lib/utils";

export function TabList<T extends string>({ label, tabs, current, onChange }: { label: string; tabs: { id: T; label: string }[]; current: T; onChange: (id: T) => void }) {
  return (
    <div role="tablist" aria-label={label} className="inline-flex gap-1 rounded-lg bg-muted p-1">
      {tabs.map((item) => (
        <button
          key={item.id}
          type="button"
          role="tab"
          id={`tab-${item.id}`}
          aria-selected={current === item.id}
          aria-controls={`panel-${item.id}`}
          onClick={() => onChange(item.id)}
          className={cn("rounded-md px-3 py-1.5 text-sm", current === item.id ? "bg-card shadow-sm" : "text-muted-foreground hover:text-foreground")}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
