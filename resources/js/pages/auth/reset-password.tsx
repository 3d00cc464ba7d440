/** Choose a new password from the link sent by e-mail. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

export default function ResetPassword({ token, email, passwordMinLength }: { token: string; email: string; passwordMinLength: number }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ token, email, password: "", password_confirmation: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("password.store"), { onFinish: () => form.reset("password", "password_confirmation") });
  };
  return (
    <>
      <Head title={t("auth.reset.title")} />
      <div className="space-y-1 text-center">
        <h1 className="text-xl font-semibold">{t("auth.reset.title")}</h1>
        <p className="text-sm text-muted-foreground">{t("auth.reset.description")}</p>
      </div>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label={t("auth.login.email")} type="email" name="email" autoComplete="username" required value={form.data.email} onChange={(e) => form.setData("email", e.target.value)} error={form.errors.email} />
        <Field
          label={t("settings.password.new")}
          type="password"
          name="password"
          autoComplete="new-password"
          autoFocus
          required
          value={form.data.password}
          onChange={(e) => form.setData("password", e.target.value)}
          error={form.errors.password}
          hint={t("auth.register.password_hint", { min: passwordMinLength })}
        />
        <Field
          label={t("settings.password.confirmation")}
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={form.data.password_confirmation}
          onChange={(e) => form.setData("password_confirmation", e.target.value)}
          error={form.errors.password_confirmation}
        />
        <Button type="submit" className="w-full" disabled={form.processing}>
          {t("auth.reset.submit")}
        </Button>
      </form>
    </>
  );
}
