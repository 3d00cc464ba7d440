/** Ask for a password reset link; the answer is the same whether or not the account exists. */
import { Head, Link, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

export default function ForgotPassword() {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ email: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("password.email"));
  };
  return (
    <>
      <Head title={t("auth.forgot.title")} />
      <PageHeader
        align="center"
        size="small"
        title={t("auth.forgot.title")}
        description={t("auth.forgot.description")}
      />
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("auth.login.email")}
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          required
          value={form.data.email}
          onChange={(e) => form.setData("email", e.target.value)}
          error={form.errors.email}
        />
        <Button type="submit" className="w-full" disabled={form.processing}>
          {t("auth.forgot.submit")}
        </Button>
      </form>
      <p className="text-center text-sm">
        <Link href={route("login")} className="text-primary underline-offset-4 underline">
          {t("auth.forgot.back")}
        </Link>
      </p>
    </>
  );
}
