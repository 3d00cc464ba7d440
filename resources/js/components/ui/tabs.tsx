/**
 * Tabs on Radix's Tabs: a row of tabs (role="tablist") with the keyboard pattern (only the selected tab is in the
 * Tab order; the arrows, Home and End move to another tab and select it).
 *
 * `TabList` is the row alone: the page renders only the selected tab's panel, as
 * `<div role="tabpanel" id="panel-<id>" aria-labelledby="tab-<id>">`, so only the selected tab names it in
 * aria-controls. `Tabs`, `TabsList`, `TabsTrigger` and `TabsContent` compose tabs whose panels Radix renders.
 */
import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";

export const Tabs = TabsPrimitive.Root;
export const TabsContent = TabsPrimitive.Content;

const listClasses = "inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1";
const triggerClasses =
  "rounded-md px-3 py-1.5 text-sm text-muted-foreground transition-colors hover:text-foreground data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm";

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List className={cn(listClasses, className)} {...props} />;
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return <TabsPrimitive.Trigger className={cn(triggerClasses, className)} {...props} />;
}

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
  return (
    <Tabs value={current} onValueChange={(id) => onChange(id as T)}>
      <TabsList aria-label={label}>
        {tabs.map((item) => (
          <TabsTrigger
            key={item.id}
            value={item.id}
            id={`tab-${item.id}`}
            aria-controls={current === item.id ? `panel-${item.id}` : undefined}
          >
            {item.label}
          </TabsTrigger>
        ))}
      </TabsList>
    </Tabs>
  );
}

/** Tabs that are links to pages (the Businesses area's sections): a navigation, the current page marked. */
export const tabLinkClasses = {
  list: listClasses,
  link: "rounded-md px-3 py-1.5 text-sm text-muted-foreground transition-colors hover:text-foreground aria-[current=page]:bg-card aria-[current=page]:text-foreground aria-[current=page]:shadow-sm",
};
