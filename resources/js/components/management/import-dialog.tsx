/**
 * The places workbook import: choose an .xlsx file and upload it with a progress bar. A file the server refuses at
 * once (too large, not a workbook) is said on the file field; otherwise the dialog closes and the Management page
 * follows the check (import-job.tsx) to its preview — what would be created, changed or left alone, or the rows to
 * fix. Nothing is saved until the person confirms the preview there.
 */
import { useForm } from "@inertiajs/react";
import { Download, FileSpreadsheet } from "lucide-react";
import { useId, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { buttonClasses } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";

/** The largest workbook the server accepts (src/domain/spreadsheets/read.ts). */
const MAX_BYTES = 5 * 1024 * 1024;

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const fileId = useId();
  const form = useForm<{ file: File | null }>({ file: null });
  const errors = form.errors as Record<string, string | undefined>;
  const fileError = errors.file ?? errors.form;

  const close = () => {
    form.reset();
    form.clearErrors();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("management.import"), { forceFormData: true, preserveScroll: true, onSuccess: () => close() });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t("import.title")}
      description={t("import.description")}
      closeLabel={t("import.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1.5">
          <label id={`${fileId}-label`} htmlFor={fileId} className="text-sm font-medium">
            {t("import.file_label")}
          </label>
          {/* The native picker speaks the browser's language; this one speaks the page's. */}
          <div className="flex items-center gap-3">
            <input
              id={fileId}
              name="file"
              type="file"
              required
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              className="peer sr-only"
              aria-labelledby={`${fileId}-label ${fileId}-button`}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? `${fileId}-error` : `${fileId}-chosen`}
              onChange={(e) => {
                const file = e.target.files?.[0] ?? null;
                form.clearErrors();
                // The server refuses larger files too; saying so here spares the upload.
                if (file && file.size > MAX_BYTES) {
                  form.setError("file", t("import.file_too_large", { max: 5 }));
                  form.setData("file", null);
                } else form.setData("file", file);
              }}
            />
            <label
              id={`${fileId}-button`}
              htmlFor={fileId}
              className={buttonClasses(
                "outline",
                "shrink-0 cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring",
              )}
            >
              <FileSpreadsheet className="size-4" aria-hidden="true" />
              {t("import.choose_file")}
            </label>
            <span id={`${fileId}-chosen`} role="status" className="min-w-0 truncate text-sm text-muted-foreground">
              {form.data.file?.name ?? t("import.no_file")}
            </span>
          </div>
          {fileError && (
            <p id={`${fileId}-error`} className="text-sm text-destructive">
              {fileError}
            </p>
          )}
        </div>
        <a
          href={route("management.import_template")}
          download
          className="inline-flex items-center gap-1.5 text-sm text-primary underline-offset-4 hover:underline"
        >
          <Download className="size-4" aria-hidden="true" />
          {t("import.template")}
        </a>
        {form.progress && (
          <div className="space-y-1">
            <progress
              className="h-2 w-full accent-primary"
              value={form.progress.percentage ?? 0}
              max={100}
              aria-label={t("import.uploading", { percent: form.progress.percentage ?? 0 })}
            />
            <p className="text-xs text-muted-foreground" role="status">
              {t("import.uploading", { percent: form.progress.percentage ?? 0 })}
            </p>
          </div>
        )}
        <DialogActions
          onCancel={close}
          cancelLabel={t("import.cancel")}
          submitLabel={t("import.submit")}
          busy={form.processing || !form.data.file}
        />
      </form>
    </Dialog>
  );
}
