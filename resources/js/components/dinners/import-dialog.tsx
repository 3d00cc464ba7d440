/**
 * The Excel dialog of the Dinners page: importing the list of workers a client company sends (.xlsx, .xls, .ods or
 * .csv). The person chooses the file and the cafe of rows without one (the page's cafe preselected) and uploads it;
 * a background job reads and checks it (src/domain/jobs/diners-import.ts) while the dialog shows its steps with a
 * progress bar, heard live on the person's private channel (`JobUpdated`) and asked for again every few seconds in
 * case a message was missed. Then the preview: what would be created, updated or left unchanged, the rows with
 * problems, the columns ignored, the blacklisted documents, the leavers (with the choice to deactivate them) and the
 * first changes. Nothing is saved until the person confirms; then the dialog shows what was written.
 *
 * The person may close the dialog at any time and keep selling: the import goes on, a line beside the button says
 * how it is going, and reopening the dialog shows the latest import until they close it for good. A file refused
 * as a whole shows its message on the file field.
 */
import { router, useForm, usePage } from "@inertiajs/react";
import {
  AlertTriangle,
  CheckCircle2,
  FileSearch,
  FileSpreadsheet,
  Info,
  Loader2,
  Upload,
  UserMinus,
} from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { DinerImportProp, DinerImportView } from "../../../../src/shared/sales/types";
import type { RealtimeEvents } from "../../../../src/shared/realtime-events";
import { userChannel } from "../../../../src/shared/realtime-events";
import { useI18n } from "../../hooks/use-i18n";
import { useRealtime } from "../../hooks/use-realtime";
import { useRoute } from "../../hooks/use-route";
import { listenFor } from "../../lib/realtime";
import { cn } from "../../lib/utils";
import type { SharedProps } from "../../types";
import { Button, buttonClasses } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { ScrollRegion } from "../ui/scroll-region";
import { Select } from "../ui/select";
import type { CafeChoice } from "./types";
import type { DocumentType } from "../../../../src/shared/documents";
import { progressText } from "../food/workbook-import";

export type { DinerImportProp, DinerImportView };

type Update = RealtimeEvents["JobUpdated"];

/** The job kind (src/domain/jobs/diners-import.ts, DINERS_IMPORT). */
const KIND = "diners.import";
/** How often the page asks for the job again while it runs, in case a realtime message was missed. */
const POLL_MS = 3000;
const MIB = 1024 * 1024;
/** What the file picker offers: the spreadsheet kinds the intake reads. */
const ACCEPT = [
  ".xlsx",
  ".xls",
  ".ods",
  ".csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel",
  "application/vnd.oasis.opendocument.spreadsheet",
  "text/csv",
].join(",");
/** The Select's value for "no default cafe". */
const NO_CAFE = "";

const running = (job: DinerImportView | null) => job !== null && (job.state === "queued" || job.state === "running");

/**
 * The person's latest import as it moves on: the job the page was given, with the progress heard live since.
 * A finished job (or another one starting, from another tab) reloads the page's `dinerImport`, worded by the server.
 */
function useLiveImport(job: DinerImportView | null): DinerImportView | null {
  const realtime = useRealtime();
  const userId = usePage<SharedProps>().props.auth.user?.id ?? null;
  const [live, setLive] = useState<Update | null>(null);
  const jobId = job?.id ?? null;
  const busy = running(job);

  useEffect(() => {
    if (userId === null) return;
    const channel = realtime().private(userChannel(userId));
    const heard = (update: Update) => {
      if (update.kind !== KIND) return;
      if (update.id !== jobId || update.state === "succeeded" || update.state === "failed")
        router.reload({ only: ["dinerImport"] });
      else setLive(update);
    };
    listenFor(channel, "JobUpdated", heard);
    return () => {
      channel.stopListening("JobUpdated", heard);
    };
  }, [realtime, userId, jobId]);

  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => router.reload({ only: ["dinerImport"] }), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, jobId]);

  if (!job || !busy || !live || live.id !== job.id) return job;
  return { ...job, state: live.state, progress: live.progress };
}

