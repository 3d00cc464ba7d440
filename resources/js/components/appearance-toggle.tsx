/** Light / dark / system as a radio group; used in the header and on Settings → Appearance. */
import { Monitor, Moon, Sun } from "lucide-react";
import { usePage } from "@inertiajs/react";
import { useAppearance } from "../hooks/use-appearance";
import { useI18n } from "../hooks/use-i18n";
import { cn } from "../lib/utils";
import type { Appearance, SharedProps } from "../types";
import type { TranslationKey } from "../../../src/shared/i18n";

const OPTIONS: { value: Appearance; icon: typeof Sun; label: TranslationKey }[] = [
  { value: "light", icon: Sun, label: "settings.appearance.light" },
  { value: "dark", icon: Moon, label: "settings.appearance.dark" },
  { value: "system", icon: Monitor, label: "settings.appearance.system" },
];

export function AppearanceToggle({ compact = false }: { compact?: boolean }) {
  const { appearance: initial } = usePage<SharedProps>().props;
  const { appearance, updateAppearance } = useAppearance(initial);
  const { t } = useI18n();
  return (
    <div role="radiogroup" aria-label={t("theme.toggle")} className="inline-flex gap-1 rounded-lg bg-muted p-1">
      {OPTIONS.map(({ value, icon: Icon, label }) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={appearance === value}
          data-appearance-option={value}
          onClick={() => updateAppearance(value)}
          className={cn(
            "inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm transition-colors",
            appearance === value ? "bg-card text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
          )}
          title={compact ? t(label) : undefined}
        >
          <Icon className="size-4" aria-hidden="true" />
          <span className={compact ? "sr-only" : undefined}>{t(label)}</span>
        </button>
      ))}
    </div>
  );
}
