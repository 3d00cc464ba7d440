/**
 * The Compras page's Excel button: starts the `menu.requirements` job for the cafe and range shown
 * (`menu.requirements.export`), follows its progress on the person's private channel (`JobUpdated`, asked for again
 * every few seconds in case a message was missed), and offers the workbook once it is ready. The person's latest
 * export comes with the page, so a workbook made earlier waits there until they generate another.
 */
import { usePage } from "@inertiajs/react";
import { AlertTriangle, Download, FileSpreadsheet, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { userChannel, type RealtimeEvents } from "../../../../src/shared/realtime-events";
import type { RequirementsJobView } from "../../../../src/shared/menu/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRealtime } from "../../hooks/use-realtime";
import { useRoute } from "../../hooks/use-route";
import { listenFor } from "../../lib/realtime";
import type { SharedProps } from "../../types";
import { requestJson } from "../dinners/http";
import { Button, buttonClasses } from "../ui/button";

const POLL_MS = 2000;

export function RequirementsExport({
  cafeId,
  from,
  to,
  initial,
  disabled,
}: {
  cafeId: number;
  from: string;
  to: string;
  initial: RequirementsJobView | null;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const realtime = useRealtime();
  const userId = usePage<SharedProps>().props.auth.user?.id ?? null;
  const [job, setJob] = useState<RequirementsJobView | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const running = job !== null && (job.state === "queued" || job.state === "running");
  // A job made for another cafe or range is not this page's workbook.
  const mine = job !== null && job.cafeId === cafeId && job.from === from && job.to === to;

  useEffect(() => setJob(initial), [initial?.id, initial?.state]);

  const refresh = async (id: number) => {
    const answer = await requestJson<{
      state: RequirementsJobView["state"];
      progress: RequirementsJobView["progress"];
    }>("GET", route("jobs.show", { job: id }));
    if (answer.status !== 200 || !answer.body) return;
    const body = answer.body;
    if (body.state === "succeeded" || body.state === "failed") {
      // The finished job in full (its download link, its result in words): the page's route answers it as JSON.
      const full = await requestJson<{ job: RequirementsJobView | null }>(
        "GET",
        route("menu.requirements", { cafe: cafeId, from, to, job: "1" }),
      );
      if (full.body?.job) setJob(full.body.job);
    } else setJob((current) => (current && current.id === id ? { ...current, ...body } : current));
  };

  useEffect(() => {
    if (!running || job === null) return;
    const id = job.id;
    const timer = setInterval(() => void refresh(id), POLL_MS);
    if (userId === null) return () => clearInterval(timer);
    const channel = realtime().private(userChannel(userId));
    const heard = (update: RealtimeEvents["JobUpdated"]) => {
      if (update.id !== id) return;
      if (update.state === "succeeded" || update.state === "failed") void refresh(id);
      else
        setJob((current) =>
          current && current.id === id
            ? {
                ...current,
                state: update.state,
                progress: { ...update.progress, text: update.progress.label && t(update.progress.label) },
              }
            : current,
        );
    };
    listenFor(channel, "JobUpdated", heard);
    return () => {
      clearInterval(timer);
      channel.stopListening("JobUpdated", heard);
    };
  }, [running, job?.id, userId]);

  const generate = async () => {
    setSending(true);
    setError(null);
    try {
      const answer = await requestJson<{ job?: RequirementsJobView; errors?: Record<string, string> }>(
        "POST",
        route("menu.requirements.export"),
        { cafe: cafeId, from, to },
      );
      if (answer.status === 202 && answer.body?.job) setJob(answer.body.job);
      else setError(Object.values(answer.body?.errors ?? {})[0] ?? t("menuRequirements.export.failed"));
    } catch {
      setError(t("menuRequirements.export.failed"));
    } finally {
      setSending(false);
    }
  };

  const progressText =
    job && running
      ? job.state === "queued"
        ? t("jobs.queued")
        : job.progress.total > 0
          ? t("jobs.progress_count", { label: job.progress.text, done: job.progress.done, total: job.progress.total })
          : `${job.progress.text}…`
      : "";
  const ready = mine && job!.state === "succeeded" && job!.downloadUrl !== null;
  const failed = mine && job!.state !== "succeeded" && !running ? job!.error : null;

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="requirements-export">
      {running ? (
        <span className="flex items-center gap-2 text-sm" data-testid="requirements-export-running">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          <span role="status" aria-live="polite">
            {progressText}
          </span>
          {job!.progress.total > 0 && (
            <progress className="h-2 w-24 accent-primary" value={job!.progress.done} max={job!.progress.total} />
          )}
        </span>
      ) : (
        <Button
          variant={ready ? "outline" : "primary"}
          onClick={() => void generate()}
          disabled={sending || disabled}
          data-testid="requirements-export-start"
        >
          {sending ? (
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          ) : (
            <FileSpreadsheet className="size-4" aria-hidden="true" />
          )}
          {ready ? t("menuRequirements.export.again") : t("menuRequirements.export.button")}
        </Button>
      )}
      {ready && (
        <a
          href={job!.downloadUrl!}
          download={job!.result?.fileName}
          className={buttonClasses("primary")}
          data-testid="requirements-export-download"
        >
          <Download className="size-4" aria-hidden="true" />
          {t("menuRequirements.export.download")}
        </a>
      )}
      {(error || failed) && (
        <p role="alert" className="flex items-center gap-1 text-sm text-destructive">
          <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
          {error ?? failed}
        </p>
      )}
    </div>
  );
}
