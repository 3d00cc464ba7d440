/** The icons the sidebar may name (by lucide name); an unknown name falls back to a neutral square. */
import {
  Ban,
  Building2,
  CalendarDays,
  Handshake,
  History,
  LayoutGrid,
  MapPin,
  Receipt,
  Settings,
  Shield,
  ShoppingCart,
  Square,
  Users,
  UtensilsCrossed,
  type LucideIcon,
} from "lucide-react";

/** Icons administrators may pick for a sidebar entry (the permission modal lists these names). */
export const ICONS: Record<string, LucideIcon> = {
  "layout-grid": LayoutGrid,
  settings: Settings,
  users: Users,
  shield: Shield,
  ban: Ban,
  history: History,
  utensils: UtensilsCrossed,
  "map-pin": MapPin,
  building: Building2,
  calendar: CalendarDays,
  handshake: Handshake,
  "shopping-cart": ShoppingCart,
  receipt: Receipt,
};

export function NavIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? Square;
  return <Icon className={className} aria-hidden="true" />;
}
