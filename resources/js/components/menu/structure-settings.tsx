/**
 * A cafe's menu settings beside its structures: the diner level the schedule costs and shows, and the language of
 * its menu board (menu.settings.update). Read-only without menu.manage.
 */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
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
  const savedLevel = settings.defaultLevelId === null ? "" : String(settings.defaultLevelId);
  const form = useForm({ default_level_id: savedLevel, board_language: settings.boardLanguage as string });
  const { default_level_id: level, board_language: language } = form.data;
  const errors = form.errors as Record<string, string>;
  const dirty = level !== savedLevel || language !== settings.boardLanguage;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.processing || !dirty) return;
    form.transform((data) => ({
      default_level_id: data.default_level_id === "" ? null : Number(data.default_level_id),
      board_language: data.board_language,
    }));
    form.put(route("menu.settings.update", { cafe: cafe.id }), { preserveScroll: true });
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
          onValueChange={(value) => form.setData("default_level_id", value)}
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
          onValueChange={(value) => form.setData("board_language", value)}
          options={[
            { value: "es", label: t("menu.settings.languages.es") },
            { value: "en", label: t("menu.settings.languages.en") },
          ]}
        />
        {canManage && (
          <Button type="submit" variant="outline" disabled={form.processing || !dirty} className="sm:mb-5">
            {t("menu.settings.save")}
          </Button>
        )}
      </form>
    </section>
  );
}
