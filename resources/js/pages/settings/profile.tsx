/** Settings → Profile: name and e-mail (a new e-mail is verified again), and deleting the account. */
import { Head, useForm, usePage } from "@inertiajs/react";
import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field, SavedFlag } from "../../components/ui/field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import type { SharedProps } from "../../types";
import { PageHeader } from "../../components/ui/page-header";

export default function Profile({ mustVerifyEmail }: { mustVerifyEmail: boolean }) {
  const { t } = useI18n();
  const route = useRoute();
  const user = usePage<SharedProps>().props.auth.user!;
  const form = useForm({ name: user.name, email: user.email });
  const resend = useForm({});
  const remove = useForm({ password: "" });
  const [confirming, setConfirming] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.patch(route("profile.update"), { preserveScroll: true });
  };
  const destroy = (event: FormEvent) => {
    event.preventDefault();
    remove.delete(route("profile.destroy"), {
      preserveScroll: true,
      errorBag: "deleteAccount",
      onFinish: () => remove.reset(),
    });
  };
  const deleteErrors = (usePage().props.errors as Record<string, Record<string, string>>).deleteAccount ?? {};
  // The password, or why the account may not go (the last super-administrator, say).
  const deleteError = deleteErrors.password ?? deleteErrors.form;

  return (
    <div className="space-y-10">
      <Head title={t("settings.profile.title")} />
      <section className="space-y-4">
        <PageHeader level={2} title={t("settings.profile.title")} description={t("settings.profile.description")} />
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field
            label={t("settings.profile.name")}
            name="name"
            autoComplete="name"
            required
            value={form.data.name}
            onChange={(e) => form.setData("name", e.target.value)}
            error={form.errors.name}
          />
          <Field
            label={t("settings.profile.email")}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={form.data.email}
            onChange={(e) => form.setData("email", e.target.value)}
            error={form.errors.email}
          />
          {mustVerifyEmail && (
            <p className="text-sm">
              {t("settings.profile.unverified")}{" "}
              <button
                type="button"
                className="text-primary underline underline-offset-4"
                onClick={() => resend.post(route("verification.send"), { preserveScroll: true })}
              >
                {t("settings.profile.resend")}
              </button>
            </p>
          )}
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={form.processing}>
              {t("settings.profile.save")}
            </Button>
            <SavedFlag show={form.recentlySuccessful}>{t("settings.language.saved")}</SavedFlag>
          </div>
        </form>
      </section>

      <section className="space-y-4 rounded-xl border border-destructive/40 p-4">
        <div className="space-y-1">
          <h2 className="text-lg font-semibold">{t("settings.profile.delete_title")}</h2>
          <p className="text-sm text-muted-foreground">{t("settings.profile.delete_description")}</p>
        </div>
        {!confirming ? (
          <Button variant="destructive" onClick={() => setConfirming(true)}>
            {t("settings.profile.delete")}
          </Button>
        ) : (
          <form onSubmit={destroy} className="space-y-4" noValidate>
            <Field
              label={t("settings.profile.delete_confirm")}
              type="password"
              name="password"
              autoComplete="current-password"
              autoFocus
              value={remove.data.password}
              onChange={(e) => remove.setData("password", e.target.value)}
              error={deleteError}
            />
            <div className="flex gap-3">
              <Button type="submit" variant="destructive" disabled={remove.processing}>
                {t("settings.profile.delete")}
              </Button>
              <Button variant="outline" onClick={() => setConfirming(false)}>
                {t("settings.profile.cancel")}
              </Button>
            </div>
          </form>
        )}
      </section>
    </div>
  );
}
