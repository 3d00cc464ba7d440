/** The signed-in home. Until the user holds a role it says so, and how to get one. */
import { Head } from "@inertiajs/react";
import { BadgeCheck, KeyRound, MailWarning } from "lucide-react";
import { useI18n } from "../hooks/use-i18n";
import { OnDuty } from "../components/on-duty";
import { PageHeader } from "../components/ui/page-header";

interface Account {
  name: string;
  email: string;
  emailVerifiedAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  roles: string[];
}

export default function Dashboard({
  account,
  cafes,
}: {
  account: Account;
  cafes: { id: number; name: string; unit: string }[];
}) {
  const { t, dateTime, date } = useI18n();
  return (
    <div className="space-y-6">
      <Head title={t("dashboard.title")} />
      <PageHeader title={t("dashboard.welcome", { name: account.name })} />
      {account.roles.length === 0 && (
        <section
          className="flex gap-3 rounded-xl border border-primary/40 bg-primary/5 p-4"
          aria-labelledby="no-role-title"
          data-testid="no-role"
        >
          <KeyRound className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <h2 id="no-role-title" className="font-medium">
              {t("dashboard.no_role_title")}
            </h2>
            <p className="text-sm text-muted-foreground">{t("dashboard.no_role_body")}</p>
          </div>
        </section>
      )}
      <section className="max-w-xl rounded-xl border bg-card p-4 text-card-foreground" aria-labelledby="account-title">
        <h2 id="account-title" className="mb-3 font-medium">
          {t("dashboard.account")}
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{t("dashboard.email")}</dt>
          <dd className="flex flex-wrap items-center gap-2">
            {account.email}
            {account.emailVerifiedAt ? (
              <span className="inline-flex items-center gap-1 text-success">
                <BadgeCheck className="size-4" aria-hidden="true" />
                {t("dashboard.verified", { date: date(account.emailVerifiedAt) })}
              </span>
            ) : (
              <span className="inline-flex items-center gap-1 text-destructive">
                <MailWarning className="size-4" aria-hidden="true" />
                {t("dashboard.not_verified")}
              </span>
            )}
          </dd>
          <dt className="text-muted-foreground">{t("dashboard.roles")}</dt>
          <dd>{account.roles.length ? account.roles.join(", ") : "—"}</dd>
          <dt className="text-muted-foreground">{t("dashboard.last_sign_in")}</dt>
          <dd>{account.lastSignInAt ? dateTime(account.lastSignInAt) : t("dashboard.never")}</dd>
          <dt className="text-muted-foreground">{t("dashboard.member_since")}</dt>
          <dd>{date(account.createdAt)}</dd>
        </dl>
      </section>
      <OnDuty cafes={cafes} />
    </div>
  );
}
