/**
 * The person's latest places import on the Management page (the `importJob` prop). While it runs it shows the
 * step and how far it got, heard live on their private channel (`JobUpdated`) and asked again every few seconds in
 * case a message was missed; then the counts of what it did, or the rows to fix (nothing was saved then). The
 * result stays, also when they leave the page and come back, until they close it.
 */
import { router, usePage } from "@inertiajs/react";
import { CheckCircle2, AlertTriangle, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import type { RealtimeEvents } from "../../../../src/realtime/events";
import { userChannel } from "../../../../src/realtime/events";
import { useI18n } from "../../hooks/use-i18n";
import { useRealtime } from "../../hooks/use-realtime";
import { useRoute } from "../../hooks/use-route";
import { listenFor } from "../../lib/realtime";
import type { SharedProps } from "../../types";
import { Button } from "../ui/button";

/** A places import as the server words it (src/http/routes/places-import.ts, `importJobView`). */
export interface ImportJob {
  id: number;
  state: "queued" | "running" | "succeeded" | "failed";
  fileName: string;
  progress: { done: number; total: number; label: string };
  summary: string | null;
  error: string | null;
  problems: Record<string, string>;
}

type Update = RealtimeEvents["JobUpdated"];

/** How often the page asks for the job again while it runs, in case a realtime message was missed. */
const POLL_MS = 3000;

export function ImportJobPanel({ job, onImportAgain }: { job: ImportJob; onImportAgain: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const realtime = useRealtime();
  const userId = usePage<SharedProps>().props.auth.user?.id ?? null;
  const [live, setLive] = useState<Update | null>(null);
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
  const title = t("import.job_title", { file: job.fileName });

  if (running) {
    const current = live && live.id === job.id && live.state === "running" ? live : job;
    const { done, total, label } = current.progress;
    const text =
      current.state === "queued" || label === ""
        ? t("jobs.queued")
        : total > 0
          ? t("jobs.progress_count", { label: t(label), done, total })
          : `${t(label)}…`;
    return (
      <section
        className="space-y-2 rounded-md border bg-card px-4 py-3 text-sm"
        aria-label={title}
        data-testid="import-job"
        data-state="running"
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

  if (job.state === "succeeded") {
    return (
      <section
        className="flex flex-wrap items-center gap-3 rounded-md border border-success/40 bg-success/10 px-4 py-3 text-sm"
        aria-label={title}
        data-testid="import-job"
        data-state="succeeded"
      >
        <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
        <p role="status" className="min-w-0 flex-1">
          {job.summary}
        </p>
        <Button variant="outline" onClick={dismiss}>
          {t("import.close")}
        </Button>
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
    >
      <p className="flex items-center gap-2 font-medium text-destructive">
        <AlertTriangle className="size-4" aria-hidden="true" />
        {problems.length > 0 ? t("import.errors_title") : job.error}
      </p>
      {problems.length > 0 && (
        <ul
          className="max-h-64 list-disc space-y-0.5 overflow-y-auto pl-5 text-destructive"
          data-testid="import-errors"
        >
          {problems.map(([key, value]) => (
            <li key={key}>{value}</li>
          ))}
        </ul>
      )}
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
