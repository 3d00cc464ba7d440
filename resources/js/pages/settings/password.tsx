/** Settings → Password: current, new and confirmation; other sessions end when it changes. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field, SavedFlag } from "../../components/ui/field";
import { NewPasswordFields } from "../../components/new-password-fields";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

export default function Password({ passwordMinLength }: { passwordMinLength: number }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ current_password: "", password: "", password_confirmation: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.put(route("password.update"), { preserveScroll: true, onFinish: () => form.reset() });
  };
  return (
    <div className="space-y-4">
      <Head title={t("settings.password.title")} />
      <PageHeader level={2} title={t("settings.password.title")} description={t("settings.password.description")} />
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("settings.password.current")}
          type="password"
          name="current_password"
          autoComplete="current-password"
          value={form.data.current_password}
          onChange={(e) => form.setData("current_password", e.target.value)}
          error={form.errors.current_password}
        />
        <NewPasswordFields
          form={form}
          minLength={passwordMinLength}
          labels={{ password: t("settings.password.new"), confirmation: t("settings.password.confirmation") }}
        />
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={form.processing}>
            {t("settings.password.save")}
          </Button>
          <SavedFlag show={form.recentlySuccessful}>{t("settings.language.saved")}</SavedFlag>
        </div>
      </form>
    </div>
  );
}
