/** Sign in with e-mail and password; "remember me" keeps the session across browser restarts. */
import { Head, Link, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

export default function Login({ canRegister, canResetPassword }: { canRegister: boolean; canResetPassword: boolean }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ email: "", password: "", remember: false });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("login.store"), { onFinish: () => form.reset("password") });
  };
  return (
    <>
      <Head title={t("auth.login.title")} />
      <PageHeader align="center" size="small" title={t("auth.login.title")} description={t("auth.login.description")} />
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("auth.login.email")}
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          required
          value={form.data.email}
          onChange={(e) => form.setData("email", e.target.value)}
          error={form.errors.email}
        />
        <Field
          label={t("auth.login.password")}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={form.data.password}
          onChange={(e) => form.setData("password", e.target.value)}
          error={form.errors.password}
          trailing={
            canResetPassword ? (
              <Link href={route("password.request")} className="text-xs text-primary underline-offset-4 underline">
                {t("auth.login.forgot")}
              </Link>
            ) : null
          }
        />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="remember"
            checked={form.data.remember}
            onChange={(e) => form.setData("remember", e.target.checked)}
          />
          {t("auth.login.remember")}
        </label>
        <Button type="submit" className="w-full" disabled={form.processing}>
          {t("auth.login.submit")}
        </Button>
      </form>
      {canRegister && (
        <p className="text-center text-sm text-muted-foreground">
          {t("auth.login.no_account")}{" "}
          <Link href={route("register")} className="text-primary underline-offset-4 underline">
            {t("auth.login.register")}
          </Link>
        </p>
      )}
    </>
  );
}
