/** Switches the interface language; the server keeps the choice and answers with the page in that language. */
import { router } from "@inertiajs/react";
import { Languages } from "lucide-react";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";
import { locales, type Locale } from "../../../src/i18n";

export function LanguageSwitcher() {
  const { t, locale } = useI18n();
  const route = useRoute();
  const change = (next: Locale) => {
    if (next !== locale) router.put(route("language.update"), { locale: next }, { preserveScroll: true });
  };
  return (
    <label className="inline-flex items-center gap-1.5 text-sm">
      <Languages className="size-4 text-muted-foreground" aria-hidden="true" />
      <span className="sr-only">{t("locale.switch")}</span>
      <select
        value={locale}
        onChange={(e) => change(e.target.value as Locale)}
        className="rounded-md border border-input bg-card px-2 py-1 text-sm"
        data-testid="language-switcher"
      >
        {locales.map((l) => (
          <option key={l} value={l}>
            {t(`locale.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
