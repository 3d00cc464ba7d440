/** Error pages: 403, 404, 419, 429, 500 and the rest, in the user's language. */
import { Head, Link } from "@inertiajs/react";
import { Button } from "../components/ui/button";
import { useI18n } from "../hooks/use-i18n";
import { PageHeader } from "../components/ui/page-header";

/** The statuses with a page of their own; any other shows the 500 page's words. */
const KNOWN = [403, 404, 413, 415, 419, 429, 500, 503] as const;
const isKnown = (status: number): status is (typeof KNOWN)[number] => (KNOWN as readonly number[]).includes(status);

export default function ErrorPage({ status, retryAfter }: { status: number; retryAfter: number | null }) {
  const { t } = useI18n();
  const code = isKnown(status) ? status : 500;
  return (
    <main
      id="content"
      className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <Head title={t(`errors.title.${code}`)} />
      <PageHeader
        align="center"
        eyebrow={
          <p className="text-6xl font-bold text-muted-foreground" aria-hidden="true">
            {status}
          </p>
        }
        title={t(`errors.title.${code}`)}
        description={t(`errors.description.${code}`)}
      />
      {retryAfter !== null && <p className="text-sm">{t("errors.retry_after", { count: retryAfter })}</p>}
      <div className="flex gap-3">
        {code === 419 ? (
          <Button onClick={() => window.location.reload()}>{t("errors.reload")}</Button>
        ) : (
          <Link href="/" className="text-primary underline underline-offset-4">
            {t("errors.go_home")}
          </Link>
        )}
      </div>
    </main>
  );
}