/** The button that opens the dialog, a line saying how the latest import is going, and the dialog. */
export function DinerImport({
  state,
  cafes,
  cafeId,
}: {
  state: DinerImportProp;
  /** The person's cafes (the page's list). */
  cafes: CafeChoice[];
  /** The page's cafe: preselected as the cafe of rows without one. */
  cafeId: number;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const job = useLiveImport(state.job);
  const statusId = useId();
  return (
    <>
      {job && !open && (
        <p
          id={statusId}
          role="status"
          className="max-w-64 truncate text-xs text-muted-foreground"
          data-testid="diner-import-status"
        >
          {statusLine(job, t)}
        </p>
      )}
      <Button
        variant="outline"
        onClick={() => setOpen(true)}
        aria-describedby={job && !open ? statusId : undefined}
        data-testid="diner-import-open"
      >
        <FileSpreadsheet className="size-4" aria-hidden="true" />
        {t("dinners.import.open")}
      </Button>
      {open && (
        <ImportDialog
          job={job}
          maxBytes={state.maxBytes}
          cafes={cafes}
          cafeId={cafeId}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

type T = ReturnType<typeof useI18n>["t"];

function statusLine(job: DinerImportView, t: T): string {
  const file = job.fileName;
  switch (job.step) {
    case "checking":
    case "saving":
      return t("dinners.import.status.running", { progress: progressText(t, job.state, job.progress) });
    default:
      return t(`dinners.import.status.${job.step}`, { file });
  }
}

function ImportDialog({
  job,
  maxBytes,
  cafes,
  cafeId,
  onClose,
}: {
  job: DinerImportView | null;
  maxBytes: number;
  cafes: CafeChoice[];
  cafeId: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  // The form when there is no import to show, or the person asked to import another file; else the import.
  const [choosing, setChoosing] = useState(job === null);
  const showForm = choosing || job === null || job.step === "refused";
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("dinners.import.title")}
      description={showForm ? t("dinners.import.description") : undefined}
      closeLabel={t("dinners.close")}
      wide
    >
      {showForm ? (
        <UploadForm
          refused={!choosing && job?.step === "refused" ? job : null}
          maxBytes={maxBytes}
          cafes={cafes}
          cafeId={cafeId}
          onUploaded={() => setChoosing(false)}
          onCancel={onClose}
        />
      ) : (
        <JobView key={job!.id} job={job!} onAgain={() => setChoosing(true)} onClose={onClose} />
      )}
    </Dialog>
  );
}

function UploadForm({
  refused,
  maxBytes,
  cafes,
  cafeId,
  onUploaded,
  onCancel,
}: {
  /** The latest import, when its file was refused as a whole: its message goes on the file field. */
  refused: DinerImportView | null;
  maxBytes: number;
  cafes: CafeChoice[];
  cafeId: number;
  onUploaded: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const fileId = useId();
  const cafeField = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const maxMib = Math.round(maxBytes / MIB);
  const form = useForm<{ file: File | null; cafe_id: string; deactivate_leavers: boolean }>({
    file: null,
    cafe_id: cafes.some((c) => c.id === cafeId) ? String(cafeId) : NO_CAFE,
    deactivate_leavers: false,
  });
  const errors = form.errors as Record<string, string | undefined>;
  const fileError = errors.file ?? errors.form ?? (form.data.file ? undefined : (refused?.notice ?? undefined));
  const cafeError = errors.cafe_id;
  // A refused file replaces the progress the focus was on: the file field takes it, with its message.
  const refusedId = refused?.id ?? null;
  useEffect(() => {
    if (refusedId !== null) fileInput.current?.focus();
  }, [refusedId]);

  const cancel = () => {
    // A refused file has nothing more to show: cancelling closes it too.
    if (refused) router.post(route("diners.import.dismiss", { job: refused.id }), {}, dinerImportVisit);
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("diners.import.store"), {
      ...dinerImportVisit,
      forceFormData: true,
      onSuccess: (page) => {
        if (Object.keys((page.props.errors ?? {}) as object).length > 0) return;
        // The file is the job's now. A job that refused it before this answer came keeps this form on screen, and
        // its message shows only on a form holding no file of its own.
        form.setData("file", null);
        onUploaded();
      },
    });
  };
  const percent = form.progress?.percentage ?? 0;

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="space-y-1.5">
        <label id={`${fileId}-label`} htmlFor={fileId} className="text-sm font-medium">
          {t("dinners.import.file_label", { max: maxMib })}
        </label>
        {/* The native picker speaks the browser's language; this one speaks the page's. */}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <input
            ref={fileInput}
            id={fileId}
            name="file"
            type="file"
            required
            accept={ACCEPT}
            className="peer sr-only"
            aria-labelledby={`${fileId}-label ${fileId}-button`}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? `${fileId}-error` : `${fileId}-chosen`}
            onChange={(e) => {
              const file = e.target.files?.[0] ?? null;
              form.clearErrors("file");
              // The server refuses larger files too; saying so here spares the upload.
              if (file && file.size > maxBytes) {
                form.setError("file", t("dinners.import.file_too_large", { max: maxMib }));
                form.setData("file", null);
              } else form.setData("file", file);
            }}
          />
          <label
            id={`${fileId}-button`}
            htmlFor={fileId}
            className={buttonClasses(
              "outline",
              "cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring",
            )}
          >
            <FileSpreadsheet className="size-4" aria-hidden="true" />
            {t("dinners.import.choose_file")}
          </label>
          <span
            id={`${fileId}-chosen`}
            className="min-w-0 max-w-full truncate text-sm text-muted-foreground"
            data-testid="diner-import-chosen"
          >
            {form.data.file?.name ?? refused?.fileName ?? t("dinners.import.no_file")}
          </span>
        </div>
        {fileError && (
          <p
            id={`${fileId}-error`}
            role="alert"
            className="text-sm text-destructive"
            data-testid="diner-import-file-error"
          >
            {fileError}
          </p>
        )}
      </div>

      <div className="space-y-1.5">
        <label htmlFor={cafeField} className="text-sm font-medium">
          {t("dinners.import.default_cafe")}
        </label>
        <Select
          id={cafeField}
          value={form.data.cafe_id}
          onValueChange={(value) => form.setData("cafe_id", value)}
          options={[
            ...cafes.map((c) => ({ value: String(c.id), label: c.path })),
            { value: NO_CAFE, label: t("dinners.import.no_default_cafe") },
          ]}
          aria-invalid={cafeError ? true : undefined}
          aria-describedby={cafeError ? `${cafeField}-error` : `${cafeField}-hint`}
        />
        {cafeError ? (
          <p id={`${cafeField}-error`} className="text-sm text-destructive">
            {cafeError}
          </p>
        ) : (
          <p id={`${cafeField}-hint`} className="text-xs text-muted-foreground">
            {t("dinners.import.default_cafe_hint")}
          </p>
        )}
      </div>

      {form.progress && (
        <div className="space-y-1">
          <progress
            className="h-2 w-full accent-primary"
            value={percent}
            max={100}
            aria-label={t("dinners.import.uploading", { percent })}
          />
          <p className="text-xs text-muted-foreground" role="status">
            {t("dinners.import.uploading", { percent })}
          </p>
        </div>
      )}
      <DialogActions
        onCancel={cancel}
        cancelLabel={t("dinners.import.cancel")}
        submitLabel={t("dinners.import.submit")}
        busy={form.processing || !form.data.file}
      />
    </form>
  );
}

/** Visits of the dialog: only its own prop comes back, the point of sale stays as it is. */
const dinerImportVisit = { preserveScroll: true, preserveState: true, only: ["dinerImport"] };

function JobView({ job, onAgain, onClose }: { job: DinerImportView; onAgain: () => void; onClose: () => void }) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  // Each new step is announced by moving the focus to its heading (the content it replaces is gone).
  useEffect(() => {
    heading.current?.focus();
  }, [job.id, job.step]);
  const title =
    job.step === "preview" || job.step === "problems"
      ? t("dinners.import.preview_title", { file: job.fileName })
      : t("dinners.import.job_title", { file: job.fileName });
  const head = (icon: ReactNode, className?: string) => (
    <h3
      ref={heading}
      tabIndex={-1}
      className={cn("flex items-center gap-2 text-sm font-semibold focus:outline-none", className)}
    >
      {icon}
      <span className="min-w-0 break-words">{title}</span>
    </h3>
  );

  if (job.step === "checking" || job.step === "saving")
    return <Progress job={job} head={head(<Loader2 className="size-4 animate-spin" aria-hidden="true" />)} />;
  if (job.step === "preview")
    return (
      <Preview
        job={job}
        head={head(<FileSearch className="size-4" aria-hidden="true" />)}
        onAgain={onAgain}
        onClose={onClose}
      />
    );
  if (job.step === "done")
    return (
      <Done
        job={job}
        head={head(<CheckCircle2 className="size-4 text-success" aria-hidden="true" />)}
        onAgain={onAgain}
        onClose={onClose}
      />
    );
  return (
    <Problems
      job={job}
      head={head(<AlertTriangle className="size-4" aria-hidden="true" />, "text-destructive")}
      onAgain={onAgain}
      onClose={onClose}
    />
  );
}

function Progress({ job, head }: { job: DinerImportView; head: ReactNode }) {
  const { t } = useI18n();
  const text = progressText(t, job.state, job.progress);
  const { done, total } = job.progress;
  return (
    <section className="space-y-3 text-sm" data-testid="diner-import" data-step={job.step} data-state={job.state}>
      {head}
      {/* Without a total the bar has no value: the browser shows it as busy. */}
      <progress
        className="h-2 w-full accent-primary"
        aria-label={text}
        data-testid="diner-import-progress"
        {...(total > 0 ? { value: done, max: total } : {})}
      />
      <p role="status" aria-live="polite" className="text-xs text-muted-foreground">
        {text}
      </p>
      <p className="text-xs text-muted-foreground">{t("dinners.import.in_background")}</p>
    </section>
  );
}

/** The counts, one line each (the ones at zero left out, but for "unchanged" when nothing else is said). */
function Counts({ counts }: { counts: NonNullable<DinerImportView["counts"]> }) {
  const { t } = useI18n();
  const lines = (["created", "updated", "unchanged", "deactivated"] as const).filter(
    (key) => counts[key] > 0 || (key === "unchanged" && counts.created + counts.updated + counts.deactivated === 0),
  );
  return (
    <ul className="list-disc space-y-0.5 pl-5" data-testid="diner-import-counts">
      {lines.map((key) => (
        <li key={key}>{t(`dinners.import.count.${key}`, { count: counts[key] })}</li>
      ))}
    </ul>
  );
}

/** Which sheet was read (the first visible one: a hidden sheet before it is passed over) and where its header is. */
function SheetRead({ job }: { job: DinerImportView }) {
  const { t } = useI18n();
  if (job.sheet === null) return null;
  return (
    <p className="flex items-start gap-2 text-muted-foreground" data-testid="diner-import-sheet">
      <FileSpreadsheet className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {job.headerRow === null
        ? t("dinners.import.sheet_read", { sheet: job.sheet })
        : t("dinners.import.sheet_read_header", { sheet: job.sheet, row: job.headerRow })}
    </p>
  );
}

function UnknownColumns({ columns }: { columns: string[] }) {
  const { t } = useI18n();
  if (columns.length === 0) return null;
  return (
    <p className="flex items-start gap-2 text-muted-foreground" data-testid="diner-import-unknown-columns">
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {t("dinners.import.unknown_columns", {
        count: columns.length,
        columns: columns.map((c) => `«${c}»`).join(", "),
      })}
    </p>
  );
}

/** A list that scrolls within the dialog when long, named by its heading. */
function ListSection({
  title,
  hint,
  more,
  tone = "default",
  testId,
  children,
}: {
  title: string;
  hint?: string;
  more?: string | null;
  tone?: "default" | "warning" | "danger";
  testId: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    // Not a landmark of its own: its list scrolls in a region named by the same heading.
    <div
      className={cn(
        "space-y-2 rounded-md border px-3 py-2",
        tone === "warning" && "border-amber-500/40 bg-amber-500/10",
        tone === "danger" && "border-destructive/40 bg-destructive/10",
      )}
      data-testid={testId}
    >
      <h4 id={titleId} className={cn("font-medium", tone === "danger" && "text-destructive")}>
        {title}
      </h4>
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      <ScrollRegion aria-labelledby={titleId} className="max-h-48">
        <ul className="space-y-1">{children}</ul>
      </ScrollRegion>
      {more && <p className="text-xs text-muted-foreground">{more}</p>}
    </div>
  );
}

const documentOf = (type: DocumentType, number: string, t: T) => `${t(`documents.${type}`)} ${number}`;

function Preview({
  job,
  head,
  onAgain,
  onClose,
}: {
  job: DinerImportView;
  head: ReactNode;
  onAgain: () => void;
  onClose: () => void;
}) {
  const { t, dateTime } = useI18n();
  const route = useRoute();
  const confirmError = usePage<SharedProps>().props.errors?.confirm;
  const [deactivate, setDeactivate] = useState(job.deactivateLeavers && job.canDeactivate);
  const [sending, setSending] = useState(false);
  const changesId = useId();
  const counts = job.counts ?? { created: 0, updated: 0, unchanged: 0, deactivated: 0 };
  const shown = { ...counts, deactivated: deactivate ? job.leaverCount : 0 };

  const confirm = () =>
    router.post(
      route("diners.import.confirm", { job: job.id }),
      { deactivate_leavers: deactivate },
      { ...dinerImportVisit, onStart: () => setSending(true), onFinish: () => setSending(false) },
    );
  const discard = () =>
    router.post(route("diners.import.dismiss", { job: job.id }), {}, { ...dinerImportVisit, onSuccess: onClose });

  return (
    <section className="space-y-3 text-sm" data-testid="diner-import" data-step="preview" data-state={job.state}>
      {head}
      {job.notice && (
        <p role="status" className="rounded-md border bg-muted px-3 py-2" data-testid="diner-import-notice">
          {job.notice}
        </p>
      )}
      {job.canConfirm && <p>{t("dinners.import.preview_intro")}</p>}
      <Counts counts={shown} />
      <p className="text-xs text-muted-foreground">{t("dinners.import.rows_read", { count: job.rows })}</p>
      <SheetRead job={job} />
      <UnknownColumns columns={job.unknownColumns} />

      {job.blacklisted.length > 0 && (
        <ListSection
          title={t("dinners.import.blacklisted_title", { count: job.blacklisted.length })}
          hint={t("dinners.import.blacklisted_hint")}
          tone="warning"
          testId="diner-import-blacklisted"
        >
          {job.blacklisted.map((b) => (
            <li key={`${b.row}-${b.documentNumber}`}>
              {t("dinners.import.blacklisted_item", {
                row: b.row,
                name: b.name,
                document: documentOf(b.documentType, b.documentNumber, t),
                reason: b.reason,
              })}
            </li>
          ))}
        </ListSection>
      )}

      {job.leaverCount > 0 && (
        <ListSection
          title={t("dinners.import.leavers_title", { count: job.leaverCount })}
          hint={t("dinners.import.leavers_hint")}
          more={
            job.leaverCount > job.leavers.length
              ? t("dinners.import.more_leavers", { count: job.leaverCount - job.leavers.length })
              : null
          }
          testId="diner-import-leavers"
        >
          {job.leavers.map((l) => (
            <li key={l.id} className="flex items-start gap-2">
              <UserMinus className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              {t("dinners.import.leaver_item", {
                name: l.name,
                document: documentOf(l.documentType, l.documentNumber, t),
                cafe: l.cafe,
                subdealership: l.subdealership,
              })}
            </li>
          ))}
        </ListSection>
      )}
      {job.canConfirm && job.canDeactivate && (
        <div className="space-y-0.5">
          <label className="flex items-center gap-2 font-medium">
            <input
              type="checkbox"
              name="deactivate_leavers"
              checked={deactivate}
              onChange={(e) => setDeactivate(e.target.checked)}
              className="size-4 accent-primary"
            />
            {t("dinners.import.deactivate_leavers", { count: job.leaverCount })}
          </label>
          <p className="pl-6 text-xs text-muted-foreground">{t("dinners.import.deactivate_hint")}</p>
        </div>
      )}

      {job.changes.length > 0 && (
        <details className="rounded-md border px-3 py-2">
          <summary id={changesId} className="cursor-pointer font-medium">
            {t("dinners.import.changes_title")}
          </summary>
          <ScrollRegion aria-labelledby={changesId} className="mt-2 max-h-48">
            <ul className="space-y-1" data-testid="diner-import-changes">
              {job.changes.map((c) => (
                <li key={`${c.row}-${c.documentNumber}`}>
                  {c.kind === "create"
                    ? t("dinners.import.change_create", { name: c.name, document: c.documentNumber })
                    : t("dinners.import.change_update", {
                        name: c.name,
                        document: c.documentNumber,
                        fields: c.fields.map((f) => t(`dinners.import.field.${f}`)).join(", "),
                      })}
                </li>
              ))}
            </ul>
          </ScrollRegion>
          {job.changeCount > job.changes.length && (
            <p className="mt-1 text-xs text-muted-foreground">
              {t("dinners.import.more_changes", { count: job.changeCount - job.changes.length })}
            </p>
          )}
        </details>
      )}

      {confirmError && (
        <p role="alert" className="text-destructive">
          {confirmError}
        </p>
      )}
      {job.canConfirm && job.expiresAt && (
        <p className="text-xs text-muted-foreground">
          {t("dinners.import.kept_until", { time: dateTime(job.expiresAt) })}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        {job.canConfirm ? (
          <>
            <Button variant="outline" onClick={discard} disabled={sending}>
              {t("dinners.import.discard")}
            </Button>
            <Button onClick={confirm} disabled={sending}>
              <Upload className="size-4" aria-hidden="true" />
              {t("dinners.import.confirm")}
            </Button>
          </>
        ) : (
          <>
            <Button variant="outline" onClick={discard}>
              {t("dinners.import.discard")}
            </Button>
            <Button variant="outline" onClick={onAgain}>
              {t("dinners.import.again")}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}

function Problems({
  job,
  head,
  onAgain,
  onClose,
}: {
  job: DinerImportView;
  head: ReactNode;
  onAgain: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const discard = () =>
    router.post(route("diners.import.dismiss", { job: job.id }), {}, { ...dinerImportVisit, onSuccess: onClose });
  const where = (row: number, column: string | null) =>
    column ? t("dinners.import.row_column", { row, column }) : t("dinners.import.row", { row });
  return (
    <section className="space-y-3 text-sm" data-testid="diner-import" data-step={job.step} data-state={job.state}>
      {head}
      {job.notice && (
        <p role="alert" className="text-destructive" data-testid="diner-import-notice">
          {job.notice}
        </p>
      )}
      {job.problemCount > 0 && (
        <ListSection
          title={t("dinners.import.problems_title", { count: job.problemCount })}
          tone="danger"
          more={
            job.problemCount > job.problems.length
              ? t("dinners.import.more_problems", { count: job.problemCount - job.problems.length })
              : null
          }
          testId="diner-import-problems"
        >
          {job.problems.map((p, i) => (
            <li key={i}>
              <span className="font-medium">{where(p.row, p.column)}:</span> {p.message}
            </li>
          ))}
        </ListSection>
      )}
      <SheetRead job={job} />
      <UnknownColumns columns={job.unknownColumns} />
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={discard}>
          {t("dinners.import.discard")}
        </Button>
        <Button onClick={onAgain}>{t("dinners.import.again")}</Button>
      </div>
    </section>
  );
}

function Done({
  job,
  head,
  onAgain,
  onClose,
}: {
  job: DinerImportView;
  head: ReactNode;
  onAgain: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const finish = () =>
    router.post(route("diners.import.dismiss", { job: job.id }), {}, { ...dinerImportVisit, onSuccess: onClose });
  return (
    <section className="space-y-3 text-sm" data-testid="diner-import" data-step="done" data-state={job.state}>
      {head}
      <p
        role="status"
        className="rounded-md border border-success/40 bg-success/10 px-3 py-2 font-medium"
        data-testid="diner-import-notice"
      >
        {job.notice}
      </p>
      {job.counts && <Counts counts={job.counts} />}
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onAgain}>
          {t("dinners.import.again")}
        </Button>
        <Button onClick={finish}>{t("dinners.import.finish")}</Button>
      </div>
    </section>
  );
}
