/** Create an account; it starts with no role and must verify its e-mail. */
import { Head, Link, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { NewPasswordFields } from "../../components/new-password-fields";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

export default function Register({ passwordMinLength }: { passwordMinLength: number }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ name: "", email: "", password: "", password_confirmation: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("register.store"), { onFinish: () => form.reset("password", "password_confirmation") });
  };
  return (
    <>
      <Head title={t("auth.register.title")} />
      <PageHeader
        align="center"
        size="small"
        title={t("auth.register.title")}
        description={t("auth.register.description")}
      />
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("auth.register.name")}
          name="name"
          autoComplete="name"
          autoFocus
          required
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={form.errors.name}
        />
        <Field
          label={t("auth.login.email")}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={form.data.email}
          onChange={(e) => form.setData("email", e.target.value)}
          error={form.errors.email}
        />
        <NewPasswordFields
          form={form}
          minLength={passwordMinLength}
          labels={{ password: t("auth.login.password"), confirmation: t("auth.register.password_confirmation") }}
        />
        <Button type="submit" className="w-full" disabled={form.processing}>
          {t("auth.register.submit")}
        </Button>
      </form>
      <p className="text-center text-sm text-muted-foreground">
        {t("auth.register.have_account")}{" "}
        <Link href={route("login")} className="text-primary underline-offset-4 underline">
          {t("auth.register.login")}
        </Link>
      </p>
    </>
  );
}
