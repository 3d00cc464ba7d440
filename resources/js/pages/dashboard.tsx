/**
 * The signed-in home. Holders of sales.view see the sales figures of their cafes (all of them, or the one chosen),
 * loaded after the page has painted (a deferred prop, skeletons meanwhile) and kept live by the cafes' figures
 * channels. Everyone sees their account and who is on duty; a person without a role sees who can give them one.
 */
import { Deferred, Head, router } from "@inertiajs/react";
import { AlertTriangle, BadgeCheck, KeyRound, MailWarning, Radio } from "lucide-react";
import { useState } from "react";
import type { DashboardFigures, RoleKeeper } from "../../../src/shared/sales/types";
import { Figures, FiguresSkeleton } from "../components/dashboard/figures";
import { MAX_LIVE_CAFES, POLL_SECONDS, useLiveFigures } from "../components/dashboard/use-live-figures";
import { OnDuty } from "../components/on-duty";
import { Button } from "../components/ui/button";
import { PageHeader } from "../components/ui/page-header";
import { Select } from "../components/ui/select";
import { useI18n } from "../hooks/use-i18n";
import { useRoute } from "../hooks/use-route";

interface Account {
  name: string;
  email: string;
  emailVerifiedAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  roles: string[];
}

interface Cafe {
  id: number;
  name: string;
  unit: string;
}

/** How many cafes the "on duty" list follows when no cafe is chosen. */
const ON_DUTY_CAFES = 12;

export default function Dashboard({
  account,
  cafes,
  cafe,
  salesView,
  figures,
  roleKeepers,
}: {
  account: Account;
  /** The cafes of the person's scope. */
  cafes: Cafe[];
  /** The cafe chosen, or null for all of them. */
  cafe: number | null;
  /** Holds sales.view: the figures are sent (deferred). */
  salesView: boolean;
  figures?: DashboardFigures;
  /** Who can give a role, for a person who has none. */
  roleKeepers: RoleKeeper[];
}) {
  const { t, dateTime, date, time } = useI18n();
  const route = useRoute();
  const shown = cafe === null ? cafes : cafes.filter((c) => c.id === cafe);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  useLiveFigures(
    shown.map((c) => c.id),
    salesView,
    figures?.days[0]?.date ?? null,
    () => setUpdatedAt(new Date()),
  );
  const chooseCafe = (value: string) =>
    router.get(route("dashboard", value ? { cafe: value } : {}), {}, { preserveScroll: true });

  return (
    <div className="space-y-6">
      <Head title={t("dashboard.title")} />
      <PageHeader
        title={t("dashboard.welcome", { name: account.name })}
        actions={
          salesView && cafes.length > 1 ? (
            <Select
              aria-label={t("dashboard.cafe_filter")}
              className="w-auto min-w-56"
              value={cafe === null ? "" : String(cafe)}
              onValueChange={chooseCafe}
              data-testid="cafe-filter"
              options={[
                { value: "", label: t("dashboard.all_cafes") },
                ...cafes.map((c) => ({ value: String(c.id), label: c.name, group: c.unit })),
              ]}
            />
          ) : undefined
        }
      />

      {account.roles.length === 0 && (
        <section
          className="flex gap-3 rounded-xl border border-primary/40 bg-primary/5 p-4"
          aria-labelledby="no-role-title"
          data-testid="no-role"
        >
          <KeyRound className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <div className="space-y-2">
            <h2 id="no-role-title" className="font-medium">
              {t("dashboard.no_role_title")}
            </h2>
            <p className="text-sm text-muted-foreground">{t("dashboard.no_role_body")}</p>
            {roleKeepers.length > 0 ? (
              <div className="text-sm">
                <p>{t("dashboard.no_role_ask")}</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="role-keepers">
                  {roleKeepers.map((k) => (
                    <li key={`${k.name}|${k.area}|${k.place}`}>{t("dashboard.keeper", { ...k })}</li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="text-sm">{t("dashboard.no_role_nobody")}</p>
            )}
          </div>
        </section>
      )}

      {salesView && (
        <section aria-labelledby="figures-title" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="figures-title" className="text-lg font-semibold">
              {t("dashboard.figures_title")}
              {cafe !== null && <span className="text-muted-foreground"> · {shown[0]?.name}</span>}
            </h2>
            {shown.length > 0 && (
              <p className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="live">
                <Radio className="size-3.5 text-success" aria-hidden="true" />
                {t("dashboard.live")}
                {updatedAt && (
                  <span data-testid="live-updated">
                    {" · "}
                    {t("dashboard.live_updated", { time: time(updatedAt) })}
                  </span>
                )}
              </p>
            )}
          </div>
          {shown.length > MAX_LIVE_CAFES && (
            <p className="text-xs text-muted-foreground">
              {t("dashboard.live_polling", { count: MAX_LIVE_CAFES, seconds: POLL_SECONDS })}
            </p>
          )}
          {cafes.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("dashboard.no_cafes")}</p>
          ) : (
            <Deferred
              data="figures"
              fallback={<FiguresSkeleton />}
              rescue={
                <div
                  className="flex flex-wrap items-center gap-3 rounded-xl border border-destructive/40 p-4 text-sm"
                  role="alert"
                  data-testid="figures-failed"
                >
                  <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
                  {t("dashboard.figures_failed")}
                  <Button variant="outline" size="sm" onClick={() => router.reload({ only: ["figures"] })}>
                    {t("dashboard.figures_retry")}
                  </Button>
                </div>
              }
            >
              {({ reloading }) => <Figures figures={figures!} reloading={reloading} />}
            </Deferred>
          )}
        </section>
      )}

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section className="rounded-xl border bg-card p-4 text-card-foreground" aria-labelledby="account-title">
          <h2 id="account-title" className="mb-3 font-medium">
            {t("dashboard.account")}
          </h2>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">{t("dashboard.email")}</dt>
            <dd className="flex min-w-0 flex-wrap items-center gap-2 break-all">
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
        <OnDuty cafes={shown.slice(0, ON_DUTY_CAFES)} />
      </div>
    </div>
  );
}
