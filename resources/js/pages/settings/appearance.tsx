/** Settings → Appearance: light, dark or follow the system. */
import { Head } from "@inertiajs/react";
import { AppearanceToggle } from "../../components/appearance-toggle";
import { useI18n } from "../../hooks/use-i18n";

export default function Appearance() {
  const { t } = useI18n();
  return (
    <div className="space-y-4">
      <Head title={t("settings.appearance.title")} />
      <header>
        <h2 className="text-lg font-medium">{t("settings.appearance.title")}</h2>
        <p className="text-sm text-muted-foreground">{t("settings.appearance.description")}</p>
      </header>
      <AppearanceToggle />
    </div>
  );
}
