/** Waiting for the e-mail to be verified: resend the link or sign out. */
import { Head, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

export default function VerifyEmail({ email }: { email: string }) {
  const { t } = useI18n();
  const route = useRoute();
  const resend = useForm({});
  const logout = useForm({});
  return (
    <>
      <Head title={t("auth.verify.title")} />
      <PageHeader
        align="center"
        size="small"
        title={t("auth.verify.title")}
        description={t("auth.verify.description", { email })}
      />
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          resend.post(route("verification.send"));
        }}
      >
        <Button type="submit" className="w-full" disabled={resend.processing}>
          {t("auth.verify.resend")}
        </Button>
      </form>
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          logout.post(route("logout"));
        }}
        className="text-center"
      >
        <button type="submit" className="text-sm text-muted-foreground underline-offset-4 underline">
          {t("auth.verify.logout")}
        </button>
      </form>
    </>
  );
}
