/**
 * Loading dishes and their recipes from a workbook, shown before it is written. The person chooses the file and
 * checks it: a background job on the server (src/domain/jobs/dishes-import.ts) reads it and checks every row while
 * the dialog shows its step and how far it got, heard live on the person's private channel (`JobUpdated`) and asked
 * for again every few seconds in case a message was missed. Then: which dishes it would create, change or leave alone
 * and which recipes it would create or replace — or every row to fix, by row and column — and "Write N changes",
 * which starts the job that writes exactly that, all or nothing (its progress shown the same way). If the dishes
 * changed meanwhile, the new preview is shown instead. The dialog may be closed at any time: the job goes on, and
 * opening it again shows the latest import (src/http/routes/food-import.ts, `food.dishes.import.show`) until the
 * person checks another file. The Food page opens it (`<DishImportDialog onClose={…} />`, like the ingredients'
 * ImportDialog, whose pieces it shares: workbook-import.tsx).
 */
import { useForm, usePage } from "@inertiajs/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { userChannel, type RealtimeEvents } from "../../../../src/shared/realtime-events";
import type { KeysUnder, TranslationKey, TranslationParams } from "../../../../src/shared/i18n";
import { useI18n } from "../../hooks/use-i18n";
import { useRealtime } from "../../hooks/use-realtime";
import { useRoute } from "../../hooks/use-route";
import { requestJson } from "../../lib/json-client";
import { listenFor } from "../../lib/realtime";
import type { SharedProps } from "../../types";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { ConfirmActions, JobProgress, TemplateLink, WorkbookFileField, WorkbookResult } from "./workbook-import";

/** A dishes import as the server words it (src/http/routes/food-import.ts, DishImportJobView). */
export interface DishImportJob {
  id: number;
  state: "queued" | "running" | "succeeded" | "failed";
  step: "checking" | "preview" | "problems" | "saving" | "done" | "failed";
  fileName: string;
  progress: { done: number; total: number; label: TranslationKey | "" };
  rows: number;
  counts: {
    dishesCreated: number;
    dishesUpdated: number;
    dishesUnchanged: number;
    recipesCreated: number;
    recipesReplaced: number;
    recipesUnchanged: number;
  } | null;
  problems: string[];
  moreProblems: number;
  changed: boolean;
  notice: string | null;
  canConfirm: boolean;
  expiresAt: string | null;
}

/** The job kind (src/domain/jobs/dishes-import.ts, DISHES_IMPORT). */
const KIND = "food.dishes.import";
/** How often the dialog asks for the job again while it runs, in case a realtime message was missed. */
const POLL_MS = 3000;

const isRunning = (job: DishImportJob | null) => job !== null && (job.state === "queued" || job.state === "running");

/** The person's latest dishes import: asked for when the dialog opens, then followed live while it runs. */
function useDishImportJob() {
  const route = useRoute();
  const realtime = useRealtime();
  const page = usePage<SharedProps>();
  const userId = page.props.auth.user?.id ?? null;
  const [job, setJob] = useState<DishImportJob | null>(null);
  const [loaded, setLoaded] = useState(false);
  const refresh = async () => {
    const { status, body } = await requestJson<{ job: DishImportJob | null }>("GET", route("food.dishes.import.show"));
    if (status === 200 && body) setJob(body.job);
    setLoaded(true);
  };
  // The latest refresh, for the effects below (they run again only when the job they follow changes).
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => void latest.current(), []);
  // The job an upload started comes back in the flash.
  const started = (page.flash as Record<string, unknown> | undefined)?.dishesImport as DishImportJob | undefined;
  useEffect(() => {
    if (started) setJob(started);
  }, [started]);

  const running = isRunning(job);
  const jobId = job?.id ?? null;
  useEffect(() => {
    if (!running || jobId === null) return;
    const timer = setInterval(() => void latest.current(), POLL_MS);
    if (userId === null) return () => clearInterval(timer);
    const channel = realtime().private(userChannel(userId));
    const heard = (update: RealtimeEvents["JobUpdated"]) => {
      if (update.kind !== KIND || update.id !== jobId) return;
      // A finished job's result is worded by the server, in the page's language.
      if (update.state === "succeeded" || update.state === "failed") void latest.current();
      else
        setJob((current) =>
          current?.id === jobId ? { ...current, state: update.state, progress: update.progress } : current,
        );
    };
    listenFor(channel, "JobUpdated", heard);
    return () => {
      clearInterval(timer);
      channel.stopListening("JobUpdated", heard);
    };
  }, [realtime, running, jobId, userId]);
  return { job, setJob, loaded };
}

