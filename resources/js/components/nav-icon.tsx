/** The icons the sidebar may name (by lucide name); an unknown name falls back to a neutral square. */
import { LayoutGrid, Settings, Square, type LucideIcon } from "lucide-react";

const ICONS: Record<string, LucideIcon> = {
  "layout-grid": LayoutGrid,
  settings: Settings,
};

export function NavIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? Square;
  return <Icon className={className} aria-hidden="true" />;
}
