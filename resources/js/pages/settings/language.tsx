/** Settings → Language: the interface language, with a preview of how numbers, money and dates will look. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { locales, type Locale } from "../../../../src/shared/i18n";
import { PageHeader } from "../../components/ui/page-header";

const SAMPLE_DATE = "2026-11-22T15:30:00Z";

export default function Language() {
  const { t, locale, money, number, date } = useI18n();
  const route = useRoute();
  const form = useForm<{ locale: Locale }>({ locale });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.put(route("language.update"), { preserveScroll: true });
  };

  return (
    <div className="space-y-4">
      <Head title={t("settings.language.title")} />
      <PageHeader level={2} title={t("settings.language.title")} description={t("settings.language.description")} />
      <form onSubmit={submit} className="space-y-4">
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{t("settings.language.label")}</legend>
          {locales.map((l) => (
            <label key={l} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="locale"
                value={l}
                checked={form.data.locale === l}
                onChange={() => form.setData("locale", l)}
              />
              {t(`locale.${l}`)}
            </label>
          ))}
          {form.errors.locale && (
            <p className="text-sm text-destructive" role="alert">
              {form.errors.locale}
            </p>
          )}
        </fieldset>
        <p className="text-sm text-muted-foreground" data-testid="format-example">
          {t("settings.language.example", { money: money(123450), number: number(1234.5, 2), date: date(SAMPLE_DATE) })}
        </p>
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={form.processing}>
            {t("settings.language.save")}
          </Button>
          {form.recentlySuccessful && (
            <span className="text-sm text-muted-foreground" role="status">
              {t("settings.language.saved")}
            </span>
          )}
        </div>
      </form>
    </div>
  );
}
