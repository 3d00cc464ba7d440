/**
 * A cafe's menu settings beside its structures: the diner level the schedule costs and shows, and the language of
 * its menu board (menu.settings.update). Read-only without menu.manage.
 */
import { router } from "@inertiajs/react";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Button } from "../ui/button";
import { SelectField } from "../ui/select-field";
import type { CafeMenuSettings, MenuCafe } from "./structure-types";

export function StructureSettings({
  cafe,
  settings,
  levels,
  canManage,
}: {
  cafe: MenuCafe;
  settings: CafeMenuSettings;
  levels: { id: number; name: string }[];
  canManage: boolean;
}) {
  const { t, levelName } = useI18n();
  const route = useRoute();
  const [level, setLevel] = useState(settings.defaultLevelId === null ? "" : String(settings.defaultLevelId));
  const [language, setLanguage] = useState<string>(settings.boardLanguage);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const dirty =
    level !== (settings.defaultLevelId === null ? "" : String(settings.defaultLevelId)) ||
    language !== settings.boardLanguage;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !dirty) return;
    setBusy(true);
    router.put(
      route("menu.settings.update", { cafe: cafe.id }),
      { default_level_id: level === "" ? null : Number(level), board_language: language },
      {
        preserveScroll: true,
        onError: (failed) => setErrors(failed as Record<string, string>),
        onFinish: () => setBusy(false),
      },
    );
  };

  const first = levels[0];
  return (
    <section aria-labelledby="menu-settings-title" className="space-y-3 rounded-lg border bg-card p-4">
      <h2 id="menu-settings-title" className="font-semibold">
        {t("menu.settings.title")}
      </h2>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" noValidate>
        <SelectField
          label={t("menu.settings.default_level")}
          hint={t("menu.settings.default_level_hint")}
          error={errors.default_level_id}
          value={level}
          disabled={!canManage}
          onValueChange={setLevel}
          options={[
            ...(first ? [{ value: "", label: t("menu.settings.first_level", { name: levelName(first.name) }) }] : []),
            ...levels.map((l) => ({ value: String(l.id), label: levelName(l.name) })),
          ]}
        />
        <SelectField
          label={t("menu.settings.board_language")}
          error={errors.board_language}
          value={language}
          disabled={!canManage}
          onValueChange={setLanguage}
          options={[
            { value: "es", label: t("menu.settings.languages.es") },
            { value: "en", label: t("menu.settings.languages.en") },
          ]}
        />
        {canManage && (
          <Button type="submit" variant="outline" disabled={busy || !dirty} className="sm:mb-5">
            {t("menu.settings.save")}
          </Button>
        )}
      </form>
    </section>
  );
}