export function DishImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const w = (key: KeysUnder<"foodImportDishes">, params?: TranslationParams) => t(`foodImportDishes.${key}`, params);
  const route = useRoute();
  const { job, setJob, loaded } = useDishImportJob();
  // The form when there is no import to show, or the person asked to check another file; else the import.
  const [choosing, setChoosing] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const form = useForm<{ file: File | null }>({ file: null });

  const showForm = loaded && (choosing || job === null || job.step === "failed");
  const check = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("food.dishes.import.preview"), {
      preserveScroll: true,
      preserveState: true,
      forceFormData: true,
      onSuccess: () => setChoosing(false),
    });
  };
  const confirm = async (id: number) => {
    setSending(true);
    setConfirmError(null);
    try {
      const answer = await requestJson<{ job?: DishImportJob; errors?: Record<string, string> }>(
        "POST",
        route("food.dishes.import.store"),
        { job: id },
      );
      if (answer.status === 202 && answer.body?.job) setJob(answer.body.job);
      else setConfirmError(answer.body?.errors?.confirm ?? w("confirm_unavailable"));
    } finally {
      setSending(false);
    }
  };
  const another = () => {
    if (job && !isRunning(job)) void requestJson("POST", route("jobs.dismiss", { job: job.id }), {});
    setConfirmError(null);
    form.reset();
    setChoosing(true);
  };
  const errors = form.errors as Record<string, string | undefined>;

  return (
    <Dialog open wide onClose={onClose} title={w("title")} description={w("description")} closeLabel={t("food.close")}>
      {showForm ? (
        <form onSubmit={check} className="space-y-4" noValidate>
          <WorkbookFileField
            id="dishes-file"
            label={w("file")}
            hint={w("file_hint")}
            // A file the job refused as a whole says so on the field, until another is chosen.
            error={errors.file ?? (!choosing && form.data.file === null ? (job?.notice ?? undefined) : undefined)}
            onChoose={(file) => form.setData("file", file)}
          />
          <TemplateLink href={route("food.dishes.template")} label={w("template")} />
          <OtherErrors errors={errors} fields={["file"]} />
          <DialogActions
            onCancel={onClose}
            cancelLabel={t("food.cancel")}
            submitLabel={w("check")}
            busy={form.processing || form.data.file === null}
          />
        </form>
      ) : (
        job && (
          <JobView
            job={job}
            confirmError={confirmError}
            sending={sending}
            onConfirm={() => void confirm(job.id)}
            onAnother={another}
            onClose={onClose}
          />
        )
      )}
    </Dialog>
  );
}

function JobView({
  job,
  confirmError,
  sending,
  onConfirm,
  onAnother,
  onClose,
}: {
  job: DishImportJob;
  confirmError: string | null;
  sending: boolean;
  onConfirm: () => void;
  onAnother: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const w = (key: KeysUnder<"foodImportDishes">, params?: TranslationParams) => t(`foodImportDishes.${key}`, params);
  if (job.state === "queued" || job.state === "running")
    return (
      <div className="space-y-4">
        <JobProgress
          testId="dishes-import-job"
          title={w(job.step === "saving" ? "saving_title" : "checking_title", { file: job.fileName })}
          state={job.state}
          progress={job.progress}
          inBackground={w("in_background")}
        />
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            {t("food.close")}
          </Button>
        </div>
      </div>
    );

  const c = job.counts;
  const total = c ? c.dishesCreated + c.dishesUpdated + c.recipesCreated + c.recipesReplaced : 0;
  const counts = c
    ? [
        w("counts.rows", { count: job.rows }),
        w("counts.dishes_created", { count: c.dishesCreated }),
        w("counts.dishes_updated", { count: c.dishesUpdated }),
        w("counts.dishes_unchanged", { count: c.dishesUnchanged }),
        w("counts.recipes_created", { count: c.recipesCreated }),
        w("counts.recipes_replaced", { count: c.recipesReplaced }),
        w("counts.recipes_unchanged", { count: c.recipesUnchanged }),
      ]
    : [];
  return (
    <div className="space-y-4">
      <WorkbookResult
        testId="dishes-import-result"
        title={
          job.step === "done" ? w("done_title") : job.step === "problems" ? w("problems_title") : w("preview_title")
        }
        changed={job.changed ? w("changed") : null}
        nothingWritten={w("nothing_written")}
        problems={
          job.step === "problems"
            ? {
                title: w("problems_title"),
                lines: job.problems,
                more: job.moreProblems > 0 ? w("more_problems", { count: job.moreProblems }) : null,
              }
            : null
        }
        counts={counts}
      >
        {job.notice && (
          <p role="status" className="text-sm font-medium">
            {job.notice}
          </p>
        )}
      </WorkbookResult>
      {confirmError && (
        <p role="alert" className="text-sm text-destructive">
          {confirmError}
        </p>
      )}
      {job.step === "preview" && job.canConfirm ? (
        <ConfirmActions
          cancelLabel={t("food.cancel")}
          onCancel={onClose}
          confirmLabel={total === 0 ? w("nothing_to_import") : w("confirm", { count: total })}
          disabled={sending || total === 0}
          onConfirm={onConfirm}
        >
          <Button variant="outline" onClick={onAnother} disabled={sending}>
            {w("another_file")}
          </Button>
        </ConfirmActions>
      ) : (
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>
            {t("food.close")}
          </Button>
          <Button onClick={onAnother}>{w("another_file")}</Button>
        </div>
      )}
    </div>
  );
}
