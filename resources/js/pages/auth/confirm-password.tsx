/** Confirm the password before a sensitive action; remembered for PASSWORD_CONFIRM_TIMEOUT. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

export default function ConfirmPassword() {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ password: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("password.confirm.store"), { onFinish: () => form.reset("password") });
  };
  return (
    <>
      <Head title={t("auth.confirm.title")} />
      <div className="space-y-1 text-center">
        <h1 className="text-xl font-semibold">{t("auth.confirm.title")}</h1>
        <p className="text-sm text-muted-foreground">{t("auth.confirm.description")}</p>
      </div>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("auth.login.password")}
          type="password"
          name="password"
          autoComplete="current-password"
          autoFocus
          required
          value={form.data.password}
          onChange={(e) => form.setData("password", e.target.value)}
          error={form.errors.password}
        />
        <Button type="submit" className="w-full" disabled={form.processing}>
          {t("auth.confirm.submit")}
        </Button>
      </form>
    </>
  );
}
