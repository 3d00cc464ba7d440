/** Settings → Appearance: light, dark or follow the system. */
import { Head } from "@inertiajs/react";
import { AppearanceToggle } from "../../components/appearance-toggle";
import { useI18n } from "../../hooks/use-i18n";
import { PageHeader } from "../../components/ui/page-header";

export default function Appearance() {
  const { t } = useI18n();
  return (
    <div className="space-y-4">
      <Head title={t("settings.appearance.title")} />
      <PageHeader level={2} title={t("settings.appearance.title")} description={t("settings.appearance.description")} />
      <AppearanceToggle />
    </div>
  );
}
