/**
 * The Compras page's Excel button: starts the `menu.requirements` job for the cafe and range shown
 * (`menu.requirements.export`), follows its progress on the person's private channel (`JobUpdated`, asked for again
 * every few seconds in case a message was missed), and offers the workbook once it is ready. The person's latest
 * export comes with the page, so a workbook made earlier waits there until they generate another.
 */
import { AlertTriangle, Download, FileSpreadsheet, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import type { RequirementsJobView } from "../../../../src/shared/menu/types";
import { useI18n } from "../../hooks/use-i18n";
import { isRunning, useFollowedJob } from "../../hooks/use-followed-job";
import { useRoute } from "../../hooks/use-route";
import { requestJson } from "../../lib/json-client";
import { Button, buttonClasses } from "../ui/button";

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
  const [job, setJob] = useState<RequirementsJobView | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const running = isRunning(job);
  // A job made for another cafe or range is not this page's workbook.
  const mine = job !== null && job.cafeId === cafeId && job.from === from && job.to === to;

  useEffect(() => setJob(initial), [initial?.id, initial?.state]);

  // The finished job in full (its download link, its result in words): the page's route answers it as JSON.
  useFollowedJob(job, setJob, async () => {
    const full = await requestJson<{ job: RequirementsJobView | null }>(
      "GET",
      route("menu.requirements", { cafe: cafeId, from, to, job: "1" }),
    );
    return full.body?.job;
  });

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
