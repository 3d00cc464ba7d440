/**
 * The person's latest places import on the Management page (the `importJob` prop), shown before it is written.
 * While the workbook is checked, and later while it is written, it shows the step and how far it got, heard live
 * on their private channel (`JobUpdated`) and asked again every few seconds in case a message was missed. Then:
 *
 * - the preview: what importing would create, change or leave alone, the example rows it skips and the list of
 *   changes, with "Import these changes" (nothing is saved before) and "Discard";
 * - or the rows to fix, with nothing saved;
 * - after confirming: the counts of what was written, or — when the places changed meanwhile — the new preview
 *   with a notice saying so.
 *
 * The result stays, also when they leave the page and come back, until they close or discard it.
 */
import { router, usePage } from "@inertiajs/react";
import { AlertTriangle, CheckCircle2, FileSearch, Info, Loader2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import type { RealtimeEvents } from "../../../../src/shared/realtime-events";
import { userChannel } from "../../../../src/shared/realtime-events";
import { useI18n } from "../../hooks/use-i18n";
import { useRealtime } from "../../hooks/use-realtime";
import { useRoute } from "../../hooks/use-route";
import { listenFor } from "../../lib/realtime";
import type { SharedProps } from "../../types";
import { Button } from "../ui/button";
import { ScrollRegion } from "../ui/scroll-region";
import type { TranslationKey } from "../../../../src/shared/i18n";
import { progressText } from "../food/workbook-import";

/** A places import as the server words it (src/http/routes/places-import.ts, `ImportJobView`). */
export interface ImportJob {
  id: number;
  state: "queued" | "running" | "succeeded" | "failed";
  step: "checking" | "preview" | "problems" | "saving" | "done" | "failed";
  fileName: string;
  progress: { done: number; total: number; label: TranslationKey | "" };
  notice: string | null;
  counts: string[];
  changes: string[];
  changeCount: number;
  examples: string | null;
  problems: Record<string, string>;
  canConfirm: boolean;
  expiresAt: string | null;
}

type Update = RealtimeEvents["JobUpdated"];

/** How often the page asks for the job again while it runs, in case a realtime message was missed. */
const POLL_MS = 3000;
/** How long the server keeps a previewed workbook for confirmation (src/domain/jobs/jobs.ts, UPLOAD_KEPT_MS). */
const KEPT_MINUTES = 30;

export function ImportJobPanel({ job, onImportAgain }: { job: ImportJob; onImportAgain: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const realtime = useRealtime();
  const page = usePage<SharedProps>();
  const userId = page.props.auth.user?.id ?? null;
  const confirmError = page.props.errors?.confirm;
  const [live, setLive] = useState<Update | null>(null);
  const [sending, setSending] = useState(false);
  const changesId = useId();
  const problemsId = useId();
  const running = job.state === "queued" || job.state === "running";

  useEffect(() => {
    if (userId === null) return;
    const channel = realtime().private(userChannel(userId));
    const heard = (update: Update) => {
      if (update.kind !== "places.import") return;
      // A finished job's result is worded by the server, in the page's language.
      if (update.state === "succeeded" || update.state === "failed") router.reload({ only: ["importJob"] });
      else setLive(update);
    };
    listenFor(channel, "JobUpdated", heard);
    return () => {
      channel.stopListening("JobUpdated", heard);
    };
  }, [userId]);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.reload({ only: ["importJob"] }), POLL_MS);
    return () => clearInterval(timer);
  }, [running, job.id]);

  const dismiss = () => router.post(route("jobs.dismiss", { job: job.id }), {}, { preserveScroll: true });
  const confirm = () =>
    router.post(
      route("management.import_confirm", { job: job.id }),
      {},
      { preserveScroll: true, onStart: () => setSending(true), onFinish: () => setSending(false) },
    );
  const title =
    job.step === "preview" || job.step === "problems"
      ? t("import.preview_title", { file: job.fileName })
      : t("import.job_title", { file: job.fileName });

  if (running) {
    const current = live && live.id === job.id && live.state === "running" ? live : job;
    const { done, total } = current.progress;
    const text = progressText(t, current.state, current.progress);
    return (
      <section
        className="space-y-2 rounded-md border bg-card px-4 py-3 text-sm"
        aria-label={title}
        data-testid="import-job"
        data-state="running"
        data-step={job.step}
      >
        <p className="flex items-center gap-2 font-medium">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          {title}
        </p>
        {/* Without a total the bar has no value: the browser shows it as busy. */}
        <progress
          className="h-2 w-full accent-primary"
          aria-label={text}
          {...(total > 0 ? { value: done, max: total } : {})}
        />
        <p role="status" aria-live="polite" className="text-xs text-muted-foreground">
          {text}
        </p>
        <p className="text-xs text-muted-foreground">{t("import.in_background")}</p>
      </section>
    );
  }

  const counts = job.counts.length > 0 && (
    <ul className="list-disc space-y-0.5 pl-5" data-testid="import-counts">
      {job.counts.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
  const examples = job.examples && (
    <p className="flex items-start gap-2 text-muted-foreground" data-testid="import-examples">
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {job.examples}
    </p>
  );

  if (job.step === "done") {
    return (
      <section
        className="space-y-2 rounded-md border border-success/40 bg-success/10 px-4 py-3 text-sm"
        aria-label={title}
        data-testid="import-job"
        data-state="succeeded"
        data-step="done"
      >
        <p role="status" className="flex items-center gap-2 font-medium">
          <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
          {job.notice}
        </p>
        {counts}
        {examples}
        <Button variant="outline" onClick={dismiss}>
          {t("import.close")}
        </Button>
      </section>
    );
  }

  if (job.step === "preview") {
    return (
      <section
        className="space-y-3 rounded-md border bg-card px-4 py-3 text-sm"
        aria-label={title}
        data-testid="import-job"
        data-state={job.state}
        data-step="preview"
      >
        <p className="flex items-center gap-2 font-medium">
          <FileSearch className="size-4" aria-hidden="true" />
          {title}
        </p>
        {job.notice && (
          <p role="status" className="rounded-md border bg-muted px-3 py-2">
            {job.notice}
          </p>
        )}
        {job.canConfirm && <p>{t("import.preview_intro")}</p>}
        {counts}
        {examples}
        {job.changes.length > 0 && (
          <details className="rounded-md border px-3 py-2">
            <summary id={changesId} className="cursor-pointer font-medium">
              {t("import.see_changes", { count: job.changeCount })}
            </summary>
            <ScrollRegion aria-labelledby={changesId} className="mt-2 max-h-64">
              <ul className="space-y-1" data-testid="import-changes">
                {job.changes.map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            </ScrollRegion>
          </details>
        )}
        {confirmError && (
          <p role="alert" className="text-destructive">
            {confirmError}
          </p>
        )}
        {job.canConfirm && (
          <p className="text-xs text-muted-foreground">{t("import.kept_for", { minutes: KEPT_MINUTES })}</p>
        )}
        <div className="flex flex-wrap gap-2">
          {job.canConfirm ? (
            <>
              <Button onClick={confirm} disabled={sending}>
                {t("import.confirm")}
              </Button>
              <Button variant="outline" onClick={dismiss} disabled={sending}>
                {t("import.discard")}
              </Button>
            </>
          ) : (
            <>
              <Button variant="outline" onClick={onImportAgain}>
                {t("import.again")}
              </Button>
              <Button variant="ghost" onClick={dismiss}>
                {t("import.close")}
              </Button>
            </>
          )}
        </div>
      </section>
    );
  }

  const problems = Object.entries(job.problems);
  return (
    <section
      role="alert"
      className="space-y-2 rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm"
      aria-label={title}
      data-testid="import-job"
      data-state="failed"
      data-step={job.step}
    >
      <p id={problemsId} className="flex items-center gap-2 font-medium text-destructive">
        <AlertTriangle className="size-4" aria-hidden="true" />
        {job.notice}
      </p>
      {problems.length > 0 && (
        <ScrollRegion aria-labelledby={problemsId} className="max-h-64">
          <ul className="list-disc space-y-0.5 pl-5 text-destructive" data-testid="import-errors">
            {problems.map(([key, value]) => (
              <li key={key}>{value}</li>
            ))}
          </ul>
        </ScrollRegion>
      )}
      {examples}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={onImportAgain}>
          {t("import.again")}
        </Button>
        <Button variant="ghost" onClick={dismiss}>
          {t("import.close")}
        </Button>
      </div>
    </section>
  );
}
