/** Switches the interface language; the server keeps the choice and answers with the page in that language. */
import { router } from "@inertiajs/react";
import { Languages } from "lucide-react";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";
import { locales, type Locale } from "../../../src/shared/i18n";
import { Select } from "./ui/select";

export function LanguageSwitcher() {
  const { t, locale } = useI18n();
  const route = useRoute();
  const change = (next: string) => {
    if (next !== locale) router.put(route("language.update"), { locale: next as Locale }, { preserveScroll: true });
  };
  return (
    <Select
      value={locale}
      onValueChange={change}
      options={locales.map((l) => ({ value: l, label: t(`locale.${l}`) }))}
      aria-label={t("locale.switch")}
      data-testid="language-switcher"
      className="h-8 w-auto gap-1.5 px-2"
      leading={<Languages className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />}
    />
  );
}
