/** Confirm the password before a sensitive action; remembered for PASSWORD_CONFIRM_TIMEOUT. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

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
      <PageHeader
        align="center"
        size="small"
        title={t("auth.confirm.title")}
        description={t("auth.confirm.description")}
      />
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
