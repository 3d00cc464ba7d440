/**
 * The pieces the two food workbook dialogs share (the ingredients' ImportDialog and the dishes' DishImportDialog):
 * the file field with its hint or error, the template link, the result (what the import would do or did, or the
 * rows to fix), the confirmation buttons, and a running job's progress.
 */
import { Download, Loader2 } from "lucide-react";
import type { ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import type { TranslationKey } from "../../../../src/shared/i18n";
import { buttonClasses } from "../ui/button";
import { ScrollRegion } from "../ui/scroll-region";

/** What the file pickers offer: the spreadsheet kinds the intake reads. */
export const WORKBOOK_ACCEPT = [
  ".xlsx",
  ".xls",
  ".ods",
  ".csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel",
  "application/vnd.oasis.opendocument.spreadsheet",
  "text/csv",
].join(",");

/** The file field: its label, the picker, and its hint — or the file's error in its place. */
export function WorkbookFileField({
  id,
  label,
  hint,
  error,
  onChoose,
}: {
  id: string;
  label: string;
  hint: string;
  error: string | undefined;
  onChoose: (file: File | null) => void;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="file"
        name="file"
        accept={WORKBOOK_ACCEPT}
        className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-card file:px-3 file:py-1.5"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
      <p id={`${id}-hint`} className={error ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
        {error ?? hint}
      </p>
    </div>
  );
}

/** The link to the template to fill in. */
export function TemplateLink({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} download className={buttonClasses("outline", undefined, "sm")}>
      <Download className="size-4" aria-hidden="true" />
      {label}
    </a>
  );
}

/**
 * What a checked file would do (its counts, one per line) or did, or its rows to fix (with a line saying nothing was
 * written); `changed` says the data changed since the check the person confirmed.
 */
export function WorkbookResult({
  testId,
  title,
  changed,
  problems,
  nothingWritten,
  counts,
  children,
}: {
  testId: string;
  title: string;
  /** The notice that the data changed since the check, when it did. */
  changed: string | null;
  /** The rows to fix, each worded, with a last line for the ones not listed; null when there are none. */
  problems: { title: string; lines: string[]; more: string | null } | null;
  nothingWritten: string;
  counts: string[];
  children?: ReactNode;
}) {
  return (
    <section className="space-y-2 rounded-lg border p-3" aria-live="polite" data-testid={testId}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {changed && <p className="text-sm text-destructive">{changed}</p>}
      {problems ? (
        <>
          <p className="text-sm">{nothingWritten}</p>
          <ScrollRegion aria-label={problems.title} className="max-h-56 border p-2">
            <ul className="list-disc space-y-1 pl-5 text-sm text-destructive">
              {problems.lines.map((problem, i) => (
                <li key={i}>{problem}</li>
              ))}
              {problems.more && <li>{problems.more}</li>}
            </ul>
          </ScrollRegion>
        </>
      ) : (
        <ul className="space-y-1 text-sm">
          {counts.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}

/** Cancel and the confirmation of a checked file ("Write 3 changes", or "Nothing to import" when it writes none). */
export function ConfirmActions({
  cancelLabel,
  onCancel,
  confirmLabel,
  disabled,
  onConfirm,
  children,
}: {
  cancelLabel: string;
  onCancel: () => void;
  confirmLabel: string;
  disabled: boolean;
  onConfirm: () => void;
  /** Another choice, between the two. */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <button type="button" className={buttonClasses("outline")} onClick={onCancel}>
        {cancelLabel}
      </button>
      {children}
      <button type="button" className={buttonClasses("primary")} disabled={disabled} onClick={onConfirm}>
        {confirmLabel}
      </button>
    </div>
  );
}

/**
 * A job's step in words, as every job of Mesa says it: "En cola" while it waits, "Revisando las filas: 3000 de
 * 20000" while it counts, "Leyendo el archivo…" when there is nothing to count yet.
 */
export function progressText(
  t: ReturnType<typeof useI18n>["t"],
  state: string,
  progress: { done: number; total: number; label: TranslationKey | "" },
): string {
  const { done, total, label } = progress;
  if (state === "queued" || label === "") return t("jobs.queued");
  if (total > 0) return t("jobs.progress_count", { label: t(label), done, total });
  return `${t(label)}…`;
}

/**
 * A running job's step and how far it got, as every job of Mesa shows it (the Management page's places import, the
 * report and the diner import dialogs): a spinner with the title, a bar (busy when there is nothing to count yet),
 * the step in words ("Revisando las filas: 3000 de 20000") read out as it changes, and a line saying it goes on in
 * the background.
 */
export function JobProgress({
  testId,
  title,
  state,
  progress,
  inBackground,
}: {
  testId: string;
  title: string;
  state: "queued" | "running";
  progress: { done: number; total: number; label: TranslationKey | "" };
  inBackground: string;
}) {
  const { t } = useI18n();
  const { done, total } = progress;
  const text = progressText(t, state, progress);
  return (
    <section
      className="space-y-2 rounded-md border bg-card px-4 py-3 text-sm"
      aria-label={title}
      data-testid={testId}
      data-state="running"
    >
      <p className="flex items-center gap-2 font-medium">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        {title}
      </p>
      <progress
        className="h-2 w-full accent-primary"
        aria-label={text}
        {...(total > 0 ? { value: done, max: total } : {})}
      />
      <p role="status" aria-live="polite" className="text-xs text-muted-foreground">
        {text}
      </p>
      <p className="text-xs text-muted-foreground">{inBackground}</p>
    </section>
  );
}
