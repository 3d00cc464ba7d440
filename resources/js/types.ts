import type { Locale } from "../../src/shared/i18n";

export type Appearance = "light" | "dark" | "system";

export interface NavigationEntry {
  route: string;
  label: string;
  icon: string;
  order: number;
}

/** Props every page receives from src/http/shared-props.ts. */
export interface SharedProps {
  app: { name: string };
  locale: Locale;
  appearance: Appearance;
  settings: { timezone: string; currency: string };
  auth: { user: { id: number; name: string; email: string } | null };
  navigation: NavigationEntry[];
  ziggy: import("ziggy-js").Config;
  errors: Record<string, string>;
  [key: string]: unknown;
}
