/** Choose a new password from the link sent by e-mail. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { NewPasswordFields } from "../../components/new-password-fields";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

export default function ResetPassword({
  token,
  email,
  passwordMinLength,
}: {
  token: string;
  email: string;
  passwordMinLength: number;
}) {
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
      <PageHeader align="center" size="small" title={t("auth.reset.title")} description={t("auth.reset.description")} />
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("auth.login.email")}
          type="email"
          name="email"
          autoComplete="username"
          required
          value={form.data.email}
          onChange={(e) => form.setData("email", e.target.value)}
          error={form.errors.email}
        />
        <NewPasswordFields
          form={form}
          minLength={passwordMinLength}
          labels={{ password: t("settings.password.new"), confirmation: t("settings.password.confirmation") }}
          autoFocus
        />
        <Button type="submit" className="w-full" disabled={form.processing}>
          {t("auth.reset.submit")}
        </Button>
      </form>
    </>
  );
}
